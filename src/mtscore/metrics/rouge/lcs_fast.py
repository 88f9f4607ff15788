"""Longest common subsequences of many pairs at once, bit-parallel over numpy arrays: the fast path
of :func:`.rules.lcs_length` (tested equal to it).

Allison & Dix (1986) / Hyyrö (2004): a row of the LCS table is kept as a bit vector V over the
positions of the second sequence (``b``), all ones before the first row. For each token x of the
first sequence (``a``), with M the positions of x in ``b``:  U = V & M,  V ← (V + U) | (V & ~M).
Then table[i][j] = the number of 0 bits among the low j bits of V after row i, and the LCS is the
number of 0 bits among the low |b| bits of the last row. Vectors longer than 64 bits are several
uint64 words with the carry of the addition propagated. Every pair of the batch advances together,
one numpy step per row. (The path ROUGE-Lsum reads back: :mod:`.lsum_fast`.)
"""

from __future__ import annotations

import numpy as np

_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


def padded(ids: np.ndarray, lengths: np.ndarray, starts: np.ndarray, width: int,
           fill: int) -> np.ndarray:
    """A (texts, width) matrix of the ids of each text (``starts``/``lengths`` into ``ids``),
    ``fill`` after its end."""
    out = np.full((len(lengths), width), fill, dtype=np.int64)
    row = np.repeat(np.arange(len(lengths)), lengths)
    col = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(
        np.cumsum(lengths) - lengths, lengths)
    out[row, col] = ids[np.repeat(starts, lengths) + col]
    return out


def match_masks(a: np.ndarray, la: np.ndarray, b: np.ndarray, lb: np.ndarray,
                words: int) -> np.ndarray:
    """(pairs, len(a), words) uint64: M[p, i] has bit j set where ``b[p, j] == a[p, i]``. The
    masks of every (pair, token) of ``b`` are OR-ed once (one sort), then looked up for every
    token of ``a``."""
    P, depth = a.shape
    out = np.zeros((P, depth, words), dtype=np.uint64)
    pb = np.repeat(np.arange(P, dtype=np.int64), lb)
    jb = np.arange(len(pb), dtype=np.int64) - np.repeat(np.cumsum(lb) - lb, lb)
    tb = b[pb, jb]
    pa = np.repeat(np.arange(P, dtype=np.int64), la)
    ia = np.arange(len(pa), dtype=np.int64) - np.repeat(np.cumsum(la) - la, la)
    ta = a[pa, ia]
    if not len(pb) or not len(pa):
        return out
    vocab = int(max(tb.max(), ta.max())) + 1
    key = (pb * vocab + tb) * words + jb // 64
    order = np.argsort(key, kind="stable")
    key = key[order]
    bit = np.left_shift(np.uint64(1), (jb[order] % 64).astype(np.uint64))
    starts = np.flatnonzero(np.diff(key, prepend=np.int64(-1)))
    masks = np.bitwise_or.reduceat(bit, starts)
    keys = key[starts]
    for w in range(words):
        want = (pa * vocab + ta) * words + w
        at = np.minimum(np.searchsorted(keys, want), len(keys) - 1)
        found = keys[at] == want
        out[pa[found], ia[found], w] = masks[at[found]]
    return out


def _step(v: np.ndarray, m: np.ndarray) -> np.ndarray:
    """One row: V ← (V + (V & M)) | (V & ~M), words little-endian with the carry propagated."""
    u = v & m
    rest = v & ~m
    if v.shape[1] == 1:
        return (v + u) | rest
    out = np.empty_like(v)
    carry = np.zeros(v.shape[0], dtype=np.uint64)
    for w in range(v.shape[1]):
        t = v[:, w] + u[:, w]
        s = t + carry
        carry = ((t < v[:, w]) | (s < t)).astype(np.uint64)
        out[:, w] = s | rest[:, w]
    return out


#: _LOW[k]: the low k bits set, k = 0..64
_LOW = np.array([(1 << k) - 1 for k in range(65)], dtype=np.uint64)


def _low_bits(j: np.ndarray, words: int) -> np.ndarray:
    """(pairs, words) masks of the low ``j`` bits."""
    if words == 1:
        return _LOW[np.minimum(j, 64)][:, None]
    bits = j[:, None] - 64 * np.arange(words)[None, :]
    return _LOW[np.minimum(np.maximum(bits, 0), 64)]


def _zeros_below(v: np.ndarray, j: np.ndarray) -> np.ndarray:
    """table value: 0 bits among the low ``j`` bits of each row vector ``v``."""
    masked = v & _low_bits(j, v.shape[1])
    ones = np.bitwise_count(masked[:, 0]) if v.shape[1] == 1 else np.bitwise_count(masked).sum(axis=1)
    return j - ones.astype(np.int64)


def _rows(a: np.ndarray, a_len: np.ndarray, b: np.ndarray, b_len: np.ndarray) -> np.ndarray:
    """Run the rows of every pair (``a``, ``b``: padded matrices; ``b``'s width a multiple of 64;
    pairs ordered by decreasing ``a_len``). Returns the last rows (pairs, words)."""
    P, words = len(a_len), b.shape[1] // 64
    v = np.full((P, words), _ONES, dtype=np.uint64)
    depth = int(a_len.max()) if P else 0
    masks = match_masks(a, a_len, b, b_len, words)
    active = P
    for i in range(depth):
        while active and a_len[active - 1] <= i:
            active -= 1
        v[:active] = _step(v[:active], masks[:active, i])
    return v


def _groups(b_len: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Pairs grouped by the uint64 words their ``b`` needs."""
    words = np.maximum((b_len + 63) // 64, 1)
    return [(int(w), np.flatnonzero(words == w)) for w in np.unique(words)]


def lcs_lengths(a_ids: np.ndarray, a_len: np.ndarray, a_start: np.ndarray, b_ids: np.ndarray,
                b_len: np.ndarray, b_start: np.ndarray, max_words: int | None = None) -> np.ndarray:
    """LCS length of every pair (a_p, b_p) of texts given by start and length into the id arrays:
    :func:`.rules.lcs_length` for each pair (0 for pairs whose ``b`` needs more than ``max_words``
    uint64 words, if given: left to the caller)."""
    out = np.zeros(len(a_len), dtype=np.int64)
    for words, idx in _groups(b_len):
        if max_words is not None and words > max_words:
            continue
        idx = idx[(a_len[idx] > 0) & (b_len[idx] > 0)]
        if not len(idx):
            continue
        idx = idx[np.argsort(-a_len[idx], kind="stable")]
        a = padded(a_ids, a_len[idx], a_start[idx], int(a_len[idx].max()), -1)
        b = padded(b_ids, b_len[idx], b_start[idx], 64 * words, -2)
        v = _rows(a, a_len[idx], b, b_len[idx])
        out[idx] = _zeros_below(v, b_len[idx])
    return out
