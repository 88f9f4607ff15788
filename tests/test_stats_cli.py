"""``mtscore correlate`` and ``mtscore compare`` on the embedded sample: values equal the API / scipy
on the same arrays, output formats, and clear errors naming file and line."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
import scipy.stats

from mtscore import BLEU
from mtscore.cli import main
from mtscore.data import sample_path
from mtscore.io.text import read_lines
from mtscore.stats import paired_bootstrap

SAMPLE = sample_path()
SYSTEMS = ["JDExploreAcademy", "Lan-Bridge", "LT22", "Online-A", "Online-B", "Online-G",
           "Online-W", "Online-Y", "PROMT"]


@pytest.fixture(scope="module")
def scores():
    refs = [read_lines(SAMPLE / "references" / "A.txt")]
    bleu = BLEU()
    prepared = bleu.prepare_references(refs)
    sent = BLEU(effective_order=True)
    sent_prepared = sent.prepare_references(refs)
    system, segment = {}, {}
    for name in SYSTEMS:
        hyps = read_lines(SAMPLE / "systems" / f"{name}.txt")
        system[name] = bleu.extract(hyps, prepared)
        segment[name] = sent.segment_scores(sent.extract(hyps, sent_prepared))
    with open(SAMPLE / "human" / "segments.tsv", encoding="utf-8") as handle:
        human = [r for r in csv.DictReader(handle, delimiter="\t") if r["system"] in SYSTEMS]
    return bleu, system, segment, human


def _write(path, rows, header=None):
    with open(path, "w", encoding="utf-8") as handle:
        if header:
            handle.write("\t".join(header) + "\n")
        for row in rows:
            handle.write("\t".join(str(v) for v in row) + "\n")
    return str(path)


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_correlate_system_level(tmp_path, scores, capsys):
    bleu, system, _, human = scores
    corpus = {n: bleu.compute(s.total()).score for n, s in system.items()}
    hmean = {n: np.mean([float(r["z"]) for r in human if r["system"] == n]) for n in SYSTEMS}
    metric_file = _write(tmp_path / "bleu.tsv", corpus.items(), header=("system", "BLEU"))
    human_file = _write(tmp_path / "da.tsv", hmean.items())
    for method, fn, column in (("pearson", scipy.stats.pearsonr, "r"),
                               ("spearman", scipy.stats.spearmanr, "rho"),
                               ("kendall", scipy.stats.kendalltau, "tau_b")):
        code, out, _ = _run(capsys, "correlate", "--metric", metric_file, "--human", human_file,
                            "--method", method, "-f", "json")
        assert code == 0
        row = json.loads(out)[0]
        expected = fn([corpus[n] for n in SYSTEMS], [hmean[n] for n in SYSTEMS])
        assert row[column] == pytest.approx(expected.statistic)
        assert row["p"] == pytest.approx(expected.pvalue)
        assert row["n"] == len(SYSTEMS)
    # human scores per segment: each system's mean over its judged segments (WMT)
    human_seg = _write(tmp_path / "hseg.tsv", [(r["system"], r["seg_id"], r["z"]) for r in human])
    code, out, _ = _run(capsys, "correlate", "--metric", metric_file, "--human", human_seg,
                        "-f", "json")
    expected = scipy.stats.pearsonr([corpus[n] for n in SYSTEMS], [hmean[n] for n in SYSTEMS])
    assert code == 0 and json.loads(out)[0]["r"] == pytest.approx(expected.statistic)
    code, out, _ = _run(capsys, "correlate", "--metric", metric_file, "--human", human_file,
                        "--resamples", "200", "--seed", "3")
    assert code == 0 and "95% low" in out and "over systems" in out


def test_correlate_segment_level(tmp_path, scores, capsys):
    _, _, segment, human = scores
    metric_rows = [(n, i + 1, s) for n in SYSTEMS for i, s in enumerate(segment[n])]
    metric_file = _write(tmp_path / "seg.tsv", metric_rows, header=("system", "seg_id", "score"))
    human_file = _write(tmp_path / "hseg.tsv", [(r["system"], r["seg_id"], r["z"]) for r in human])
    code, out, _ = _run(capsys, "correlate", "--metric", metric_file, "--human", human_file,
                        "--level", "segment", "--grouping", "none", "-f", "json")
    assert code == 0
    m = [segment[r["system"]][int(r["seg_id"]) - 1] for r in human]
    h = [float(r["z"]) for r in human]
    assert json.loads(out)[0]["r"] == pytest.approx(scipy.stats.pearsonr(m, h).statistic)
    # METEOR's protocol: Pearson within each system, then the mean
    code, out, _ = _run(capsys, "correlate", "--metric", metric_file, "--human", human_file,
                        "--level", "segment", "-f", "json")
    per_system = []
    for n in SYSTEMS:
        rows = [r for r in human if r["system"] == n]
        per_system.append(scipy.stats.pearsonr([segment[n][int(r["seg_id"]) - 1] for r in rows],
                                               [float(r["z"]) for r in rows]).statistic)
    assert json.loads(out)[0]["r"] == pytest.approx(np.mean(per_system))
    code, out, _ = _run(capsys, "correlate", "--metric", metric_file, "--human", human_file,
                        "--level", "segment", "--method", "accuracy", "--resamples", "20")
    assert code == 0 and "tie threshold" in out and "grouping item" in out
    # system level from segment files: mean of segment scores, joint segment bootstrap
    code, out, _ = _run(capsys, "correlate", "--metric", metric_file, "--human", human_file,
                        "--level", "system", "--resamples", "50", "-f", "markdown")
    assert code == 0 and "jointly" in out and out.startswith("**")


def test_correlate_errors(tmp_path, scores, capsys):
    good = _write(tmp_path / "m.tsv", [("a", 1), ("b", 2), ("c", 3)])
    human = _write(tmp_path / "h.tsv", [("a", 1), ("b", 2), ("d", 3)])
    code, _, err = _run(capsys, "correlate", "--metric", good, "--human", human, "--systems", "all")
    assert code == 1 and "m.tsv" in err and "no metric score for system(s) d" in err
    # common (the default): each file has a system the other lacks: refused, naming both
    code, _, err = _run(capsys, "correlate", "--metric", good, "--human", human)
    assert code == 1 and len(err.splitlines()) == 1 and "h.tsv" in err
    assert "only in the human file: d; only in the metric file: c" in err
    code, out, _ = _run(capsys, "correlate", "--metric", good, "--human", human, "--systems", "overlap")
    assert code == 0 and "left out (no human scores): c" in out and "left out (no metric scores): d" in out
    bad = _write(tmp_path / "bad.tsv", [("a", 1), ("b", "x1"), ("c", 3)])
    code, _, err = _run(capsys, "correlate", "--metric", bad, "--human", good)
    assert code == 1 and "bad.tsv, line 2" in err and "'x1' is not a number" in err
    seg = _write(tmp_path / "seg.tsv", [("a", 1, 0.5), ("a", 2, 0.1), ("b", 1, 0.2), ("b", 2, 0.3)])
    hseg = _write(tmp_path / "hseg.tsv", [("a", 1, 0.5), ("b", 7, 0.1)])
    code, _, err = _run(capsys, "correlate", "--metric", seg, "--human", hseg, "--level", "segment")
    assert code == 1 and "hseg.tsv" in err and "seg_id 7 (system 'b') is beyond the metric " \
        "scores' segments (1..2 in" in err
    code, _, err = _run(capsys, "correlate", "--metric", seg, "--human", good)
    assert code == 1 and "give human scores per segment too" in err
    code, _, err = _run(capsys, "correlate", "--metric", str(tmp_path / "none.tsv"), "--human", good)
    assert code == 1 and "no such file" in err


def test_compare_equals_api(scores, capsys):
    bleu, system, _, _ = scores
    files = [str(SAMPLE / "systems" / f"{n}.txt") for n in ("Online-B", "Online-A", "LT22")]
    code, out, _ = _run(capsys, "compare", "-r", str(SAMPLE / "references" / "A.txt"), "-i",
                        *files, "--seed", "5", "--resamples", "300", "-f", "json")
    assert code == 0
    result = json.loads(out)
    score_rows, pair_rows = result["systems"], result["comparisons"]
    assert (result["resamples"], result["seed"]) == (300, 5)
    assert result["signature"].startswith("BLEU|nrefs:1") and "bs:300|seed:5" in result["test_signature"]
    api = paired_bootstrap(bleu, {n: system[n] for n in ("Online-B", "Online-A", "LT22")},
                           resamples=300, seed=5)
    assert [r["system"] for r in score_rows] == api.ranking()
    assert {r["system"]: r["cluster"] for r in score_rows}["Online-B"] == 1
    by_pair = {(c.system, c.other): c for c in api.comparisons}
    for row in pair_rows:
        c = by_pair[(row["system"], row["other"])]
        assert row["p_value"] == pytest.approx(c.pvalue) and row["p_holm"] == pytest.approx(c.p_holm)
        assert row["difference"] > 0


def test_compare_baseline_ar_blocks_and_errors(capsys):
    ref = str(SAMPLE / "references" / "A.txt")
    files = [str(SAMPLE / "systems" / f"{n}.txt") for n in ("Online-B", "Online-A", "LT22")]
    code, out, _ = _run(capsys, "compare", "-r", ref, "-i", *files, "--baseline", "Online-A",
                        "--method", "ar", "--resamples", "500", "--blocks", "17")
    assert code == 0 and "against Online-A" in out and "17 blocks of 25" in out
    assert "approximate randomization" in out
    code, _, err = _run(capsys, "compare", "-r", ref, "-i", *files, "--blocks", "20")
    assert code == 1 and "427" in err and "--blocks 17" in err
    code, _, err = _run(capsys, "compare", "-r", ref, "-i", *files, "--baseline", "nope")
    assert code == 1 and "nope" in err
    code, _, err = _run(capsys, "compare", "-r", ref, "-i", files[0])
    assert code == 1 and "at least two" in err


def test_correlate_versus(tmp_path, scores, capsys):
    _, _, segment, human = scores
    rng = np.random.default_rng(0)
    rows_a = [(n, i + 1, s) for n in SYSTEMS for i, s in enumerate(segment[n])]
    rows_b = [(n, i, s + rng.normal(scale=30)) for n, i, s in rows_a]
    file_a = _write(tmp_path / "a.tsv", rows_a)
    file_b = _write(tmp_path / "b.tsv", rows_b)
    human_file = _write(tmp_path / "h.tsv", [(r["system"], r["seg_id"], r["z"]) for r in human])
    code, out, _ = _run(capsys, "correlate", "--metric", file_a, "--versus", file_b, "--human",
                        human_file, "--level", "segment", "--grouping", "none", "--resamples",
                        "100", "-f", "json")
    assert code == 0
    corr, versus = json.loads(out)
    assert [r["metric"] for r in corr] == ["a", "b"]
    row = versus[0]
    m_a = np.array([segment[r["system"]][int(r["seg_id"]) - 1] for r in human])
    b_by = {(n, i): s for n, i, s in rows_b}
    m_b = np.array([b_by[(r["system"], int(r["seg_id"]))] for r in human])
    h = np.array([float(r["z"]) for r in human])
    r12 = scipy.stats.pearsonr(m_b, h).statistic
    r13 = scipy.stats.pearsonr(m_a, h).statistic
    r23 = scipy.stats.pearsonr(m_a, m_b).statistic
    assert row["r A"] == pytest.approx(r13) and row["r B"] == pytest.approx(r12)
    from mtscore.stats import williams_test
    assert row["Williams p (B > A)"] == pytest.approx(williams_test(r12, r13, r23, len(h)).pvalue)
    # the noisy metric B is not better: both one-sided p-values are large
    assert row["Williams p (B > A)"] > 0.5 and row["permutation p (B > A)"] > 0.5
    code, _, err = _run(capsys, "correlate", "--metric", file_a, "--versus",
                        _write(tmp_path / "sys.tsv", [("x", 1.0)]), "--human", human_file,
                        "--level", "segment")
    assert "sys.tsv" in err
    assert code == 1


# ---- end to end against sacreBLEU's own command line ----------------------------------------------

import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

DEEN = Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt22" / "de-en"


@pytest.mark.parity
@pytest.mark.skipif(not DEEN.is_dir(), reason="../shared/data/wmt22 not present")
@pytest.mark.parametrize("method,flag,n", [("bootstrap", ["-pbs", "--paired-bs-n", "500"], 500),
                                           ("ar", ["-par", "--paired-ar-n", "1000"], 1000)])
def test_compare_equals_sacrebleu_cli(tmp_path, capsys, method, flag, n):
    pytest.importorskip("sacrebleu")
    ref = _write(tmp_path / "ref.txt", [[line] for line in
                                        read_lines(DEEN / "references" / "A.txt")[:200]])
    names = ["Online-B", "Online-A", "LT22"]
    files = [_write(tmp_path / f"{n_}.txt", [[line] for line in
                                             read_lines(DEEN / "systems" / f"{n_}.txt")[:200]])
             for n_ in names]
    env = {**os.environ, "SACREBLEU_SEED": "12345"}
    proc = subprocess.run([sys.executable, "-m", "sacrebleu", ref, "-i", *files, "-m", "bleu",
                           *flag, "-f", "json"], capture_output=True, text=True, env=env,
                          check=True)
    theirs = {Path(r["system"].replace("Baseline: ", "")).stem: r["BLEU"]
              for r in json.loads(proc.stdout)}
    code, out, _ = _run(capsys, "compare", "-r", ref, "-i", *files, "--baseline", "Online-B",
                        "--method", method, "--resamples", str(n), "--seed", "12345", "-f", "json")
    assert code == 0
    result = json.loads(out)
    score_rows, pair_rows = result["systems"], result["comparisons"]
    for row in pair_rows:
        assert row["other"] == "Online-B"
        assert row["p_value"] == pytest.approx(theirs[row["system"]]["p_value"], abs=1e-12)
    for row in score_rows:
        assert row["score"] == pytest.approx(theirs[row["system"]]["score"], abs=1e-9)
        if method == "bootstrap":
            assert row["mean"] == pytest.approx(theirs[row["system"]]["mean"], abs=1e-4)
