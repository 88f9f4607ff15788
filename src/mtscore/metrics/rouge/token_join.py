"""The equal tokens (and n-grams) of the two sides of every pair of a corpus, found with stable sorts
of the token ids: what ROUGE-N (:func:`.rules.rouge_n`) and the LCS masks (:mod:`.lcs_lanes`) read.
Tested equal to the rules (hypothesis).

The tokens of both sides are laid out pair by pair (pair p's ``b`` tokens, then its ``a`` tokens)
and sorted by id with a stable sort (a radix sort when ids fit 16 bits): equal ids then stay in
(pair, side, position) order, so every (pair, token) is one run, its ``b`` occurrences first. A run
with k occurrences in ``a`` and l in ``b`` adds min(k, l) to the pair's ROUGE-1 hits and k × l
matches (i, j), a_p[i] == b_p[j].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def starts(lengths: np.ndarray) -> np.ndarray:
    """Where each text starts in the concatenation of texts of these lengths."""
    return np.cumsum(lengths) - lengths


def stable_order(ids: np.ndarray) -> np.ndarray:
    """The stable sort order of non-negative ids (a radix sort below 2**16)."""
    if len(ids) and int(ids.max()) < 1 << 16:
        return np.argsort(ids.astype(np.uint16), kind="stable")
    return np.argsort(ids, kind="stable")


@dataclass(frozen=True)
class Join:
    """Per pair, Σ over tokens of min(count in a, count in b) (``hits``); every match (``pair``,
    ``row`` i in a, ``col`` j in b) with a_p[i] == b_p[j], grouped by (token, pair)."""

    hits: np.ndarray
    pair: np.ndarray
    row: np.ndarray
    col: np.ndarray


@dataclass(frozen=True)
class Layout:
    """Both sides pair by pair (pair p's ``b`` tokens, then its ``a`` tokens): the ``ids``, each
    position's ``pair``, whether it is in ``a`` (``is_a``), its place in its pair's block and in
    its text, its text's length, and ``order``: the positions stably sorted by id."""

    ids: np.ndarray
    pair: np.ndarray
    is_a: np.ndarray
    in_block: np.ndarray
    in_text: np.ndarray
    order: np.ndarray
    a_len: np.ndarray
    b_len: np.ndarray


def layout(a_ids: np.ndarray, a_len: np.ndarray, b_ids: np.ndarray, b_len: np.ndarray) -> Layout:
    """The :class:`Layout` of pairs (a_p, b_p), texts concatenated in ``a_ids``/``b_ids`` with
    their lengths (temporaries reused: fresh memory costs more than the arithmetic). Pairs, places
    and ids are 32-bit where they fit (fewer positions than 2**31, ids below 2**31), so the
    layout and the matches read from it take half the memory; the order stays ``intp``."""
    both = a_len + b_len
    total = int(both.sum())
    small = total < 1 << 31
    place = np.int32 if small else np.int64
    ids_max = max(int(a_ids.max()) if len(a_ids) else 0, int(b_ids.max()) if len(b_ids) else 0)
    pair_of = np.repeat(np.arange(len(a_len), dtype=place), both)
    in_block = np.arange(total, dtype=place)
    np.subtract(in_block, np.repeat(starts(both).astype(place), both), out=in_block)
    b_here = np.repeat(b_len.astype(place), both)
    is_a = in_block >= b_here
    ids = np.empty(total, dtype=np.int32 if small and ids_max < 1 << 31 else np.int64)
    ids[~is_a] = b_ids
    ids[is_a] = a_ids
    b_here *= is_a  # a's tokens start after b's
    in_text = np.subtract(in_block, b_here, out=b_here)
    return Layout(ids, pair_of, is_a, in_block, in_text, stable_order(ids), a_len, b_len)


def _run_hits(run_start: np.ndarray, entries: int, s_pair: np.ndarray, s_a: np.ndarray,
              pairs: int) -> tuple[np.ndarray, np.ndarray]:
    """The entries in ``b`` of runs of sorted entries starting at ``run_start`` (``entries`` in
    all), and per pair Σ over runs of min(entries in a, entries in b)."""
    if not entries:
        return np.zeros(0, dtype=np.int64), np.zeros(pairs, dtype=np.int64)
    through = np.cumsum(s_a, dtype=np.int64)  # entries in a up to each entry
    before = np.take(through, run_start)
    before -= np.take(s_a, run_start)
    in_a = np.diff(before, append=through[-1])
    in_b = np.diff(run_start, append=entries)
    in_b -= in_a
    np.minimum(in_a, in_b, out=in_a)
    hits = np.bincount(s_pair[run_start], weights=in_a, minlength=pairs).astype(np.int64)
    return in_b, hits


def ngram_hits(lay: Layout, n: int) -> np.ndarray:
    """Per pair Σ over n-grams of min(count in a, count in b) (:func:`.rules.rouge_n`'s hits):
    the n-grams sorted by their tokens, last token first, with stable sorts (radix sorts below
    2**16), so every (n-gram, pair) is one run. The first sort is the layout's ``order`` shifted
    back by n - 1 (positions at least n - 1 into their text: the last tokens of n-grams)."""
    if n == 1:
        return unigram_runs(lay).hits
    ids = lay.ids
    order = lay.order[lay.in_text[lay.order] >= n - 1]  # (one array alive at a time: fresh
    if not len(order):                                   # memory costs more than arithmetic)
        return np.zeros(len(lay.a_len), dtype=np.int64)
    np.subtract(order, n - 1, out=order)
    token = np.empty(len(order), dtype=ids.dtype)
    for k in range(n - 2, -1, -1):
        order = order[stable_order(np.take(ids[k:], order, out=token))]
    s_pair = lay.pair[order]
    new = np.ones(len(order), dtype=bool)
    np.not_equal(s_pair[1:], s_pair[:-1], out=new[1:])
    same = np.empty(len(order) - 1, dtype=bool)
    for k in range(n):
        np.take(ids[k:], order, out=token)
        new[1:] |= np.not_equal(token[1:], token[:-1], out=same)
    del token, same
    return _run_hits(np.flatnonzero(new), len(new), s_pair, lay.is_a[order], len(lay.a_len))[1]


def unigram_runs(lay: Layout) -> Runs:
    """The (token, pair) runs of the layout's ``order``: each entry's run, the runs' starts, their
    entries in ``b``, and per pair the ROUGE-1 hits."""
    order = lay.order
    s_id, s_pair = lay.ids[order], lay.pair[order]
    new = np.ones(len(order), dtype=bool)
    np.not_equal(s_id[1:], s_id[:-1], out=new[1:])
    new[1:] |= s_pair[1:] != s_pair[:-1]
    run_start = np.flatnonzero(new)
    in_b, hits = _run_hits(run_start, len(new), s_pair, lay.is_a[order], len(lay.a_len))
    run = np.cumsum(new, dtype=np.int64)
    run -= 1
    return Runs(run, run_start, in_b, hits)


@dataclass(frozen=True)
class Runs:
    """:func:`unigram_runs`."""

    run: np.ndarray
    run_start: np.ndarray
    in_b: np.ndarray
    hits: np.ndarray


def subset_hits(lay: Layout, runs: Runs, in_a: np.ndarray) -> np.ndarray:
    """Per pair Σ over tokens of min(count in the subset ``in_a`` of a, count in b): ROUGE-1 hits
    of the a tokens where ``in_a`` (a bool per token of a, in order) against b, from the runs of
    the whole of a (each (token, pair) run holds the subset's entries of that token and pair)."""
    chosen = np.zeros(len(lay.ids), dtype=bool)
    chosen[lay.is_a] = in_a  # a's positions in the layout, in order, are a's tokens in order
    if not len(chosen):
        return np.zeros(len(lay.a_len), dtype=np.int64)
    through = np.cumsum(np.take(chosen, lay.order), dtype=np.int64)  # chosen up to each entry
    count = np.take(through, runs.run_start)
    count -= np.take(chosen, np.take(lay.order, runs.run_start))  # chosen before each run
    count = np.diff(count, append=through[-1])
    np.minimum(count, runs.in_b, out=count)
    return np.bincount(lay.pair[lay.order[runs.run_start]], weights=count,
                       minlength=len(lay.a_len)).astype(np.int64)


def join(lay: Layout, runs: Runs | None = None) -> Join:
    """The :class:`Join` of the layout's pairs (``runs``: its :func:`unigram_runs`, if known)."""
    order = lay.order
    s_pair, s_a = lay.pair[order], lay.is_a[order]
    runs = runs or unigram_runs(lay)
    run, run_start, in_b, hits = runs.run, runs.run_start, runs.in_b, runs.hits
    a_at = np.flatnonzero(s_a)  # sorted positions of a's tokens
    count = in_b[run[a_at]]
    token = np.repeat(a_at, count)
    k = np.arange(len(token), dtype=np.int64) - np.repeat(starts(count), count)
    b_at = run_start[run[token]] + k
    pair = s_pair[token]
    row = lay.in_text[order[token]]
    col = lay.in_block[order[b_at]]
    return Join(hits, pair, row, col)
