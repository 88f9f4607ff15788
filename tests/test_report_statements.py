"""What the study's tables and report *say* matches their numbers (issue 24, "wrong statements"):

* a cluster is the ranking cut where every system above is significantly better than every system
  below — not "systems not significantly different"; a significant pair inside a cluster is named
  in the text (checked by brute force over the Holm-corrected p-value matrix);
* every row's signature has the references that row was scored with (a human translation is
  scored against the other references only: its own nrefs);
* human translations are apart from the ranking and the Holm family unless asked.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from mtscore.data import sample_path
from mtscore.report.clusters import pairs_inside
from mtscore.report.study_report import _summary, key_metrics, key_table
from mtscore.report.study_tables import render_study, study_tables
from mtscore.study import run_study

ALPHA = 0.05
SRC = Path(__file__).resolve().parents[1] / "src" / "mtscore"


@pytest.fixture(scope="module")
def study():
    return run_study(sample_path(), tables=["corpus", "bleu", "significance"], meteor=False)


def _inside_by_brute_force(res, clusters):
    """Every pair of one cluster whose Holm-corrected p is below alpha, from the p matrix."""
    p = res.p_matrix(corrected=True)
    index = {s: k for k, s in enumerate(res.systems)}
    found = set()
    for cluster in clusters:
        for i, a in enumerate(cluster):
            for b in cluster[i + 1:]:
                if p[index[a], index[b]] < ALPHA:
                    found.add((a, b))
    return found


def test_clusters_follow_the_stated_rule(study):
    for res in study.significance.values():
        ranking = res.ranking()
        p = res.p_matrix(corrected=True)
        index = {s: k for k, s in enumerate(res.systems)}
        clusters = res.clusters(ALPHA)
        assert [s for c in clusters for s in c] == ranking
        cut = 0
        for c in clusters[:-1]:
            cut += len(c)
            above, below = ranking[:cut], ranking[cut:]
            assert all(p[index[a], index[b]] < ALPHA for a in above for b in below)


def test_every_significant_pair_inside_a_cluster_is_named(study):
    table = study_tables(study)["significance"]
    key = key_table(study)
    summary = " ".join(_summary(study))
    seen = 0
    for m, res in study.significance.items():
        clusters = res.clusters(ALPHA)
        expected = _inside_by_brute_force(res, clusters)
        listed = {(x.better, x.worse) for x in pairs_inside(res, clusters, ALPHA)}
        assert {frozenset(x) for x in listed} == {frozenset(x) for x in expected}
        seen += len(expected)
        notes = [n for n in table.notes if n.startswith(f"{m}: significant pairs inside")]
        key_notes = [n for n in key.notes if n.startswith(f"{m}: significant pairs inside")]
        if not expected:
            assert not notes and not key_notes
            continue
        assert len(notes) == 1
        for better, worse in listed:
            assert f"{better} > {worse}" in notes[0]
            if m in key_metrics(study):
                assert f"{better} > {worse}" in key_notes[0]
                if better in clusters[0]:
                    assert f"{better} > {worse}" in summary
    assert seen, "the sample has significant pairs inside clusters (chrF: JDExploreAcademy > PROMT)"


def test_no_text_says_a_cluster_is_not_significantly_different(study):
    texts = [*study_tables(study)["significance"].notes, *key_table(study).notes, *_summary(study),
             render_study(study, "text")]
    for text in texts:
        assert "not significantly different" not in text and "no significant difference" not in text
    for path in (SRC / "report").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "clusters of systems not significantly different" not in source, path
    assert "cut where every system above is significantly better than every system below" in \
        " ".join(key_table(study).notes)


def _signature_for(notes, metric: str, refs: str) -> str:
    """The signature a table's notes give the row scored against ``refs``."""
    lines = [n for n in notes if (n.startswith(f"{metric}: ") or n.startswith(f"{metric} ("))
             and "|" in n.rsplit(": ", 1)[1] and " " not in n.rsplit(": ", 1)[1]]
    assert lines, metric
    if len(lines) == 1 and lines[0].startswith(f"{metric}: "):
        return lines[0].split(": ", 1)[1]
    for line in lines:
        m = re.match(rf"{re.escape(metric)} \(.*; refs ([^)]*)\): (.*)$", line)
        assert m, line
        if refs in m.group(1).split(" / "):
            return m.group(2)
    raise AssertionError(f"no signature of {metric} for refs {refs}: {lines}")


def test_every_rows_signature_has_its_own_references(study):
    key, corpus = key_table(study), study_tables(study)["corpus"]
    assert key.columns[1] == "refs" and corpus.columns[1] == "refs"
    for table, metrics in ((key, key_metrics(study)), (corpus, study.metrics)):
        for row in table.rows:
            system, refs = row[0], row[1]
            assert refs == "+".join(study.reference_sets[system])
            for m in metrics:
                sig = _signature_for(table.notes, m, refs)
                assert f"nrefs:{len(study.reference_sets[system])}|" in sig
                assert sig == study.corpus_results[m][system].signature
    # the human translation has its own signature (nrefs:1), the machines theirs (nrefs:2)
    assert study.reference_sets["HUMAN-B"] == ("A",)
    assert "nrefs:1|" in _signature_for(key.notes, "BLEU", "A")
    assert "nrefs:2|" in _signature_for(key.notes, "BLEU", "A+B")


def test_human_translations_are_apart_from_the_ranking(study):
    for m, res in study.significance.items():
        assert "HUMAN-B" not in res.systems
        ci = study.intervals_apart[m]["HUMAN-B"]
        assert ci.ci_low <= study.corpus_scores[m]["HUMAN-B"] <= ci.ci_high
        assert ci.resamples == res.resamples and ci.seed == res.seed
    row = next(r for r in key_table(study).rows if r[0] == "HUMAN-B")
    cluster_cells = [row[k] for k, c in enumerate(key_table(study).columns) if c == "cluster"]
    assert cluster_cells and all(c is None for c in cluster_cells)
    assert "--rank-human" in study.settings["ranking"]


def test_rank_human_puts_them_back_in_the_family():
    ranked = run_study(sample_path(), tables=["significance"], meteor=False, resamples=200,
                       rank_human=True)
    res = ranked.significance["BLEU"]
    assert "HUMAN-B" in res.systems and len(res.comparisons) == 45
    assert not any(ranked.intervals_apart.values())
    assert np.isfinite(res.scores[res.systems.index("HUMAN-B")])


def _latex_ready() -> bool:
    import shutil
    import subprocess

    if shutil.which("pdflatex") is None or shutil.which("kpsewhich") is None:
        return False
    found = subprocess.run(["kpsewhich", "booktabs.sty", "graphicx.sty"], capture_output=True,
                           text=True, check=False).stdout.split()
    return len(found) == 2


@pytest.mark.skipif(not _latex_ready(), reason="pdflatex with booktabs.sty and graphicx.sty not "
                    "installed (Debian: texlive-latex-base texlive-latex-recommended)")
def test_the_studys_latex_fits_the_page(tmp_path):
    """Every table of the study (the 15-column corpus table, the references table, the settings
    with their long values) compiles with no box wider than the text by more than 10 pt."""
    import subprocess

    full = run_study(sample_path(), meteor=False, resamples=200)
    body = render_study(full, "latex")
    assert r"-{}-no-meteor" in body  # not typeset as an en dash
    assert "site-packages" not in body and str(sample_path()) not in body
    tex = tmp_path / "study.tex"
    tex.write_text("\\documentclass{article}\n\\usepackage{booktabs}\n\\usepackage{graphicx}\n"
                   "\\begin{document}\n" + body
                   + "\n\\clearpage\n\\end{document}\n", encoding="utf-8")
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex.name],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:]
    log = (tmp_path / "study.log").read_text(encoding="latin-1")
    overfull = [float(x) for x in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]
    assert not [x for x in overfull if x > 10], overfull
