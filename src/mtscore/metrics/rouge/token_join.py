"""The equal tokens (and n-grams) of the two sides of every pair of a corpus, found with stable sorts
of the token ids: what ROUGE-N (:func:`.rules.rouge_n`) and the LCS masks (:mod:`.lcs_lanes`) read.
Tested equal to the rules (hypothesis).

The tokens of both sides are laid out pair by pair (pair p's ``b`` tokens, then its ``a`` tokens)
and sorted by id with a stable sort (:func:`mtscore.metrics.sorting.stable_order`): equal ids
then stay in (pair, side, position) order, so every (pair, token) is one run, its ``b``
occurrences first. A run with k occurrences in ``a`` and l in ``b`` adds min(k, l) to the pair's
ROUGE-1 hits and k × l matches (i, j), a_p[i] == b_p[j].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..sorting import stable_order


def starts(lengths: np.ndarray) -> np.ndarray:
    """Where each text starts in the concatenation of texts of these lengths."""
    return np.cumsum(lengths) - lengths


@dataclass(frozen=True)
class Join:
    """Per pair, Σ over tokens of min(count in a, count in b) (``hits``); every match (``pair``,
    ``row`` i in a, ``col`` j in b) with a_p[i] == b_p[j], grouped by (token, pair), and within a
    group by ``row`` then ``col`` (the matches of one (pair, row) are consecutive)."""

    hits: np.ndarray
    pair: np.ndarray
    row: np.ndarray
    col: np.ndarray


@dataclass(frozen=True)
class Layout:
    """Both sides pair by pair (pair p's ``b`` tokens, then its ``a`` tokens): the ``ids``, each
    position's ``pair``, whether it is in ``a`` (``is_a``), its place in its text (``in_text``;
    in ``b`` also its place in its pair's block), and ``order``: the positions stably sorted by
    id."""

    ids: np.ndarray
    pair: np.ndarray
    is_a: np.ndarray
    in_text: np.ndarray
    order: np.ndarray
    a_len: np.ndarray
    b_len: np.ndarray


def _id_dtype(a_ids: np.ndarray, b_ids: np.ndarray, small: bool) -> type[np.integer]:
    """The smallest of uint16, int32 (with ``small`` places) and int64 that holds every id."""
    top = max(int(a_ids.max()) if len(a_ids) else 0, int(b_ids.max()) if len(b_ids) else 0)
    if top < 1 << 16:
        return np.uint16
    return np.int32 if small and top < 1 << 31 else np.int64


def layout(a_ids: np.ndarray, a_len: np.ndarray, b_ids: np.ndarray, b_len: np.ndarray) -> Layout:
    """The :class:`Layout` of pairs (a_p, b_p), texts concatenated in ``a_ids``/``b_ids`` with
    their lengths (temporaries reused: fresh memory costs more than the arithmetic). Pairs and
    places are 32-bit where they fit (fewer positions than 2**31), ids 16-bit below 2**16 and
    32-bit below 2**31, so the layout and the matches read from it take less memory; the order
    stays ``intp``."""
    both = a_len + b_len
    total = int(both.sum())
    small = total < 1 << 31
    place = np.int32 if small else np.int64
    pair_of = np.repeat(np.arange(len(a_len), dtype=place), both)
    in_text = np.arange(total, dtype=place)  # first the place in the pair's block
    np.subtract(in_text, np.repeat(starts(both).astype(place), both), out=in_text)
    b_here = np.repeat(b_len.astype(place), both)
    is_a = in_text >= b_here
    ids = np.empty(total, dtype=_id_dtype(a_ids, b_ids, small))
    ids[~is_a] = b_ids
    ids[is_a] = a_ids
    b_here *= is_a  # a's tokens start after b's
    np.subtract(in_text, b_here, out=in_text)
    del b_here
    return Layout(ids, pair_of, is_a, in_text, stable_order(ids), a_len, b_len)


def _run_hits(run_start: np.ndarray, s_a: np.ndarray, run_pair: np.ndarray,
              pairs: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of runs of sorted entries (``s_a``: each entry in a) starting at ``run_start``: their
    entries in ``b``, their min(entries in a, entries in b), and its sum per pair (``run_pair``:
    each run's pair)."""
    if not len(s_a):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(
            pairs, dtype=np.int64)
    # entries in a up to each entry (32-bit where they fit: half the memory, and no slower)
    through = np.cumsum(s_a, dtype=np.int32 if len(s_a) < 1 << 31 else np.int64)
    in_a = np.take(through, run_start)
    in_a -= np.take(s_a, run_start)  # entries in a before each run
    in_a[:-1] = np.diff(in_a)
    in_a[-1] = through[-1] - in_a[-1]
    del through
    in_b = np.diff(run_start, append=len(s_a))
    in_b -= in_a
    np.minimum(in_a, in_b, out=in_a)
    return in_b, in_a, np.bincount(run_pair, weights=in_a, minlength=pairs).astype(np.int64)


def _mark_changes(new: np.ndarray, key: np.ndarray) -> None:
    """Set ``new`` (a flag per sorted entry) where ``key`` (a value per entry) differs from the
    entry before."""
    new[1:] |= key[1:] != key[:-1]


def ngram_hits(lay: Layout, n: int, runs: Runs | None = None) -> np.ndarray:
    """Per pair Σ over n-grams of min(count in a, count in b) (:func:`.rules.rouge_n`'s hits)
    (``runs``: the layout's :func:`unigram_runs`, if known). Only n-grams of tokens found in both
    texts of their pair can be in both (the others add min(k, 0) = 0); these are grouped by (pair,
    n-gram), with one sort of packed keys where (pair, ids, side) fit 64 bits
    (:func:`_packed_ngram_hits`), else with stable sorts of their tokens
    (:func:`_sorted_ngram_hits`); each group adds min(entries in a, entries in b)."""
    runs = runs or unigram_runs(lay)
    if n == 1:
        return runs.hits
    last = shared_ngram_ends(lay, runs, n)
    bits = packed_id_bits(lay, n)
    if bits is not None:
        return _packed_ngram_hits(lay, n, np.flatnonzero(last), bits)
    return _sorted_ngram_hits(lay, n, last)


def shared_ngram_ends(lay: Layout, runs: Runs, n: int) -> np.ndarray:
    """Whether each layout position is the last token of an n-gram of tokens found in both texts
    of its pair (``runs``: the layout's :func:`unigram_runs`)."""
    last = lay.in_text >= n - 1
    last &= runs.shared
    for k in range(1, n):
        last[k:] &= runs.shared[:-k]
    return last


def packed_id_bits(lay: Layout, n: int) -> int | None:
    """The bits of an id in :func:`_packed_ngram_hits`' keys, if (pair, n ids, side) fit 64 bits."""
    bits = (int(lay.ids.max()) if len(lay.ids) else 0).bit_length()
    return bits if (len(lay.a_len) - 1).bit_length() + n * bits + 1 <= 64 else None


def _packed_ngram_hits(lay: Layout, n: int, at: np.ndarray, bits: int) -> np.ndarray:
    """:func:`ngram_hits` of the n-grams ending at the layout positions ``at``: each packed as
    (pair, its n ids of ``bits`` bits each, in a) in one uint64 and the keys sorted (numpy's
    vectorized sort; no order is needed, only the groups), so every (pair, n-gram) is one run of
    equal keys but for the low bit, its entries in b first."""
    if not len(at):
        return np.zeros(len(lay.a_len), dtype=np.int64)
    key = lay.pair.take(at).astype(np.uint64)
    width = np.uint64(bits)
    for k in range(n - 1, -1, -1):
        key <<= width
        key |= lay.ids.take(at - k).astype(np.uint64, copy=False)
    key <<= np.uint64(1)
    key |= lay.is_a.take(at)
    del at
    key.sort()
    side = np.bitwise_and(key, np.uint64(1)).astype(bool)
    key >>= np.uint64(1)
    new = np.empty(len(key), dtype=bool)
    new[0] = True
    np.not_equal(key[1:], key[:-1], out=new[1:])
    run_start = np.flatnonzero(new)
    del new
    run_pair = (key.take(run_start) >> np.uint64(n * bits)).view(np.int64)
    return _run_hits(run_start, side, run_pair, len(lay.a_len))[2]


def _sorted_ngram_hits(lay: Layout, n: int, last: np.ndarray) -> np.ndarray:
    """:func:`ngram_hits` of the n-grams ending where ``last``, sorted by their tokens, last token
    first, with stable sorts, so every (n-gram, pair) is one run. The first sort is the layout's
    ``order`` shifted back by n - 1 (the last tokens of n-grams)."""
    ids = lay.ids
    order = lay.order[np.take(last, lay.order)]  # (one array alive at a time: fresh memory
    del last                                      # costs more than arithmetic)
    if not len(order):
        return np.zeros(len(lay.a_len), dtype=np.int64)
    np.subtract(order, n - 1, out=order)
    token = np.empty(len(order), dtype=ids.dtype)
    for k in range(n - 2, -1, -1):
        order = order[stable_order(np.take(ids[k:], order, out=token))]
    s_pair = lay.pair[order]
    new = np.zeros(len(order), dtype=bool)
    new[0] = True
    _mark_changes(new, s_pair)
    for k in range(n):
        _mark_changes(new, np.take(ids[k:], order, out=token))
    del token
    run_start = np.flatnonzero(new)
    return _run_hits(run_start, lay.is_a[order], s_pair[run_start], len(lay.a_len))[2]


@dataclass(frozen=True)
class Runs:
    """:func:`unigram_runs`."""

    first: np.ndarray
    run_start: np.ndarray
    in_b: np.ndarray
    hits: np.ndarray
    shared: np.ndarray


def unigram_runs(lay: Layout) -> Runs:
    """The (token, pair) runs of the layout's ``order``: whether each entry is its run's first,
    the runs' starts, their entries in ``b``, per pair the ROUGE-1 hits, and whether each
    position's run has entries in both a and b (``shared``, in layout order)."""
    order = lay.order
    new = np.zeros(len(order), dtype=bool)
    new[:1] = True
    s_pair = lay.pair[order]
    _mark_changes(new, lay.ids[order])
    _mark_changes(new, s_pair)
    run_start = np.flatnonzero(new)
    run_pair = s_pair[run_start]
    del s_pair
    in_b, common, hits = _run_hits(run_start, lay.is_a[order], run_pair, len(lay.a_len))
    run = np.cumsum(new, dtype=np.intp)  # each entry's run, plus one
    run -= 1
    shared = np.empty(len(order), dtype=bool)
    shared[order] = np.take(common > 0, run)
    return Runs(new, run_start, in_b, hits, shared)


@dataclass(frozen=True)
class SubsetRuns:
    """What :func:`subset_hits` reads of a layout's (token, pair) runs, far smaller than the layout:
    each token of a's run (a's tokens in order), each run's entries in b and its pair, and the
    number of pairs."""

    run_of_a: np.ndarray
    in_b: np.ndarray
    pair: np.ndarray
    pairs: int


def subset_runs(lay: Layout, runs: Runs) -> SubsetRuns:
    """The :class:`SubsetRuns` of the layout's runs (a's positions in the layout, in order, are
    a's tokens in order)."""
    run = np.cumsum(runs.first, dtype=np.int32 if len(runs.first) < 1 << 31 else np.intp)
    np.subtract(run, 1, out=run)  # each sorted entry's run
    by_position = np.empty_like(run)
    by_position[lay.order] = run
    del run
    return SubsetRuns(by_position[lay.is_a], runs.in_b,
                      np.take(lay.pair, np.take(lay.order, runs.run_start)), len(lay.a_len))


def subset_hits(runs: SubsetRuns, in_a: np.ndarray) -> np.ndarray:
    """Per pair Σ over tokens of min(count in the subset ``in_a`` of a, count in b): ROUGE-1 hits
    of the a tokens where ``in_a`` (a bool per token of a, in order) against b, from the runs of
    the whole of a (each (token, pair) run holds the subset's entries of that token and pair)."""
    count = np.bincount(runs.run_of_a[in_a], minlength=len(runs.in_b))
    np.minimum(count, runs.in_b, out=count)
    return np.bincount(runs.pair, weights=count, minlength=runs.pairs).astype(np.int64)


def join(lay: Layout, runs: Runs | None = None) -> Join:
    """The :class:`Join` of the layout's pairs (``runs``: its :func:`unigram_runs`, if known):
    each entry of a, in sorted order, repeated once per entry of b in its run (b's entries come
    first in a run: the first match of an a entry is the first entry of its run); of b, a
    position's place in its text is its place in its pair's block."""
    order = lay.order
    runs = runs or unigram_runs(lay)
    a_at = np.flatnonzero(lay.is_a[order])  # sorted positions of a's tokens
    a_run = np.take(np.cumsum(runs.first, dtype=np.intp), a_at)
    a_run -= 1
    count = np.take(runs.in_b, a_run)
    first = np.take(runs.run_start, a_run)  # the first match of each a entry, less the matches
    first -= starts(count)                  # before it
    del a_run
    which = np.repeat(np.arange(len(count)), count)  # each match's a entry
    b_at = np.take(first, which)
    del first
    b_at += np.arange(len(b_at), dtype=b_at.dtype)
    col = np.take(lay.in_text, np.take(order, b_at))
    del b_at
    at = np.take(np.take(order, a_at), which)
    del a_at, which
    return Join(runs.hits, np.take(lay.pair, at), np.take(lay.in_text, at), col)
