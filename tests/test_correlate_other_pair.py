"""``mtscore correlate`` refuses a human file of another language pair (issue 24): every WMT22 pair's
metric scores against every other pair's human file, segment and system level, with one line naming
the file and what did not match; the right pair's file is accepted; ``--systems overlap`` lets a
partial overlap through, naming the systems left out."""

from __future__ import annotations

import contextlib
import itertools
from pathlib import Path

import pytest

from mtscore.cli import main

from .conftest import WMT22, needs_wmt22, wmt22_pairs

pytestmark = needs_wmt22


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """(pair, level) -> BLEU scores of every system of the pair against its first reference:
    segment scores (``--segments -f tsv``) and system scores (``-f tsv``)."""
    folder = tmp_path_factory.mktemp("scores")
    out: dict[tuple[str, str], Path] = {}
    for pair in wmt22_pairs():
        root = WMT22 / pair
        ref = sorted((root / "references").glob("*.txt"))[0]
        systems = sorted(str(p) for p in (root / "systems").glob("*.txt")
                         if p.stem != f"HUMAN-{ref.stem}")
        for level, extra in (("segment", ["--segments"]), ("system", [])):
            path = folder / f"{pair}-{level}.tsv"
            with path.open("w", encoding="utf-8") as handle, contextlib.redirect_stdout(handle):
                assert main(["score", "-r", str(ref), "-i", *systems, "-m", "bleu", "-f", "tsv",
                             "-q", *extra]) == 0
            out[pair, level] = path
    return out


def _human(pair: str) -> str:
    return str(WMT22 / pair / "human" / "segments.tsv")


@pytest.mark.parametrize("level", ["segment", "system"])
def test_the_right_pairs_human_file_is_accepted(scores: dict[tuple[str, str], Path], level: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    for pair in wmt22_pairs():
        code, out, err = _run(capsys, "correlate", str(scores[pair, level]), _human(pair))
        assert code == 0, err
        assert "correlation with human scores" in out


@pytest.mark.parametrize("level", ["segment", "system"])
def test_another_pairs_human_file_is_refused(scores: dict[tuple[str, str], Path], level: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    combos = list(itertools.permutations(wmt22_pairs(), 2))
    assert len(combos) >= 12
    for metric_pair, human_pair in combos:
        code, out, err = _run(capsys, "correlate", str(scores[metric_pair, level]), _human(human_pair))
        assert code == 1 and out == "", (metric_pair, human_pair, out)
        assert len(err.splitlines()) == 1 and err.startswith("mtscore correlate: error: ")
        assert "only partly match" in err and _human(human_pair) in err, err
        assert "only in the human file:" in err and "only in the metric file:" in err


def _subset(source: Path, keep: set[str], target: Path) -> str:
    """The long-format file ``source`` with only the systems in ``keep``."""
    lines = source.read_text(encoding="utf-8").splitlines()
    target.write_text("\n".join([lines[0], *(line for line in lines[1:]
                                             if line.split("\t", 1)[0] in keep)]) + "\n",
                      encoding="utf-8")
    return str(target)


def test_common_systems_only_are_refused_by_segments(scores: dict[tuple[str, str], Path],
                                                     tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """de-en BLEU of only the systems zh-en has too: the system check cannot see it, the segments
    can (de-en has 1,984 segments, zh-en 1,875), both ways."""
    de, zh = {p.stem for p in (WMT22 / "de-en" / "systems").glob("*.txt")}, \
        {p.stem for p in (WMT22 / "zh-en" / "systems").glob("*.txt")}
    common = de & zh
    assert len(common) >= 5
    de_common = _subset(scores["de-en", "segment"], common, tmp_path / "de-common.tsv")
    code, _, err = _run(capsys, "correlate", de_common, _human("zh-en"))
    assert code == 1 and len(err.splitlines()) == 1
    assert f"{de_common}: scores segments 1..1984, but the human file {_human('zh-en')} belongs " \
           "to the data set zh-en of 1875 segments" in err
    zh_common = _subset(scores["zh-en", "segment"], common, tmp_path / "zh-common.tsv")
    code, _, err = _run(capsys, "correlate", zh_common, _human("de-en"))
    assert code == 1 and len(err.splitlines()) == 1
    assert f"{_human('de-en')}: seg_id " in err and "is beyond the metric scores' segments " \
           f"(1..1875 in {zh_common})" in err


def test_overlap_correlates_the_common_systems(scores: dict[tuple[str, str], Path],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "correlate", str(scores["de-en", "system"]), _human("zh-en"),
                          "--systems", "overlap")
    assert code == 0, err
    assert "left out (no human scores): LT22, PROMT" in out
    assert "left out (no metric scores): AISP-SJTU" in out
