"""Sentence BLEU one call at a time (``sentence_bleu``, ``BLEU.sentence_score``, tiny corpora) and
the rules' ``compute`` of one row: equal to sacreBLEU 2.6.0 on every segment of WMT22 systems,
and identical (statistics, scores, precisions, brevity penalties) to the vectorized numpy path
(:mod:`mtscore.metrics.bleu.fast`, the fast path of :mod:`mtscore.metrics.bleu.rules`)."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mtscore
from mtscore import BLEU, InputError, corpus_bleu, sentence_bleu
from mtscore.io.text import read_lines
from mtscore.metrics import clipping
from mtscore.metrics.bleu import metric as bleu_module
from mtscore.metrics.bleu.fast import bleu_of_rows
from mtscore.text import span_encoder

from .conftest import WMT22, needs_wmt22

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402

SMOOTHINGS = [("none", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 2.0),
              ("exp", None)]
TOKENIZERS = ["13a", "intl", "zh", "char", "none"]


@pytest.fixture
def numpy_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Force the corpus path (byte-span tokenizer, numpy clipping) even for one segment."""
    monkeypatch.setattr(bleu_module, "SMALL_CORPUS_CHARACTERS", 0)
    monkeypatch.setattr(span_encoder, "SMALL_CORPUS_CHARACTERS", 0)
    monkeypatch.setattr(clipping, "SMALL_CORPUS_TOKENS", 0)


def _vectorized(metric: BLEU, rows: np.ndarray) -> list[tuple[float, tuple[float, ...], float]]:
    """(score, precisions, bp) of every row by the vectorized fast path."""
    score, prec, bp = bleu_of_rows(rows, metric.max_order, metric.smooth, metric.smooth_value,
                                   metric.effective_order)
    return [(s, tuple(p), b) for s, p, b in zip(score.tolist(), prec.tolist(), bp.tolist())]


def _fields(result: mtscore.BLEUResult) -> tuple[float, tuple[float, ...], float]:
    return result.score, result.precisions, result.bp


def _assert_same_as_sacrebleu(ours: mtscore.BLEUResult, theirs: object, where: object,
                              counts: bool = True) -> None:
    """``counts``: compare counts and totals too (sacreBLEU's add-k adds k to those of its result)."""
    if counts:
        assert list(ours.counts) == theirs.counts, where  # type: ignore[attr-defined]
        assert list(ours.totals) == theirs.totals, where  # type: ignore[attr-defined]
    assert (ours.hyp_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len), where  # type: ignore[attr-defined]
    assert abs(ours.score - theirs.score) < 1e-9, where  # type: ignore[attr-defined]
    assert abs(ours.bp - theirs.bp) < 1e-12, where  # type: ignore[attr-defined]
    np.testing.assert_allclose(ours.precisions, theirs.precisions, rtol=0, atol=1e-9,  # type: ignore[attr-defined]
                               err_msg=str(where))


def _wmt22(pair: str, system: str, refs: tuple[str, ...]) -> tuple[list[str], list[list[str]]]:
    folder = WMT22 / pair
    return (read_lines(folder / "systems" / f"{system}.txt"),
            [read_lines(folder / "references" / f"{r}.txt") for r in refs])


# ---- against sacreBLEU, every segment ----------------------------------------------------------

@pytest.mark.parity
@needs_wmt22
@pytest.mark.parametrize("smooth,value", SMOOTHINGS)
@pytest.mark.parametrize("effective", [True, False])
def test_sentence_score_every_segment_every_smoothing(smooth: str, value: float | None,
                                                      effective: bool) -> None:
    hyps, refs = _wmt22("de-en", "Online-A", ("A", "B"))
    ours = BLEU(smooth=smooth, smooth_value=value, effective_order=effective)
    theirs = SacreBLEU(smooth_method=smooth, smooth_value=value, effective_order=effective)
    for i, hyp in enumerate(hyps):
        segment_refs = [refs[0][i]] if i % 2 else [r[i] for r in refs]  # one and two references
        result = ours.sentence_score(hyp, segment_refs)
        _assert_same_as_sacrebleu(result, theirs.sentence_score(hyp, segment_refs), i,
                                  counts=smooth != "add-k")
        if smooth == "add-k":  # sacreBLEU's statistics before its smoothing changes them
            (row,) = theirs._extract_corpus_statistics([hyp], [[r] for r in segment_refs])
            assert [result.hyp_len, result.ref_len, *result.counts, *result.totals] == row


@pytest.mark.parity
@needs_wmt22
@pytest.mark.parametrize("tokenize", TOKENIZERS)
@pytest.mark.parametrize("lowercase", [False, True])
def test_sentence_bleu_every_segment_every_tokenizer(tokenize: str, lowercase: bool) -> None:
    hyps, refs = _wmt22("zh-en", "NiuTrans", ("A", "B"))
    for i, hyp in enumerate(hyps):
        segment_refs = [r[i] for r in refs]
        ours = sentence_bleu(hyp, segment_refs, tokenize=tokenize, lowercase=lowercase)
        theirs = sacrebleu.sentence_bleu(hyp, segment_refs, tokenize=tokenize, lowercase=lowercase)
        _assert_same_as_sacrebleu(ours, theirs, i)
    assert ours.signature.split("|")[1:-1] == [
        "nrefs:2", f"case:{'lc' if lowercase else 'mixed'}", "eff:yes", f"tok:{tokenize}", "smooth:exp"]


@pytest.mark.parity
@needs_wmt22
def test_corpus_bleu_of_one_segment_every_segment() -> None:
    hyps, refs = _wmt22("cs-en", "Online-B", ("B", "C"))
    for i in range(0, len(hyps), 3):
        one_refs = [[r[i]] for r in refs]
        ours = corpus_bleu([hyps[i]], one_refs)
        theirs = sacrebleu.corpus_bleu([hyps[i]], one_refs)
        _assert_same_as_sacrebleu(ours, theirs, i)


@pytest.mark.parity
@needs_wmt22
def test_tiny_corpora_equal_sacrebleu() -> None:
    hyps, refs = _wmt22("de-en", "Online-B", ("A", "B"))
    for size in (1, 2, 5, 12):
        for start in range(0, 600, 97):
            h, r = hyps[start:start + size], [s[start:start + size] for s in refs]
            _assert_same_as_sacrebleu(corpus_bleu(h, r), SacreBLEU().corpus_score(h, r), (size, start))


# ---- identical to the vectorized path ------------------------------------------------------------

@pytest.mark.slow
@needs_wmt22
@pytest.mark.parametrize("tokenize", TOKENIZERS)
def test_rows_and_results_identical_to_the_numpy_path(tokenize: str) -> None:
    """Every segment of a WMT22 system: the Counter row equals extract's numpy row, and every
    field of the one-row result equals the vectorized compute's, for every smoothing."""
    hyps, refs = _wmt22("de-en", "JDExploreAcademy", ("A", "B"))
    refs[1] = [r if i % 4 else None for i, r in enumerate(refs[1])]  # some segments: one reference
    base = BLEU(tokenize=tokenize)
    rows = base.extract(hyps, base.prepare_references(refs)).values
    for i, hyp in enumerate(hyps):
        assert base._row(hyp, [s[i] for s in refs if s[i] is not None]) == rows[i].tolist(), i
    for smooth, value in SMOOTHINGS:
        for effective in (False, True):
            metric = BLEU(tokenize=tokenize, smooth=smooth, smooth_value=value,
                          effective_order=effective)
            results = [metric.compute(row, {"nrefs": "var"}) for row in rows]
            vectorized = _vectorized(metric, rows)
            assert [_fields(r) for r in results] == vectorized
            assert metric.compute_many(rows).tolist() == [r.score for r in results]
            segments = [metric.sentence_score(hyp, [s[i] for s in refs if s[i] is not None])
                        for i, hyp in enumerate(hyps)]
            assert [_fields(s) for s in segments] == vectorized


# random text that exercises the tokenizers: punctuation, digits, entities, CJK, repeated words
PIECES = st.sampled_from(
    ["a", "b", "the", "The", "cat", "sat", " ", " ", " ", "  ", ".", ",", "5", "3.5", "-", "!", "&amp;",
     "\t", "中", "文", "é", "É", "a-b", "U.S.", "x\u0301", "😀", "eight888", "fifteen15bytes!"])
TEXT = st.lists(PIECES, max_size=30).map("".join)
ROW_SMOOTHING = st.sampled_from(SMOOTHINGS)


@settings(max_examples=300, deadline=None)
@given(hyp=TEXT, refs=st.lists(TEXT, min_size=1, max_size=3), tokenize=st.sampled_from(TOKENIZERS),
       lowercase=st.booleans(), smoothing=ROW_SMOOTHING, effective=st.booleans(),
       max_order=st.integers(1, 6))
def test_sentence_score_identical_to_numpy_kernels(hyp: str, refs: list[str], tokenize: str,
                                                   lowercase: bool, smoothing: tuple[str, float | None],
                                                   effective: bool, max_order: int) -> None:
    metric = BLEU(tokenize=tokenize, lowercase=lowercase, smooth=smoothing[0],
                  smooth_value=smoothing[1], effective_order=effective, max_order=max_order)
    fast = metric.sentence_score(hyp, refs)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bleu_module, "SMALL_CORPUS_CHARACTERS", 0)
        mp.setattr(span_encoder, "SMALL_CORPUS_CHARACTERS", 0)
        mp.setattr(clipping, "SMALL_CORPUS_TOKENS", 0)
        stats = metric.extract([hyp], [[r] for r in refs])
    assert stats.values[0].tolist() == metric._row(hyp, refs)
    assert fast == metric.compute(stats.total(), stats.meta)  # every field, floats bit for bit
    assert [_fields(fast)] == _vectorized(metric, stats.values)


ROWS = st.integers(1, 5).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.integers(0, 60), min_size=2 + 2 * n, max_size=2 + 2 * n)))


@settings(max_examples=500, deadline=None)
@given(order_row=ROWS, smoothing=ROW_SMOOTHING, effective=st.booleans())
def test_one_row_compute_identical_to_vectorized(order_row: tuple[int, list[int]],
                                                 smoothing: tuple[str, float | None],
                                                 effective: bool) -> None:
    """Any non-negative statistics (also inconsistent ones): the scalar compute of one row is the
    vectorized compute bit for bit."""
    n, row = order_row
    metric = BLEU(smooth=smoothing[0], smooth_value=smoothing[1], effective_order=effective,
                  max_order=n)
    for values in (np.array(row, dtype=np.int64), np.array(row, dtype=np.float64) / 2):
        assert [_fields(metric.compute(values))] == _vectorized(metric, values[None, :])
        assert metric.compute(values).score == metric.compute_many(values[None, :])[0]


@settings(max_examples=100, deadline=None)
@given(hyps=st.lists(TEXT, min_size=1, max_size=6), data=st.data())
def test_tiny_corpus_extract_identical_to_numpy_kernels(hyps: list[str], data: st.DataObject) -> None:
    """extract of a tiny corpus (Counters) equals extract with the numpy kernels, with missing references."""
    streams = [[data.draw(TEXT if k == 0 else st.none() | TEXT) for _ in hyps] for k in range(2)]
    metric = BLEU()
    small = metric.extract(hyps, streams)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bleu_module, "SMALL_CORPUS_CHARACTERS", 0)
        mp.setattr(span_encoder, "SMALL_CORPUS_CHARACTERS", 0)
        mp.setattr(clipping, "SMALL_CORPUS_TOKENS", 0)
        big = metric.extract(hyps, streams)
    assert small.values.tolist() == big.values.tolist()
    assert small.values.dtype == big.values.dtype
    assert dict(small.meta) == dict(big.meta)
    assert metric.compute(small.total(), small.meta) == metric.compute(big.total(), big.meta)
    assert metric.corpus_score(hyps, streams) == metric.compute(big.total(), big.meta)


# ---- the API: inputs, errors, objects ------------------------------------------------------------

def test_sentence_bleu_does_not_mutate_its_inputs() -> None:
    refs = ["It rains.", "It is raining."]
    kept = copy.deepcopy(refs)
    sentence_bleu("It is raining.", refs)
    BLEU().sentence_score("It is raining.", refs)
    assert refs == kept


def test_sentence_bleu_input_errors() -> None:
    with pytest.raises(InputError, match="hypothesis must be a string"):
        sentence_bleu(["a list"], ["ref"])  # type: ignore[arg-type]
    with pytest.raises(InputError, match="at least one reference"):
        sentence_bleu("hyp", [])
    with pytest.raises(InputError, match="no reference"):
        sentence_bleu("hyp", [None])  # type: ignore[list-item]
    with pytest.raises(InputError, match="expected a string"):
        sentence_bleu("hyp", ["ref", 3])  # type: ignore[list-item]
    with pytest.raises(mtscore.OptionError):
        sentence_bleu("hyp", ["ref"], smooth="nope")
    with pytest.raises(mtscore.OptionError):
        sentence_bleu("hyp", ["ref"], max_order=4.0)  # type: ignore[arg-type]
    with pytest.raises(mtscore.OptionError):
        sentence_bleu("hyp", ["ref"], max_order=[4])  # type: ignore[arg-type]


def test_sentence_bleu_reference_forms() -> None:
    """A bare string is one reference; None is a missing reference (not counted in nrefs);
    tuples work as lists."""
    one = sentence_bleu("It is raining.", "It is raining.")
    assert one == sentence_bleu("It is raining.", ["It is raining."])
    assert one.score == pytest.approx(100.0)
    with_none = sentence_bleu("It is raining.", ["It rains.", None])  # type: ignore[list-item]
    assert with_none == sentence_bleu("It is raining.", ("It rains.",))
    assert "nrefs:1" in with_none.signature


def test_sentence_score_results_are_frozen_and_typed() -> None:
    result = BLEU(effective_order=True).sentence_score("the cat sat", ["the cat sat down"])
    assert isinstance(result, mtscore.BLEUResult)
    assert all(type(x) is float for x in (result.score, result.bp, result.ratio, *result.precisions))
    assert all(type(x) is int for x in (result.hyp_len, result.ref_len, *result.counts, *result.totals))
    with pytest.raises(AttributeError):
        result.score = 0.0  # type: ignore[misc]


def test_sentence_bleu_signature_and_settings() -> None:
    result = sentence_bleu("the cat sat", ["the cat sat down", "a cat sat"], smooth="floor",
                           max_order=3, tokenize="char", lowercase=True)
    assert result.signature.split("|")[1:-1] == [
        "nrefs:2", "case:lc", "eff:yes", "tok:char", "smooth:floor[0.10]", "order:3"]
    assert len(result.precisions) == 3
