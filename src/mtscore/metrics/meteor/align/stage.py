"""One stage of the 2005 aligner, as Banerjee & Lavie (2005, §2.2) state it.

The modules run in order as *stages*; each stage sees only the words no earlier stage matched.
Within a stage the candidate matches form a bipartite graph; METEOR keeps the largest one-to-one
subset, and among subsets of that size the one with the fewest *crossings* (:func:`crosses`; we count
the crossings of the whole alignment, i.e. including those with the matches of earlier stages, which
are fixed by then). :func:`best_stage_matching` is that rule.

How it is solved exactly. The candidate graph splits into connected components (:class:`UnionFind`).
A component that is a single edge is in every maximum matching. A *complete* bipartite component (the
usual case: exact, porter and stem are equivalence relations, so each word type present on both sides
gives one) has maximum size min(a, b), and for a chosen set of words on its larger side the
order-preserving pairing has the fewest crossings with *any* other match, so its options are the
subsets of its larger side (one option when a = b). Other components (synonym, wn_stem) get all
their maximum matchings enumerated. Each component's options are ordered cheapest first against the
fixed matches (stable). Components with one option are settled; the others are grouped where their
crossings may depend on their options (:func:`linked_groups`); a group whose cheapest options do not
cross one another takes them, any other is searched (:func:`.search.search_group`), which keeps the
*first* optimum of its depth-first order.

Bounds (the search is exact below them; the cardinality is always maximum): a component with more than
``OPTION_CAP`` options is given only its option optimal against the fixed matches (an O(a·b·fixed)
dynamic program) plus the left- and right-most pairings; the branch-and-bound stops after
``search.NODE_CAP`` nodes with the best solution found; a stage whose work ``P·(P + F)`` (P candidate
pairs outside classes of equal size, F matches fixed before the search: :func:`stage_work`) is over
``STAGE_WORK`` is not searched at all: :func:`greedy_matching` (the bounded fallback).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from functools import lru_cache
from itertools import accumulate, chain, combinations
from math import comb
from typing import Any

import numpy as np

from .crossings import Edge, UnionFind, cross_matrix, crosses

#: most options a component may have before it is reduced (see the module doc)
OPTION_CAP = 2000
#: most work ``P·(P + F)`` a stage's exact search may take (:func:`stage_work`); past it the stage
#: is matched by :func:`greedy_matching`. No WMT22 segment comes near it (the largest: ~10⁵)
STAGE_WORK = 4_000_000


def components(edges: Sequence[Edge]) -> list[list[Edge]]:
    """The connected components of a bipartite candidate graph (edges in the order given)."""
    sets = UnionFind()
    for i, j in edges:
        sets.union((0, i), (1, j))
    return sets.groups(edges, key=lambda e: (0, e[0]))


def maximum_matching_size(edges: Sequence[Edge]) -> int:
    """Size of a maximum one-to-one subset (augmenting paths)."""
    adjacent: dict[int, list[int]] = {}
    for i, j in edges:
        adjacent.setdefault(i, []).append(j)
    hyp_of: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in adjacent[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in hyp_of or augment(hyp_of[j], seen):
                hyp_of[j] = i
                return True
        return False

    return sum(augment(i, set()) for i in adjacent)


def all_maximum_matchings(edges: Sequence[Edge], size: int, cap: int) -> list[tuple[Edge, ...]]:
    """The one-to-one subsets of ``size`` edges (at most ``cap``), hypothesis words in order, each
    one's references in order, skipping it last."""
    hyp = sorted({i for i, _ in edges})
    adjacent: dict[int, list[int]] = {i: sorted(j for k, j in edges if k == i) for i in hyp}
    out: list[tuple[Edge, ...]] = []
    used: set[int] = set()
    current: list[Edge] = []

    def extend(pos: int) -> None:
        if len(out) >= cap or len(current) + (len(hyp) - pos) < size:
            return
        if pos == len(hyp):
            out.append(tuple(current))
            return
        i = hyp[pos]
        for j in adjacent[i]:
            if j not in used:
                used.add(j)
                current.append((i, j))
                extend(pos + 1)
                current.pop()
                used.discard(j)
        extend(pos + 1)

    extend(0)
    return out


def fewest_crossing_pairing(hs: list[int], rs: list[int], fixed: Sequence[Edge]) -> tuple[Edge, ...]:
    """Order-preserving pairing of all of the smaller side with the fewest crossings with ``fixed``
    (a dynamic program over the larger side)."""
    swap = len(hs) < len(rs)
    big, small = (rs, hs) if swap else (hs, rs)
    n_big, n_small = len(big), len(small)
    # cost[x][y]: crossings of the pair (x-th word of the larger side, y-th of the smaller) with fixed
    cost = np.zeros((n_big, n_small), dtype=np.int64)
    if fixed:
        f = edge_array(fixed)
        b, s = np.array(big)[:, None, None], np.array(small)[None, :, None]
        i, j = (s, b) if swap else (b, s)
        cost = np.add.reduce(crosses(i, j, f[:, 0], f[:, 1]), axis=2)
    costs = cost.tolist()

    inf = float("inf")
    least = [0.0] + [inf] * n_small  # after x big items: least cost with the first y small paired
    took = [[False] * (n_small + 1) for _ in range(n_big + 1)]
    for x in range(1, n_big + 1):
        new = least[:]
        for y in range(max(1, n_small - (n_big - x)), min(x, n_small) + 1):
            take = least[y - 1] + costs[x - 1][y - 1]
            if take < new[y]:
                new[y] = take
                took[x][y] = True
        least = new
    pairs = []
    x, y = n_big, n_small
    while y > 0:
        if took[x][y]:
            pairs.append((big[x - 1], small[y - 1]))
            y -= 1
        x -= 1
    pairs.reverse()
    return tuple(((s, b) if swap else (b, s)) for b, s in pairs)


def edge_array(edges: Sequence[Edge]) -> np.ndarray:
    """``np.array(edges, dtype=np.int64).reshape(-1, 2)``, read from the flat stream of the pairs'
    positions (no tuple is converted on its own)."""
    return np.fromiter(chain.from_iterable(edges), dtype=np.int64, count=2 * len(edges)).reshape(-1, 2)


@lru_cache(maxsize=1024)
def ordered_rows(a: int, b: int) -> np.ndarray:
    """Options of a complete a × b component as rows of edge indices (edge (x, y) = x·b + y): the
    subsets of the larger side in ``itertools.combinations`` order, paired in order with the other."""
    rows = _subsets(a, b) * b + np.arange(b) if a > b else np.arange(a) * b + _subsets(b, a)
    rows.flags.writeable = False
    return rows


def _subsets(n: int, k: int) -> np.ndarray:
    """``np.array(list(combinations(range(n), k)))`` (as int64, k columns even when k = 0), read
    from the flat stream of the combinations (no tuple is converted on its own)."""
    count = comb(n, k)
    flat = chain.from_iterable(combinations(range(n), k))
    return np.fromiter(flat, dtype=np.int64, count=count * k).reshape(count, k)


class Options:
    """The options of one ambiguous component: its distinct edges, and each option (a maximum
    matching of the component) as a row of indices into them; ``grid`` = (a, b) when they are every
    in-order pairing of a complete a × b component (:func:`ordered_rows`, edge (x, y) = x·b + y)."""

    __slots__ = ("complete", "edges", "grid", "rows", "span")

    def __init__(self, hs: list[int], rs: list[int], comp: list[Edge] | None, fixed: Sequence[Edge]):
        """``hs``, ``rs``: the component's sorted positions; ``comp``: its edges, None when it is
        complete bipartite (every hs × rs pair)."""
        a, b = len(hs), len(rs)
        self.complete = comp is None or len(comp) == a * b
        self.span = (hs[0], hs[-1], rs[0], rs[-1])
        self.grid: tuple[int, int] | None = None  # (a, b) when the options are every in-order pairing
        if not self.complete:
            assert comp is not None
            self._set(all_maximum_matchings(comp, maximum_matching_size(comp), OPTION_CAP))
            return
        if comb(max(a, b), min(a, b)) > OPTION_CAP:
            n = min(a, b)
            options = [fewest_crossing_pairing(hs, rs, fixed), tuple(zip(hs[:n], rs[:n])),
                       tuple(zip(hs[-n:], rs[-n:]))]
            self._set(list(dict.fromkeys(options)))
            return
        edges = np.empty((a, b, 2), dtype=np.int64)
        edges[:, :, 0] = np.array(hs)[:, None]
        edges[:, :, 1] = rs
        self.edges = edges.reshape(-1, 2)
        self.rows = ordered_rows(a, b)
        self.grid = (a, b)

    def _set(self, options: list[tuple[Edge, ...]]) -> None:
        """Options given as edge tuples; the edges kept are those some option uses."""
        index: dict[Edge, int] = {}
        for option in options:
            for e in option:
                index.setdefault(e, len(index))
        self.edges = edge_array(list(index))
        self.rows = np.array([[index[e] for e in o] for o in options],
                             dtype=np.int64).reshape(len(options), -1)

    def internal(self) -> np.ndarray | int:
        """Crossings within each option (none in a complete component: its pairings are in order)."""
        if self.complete:
            return 0
        m = cross_matrix(self.edges, self.edges)
        r = self.rows
        return m[r[:, :, None], r[:, None, :]].sum(axis=(1, 2)) // 2

    def option(self, k: int) -> list[Edge]:
        return [(i, j) for i, j in self.edges[self.rows[k]].tolist()]

    def order_by(self, cost: np.ndarray) -> np.ndarray:
        """Put the options cheapest first (stable: ties keep their order); their sorted costs."""
        order = cost.argsort(kind="stable")
        self.rows = self.rows[order]
        return cost[order]


class GreedyMatching(list):
    """A stage's matches found by the bounded fallback (:func:`greedy_matching`), not the search:
    a list of edges like any other, marked so that callers can count the fallback's segments."""


def stage_work(pairs: Any, fixed: Any) -> Any:
    """The work ``P·(P + F)`` of a stage's exact search: its crossing matrices compare P candidate
    pairs with one another and with F fixed matches."""
    return pairs * (pairs + fixed)


def greedy_matching(hyp_keys: Sequence[tuple[int, Iterable[Hashable]]],
                    ref_keys: Sequence[tuple[int, Iterable[Hashable]]]) -> GreedyMatching:
    """The bounded fallback of a stage: hypothesis words in order, each matched with the first free
    reference word it shares a key with. A maximal (not always maximum) one-to-one matching, in
    time and memory linear in the words' keys. ``*_keys``: (position, keys) in increasing position."""
    queues: dict[Hashable, list[int]] = {}
    for j, keys in ref_keys:
        for key in keys:
            queues.setdefault(key, []).append(j)
    heads = dict.fromkeys(queues, 0)
    used: set[int] = set()
    out: list[Edge] = []
    for i, keys in hyp_keys:
        best = -1
        for key in keys:
            queue = queues.get(key)
            if queue is None:
                continue
            at = heads[key]
            while at < len(queue) and queue[at] in used:
                at += 1
            heads[key] = at
            if at < len(queue) and (best < 0 or queue[at] < best):
                best = queue[at]
        if best >= 0:
            used.add(best)
            out.append((i, best))
    return GreedyMatching(out)


def _split_components(edges: Sequence[Edge], groups: Sequence[tuple[list[int], list[int]]] | None
                      ) -> tuple[list[Edge], list[tuple[list[int], list[int], list[Edge] | None]]]:
    """The matches every maximum matching has (single edges, in-order pairings of a × a complete
    components) and the ambiguous components as (hyp positions, ref positions, edges or None when
    complete)."""
    chosen: list[Edge] = []
    ambiguous: list[tuple[list[int], list[int], list[Edge] | None]] = []
    if groups is not None:
        for hs, rs in groups:
            if len(hs) == len(rs):
                chosen.extend(zip(sorted(hs), sorted(rs)))
            else:
                ambiguous.append((sorted(hs), sorted(rs), None))
        return chosen, ambiguous
    for comp in components(list(dict.fromkeys(edges))):
        if len(comp) == 1:
            chosen.append(comp[0])
            continue
        hs = sorted({i for i, _ in comp})
        rs = sorted({j for _, j in comp})
        complete = len(comp) == len(hs) * len(rs)
        if complete and len(hs) == len(rs):
            chosen.extend(zip(hs, rs))  # a = b: the order-preserving pairing is the one option
        else:
            ambiguous.append((hs, rs, None if complete else comp))
    return chosen, ambiguous


def _greedy_components(ambiguous: list[tuple[list[int], list[int], list[Edge] | None]]) -> list[Edge]:
    """:func:`greedy_matching` of the ambiguous components (a complete one: its left-most pairing)."""
    out: list[Edge] = []
    for hs, rs, comp in ambiguous:
        if comp is None:
            n = min(len(hs), len(rs))
            out.extend(zip(hs[:n], rs[:n]))
        else:
            refs = sorted({j for _, j in comp})
            by_hyp: dict[int, list[int]] = {}
            for i, j in comp:
                by_hyp.setdefault(i, []).append(j)
            out.extend(greedy_matching(sorted(by_hyp.items()), [(j, (j,)) for j in refs]))
    return out


def _unary_costs(comps: list[Options], fixed: Sequence[Edge], internal: bool) -> list[np.ndarray]:
    """Each option's crossings with ``fixed`` (plus its own internal ones if asked)."""
    offsets = list(accumulate([len(o.edges) for o in comps], initial=0))
    all_edges = np.concatenate([o.edges for o in comps])
    per_edge = np.add.reduce(cross_matrix(all_edges, edge_array(fixed)), axis=1) if fixed else None
    out = []
    for o, off in zip(comps, offsets):
        cost = (np.add.reduce(per_edge[o.rows + off], axis=1) if per_edge is not None
                else np.zeros(len(o.rows), dtype=np.int64))
        out.append(cost + o.internal() if internal else cost)
    return out


def best_stage_matching(edges: Sequence[Edge], fixed: Sequence[Edge] = (),
                        groups: Sequence[tuple[list[int], list[int]]] | None = None) -> list[Edge]:
    """Maximum one-to-one subset of ``edges`` with the fewest crossings (counting ``fixed`` too), §2.2.

    ``groups``: optionally, the components already known to be complete bipartite (hypothesis
    positions, reference positions) — what an equivalence-relation module produces — to skip the
    component search. Among optimal matchings the choice is deterministic: each component's options
    cheapest first against the fixed and forced matches, then the first optimum of the search.
    Past ``STAGE_WORK`` the ambiguous components are matched by :func:`greedy_matching`.
    """
    if not edges:
        return []
    if groups is None and len({i for i, _ in edges}) == len({j for _, j in edges}) == len(edges):
        return sorted(edges)  # no word has two candidates
    chosen, ambiguous = _split_components(edges, groups)
    if not ambiguous:
        return sorted(chosen)
    base = list(fixed) + chosen
    pairs = sum(len(hs) * len(rs) if comp is None else len(comp) for hs, rs, comp in ambiguous)
    if stage_work(pairs, len(base)) > STAGE_WORK:
        return GreedyMatching(sorted(chosen + _greedy_components(ambiguous)))
    comps = [Options(hs, rs, comp, base) for hs, rs, comp in ambiguous]
    unary = [o.order_by(cost) for o, cost in zip(comps, _unary_costs(comps, base, True))]
    if len(comps) == 1:
        return sorted(chosen + comps[0].option(0))
    # components with one option are settled; the others are ordered again, counting them too
    settled = [e for o in comps if len(o.rows) == 1 for e in o.option(0)]
    chosen.extend(settled)
    open_ = [a for a, o in enumerate(comps) if len(o.rows) > 1]
    if not open_:
        return sorted(chosen)
    if settled:
        extra = _unary_costs(comps, settled, False)
        for a in open_:
            unary[a] = comps[a].order_by(unary[a] + extra[a])  # ties keep the previous order
    return sorted(chosen + _open_choice([comps[a] for a in open_], [unary[a] for a in open_]))


def _open_choice(comps: list[Options], unary: list[np.ndarray]) -> list[Edge]:
    """The options kept for components of several options: each one's cheapest, except in linked
    groups whose cheapest options cross, which are searched."""
    from .search import search_group

    picks = [0] * len(comps)  # a component that crosses no other open one keeps its cheapest option
    nodes = [0]
    for members in linked_groups(comps):
        firsts = [comps[c].edges[comps[c].rows[0]] for c in members]
        owner = np.repeat(np.arange(len(members)), [len(f) for f in firsts])
        cheapest = np.concatenate(firsts)
        if not (cross_matrix(cheapest, cheapest) & (owner[:, None] != owner[None, :])).any():
            continue  # their cheapest options do not cross each other: the first optimum
        found = search_group([comps[c] for c in members], [unary[c] for c in members], nodes)
        for c, k in zip(members, found):
            picks[c] = k
    return [e for o, k in zip(comps, picks) for e in o.option(k)]


def apart(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Whether two spans (first hyp, last hyp, first ref, last ref) lie apart on both sides: then
    every match of one crosses every match of the other the same way, whatever the options."""
    return (a[1] < b[0] or b[1] < a[0]) and (a[3] < b[2] or b[3] < a[2])


def linked_groups(comps: list[Options]) -> list[list[int]]:
    """Groups (of two or more) of components whose mutual crossings may depend on their options:
    connected by spans not :func:`apart`."""
    n = len(comps)
    sets = UnionFind(range(n))
    for p in range(n):
        for c in range(p + 1, n):
            if not apart(comps[p].span, comps[c].span):
                sets.union(p, c)
    return [m for m in sets.groups(range(n)) if len(m) > 1]


def key_pairs(hyp_keys: Sequence[tuple[int, frozenset]], ref_keys: Sequence[tuple[int, frozenset]]) -> int:
    """P = Σ over keys of (hypothesis words with it) · (reference words with it): a key-set stage's
    work, counted without building a candidate pair."""
    counts: dict[Hashable, int] = {}
    for _, keys in ref_keys:
        for key in keys:
            counts[key] = counts.get(key, 0) + 1
    return sum(counts.get(key, 0) for _, keys in hyp_keys for key in keys)


def key_set_stage(hyp_keys: Sequence[tuple[int, frozenset]], ref_keys: Sequence[tuple[int, frozenset]],
                  fixed: Sequence[Edge]) -> list[Edge]:
    """A stage of a set-valued module (synonym, wn_stem): words match when their key sets meet.
    Its work is counted by key pairs P = Σ over keys of (hyp words with it) · (ref words with it),
    before any candidate pair is built; past ``STAGE_WORK`` :func:`greedy_matching`, else
    :func:`best_stage_matching` of the candidate pairs. ``*_keys``: (position, keys), increasing."""
    # P is at most (hypothesis keys) · (reference words): count it only where that bound is over
    bound = sum(len(keys) for _, keys in hyp_keys) * len(ref_keys)
    if stage_work(bound, len(fixed)) > STAGE_WORK and \
            stage_work(key_pairs(hyp_keys, ref_keys), len(fixed)) > STAGE_WORK:
        return greedy_matching(hyp_keys, ref_keys)
    edges = [(i, j) for i, ks in hyp_keys for j, rks in ref_keys if not ks.isdisjoint(rks)]
    return best_stage_matching(edges, fixed) if edges else []
