"""``mtscore score -m meteor`` and ``mtscore explain``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtscore import corpus_meteor
from mtscore.cli import build_parser, main

REF = ["the president then spoke to the audience", "he went home by car"]
HYP = ["the president spoke to the audience", "he goes home by automobile"]


def _record(out: list | dict) -> dict:
    """The one system's JSON record (a list of one, or the object itself)."""
    return out[0] if isinstance(out, list) else out


@pytest.fixture()
def files(tmp_path: Path) -> tuple[str, str]:
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("\n".join(REF) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(HYP) + "\n", encoding="utf-8")
    return str(ref), str(hyp)


def test_score_meteor_json_equals_api(files: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = files
    assert main(["score", "-r", ref, "-i", hyp, "-m", "meteor", "-f", "json", "-q"]) == 0
    out = _record(json.loads(capsys.readouterr().out))
    api = corpus_meteor(HYP, [REF])
    assert out["score"] == pytest.approx(api.score, abs=1e-12)
    assert out["signature"] == api.signature


def test_score_meteor_options(files: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = files
    assert main(["score", "-r", ref, "-i", hyp, "-m", "meteor", "-f", "json", "-q",
                 "--meteor-modules", "exact", "wn_stem", "--meteor-variant", "1.5",
                 "--meteor-weights", "1", "0.5"]) == 0
    out = _record(json.loads(capsys.readouterr().out))
    api = corpus_meteor(HYP, [REF], modules=["exact", "wn_stem"], variant="1.5", weights=[1, 0.5])
    assert out["score"] == pytest.approx(api.score, abs=1e-12)
    assert "variant:1.5|modules:exact+wn_stem|weights:1+0.5" in out["signature"]


def test_score_meteor_segments(files: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = files
    assert main(["score", "-r", ref, "-i", hyp, "-m", "meteor", "--segments", "-f", "json", "-q"]) == 0
    rows = json.loads(capsys.readouterr().out)
    api = corpus_meteor(HYP, [REF])
    assert [r["score"] for r in rows] == pytest.approx([s.score for s in api.segments], abs=1e-12)


def test_weights_must_match_modules(files: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = files
    assert main(["score", "-r", ref, "-i", hyp, "-m", "meteor", "--meteor-weights", "1", "-q"]) == 1
    assert "one weight per module" in capsys.readouterr().err


def test_explain_shows_alignment_and_arithmetic(files: tuple[str, str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = files
    assert main(["explain", "-r", ref, "-i", hyp, "--line", "1"]) == 0
    out = capsys.readouterr().out
    assert "chunks (2): [the president] [spoke to the audience]" in out
    assert "P = m/|hyp| = 6/6 = 1.000000" in out
    assert "R = m/|ref| = 6/7 = 0.857143" in out
    assert "Penalty = 0.5·(chunks/m)^3 = 0.5·(2/6)^3 = 0.018519" in out
    assert "= 0.853462" in out
    assert "unmatched ref: 2:then" in out


def test_explain_modules_and_json(files: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = files
    assert main(["explain", "-r", ref, "-i", hyp, "-n", "2", "-f", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    modules = {(m["hyp_word"], m["ref_word"]): m["module"] for m in out["alignment"]}
    assert modules[("automobile", "car")] == "synonym"
    assert modules[("he", "he")] == "exact"
    assert out["score"] == pytest.approx(corpus_meteor([HYP[1]], [[REF[1]]]).score)


def test_explain_line_out_of_range(files: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = files
    assert main(["explain", "-r", ref, "-i", hyp, "--line", "3"]) == 1
    assert "out of range: the file has 2 lines" in capsys.readouterr().err


def test_help_lists_meteor_options(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    sub = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    with pytest.raises(SystemExit):  # --help names METEOR; --help-metric meteor shows its options
        main(["score", "--help-metric", "meteor"])
    score_help = capsys.readouterr().out
    for opt in ("--meteor-modules", "--meteor-variant", "--meteor-alpha", "--meteor-delta",
                "--meteor-weights", "--meteor-stopwords", "--meteor-jar-beam", "--meteor-tokenize"):
        assert opt in score_help
    assert "--line" in sub["explain"].format_help()
