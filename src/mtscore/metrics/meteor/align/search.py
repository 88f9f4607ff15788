"""The branch-and-bound of a stage's linked components (Banerjee & Lavie 2005, §2.2: fewest crossings
among the maximum matchings), the part of :func:`.stage.best_stage_matching` that searches.

A group of linked components (:func:`.stage.linked_groups`) whose cheapest options cross is searched
here. ``pairs[x, y]``: the crossings between option x and option y of a later component (flat option
indices), summed from the edges' crossing matrix over x's edges, then over y's (float32 is exact for
these counts). Components whose mutual crossings turn out constant are searched apart. Beyond
``MATRIX_CAP`` options the matrix is not built: the search computes the rows it needs (bounded memory)
and its bound has no pairwise term. The search stops after ``NODE_CAP`` nodes with the best solution
found (its first descent is greedy); on WMT22 (194,195 stage searches) that happens once, on a zh-en
segment whose complete search takes 20,127 nodes and keeps the same matching.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate
from typing import TYPE_CHECKING

import numpy as np

from .crossings import UnionFind, cross_matrix

if TYPE_CHECKING:  # the stage rule calls this search
    from .stage import Options

#: most branch-and-bound nodes per stage before the best solution so far is kept
NODE_CAP = 20_000
#: most options of linked components whose pairwise crossings are kept as one matrix
MATRIX_CAP = 4096

Row = Callable[[int, int], np.ndarray]


def _row_sums(matrix: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``matrix[index].sum(axis=1)`` (float32) in slices of bounded size (no BLAS: its threads cost
    more than they save on these small products)."""
    step = max(1, (1 << 22) // max(1, index.shape[1] * matrix.shape[1]))
    if len(index) <= step:
        return np.add.reduce(matrix[index], axis=1, dtype=np.float32)
    return np.concatenate([matrix[index[s:s + step]].sum(axis=1, dtype=np.float32)
                           for s in range(0, len(index), step)])


def _col_sums(matrix: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``matrix[:, index].sum(axis=2)`` (float32) in slices of bounded size."""
    step = max(1, (1 << 22) // max(1, index.size))
    return np.concatenate([matrix[s:s + step][:, index].sum(axis=2, dtype=np.float32)
                           for s in range(0, len(matrix), step)])


def search_group(comps: list[Options], unary: list[np.ndarray], nodes: list[int]) -> list[int]:
    """The option kept for each of a group of linked components (``unary``: each one's options'
    costs, cheapest first; ``nodes``: the stage's node count so far, updated)."""
    sizes = [len(o.rows) for o in comps]
    offsets = list(accumulate(sizes, initial=0))
    edge_offsets = list(accumulate([len(o.edges) for o in comps], initial=0))
    total = offsets[-1]
    all_edges = np.concatenate([o.edges for o in comps])
    cross = cross_matrix(all_edges, all_edges)
    rows = [o.rows + edge_offsets[a] for a, o in enumerate(comps)]
    if total > MATRIX_CAP:
        def lazy(x: int, hi: int) -> np.ndarray:
            a = offsets.index(hi)  # the component after x's
            by_edge = cross[rows[a - 1][x - offsets[a - 1]]].sum(axis=0)
            return np.concatenate([by_edge[r].sum(axis=1) for r in rows[a:]])
        return branch_and_bound(lazy, unary, sizes, np.zeros(total), nodes)
    option_edge = np.concatenate([_row_sums(cross, r) for r in rows])  # options × edges
    pairs = np.zeros((total, total), dtype=np.float32)
    for b in range(1, len(comps)):
        pairs[:offsets[b], offsets[b]:offsets[b + 1]] = _col_sums(option_edge[:offsets[b]], rows[b])
    starts = offsets[:-1]
    most = np.maximum.reduceat(np.maximum.reduceat(pairs, starts, axis=1), starts, axis=0)
    least = np.minimum.reduceat(np.minimum.reduceat(pairs, starts, axis=1), starts, axis=0)
    sets = UnionFind(range(len(comps)))
    for p, c in zip(*np.nonzero(np.triu(most != least, 1))):
        sets.union(int(p), int(c))
    picks = [0] * len(comps)
    for members in sets.groups(range(len(comps))):
        if len(members) > 1:
            found = _search_members(pairs, offsets, sizes, members, unary, nodes)
            for a, k in zip(members, found):
                picks[a] = k
    return picks


def _search_members(pairs: np.ndarray, offsets: list[int], sizes: list[int], members: list[int],
                    unary: list[np.ndarray], nodes: list[int]) -> list[int]:
    """:func:`branch_and_bound` over the components ``members`` of a group (``pairs``: the group's
    matrix), with each option's unavoidable crossings with the later members as ``low``."""
    if len(members) == len(sizes):
        sub = pairs
    else:
        index = np.concatenate([np.arange(offsets[a], offsets[a + 1]) for a in members])
        sub = pairs[np.ix_(index, index)]
    sub_sizes = [sizes[a] for a in members]
    sub_starts = list(accumulate(sub_sizes[:-1], initial=0))
    # crossings each option cannot avoid with each later component: the minimum of its row there
    row_min = np.minimum.reduceat(sub, sub_starts, axis=1)
    owner = np.repeat(np.arange(len(members)), sub_sizes)
    later = np.arange(len(members))[None, :] > owner[:, None]
    low = (row_min * later).sum(axis=1, dtype=np.float64)

    def row(x: int, hi: int) -> np.ndarray:
        return sub[x, hi:]
    return branch_and_bound(row, [unary[a] for a in members], sub_sizes, low, nodes)


def branch_and_bound(row: Row, unary: list[np.ndarray], sizes: list[int], low: np.ndarray,
                     nodes: list[int]) -> list[int]:
    """Depth-first over the components in order, each one's options tried cheapest first given
    the ones picked before (stable order); returns the first solution of least total crossings.

    ``row(x, hi)``: crossings of option x (a flat index) with every option from flat index ``hi``
    on. ``given[x]`` is option x's cost given the picks so far. Bound (admissible): the cost so far
    plus, for each later component, the least of ``given + low``, where ``low[x]`` counts the
    crossings option x cannot avoid with the components after its own (the minimum of each of their
    rows) — so among equally cheap solutions the first in this order is kept, whatever the bound.
    Stops after ``NODE_CAP`` nodes with the best solution found (the first descent is greedy).
    """
    depth_count = len(sizes)
    offsets = list(accumulate(sizes, initial=0))
    starts = np.array(offsets[:-1])
    later_starts = [starts[d:] - offsets[d] for d in range(depth_count)]
    given = np.concatenate(unary).astype(np.float64)
    best_cost = float("inf")
    best_pick: list[int] = []
    pick: list[int] = []

    def descend(d: int, cost: float) -> None:
        nonlocal best_cost, best_pick
        lo, hi = offsets[d], offsets[d + 1]
        here = given[lo:hi]
        if d == depth_count - 1:  # the last component: its cheapest option (the first of equal ones)
            k = int(np.argmin(here))
            nodes[0] += 1
            if cost + here[k] < best_cost:
                best_cost = cost + float(here[k])
                best_pick = [*pick, k]
            return
        bounded = given[lo:] + low[lo:]
        least = np.minimum.reduceat(bounded, later_starts[d])
        rest = float(np.add.reduce(least[1:]))
        if cost + float(least[0]) + rest >= best_cost or (nodes[0] > NODE_CAP and best_pick):
            return
        costs = here.tolist()
        bound = (bounded[:hi - lo] + (cost + rest)).tolist()
        for k in here.argsort(kind="stable").tolist():
            if bound[k] >= best_cost:
                continue
            nodes[0] += 1
            crossing = row(lo + k, hi)
            given[hi:] += crossing
            pick.append(k)
            descend(d + 1, cost + costs[k])
            pick.pop()
            given[hi:] -= crossing

    descend(0, 0.0)
    return best_pick
