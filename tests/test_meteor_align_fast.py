"""METEOR 2005 stage matching (§2.2): the fast paths of the exact search checked against brute force.

The search splits a stage into components, takes the cheapest options at once when they do not cross,
splits linked components where their crossings cannot depend on the options, and bounds the
branch-and-bound with the crossings each option cannot avoid. Each case below is checked against an
independent enumeration: every maximum matching for small cases; for larger ones built from repeated
words, every choice of words on the larger side of each word class (paired in order, the paper's
§2.2 argument that an order-preserving pairing crosses least; the small cases check it too).
"""

from __future__ import annotations

from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics.meteor.align import best_stage_matching, crosses, search

Edge = tuple[int, int]


def crossings(edges: list[Edge]) -> int:
    """Crossing pairs of an alignment (§2.2), by the aligner's one predicate."""
    return sum(bool(crosses(*a, *b)) for a, b in combinations(edges, 2))


def _all_maximum_matchings(edges: list[Edge]) -> list[list[Edge]]:
    """Every maximum one-to-one subset of ``edges`` (plain recursion over hypothesis positions)."""
    by_h: dict[int, list[int]] = {}
    for i, j in edges:
        by_h.setdefault(i, []).append(j)
    hs = sorted(by_h)
    found: list[list[Edge]] = []
    best = [0]
    cur: list[Edge] = []
    used: set[int] = set()

    def rec(pos: int) -> None:
        if len(cur) + len(hs) - pos < best[0]:
            return
        if pos == len(hs):
            if len(cur) > best[0]:
                best[0] = len(cur)
                found.clear()
            found.append(list(cur))
            return
        i = hs[pos]
        for j in by_h[i]:
            if j not in used:
                used.add(j)
                cur.append((i, j))
                rec(pos + 1)
                cur.pop()
                used.discard(j)
        rec(pos + 1)

    rec(0)
    return found


def _brute(edges: list[Edge], fixed: list[Edge]) -> tuple[int, int]:
    """(maximum size, fewest crossings of fixed + chosen) over every maximum matching."""
    ms = _all_maximum_matchings(edges)
    return len(ms[0]), min(crossings(fixed + m) for m in ms)


def _by_classes(hyp: list[str], ref: list[str], fixed: list[Edge]) -> tuple[int, int]:
    """The same for an exact stage, enumerating per word class the words used on its larger side."""
    per_class = []
    for w in sorted(set(hyp) & set(ref)):
        hs = [i for i, x in enumerate(hyp) if x == w]
        rs = [j for j, x in enumerate(ref) if x == w]
        if len(hs) >= len(rs):
            per_class.append([list(zip(sub, rs)) for sub in combinations(hs, len(rs))])
        else:
            per_class.append([list(zip(hs, sub)) for sub in combinations(rs, len(hs))])
    size = sum(len(opts[0]) for opts in per_class)
    best = min(crossings(fixed + [e for part in pick for e in part]) for pick in product(*per_class))
    return size, best


def _exact_stage(hyp: list[str], ref: list[str]) -> tuple[list[Edge], list[tuple[list[int], list[int]]]]:
    """Candidate edges and word classes (the ``groups`` an equivalence module passes) of equal words."""
    groups = []
    for w in dict.fromkeys(ref):
        hs = [i for i, x in enumerate(hyp) if x == w]
        rs = [j for j, x in enumerate(ref) if x == w]
        if hs:
            groups.append((hs, rs))
    edges = [(i, j) for hs, rs in groups for i in hs for j in rs]
    return edges, groups


def _check(chosen: list[Edge], edges: list[Edge], fixed: list[Edge], expect: tuple[int, int]) -> None:
    assert set(chosen) <= set(edges)
    assert len({i for i, _ in chosen}) == len(chosen) == len({j for _, j in chosen})
    assert (len(chosen), crossings(fixed + chosen)) == expect


# ---- small cases: every maximum matching ---------------------------------------------------------

repeats = st.lists(st.sampled_from("aab"), min_size=1, max_size=7)  # long runs of one word


@settings(max_examples=300, deadline=None)
@given(hyp=repeats, ref=repeats)
def test_many_repeats_both_paths(hyp: list[str], ref: list[str]) -> None:
    edges, groups = _exact_stage(hyp, ref)
    if not edges:
        return
    expect = _brute(edges, [])
    _check(best_stage_matching(edges), edges, [], expect)  # components found from the edges
    firsts = [(hs[0], rs[0]) for hs, rs in groups]
    _check(best_stage_matching(firsts, (), groups), edges, [], expect)  # classes given


@settings(max_examples=300, deadline=None)
@given(hyp=st.lists(st.sampled_from("abcxy"), min_size=1, max_size=8),
       ref=st.lists(st.sampled_from("abcxy"), min_size=1, max_size=8))
def test_forced_components_and_earlier_stage(hyp: list[str], ref: list[str]) -> None:
    # x and y are matched by an "earlier stage" (fixed) when they occur once on each side; single
    # candidates (forced components) and a = b classes mix with ambiguous ones
    fixed = []
    for w in "xy":
        hs = [i for i, x in enumerate(hyp) if x == w]
        rs = [j for j, x in enumerate(ref) if x == w]
        if len(hs) == len(rs) == 1:
            fixed.append((hs[0], rs[0]))
    hyp = [w if w not in "xy" or any(i == f[0] for f in fixed) else "z" for i, w in enumerate(hyp)]
    ref = [w if w not in "xy" or any(j == f[1] for f in fixed) else "z" for j, w in enumerate(ref)]
    edges, groups = _exact_stage([w if w not in "xy" else "#" for w in hyp],
                                 [w if w not in "xy" else "%" for w in ref])
    if not edges:
        return
    expect = _brute(edges, fixed)
    _check(best_stage_matching(edges, fixed), edges, fixed, expect)
    _check(best_stage_matching([(h[0], r[0]) for h, r in groups], fixed, groups), edges, fixed, expect)


@settings(max_examples=200, deadline=None)
@given(n_h=st.integers(2, 7), n_r=st.integers(2, 7), data=st.data())
def test_general_graphs_with_fixed_matches(n_h: int, n_r: int, data: st.DataObject) -> None:
    # synonym-like candidate graphs (not unions of complete classes) around earlier matches
    all_edges = [(i, j) for i in range(n_h) for j in range(n_r)]
    edges = data.draw(st.lists(st.sampled_from(all_edges), unique=True, min_size=1, max_size=12))
    free_h = [i for i in range(n_h) if all(e[0] != i for e in edges)]
    free_r = [j for j in range(n_r) if all(e[1] != j for e in edges)]
    fixed = list(zip(free_h, reversed(free_r)))[:2]
    _check(best_stage_matching(edges, fixed), edges, fixed, _brute(edges, fixed))


# ---- larger cases: every choice per word class ----------------------------------------------------

@settings(max_examples=120, deadline=None)
@given(hyp=st.lists(st.sampled_from("aabbc"), min_size=4, max_size=13),
       ref=st.lists(st.sampled_from("aabbc"), min_size=4, max_size=13))
def test_linked_classes_against_enumeration(hyp: list[str], ref: list[str]) -> None:
    edges, groups = _exact_stage(hyp, ref)
    n = 1
    for hs, rs in groups:
        n *= len(list(combinations(range(max(len(hs), len(rs))), min(len(hs), len(rs)))))
    if not edges or n > 20_000:
        return
    expect = _by_classes(hyp, ref, [])
    _check(best_stage_matching([(h[0], r[0]) for h, r in groups], (), groups), edges, [], expect)


@settings(max_examples=60, deadline=None)
@given(hyp=st.lists(st.sampled_from("aabbc"), min_size=4, max_size=11),
       ref=st.lists(st.sampled_from("aabbc"), min_size=4, max_size=11))
def test_lazy_rows_give_the_same_matching(hyp: list[str], ref: list[str]) -> None:
    # beyond MATRIX_CAP options the pairwise matrix is replaced by rows computed on demand (and a
    # bound without the pairwise term): the same first optimum must come out
    edges, groups = _exact_stage(hyp, ref)
    if not edges:
        return
    firsts = [(h[0], r[0]) for h, r in groups]
    normal = best_stage_matching(firsts, (), groups)
    old = search.MATRIX_CAP
    try:
        search.MATRIX_CAP = 0
        lazy = best_stage_matching(firsts, (), groups)
    finally:
        search.MATRIX_CAP = old
    assert lazy == normal


def test_apart_subproblems_are_solved_independently() -> None:
    # two stages' worth of repeats far apart on both sides: the matching of the union is the union
    # of the matchings (ties are decided inside each linked group, never across groups)
    hyp = ["a", "b", "a", "c", "b", "a", "b", "c", "a"]
    ref = ["b", "a", "a", "c", "a", "b", "b", "a", "c"]
    _, g1 = _exact_stage(hyp, ref)
    n_h, n_r = len(hyp), len(ref)
    hyp2 = [w + "2" for w in reversed(hyp)]
    ref2 = [w + "2" for w in ref]
    _, g2 = _exact_stage(hyp2, ref2)
    one = best_stage_matching([(h[0], r[0]) for h, r in g1], (), g1)
    two = best_stage_matching([(h[0], r[0]) for h, r in g2], (), g2)
    g12 = g1 + [([i + n_h for i in hs], [j + n_r for j in rs]) for hs, rs in g2]
    both = best_stage_matching([(h[0], r[0]) for h, r in g12], (), g12)
    assert both == sorted(one + [(i + n_h, j + n_r) for i, j in two])
    assert (len(one), crossings(one)) == _by_classes(hyp, ref, [])


def test_node_cap_keeps_the_cardinality(monkeypatch: pytest.MonkeyPatch) -> None:
    # with no nodes left beyond the first (greedy) descent the matching is still maximum and valid;
    # only its crossings may exceed the minimum
    hyp = ["a", "b", "a", "c", "b", "a", "b", "c", "a", "b", "c", "a"]
    ref = ["b", "a", "a", "c", "a", "b", "b", "a", "c", "b", "c", "a"]
    edges, groups = _exact_stage(hyp, ref)
    size, best = _by_classes(hyp, ref, [])
    monkeypatch.setattr(search, "NODE_CAP", 0)
    chosen = best_stage_matching([(h[0], r[0]) for h, r in groups], (), groups)
    assert set(chosen) <= set(edges) and len(chosen) == size
    assert len({i for i, _ in chosen}) == len({j for _, j in chosen}) == size
    assert crossings(chosen) >= best


def test_classes_with_many_options_stay_maximal() -> None:
    # several interleaved classes of 11 × 15 words (1,365 options each, as on long WMT22 ja-en
    # segments): the search finishes within its node cap and the matching is maximum
    hyp = ("a b c " * 11).split() + ["d"] * 3
    ref = ("c b a " * 15).split() + ["d"] * 5
    edges, groups = _exact_stage(hyp, ref)
    chosen = best_stage_matching([(h[0], r[0]) for h, r in groups], (), groups)
    assert set(chosen) <= set(edges) and len(chosen) == 3 * 11 + 3
    assert len({j for _, j in chosen}) == len(chosen)


def test_reduced_classes_stay_small_in_memory() -> None:
    # classes of 40 × 50 words (C(50, 40) options each, reduced to at most 3): only the edges some
    # option uses enter the search, so its arrays stay small (a full 6,000-edge crossing matrix
    # would take hundreds of MB)
    import tracemalloc

    hyp = ("a b c " * 40).split()
    ref = ("c b a " * 50).split()
    edges, groups = _exact_stage(hyp, ref)
    tracemalloc.start()
    try:
        chosen = best_stage_matching([(h[0], r[0]) for h, r in groups], (), groups)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert set(chosen) <= set(edges) and len(chosen) == 120
    assert len({j for _, j in chosen}) == 120
    assert peak < 20_000_000
