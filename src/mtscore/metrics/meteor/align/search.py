"""The branch-and-bound of a stage's linked components (Banerjee & Lavie 2005, §2.2: fewest crossings
among the maximum matchings), the part of :func:`.stage.best_stage_matching` that searches.

A group of linked components (:func:`.stage.linked_groups`) whose cheapest options cross is searched
here. ``pairs[x, y]``: the crossings between option x and option y of a later component (flat option
indices). The search needs, per option x and later component c, the least and the most of
``pairs[x, c's options]`` (its bound, and whether two components' crossings are constant: those are
searched apart), and whole rows only at the nodes it visits; these come from each option's crossings
with the later components' *edges* (:mod:`.option_bounds`, a dynamic program for complete
components), not from the options × options matrix — except in groups of fewer than ``SMALL_GROUP``
options, where that matrix takes fewer array operations. Beyond ``MATRIX_CAP`` options the search
computes its rows from the edges' crossing matrix and its bound has no pairwise term. The search
stops after ``NODE_CAP`` nodes with the best solution found (its first descent is greedy); on WMT22
(194,195 stage searches) that happens once, on a zh-en segment whose complete search takes 20,127
nodes and keeps the same matching.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate
from typing import TYPE_CHECKING

import numpy as np

from .arrays import components_of
from .crossings import cross_matrix, crosses
from .option_bounds import chain_crossings, edge_crossings, option_sums, pairing_extremes

if TYPE_CHECKING:  # the stage rule calls this search
    from .stage import Options

#: most branch-and-bound nodes per stage before the best solution so far is kept
NODE_CAP = 20_000
#: most options of linked components whose pairwise crossings are kept as one matrix
MATRIX_CAP = 4096
#: fewer options than this: the options × options matrix is built (cheaper for small groups)
SMALL_GROUP = 128

Row = Callable[[int, int], np.ndarray]


def search_group(comps: list[Options], unary: list[np.ndarray], nodes: list[int]) -> list[int]:
    """The option kept for each of a group of linked components (``unary``: each one's options'
    costs, cheapest first; ``nodes``: the stage's node count so far, updated)."""
    sizes = [len(o.rows) for o in comps]
    offsets = list(accumulate(sizes, initial=0))
    edge_offsets = list(accumulate([len(o.edges) for o in comps], initial=0))
    total = offsets[-1]
    if total > MATRIX_CAP:
        all_edges = np.concatenate([o.edges for o in comps])
        cross = cross_matrix(all_edges, all_edges)
        rows = [o.rows + edge_offsets[a] for a, o in enumerate(comps)]

        def lazy(x: int, hi: int) -> np.ndarray:
            a = offsets.index(hi)  # the component after x's
            by_edge = cross[rows[a - 1][x - offsets[a - 1]]].sum(axis=0)
            return np.concatenate([by_edge[r].sum(axis=1) for r in rows[a:]])
        return branch_and_bound(lazy, unary, sizes, np.zeros(total), nodes)
    if total < SMALL_GROUP:
        return _small_group(comps, unary, nodes, offsets, edge_offsets)
    k = len(comps)
    later = _later_crossings(comps, edge_offsets)
    least, most = _extremes(comps, later, offsets, edge_offsets)
    starts = offsets[:-1]
    block_most = np.maximum.reduceat(most, starts, axis=0)
    block_least = np.minimum.reduceat(least, starts, axis=0)
    picks = [0] * k
    for members in _parts(block_most != block_least):
        found = _search_members(comps, later, least, offsets, edge_offsets, members, unary, nodes)
        for a, pick in zip(members, found):
            picks[a] = pick
    return picks


def _parts(vary: np.ndarray) -> list[list[int]]:
    """The parts (of two or more components) searched apart: joined where the crossings of two
    components vary with their options (``vary[p, c]``, p < c)."""
    n = len(vary)
    p, c = np.nonzero(vary)
    upper = p < c
    label = components_of(p[upper], c[upper], n)  # numbered by least member: the groups' order
    members = np.split(np.argsort(label, kind="stable"), np.cumsum(np.bincount(label))[:-1])
    return [m.tolist() for m in members if len(m) > 1]


def _small_group(comps: list[Options], unary: list[np.ndarray], nodes: list[int], offsets: list[int],
                 edge_offsets: list[int]) -> list[int]:
    """:func:`search_group` of a group of fewer than ``SMALL_GROUP`` options, from the explicit
    options × options crossing matrix (fewer array operations than the per-edge tables there); the
    same bound, parts and rows."""
    all_edges = np.concatenate([o.edges for o in comps])
    # only crossings of edges of different components are read (they share no word: ``distinct``)
    h, r = all_edges[:, 0], all_edges[:, 1]
    cross = crosses(h[:, None], r[:, None], h, r, distinct=True).view(np.uint8)
    rows = [o.rows + edge_offsets[a] for a, o in enumerate(comps)]
    option_edge = np.concatenate([np.add.reduce(cross[x], axis=1, dtype=np.int32)
                                  for x in rows])  # options × edges
    total, starts = offsets[-1], offsets[:-1]
    pairs = np.zeros((total, total), dtype=np.int32)
    for c in range(1, len(comps)):
        pairs[:offsets[c], offsets[c]:offsets[c + 1]] = np.add.reduce(option_edge[:offsets[c]][:, rows[c]],
                                                                      axis=2)
    most = np.maximum.reduceat(np.maximum.reduceat(pairs, starts, axis=1), starts, axis=0)
    least = np.minimum.reduceat(np.minimum.reduceat(pairs, starts, axis=1), starts, axis=0)
    picks = [0] * len(comps)
    for members in _parts(most != least):
        index = np.concatenate([np.arange(offsets[a], offsets[a + 1]) for a in members])
        sub = pairs[np.ix_(index, index)]
        sub_sizes = [offsets[a + 1] - offsets[a] for a in members]
        sub_starts = list(accumulate(sub_sizes[:-1], initial=0))
        # crossings each option cannot avoid with each later member: the minimum of its row there
        row_min = np.minimum.reduceat(sub, sub_starts, axis=1)
        owner = np.repeat(np.arange(len(members)), sub_sizes)
        low = (row_min * (np.arange(len(members))[None, :] > owner[:, None])).sum(axis=1, dtype=np.float64)
        def row(x: int, hi: int, m: np.ndarray = sub) -> np.ndarray:
            return m[x, hi:]
        found = branch_and_bound(row, [unary[a] for a in members], sub_sizes, low, nodes)
        for a, pick in zip(members, found):
            picks[a] = pick
    return picks


def _later_crossings(comps: list[Options], edge_offsets: list[int]) -> list[np.ndarray]:
    """Per component but the last, each of its options' crossings with every edge of the components
    after it (edges of different components share no word: ``crosses(..., distinct=True)``)."""
    edges = np.concatenate([o.edges for o in comps]).astype(np.int32)
    h, r = edges[:, 0], edges[:, 1]
    out = []
    for p, o in enumerate(comps[:-1]):
        lo, hi = edge_offsets[p], edge_offsets[p + 1]
        if o.grid is not None:  # in-order pairings: counted from prefixes, no crossing matrix
            out.append(chain_crossings(o.edges, o.rows, *o.grid, h[hi:], r[hi:]))
            continue
        cross = crosses(h[lo:hi, None], r[lo:hi, None], h[hi:], r[hi:], distinct=True)
        out.append(edge_crossings(cross, o.rows))
    return out


def _columns(later: list[np.ndarray], edge_offsets: list[int], p: int, c: int) -> np.ndarray:
    """The crossings of component p's options with component c's edges (c after p)."""
    lo = edge_offsets[c] - edge_offsets[p + 1]
    return later[p][:, lo:lo + edge_offsets[c + 1] - edge_offsets[c]]


def _extremes(comps: list[Options], later: list[np.ndarray], offsets: list[int],
              edge_offsets: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """``least[x, c]``, ``most[x, c]``: the fewest and the most crossings of option x (a flat
    index) with an option of a later component c (0 where c is not later): the row minima and
    maxima of the options × options crossing matrix, each component's block at a time, by
    :func:`.option_bounds.pairing_extremes` where that takes fewer operations."""
    k = len(comps)
    least = np.zeros((offsets[-1], k), dtype=np.int32)
    most = np.zeros((offsets[-1], k), dtype=np.int32)
    for c in range(1, k):
        weights = np.concatenate([_columns(later, edge_offsets, p, c) for p in range(c)])
        o = comps[c]
        n, m = o.rows.shape
        if o.grid is not None and _dp_cheaper(len(weights), n * m, *o.grid):
            lo, hi = pairing_extremes(weights, *o.grid)
        else:
            sums = option_sums(weights, o.rows)
            lo, hi = sums.min(axis=1), sums.max(axis=1)
        least[:offsets[c], c] = lo
        most[:offsets[c], c] = hi
    return least, most


def _dp_cheaper(n: int, option_edges: int, a: int, b: int) -> bool:
    """Whether the dynamic program (2 array operations of 2n · (min(a, b) + 1) per word of the
    larger side, each operation ~1,000 elements' worth of overhead) beats summing n · option_edges."""
    return max(a, b) * 2 * (2 * n * (min(a, b) + 1) + 1000) < 5 * n * option_edges


def _search_members(comps: list[Options], later: list[np.ndarray], least: np.ndarray,
                    offsets: list[int], edge_offsets: list[int], members: list[int],
                    unary: list[np.ndarray], nodes: list[int]) -> list[int]:
    """:func:`branch_and_bound` over the components ``members`` of a group, with each option's
    unavoidable crossings with the later members (``least``, summed) as ``low``; a visited option's
    crossings with the later members' options are summed from its edge crossings (``later``)."""
    sub_sizes = [offsets[a + 1] - offsets[a] for a in members]
    sub_offsets = list(accumulate(sub_sizes, initial=0))
    low = np.concatenate([least[offsets[a]:offsets[a + 1], members[d + 1:]].sum(axis=1, dtype=np.float64)
                          for d, a in enumerate(members)])
    # the members' options' edges (group-wide edge indices) as one flat list, and where each
    # option's start; member d's rows gather those of the members after it (its ``later`` columns
    # start at the edge after its own component's)
    flat = np.concatenate([comps[c].rows.reshape(-1) + edge_offsets[c] for c in members])
    flat_at = list(accumulate([comps[c].rows.size for c in members], initial=0))
    widths = np.repeat([comps[c].rows.shape[1] for c in members], sub_sizes)
    starts = np.cumsum(widths) - widths
    gather = [flat[flat_at[d + 1]:] - edge_offsets[p + 1] for d, p in enumerate(members[:-1])]
    bounds = [starts[sub_offsets[d]:] - starts[sub_offsets[d]] for d in range(1, len(members))]
    cache: dict[int, np.ndarray] = {}

    def row(x: int, hi: int) -> np.ndarray:
        got = cache.get(x)
        if got is None:
            d = sub_offsets.index(hi) - 1  # x's member
            got = np.add.reduceat(later[members[d]][x - sub_offsets[d]][gather[d]], bounds[d])
            cache[x] = got
        return got
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
