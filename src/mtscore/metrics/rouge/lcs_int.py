"""Bit-parallel LCS on Python integers, one pair at a time: the fast path of
:func:`.rules.lcs_length` (ROUGE-L) and :func:`.rules.lcs_indices` (the path ROUGE-Lsum reads), both
tested equal to the rules.

Allison & Dix (1986), Hyyrö (2004): row i of the LCS table is the integer V_i over the positions of
``b`` (bit j-1 is 0 where table[i][j] > table[i][j-1]), all ones (n bits) before the first row; with
M the positions in ``b`` of token ``a[i-1]`` and U = V & M: V_i = (V + U) | (V - U). The LCS is the
number of 0 bits among the low n bits of the last row. A Python integer has any width, so a long
text costs one addition per row, not one per 64 columns; bits carried past n never come back down.

The path (:func:`lcs_path`) is read back as :mod:`.lsum_fast` explains, one step per token of the
shorter text. One row at a time: the vertical steps of row i are
D_i = (V_i & ~V_{i-1}) - (V_{i-1} & ~V_i), which is V_i - V_{i-1} (each of V_i and V_{i-1} is its
bits shared with the other plus its own), and from column j the path stops at the highest column
j' <= j set in M_i | ~D_i (diagonal on a match, else up). One column at a time: from row i of
column j it stops at the highest row i' <= i set in M_j | ~W_j, W_j the vector of column j
(diagonal on a match, else left). Whether a stop is a match is read from its two tokens, so only
the stop vectors are kept.
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
    """The positions of ``a`` on the path :func:`.rules.lcs_indices` reads, from the last: read
    back one row at a time, or one column at a time when ``b`` is the shorter (fewer steps)."""
    if not a or not b:
        return []
    return _path_by_column(a, b) if len(b) < len(a) else _path_by_row(a, b)


def _path_by_row(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """:func:`lcs_path` one row (token of ``a``) at a time, the bits over ``b``."""
    n = len(b)
    get = _masks(b).get
    v = (1 << n) - 1
    stops = []
    for t in a:
        m = get(t, 0)
        u = v & m
        new = (v + u) | (v - u)
        stops.append(m | ~(new - v))  # D_i = (new & ~v) - (v & ~new) = new - v
        v = new
    out = []
    i, j = len(a), n
    while i and j:
        j_stop = (stops[i - 1] & ((1 << j) - 1)).bit_length()
        i -= 1
        if j_stop and b[j_stop - 1] == a[i]:  # a match: bit j_stop - 1 of M_i
            out.append(i)
            j = j_stop - 1
        else:
            j = j_stop
    return out


def _path_by_column(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """:func:`lcs_path` one column (token of ``b``) at a time, the bits over ``a``: W_j, the
    vector of column j, is the recurrence's row vector with the roles of a and b swapped, and the
    path in column j stops at the highest row i' <= i set in M_j | ~W_j (diagonal on a match,
    else left), as :mod:`.lsum_fast` explains."""
    get = _masks(a).get
    w = (1 << len(a)) - 1
    stops = []
    for t in b:
        m = get(t, 0)
        u = w & m
        w = (w + u) | (w - u)
        stops.append(m | ~w)
    out = []
    i, j = len(a), len(b)
    while i and j:
        j -= 1
        i_stop = (stops[j] & ((1 << i) - 1)).bit_length()
        if i_stop and a[i_stop - 1] == b[j]:  # a match: bit i_stop - 1 of M_j
            out.append(i_stop - 1)
            i = i_stop - 1
        else:
            i = i_stop
    return out
