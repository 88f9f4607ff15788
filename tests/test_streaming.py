"""Streaming: files read in chunks give the statistics, scores and errors of whole-file reading."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.data import sample_path
from mtscore.errors import InputError
from mtscore.io.text import decode_lines, read_lines
from mtscore.metrics.base import SegmentStats
from mtscore.metrics.bleu import BLEU
from mtscore.metrics.chrf import CHRF
from mtscore.metrics.nist import NIST
from mtscore.streaming import LineReader, iter_chunks, score_files

from . import registry_metrics

FOLDER = sample_path()
REFS = [str(FOLDER / "references" / f"{r}.txt") for r in ("A", "B")]
HYP = str(FOLDER / "systems" / "Online-A.txt")


def _all_lines(reader: LineReader, n: int) -> list[str]:
    out: list[str] = []
    while part := reader.take(n):
        out.extend(part)
    return out


lines_strategy = st.lists(st.text(st.characters(blacklist_characters="\n", blacklist_categories=["Cs"]),
                                  max_size=6), min_size=1, max_size=12)


@settings(max_examples=150, deadline=None)
@given(lines=lines_strategy, crlf=st.booleans(), final=st.booleans(), bom=st.booleans(),
       block=st.integers(1, 9), take=st.integers(1, 5))
def test_line_reader_equals_whole_file_reading(lines, crlf, final, bom, block, take) -> None:
    """Any block and chunk size: the segments io.text reads from the whole file."""
    data = ("\r\n" if crlf else "\n").join(lines).encode() + (b"\n" if final else b"")
    data = (b"\xef\xbb\xbf" if bom else b"") + data
    try:
        expected = decode_lines(data, "x")
    except InputError as err:  # (CR-only line ends): the same refusal
        with pytest.raises(InputError, match="CR line ends"):
            _all_lines(LineReader(io.BytesIO(data), "x", block=block), take)
        assert "CR line ends" in str(err)
        return
    if not expected:
        with pytest.raises(InputError, match="empty"):
            _all_lines(LineReader(io.BytesIO(data), "x", block=block), take)
        return
    assert _all_lines(LineReader(io.BytesIO(data), "x", block=block), take) == expected


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.binary(max_size=6).filter(lambda b: b"\n" not in b), min_size=1, max_size=12),
       crlf=st.booleans(), block=st.integers(1, 9), take=st.integers(1, 5))
def test_line_reader_decodes_bytes_as_whole_file_reading(lines, crlf, block, take) -> None:
    """Any bytes (invalid UTF-8 too), decoded line by line in blocks: the segments, or the error
    naming the line and column, that io.text gives for the whole file."""
    data = (b"\r\n" if crlf else b"\n").join(lines) + b"\n"
    try:
        expected = decode_lines(data, "x")
    except InputError as err:
        with pytest.raises(InputError) as got:
            _all_lines(LineReader(io.BytesIO(data), "x", block=block), take)
        assert str(got.value) == str(err)
        return
    assert _all_lines(LineReader(io.BytesIO(data), "x", block=block), take) == expected


@pytest.mark.parametrize("bom", [b"\xfe\xff", b"\xff\xfe", b"\xef\xbb\xbf"])
@pytest.mark.parametrize("block", [1, 2, 3])
def test_a_bom_cut_by_the_first_reads_is_still_recognised(bom, block) -> None:
    """A byte-order mark read a byte at a time: UTF-16's is refused as io.text refuses it (not
    'invalid UTF-8'), UTF-8's dropped (hypothesis found the one-byte UTF-16 case)."""
    data = bom + b"a\n"
    try:
        expected = decode_lines(data, "x")
    except InputError as err:
        with pytest.raises(InputError) as got:
            _all_lines(LineReader(io.BytesIO(data), "x", block=block), 1)
        assert str(got.value) == str(err) and "UTF-16" in str(err)
        return
    assert _all_lines(LineReader(io.BytesIO(data), "x", block=block), 1) == expected == ["a"]


def test_invalid_utf8_in_a_later_block_names_the_line() -> None:
    data = b"".join(b"line %d\n" % i for i in range(1, 1000)) + b"bad \xc3\x28 here\nlast\n"
    reader = LineReader(io.BytesIO(data), "f.txt", block=64)
    with pytest.raises(InputError, match=r"f\.txt, line 1000: invalid UTF-8 \(byte 0xc3 at column 5\)"):
        _all_lines(reader, 7)


def test_a_bom_inside_the_file_is_text() -> None:
    data = b"a\n\xef\xbb\xbfb\n"
    assert _all_lines(LineReader(io.BytesIO(data), "x", block=2), 1) == decode_lines(data, "x") \
        == ["a", "\ufeffb"]


@pytest.mark.parametrize("metric", registry_metrics.metrics(), ids=registry_metrics.NAMES)
def test_chunked_statistics_equal_whole_corpus(metric) -> None:
    hyps, refs = read_lines(HYP), [read_lines(p) for p in REFS]
    whole = metric.extract(hyps, refs)
    parts = list(metric.extract_stream(iter(hyps), [iter(r) for r in refs], chunk_size=97))
    assert len(parts) == -(-len(hyps) // 97)
    joined = SegmentStats.concat(parts)
    assert joined.columns == whole.columns and dict(joined.meta) == dict(whole.meta)
    assert np.array_equal(joined.values, whole.values)  # exact, floats included (NIST)


@pytest.mark.parametrize("metric", [BLEU(), NIST(), CHRF()], ids=lambda m: type(m).__name__)
def test_score_files_equals_corpus_score(metric) -> None:
    hyps, refs = read_lines(HYP), [read_lines(p) for p in REFS]
    expected = metric.corpus_score(hyps, refs)
    for keep_rows in (False, True):
        gathered = score_files(HYP, REFS, metric, chunk_size=50, jobs=1, keep_rows=keep_rows)
        (result,) = gathered.results()[HYP].values()
        assert result.score == expected.score and result.signature == expected.signature
    assert len(gathered.stats(0, 0)) == len(hyps)


def test_iterables_of_different_lengths_are_named() -> None:
    hyps = ["a b"] * 25
    with pytest.raises(InputError, match="reference stream 1 has 24 segments but the hypotheses have 25"):
        list(BLEU().extract_stream(hyps, [["a b"] * 25, ["a"] * 24], chunk_size=10))
    with pytest.raises(InputError, match="one list per segment"):
        list(iter_chunks(["a", "b", "c"], [["x", "y"], ["x", "y"], ["x", "y"]], 10))
    with pytest.raises(InputError, match="empty corpus"):
        list(iter_chunks([], [[]], 10))


def test_file_length_mismatch_in_a_later_chunk(tmp_path) -> None:
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    ref.write_text("a b\n" * 120)
    hyp.write_text("a b\n" * 117)
    with pytest.raises(InputError, match=rf"{hyp}: has 117 lines but reference {ref} has 120"):
        score_files(str(hyp), str(ref), BLEU(), chunk_size=10)
    hyp.write_text("a b\n" * 130)
    with pytest.raises(InputError, match=rf"{hyp}: has 130 lines but reference {ref} has 120"):
        score_files(str(hyp), str(ref), BLEU(), chunk_size=10)


def test_bad_chunk_options() -> None:
    from mtscore.errors import OptionError

    with pytest.raises(OptionError, match="chunk size"):
        score_files(HYP, REFS, BLEU(), chunk_size=0)
    with pytest.raises(OptionError, match="--jobs"):
        score_files(HYP, REFS, BLEU(), jobs=0)
