"""LCS lengths of every pair of a corpus at once, bit-parallel on ONE Python integer: the fast path of
:func:`.rules.lcs_length` (tested equal to it).

The recurrence is :mod:`.lcs_int`'s (Allison & Dix 1986, Hyyrö 2004): row i of the LCS table of a
pair is a bit vector V over the positions of ``b``, all ones before the first row; with M the
positions in ``b`` of token ``a[i-1]`` and U = V & M, V <- (V + U) | (V - U); the LCS is the number
of 0 bits of the last row. Here every pair is a lane of one integer: lane p holds the |b_p| bits of
pair p and one guard bit above them, which catches the carry out of the lane's addition and is
cleared after every row (so no carry reaches the next lane; V - U never borrows, U being inside V).
Row i's mask is the union of the lanes' masks of their token a_p[i] (nothing for a lane whose ``a``
is shorter: its V stays as it is). So a row is five operations on one integer for the whole corpus.

Lanes are ordered by decreasing |a|, the longest at the low end: once row i has passed the end of
the upper lanes, they never change again and are set aside, and the rows run on the lower part
only. The masks of all rows are set in one bit array (numpy), the matches found with one sort of
the (pair, token) keys of ``b``.
"""

from __future__ import annotations

import numpy as np

from ..sorting import stable_order
from .token_join import join, layout, starts


def _row_masks(pair: np.ndarray, row: np.ndarray, col: np.ndarray, lane_bit: np.ndarray,
               row_bits: np.ndarray) -> list[int]:
    """Row i's mask over every lane (an integer of ``row_bits[i]`` bits at most): bit
    ``lane_bit[p] + j`` set for every match (p, i, j). The bits are set in packed bytes (each bit
    is set once, so adding its value is OR-ing it)."""
    row_bytes = (row_bits + 7) // 8
    # (gathers at intp indices are numpy's fast path)
    bit = np.take(8 * starts(row_bytes), row.astype(np.intp, copy=False))
    bit += np.take(lane_bit, pair.astype(np.intp, copy=False))
    bit += col
    value = np.left_shift(1, (bit & 7).astype(np.uint8))
    bit >>= 3
    packed = np.zeros(int(row_bytes.sum()), dtype=np.uint8)
    np.add.at(packed, bit, value)
    del bit, value
    data = packed.tobytes()
    del packed
    ends = np.cumsum(row_bytes).tolist()
    begins = (np.asarray(ends) - row_bytes).tolist()
    return [int.from_bytes(data[s:e], "little") for s, e in zip(begins, ends)]


def _ones(width: int, lane_end: np.ndarray) -> int:
    """The integer of ``width`` bits with every bit set but the lanes' guard bits (the bits below
    ``lane_end``): the |b_p| low bits of every lane."""
    guard = np.zeros(width, dtype=bool)
    guard[lane_end - 1] = True
    return (1 << width) - 1 ^ int.from_bytes(np.packbits(guard, bitorder="little").tobytes(),
                                             "little")


def lcs_lengths(a_ids: np.ndarray, a_len: np.ndarray, b_ids: np.ndarray,
                b_len: np.ndarray) -> np.ndarray:
    """LCS length of every pair (a_p, b_p): texts concatenated in ``a_ids``/``b_ids`` with their
    lengths (non-negative integer token ids); :func:`.rules.lcs_length` of each pair."""
    j = join(layout(a_ids, a_len, b_ids, b_len))
    return lcs_of_matches(a_len, b_len, j.pair, j.row, j.col)


def lcs_of_matches(a_len: np.ndarray, b_len: np.ndarray, pair: np.ndarray, row: np.ndarray,
                   col: np.ndarray) -> np.ndarray:
    """:func:`lcs_lengths` from the matches (``pair``, ``row`` i, ``col`` j) with a_p[i] == b_p[j]
    (:func:`.token_join.join`)."""
    out = np.zeros(len(a_len), dtype=np.int64)
    live = np.flatnonzero((a_len > 0) & (b_len > 0))
    if not len(live):
        return out
    la = a_len[live]
    lanes = live[stable_order(int(la.max()) - la)]  # lane q holds pair lanes[q]: |a| decreasing
    width = b_len[lanes] + 1
    lane_end = np.cumsum(width)
    lane_bit = np.zeros(len(a_len), dtype=np.int64)
    lane_bit[lanes] = lane_end - width
    la = a_len[lanes]
    active = np.searchsorted(-la, -np.arange(int(la[0])), "left")  # lanes with |a| > i
    row_bits = lane_end[active - 1]
    masks = _row_masks(pair, row, col, lane_bit, row_bits)
    total = int(lane_end[-1])
    full = _ones(total, lane_end)
    v, done, top = full, 0, total
    for m, w in zip(masks, row_bits.tolist()):
        if 2 * w < top:  # the lanes above bit w are finished
            done |= v >> w << w
            low = (1 << w) - 1
            v &= low
            full &= low
            top = w
        u = v & m
        v = ((v + u) | (v - u)) & full
    v |= done
    vb = np.unpackbits(np.frombuffer(v.to_bytes((total + 7) // 8, "little"), dtype=np.uint8),
                       bitorder="little")[:total]
    set_bits = np.add.reduceat(vb, lane_end - width, dtype=np.int64)  # lane order
    out[lanes] = b_len[lanes] - set_bits
    return out
