"""The equal tokens of the two sides of every pair of a corpus, found with one stable sort of the
token ids: what ROUGE-1 (:func:`.rules.rouge_n` with n = 1) and the LCS masks (:mod:`.lcs_lanes`)
read. Tested equal to the rules through them.

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


def join(a_ids: np.ndarray, a_len: np.ndarray, b_ids: np.ndarray, b_len: np.ndarray) -> Join:
    """The :class:`Join` of pairs (a_p, b_p), texts concatenated in ``a_ids``/``b_ids`` with
    their lengths."""
    P = len(a_len)
    both = a_len + b_len
    block = starts(both)
    pair_of = np.repeat(np.arange(P, dtype=np.int64), both)
    in_block = np.arange(len(pair_of), dtype=np.int64) - block[pair_of]
    is_a = in_block >= b_len[pair_of]
    ids = np.empty(len(pair_of), dtype=np.int64)
    ids[~is_a] = b_ids
    ids[is_a] = a_ids
    order = stable_order(ids)
    s_id, s_pair, s_a = ids[order], pair_of[order], is_a[order]
    new = np.ones(len(order), dtype=bool)
    np.not_equal(s_id[1:], s_id[:-1], out=new[1:])
    new[1:] |= s_pair[1:] != s_pair[:-1]
    run = np.cumsum(new) - 1
    run_start = np.flatnonzero(new)
    in_a = np.bincount(run, weights=s_a, minlength=len(run_start)).astype(np.int64)
    in_b = np.diff(run_start, append=len(order)) - in_a
    hits = np.bincount(s_pair[run_start], weights=np.minimum(in_a, in_b),
                       minlength=P).astype(np.int64)
    a_at = np.flatnonzero(s_a)  # sorted positions of a's tokens
    count = in_b[run[a_at]]
    token = np.repeat(a_at, count)
    k = np.arange(len(token), dtype=np.int64) - np.repeat(starts(count), count)
    b_at = run_start[run[token]] + k
    pair = s_pair[token]
    row = in_block[order[token]] - b_len[pair]
    col = in_block[order[b_at]]
    return Join(hits, pair, row, col)
