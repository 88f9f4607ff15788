"""The corpus rows (:mod:`mtscore.metrics.meteor.rows`) equal ``METEOR.statistics_row`` segment by
segment, and their chunk count equals :func:`count_chunks` (the §2.3 rule), on random alignments."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics.meteor import METEOR
from mtscore.metrics.meteor.align.corpus import CorpusMatches, Tokens
from mtscore.metrics.meteor.rows import chunk_counts, statistics_rows
from mtscore.metrics.meteor.score import count_chunks

WORDS = ["the", "a", "of", "car", "cars", "automobile", "run", "ran", "house", "home", "fast", "quick"]


@st.composite
def aligned_pairs(draw: st.DrawFn, n_modules: int
                  ) -> tuple[list[str], list[str] | None, list[tuple[int, int, int]]]:
    """A hypothesis, a reference (or None) and a one-to-one alignment of them with module indices."""
    hyp = draw(st.lists(st.sampled_from(WORDS), max_size=10))
    ref = draw(st.one_of(st.none(), st.lists(st.sampled_from(WORDS), max_size=10)))
    if ref is None or not hyp or not ref:
        return hyp, ref, []
    n = draw(st.integers(0, min(len(hyp), len(ref))))
    hs = draw(st.permutations(range(len(hyp))))[:n]
    rs = draw(st.permutations(range(len(ref))))[:n]
    return hyp, ref, [(i, j, draw(st.integers(0, n_modules - 1))) for i, j in zip(hs, rs)]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.data(), st.sampled_from(["2005", "1.5"]), st.booleans())
def test_rows_equal_statistics_row(data, variant: str, delta: bool) -> None:
    modules = ("exact", "stem", "synonym") if variant == "1.5" else ("exact", "porter", "synonym")
    metric = METEOR(variant=variant, modules=modules, delta=0.5 if delta else None)
    corpus = data.draw(st.lists(aligned_pairs(len(modules)), min_size=1, max_size=8))
    vocab = metric.vocabulary()
    hyp = vocab.encode([h for h, _, _ in corpus])
    ref = [None if r is None else vocab.encode([r])[0] for _, r, _ in corpus]
    t = Tokens.of(hyp, ref)
    stage_order = [(s, m) for s, (_, _, a) in enumerate(corpus) for m in a]
    data.draw(st.randoms()).shuffle(stage_order)  # the rows may not depend on the order found
    found = [(np.array([t.hyp_start[s] + i]), np.array([t.ref_start[s] + j]), k)
             for s, (i, j, k) in stage_order]
    fw = metric.function_words() if delta else None
    got = statistics_rows(metric, CorpusMatches.of(t, found), fw)
    want = [metric.statistics_row(h, r or [], sorted(a), fw) for h, r, (_, _, a) in zip(hyp, ref, corpus)]
    assert got.tolist() == want


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=7), max_size=5))
def test_chunk_counts_equal_count_chunks(segments: list[list[tuple[int, int]]]) -> None:
    alignments = [sorted(dict(a).items()) for a in segments]  # one match per hypothesis position
    seg = np.array([s for s, a in enumerate(alignments) for _ in a], dtype=np.int64)
    i = np.array([x for a in alignments for x, _ in a], dtype=np.int64)
    j = np.array([y for a in alignments for _, y in a], dtype=np.int64)
    assert chunk_counts(seg, i, j, len(alignments)).tolist() == [count_chunks(a) for a in alignments]


def test_rows_by_hand() -> None:
    """The hypothesis "the car ran fast" against "the fast car ran": four exact matches in three
    chunks (the | car ran | fast)."""
    metric = METEOR()
    vocab = metric.vocabulary()
    hyp, ref = vocab.encode([["the", "car", "ran", "fast"], ["the", "fast", "car", "ran"]])
    t = Tokens.of([hyp], [ref])
    found = [(np.array([0, 1, 2, 3]), np.array([0, 2, 3, 1]), 0)]
    assert statistics_rows(metric, CorpusMatches.of(t, found), None).tolist() == [[4, 4, 4, 3, 4, 0, 0]]


def test_jar_chunks_one_whole_chunk_counts_none() -> None:
    """The jar's rule, on numbers and per segment on arrays: only a complete match in one chunk
    counts 0 chunks (every other count is §2.3's)."""
    from mtscore.metrics.meteor.score import jar_chunks

    assert jar_chunks(1, 3, 3, 3) == 0
    assert [int(jar_chunks(*args)) for args in [(2, 3, 3, 3), (1, 3, 4, 3), (1, 3, 3, 4), (0, 0, 0, 0)]] \
        == [2, 1, 1, 0]
    chunks = np.array([1, 1, 2, 1])
    out = jar_chunks(chunks, np.array([5, 5, 5, 2]), np.array([5, 6, 5, 2]), np.array([5, 5, 5, 3]))
    assert out.tolist() == [0, 1, 2, 1] and out.dtype == chunks.dtype
