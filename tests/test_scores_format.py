"""The long score format (``mtscore.io.scores``): round trips in every encoding, pandas, and the
errors for malformed files."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.errors import InputError
from mtscore.io.scores import (
    COLUMNS,
    FORMATS,
    LongScores,
    ScoreRecord,
    format_scores,
    from_pandas,
    read_scores,
    read_table,
)

names = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters=","),
                min_size=1, max_size=8).map(str.strip).filter(bool)
records = st.lists(st.builds(ScoreRecord, names, st.one_of(st.none(), st.integers(1, 10**12)),
                             st.sampled_from(["BLEU", "METEOR", "COMET-22"]),
                             st.floats(allow_nan=False, allow_infinity=False, width=64),
                             st.sampled_from(["", "BLEU|nrefs:1", "wmt22-comet-da"])),
                   min_size=1, max_size=20, unique_by=lambda r: (r.system, r.seg_id, r.metric))


@settings(max_examples=60, deadline=None)
@given(records, st.sampled_from(FORMATS))
def test_round_trip_every_format(tmp_path_factory, rows: list[ScoreRecord], fmt: str) -> None:
    path = tmp_path_factory.mktemp("s") / f"scores.{fmt}"
    path.write_text(format_scores(rows, fmt) + "\n", encoding="utf-8")
    assert read_scores(str(path)).records == tuple(rows)  # full precision: floats equal exactly


def test_content_decides_without_a_known_ending(tmp_path: Path) -> None:
    rows = [ScoreRecord("A", 1, "BLEU", 1.5, "s"), ScoreRecord("B", None, "BLEU", 2.0)]
    for fmt in FORMATS:
        path = tmp_path / f"scores-{fmt}.out"
        path.write_text(format_scores(rows, fmt), encoding="utf-8")
        assert read_scores(str(path)).records == tuple(rows)


def test_lookups_and_pandas_round_trip() -> None:
    rows = (ScoreRecord("A", 1, "BLEU", 1.0, "sig"), ScoreRecord("A", 2, "BLEU", 3.0, "sig"),
            ScoreRecord("A", None, "BLEU", 2.5, "sig"), ScoreRecord("B", 1, "COMET", 0.5))
    scores = LongScores(rows, "x")
    assert scores.metrics() == ("BLEU", "COMET") and scores.systems() == ("A", "B")
    assert scores.segment_scores("BLEU") == {"A": {1: 1.0, 2: 3.0}}
    assert scores.system_scores("BLEU") == {"A": 2.5} and scores.signature("BLEU") == "sig"
    frame = scores.to_pandas()
    assert list(frame.columns) == list(COLUMNS) and str(frame["seg_id"].dtype) == "Int64"
    assert from_pandas(frame).records == rows
    assert len(repr(scores)) < 1000 and "LongScores" in scores._repr_html_()


def test_score_command_and_external_layouts(tmp_path: Path) -> None:
    """``score --segments -f tsv``'s 4 columns, and a tool's ``system seg_id score`` with a name."""
    four = tmp_path / "s.tsv"
    four.write_text("system\tseg_id\tmetric\tscore\nA\t1\tBLEU\t12.5\n", encoding="utf-8")
    assert read_scores(str(four)).records == (ScoreRecord("A", 1, "BLEU", 12.5),)
    three = tmp_path / "comet.csv"
    three.write_text("system,seg_id,score\nA,1,0.8\nA,2,0.7\n", encoding="utf-8")
    assert read_scores(str(three), metric="COMET").segment_scores("COMET") == {"A": {1: 0.8, 2: 0.7}}


@pytest.mark.parametrize(("content", "message"), [
    ("system\tseg_id\tmetric\tscore\nA\t1.7\tBLEU\t1\n", "seg_id '1.7' is not a positive integer"),
    ("system\tseg_id\tmetric\tscore\nA\t0_1\tBLEU\t1\n", "seg_id '0_1'"),
    ("system\tseg_id\tmetric\tscore\nA\t\u0661\tBLEU\t1\n", "is not a positive integer"),
    ("system\tseg_id\tmetric\tscore\nA\t0\tBLEU\t1\n", "seg_id 0 is out of range"),
    ("system\tseg_id\tmetric\tscore\nA\t1\tBLEU\tnan\n", "not a finite number"),
    ("system\tseg_id\tmetric\tscore\nA\t1\tBLEU\tinf\n", "not a finite number"),
    ("system\tseg_id\tmetric\tscore\nA\t1\tBLEU\tx\n", "score 'x' is not a number"),
    ("system\tseg_id\tmetric\tscore\nA\t1\tBLEU\t1\nA\t1\tBLEU\t2\n", "given twice (first on line 2)"),
    ("system\tz\tz\tmetric\tscore\nA\t1\t2\tB\t1\n", "column 'z' appears twice"),
    ("system\tseg_id\tmetric\nA\t1\tBLEU\n", "no 'score' column"),
    ("system\tseg_id\tmetric\tscore\nA\t1\tBLEU\n", "3 columns, the header has 4"),
    ("", "empty"),
])
def test_malformed_files_name_file_and_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.tsv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.tsv") as err:
        read_scores(str(path))
    assert message in str(err.value)


def test_json_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"system": "A", "system": "B", "metric": "m", "score": 1}\n', encoding="utf-8")
    with pytest.raises(InputError, match="appears twice"):
        read_scores(str(path))
    path.write_text('{"system": "A", "seg_id": 1.0, "metric": "m", "score": 1}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"seg_id 1\.0"):
        read_scores(str(path))
    path.write_text("[" * 100000, encoding="utf-8")
    with pytest.raises(InputError, match="not valid JSON"):
        read_scores(str(path))


def test_read_table_keeps_other_columns(tmp_path: Path) -> None:
    path = tmp_path / "segments.tsv"
    path.write_text("system\tseg_id\traw\tz\tn\nA\t1\t100.0\t1.6\t1\n", encoding="utf-8")
    header, rows = read_table(str(path))
    assert header == ("system", "seg_id", "raw", "z", "n")
    assert rows == [{"_line": 2, "system": "A", "seg_id": "1", "raw": "100.0", "z": "1.6", "n": "1"}]
    assert math.isclose(float(rows[0]["z"]), 1.6)
