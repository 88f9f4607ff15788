"""The study's analyses one by one, external scores in every table, the wide layout, and failure
behaviour: what the data cannot support is a note naming the metric, the rest is still shown;
empty data sets are refused in one line; names are drawn literally; reports are never half-written."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

from mtscore.cli import main
from mtscore.io.dataset import load_dataset
from mtscore.report.study_tables import render_study, study_tables
from mtscore.study import run_study
from mtscore.study.analysis import (
    block_analysis,
    corpus_scores,
    extract,
    human_scores,
    segment_correlations,
    significance,
    system_correlations,
)
from mtscore.study.metrics import Statistics, default_metrics

from .test_report_study import make_dataset

SYSTEMS = {"alpha": 0.1, "beta": 0.2, "gamma": 0.35, "delta": 0.5, "HUMAN-B": 0.0}


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    return make_dataset(tmp_path_factory.mktemp("ds") / "toy", systems=SYSTEMS, segments=60)


@pytest.fixture(scope="module")
def parts(toy):
    ds = load_dataset(toy)
    specs = default_metrics(meteor=False)
    ex = extract(Statistics(ds), specs)
    return ds, ex, corpus_scores(ex), human_scores(ds, [])


# ---- each analysis alone -------------------------------------------------------------------------

def test_corpus_scores_alone(parts):
    ds, _ex, sc, _ = parts
    import sacrebleu

    refs = [ds.references[r] for r in ds.reference_ids_for("alpha")]
    assert sc.corpus["BLEU"]["alpha"] == pytest.approx(
        sacrebleu.corpus_bleu(ds.systems["alpha"], refs).score, abs=1e-9)
    assert sc.signatures["BLEU"].startswith("BLEU|nrefs:2")
    assert len(sc.segments["BLEU"]["alpha"]) == ds.segments


def test_system_correlations_alone(parts):
    _ds, ex, sc, hs = parts
    labels = [s.label for s in ex.specs]
    out, rank, failed = system_correlations(ex, sc, hs, "z", labels, interval=False,
                                            resamples=10, seed=1)
    assert not failed
    x = [sc.corpus["BLEU"][s] for s in hs.judged]
    y = [hs.systems["z"][s] for s in hs.judged]
    assert out["BLEU"].statistic == pytest.approx(np.corrcoef(x, y)[0, 1], abs=1e-12)
    assert rank["BLEU"]["kendall"] == pytest.approx(scipy.stats.kendalltau(x, y).statistic)


def test_segment_correlations_alone(parts):
    _ds, _ex, sc, hs = parts
    out, failed = segment_correlations(sc, hs, "z", ["BLEU"])
    assert not failed
    h = hs.segments["z"]["alpha"]
    keep = ~np.isnan(h)
    r = np.corrcoef(sc.segments["BLEU"]["alpha"][keep], h[keep])[0, 1]
    assert out["BLEU"]["alpha"].statistic == pytest.approx(r, abs=1e-12)


def test_significance_and_blocks_alone(parts):
    ds, ex, _sc, _ = parts
    res, _apart, failed = significance(ex, 50, 3)
    assert not failed and set(res) == {s.label for s in ex.specs}
    notes: list[str] = []
    block = block_analysis(ex, ds.segments, None, 25, notes)
    assert block is not None and block.blocks == 2 and block.segments_used == 50  # whole corpus


def test_ter_is_ranked_lowest_first(parts):
    _ds, ex, sc, _ = parts
    if "TER" not in sc.corpus:
        pytest.skip("TER not in this installation yet")
    res, _, _ = significance(ex, 20, 3)
    ranking = res["TER"].ranking()
    assert ranking == sorted(ranking, key=lambda s: sc.corpus["TER"][s])


# ---- external scores and the wide layout --------------------------------------------------------

def _comet_file(root: Path, tmp: Path) -> Path:
    ds = load_dataset(root)
    rng = np.random.default_rng(0)
    lines = ["system\tseg_id\tmetric\tscore\tsignature"]
    for s in ds.systems:
        for i in range(1, ds.segments + 1):
            lines.append(f"{s}\t{i}\tCOMET\t{rng.random():.6f}\tCOMET|model:toy")
    path = tmp / "comet.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_external_scores_in_every_table(toy, tmp_path, capsys):
    comet = _comet_file(toy, tmp_path)
    assert main(["study", str(toy), "--no-meteor", "--resamples", "30", "--scores", str(comet),
                 "-f", "json", "-q", "--layout", "wide"]) == 0
    out = json.loads(capsys.readouterr().out)
    tables = out["tables"]
    assert "COMET" in tables["corpus"]["columns"] and "COMET" in tables["wide"]["columns"]
    assert "COMET" in tables["segment"]["columns"]
    for tid in ("system", "human", "significance"):
        assert any(row[0] == "COMET" for row in tables[tid]["rows"]), tid
    assert any("COMET|model:toy" in n for n in tables["corpus"]["notes"])
    # the corpus score is the mean of the segment scores
    ds = load_dataset(toy)
    values = [float(ln.split("\t")[3]) for ln in comet.read_text().splitlines()[1:]
              if ln.startswith("alpha\t")]
    row = next(r for r in tables["corpus"]["rows"] if r[0] == "alpha")
    assert row[tables["corpus"]["columns"].index("COMET")] == pytest.approx(np.mean(values))
    assert len(values) == ds.segments


def test_external_scores_must_cover_every_segment(toy, tmp_path, capsys):
    comet = _comet_file(toy, tmp_path)
    comet.write_text("\n".join(comet.read_text().splitlines()[:-1]) + "\n")
    assert main(["study", str(toy), "--no-meteor", "--scores", str(comet), "-q"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "comet.tsv" in err[0] and "missing" in err[0]


@pytest.mark.slow
def test_wide_layout_every_format(toy, capsys):
    for fmt in ("text", "tsv", "markdown", "latex"):
        assert main(["study", str(toy), "--no-meteor", "--tables", "corpus", "--layout", "wide",
                     "-f", fmt, "-q", "--resamples", "10"]) == 0
        out = capsys.readouterr().out
        assert "BLEU" in out and "alpha" in out


# ---- degrade by section ---------------------------------------------------------------------------

def _rewrite_human(root: Path, fn) -> None:
    path = root / "human" / "segments.tsv"
    lines = path.read_text().splitlines()
    out = [lines[0]] + [fn(ln.split("\t")) for ln in lines[1:]]
    path.write_text("\n".join("\t".join(c) if isinstance(c, list) else c for c in out) + "\n")


def test_constant_human_scores_are_a_note_naming_the_metrics(toy, tmp_path):
    root = tmp_path / "const"
    shutil.copytree(toy, root)
    _rewrite_human(root, lambda c: [c[0], c[1], "50", "0.1", c[4]])
    study = run_study(root, resamples=20, meteor=False, tables=("corpus", "system", "segment",
                                                                 "significance"))
    assert "corpus" in study_tables(study) and "significance" in study_tables(study)
    notes = " ".join(study.table_notes.get("system", ()))
    assert "BLEU" in notes and "not shown" in notes
    assert "system" in study_tables(study)  # a title and the note, not a crash
    text = render_study(study, "text")
    assert "BLEU" in text and "not shown" in text
    for m in study.metrics:
        assert all(math.isfinite(v) for v in study.corpus_scores[m].values())
    pytest.importorskip("matplotlib")
    from mtscore.report.study_report import write_report

    html = write_report(study, tmp_path / "r.html").html.read_text(encoding="utf-8")
    assert "the human z system scores are constant" in html


def test_identical_systems_and_empty_references(tmp_path):
    root = make_dataset(tmp_path / "same", systems={"a": 0.2, "b": 0.3, "c": 0.4}, segments=40)
    text = (root / "systems" / "a.txt").read_text()
    for name in ("b", "c"):
        (root / "systems" / f"{name}.txt").write_text(text)
    for ref in ("A", "B"):
        (root / "references" / f"{ref}.txt").write_text("\n" * 40)
    study = run_study(root, resamples=20, meteor=False)
    assert {"corpus", "significance", "references"} <= set(study_tables(study))
    assert study.table_notes.get("system")  # constant metric scores: a note, not a failure
    res = study.significance["BLEU"]
    assert len(res.clusters()) == 1  # identical systems are never split


def test_empty_data_set_is_one_line_and_non_zero(tmp_path):
    root = tmp_path / "empty"
    for folder in ("references", "systems"):
        (root / folder).mkdir(parents=True)
    (root / "references" / "A.txt").write_text("")
    (root / "systems" / "x.txt").write_text("")
    (root / "systems" / "y.txt").write_text("")
    proc = subprocess.run([sys.executable, "-m", "mtscore", "study", str(root), "-q"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert proc.stdout == ""


# ---- literal names, files never half-written ------------------------------------------------------

@pytest.mark.slow
def test_names_are_drawn_literally(tmp_path):
    pytest.importorskip("matplotlib")
    from mtscore.report.study_report import write_report

    names = {"$\\frac{x$": 0.1, "cost $5 or $6": 0.2, "plain": 0.3, "HUMAN-B": 0.0}
    root = make_dataset(tmp_path / "odd", systems=names, segments=40)
    study = run_study(root, resamples=20, meteor=False)
    written = write_report(study, tmp_path / "r.html")
    html = written.html.read_text(encoding="utf-8")
    assert "$\\frac{x$" in html and "cost $5 or $6" in html
    from mtscore.report.study_report import build_report

    fig = next(f for f in build_report(study).figures() if f.name == "scores")
    labels = [t.get_text() for t in fig.mpl.axes[0].get_yticklabels()]
    assert "$\\frac{x$" in labels and "cost $5 or $6" in labels
    assert fig.svg and fig.png  # drawn without a maths parser error
    assert main(["report", str(root), "-o", str(tmp_path / "r2.html"), "-q", "--no-meteor",
                 "--resamples", "20"]) == 0


def test_non_utf8_name_is_drawn(tmp_path):
    pytest.importorskip("matplotlib")
    from mtscore.report import figures as F

    fig = F.system_scores_figure(["caf\udce9", "ok"], {"BLEU": [1.0, 2.0]})
    assert fig.png.startswith(b"\x89PNG")
    assert "caf\\udce9" in [t.get_text() for t in fig.mpl.axes[0].get_yticklabels()]


def test_a_failed_write_leaves_the_old_report(tmp_path, monkeypatch):
    from mtscore.report import html as H

    target = tmp_path / "report.html"
    target.write_text("old report")

    def broken(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(H.os, "replace", broken)
    with pytest.raises(OSError):
        H.write_atomic(target, b"new" * 1000)
    assert target.read_text() == "old report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]  # no temp file left


def test_destination_is_checked_before_the_study(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["report", "sample", "-o", str(blocker / "r.html"), "-q"]) != 0
    err = capsys.readouterr().err
    assert "is a file, not a folder" in err and len(err.strip().splitlines()) == 1
    if os.geteuid() != 0:  # root may write anywhere
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        assert main(["report", "sample", "-o", str(ro / "r.html"), "-q"]) != 0
        assert "no permission" in capsys.readouterr().err
