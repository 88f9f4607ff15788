"""The search's crossings between options (:mod:`mtscore.metrics.meteor.align.option_bounds`) checked
against the options × options matrix they replace: the dynamic program's least and most equal the
minimum and maximum over every option, and the search keeps the same options after the same number
of nodes as a search over the explicit matrix (hypothesis)."""

from __future__ import annotations

from itertools import accumulate, combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics.meteor.align import search
from mtscore.metrics.meteor.align.crossings import UnionFind, cross_matrix, crosses
from mtscore.metrics.meteor.align.option_bounds import (
    chain_crossings,
    edge_crossings,
    option_sums,
    pairing_extremes,
)
from mtscore.metrics.meteor.align.stage import (
    Options,
    _unary_costs,
    components,
    edge_array,
    fewest_crossing_pairing,
    linked_groups,
    ordered_rows,
)


@settings(max_examples=80, deadline=None)
@given(a=st.integers(1, 6), b=st.integers(1, 6), n=st.integers(1, 5), seed=st.integers(0, 2**31))
def test_pairing_extremes_are_the_least_and_most_option(a: int, b: int, n: int, seed: int) -> None:
    weights = np.random.default_rng(seed).integers(0, 9, size=(n, a * b)).astype(np.int32)
    sums = weights[:, ordered_rows(a, b)].sum(axis=2)  # every option, one by one
    low, high = pairing_extremes(weights, a, b)
    assert low.tolist() == sums.min(axis=1).tolist()
    assert high.tolist() == sums.max(axis=1).tolist()
    assert option_sums(weights, ordered_rows(a, b)).tolist() == sums.tolist()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), n_edges=st.integers(1, 12), n_cols=st.integers(1, 9))
def test_edge_crossings_sum_the_options_edges(seed: int, n_edges: int, n_cols: int) -> None:
    rng = np.random.default_rng(seed)
    cross = rng.integers(0, 2, size=(n_edges, n_cols)).astype(bool)
    rows = rng.integers(0, n_edges, size=(5, 3))
    assert edge_crossings(cross, rows).tolist() == cross[rows].sum(axis=1).tolist()


def _matrix_search(comps: list[Options], unary: list[np.ndarray], nodes: list[int]) -> list[int]:
    """The search over the explicit options × options crossing matrix: its row minima as the bound,
    components apart where a block of it is constant."""
    sizes = [len(o.rows) for o in comps]
    offsets = list(accumulate(sizes, initial=0))
    edge_offsets = list(accumulate([len(o.edges) for o in comps], initial=0))
    all_edges = np.concatenate([o.edges for o in comps])
    cross = cross_matrix(all_edges, all_edges).astype(np.int64)
    pairs = np.zeros((offsets[-1], offsets[-1]), dtype=np.int64)
    for p, op in enumerate(comps):
        for c in range(p + 1, len(comps)):
            oc = comps[c]
            for x, ex in enumerate(op.rows + edge_offsets[p]):
                for y, ey in enumerate(oc.rows + edge_offsets[c]):
                    pairs[offsets[p] + x, offsets[c] + y] = cross[np.ix_(ex, ey)].sum()
    sets = UnionFind(range(len(comps)))
    for p in range(len(comps)):
        for c in range(p + 1, len(comps)):
            block = pairs[offsets[p]:offsets[p + 1], offsets[c]:offsets[c + 1]]
            if block.min() != block.max():
                sets.union(p, c)
    picks = [0] * len(comps)
    for members in sets.groups(range(len(comps))):
        if len(members) < 2:
            continue
        index = np.concatenate([np.arange(offsets[a], offsets[a + 1]) for a in members])
        sub = pairs[np.ix_(index, index)]
        sub_sizes = [sizes[a] for a in members]
        sub_offsets = list(accumulate(sub_sizes, initial=0))
        low = np.zeros(len(index))
        for d in range(len(members)):
            for e in range(d + 1, len(members)):
                low[sub_offsets[d]:sub_offsets[d + 1]] += \
                    sub[sub_offsets[d]:sub_offsets[d + 1], sub_offsets[e]:sub_offsets[e + 1]].min(axis=1)
        found = search.branch_and_bound(lambda x, hi, m=sub: m[x, hi:], [unary[a] for a in members],
                                        sub_sizes, low, nodes)
        for a, k in zip(members, found):
            picks[a] = k
    return picks


def _both_paths(comps: list[Options], unary: list[np.ndarray]) -> tuple[list[int], int]:
    """search_group's picks and nodes, the same from its small-group (matrix) path and its per-edge
    path (forced by SMALL_GROUP = 0)."""
    small = [0]
    picks = search.search_group(comps, [u.copy() for u in unary], small)
    saved = search.SMALL_GROUP
    try:
        search.SMALL_GROUP = 0
        nodes = [0]
        assert search.search_group(comps, [u.copy() for u in unary], nodes) == picks
    finally:
        search.SMALL_GROUP = saved
    assert nodes == small
    return picks, nodes[0]


@settings(max_examples=60, deadline=None)
@given(hyp=st.lists(st.sampled_from("aaabbc"), min_size=4, max_size=12),
       ref=st.lists(st.sampled_from("aaabbc"), min_size=4, max_size=12),
       fixed_refs=st.lists(st.sampled_from([-3, -2, -1, 12, 13, 14]), max_size=4, unique=True))
def test_search_equals_the_matrix_search(hyp: list[str], ref: list[str], fixed_refs: list[int]) -> None:
    fixed = [(12 + k, j) for k, j in enumerate(fixed_refs)]  # matches of words outside the stage
    comps = []
    for w in sorted(set(hyp) & set(ref)):
        hs = [i for i, x in enumerate(hyp) if x == w]
        rs = [j for j, x in enumerate(ref) if x == w]
        if len(hs) != len(rs):
            comps.append(Options(hs, rs, None, fixed))
    if len(comps) < 2:
        return
    unary = [o.order_by(cost) for o, cost in zip(comps, _unary_costs(comps, fixed, True))]
    for members in linked_groups(comps):
        group = [comps[c] for c in members]
        costs = [unary[c] for c in members]
        nodes_matrix = [0]
        assert _both_paths(group, costs) == (_matrix_search(group, costs, nodes_matrix), nodes_matrix[0])


@settings(max_examples=40, deadline=None)
@given(edges=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=3, max_size=30, unique=True))
def test_search_of_any_components_equals_the_matrix_search(edges: list[tuple[int, int]]) -> None:
    # components of a key-set stage (not complete bipartite): their options summed one by one
    comps = []
    for comp in components(edges):
        hs = sorted({i for i, _ in comp})
        rs = sorted({j for _, j in comp})
        options = Options(hs, rs, comp, [])
        if len(options.rows) > 1:
            comps.append(options)
    if len(comps) < 2:
        return
    unary = [o.order_by(cost) for o, cost in zip(comps, _unary_costs(comps, [], True))]
    for members in linked_groups(comps):
        group = [comps[c] for c in members]
        costs = [unary[c] for c in members]
        nodes_matrix = [0]
        assert _both_paths(group, costs) == (_matrix_search(group, costs, nodes_matrix), nodes_matrix[0])


@settings(max_examples=80, deadline=None)
@given(a=st.integers(1, 6), b=st.integers(1, 6), seed=st.integers(0, 2**31))
def test_fewest_crossing_pairing_is_the_first_cheapest_option(a: int, b: int, seed: int) -> None:
    # the pairing a reduced component keeps: the in-order pairing with the fewest crossings with the
    # fixed matches, the dynamic program's tie-breaking aside (every option enumerated)
    rng = np.random.default_rng(seed)
    hs = sorted(rng.choice(30, a, replace=False).tolist())
    rs = sorted(rng.choice(30, b, replace=False).tolist())
    fixed = [(30 + k, int(j)) for k, j in enumerate(rng.choice(np.arange(-5, 35), 6, replace=False))]
    chosen = fewest_crossing_pairing(hs, rs, fixed)
    n = min(a, b)
    assert len(chosen) == n and [i for i, _ in chosen] == sorted(i for i, _ in chosen)
    assert {i for i, _ in chosen} <= set(hs) and {j for _, j in chosen} <= set(rs)

    def cost(option: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> int:
        return sum(bool(crosses(i, j, k, m)) for i, j in option for k, m in fixed)
    options = [list(zip(hs, sub)) for sub in combinations(rs, n)] if a <= b else \
        [list(zip(sub, rs)) for sub in combinations(hs, n)]
    assert cost(chosen) == min(map(cost, options))


@settings(max_examples=80, deadline=None)
@given(a=st.integers(1, 6), b=st.integers(1, 6), seed=st.integers(0, 2**31))
def test_chain_crossings_equal_the_crossing_matrix(a: int, b: int, seed: int) -> None:
    # an in-order option against foreign matches (words outside the component): |P − Q|
    rng = np.random.default_rng(seed)
    hs = sorted(rng.choice(40, a, replace=False).tolist())
    rs = sorted(rng.choice(40, b, replace=False).tolist())
    h = rng.choice(np.setdiff1d(np.arange(-3, 45), hs), 7, replace=False)
    r = rng.choice(np.setdiff1d(np.arange(-3, 45), rs), 7, replace=False)
    o = Options(hs, rs, None, [])
    cross = cross_matrix(o.edges, np.stack([h, r], axis=1))
    assert chain_crossings(o.edges, o.rows, a, b, h, r).tolist() == edge_crossings(cross, o.rows).tolist()


def test_ordered_rows_and_edge_array_equal_their_list_conversions():
    """``ordered_rows`` and ``edge_array`` read flat streams (``np.fromiter``): the same arrays as
    ``np.array`` of the combinations and of the pairs."""
    for a in range(1, 10):
        for b in range(1, 10):
            if a > b:
                want = np.array(list(combinations(range(a), b)), dtype=np.int64) * b + np.arange(b)
            else:
                want = np.arange(a) * b + np.array(list(combinations(range(b), a)), dtype=np.int64)
            got = ordered_rows(a, b)
            assert got.dtype == want.dtype and got.shape == want.shape and (got == want).all()
    for edges in ([], [(3, 1)], [(0, 2), (5, 4), (7, 7)], ((1, 2), (2, 1))):
        want = np.array(edges, dtype=np.int64).reshape(-1, 2)
        got = edge_array(edges)
        assert got.dtype == want.dtype and got.shape == want.shape and (got == want).all()
