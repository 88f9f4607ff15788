"""The crossings between the options of a stage's linked components that the search of
:mod:`.search` needs, without the options × options matrix: an acceleration of that matrix's row
minima and maxima (tested equal to them: ``tests/test_meteor_option_bounds.py``).

The search (:func:`.search.search_group`) uses, for every option x of a component and every later
component c, the least and the most crossings of x with c's options (its bound and its split into
independent parts), and the crossings of x with each of c's options only at the few nodes it visits.
Here x's crossings with every *edge* of the later components come first (one row per option:
:func:`chain_crossings` for the in-order pairings of a complete component, from prefix counts,
else :func:`edge_crossings`, from the edges' crossing matrix); then, for a complete component of
a × b words (a ≠ b), whose options are every in-order pairing of its smaller side with a subset of
its larger one (:func:`.stage.ordered_rows`), the least and the most over all of them are dynamic
programs over its grid of edges (:func:`pairing_extremes`: O(a · b) per option x instead of
O(options · matches)); any other component's options are summed one by one (:func:`option_sums`).
"""

from __future__ import annotations

import numpy as np

#: a sum no option pair reaches (crossings of two options: at most matches × matches)
_FAR = np.int32(1 << 28)
#: most elements of a temporary (option, option, match) array built at once
_BLOCK = 1 << 21


def edge_crossings(cross: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Per option (``rows``: its edges as row indices of ``cross``), per column of ``cross``
    (edges × edges, boolean): how many of the option's edges cross that column's edge (int32)."""
    table = cross.view(np.uint8)
    out = table[rows[:, 0]].astype(np.int32)
    for i in range(1, rows.shape[1]):
        out += table[rows[:, i]]
    return out


def option_sums(weights: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``weights[:, rows].sum(axis=2)``: per option x (a row of ``weights``: its crossings with a
    component's edges), its crossings with each option of that component (``rows``: edge indices),
    in blocks of bounded size."""
    step = max(1, _BLOCK // max(1, rows.size))
    if len(weights) <= step:
        return np.add.reduce(weights[:, rows], axis=2)
    return np.concatenate([np.add.reduce(weights[s:s + step][:, rows], axis=2)
                           for s in range(0, len(weights), step)])


def pairing_extremes(weights: np.ndarray, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row x of ``weights`` (x's crossings with the edges of a complete a × b component, edge
    (i, j) at column i·b + j), the least and the most over the component's options — every pairing
    of its smaller side, in order, with as many words of its larger side, also in order — of the
    sum of x's crossings with the option's edges.

    A dynamic program over the larger side: after its first t words, ``low[:, s]`` (``high[:, s]``)
    is the least (most) sum with the first s words of the smaller side paired; word t + 1 is either
    skipped or paired with word s + 1 (each pairing counted once, as in a left-to-right scan).
    Both programs run as one: the most is minus the least of the negated weights, so columns
    n..2n − 1 of one table hold −high (two array operations per word instead of four). The rows x
    run along the last axis (``table[s, x]``, ``both[t, s, x]``): each operation is then one
    contiguous run of (smaller side) · 2n numbers, not 2n runs of a few."""
    n = len(weights)
    grid = weights.reshape(n, a, b).transpose(1, 2, 0)  # (hypothesis word, reference word, x)
    if a < b:  # the larger side runs along the reference words: scan it, pairing hypothesis words
        grid = grid.transpose(1, 0, 2)
    small = min(a, b)
    both = np.empty((*grid.shape[:2], 2 * n), dtype=grid.dtype)  # −weights after weights, per cell
    both[:, :, :n] = grid
    np.negative(both[:, :, :n], out=both[:, :, n:])  # (the same layout: no temporary)
    table = np.full((small + 1, 2 * n), _FAR, dtype=np.int32)
    table[0] = 0
    step = np.empty((small, 2 * n), dtype=np.result_type(table, both))  # every word's sums
    for t in range(max(a, b)):
        np.add(table[:-1], both[t], out=step)
        np.minimum(table[1:], step, out=table[1:])
    return table[small, :n], -table[small, n:]


def chain_crossings(edges: np.ndarray, rows: np.ndarray, a: int, b: int, h: np.ndarray,
                    r: np.ndarray) -> np.ndarray:
    """:func:`edge_crossings` of the options of a complete a × b component (``edges``: edge (i, j) =
    (i-th hypothesis word, j-th reference word) at row i·b + j; ``rows``: in-order pairings) with
    foreign matches (``h``, ``r``: positions of words not in the component), without the crossing
    matrix: an option is a chain (its pairs increase on both sides), so of its pairs those before a
    foreign match on the hypothesis side and those before it on the reference side are two prefixes,
    and the pairs crossing it are their difference: |P − Q| (P, Q: the prefixes' lengths)."""
    hs, rs = edges[::b, 0], edges[:b, 1]
    before_h = np.searchsorted(hs, h)  # component words before each foreign match, per side
    before_r = np.searchsorted(rs, r)
    n = len(rows)
    chosen = rows % b if a < b else rows // b  # the words of the larger side each option uses
    below = np.zeros((n, max(a, b) + 1), dtype=np.int32)  # below[x, k]: x's chosen words before k
    below[np.arange(n)[:, None], chosen + 1] = 1
    np.cumsum(below, axis=1, out=below)
    # the difference in place: no second and third options × matches temporary (page faults)
    if a < b:  # every hypothesis word is paired: P = before_h; Q counts x's reference words
        out = below[:, before_r]
        np.subtract(before_h.astype(np.int32), out, out=out)
    else:
        out = below[:, before_h]
        out -= before_r.astype(np.int32)
    return np.abs(out, out=out)
