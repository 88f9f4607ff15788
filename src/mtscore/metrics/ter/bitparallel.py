"""Word edit distances (all costs 1, no beam) of many shifted hypotheses against their references
at once, with Myers' bit-parallel algorithm (Myers, 1999, "A fast bit-vector algorithm for
approximate string matching based on dynamic programming"; Hyyrö, 2001, "Explaining and extending
the bit-parallel approximate string matching algorithm of Myers", for the global distance).

Column i of the distance table D[j][i] (reference words 0..m down, hypothesis words 0..i across)
is kept as two bit vectors, VP and VN: bit j - 1 is set when D[j][i] - D[j - 1][i] is +1 (VP) or
-1 (VN); one hypothesis word updates all m bits with a few word operations, so a candidate costs
a few numpy passes over its rows instead of one per cell. References longer than 64 words take
several uint64 words per vector (carries passed on word by word). The distance is
D[m][n] = n + #VP - #VN.

:mod:`.fast` uses these distances for TER's shift candidates: they equal the beam edit
distance whenever the beam leaves no cell out, and bound it from below otherwise (the beam only
removes paths).
"""

from __future__ import annotations

import numpy as np

#: bits per word of a bit vector
BITS = 64


def match_masks(hyp: np.ndarray, ref: np.ndarray, m: np.ndarray) -> np.ndarray:
    """(items × N × words) uint64: bit j of item g at hypothesis position i is set when
    ``hyp[g, i] == ref[g, j]`` and j < m[g]."""
    G, N = hyp.shape
    M = ref.shape[1]
    words = max(1, -(-M // BITS))
    equal = np.zeros((G, N, words * BITS), dtype=bool)
    np.equal(hyp[:, :, None], ref[:, None, :], out=equal[:, :, :M])
    equal[:, :, :M] &= np.arange(M) < m[:, None, None]
    return np.packbits(equal, axis=2, bitorder="little").view("<u8").astype(np.uint64, copy=False)


def _add_to(x: np.ndarray, y: np.ndarray) -> None:
    """x += y for multi-word numbers (items × words, the low word first), modulo the top word."""
    if x.shape[1] == 1:
        x += y
        return
    old = x.copy()
    x += y
    carry = x < old
    for w in range(1, x.shape[1]):
        c = carry[:, w - 1]
        x[:, w] += c
        carry[:, w] |= c & (x[:, w] == 0)


def _shift_left(x: np.ndarray, low: int) -> None:
    """x <<= 1 for multi-word numbers, with ``low`` as the new lowest bit."""
    if x.shape[1] > 1:
        top = x[:, :-1] >> (BITS - 1)
        x <<= 1
        x[:, 1:] |= top
    else:
        x <<= 1
    if low:
        x[:, 0] |= low


def _step(vp: np.ndarray, vn: np.ndarray, eq: np.ndarray) -> None:
    """(VP, VN) of the next column of D, in place, for a hypothesis word whose matches in the
    reference are the bits of ``eq`` (row 0 of D grows by 1 per column)."""
    xv = eq | vn
    xh = eq & vp
    _add_to(xh, vp)
    xh ^= vp
    xh |= eq
    ph = xh | vp
    np.invert(ph, out=ph)
    ph |= vn
    np.bitwise_and(vp, xh, out=xh)  # mh
    _shift_left(ph, 1)
    _shift_left(xh, 0)
    np.bitwise_or(xv, ph, out=vp)
    np.invert(vp, out=vp)
    vp |= xh
    np.bitwise_and(ph, xv, out=vn)


def prefix_states(masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(VP, VN) of columns 0 .. N of every item's D (items × (N + 1) × words): the state after
    the first i hypothesis words (columns past an item's n are not meaningful)."""
    G, N, words = masks.shape
    vp = np.empty((G, N + 1, words), dtype=np.uint64)
    vn = np.empty((G, N + 1, words), dtype=np.uint64)
    vp[:, 0] = ~np.uint64(0)
    vn[:, 0] = 0
    for i in range(N):
        vp[:, i + 1], vn[:, i + 1] = vp[:, i], vn[:, i]
        _step(vp[:, i + 1], vn[:, i + 1], masks[:, i])
    return vp, vn


def _popcount(x: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The number of set bits of each row of x (items × words) below bit m."""
    words = x.shape[1]
    below = np.packbits(np.arange(words * BITS) < m[:, None], axis=1, bitorder="little")
    below = below.view("<u8").astype(np.uint64, copy=False)
    return np.bitwise_count(x & below).sum(axis=1, dtype=np.int64)


def shifted_distances(masks: np.ndarray, states: tuple[np.ndarray, np.ndarray], n: np.ndarray,
                      m: np.ndarray, job: np.ndarray, first: np.ndarray, src: np.ndarray
                      ) -> np.ndarray:
    """The edit distance (no beam) of every candidate: the words at positions ``src[c]`` of item
    ``job[c]``'s hypothesis, the same as the item's before position ``first[c]`` (their columns
    are taken from ``states``, :func:`prefix_states`). Candidates are run longest first, so the
    ones still running are always a prefix."""
    steps = n[job] - first
    order = np.argsort(-steps, kind="stable")
    job, first, steps = job[order], first[order], steps[order]
    vp, vn = states[0][job, first], states[1][job, first]
    T = int(steps[0]) if len(steps) else 0
    running = np.searchsorted(-steps, -np.arange(1, T + 1), side="right")
    for t, k in enumerate(running.tolist()):  # the words of step t of the k still running
        words = src[order[:k], first[:k] + t]
        _step(vp[:k], vn[:k], masks[job[:k], words])
    out = np.empty(len(job), dtype=np.int64)
    out[order] = n[job] + _popcount(vp, m[job]) - _popcount(vn, m[job])
    return out
