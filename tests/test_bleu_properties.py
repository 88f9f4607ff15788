"""BLEU against the paper's worked examples, an independent Counter implementation, and invariances."""

from __future__ import annotations

import doctest
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore import BLEU, MissingExtraError, corpus_bleu


def test_paper_example_2_modified_unigram_precision() -> None:
    """Papineni et al. 2002, §2.1 Example 2: plain unigram precision 7/7, modified 2/7."""
    cand = "the the the the the the the"
    refs = ["The cat is on the mat", "There is a cat on the mat"]
    result = corpus_bleu([cand], [[refs[0]], [refs[1]]], tokenize="none", lowercase=True)
    assert result.counts[0] == 2 and result.totals[0] == 7
    assert result.precisions[0] == pytest.approx(100 * 2 / 7, abs=1e-12)
    plain = sum(1 for w in cand.split() if any(w in r.lower().split() for r in refs))
    assert plain == 7


def test_paper_example_3_perfect_precision_but_brevity_penalty() -> None:
    """§2.2 Example 3: 'of the' has unigram precision 2/2 and bigram 1/1, yet it is too short."""
    refs = ["It is a guide to action that ensures that the military will forever heed Party commands.",
            "It is the guiding principle which guarantees the military forces always being under the "
            "command of the Party.",
            "It is the practical guide for the army always to heed the directions of the party."]
    result = corpus_bleu(["of the"], [[r] for r in refs])
    assert result.precisions[0] == 100.0 and result.precisions[1] == 100.0
    shortest = min(len(r.replace(".", " .").split()) for r in refs)
    assert result.ref_len == shortest
    assert result.bp == pytest.approx(math.exp(1 - shortest / 2), rel=1e-15)
    assert result.bp < 1


def _naive_stats(hyps: list[str], refs: list[list[str]], N: int = 4) -> np.ndarray:
    """An independent implementation of §2.1-2.2 with Counters, on pre-tokenized text."""
    rows = []
    for i, hyp in enumerate(hyps):
        h = hyp.split()
        rs = [stream[i].split() for stream in refs]
        lens = sorted((abs(len(r) - len(h)), len(r)) for r in rs)
        row = [len(h), lens[0][1]]
        matches, totals = [], []
        for n in range(1, N + 1):
            hc = Counter(tuple(h[j:j + n]) for j in range(len(h) - n + 1))
            best: Counter = Counter()
            for r in rs:
                rc = Counter(tuple(r[j:j + n]) for j in range(len(r) - n + 1))
                for g, c in rc.items():
                    best[g] = max(best[g], c)
            matches.append(sum(min(c, best[g]) for g, c in hc.items()))
            totals.append(sum(hc.values()))
        rows.append(row + matches + totals)
    return np.array(rows, dtype=np.int64)


WORDS = st.sampled_from(["a", "b", "c", "d", "e", "the", "cat", "mat", "on", "is"])
SENT = st.lists(WORDS, min_size=0, max_size=12).map(" ".join)


@st.composite
def corpora(draw):
    n = draw(st.integers(1, 8))
    k = draw(st.integers(1, 3))
    hyps = draw(st.lists(SENT, min_size=n, max_size=n))
    refs = [draw(st.lists(SENT, min_size=n, max_size=n)) for _ in range(k)]
    return hyps, refs


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(corpora())
def test_statistics_equal_independent_counter_implementation(data) -> None:
    hyps, refs = data
    stats = BLEU(tokenize="none").extract(hyps, refs)
    np.testing.assert_array_equal(stats.values, _naive_stats(hyps, refs))


@settings(max_examples=200, deadline=None)
@given(corpora())
def test_duplicating_every_pair_leaves_corpus_bleu_unchanged(data) -> None:
    """The seed's check: corpus BLEU pools counts, so doubling the corpus changes nothing.

    Holds for the paper's (unsmoothed) BLEU; smoothed precisions depend on absolute counts."""
    hyps, refs = data
    once = corpus_bleu(hyps, refs, tokenize="none", smooth="none")
    twice = corpus_bleu(hyps + hyps, [r + r for r in refs], tokenize="none", smooth="none")
    assert twice.score == pytest.approx(once.score, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(corpora(), st.randoms(use_true_random=False))
def test_permuting_segments_leaves_corpus_bleu_unchanged(data, rnd) -> None:
    hyps, refs = data
    order = list(range(len(hyps)))
    rnd.shuffle(order)
    a = corpus_bleu(hyps, refs, tokenize="none")
    b = corpus_bleu([hyps[i] for i in order], [[r[i] for i in order] for r in refs], tokenize="none")
    assert a.score == pytest.approx(b.score, abs=1e-9)
    assert a.counts == b.counts and a.totals == b.totals


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(corpora(), st.lists(SENT, min_size=8, max_size=8))
def test_adding_a_reference_never_lowers_clipped_counts(data, extra) -> None:
    hyps, refs = data
    metric = BLEU(tokenize="none")
    before = metric.extract(hyps, refs).values
    after = metric.extract(hyps, [*refs, extra[:len(hyps)]]).values
    N = metric.max_order
    assert (after[:, 2:2 + N] >= before[:, 2:2 + N]).all()


def test_no_matches_gives_zero_not_nan() -> None:
    result = corpus_bleu(["x y z"], [["a b c"]])
    assert result.score == 0.0 and not math.isnan(result.score)
    empty = corpus_bleu([""], [["a b c"]])
    assert empty.score == 0.0 and empty.bp == 0.0


def test_blank_lines_are_valid_segments() -> None:
    metric = BLEU()
    stats = metric.extract(["", "the cat"], [["", "the cat"]])
    assert stats.values.shape == (2, 10)
    assert stats.values[0].sum() == 0


def test_compute_is_pure_and_vectorized() -> None:
    metric = BLEU(smooth="add-k")
    stats = metric.extract(["the cat sat", "a dog"], [["the cat sat down", "the dog"]])
    rows = stats.values.copy()
    many = metric.compute_many(rows)
    one = [metric.compute(r).score for r in rows]
    np.testing.assert_allclose(many, one, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(rows, stats.values)  # smoothing did not mutate the statistics
    assert [metric.compute(r).counts for r in rows] == [tuple(r[2:6]) for r in rows.tolist()]
    with pytest.raises(ValueError):  # compute takes one summed row; compute_many takes many
        metric.compute(rows)
    with pytest.raises(ValueError):
        metric.compute(rows[None])


def test_streaming_chunks_sum_to_the_corpus() -> None:
    from mtscore import SegmentStats

    hyps = ["the cat sat on the mat", "a b c", "there is a cat", "d e"]
    refs = [["the cat is on the mat", "a b d", "there is a cat here", "d e f"]]
    metric = BLEU()
    whole = metric.extract(hyps, refs)
    parts = SegmentStats.concat([metric.extract(hyps[:2], [refs[0][:2]]),
                                 metric.extract(hyps[2:], [refs[0][2:]])])
    np.testing.assert_array_equal(whole.values, parts.values)
    assert metric.compute(parts.total(), parts.meta).score == corpus_bleu(hyps, refs).score


def test_result_is_frozen_and_has_a_signature() -> None:
    result = corpus_bleu(["the cat"], [["the cat"], ["a cat"]], lowercase=True,
                         smooth="floor", smooth_value=0.2)
    assert result.signature.startswith("BLEU|nrefs:2|case:lc|eff:no|tok:13a|smooth:floor[0.20]|version:")
    with pytest.raises(AttributeError):
        result.score = 1.0  # type: ignore[misc]
    assert result.to_dict()["counts"] == list(result.counts)


# ---- option limits (issue 15) -------------------------------------------------------------------

@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), -1.0, -1e-9, "x", True])
@pytest.mark.parametrize("smooth", ["floor", "add-k"])
def test_smooth_value_must_be_finite_and_not_negative(smooth: str, value: object) -> None:
    from mtscore.errors import OptionError

    with pytest.raises(OptionError, match="smooth_value"):
        BLEU(smooth=smooth, smooth_value=value)  # type: ignore[arg-type]
    assert BLEU(smooth=smooth, smooth_value=0).smooth_value == 0.0


@pytest.mark.parametrize("order", [0, -1, 101, 10**6, 4.0, True, "4"])
def test_max_order_out_of_range_refused(order: object) -> None:
    from mtscore.errors import OptionError

    with pytest.raises(OptionError, match="max_order"):
        BLEU(max_order=order)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="max_order"):
        corpus_bleu(["a b"], [["a b"]], max_order=order)  # type: ignore[arg-type]
    assert BLEU(max_order=100).max_order == 100


# ---- results in a notebook: short repr, HTML table, pandas (issue 12) -----------------------------

def _every_result() -> list[object]:
    """One result of every metric, on a corpus of 3,000 segments (per-segment tuples included)."""
    import mtscore

    hyps = [f"the cat {i} sat on the mat" for i in range(3000)]
    refs = [[f"the cat {i} is on the mat" for i in range(3000)]]
    return [mtscore.corpus_bleu(hyps, refs), mtscore.sentence_bleu(hyps[0], refs[0][0]),
            mtscore.corpus_nist(hyps, refs), mtscore.corpus_unigram(hyps, refs),
            mtscore.corpus_chrf(hyps, refs), mtscore.corpus_meteor(hyps, refs)]


def test_every_result_has_a_short_repr_and_an_html_table() -> None:
    for result in _every_result():
        text = repr(result)
        assert len(text) < 1000, (type(result).__name__, len(text))
        assert text.startswith(type(result).__name__ + "(") and "score=" in text
        html = result._repr_html_()  # type: ignore[attr-defined]
        assert html.startswith("<table>") and len(html) < 5000 and "score" in html


def test_repr_summarizes_long_sequences() -> None:
    from dataclasses import dataclass

    from mtscore.metrics.base import Score

    @dataclass(frozen=True, repr=False)
    class Many(Score):
        rows: tuple[int, ...]
        table: np.ndarray

    text = repr(Many("X", 0.5, "X|version:1", tuple(range(10**5)), np.zeros((300, 300))))
    assert text == ("Many(metric='X', score=0.5, signature='X|version:1', rows=<100000 items>, "
                    "table=<array of 90000>)")
    assert "<" not in Many("X", 0.5, "s", (1, 2), np.zeros(0)).__repr__().split("rows=")[1][:6]


def test_to_pandas_one_row_in_the_long_format_columns() -> None:
    pd = pytest.importorskip("pandas")
    result = corpus_bleu(["the cat sat on the mat"], [["the cat sat on a mat"]])
    frame = result.to_pandas()
    assert isinstance(frame, pd.DataFrame) and len(frame) == 1
    assert list(frame.columns[:3]) == ["metric", "score", "signature"]
    row = frame.iloc[0]
    assert row["metric"] == "BLEU" and row["score"] == result.score
    assert row["signature"] == str(result.signature) and row["hyp_len"] == result.hyp_len


def test_to_pandas_without_pandas_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    result = corpus_bleu(["a b"], [["a b"]])
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    with pytest.raises(MissingExtraError, match=r"pip install 'mtscore\[pandas\]'"):
        result.to_pandas()  # one error for every missing extra, naming it (an ImportError too)


def test_public_functions_document_parameters_returns_and_an_example() -> None:
    import mtscore

    for fn in (mtscore.corpus_bleu, mtscore.sentence_bleu, mtscore.corpus_nist, mtscore.corpus_unigram,
               mtscore.corpus_ter, mtscore.corpus_chrf):
        doc = fn.__doc__ or ""
        for part in ("Parameters:", "Returns:", "Example:", ">>>"):
            assert part in doc, (fn.__name__, part)
        runner = doctest.DocTestRunner()
        for test in doctest.DocTestFinder().find(fn, globs={fn.__name__: fn}):
            runner.run(test)
        assert runner.summarize(verbose=False).failed == 0, fn.__name__  # the examples are right
