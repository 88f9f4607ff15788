"""The corpus-wide choices of the 2005 aligner's uneven classes give what the per-segment search gives.

* :func:`align.classes.class_choices` (every segment's uneven classes at once: cheapest options, their
  crossings, the linked groups' first descent proved optimal by the search's own bound) against
  :func:`align.best_stage_matching` segment by segment, and against :func:`align.small_classes_choice`
  wherever that answers;
* :func:`align.even_class_stages` with a key-set stage after the equivalence stages against a
  reference that hands every stage of every segment to best_stage_matching (random corpora with many
  repeated words: several uneven classes per segment, empty segments, missing references);
* :func:`align.arrays.components_of` against a plain union-find.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics.meteor.align import (
    arrays,
    best_stage_matching,
    classes,
    even_class_stages,
    search,
    small_classes_choice,
)

WIDTH = 100  # flat token of position p in segment s: s * WIDTH + p


@st.composite
def class_segments(draw: st.DrawFn, max_classes: int = 6) -> tuple[list, list]:
    """One segment: uneven classes (increasing hypothesis and reference positions, disjoint) in the
    aligner's order, and fixed matches on other positions."""
    n_h, n_r = draw(st.integers(2, 24)), draw(st.integers(2, 24))
    hyp_pos, ref_pos = draw(st.permutations(range(n_h))), draw(st.permutations(range(n_r)))
    groups: list[tuple[list[int], list[int]]] = []
    at_h = at_r = 0
    for _ in range(draw(st.integers(1, max_classes))):
        a, b = draw(st.integers(1, 5)), draw(st.integers(1, 5))
        if a == b:
            b = a + 1 if draw(st.booleans()) or a == 1 else a - 1
        if at_h + a > n_h or at_r + b > n_r:
            break
        groups.append((sorted(hyp_pos[at_h:at_h + a]), sorted(ref_pos[at_r:at_r + b])))
        at_h, at_r = at_h + a, at_r + b
    free_h, free_r = hyp_pos[at_h:], ref_pos[at_r:]
    fixed = list(zip(free_h, draw(st.permutations(free_r))))[:draw(st.integers(0, 8))]
    return groups, fixed


def _choices(segments: list[tuple[list, list]]) -> tuple[dict[int, list], np.ndarray]:
    """``_class_choices`` of the segments' classes (ordered by their given order) as positions per
    segment, and the give-up flags."""
    seg, rank, a, b, h_tok, r_tok = [], [], [], [], [], []
    f_seg, f_h, f_r = [], [], []
    for s, (groups, fixed) in enumerate(segments):
        for n, (hs, rs) in enumerate(groups):
            seg.append(s)
            rank.append(n)
            a.append(len(hs))
            b.append(len(rs))
            h_tok += [s * WIDTH + i for i in hs]
            r_tok += [s * WIDTH + j for j in rs]
        for i, j in fixed:
            f_seg.append(s)
            f_h.append(s * WIDTH + i)
            f_r.append(s * WIDTH + j)

    def arr(x: list[int]) -> np.ndarray:
        return np.array(x, dtype=np.int64)

    give_up = np.zeros(len(segments), dtype=bool)
    ch, cr = classes.class_choices(arr(seg), arr(rank), arr(a), arr(b), arr(h_tok), arr(r_tok),
                                  (arr(f_seg), arr(f_h), arr(f_r)), give_up)
    assert list(ch) == sorted(ch)  # flat order
    out: dict[int, list] = {s: [] for s in range(len(segments))}
    for i, j in zip(ch.tolist(), cr.tolist()):
        assert i // WIDTH == j // WIDTH
        out[i // WIDTH].append((i % WIDTH, j % WIDTH))
    return out, give_up


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.lists(class_segments(), min_size=1, max_size=8))
def test_class_choices_equal_the_aligner(segments: list[tuple[list, list]]) -> None:
    got, give_up = _choices(segments)
    for s, (groups, fixed) in enumerate(segments):
        if not groups:
            assert got[s] == [] and not give_up[s]
            continue
        shortcut = small_classes_choice(groups, fixed)
        if give_up[s]:
            assert got[s] == [] and shortcut is None  # the shortcut gives up at least as often
            continue
        assert got[s] == best_stage_matching([(x[0], y[0]) for x, y in groups], fixed, groups)
        if shortcut is not None:
            assert got[s] == shortcut


@settings(max_examples=200, deadline=None)
@given(st.lists(class_segments(max_classes=9), min_size=1, max_size=4))
def test_many_linked_classes_equal_the_aligner(segments: list[tuple[list, list]]) -> None:
    """Crowded segments: many classes whose cheapest options cross (the search path)."""
    got, give_up = _choices(segments)
    for s, (groups, fixed) in enumerate(segments):
        if groups and not give_up[s]:
            assert got[s] == best_stage_matching([(x[0], y[0]) for x, y in groups], fixed, groups)


@settings(max_examples=100, deadline=None)
@given(st.lists(class_segments(max_classes=9), min_size=1, max_size=4), st.integers(1, 12))
def test_a_small_node_cap_is_followed(segments: list[tuple[list, list]], node_cap: int) -> None:
    """Where the aligner's search may stop early (NODE_CAP), nothing is enumerated: what is kept is
    still what the aligner keeps."""
    saved = search.NODE_CAP
    search.NODE_CAP = node_cap
    try:
        got, give_up = _choices(segments)
        for s, (groups, fixed) in enumerate(segments):
            if groups and not give_up[s]:
                assert got[s] == best_stage_matching([(x[0], y[0]) for x, y in groups], fixed, groups)
    finally:
        search.NODE_CAP = saved


def test_linked_classes_by_hand() -> None:
    # "a a" / "a" and "b" / "b b" interleaved: hyp a0 b1 a2, ref b0 a1 b2; no fixed matches.
    # a's options (0,1) and (2,1), b's (1,0) and (1,2); the cheapest (first) ones cross; the
    # search's first descent keeps (0,1) then, given it, (1,2): no crossing, so it is optimal
    got, give_up = _choices([([([0, 2], [1]), ([1], [0, 2])], [])])
    assert not give_up[0]
    assert got[0] == [(0, 1), (1, 2)] \
        == best_stage_matching([(0, 1), (1, 0)], [], [([0, 2], [1]), ([1], [0, 2])])
    # the same classes apart on both sides do not interact: each keeps its first cheapest option
    got, give_up = _choices([([([0, 1], [3]), ([5], [0, 1])], [])])
    assert got[0] == [(0, 3), (5, 0)] and not give_up[0]
    # a class of more options than small_classes_choice takes (120 of 10 x 3), and one of more than
    # OPTION_CAP (3432 of 14 x 7: the aligner reduces them), which is left to the aligner
    groups = [(list(range(10)), [20, 21, 22])]
    got, give_up = _choices([(groups, [(12, 1), (11, 30)]), ([(list(range(14)), list(range(20, 27)))], [])])
    assert small_classes_choice(groups, [(12, 1), (11, 30)]) is None and not give_up[0]
    assert got[0] == best_stage_matching([(0, 20)], [(12, 1), (11, 30)], groups)
    assert give_up[1] and got[1] == []


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 30), st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29)), max_size=40))
def test_components_of_equal_union_find(n: int, pairs: list[tuple[int, int]]) -> None:
    pairs = [(u % n, v % n) for u, v in pairs]
    u = np.array([p[0] for p in pairs], dtype=np.int64)
    v = np.array([p[1] for p in pairs], dtype=np.int64)
    comp = arrays.components_of(u, v, n).tolist()
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for p, q in pairs:
        parent[find(p)] = find(q)
    roots = [find(x) for x in range(n)]
    for x in range(n):
        for y in range(n):
            assert (comp[x] == comp[y]) == (roots[x] == roots[y])
    firsts = [min(y for y in range(n) if comp[y] == c) for c in range(max(comp) + 1)]
    assert firsts == sorted(firsts) and set(comp) == set(range(len(firsts)))  # numbered by least node


# ---- whole corpora: equivalence stages, then a key-set stage ---------------------------------------

V = 8
KEYS = [np.arange(V), np.arange(V) // 2]  # exact, then a coarser equivalence
SETS = {0: {0}, 1: {0, 1}, 2: {1}, 3: {1, 2}, 4: {2}, 5: {0, 2}, 6: {3}, 7: set()}  # overlapping key sets


def _then(ids: list[int]) -> list[frozenset]:
    return [frozenset(SETS[x]) for x in ids]


def _then_text(ids: list[int]) -> list[frozenset]:  # keys of another type (base forms are strings)
    return [frozenset(f"k{c}" for c in SETS[x]) for x in ids]


def _reference(h: list[int], r: list[int]) -> list[tuple[int, int, int]]:
    """Every stage of one segment handed to best_stage_matching (classes in order of first
    reference word; the key-set stage as candidate pairs)."""
    matched: list[tuple[int, int, int]] = []
    for k in range(len(KEYS) + 1):
        used_h, used_r = {i for i, _, _ in matched}, {j for _, j, _ in matched}
        hp = [i for i in range(len(h)) if i not in used_h]
        rp = [j for j in range(len(r)) if j not in used_r]
        fixed = [(i, j) for i, j, _ in matched]
        if k < len(KEYS):
            classes: dict[int, tuple[list[int], list[int]]] = {}
            for j in rp:
                classes.setdefault(int(KEYS[k][r[j]]), ([], []))[1].append(j)
            for i in hp:
                if int(KEYS[k][h[i]]) in classes:
                    classes[int(KEYS[k][h[i]])][0].append(i)
            groups = [g for g in classes.values() if g[0]]
            chosen = best_stage_matching([(a[0], b[0]) for a, b in groups], fixed, groups) if groups else []
        else:
            edges = [(i, j) for i in hp for j in rp if SETS[h[i]] & SETS[r[j]]]
            chosen = best_stage_matching(edges, fixed)
        matched += [(i, j, k) for i, j in chosen]
    return sorted(matched)


words = st.lists(st.integers(0, V - 1), max_size=16)
corpora = st.lists(st.tuples(words, st.one_of(st.none(), words)), min_size=1, max_size=10)


@settings(max_examples=400, deadline=None)
@given(corpora, st.booleans())
def test_corpus_stages_equal_the_per_segment_aligner(corpus: list[tuple[list[int], list[int] | None]],
                                                     text_keys: bool) -> None:
    hyp = [h for h, _ in corpus]
    ref = [r for _, r in corpus]
    stages, matched = even_class_stages(hyp, ref, KEYS, then=_then_text if text_keys else _then)
    assert stages == [len(KEYS) + 1] * len(corpus)
    for s, (h, r) in enumerate(corpus):
        expected = _reference(h, r) if h and r else []
        assert sorted(matched[s]) == expected
        assert [m[2] for m in matched[s]] == sorted(m[2] for m in matched[s])  # stage by stage


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 50), max_size=60), st.sampled_from([1, 1 << 20, 1 << 56]))
def test_sort_helpers_equal_numpy(values: list[int], scale: int) -> None:
    """The packed sorts give numpy's stable argsort and unique (also where packing does not fit)."""
    x = np.array(values, dtype=np.int64) * scale
    assert arrays.stable_order(x - 7).tolist() == np.argsort(x - 7, kind="stable").tolist()  # negative too
    assert arrays.stable_order(x).tolist() == np.argsort(x, kind="stable").tolist()
    runs = np.concatenate([np.sort(x[:len(x) // 3]), np.sort(x[len(x) // 3:])])  # merged, not sorted
    assert arrays.stable_order(runs).tolist() == np.argsort(runs, kind="stable").tolist()
    u, inv = arrays.unique_inverse(x)
    want_u, want_inv = np.unique(x, return_inverse=True)
    assert u.tolist() == want_u.tolist() and inv.tolist() == want_inv.reshape(-1).tolist()
    assert arrays.unique(x).tolist() == want_u.tolist()


def _pair_crossings_brute(c, redo, starts, group_of, option_class, first_pair, matches, pair_table,
                          earlier, later) -> np.ndarray:
    """Crossings of option ``earlier[x]`` with option ``later[x]``: every pair of their matches."""
    out = []
    for e, l in zip(earlier.tolist(), later.tolist()):
        one = pair_table[first_pair[e]:first_pair[e] + matches[e]]
        two = pair_table[first_pair[l]:first_pair[l] + matches[l]]
        out.append(sum(int((c.pair_h[p] - c.pair_h[q]) * (c.pair_r[p] - c.pair_r[q]) < 0)
                       for p in one for q in two))
    return np.array(out, dtype=np.int64)


@settings(max_examples=150, deadline=None)
@given(st.lists(class_segments(max_classes=9), min_size=1, max_size=4))
def test_chain_crossings_count_every_pair_of_matches(segments: list[tuple[list, list]]) -> None:
    """The |P − Q| rule of ``classes._chain_crossings`` (one term per match of the later option)
    against every pair of matches of the two options compared."""
    rule = classes._chain_crossings
    seen = []

    def checked(*args):
        got = rule(*args)
        np.testing.assert_array_equal(got, _pair_crossings_brute(*args))
        seen.append(len(got))
        return got

    classes._chain_crossings = checked
    try:
        _choices(segments)
    finally:
        classes._chain_crossings = rule
