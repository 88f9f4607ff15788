"""Bit-parallel LCS on Python integers, one pair at a time: the fast path of
:func:`.rules.lcs_length` (ROUGE-L) and :func:`.rules.lcs_indices` (the path ROUGE-Lsum reads), both
tested equal to the rules.

Allison & Dix (1986), Hyyrö (2004): row i of the LCS table is the integer V_i over the positions of
``b`` (bit j-1 is 0 where table[i][j] > table[i][j-1]), all ones (n bits) before the first row; with
M the positions in ``b`` of token ``a[i-1]`` and U = V & M: V_i = (V + U) | (V - U). The LCS is the
number of 0 bits among the low n bits of the last row. A Python integer has any width, so a long
text costs one addition per row, not one per 64 columns; bits carried past n never come back down.

The path (:func:`lcs_path`) is read back one row at a time as :mod:`.lsum_fast` explains: the
vertical steps of row i are D_i = (V_i & ~V_{i-1}) - (V_{i-1} & ~V_i), which is V_i - V_{i-1}
(each of V_i and V_{i-1} is its bits shared with the other plus its own), and from column j the
path stops at the highest column j' <= j set in M_i | ~D_i (diagonal on a match, else up).
"""

from __future__ import annotations

from collections.abc import Sequence


def _masks(b: Sequence[int]) -> dict[int, int]:
    """Token -> the bits of its positions in ``b``."""
    masks: dict[int, int] = {}
    get = masks.get
    for j, t in enumerate(b):
        masks[t] = get(t, 0) | (1 << j)
    return masks


def lcs_length(a: Sequence[int], b: Sequence[int]) -> int:
    """LCS(a, b): :func:`.rules.lcs_length` (``a`` the rows, ``b`` the bits)."""
    n = len(b)
    if not n or not a:
        return 0
    get = _masks(b).get
    v = full = (1 << n) - 1
    for t in a:
        m = get(t)
        if m:
            u = v & m
            v = (v + u) | (v - u)
    return n - (v & full).bit_count()


def lcs_lengths(a: list[list[int]], b: list[list[int]]) -> list[int]:
    """:func:`lcs_length` of every pair (a[p], b[p])."""
    return [lcs_length(x, y) for x, y in zip(a, b)]


def lcs_path(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The positions of ``a`` on the path :func:`.rules.lcs_indices` reads, from the last."""
    n = len(b)
    if not n or not a:
        return []
    get = _masks(b).get
    v = (1 << n) - 1
    stops, matches = [], []
    for t in a:
        m = get(t, 0)
        u = v & m
        new = (v + u) | (v - u)
        stops.append(m | ~(new - v))  # D_i = (new & ~v) - (v & ~new) = new - v
        matches.append(m)
        v = new
    out = []
    i, j = len(a), n
    while i and j:
        j_stop = (stops[i - 1] & ((1 << j) - 1)).bit_length()
        i -= 1
        if j_stop and matches[i] >> (j_stop - 1) & 1:
            out.append(i)
            j = j_stop - 1
        else:
            j = j_stop
    return out
