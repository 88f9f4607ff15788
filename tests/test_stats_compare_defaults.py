"""``mtscore compare``'s defaults decide: resamples enough for the Holm correction, one seed,
p-values at the floor printed as ``< 1/(R+1)``, identical systems never split, lower-is-better
metrics ranked the right way, external scores compared like built-in metrics."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from mtscore import BLEU
from mtscore.cli import main
from mtscore.data import sample_path
from mtscore.errors import OptionError
from mtscore.io.scores import ScoreRecord, format_scores, read_scores
from mtscore.io.text import read_lines
from mtscore.stats import (
    DEFAULT_SEED,
    SegmentMean,
    approximate_randomization,
    p_text,
    paired_bootstrap,
    resamples_for,
)

from .conftest import WMT22, needs_wmt22

SAMPLE = sample_path()
REF = str(SAMPLE / "references" / "A.txt")


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_resample_rule() -> None:
    # R + 1 >= 10 m / alpha, in thousands, at least sacreBLEU's defaults
    assert resamples_for(78, 0.05) == 16000  # WMT22 zh-en, 13 systems, all pairs
    assert resamples_for(12, 0.05) == 3000   # the same against a baseline
    assert resamples_for(3, 0.05) == 1000 and resamples_for(3, 0.05, "ar") == 10000
    assert resamples_for(10**6, 0.01) == 1_000_000  # the limit
    for m in (1, 3, 78, 500):
        r = resamples_for(m)
        assert m / (r + 1) < 0.05
    assert DEFAULT_SEED == 12345


def test_tiny_p_values_print_as_a_bound() -> None:
    assert p_text(1 / 1000, 999) == "< 0.001"
    assert p_text(1 / 16001, 16000) == "< 0.00007"
    assert p_text(0.0123, 999) == "0.0123" and p_text(float("nan")) == "–"


@needs_wmt22
def test_zh_en_defaults_separate_the_machine_systems(capsys) -> None:
    """The issue's Must-show: default options on WMT22 zh-en (both references, all 13 systems).
    HUMAN-B is reference B itself: it is left out with a warning (issue 24), so the family is the 12
    machine systems' 66 pairs."""
    pair = WMT22 / "zh-en"
    systems = sorted(str(p) for p in (pair / "systems").glob("*.txt"))
    code, out, err = _run(capsys, "compare", "-r", str(pair / "references" / "A.txt"),
                          str(pair / "references" / "B.txt"), "-i", *systems, "-f", "json", "-q")
    assert code == 0 and "system HUMAN-B is identical to the reference" in err
    result = json.loads(out)
    assert result["seed"] == 12345 and result["resamples"] == resamples_for(66) and result["level_reachable"]
    clusters = {r["system"]: r["cluster"] for r in result["systems"]}
    assert "HUMAN-B" not in clusters and len(clusters) == 12 and len(result["comparisons"]) == 66
    assert any(c["p_holm"] < 0.05 for c in result["comparisons"])
    assert len(set(clusters.values())) > 2


def test_too_few_resamples_are_named(capsys) -> None:
    files = [str(SAMPLE / "systems" / f"{n}.txt") for n in ("Online-B", "Online-A", "LT22", "PROMT")]
    code, out, _ = _run(capsys, "compare", "-r", REF, "-i", *files, "--resamples", "100")
    assert code == 0 and "cannot reach the level" in out and "--resamples 2000" in out
    code, _, err = _run(capsys, "compare", "-r", REF, "-i", *files, "--resamples", str(10**8))
    assert code == 1 and "1,000,000" in err
    for option, value in (("--alpha", "nan"), ("--confidence", "inf"), ("--alpha", "1.5")):
        code, _, err = _run(capsys, "compare", "-r", REF, "-i", *files, option, value)
        assert code == 1 and option in err and "finite" in err


def test_identical_systems_share_a_cluster(tmp_path: Path, capsys) -> None:
    a = tmp_path / "LT22.txt"
    shutil.copy(SAMPLE / "systems" / "LT22.txt", a)
    b = tmp_path / "copy-of-LT22.txt"
    shutil.copy(a, b)
    other = str(SAMPLE / "systems" / "Online-B.txt")
    code, out, _ = _run(capsys, "compare", "-r", REF, "-i", str(a), str(b), other, "-f", "json")
    assert code == 0
    result = json.loads(out)
    clusters = {r["system"]: r["cluster"] for r in result["systems"]}
    assert clusters["LT22"] == clusters["copy-of-LT22"]
    pair = next(c for c in result["comparisons"] if {c["system"], c["other"]} ==
                {"LT22", "copy-of-LT22"})
    assert pair["difference"] == 0 and pair["p_value"] == 1.0
    # the API, both tests: a zero difference is never significant
    bleu = BLEU()
    stats = bleu.extract(read_lines(a), [read_lines(REF)])
    for test in (paired_bootstrap, approximate_randomization):
        res = test(bleu, {"a": stats, "b": stats}, None, 200, 1)
        assert res.comparisons[0].pvalue == 1.0 and res.clusters() == [["a", "b"]]


def test_a_file_given_twice_is_named(capsys) -> None:
    code, _, err = _run(capsys, "compare", "-r", REF, "-i", REF, REF)
    assert code == 1 and "given twice in -i" in err and err.count("\n") == 1


def _external(tmp_path: Path, lower: bool = False) -> tuple[str, dict[str, np.ndarray]]:
    rng = np.random.default_rng(7)
    scores = {"good": rng.normal(0.8, 0.05, 300), "bad": rng.normal(0.5, 0.05, 300),
              "mid": rng.normal(0.65, 0.05, 300)}
    if lower:
        scores = {k: 1 - v for k, v in scores.items()}
    rows = [ScoreRecord(s, i + 1, "ERR" if lower else "COMET", float(v), "wmt22-comet-da|x")
            for s, vals in scores.items() for i, v in enumerate(vals)]
    path = tmp_path / "ext.tsv"
    path.write_text(format_scores(rows) + "\n", encoding="utf-8")
    return str(path), scores


def test_external_scores_are_compared_like_metrics(tmp_path: Path, capsys) -> None:
    path, scores = _external(tmp_path)
    code, out, _ = _run(capsys, "compare", "--scores", path, "-f", "json",
                        "--resamples", "500", "--seed", "3")
    assert code == 0
    result = json.loads(out)
    api = paired_bootstrap(SegmentMean("COMET"), {k: SegmentMean.stats(v) for k, v in scores.items()},
                           None, 500, 3)
    assert [r["system"] for r in result["systems"]] == api.ranking() == ["good", "mid", "bad"]
    assert [c["p_value"] for c in result["comparisons"]] == [c.pvalue for c in api.comparisons]
    assert result["signature"] == "COMET|wmt22-comet-da|x"
    assert [r["score"] for r in result["systems"]] == pytest.approx(
        [float(np.mean(scores[s])) for s in ("good", "mid", "bad")])
    code, out, _ = _run(capsys, "compare", "-m", "none", "--scores", path, "--scores-signature",
                        "COMET|given", "-f", "json", "--resamples", "100")
    assert json.loads(out)["signature"] == "COMET|given"


def test_lower_is_better_ranks_and_clusters(tmp_path: Path, capsys) -> None:
    path, _ = _external(tmp_path, lower=True)
    code, out, _ = _run(capsys, "compare", "-m", "none", "--scores", path, "--lower-is-better",
                        "ERR", "-f", "json", "--resamples", "1000")
    assert code == 0
    result = json.loads(out)
    assert [r["system"] for r in result["systems"]] == ["good", "mid", "bad"]
    assert [r["cluster"] for r in result["systems"]] == [1, 2, 3]
    assert all(c["difference"] < 0 for c in result["comparisons"])  # better = lower


def test_tsv_is_one_long_format_table(tmp_path: Path, capsys) -> None:
    files = [str(SAMPLE / "systems" / f"{n}.txt") for n in ("Online-B", "LT22")]
    code, out, _ = _run(capsys, "compare", "-r", REF, "-i", *files, "-f", "tsv", "--baseline", "LT22",
                        "--resamples", "200")
    assert code == 0 and "\n\n" not in out.strip()
    path = tmp_path / "c.tsv"
    path.write_text(out, encoding="utf-8")
    back = read_scores(str(path))
    assert back.systems() == ("Online-B", "LT22") and back.metrics() == ("BLEU",)
    assert "bs:200|seed:12345" in back.signature("BLEU")
    header = out.split("\n", 1)[0].split("\t")
    assert header[:5] == ["system", "seg_id", "metric", "score", "signature"] and "p_holm" in header


def test_option_checks_in_the_api() -> None:
    bleu = BLEU()
    stats = bleu.extract(["a b c"] * 3, [["a b c"] * 3])
    with pytest.raises(OptionError, match="1,000,000"):
        paired_bootstrap(bleu, {"a": stats, "b": stats}, None, 10**7)


def test_long_resampling_shows_progress_on_a_terminal(monkeypatch, capsys) -> None:
    from mtscore import progress

    stats = {k: SegmentMean.stats(np.arange(2500.0) * (k + 1)) for k in range(3)}
    monkeypatch.setattr(progress, "enabled", lambda: True)
    paired_bootstrap(SegmentMean("m"), stats, None, 20_000, 1)  # 1,600 resamples a chunk: 13 chunks
    assert "bootstrap" in capsys.readouterr().err
    approximate_randomization(SegmentMean("m"), stats, None, 20_000, 1)
    assert "randomization" in capsys.readouterr().err
    monkeypatch.setattr(progress, "enabled", lambda: False)  # not a terminal, or --quiet
    paired_bootstrap(SegmentMean("m"), stats, None, 20_000, 1)
    assert capsys.readouterr().err == ""
