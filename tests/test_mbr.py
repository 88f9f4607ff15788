"""MBR selection (mtscore.mbr, ``mtscore mbr``): expected utilities from sacreBLEU loops."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mtscore
from mtscore.cli import main

sacrebleu = pytest.importorskip("sacrebleu")

SOURCES = [
    ["The cat sat on the mat.", "The cat sat on a mat.", "A dog barked.", "The cat sat on the mat."],
    ["It rains.", "It is raining.", "Rain falls today.", "It is raining today."],
    ["Hello!", "Hi!", "Hello there!", "Good day."],
]


def _sacre_utilities(cands: list[str], refs: list[str], metric: object) -> np.ndarray:
    return np.array([np.mean([metric.sentence_score(c, [r]).score for r in refs])  # type: ignore[attr-defined]
                     for c in cands])


@pytest.mark.parametrize(("name", "theirs"), [("chrf", "CHRF()"), ("chrf++", "CHRF(word_order=2)"),
                                              ("bleu", "BLEU(effective_order=True)")])
def test_selection_is_the_best_mean_sacrebleu_score(name: str, theirs: str) -> None:
    metric = eval(f"sacrebleu.metrics.{theirs}")
    results = mtscore.mbr(name, SOURCES)
    assert isinstance(results, list)
    for cands, result in zip(SOURCES, results):
        expected = _sacre_utilities(cands, cands, metric)
        np.testing.assert_allclose(result.utilities, expected, rtol=0, atol=1e-9)
        assert result.index == int(np.argmax(expected))
        assert result.candidate == cands[result.index]
        assert result.utility == pytest.approx(expected.max(), abs=1e-9)


def test_separate_pseudo_references_and_meteor() -> None:
    cands, refs = SOURCES[0], SOURCES[1] + ["the cat is on the mat"]
    result = mtscore.mbr("meteor", cands, refs)
    assert isinstance(result, mtscore.MBRResult)
    expected = [np.mean([mtscore.sentence_meteor(c, [r]).score for r in refs]) for c in cands]
    np.testing.assert_allclose(result.utilities, expected, rtol=0, atol=1e-9)
    assert result.signature.startswith("METEOR")


def test_aggregate_utilities() -> None:
    result = mtscore.mbr("chrf", SOURCES[1], aggregate=True)
    assert result.aggregate and "|nrefs:mean|" in result.signature
    np.testing.assert_allclose(result.utilities, mtscore.pairwise("chrf", SOURCES[1], aggregate=True))


def test_single_candidate() -> None:
    result = mtscore.mbr("bleu", ["only one"])
    assert result.index == 0 and result.candidate == "only one"


# ---- the command ------------------------------------------------------------------------------------

def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_fixed_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cands.txt"
    path.write_text("".join(c + "\n" for cands in SOURCES for c in cands), encoding="utf-8")
    code, out, _ = _run(["mbr", str(path), "-n", "4", "-m", "chrf"], capsys)
    assert code == 0
    expected = [r.candidate for r in mtscore.mbr("chrf", SOURCES)]  # type: ignore[union-attr]
    assert out.splitlines() == expected
    code, out, _ = _run(["mbr", str(path), "-n", "4", "-m", "bleu", "--scores"], capsys)
    rows = [line.split("\t") for line in out.splitlines()]
    assert len(rows) == 12 and [r[0] for r in rows[:4]] == ["1"] * 4
    metric = sacrebleu.metrics.BLEU(effective_order=True)
    utilities = _sacre_utilities(SOURCES[2], SOURCES[2], metric)
    assert [float(r[2]) for r in rows[8:]] == pytest.approx(utilities.tolist(), abs=1e-9)
    assert [r[3] for r in rows[8:]].count("1") == 1 and [r[4] for r in rows[8:]] == SOURCES[2]
    code, out, _ = _run(["mbr", str(path), "-n", "4", "--aggregate", "--scores"], capsys)
    aggregated = mtscore.pairwise("chrf", SOURCES, aggregate=True)
    assert [float(line.split("\t")[2]) for line in out.splitlines()] == \
        pytest.approx(np.ravel(aggregated).tolist(), abs=1e-9)


def test_cli_tsv_and_references(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cands = tmp_path / "c.tsv"
    cands.write_text("".join(f"s{s}\t{c}\n" for s, group in enumerate(SOURCES) for c in group[:3]),
                     encoding="utf-8")
    refs = tmp_path / "r.tsv"
    refs.write_text("".join(f"s{s}\t{c}\n" for s, group in enumerate(SOURCES) for c in group[1:]),
                    encoding="utf-8")
    code, out, _ = _run(["mbr", str(cands), "-r", str(refs), "-m", "chrf++"], capsys)
    assert code == 0
    expected = mtscore.mbr("chrf++", [g[:3] for g in SOURCES], [g[1:] for g in SOURCES])
    assert out.splitlines() == [f"s{s}\t{r.candidate}" for s, r in enumerate(expected)]  # type: ignore[arg-type]


@pytest.mark.parametrize(("content", "extra", "message"), [
    ("a\nb\nc\n", ["-n", "2"], "has 3 lines, not a multiple of --num-candidates 2"),
    ("s1\ta\ns1 b\n", [], "line 2: no tab"),
    ("s1\ta\ns2\tb\ns1\tc\n", [], "line 3: source id 's1' again"),
    ("a\nb\n", ["-n", "0"], "--num-candidates"),
    ("a\nb\n", ["--num-references", "2"], "needs --num-candidates"),
    ("a\nb\n", ["-n", "1", "--aggregate", "-m", "meteor"], "aggregation"),
    ("", ["-n", "1"], "empty file"),
])
def test_cli_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, extra: list[str],
                    message: str) -> None:
    path = tmp_path / "in.txt"
    path.write_text(content, encoding="utf-8")
    code, _, err = _run(["mbr", str(path), *extra], capsys)
    assert code == 1 and message in err and "Traceback" not in err


def test_cli_reference_mismatches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cands = tmp_path / "c.tsv"
    cands.write_text("s1\ta\ns2\tb\n", encoding="utf-8")
    refs = tmp_path / "r.tsv"
    refs.write_text("s1\ta\ns3\tb\n", encoding="utf-8")
    code, _, err = _run(["mbr", str(cands), "-r", str(refs)], capsys)
    assert code == 1 and "r.tsv, line 2: source id 's3' where the candidates have 's2'" in err
    plain = tmp_path / "c.txt"
    plain.write_text("a\nb\nc\nd\n", encoding="utf-8")
    short = tmp_path / "r.txt"
    short.write_text("a\n", encoding="utf-8")
    code, _, err = _run(["mbr", str(plain), "-n", "2", "-r", str(short), "--num-references", "1"], capsys)
    assert code == 1 and "r.txt: has 1 lines, but 2 sources" in err
    code, _, err = _run(["mbr", str(short), "-n", "1", "-r", str(plain)], capsys)
    assert code == 1 and "more lines than the 1 sources" in err


def test_cli_streams_standard_input() -> None:
    data = "".join(f"{s}\t{c}\n" for s, group in enumerate(SOURCES) for c in group)
    done = subprocess.run([sys.executable, "-m", "mtscore", "mbr", "-", "-m", "bleu"], input=data,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == len(SOURCES)
