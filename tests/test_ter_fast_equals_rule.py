"""TER's numpy search (ter.fast) equals the rule (ter.rules) pair by pair on the paths the search
takes: references of more than 64 words (multi-word bit vectors), beams that leave cells out
(beam distances measured for the candidates that could win), many candidates (few distinct
words), and items at sacreBLEU's limit of 1000 candidates."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics.ter import fast as ter_fast
from mtscore.metrics.ter.bitparallel import match_masks, prefix_states, shifted_distances
from mtscore.metrics.ter.rules import translation_edit_rate


def _distance(hyp: list[int], ref: list[int]) -> int:
    """The word edit distance without a beam, cell by cell."""
    row = list(range(len(ref) + 1))
    for i, w in enumerate(hyp, start=1):
        new = [i] + [0] * len(ref)
        for j, r in enumerate(ref, start=1):
            new[j] = min(row[j - 1] + (w != r), row[j] + 1, new[j - 1] + 1)
        row = new
    return row[-1]


def _pairs(vocabulary: int, longest: int) -> st.SearchStrategy:
    words = st.lists(st.integers(0, vocabulary - 1), max_size=longest)
    return st.lists(st.tuples(words, words.filter(bool)), min_size=1, max_size=6)


def _check(pairs: list) -> None:
    hyps = [np.array(h, dtype=np.int64) for h, _ in pairs]
    refs = [np.array(r, dtype=np.int64) for _, r in pairs]
    assert ter_fast.edit_counts(hyps, refs).tolist() == [translation_edit_rate(h, r)[0]
                                                         for h, r in pairs]


@settings(max_examples=60, deadline=None)
@given(_pairs(4, 30))
def test_short_many_candidates(pairs: list) -> None:
    _check(pairs)


@settings(max_examples=25, deadline=None)
@given(_pairs(8, 90))
def test_long_references_and_narrow_beams(pairs: list) -> None:
    _check(pairs)


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.integers(30, 80), st.integers(0, 4), st.randoms(use_true_random=False))
def test_reordered_long_segments(n: int, cut: int, rnd) -> None:  # type: ignore[no-untyped-def]
    """Blocks of a long reference moved about: many shifts, far apart, with a narrow beam."""
    ref = [rnd.randrange(6) for _ in range(n)]
    blocks = [ref[k:k + 7] for k in range(0, n, 7)]
    rnd.shuffle(blocks)
    hyp = [w for b in blocks for w in b][cut:]
    _check([(hyp, ref), (ref, hyp[: n // 2] or ref), (hyp[::-1], ref)])


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(st.integers(50, 110), st.integers(50, 110), st.randoms(use_true_random=False))
def test_distances_the_beam_changes(n: int, m: int, rnd) -> None:  # type: ignore[no-untyped-def]
    """Long, mostly different segments: the best paths of some candidates leave the beam, so
    their distances without a beam are not theirs (beam distances measured)."""
    ref = [rnd.randrange(12) for _ in range(m)]
    hyp = [rnd.randrange(12) for _ in range(n - 10)] + ref[:10]
    _check([(hyp, ref), (ref[::-1][:n], ref)])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 5), min_size=1, max_size=150),
                          st.lists(st.integers(0, 5), min_size=1, max_size=150)), min_size=1, max_size=4),
       st.randoms(use_true_random=False))
def test_bit_parallel_distances(pairs: list, rnd) -> None:  # type: ignore[no-untyped-def]
    """The bit-parallel distance of reordered hypotheses equals the cell-by-cell one."""
    n = np.array([len(h) for h, _ in pairs])
    m = np.array([len(r) for _, r in pairs])
    H = np.full((len(pairs), n.max()), -1)
    R = np.full((len(pairs), m.max()), -2)
    for k, (h, r) in enumerate(pairs):
        H[k, :len(h)], R[k, :len(r)] = h, r
    masks = match_masks(H, R, m)
    job = np.array([rnd.randrange(len(pairs)) for _ in range(8)])
    first = np.array([rnd.randrange(n[j]) for j in job])
    src = np.tile(np.arange(H.shape[1]), (len(job), 1))
    for c, j in enumerate(job):
        part = list(range(first[c], n[j]))
        rnd.shuffle(part)
        src[c, first[c]:n[j]] = part
    got = shifted_distances(masks, prefix_states(masks), n, m, job, first, src)
    for c, j in enumerate(job):
        assert got[c] == _distance(H[j, src[c, :n[j]]].tolist(), R[j, :m[j]].tolist())


def test_a_very_short_hypothesis_against_a_long_reference() -> None:
    """The last row of the beam starts at its own lo (3 words against 130: its first 105 columns
    are outside); the numpy search's suffix costs once let a shift candidate through them and
    oscillated between two shifts (272 edits instead of sacreBLEU's 129)."""
    from mtscore.metrics.ter import fast as ter_fast
    from mtscore.metrics.ter.rules import translation_edit_rate

    ref = [1, 10, 4, 4, 2, 5, 0, 1, 8, 5, 5, 2, 8, 8, 6, 1, 8, 4, 8, 9, 1, 7, 1, 1, 0, 11, 0, 1, 10, 0,
           2, 3, 6, 10, 4, 10, 8, 8, 11, 3, 4, 10, 1, 8, 1, 9, 4, 8, 4, 7, 7, 9, 4, 6, 6, 3, 0, 5, 1,
           11, 2, 10, 10, 9, 11, 2, 8, 11, 2, 7, 2, 9, 0, 9, 0, 6, 6, 5, 8, 7, 9, 9, 4, 0, 11, 0, 0,
           1, 11, 2, 11, 3, 11, 7, 3, 1, 1, 4, 1, 3, 11, 2, 4, 2, 5, 2, 8, 2, 11, 1, 9, 11, 6, 7, 3,
           0, 7, 3, 8, 8, 11, 8, 7, 9, 3, 11, 4, 3, 5, 4]
    hyp = [4, 5, 3]
    assert int(ter_fast.edit_counts([np.array(hyp)], [np.array(ref)])[0]) == \
        translation_edit_rate(hyp, ref)[0]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=12), st.data())
def test_changed_span_covers_every_moved_word(words: list, data) -> None:  # type: ignore[no-untyped-def]
    """:func:`.ter.fast.changed_span` holds every position :func:`.ter.rules.perform_shift`
    changes, for a target before, after or inside the block (sacreBLEU's slicing)."""
    from mtscore.metrics.ter.rules import perform_shift

    n = len(words)
    start = data.draw(st.integers(0, n - 1))
    length = data.draw(st.integers(1, n - start))
    target = data.draw(st.integers(0, n))
    ids = list(range(n))  # distinct words: every moved position shows
    shifted = perform_shift(ids, start, length, target)
    first, end = ter_fast.changed_span(*(np.array([v]) for v in (start, length, target, n)))
    moved = [q for q in range(n) if shifted[q] != q]
    assert all(int(first[0]) <= q < int(end[0]) for q in moved)


def test_a_target_inside_the_block_changes_words_after_it() -> None:
    """A shift whose target lies inside its block (start 3, length 3, target 6) moves words up to
    position 9; the numpy search once took its rows from 6 on as unchanged and measured 103 edits
    for a candidate of 102, so it chose another shift of equal gain (102 edits instead of
    sacreBLEU's 103; found by fuzzing 16 words against 116)."""
    hyp = [0, 3, 1, 3, 0, 10, 3, 1, 4, 6, 4, 1, 3, 1, 2, 2]
    ref = [1, 11, 1, 2, 6, 5, 11, 0, 3, 8, 6, 11, 9, 9, 7, 7, 0, 3, 1, 8, 11, 9, 2, 5, 9, 5, 7, 2,
           6, 7, 7, 5, 5, 9, 10, 5, 2, 7, 0, 11, 4, 10, 8, 0, 10, 10, 11, 4, 3, 0, 10, 0, 10, 4, 6,
           11, 1, 9, 3, 3, 4, 0, 1, 6, 2, 2, 8, 1, 4, 8, 4, 10, 11, 0, 9, 10, 3, 7, 0, 11, 7, 11, 8,
           7, 2, 10, 8, 2, 0, 6, 2, 4, 5, 2, 7, 5, 10, 4, 8, 4, 1, 9, 2, 11, 11, 5, 8, 5, 10, 10, 6,
           1, 11, 10, 5, 4]
    assert int(ter_fast.edit_counts([np.array(hyp)], [np.array(ref)])[0]) == \
        translation_edit_rate(hyp, ref)[0] == 103


def test_where_true_equals_nonzero() -> None:
    from mtscore.metrics.ter.fast import _where_true

    rng = np.random.default_rng(3)
    for shape in [(1, 1, 1), (3, 5, 7), (40, 33, 65), (2, 0, 4)]:
        flags = rng.random(shape) < 0.2
        assert all(np.array_equal(x, y) for x, y in zip(_where_true(flags), np.nonzero(flags),
                                                         strict=True))
