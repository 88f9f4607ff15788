"""The report of a study on small made-up data sets: every section the data allow, clear notes for
the ones they do not, numbers traced to independent computations, and the report command's options."""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from mtscore.cli import main
from mtscore.report.html import render_html
from mtscore.report.study_report import build_report, key_table, write_report
from mtscore.study import run_study

from .report_support import image_bytes, parse, table_cells

WORDS = [
    "the", "a", "cat", "dog", "sat", "on", "mat", "house", "garden", "ran", "quickly", "slowly", "big",
    "small", "red", "blue", "green", "tree", "river", "stone",
]


def make_dataset(root: Path, *, systems: dict[str, float], segments: int = 80, judged: int | None = None,
                 seed: int = 7) -> Path:
    """A data set folder: references A and B, one system per noise level (HUMAN-B is reference
    B), human segment scores for the first ``judged`` systems (all by default)."""
    rng = random.Random(seed)
    (root / "references").mkdir(parents=True)
    (root / "systems").mkdir()
    ref_a = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))) for _ in range(segments)]
    ref_b = [" ".join(t if rng.random() > 0.3 else rng.choice(WORDS) for t in r.split()) for r in ref_a]
    (root / "references" / "A.txt").write_text("\n".join(ref_a) + "\n", encoding="utf-8")
    (root / "references" / "B.txt").write_text("\n".join(ref_b) + "\n", encoding="utf-8")
    outputs = {}
    for name, noise in systems.items():
        if name == "HUMAN-B":
            outputs[name] = ref_b
        else:
            outputs[name] = [" ".join(t if rng.random() > noise else rng.choice(WORDS) for t in r.split())
                             for r in ref_a]
        (root / "systems" / f"{name}.txt").write_text("\n".join(outputs[name]) + "\n", encoding="utf-8")
    names = list(systems)[: len(systems) if judged is None else judged]
    if names:
        (root / "human").mkdir()
        rows = ["system\tseg_id\traw\tz\tn"]
        for name in names:
            for i in range(segments):
                if rng.random() < 0.1:
                    continue  # not every segment is judged
                quality = 1.0 - systems[name] + rng.gauss(0, 0.25)
                rows.append(f"{name}\t{i + 1}\t{100 * quality:.1f}\t{quality - 0.6:.4f}\t1")
        (root / "human" / "segments.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def judged_study(tmp_path_factory):
    root = make_dataset(tmp_path_factory.mktemp("ds") / "toy",
                        systems={"alpha": 0.1, "beta": 0.2, "gamma": 0.35, "delta": 0.5, "HUMAN-B": 0.0})
    return run_study(root, resamples=200, seed=3, meteor=False, blocks=3, block_size=20)


def _sections(html: str):
    root = parse(html)
    return root, {s.attrs["id"]: s for s in root.iter("section")}


def test_full_report_on_a_judged_data_set(judged_study):
    report = build_report(judged_study)
    root, sections = _sections(render_html(report))
    for sid in ("scores", "precision", "human", "normalized", "segment", "significance", "blocks",
                "modules", "references", "signatures"):
        assert sid in sections, sid
    assert len(list(sections["human"].iter("img"))) == len(judged_study.metrics)
    for img in root.iter("img"):
        _mime, data = image_bytes(img)
        assert ET.fromstring(data).tag.endswith("svg")
    # METEOR was left out: the ablation section says why instead of showing a table
    assert not list(sections["modules"].iter("table"))
    assert "METEOR" in sections["modules"].all_text()


def test_key_table_is_the_studys_numbers(judged_study):
    t = key_table(judged_study)
    rows = {r[0]: r for r in t.rows}
    human = judged_study.human_scores["z"]
    assert [r[0] for r in t.rows] == sorted(human, key=lambda s: -human[s])
    res = judged_study.significance["BLEU"]
    # the human translation has its own references (refs column) and is not ranked (no cluster)
    assert t.columns[:3] == ("system", "refs", "human (z)")
    assert rows["HUMAN-B"][1] == "A" and all(rows[s][1] == "A+B" for s in rows if s != "HUMAN-B")
    assert "HUMAN-B" not in res.systems
    for s, row in rows.items():
        assert row[2] == pytest.approx(human[s])
        assert row[3] == judged_study.corpus_scores["BLEU"][s]
        ci = judged_study.interval("BLEU", s)
        assert ci is not None and (row[4], row[5]) == (ci.ci_low, ci.ci_high)
        if s in res.systems:
            assert ci is res.intervals[res.systems.index(s)]
    assert t.columns[4:7] == ("BLEU low", "BLEU high", "cluster")
    assert rows["HUMAN-B"][6] is None
    # clusters: 1 = best; a system's cluster is that of res.clusters()
    for k, cluster in enumerate(res.clusters(), start=1):
        for s in cluster:
            assert rows[s][6] == k


def test_normalized_table_is_range_normalized(judged_study):
    report = build_report(judged_study)
    _, sections = _sections(render_html(report, width=4))
    head, rows = table_cells(next(sections["normalized"].iter("table")))
    judged = list(judged_study.judged_systems)
    for col in ("human (z)", "BLEU"):
        source = (judged_study.human_scores["z"] if col.startswith("human")
                  else judged_study.corpus_scores["BLEU"])
        lo, hi = min(source[s] for s in judged), max(source[s] for s in judged)
        for row in rows:
            expected = (source[row[0]] - lo) / (hi - lo)
            assert float(row[head.index(col)]) == pytest.approx(expected, abs=5e-5)


def test_summary_names_the_best_system_and_the_top_cluster(judged_study):
    report = build_report(judged_study)
    human = judged_study.human_scores["z"]
    best = max(human, key=lambda s: human[s])
    assert any(line.startswith(f"Best system by human judgment: {best}") for line in report.summary)
    top = judged_study.significance["BLEU"].clusters()[0]
    if len(top) == 1:
        assert f"BLEU: {top[0]} is significantly better than every other ranked system." \
            in report.summary


def test_report_without_human_scores(tmp_path):
    root = make_dataset(tmp_path / "nohuman", systems={"a": 0.1, "b": 0.4}, judged=0, segments=50)
    study = run_study(root, resamples=100, seed=0, meteor=False)
    _, sections = _sections(render_html(build_report(study)))
    assert "normalized" not in sections
    assert "no human scores" in sections["human"].all_text()
    assert {"scores", "precision", "significance", "signatures"} <= set(sections)
    assert "human" not in " ".join(key_table(study).columns)
    assert "Data:" not in sections["signatures"].all_text()  # no meta.json, nothing to credit


@pytest.mark.slow
def test_report_command_options(tmp_path, capsys):
    root = make_dataset(tmp_path / "ds", systems={"a": 0.1, "b": 0.3, "c": 0.5}, segments=60)
    out = tmp_path / "out" / "r.html"
    rc = main(["report", str(root), "-o", str(out), "--figures", str(tmp_path / "figs"),
               "--figure-format", "png", "--embed", "png", "--no-meteor", "--resamples", "50",
               "--title", "My study", "-q"])
    assert rc == 0
    printed = capsys.readouterr().out
    assert f"report: {out.resolve()}" in printed
    root_node, _ = _sections(out.read_text(encoding="utf-8"))
    assert next(root_node.iter("title")).all_text() == "My study"
    for img in root_node.iter("img"):
        mime, data = image_bytes(img)
        assert mime == "image/png" and data.startswith(b"\x89PNG")
    files = sorted((tmp_path / "figs").iterdir())
    assert files and all(p.suffix == ".png" for p in files)
    assert len(files) == len(list(root_node.iter("img")))


def test_report_command_errors(tmp_path, capsys):
    assert main(["report", str(tmp_path / "missing"), "-o", str(tmp_path / "r.html")]) == 1
    err = capsys.readouterr().err
    assert "missing" in err and "no such data-set folder" in err
    with pytest.raises(SystemExit):
        main(["report", "sample", "--embed", "gif"])


def test_write_report_checks_formats_before_work(judged_study, tmp_path):
    from mtscore.errors import OptionError

    with pytest.raises(OptionError):
        write_report(judged_study, tmp_path / "r.html", figures_dir=tmp_path / "f",
                     figure_formats=("pdf",))
    assert not (tmp_path / "r.html").exists()


def test_human_systems_are_marked_and_r_without_them_is_shown(judged_study):
    report = build_report(judged_study)
    scatter = next(f for f in report.figures() if f.name == "fig5-6-bleu-vs-human")
    texts = [t.get_text() for t in scatter.mpl.axes[0].texts]
    judged = [s for s in judged_study.judged_systems if s not in judged_study.human_systems]
    x = [judged_study.corpus_scores["BLEU"][s] for s in judged]
    y = [judged_study.human_scores["z"][s] for s in judged]
    r = np.corrcoef(x, y)[0, 1]
    assert f"without human translations: r = {r:.3f} (n = {len(judged)})" in texts
    assert not math.isnan(r)


@pytest.mark.slow
def test_study_html_option(tmp_path, capsys):
    import json

    root = make_dataset(tmp_path / "ds", systems={"a": 0.1, "b": 0.3, "c": 0.5}, segments=60)
    html = tmp_path / "study.html"
    rc = main(["study", str(root), "--no-meteor", "--resamples", "50", "-f", "json", "-q",
               "--html", str(html), "--figures", str(tmp_path / "figs")])
    assert rc == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)  # stdout stays the study's JSON
    assert "corpus" in data["tables"]
    assert f"report: {html.resolve()}" in captured.err
    root_node, sections = _sections(html.read_text(encoding="utf-8"))
    assert {"scores", "human", "significance", "signatures"} <= set(sections)
    n_images = len(list(root_node.iter("img")))
    assert len(list((tmp_path / "figs").iterdir())) == 2 * n_images  # png and svg of each


def test_study_figures_need_html(tmp_path, capsys):
    assert main(["study", "sample", "--figures", str(tmp_path / "f")]) == 1
    assert "--html" in capsys.readouterr().err


def test_resolution_note_when_no_difference_can_be_significant(judged_study):
    """m comparisons, R resamples: Holm's smallest adjusted p is m/(R+1) (checked by brute force
    over the study's own p-values)."""
    from dataclasses import replace

    from mtscore.report.study_report import resolution_note
    from mtscore.stats.significance import holm

    res = judged_study.significance["BLEU"]
    m = len(res.comparisons)
    assert m == 6  # 4 machine systems (the human translation is not ranked)
    # with 200 resamples, 6/201 ≥ 0.05 is false: differences can be significant
    assert resolution_note(res) is None
    # with R = 100: the smallest possible p is 1/101 and Holm multiplies it by 6 = 0.059 ≥ 0.05
    coarse = replace(res, resamples=100)
    note = resolution_note(coarse)
    assert note is not None and "at least 120 resamples" in note
    assert min(holm([1 / 101] * m)) >= 0.05  # the floor itself, adjusted, is not significant
    # R = 119: 6/120 = 0.05 is not < 0.05 (note); R = 120: 6/121 < 0.05 (no note)
    assert resolution_note(replace(res, resamples=119)) is not None
    assert resolution_note(replace(res, resamples=120)) is None


def test_report_destination_is_checked_before_the_study(tmp_path, capsys, monkeypatch):
    import mtscore.study

    def never(*a, **k):
        raise AssertionError("the study ran although the report cannot be written")

    monkeypatch.setattr(mtscore.study, "run_study", never)
    (tmp_path / "file").write_text("x")
    assert main(["report", "sample", "-o", str(tmp_path / "file" / "r.html")]) == 1
    assert "is a file, not a folder" in capsys.readouterr().err
    assert main(["report", "sample", "-o", str(tmp_path)]) == 1
    assert "this is a folder" in capsys.readouterr().err
    assert main(["demo", "-o", str(tmp_path / "file" / "r.html")]) == 1
