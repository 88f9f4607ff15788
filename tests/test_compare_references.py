"""compare: references given as sacreBLEU takes them (positional), and a system that is a copy of a
reference left out of the comparisons with a warning (issue 24)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtscore.cli import main

SAMPLE = Path(__file__).resolve().parents[1] / "src" / "mtscore" / "data" / "sample" / "wmt22-de-en"
REF_A, REF_B = str(SAMPLE / "references" / "A.txt"), str(SAMPLE / "references" / "B.txt")
SYSTEMS = [str(SAMPLE / "systems" / f"{n}.txt") for n in ("Online-A", "Online-B", "LT22")]


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[dict, str]:
    assert main(["compare", *argv, "--resamples", "100", "-f", "json"]) == 0
    out = capsys.readouterr()
    return json.loads(out.out), out.err


def test_positional_references_equal_dash_r(capsys: pytest.CaptureFixture[str]) -> None:
    with_r, _ = _json(capsys, "-r", REF_A, "-i", *SYSTEMS)
    positional, _ = _json(capsys, REF_A, "-i", *SYSTEMS)
    assert positional == with_r


def test_both_ways_at_once_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", REF_A, "-r", REF_B, "-i", *SYSTEMS]) == 1
    assert "either before the options or with -r" in capsys.readouterr().err


def test_a_copy_of_a_reference_is_left_out_with_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    human_b = str(SAMPLE / "systems" / "HUMAN-B.txt")
    assert Path(human_b).read_bytes() == Path(REF_B).read_bytes()
    result, err = _json(capsys, "-r", REF_A, REF_B, "-i", human_b, *SYSTEMS)
    assert "warning: system HUMAN-B is identical to the reference" in err
    assert {s["system"] for s in result["systems"]} == {"Online-A", "Online-B", "LT22"}
    assert all("HUMAN-B" not in (c["system"], c["other"]) for c in result["comparisons"])
    expected, _ = _json(capsys, "-r", REF_A, REF_B, "-i", *SYSTEMS)
    assert result == expected  # the Holm family without it


def test_only_copies_left_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    human_b = str(SAMPLE / "systems" / "HUMAN-B.txt")
    assert main(["compare", "-r", REF_B, "-i", human_b, SYSTEMS[0]]) == 1
    assert "at least two systems that are not copies of a reference" in capsys.readouterr().err
