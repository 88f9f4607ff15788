"""Word alignment: the 2005 paper's staged aligner and the METEOR 1.5 jar's objective, both exact.

**2005** (Banerjee & Lavie 2005, §2.2). The modules run in order as *stages*; each stage sees only the
words no earlier stage matched. Within a stage the candidate matches form a bipartite graph; METEOR keeps
the largest one-to-one subset, and among subsets of that size the one with the fewest *crossings* (two
matches (i, j), (k, l) cross when (i − k)(j − l) < 0; we count the crossings of the whole alignment, i.e.
including those with matches of earlier stages, which are fixed by then).

How it is solved exactly. The candidate graph splits into connected components. A component that is a
single edge is in every maximum matching. A *complete* bipartite component (the usual case: exact, porter
and stem are equivalence relations, so each word type present on both sides gives one) has maximum size
min(a, b), and for a chosen set of words on its larger side the order-preserving pairing has the fewest
crossings with *any* other match, so its options are the subsets of its larger side (one option when
a = b). Other components (synonym, wn_stem) get all their maximum matchings enumerated. Each
component's options are ordered cheapest first against the fixed matches (stable: ties keep the
enumeration order). Components with one option are settled; components whose spans lie apart on both
sides, or whose mutual crossings do not depend on their options, are solved apart; when the cheapest
options of linked components do not cross each other they are taken at once (the common case;
:func:`small_classes_choice` decides it directly for classes of equal keys without building the
options' crossing matrices; the corpus aligner decides it for every segment at once, and where
they cross, proves the search's first descent optimal with the search's own bound or enumerates
the few assignments: :func:`_class_choices`). Otherwise
a branch-and-bound over the linked components' options minimises the total crossings: the crossings
between any two options come from one matrix (per-edge crossings summed over the options' edges), and
the bound adds to the cost so far, for each undecided component, the least of its options' cost given
the decided ones plus the crossings that option cannot avoid with each later component. Whatever the
bound, the matching kept is the *first* optimum of the depth-first order (components in order, options
cheapest first given the ones picked before): a stronger bound finds the same matching in fewer nodes.

Bounded search for pathological input (hundreds of repeats of one word — where NLTK's METEOR had a
quadratic-time vulnerability): a component with more than ``OPTION_CAP``
options is given only the option that is optimal against the fixed matches (an O(a·b) dynamic program
over order-preserving pairings) plus the left- and right-most pairings; the branch-and-bound stops after
``NODE_CAP`` nodes and keeps the best solution found (its first descent is greedy); linked components
with more than ``MATRIX_CAP`` options in all do not get the pairwise matrix (its rows are computed as
needed and the bound has no pairwise term), so memory stays bounded. The cardinality is always maximal;
only the crossing count may then be above the minimum. On WMT22 (de-en, zh-en, cs-en, ja-en: every system
against every reference with the study's 4 module sets, 194,195 stage searches) the node cap is reached once, on a zh-en segment
(whose complete search takes 20,127 nodes and keeps the same matching).

**1.5** (the jar, ``edu.cmu.meteor.aligner.Aligner``). Every module proposes candidates at once (non-exact
modules only for different surface forms; a segment identical to its reference uses the first module
only). A candidate that is the only
one for both its words is fixed. The rest is chosen by maximising the aligner's weighted match count
(weights 1 for exact and 0.5 for the other modules, accumulated in a Java ``int``, so each non-exact match
adds 0 — the jar's truncation, reproduced), then fewest chunks, then the jar's distance term (see
:func:`align_jar`). The jar searches this with a beam of 40; we search it exactly with a dynamic program
over reference positions whose state is the set of still-relevant used hypothesis words and whether the
previous reference word was matched (and to what); steps that would lose an exact match and states
dominated by another with the same used words are dropped (both exact). If the number of states
explodes (``STATE_CAP``), the program keeps the best ``STATE_CAP`` states per position (fewer, down to 8, where one reference
word has very many candidates: ``WORK_CAP``) — a beam again, but after exact pruning and merging.
:func:`align_jar_beam` is the jar's own beam search, step for step (it reproduces the jar's scores).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from functools import lru_cache
from heapq import nlargest
from itertools import accumulate, combinations, pairwise
from math import comb
from typing import Any

import numpy as np

from ...ragged import ranges

#: most options a component may have before it is reduced (bounded search, see module doc)
OPTION_CAP = 2000
#: most branch-and-bound nodes per stage before the best solution so far is kept
NODE_CAP = 20_000
#: most options of linked components whose pairwise crossings are kept as one matrix
MATRIX_CAP = 4096
#: most dynamic-programming states per reference position in the 1.5 search
STATE_CAP = 100
#: most (state, candidate) expansions per reference position in the 1.5 search (long runs of
#: one repeated word): the states are cut to WORK_CAP // candidates, at least 8
WORK_CAP = 3000

Edge = tuple[int, int]
_add = np.add.reduce


def crossings(edges: Sequence[Edge]) -> int:
    """Number of crossing pairs: (i − k)(j − l) < 0."""
    s = sorted(edges)
    n = 0
    for a in range(len(s)):
        i, j = s[a]
        for b in range(a + 1, len(s)):
            k, l = s[b]
            if (i - k) * (j - l) < 0:
                n += 1
    return n


def chunk_count(edges: Sequence[Edge]) -> int:
    """Fewest runs of matches contiguous and in the same order on both sides (§2.3 "chunks")."""
    if not edges:
        return 0
    s = sorted(edges)
    chunks = 1
    for (i, j), (k, l) in pairwise(s):
        if not (k == i + 1 and l == j + 1):
            chunks += 1
    return chunks


# ---- 2005: one stage -----------------------------------------------------------------------------

def _components(edges: Sequence[Edge]) -> list[list[Edge]]:
    parent: dict[tuple[int, int], tuple[int, int]] = {}

    def find(x: tuple[int, int]) -> tuple[int, int]:
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for i, j in edges:
        a, b = (0, i), (1, j)
        parent.setdefault(a, a)
        parent.setdefault(b, b)
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    groups: dict[tuple[int, int], list[Edge]] = {}
    for e in edges:
        groups.setdefault(find((0, e[0])), []).append(e)
    return list(groups.values())


def _max_matching_size(edges: Sequence[Edge]) -> int:
    adj: dict[int, list[int]] = {}
    for i, j in edges:
        adj.setdefault(i, []).append(j)
    match_r: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in adj[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in match_r or augment(match_r[j], seen):
                match_r[j] = i
                return True
        return False

    return sum(augment(i, set()) for i in adj)


def _all_max_matchings(edges: Sequence[Edge], size: int, cap: int) -> list[tuple[Edge, ...]]:
    hyp = sorted({i for i, _ in edges})
    adj: dict[int, list[int]] = {i: sorted(j for k, j in edges if k == i) for i in hyp}
    out: list[tuple[Edge, ...]] = []
    used: set[int] = set()
    cur: list[Edge] = []

    def rec(pos: int) -> None:
        if len(out) >= cap:
            return
        if len(cur) + (len(hyp) - pos) < size:
            return
        if pos == len(hyp):
            out.append(tuple(cur))
            return
        i = hyp[pos]
        for j in adj[i]:
            if j not in used:
                used.add(j)
                cur.append((i, j))
                rec(pos + 1)
                cur.pop()
                used.discard(j)
        rec(pos + 1)

    rec(0)
    return out


def _ordered_dp(hs: list[int], rs: list[int], fixed: Sequence[Edge]) -> tuple[Edge, ...]:
    """Order-preserving pairing of all of the smaller side with the fewest crossings with ``fixed``."""
    swap = len(hs) < len(rs)
    big, small = (rs, hs) if swap else (hs, rs)

    def cost(b: int, s: int) -> int:
        i, j = (s, b) if swap else (b, s)
        return sum(1 for k, l in fixed if (i - k) * (j - l) < 0)

    nb, ns = len(big), len(small)
    inf = float("inf")
    # dp[y] after x big items: min cost with the first y small items paired
    dp = [0.0] + [inf] * ns
    choice = [[False] * (ns + 1) for _ in range(nb + 1)]
    for x in range(1, nb + 1):
        new = dp[:]
        for y in range(max(1, ns - (nb - x)), min(x, ns) + 1):
            take = dp[y - 1] + cost(big[x - 1], small[y - 1])
            if take < new[y]:
                new[y] = take
                choice[x][y] = True
        dp = new
    pairs = []
    x, y = nb, ns
    while y > 0:
        if choice[x][y]:
            pairs.append((big[x - 1], small[y - 1]))
            y -= 1
        x -= 1
    pairs.reverse()
    return tuple(((s, b) if swap else (b, s)) for b, s in pairs)


def _reduced(hs: list[int], rs: list[int], fixed: Sequence[Edge]) -> list[tuple[Edge, ...]]:
    n = min(len(hs), len(rs))
    opts = [_ordered_dp(hs, rs, fixed), tuple(zip(hs[:n], rs[:n])), tuple(zip(hs[-n:], rs[-n:]))]
    return list(dict.fromkeys(opts))


def _cross_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Boolean matrix: edge ``a[x]`` crosses edge ``b[y]`` (edges as (n, 2) integer arrays);
    comparisons only, so its temporaries are boolean (a byte per pair)."""
    h, r = a[:, 0, None], a[:, 1, None]
    return ((h < b[:, 0]) & (r > b[:, 1])) | ((h > b[:, 0]) & (r < b[:, 1]))


def _edge_array(edges: Sequence[Edge]) -> np.ndarray:
    return np.array(edges, dtype=np.int64).reshape(-1, 2)


def _row_sums(matrix: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``matrix[index].sum(axis=1)`` (float32) in slices of bounded size (no BLAS: its threads cost
    more than they save on these small products)."""
    step = max(1, (1 << 22) // max(1, index.shape[1] * matrix.shape[1]))
    if len(index) <= step:
        return _add(matrix[index], axis=1, dtype=np.float32)
    return np.concatenate([matrix[index[s:s + step]].sum(axis=1, dtype=np.float32)
                           for s in range(0, len(index), step)])


def _col_sums(matrix: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``matrix[:, index].sum(axis=2)`` (float32) in slices of bounded size."""
    step = max(1, (1 << 22) // max(1, index.size))
    return np.concatenate([matrix[s:s + step][:, index].sum(axis=2, dtype=np.float32)
                           for s in range(0, len(matrix), step)])


@lru_cache(maxsize=1024)
def _ordered_rows(a: int, b: int) -> np.ndarray:
    """Options of a complete a × b component as rows of edge indices (edge (x, y) = x·b + y): the
    subsets of the larger side in ``itertools.combinations`` order, paired in order with the other."""
    if a > b:
        rows = np.array(list(combinations(range(a), b)), dtype=np.int64) * b + np.arange(b)
    else:
        rows = np.arange(a) * b + np.array(list(combinations(range(b), a)), dtype=np.int64)
    rows.flags.writeable = False
    return rows


class _Options:
    """The options of one ambiguous component: its distinct edges, and each option (a maximum
    matching of the component) as a row of indices into them."""

    __slots__ = ("complete", "edges", "rows", "span")

    def __init__(self, hs: list[int], rs: list[int], comp: list[Edge] | None, fixed: Sequence[Edge]):
        """``hs``, ``rs``: the component's sorted positions; ``comp``: its edges, None when it is
        complete bipartite (every hs × rs pair)."""
        a, b = len(hs), len(rs)
        self.complete = comp is None or len(comp) == a * b
        self.span = (hs[0], hs[-1], rs[0], rs[-1])
        if not self.complete:
            assert comp is not None
            self._set(_all_max_matchings(comp, _max_matching_size(comp), OPTION_CAP))
            return
        if comb(max(a, b), min(a, b)) > OPTION_CAP:
            self._set(_reduced(hs, rs, fixed))
            return
        edges = np.empty((a, b, 2), dtype=np.int64)
        edges[:, :, 0] = np.array(hs)[:, None]
        edges[:, :, 1] = rs
        self.edges = edges.reshape(-1, 2)
        self.rows = _ordered_rows(a, b)

    def _set(self, opts: list[tuple[Edge, ...]]) -> None:
        """Options given as edge tuples; the edges kept are those some option uses."""
        index: dict[Edge, int] = {}
        for o in opts:
            for e in o:
                index.setdefault(e, len(index))
        self.edges = _edge_array(list(index))
        self.rows = np.array([[index[e] for e in o] for o in opts], dtype=np.int64).reshape(len(opts), -1)

    def internal(self) -> np.ndarray | int:
        """Crossings within each option (none in a complete component: its pairings are in order)."""
        if self.complete:
            return 0
        m = _cross_matrix(self.edges, self.edges)
        r = self.rows
        return m[r[:, :, None], r[:, None, :]].sum(axis=(1, 2)) // 2

    def option(self, k: int) -> list[Edge]:
        return [(i, j) for i, j in self.edges[self.rows[k]].tolist()]


def best_stage_matching(edges: Sequence[Edge], fixed: Sequence[Edge] = (),
                        groups: Sequence[tuple[list[int], list[int]]] | None = None) -> list[Edge]:
    """Maximum one-to-one subset of ``edges`` with the fewest crossings (counting ``fixed`` too).

    ``groups``: optionally, the components already known to be complete bipartite (hypothesis
    positions, reference positions) — what an equivalence-relation module produces — to skip the
    component search. Among optimal matchings the choice is deterministic: each component's options
    cheapest first against the fixed and forced matches, then the first optimum of
    :func:`_branch_and_bound`.
    """
    if not edges:
        return []
    chosen: list[Edge] = []
    ambiguous: list[tuple[list[int], list[int], list[Edge] | None]] = []
    if groups is None:
        seen_h = {i for i, _ in edges}
        seen_r = {j for _, j in edges}
        if len(seen_h) == len(seen_r) == len(edges):  # no word has two candidates
            return sorted(edges)
        for comp in _components(list(dict.fromkeys(edges))):
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
    else:
        for hs, rs in groups:
            if len(hs) == len(rs):
                chosen.extend(zip(sorted(hs), sorted(rs)))
            else:
                ambiguous.append((sorted(hs), sorted(rs), None))
    if not ambiguous:
        return sorted(chosen)
    base = list(fixed) + chosen
    comps = [_Options(hs, rs, comp, base) for hs, rs, comp in ambiguous]
    # each component's options, cheapest first (stable) against the fixed and forced matches
    offs = list(accumulate([len(o.edges) for o in comps], initial=0))
    all_edges = np.concatenate([o.edges for o in comps])
    per_edge = _add(_cross_matrix(all_edges, _edge_array(base)), axis=1) if base else None
    unary: list[np.ndarray] = []
    for o, off in zip(comps, offs):
        u = (_add(per_edge[o.rows + off], axis=1) if per_edge is not None
             else np.zeros(len(o.rows), dtype=np.int64)) + o.internal()
        order = u.argsort(kind="stable")
        o.rows = o.rows[order]
        unary.append(u[order])
    if len(comps) == 1:
        return sorted(chosen + comps[0].option(0))
    # components with one option are settled; the others are ordered again, counting them too
    settled = [e for o in comps if len(o.rows) == 1 for e in o.option(0)]
    chosen.extend(settled)
    keep = [a for a, o in enumerate(comps) if len(o.rows) > 1]
    if not keep:
        return sorted(chosen)
    if settled:
        per_edge = _add(_cross_matrix(all_edges, _edge_array(settled)), axis=1)
        for a in keep:
            o = comps[a]
            u = unary[a] + _add(per_edge[o.rows + offs[a]], axis=1)
            order = u.argsort(kind="stable")  # ties keep the previous order
            o.rows = o.rows[order]
            unary[a] = u[order]
    open_ = [comps[a] for a in keep]
    open_unary = [unary[a] for a in keep]
    picks = [0] * len(open_)  # a component that crosses no other open one keeps its cheapest option
    nodes = [0]
    for members in _linked(open_):
        firsts = [open_[c].edges[open_[c].rows[0]] for c in members]
        owner = np.repeat(np.arange(len(members)), [len(f) for f in firsts])
        e0 = np.concatenate(firsts)
        if not (_cross_matrix(e0, e0) & (owner[:, None] != owner[None, :])).any():
            continue  # their cheapest options do not cross each other: the first optimum
        _search([open_[c] for c in members], [open_unary[c] for c in members], members, picks, nodes)
    for o, k in zip(open_, picks):
        chosen.extend(o.option(k))
    return sorted(chosen)


#: largest number of options (subsets of a class's larger side) the shortcut below enumerates
SMALL_CLASS_OPTIONS = 64


def small_classes_choice(groups: Sequence[tuple[list[int], list[int]]],
                         fixed: Sequence[tuple[int, int]]) -> list[tuple[int, int]] | None:
    """What :func:`best_stage_matching` returns for classes of equal keys (complete bipartite
    components: ``groups`` of increasing hypothesis and reference positions), computed directly in the
    common easy case, or None (then ask it).

    Classes of equal size pair in order. A class of a > b words has as options the b-subsets of its
    larger side (``itertools.combinations`` order), paired in order; each option costs its crossings
    with the fixed matches and the in-order pairs; the first cheapest is kept — best_stage_matching's
    stable order. With one such class that is its answer; with several it is the answer when the kept
    options do not cross one another (their total is then the least possible, and the aligner's
    search takes every class's cheapest option first). Otherwise, or when a class has more than
    ``SMALL_CLASS_OPTIONS`` options, None.
    """
    base = list(fixed)
    uneven = []
    for a, b in groups:
        if len(a) == len(b):
            base.extend(zip(a, b))
        elif comb(max(len(a), len(b)), min(len(a), len(b))) > SMALL_CLASS_OPTIONS:
            return None
        else:
            uneven.append((a, b))
    chosen = base[len(fixed):]
    picked: list[tuple[int, int]] = []
    by_hyp = sorted(base)
    ks = [k for k, _ in by_hyp]
    all_ls = sorted([l for _, l in by_hyp])
    for a, b in uneven:
        # crossings of (i, j) with the base: with p base matches left of i, q below j and c both,
        # (p − c) cross above-left and (q − c) below-right: p + q − 2c
        costs: dict[tuple[int, int], int] = {}
        below = [bisect_left(all_ls, j) for j in b]
        for i in a:
            cut = bisect_left(ks, i)
            left = sorted([l for _, l in by_hyp[:cut]])
            for j, q in zip(b, below):
                costs[i, j] = cut + q - 2 * bisect_left(left, j)
        if len(a) > len(b):
            options = [list(zip(sub, b)) for sub in combinations(a, len(b))]
        else:
            options = [list(zip(a, sub)) for sub in combinations(b, len(a))]
        cost = costs.__getitem__
        totals = [sum(map(cost, option)) for option in options]
        option = options[totals.index(min(totals))]
        if picked and any((i - k) * (j - l) < 0 for i, j in option for k, l in picked):
            return None
        picked.extend(option)
    return sorted(chosen + picked)



def _linked(comps: list[_Options]) -> list[list[int]]:
    """Groups (of two or more) of components whose mutual crossings may depend on their options.

    Two components lying apart on both sides (all hypothesis and all reference positions of one
    before those of the other) cross the same way whatever their options; :func:`_search` splits a
    group further where the crossings between two components turn out constant.
    """
    n = len(comps)
    spans = [o.span for o in comps]
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for p in range(n):
        a = spans[p]
        for c in range(p + 1, n):
            b = spans[c]
            if not ((a[1] < b[0] or b[1] < a[0]) and (a[3] < b[2] or b[3] < a[2])):
                parent[find(p)] = find(c)
    out: dict[int, list[int]] = {}
    for c in range(n):
        out.setdefault(find(c), []).append(c)
    return [m for m in out.values() if len(m) > 1]


def _search(comps: list[_Options], unary: list[np.ndarray], ids: list[int], picks: list[int],
            nodes: list[int]) -> None:
    """Pick the options of a group of linked components (writes ``picks[ids[a]]``).

    ``pairs[x, y]``: the crossings between option x and option y of a later component (flat option
    indices), summed from the edges' crossing matrix over x's edges, then over y's (float32 is exact
    for these counts). Components whose mutual crossings turn out constant are searched apart.
    Beyond ``MATRIX_CAP`` options the matrix is not built: the search computes the rows it needs
    (bounded memory on pathological input) and its bound has no pairwise term.
    """
    g = len(comps)
    sizes = [len(o.rows) for o in comps]
    offs = list(accumulate(sizes, initial=0))
    e_offs = list(accumulate([len(o.edges) for o in comps], initial=0))
    total = offs[-1]
    cross = _cross_matrix(*(np.concatenate([o.edges for o in comps]),) * 2)
    rows = [o.rows + e_offs[a] for a, o in enumerate(comps)]
    if total > MATRIX_CAP:
        def lazy(x: int, hi: int) -> np.ndarray:
            a = offs.index(hi)  # the component after x's
            by_edge = cross[rows[a - 1][x - offs[a - 1]]].sum(axis=0)
            return np.concatenate([by_edge[r].sum(axis=1) for r in rows[a:]])
        found = _branch_and_bound(lazy, unary, sizes, np.zeros(total), nodes)
        for a, k in enumerate(found):
            picks[ids[a]] = k
        return
    by_edge = np.concatenate([_row_sums(cross, r) for r in rows])  # options × edges
    pairs = np.zeros((total, total), dtype=np.float32)
    for b in range(1, g):
        pairs[:offs[b], offs[b]:offs[b + 1]] = _col_sums(by_edge[:offs[b]], rows[b])
    starts = offs[:-1]
    hi_ = np.maximum.reduceat(np.maximum.reduceat(pairs, starts, axis=1), starts, axis=0)
    lo_ = np.minimum.reduceat(np.minimum.reduceat(pairs, starts, axis=1), starts, axis=0)
    parent = list(range(g))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for p, c in zip(*np.nonzero(np.triu(hi_ != lo_, 1))):
        parent[find(int(p))] = find(int(c))
    subs: dict[int, list[int]] = {}
    for a in range(g):
        subs.setdefault(find(a), []).append(a)
    for members in subs.values():
        if len(members) == 1:
            continue
        if len(members) == g:
            sub = pairs
        else:
            idx = np.concatenate([np.arange(offs[a], offs[a + 1]) for a in members])
            sub = pairs[np.ix_(idx, idx)]
        sub_sizes = [sizes[a] for a in members]
        sub_starts = list(accumulate(sub_sizes[:-1], initial=0))
        # crossings each option cannot avoid with each later component: the minimum of its row there
        row_min = np.minimum.reduceat(sub, sub_starts, axis=1)
        owner = np.repeat(np.arange(len(members)), sub_sizes)
        later = np.arange(len(members))[None, :] > owner[:, None]
        low = (row_min * later).sum(axis=1, dtype=np.float64)

        def row(x: int, hi: int, sub: np.ndarray = sub) -> np.ndarray:
            return sub[x, hi:]
        found = _branch_and_bound(row, [unary[a] for a in members], sub_sizes, low, nodes)
        for a, k in zip(members, found):
            picks[ids[a]] = k


def _branch_and_bound(row, unary: list[np.ndarray], sizes: list[int], low: np.ndarray,
                      nodes: list[int]) -> list[int]:
    """Depth-first over the components in order, each one's options tried cheapest first given
    the ones picked before (stable order); returns the first solution of least total crossings.

    ``row(x, hi)``: crossings of option x (a flat index) with every option from flat index ``hi``
    on. ``acc[x]`` is option x's cost given the picks so far. Bound (admissible): the cost so far
    plus, for each later component, the least of ``acc + low``, where ``low[x]`` counts the
    crossings option x cannot avoid with the components after its own (the minimum of each of their
    rows) — so among equally cheap solutions the first in this order is kept, whatever the bound.
    Stops after ``NODE_CAP`` nodes with the best solution found (the first descent is greedy).
    """
    g = len(sizes)
    offs = list(accumulate(sizes, initial=0))
    starts = np.array(offs[:-1])
    rel = [starts[d:] - offs[d] for d in range(g)]  # the later components' starts, from depth d
    acc = np.concatenate(unary).astype(np.float64)
    best_cost = float("inf")
    best_pick: list[int] = []
    pick: list[int] = []

    def dfs(d: int, cost: float) -> None:
        nonlocal best_cost, best_pick
        lo, hi = offs[d], offs[d + 1]
        here = acc[lo:hi]
        if d == g - 1:  # the last component: its cheapest option (the first of equal ones)
            k = int(np.argmin(here))
            nodes[0] += 1
            if cost + here[k] < best_cost:
                best_cost = cost + float(here[k])
                best_pick = pick + [k]
            return
        ah = acc[lo:] + low[lo:]
        mins = np.minimum.reduceat(ah, rel[d])
        rest = float(_add(mins[1:]))
        if cost + float(mins[0]) + rest >= best_cost or (nodes[0] > NODE_CAP and best_pick):
            return
        here_l = here.tolist()
        bound = (ah[:hi - lo] + (cost + rest)).tolist()
        for k in here.argsort(kind="stable").tolist():
            if bound[k] >= best_cost:
                continue
            nodes[0] += 1
            r = row(lo + k, hi)
            acc[hi:] += r
            pick.append(k)
            dfs(d + 1, cost + here_l[k])
            pick.pop()
            acc[hi:] -= r

    dfs(0, 0.0)
    return best_pick


# ---- 1.5: the jar's objective, searched exactly ------------------------------------------------

def _state_score(item: tuple[tuple[int, int], tuple[tuple[int, int, int], tuple]]) -> tuple[int, int, int]:
    return item[1][0]


def align_jar(n_hyp: int, n_ref: int, cands: Sequence[Sequence[tuple[int, int]]],
              align_weights: Sequence[float]) -> tuple[list[tuple[int, int, int]], bool]:
    """The jar's alignment for candidate lists ``cands[j]`` = [(i, module), ...] in the jar's order.

    ``cands[j]`` lists the candidates of reference word j ordered by module, then hypothesis index,
    as the jar's matchers add them. Objective, maximised lexicographically (``PARTIAL_COMPARE_TOTAL``):
    the aligner's weighted matches (each match adds ``int(total + weight) - total`` per side, the
    jar's Java ``int`` accumulation: 1 for an exact match, 0 for a match of weight 0.5), then fewer
    chunks, then smaller *jar distance*: the jar adds |j − i| of a fixed match, and at an open
    reference word the |j − i| of every available candidate listed *before* the chosen one (of all
    of them when the word is skipped) — its ``path.distance`` update lands on the parent path, and
    this is what it computes. Returns sorted (i, j, module) triples and whether the search was
    exact (False when ``STATE_CAP`` was reached).

    Exactness: the weighted total is maximal exactly when every class of identical words
    (hypothesis words × reference words matched by a module of weight ≥ 1) gets min(#hyp, #ref)
    matches, which is always reachable; a step that makes this impossible is never taken, so no
    state is lost that could be optimal. The remaining states are merged by (used words still
    relevant, chunk-continuation word); only beyond ``STATE_CAP`` states per position are the worst
    dropped (documented bounded search).
    """
    gains = [int(w) for w in align_weights]  # int(M + w) - M for an int M and w >= 0
    cov_h = [0] * n_hyp
    for j in range(n_ref):
        for i, _ in cands[j]:
            cov_h[i] += 1
    fixed: dict[int, tuple[int, int]] = {}
    for j in range(n_ref):
        if len(cands[j]) == 1 and cov_h[cands[j][0][0]] == 1:
            fixed[j] = cands[j][0]
    fixed_mask = 0
    for i, _ in fixed.values():
        fixed_mask |= 1 << i
    # hypothesis words still wanted at reference positions > j (bit masks)
    relevant = [0] * (n_ref + 1)
    for j in range(n_ref - 2, -1, -1):
        m = relevant[j + 1]
        if j + 1 not in fixed:
            for i, _ in cands[j + 1]:
                m |= 1 << i
        relevant[j] = m
    # classes of weighted (exact) candidates: complete bipartite blocks of identical words
    cls_h = [-1] * n_hyp
    cls_r = [-1] * n_ref
    hmask: list[int] = []
    crefs: list[list[int]] = []
    key_of: dict[frozenset[int], int] = {}
    for j in range(n_ref):
        if j in fixed:
            continue
        hs = frozenset(i for i, mod in cands[j] if gains[mod] > 0)
        if not hs:
            continue
        t = key_of.get(hs)
        if t is None:
            t = key_of[hs] = len(hmask)
            mask = 0
            for i in hs:
                mask |= 1 << i
                cls_h[i] = t
            hmask.append(mask)
            crefs.append([])
        cls_r[j] = t
        crefs[t].append(j)
    # number of reference words of class t at positions >= j
    after_incl = [0] * n_ref
    for refs in crefs:
        for n, j in enumerate(refs):
            after_incl[j] = len(refs) - n

    def after_gt(t: int, j: int) -> int:
        return sum(1 for r in crefs[t] if r > j)

    # hypothesis words whose successor could continue a chunk at the next reference position
    continues: list[set[int]] = [set() for _ in range(n_ref + 1)]
    for j in range(n_ref - 1):
        nxt = [fixed[j + 1]] if j + 1 in fixed else cands[j + 1]
        continues[j] = {i - 1 for i, _ in nxt if i > 0}

    # state: (used mask & relevant, hyp word matched at j-1 if it can continue a chunk, else -1)
    # value: ((weight, -chunks, -distance) to maximise, chain of choices)
    states: dict[tuple[int, int], tuple[tuple[int, int, int], tuple]] = {
        (fixed_mask, -1): ((0, 0, 0), ())}
    exact = True
    for j in range(n_ref):
        cap_j = max(8, WORK_CAP // max(len(cands[j]), 1))
        if len(states) > cap_j:
            states = dict(nlargest(cap_j, states.items(), key=_state_score))  # = sorted(...)[:cap_j]
            exact = False
        new: dict[tuple[int, int], tuple[tuple[int, int, int], tuple]] = {}
        rel = relevant[j]
        cont = continues[j]
        f = fixed.get(j)
        if f is not None:
            i, mod = f
            g2, dist, prev, to, match = 2 * gains[mod], abs(j - i), i - 1, i if i in cont else -1, (i, j, mod)
            for (used, last), (score, chain) in states.items():
                key = (used & rel, to)
                val = (score[0] + g2, score[1] - (0 if last >= 0 and last == prev else 1), score[2] - dist)
                old = new.get(key)
                if old is None or val > old[0]:
                    new[key] = (val, (chain, match))
        else:
            tj = cls_r[j]
            class_j, left_j = (hmask[tj], after_incl[j]) if tj >= 0 else (0, 0)
            # per candidate, what does not depend on the state: bit, distance, doubled gain, the hyp
            # word a chunk would continue from, the next state's continuation word, and for a
            # non-exact match of a word of an exact class: that class and its reference words left
            row: list[tuple[int, int, int, int, int, int, int, int, tuple[int, int, int]]] = []
            for i, mod in cands[j]:
                ti = cls_h[i] if gains[mod] == 0 else -2
                row.append((1 << i, abs(j - i), 2 * gains[mod], i - 1, i if i in cont else -1, ti,
                            hmask[ti] if ti >= 0 else 0, after_gt(ti, j) if ti >= 0 else 0, (i, j, mod)))
            for (used, last), (score, chain) in states.items():
                w, negc, negd = score
                # may this reference word go without an exact match? (else the maximum is lost)
                free_j = tj < 0 or left_j > (class_j & ~used).bit_count()
                acc = 0
                for bit, dist, g2, prev, to, ti, cmask, left, match in row:
                    if used & bit:
                        continue
                    if ti != -2 and (not free_j or (ti >= 0 and (cmask & ~used).bit_count() <= left)):
                        acc += dist  # a zero-gain match that would lose an exact one
                        continue
                    key = ((used | bit) & rel, to)
                    val = (w + g2, negc - (0 if last >= 0 and last == prev else 1), negd - acc)
                    old = new.get(key)
                    if old is None or val > old[0]:
                        new[key] = (val, (chain, match))
                    acc += dist
                if free_j:
                    key = (used & rel, -1)
                    val = (w, negc, negd - acc)
                    old = new.get(key)
                    if old is None or val > old[0]:
                        new[key] = (val, chain)
        if len(new) > 1:
            # dominance (exact): states with the same used words have the same future; the chunk
            # continuation word can save at most one chunk, so a state two chunks behind the best
            # of its group (or one behind without a shorter distance) can never win (ties are
            # kept: they decide the score)
            best: dict[int, tuple[int, int, int]] = {}
            for (used, _), (score, _) in new.items():
                b = best.get(used)
                if b is None or score > b:
                    best[used] = score
            kept = {}
            for state, value in new.items():
                b, score = best[state[0]], value[0]
                if b[0] != score[0]:
                    if b[0] > score[0]:
                        continue
                else:
                    gap = b[1] - score[1]
                    if gap > 1 or (gap == 1 and b[2] > score[2]):
                        continue
                kept[state] = value
            new = kept
        if len(new) > STATE_CAP:
            new = dict(nlargest(STATE_CAP, new.items(), key=_state_score))
            exact = False
        states = new
    if not states:
        return [], exact
    chain = max(states.values(), key=lambda v: v[0])[1]
    out = []
    while chain:
        chain, m = chain
        out.append(m)
    out.sort()
    return out, exact


def align_jar_beam(n_hyp: int, n_ref: int, cands: Sequence[Sequence[tuple[int, int]]],
                   align_weights: Sequence[float], beam: int = 40) -> list[tuple[int, int, int]]:
    """The jar's own beam search (``Aligner.resolve``), step for step, for checking against the jar.

    Left to right over reference words; at each the partial paths are sorted (stable) by
    ``PARTIAL_COMPARE_TOTAL`` — more weighted matches, then fewer *closed* chunks, then smaller
    distance — and the first ``beam`` are extended by every unused candidate and by a skip. The
    jar's quirks are kept: ``int`` accumulation of the weighted matches, and the distance of an
    extension added to the parent path (so to the skip and to later siblings). Returns sorted
    (i, j, module) triples.
    """
    cov_h = [0] * n_hyp
    for j in range(n_ref):
        for i, _ in cands[j]:
            cov_h[i] += 1
    fixed = {j: cands[j][0] for j in range(n_ref)
             if len(cands[j]) == 1 and cov_h[cands[j][0][0]] == 1}
    used0 = 0
    for i, _ in fixed.values():
        used0 |= 1 << i
    # path: [m12, chunks, distance, last match end (i + 1) or -1, used hyp mask, chain]
    paths: list[list] = [[0, 0, 0, -1, used0, ()]]
    for current in range(n_ref + 1):
        paths.sort(key=lambda p: (-p[0], p[1], p[2]))
        nxt: list[list] = []
        for path in paths[:beam]:
            if current == n_ref:
                if path[3] != -1:
                    path[1] += 1
                nxt.append(path)
                continue
            f = fixed.get(current)
            if f is not None:
                i, mod = f
                m1 = int(path[0] // 2 + align_weights[mod])  # matches1 = matches2 here (length-1 matches)
                path[0] = 2 * m1
                if path[3] != -1 and i != path[3]:
                    path[1] += 1
                path[3] = i + 1
                path[2] += abs(current - i)
                path[5] = (path[5], (i, current, mod))
                nxt.append(path)
                continue
            for i, mod in cands[current]:
                if path[4] >> i & 1:
                    continue
                m1 = int(path[0] // 2 + align_weights[mod])
                chunks = path[1] + (1 if path[3] != -1 and i != path[3] else 0)
                nxt.append([2 * m1, chunks, path[2], i + 1, path[4] | (1 << i),
                            (path[5], (i, current, mod))])
                path[2] += abs(current - i)  # the jar adds it to the parent path
            if path[3] != -1:
                path[1] += 1
                path[3] = -1
            nxt.append(path)
        paths = nxt
    paths.sort(key=lambda p: (-p[0], p[1], p[2]))
    chain = paths[0][5]
    out = []
    while chain:
        chain, m = chain
        out.append(m)
    out.sort()
    return out


def jar_objective(n_hyp: int, cands: Sequence[Sequence[tuple[int, int]]],
                  alignment: Sequence[tuple[int, int, int]],
                  align_weights: Sequence[float]) -> tuple[int, int, int]:
    """The jar's objective of a complete alignment as (weighted matches, −chunks, −jar distance):
    what :func:`align_jar` maximises and the jar's beam approximates (larger is better)."""
    cov = [0] * n_hyp
    for cs in cands:
        for i, _ in cs:
            cov[i] += 1
    fixed = {j: cs[0] for j, cs in enumerate(cands) if len(cs) == 1 and cov[cs[0][0]] == 1}
    at = {j: (i, mod) for i, j, mod in alignment}
    used = {i for i, _ in fixed.values()}
    w = dist = 0
    for j, cs in enumerate(cands):
        if j in fixed:
            i, mod = fixed[j]
            w += 2 * int(align_weights[mod])
            dist += abs(j - i)
            continue
        avail = [(i, mod) for i, mod in cs if i not in used]
        pick = at.get(j)
        if pick is None:
            dist += sum(abs(j - i) for i, _ in avail)
            continue
        dist += sum(abs(j - i) for i, _ in avail[:avail.index(pick)])
        used.add(pick[0])
        w += 2 * int(align_weights[pick[1]])
    return w, -chunk_count([(i, j) for i, j, _ in alignment]), -dist


# ---- 2005: the easy stages of a whole corpus at once ----------------------------------------------

def even_class_stages(hyp: Sequence[Sequence[int]], ref: Sequence[Sequence[int] | None],
                      keys: Sequence[np.ndarray], resolve: bool = True,
                      then: Callable[[list[int]], list[frozenset]] | None = None
                      ) -> tuple[list[int], list[list[tuple[int, int, int]]]]:
    """Leading stages of equivalence modules (exact, porter, stem: one key per word), for every
    segment of a corpus at once.

    ``hyp[s]``, ``ref[s]``: word ids of segment s (``ref[s]`` None: no reference); ``keys[k]``: stage
    k's key code of every word id. At a stage, the words no earlier stage matched fall into classes of
    equal keys (§2.2); a class with as many hypothesis as reference words has one option, the in-order
    pairing (what :func:`best_stage_matching` returns for it whatever the fixed matches), so the even
    classes of every segment are paired here with numpy. A segment's *uneven* classes of a stage are
    then chosen as :func:`best_stage_matching` chooses them — it gets only them, with the even pairs
    among the fixed matches, which changes nothing: the even pairs are in every option and enter the
    costs only as fixed crossings, and the uneven classes keep their order (of first reference word)
    — for every segment at once (:func:`_class_choices`; best_stage_matching itself only for the
    segments that leaves). With ``resolve=False`` a segment stops instead at its first stage with an
    uneven class (its matches so far kept) for the caller to go on.

    ``then``: the key sets of a list of word ids for one more stage after them (synonym, wn_stem:
    words match when their sets meet; with ``resolve`` only): its candidate pairs are joined with
    numpy and chosen as best_stage_matching chooses them (:func:`_set_stage`).

    Returns per segment the stage it stopped at (``len(keys)``: none) and its matches before that
    stage as (hyp index, ref index, stage) triples.
    """
    S, G = len(hyp), len(keys)
    hl = np.fromiter(map(len, hyp), np.int64, S)
    rl = np.fromiter((0 if r is None else len(r) for r in ref), np.int64, S)
    hid = np.fromiter((x for h in hyp for x in h), np.int64, int(hl.sum()))
    rid = np.fromiter((y for r in ref if r is not None for y in r), np.int64, int(rl.sum()))
    hseg, rseg = np.repeat(np.arange(S), hl), np.repeat(np.arange(S), rl)
    hstart, rstart = np.cumsum(hl) - hl, np.cumsum(rl) - rl
    hpos = np.arange(len(hid)) - np.repeat(hstart, hl)
    rpos = np.arange(len(rid)) - np.repeat(rstart, rl)
    stop = np.full(S, G, dtype=np.int64)
    hfree, rfree = np.ones(len(hid), dtype=bool), np.ones(len(rid), dtype=bool)
    # matches so far as flat token indices, per stage
    found: list[tuple[np.ndarray, np.ndarray, int]] = []
    for k, key in enumerate(keys):
        hsel = np.flatnonzero(hfree & (stop[hseg] == G))
        rsel = np.flatnonzero(rfree & (stop[rseg] == G))
        if not len(hsel) or not len(rsel):
            break
        hk, rk = key[hid[hsel]], key[rid[rsel]]
        nk = int(max(hk.max(), rk.max())) + 1
        # one code per (segment, key): the classes; hsel and rsel are in (segment, position) order
        codes, inv = _unique_inverse(np.concatenate([hseg[hsel] * nk + hk, rseg[rsel] * nk + rk]))
        hinv, rinv = inv[:len(hsel)], inv[len(hsel):]
        nh = np.bincount(hinv, minlength=len(codes))
        nr = np.bincount(rinv, minlength=len(codes))
        both = (nh > 0) & (nr > 0)
        uneven = both & (nh != nr)
        if not resolve:
            stop[codes[uneven] // nk] = k
        pair = both & ~uneven & (stop[codes // nk] == G)
        hm, rm = pair[hinv], pair[rinv]
        # even classes: the n-th hypothesis word of a class with its n-th reference word
        ho = hsel[hm][_order(hinv[hm])]
        ro = rsel[rm][_order(rinv[rm])]
        hfree[ho] = False
        rfree[ro] = False
        found.append((ho, ro, k))
        if resolve and uneven.any():
            ho, ro = _uneven_classes(uneven, nh, nr, hsel, hinv, rsel, rinv, hseg, hpos, rpos, hstart,
                                     rstart, found)
            hfree[ho] = False
            rfree[ro] = False
            found.append((ho, ro, k))
    if then is not None and resolve:
        hsel, rsel = np.flatnonzero(hfree), np.flatnonzero(rfree)
        if len(hsel) and len(rsel):
            ho, ro = _set_stage(then, hsel, rsel, hid, rid, hseg, rseg, hpos, rpos, hstart, rstart, found)
            found.append((ho, ro, G))
        stop[:] = G + 1
    if not found:
        return stop.tolist(), [[] for _ in range(S)]
    hflat = np.concatenate([f[0] for f in found])
    rflat = np.concatenate([f[1] for f in found])
    seg = hseg[hflat]
    order = _order(seg)
    i = hpos[hflat][order].tolist()
    j = rpos[rflat][order].tolist()
    ks = np.concatenate([np.full(len(f[0]), f[2]) for f in found])[order].tolist()
    ends = np.cumsum(np.bincount(seg, minlength=S)).tolist()
    triples = list(zip(i, j, ks))
    return stop.tolist(), [triples[lo:hi] for lo, hi in zip([0, *ends], ends)]


def _uneven_classes(uneven: np.ndarray, nh: np.ndarray, nr: np.ndarray, hsel: np.ndarray,
                    hinv: np.ndarray, rsel: np.ndarray, rinv: np.ndarray, hseg: np.ndarray,
                    hpos: np.ndarray, rpos: np.ndarray, hstart: np.ndarray, rstart: np.ndarray,
                    found: list[tuple[np.ndarray, np.ndarray, int]]) -> tuple[np.ndarray, np.ndarray]:
    """The matches of one stage's uneven classes (flat token indices, in flat order) as
    :func:`best_stage_matching` picks them in each segment, given only them (in order of first
    reference word), the segment's matches so far (``found``) fixed: :func:`_class_choices` for
    every segment at once, the segments it gives up on
    one by one."""
    hu, ru = uneven[hinv], uneven[rinv]
    # the uneven classes' words, class by class (classes by segment), positions increasing
    h_tok = hsel[hu][_order(hinv[hu])]
    r_tok = rsel[ru][_order(rinv[ru])]
    cls = np.flatnonzero(uneven)
    a, b = nh[cls], nr[cls]
    seg = hseg[h_tok[np.cumsum(a) - a]]
    S = len(hstart)
    fixed = _by_segment(found, hseg)
    give_up = np.zeros(S, dtype=bool)
    ch_h, ch_r = _class_choices(seg, r_tok[np.cumsum(b) - b], a, b, h_tok, r_tok, fixed, give_up)
    if not give_up.any():
        return ch_h, ch_r
    # the others: best_stage_matching with the classes in order of first reference word
    h_off, r_off = (np.cumsum(a) - a).tolist(), (np.cumsum(b) - b).tolist()
    back = np.flatnonzero(give_up[seg])
    back = back[np.argsort(r_tok[np.cumsum(b) - b][back], kind="stable")].tolist()
    h_at, r_at = hpos[h_tok].tolist(), rpos[r_tok].tolist()
    a_l, b_l, seg_l = a.tolist(), b.tolist(), seg.tolist()
    groups: dict[int, list[tuple[list[int], list[int]]]] = {}
    for c in back:
        groups.setdefault(seg_l[c], []).append((h_at[h_off[c]:h_off[c] + a_l[c]],
                                                r_at[r_off[c]:r_off[c] + b_l[c]]))
    more_h, more_r = _one_by_one(groups, fixed, hpos, rpos, hstart, rstart,
                                 lambda gs, fx: best_stage_matching([(x[0], y[0]) for x, y in gs], fx, gs))
    return _flat_order(np.concatenate([ch_h, more_h]), np.concatenate([ch_r, more_r]))


#: most pairs of matches (of two options of different classes) of a group of linked classes that
#: :func:`_searched` compares (more: the aligner decides)
GROUP_WORK = 1 << 15
#: most assignments of the options of linked classes a segment's search may enumerate (all its
#: searched groups together; well below ``NODE_CAP`` / 2, so the aligner's own search is exact there)
ENUM_CAP = 4096
#: most (assignment, match, match) triples compared at once when assignments are enumerated
ENUM_BATCH = 1 << 21


def _class_choices(seg: np.ndarray, rank: np.ndarray, a: np.ndarray, b: np.ndarray,
                   h_tok: np.ndarray, r_tok: np.ndarray,
                   fixed: tuple[np.ndarray, np.ndarray, np.ndarray],
                   give_up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What :func:`best_stage_matching` chooses for the uneven classes (complete bipartite
    components, a ≠ b) of many segments at once, the segments' fixed matches given.

    ``seg``, ``a``, ``b``: each class's segment (classes by segment) and numbers of hypothesis and
    reference words; ``rank``: the classes' order within a segment (the aligner's component order);
    ``h_tok``, ``r_tok``: their words (flat token indices, which within a segment compare as
    positions do), class by class, increasing; ``fixed``: the segments' fixed matches
    (:func:`_by_segment`). A class's options are its ``_ordered_rows`` (``combinations`` order),
    each costing its pairs' crossings with the fixed matches; the aligner orders them cheapest first
    (stable) and keeps every class's first option unless some of these cross within a group of
    *linked* classes (:func:`_linked`: spans not apart on both sides). For such a group it keeps the
    first optimum of its depth-first search (:func:`_branch_and_bound`): here every assignment of
    the group's options is enumerated and that one taken (:func:`_enumerated`).

    ``give_up`` (one flag per segment; those flagged on entry are left out) is set for the segments
    left to best_stage_matching: a class with more than ``OPTION_CAP`` options (the aligner reduces
    them), or searches this does not settle (:func:`_searched`). Returns the matches of the other
    segments (flat hyp and ref tokens, in flat order).
    """
    empty = np.zeros(0, dtype=np.int64)
    if not len(seg):
        return empty, empty
    f_seg, f_h, f_r = fixed
    S, C = len(give_up), len(seg)
    wide = int(b.max()) + 1
    shapes, s_of = _unique_inverse(a * wide + b)
    s_a, s_b = (shapes // wide).tolist(), (shapes % wide).tolist()
    n_opt = np.array([min(comb(max(x, y), min(x, y)), OPTION_CAP + 1) for x, y in zip(s_a, s_b)],
                     dtype=np.int64)
    give_up[seg[n_opt[s_of] > OPTION_CAP]] = True
    ok = np.flatnonzero(~give_up[seg])
    if not len(ok):
        return empty, empty
    # every pair (x-th hypothesis word, y-th reference word) of each class, x-major
    h_off, r_off = np.cumsum(a) - a, np.cumsum(b) - b
    ne = (a * b)[ok]
    e_start = np.cumsum(ne) - ne
    E = int(e_start[-1] + ne[-1])
    e_cls = np.repeat(ok, ne)
    local = np.arange(E) - np.repeat(e_start, ne)
    bb = b[e_cls]
    x = local // bb
    eh = h_tok[h_off[e_cls] + x]
    er = r_tok[r_off[e_cls] + local - x * bb]
    # each pair's crossings with its segment's fixed matches (tokens differ: no ties)
    es = seg[e_cls]
    f_cnt = np.bincount(f_seg, minlength=S)
    cnt = f_cnt[es]
    rep = np.repeat(np.arange(E), cnt)
    fi = ranges((np.cumsum(f_cnt) - f_cnt)[es], cnt)
    cost = np.bincount(rep[(eh[rep] > f_h[fi]) != (er[rep] > f_r[fi])], minlength=E)
    # per class shape: every option's cost, the first cheapest
    at = np.zeros(C, dtype=np.int64)
    at[ok] = e_start
    by_shape = ok[np.argsort(s_of[ok], kind="stable")]
    ends = np.cumsum(np.bincount(s_of[ok], minlength=len(shapes))).tolist()
    picked = []
    for t, (lo, hi) in enumerate(zip([0, *ends], ends)):
        if hi > lo:
            rows = _ordered_rows(s_a[t], s_b[t])
            base = at[by_shape[lo:hi]]
            best = _add(cost[base[:, None, None] + rows], axis=2).argmin(axis=1)
            picked.append((base[:, None] + rows[best]).reshape(-1))
    pe = np.concatenate(picked)
    pe = pe[_order(eh[pe])]
    ph, pr, ps = eh[pe], er[pe], es[pe]
    # kept options of one segment crossing each other (within a class they never do)
    n = np.bincount(ps, minlength=S)
    cnt = n[ps]
    rep = np.repeat(np.arange(len(ph)), cnt)
    other = ranges((np.cumsum(n) - n)[ps], cnt)
    crossing = (ph[rep] > ph[other]) != (pr[rep] > pr[other])
    if crossing.any():
        c1, c2 = e_cls[pe[rep[crossing]]], e_cls[pe[other[crossing]]]
        # the linked groups of the segments concerned; those where kept options cross are searched
        mark = np.zeros(S, dtype=bool)
        mark[seg[c1]] = True
        cls = np.flatnonzero(mark[seg])
        last_h, last_r = h_tok[h_off + a - 1], r_tok[r_off + b - 1]
        group = np.full(C, -1)
        group[cls] = _linked_classes(seg[cls], h_tok[h_off[cls]], last_h[cls], r_tok[r_off[cls]],
                                     last_r[cls])
        hit = np.zeros(C + 1, dtype=bool)
        hit[group[c1][group[c1] == group[c2]]] = True
        redo = cls[hit[group[cls]]]
        if len(redo):
            won = _searched(redo, group[redo], seg, rank, n_opt[s_of], s_of, s_a, s_b, at, cost,
                              eh, er, give_up)
            again = np.zeros(C, dtype=bool)
            again[redo] = True
            pe = np.concatenate([pe[~again[e_cls[pe]]], won])
            pe = pe[_order(eh[pe])]
    pe = pe[~give_up[es[pe]]]
    return eh[pe], er[pe]


def _linked_classes(seg: np.ndarray, h_lo: np.ndarray, h_hi: np.ndarray, r_lo: np.ndarray,
                    r_hi: np.ndarray) -> np.ndarray:
    """Groups of linked classes (:func:`_linked`) of classes given by segment with their spans: a
    group number per class."""
    L = len(seg)
    first = np.concatenate([[True], seg[1:] != seg[:-1]])
    g_of = np.cumsum(first) - 1
    g_start = np.flatnonzero(first)
    g_n = np.diff(np.append(g_start, L))
    cnt = g_n[g_of]
    p = np.repeat(np.arange(L), cnt)
    q = ranges(g_start[g_of], cnt)
    keep = p < q
    p, q = p[keep], q[keep]
    apart = (((h_hi[p] < h_lo[q]) | (h_hi[q] < h_lo[p]))
             & ((r_hi[p] < r_lo[q]) | (r_hi[q] < r_lo[p])))
    return _components_of(p[~apart], q[~apart], L)


def _searched(redo: np.ndarray, group: np.ndarray, seg: np.ndarray, rank: np.ndarray,
              n_of: np.ndarray, s_of: np.ndarray, s_a: list[int], s_b: list[int], at: np.ndarray,
              cost: np.ndarray, eh: np.ndarray, er: np.ndarray, give_up: np.ndarray) -> np.ndarray:
    """The options :func:`_branch_and_bound` keeps for groups of linked classes whose cheapest
    options cross (the helper of :func:`_class_choices`, whose arrays it takes), where its first
    descent is provably what it returns; ``give_up`` is set for the other segments.

    ``redo``: the classes, ``group``: their groups; in a group the classes come in ``rank`` order,
    each one's options cheapest first (stable). The search's first descent is greedy: class by
    class the first option of least cost given the options picked before (its pairs' crossings with
    the fixed matches and with those options). At each class of that descent but the last, the
    search skips every other option whose bound — cost so far, plus the option's cost and
    ``low`` (the least crossings it must have with each later class), plus for each later class the
    least cost + ``low`` of its options — is at least the descent's total: then the descent is an
    optimum, and the first (the search keeps a later solution only when strictly better). That is
    checked here for every group at once, class by class (``low`` and the options' pairwise
    crossings from every pair of options of a group). Groups with more than ``GROUP_WORK`` pairs of
    matches to compare are left to the aligner too. Returns the kept options' pairs (indices into
    ``eh``, ``er``) of the groups checked.
    """
    empty = np.zeros(0, dtype=np.int64)
    o = np.lexsort((rank[redo], group))
    redo, group = redo[o], group[o]
    first = np.concatenate([[True], group[1:] != group[:-1]])
    g_of = np.cumsum(first) - 1
    g_seg = seg[redo[first]]
    v = (n_of * np.minimum(s_a, s_b)[s_of])[redo].astype(np.float64)  # matches of a class's options
    work = (np.bincount(g_of, weights=v) ** 2 - np.bincount(g_of, weights=v * v)) / 2
    give_up[g_seg[work > GROUP_WORK]] = True
    keep = ~give_up[seg[redo]]
    if not keep.any():
        return empty
    redo = redo[keep]
    first = first[keep]
    g_of = np.cumsum(first) - 1
    starts = np.flatnonzero(first)
    NG = len(starts)
    k = np.diff(np.append(starts, len(redo)))
    depth = np.arange(len(redo)) - starts[g_of]
    n = n_of[redo]
    t_u, t_e, u_at, e_at, m_at = _option_tables(redo, s_of, s_a, s_b, at, cost)
    # the options, class by class (group, class, position)
    o_cls = np.repeat(np.arange(len(redo)), n)
    O = len(o_cls)
    c_lo = np.cumsum(n) - n
    c_hi = c_lo + n
    o_pos = np.arange(O) - c_lo[o_cls]
    o_m = m_at[redo][o_cls]
    o_e = e_at[redo][o_cls] + o_pos * o_m
    unary = t_u[u_at[redo][o_cls] + o_pos]
    acc = unary.copy()
    # crossings of each option with every option of the later classes of its group (a row each)
    g_end = c_hi[np.append(starts[1:], len(redo)) - 1]
    row_len = g_end[g_of[o_cls]] - c_hi[o_cls]
    row_start = np.cumsum(row_len) - row_len
    p1 = np.repeat(np.arange(O), row_len)
    p2 = ranges(c_hi[o_cls], row_len)
    mm = o_m[p1] * o_m[p2]
    q = np.repeat(np.arange(len(p1)), mm)
    loc = ranges(np.zeros_like(mm), mm)
    m2 = o_m[p2][q]
    i = loc // m2
    e1, e2 = t_e[o_e[p1][q] + i], t_e[o_e[p2][q] + loc - i * m2]
    pair = np.bincount(q[(eh[e1] > eh[e2]) != (er[e1] > er[e2])], minlength=len(p1))
    # low: per option, the least crossings with each later class, summed
    c2 = o_cls[p2]
    run = np.flatnonzero(np.concatenate([[True], (p1[1:] != p1[:-1]) | (c2[1:] != c2[:-1])]))
    r_min = np.minimum.reduceat(pair, run) if len(p1) else pair
    low = np.bincount(p1[run], weights=r_min, minlength=O).astype(np.int64)
    # the first descent, every group at once, class by class; bound of its other options
    huge = np.int64(1) << 40
    so_far = np.zeros(NG, dtype=np.int64)
    least = np.full(NG, huge)
    picks = np.zeros(len(redo), dtype=np.int64)
    for d in range(int(k.max())):
        act = starts[k > d] + d
        ga = g_of[act]
        pick = c_lo[act] + np.minimum.reduceat(acc * OPTION_CAP + o_pos, c_lo)[act] % OPTION_CAP
        more = k[ga] > d + 1
        if more.any():
            ah = acc + low
            later = depth > d
            rest = np.bincount(g_of[later], weights=np.minimum.reduceat(ah, c_lo)[later],
                               minlength=NG).astype(np.int64)
            ah[pick] = huge
            alt = np.minimum.reduceat(ah, c_lo)[act]
            gm = ga[more]
            least[gm] = np.minimum(least[gm], (so_far[ga] + rest[ga] + alt)[more])
        so_far[ga] += acc[pick]
        picks[act] = pick
        rl = row_len[pick]
        rows = ranges(row_start[pick], rl)
        acc[p2[rows]] += pair[rows]
    sure = least >= so_far
    kept = [picks[sure[g_of]]]
    if not sure.all():
        # the others: the search splits a group where the crossings between two classes do not
        # depend on their options (:func:`_search`) and keeps the first option of a class left
        # alone; in the other parts every assignment is enumerated, where the segment's parts are
        # small (so the aligner's search does not reach NODE_CAP: each part takes at most twice its
        # assignments)
        r_max = np.maximum.reduceat(pair, run) if len(p1) else pair
        blocks, b_of = _unique_inverse(o_cls[p1[run]] * len(redo) + c2[run])
        b_min = np.full(len(blocks), huge)
        b_max = np.zeros(len(blocks), dtype=np.int64)
        np.minimum.at(b_min, b_of, r_min)
        np.maximum.at(b_max, b_of, r_max)
        vary = blocks[b_min != b_max]
        part = _components_of(vary // len(redo), vary % len(redo), len(redo))
        order = _order(part)  # part by part, classes in order
        p_start = np.flatnonzero(_firsts(part[order]))
        k_p = np.diff(np.append(p_start, len(redo)))
        size = np.multiply.reduceat(n[order].astype(np.float64), p_start)
        p_seg = seg[redo[order[p_start]]]
        cap = min(ENUM_CAP, NODE_CAP // 2)
        small = np.bincount(p_seg, weights=size * (k_p > 1), minlength=len(give_up))[p_seg] <= cap
        fail = ~sure[g_of[order[p_start]]]
        give_up[p_seg[fail & ~small]] = True
        kept.append(c_lo[order[p_start[fail & small & (k_p == 1)]]])
        enum = fail & small & (k_p > 1)
        if enum.any():
            kept.append(_enumerated(order[np.repeat(enum, k_p)], k_p[enum], n, c_lo, c_hi, unary, pair,
                                    row_start))
    chosen = np.concatenate(kept)
    return t_e[ranges(o_e[chosen], o_m[chosen])]


def _option_tables(cls: np.ndarray, s_of: np.ndarray, s_a: list[int], s_b: list[int], at: np.ndarray,
                   cost: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each class's options cheapest first (stable), for classes ``cls`` (the arrays of
    :func:`_class_choices`): (option costs, options' pairs (indices into its pair arrays), and per
    class the start of its costs, the start of its pairs, its matches per option)."""
    u_at, e_at, m_at = (np.zeros(len(at), dtype=np.int64) for _ in range(3))
    table_u, table_e = [], []
    sh = s_of[cls]
    by_shape = cls[np.argsort(sh, kind="stable")]
    ends = np.cumsum(np.bincount(sh, minlength=len(s_a))).tolist()
    u_off = e_off = 0
    for t, (lo, hi) in enumerate(zip([0, *ends], ends)):
        if hi == lo:
            continue
        cl = by_shape[lo:hi]
        rows = _ordered_rows(s_a[t], s_b[t])
        no, mm = rows.shape
        edges = at[cl][:, None, None] + rows
        costs = _add(cost[edges], axis=2)
        srt = np.argsort(costs, axis=1, kind="stable")
        table_u.append(np.take_along_axis(costs, srt, 1).reshape(-1))
        table_e.append(np.take_along_axis(edges, srt[:, :, None], 1).reshape(-1))
        u_at[cl] = u_off + np.arange(len(cl)) * no
        e_at[cl] = e_off + np.arange(len(cl)) * (no * mm)
        m_at[cl] = mm
        u_off += len(cl) * no
        e_off += len(cl) * no * mm
    return np.concatenate(table_u), np.concatenate(table_e), u_at, e_at, m_at


def _enumerated(cls: np.ndarray, k: np.ndarray, n: np.ndarray, c_lo: np.ndarray, c_hi: np.ndarray,
                unary: np.ndarray, pair: np.ndarray, row_start: np.ndarray) -> np.ndarray:
    """The options :func:`_branch_and_bound` keeps for groups of linked classes, found by
    enumerating every assignment (the helper of :func:`_searched`, whose arrays it takes).

    ``cls``: the classes of the groups, group by group (``k`` each) in order; ``n``, ``c_lo``,
    ``c_hi``: each class's number of options and their range among the options; ``unary``: each
    option's cost (its pairs' crossings with the fixed matches; a class's options cheapest first,
    stable); ``pair[row_start[o] + x]``: crossings of option o with option ``c_hi[o's class] + x``
    (the options of the later classes of its group). The search returns the first assignment of
    least total crossings in its depth-first order, and it visits assignments in the lexicographic
    order of their sequence of (option's cost given the earlier classes' options, option's
    cheapest-first position), class by class; so the least assignment by (total, that sequence) is
    taken. Returns the option kept for each class of ``cls``.
    """
    starts = np.cumsum(k) - k
    nn = n[cls]
    size = np.multiply.reduceat(nn, starts)
    # stride of each class in its group's assignments: the product of the later classes' counts
    n_l, stride_l = nn.tolist(), [0] * len(cls)
    for g0, kg in zip(starts.tolist(), k.tolist()):
        prod = 1
        for i in range(g0 + kg - 1, g0 - 1, -1):
            stride_l[i] = prod
            prod *= n_l[i]
    stride = np.array(stride_l, dtype=np.int64)
    # groups in batches of bounded work (assignments × classes)
    work = np.cumsum(size * k).tolist()
    out = []
    g_lo, done = 0, 0
    while g_lo < len(k):
        g_hi = max(g_lo + 1, bisect_left(work, done + ENUM_BATCH + 1))
        done = work[g_hi - 1]
        G, kb, sb = g_hi - g_lo, k[g_lo:g_hi], size[g_lo:g_hi]
        bc = np.arange(int(starts[g_lo]), int(starts[g_hi - 1] + k[g_hi - 1]))  # the batch's classes
        b_first = np.cumsum(kb) - kb  # each group's first class (batch-local)
        b_grp = np.repeat(np.arange(G), kb)
        b_n, b_stride, b_cls = nn[bc], stride[bc], cls[bc]
        # each prefix (choices of the classes up to one) once: its last choice's cost given the others
        n_pre = sb[b_grp] // b_stride
        p_start = np.cumsum(n_pre) - n_pre
        p_cls = np.repeat(np.arange(len(bc)), n_pre)
        p_id = np.arange(len(p_cls)) - p_start[p_cls]
        o = c_lo[b_cls[p_cls]] + p_id % b_n[p_cls]
        dd = p_cls - b_first[b_grp[p_cls]]  # depth: the earlier classes of the prefix
        e_pre = np.repeat(np.arange(len(p_cls)), dd)
        e_cls = ranges(p_cls - dd, dd)
        e_o = c_lo[b_cls[e_cls]] + (p_id[e_pre] // (b_stride[e_cls] // b_stride[p_cls[e_pre]])) % b_n[e_cls]
        crossed = np.bincount(e_pre, weights=pair[row_start[e_o] + o[e_pre] - c_hi[b_cls[e_cls]]],
                              minlength=len(o))
        acc = unary[o] + crossed.astype(np.int64)
        # every assignment: its prefixes' costs, their sum, and (cost, position) class by class
        T = int(sb.sum())
        a_grp = np.repeat(np.arange(G), sb)
        a_start = np.cumsum(sb) - sb
        a_loc = np.arange(T) - a_start[a_grp]
        kk = kb[a_grp]
        r_start = np.cumsum(kk) - kk
        r_asg = np.repeat(np.arange(T), kk)
        depth = np.arange(len(r_asg)) - r_start[r_asg]
        lc = b_first[a_grp[r_asg]] + depth
        prefix = a_loc[r_asg] // b_stride[lc]
        row = p_start[lc] + prefix
        total = np.add.reduceat(acc[row], r_start)
        least = total == np.minimum.reduceat(total, a_start)[a_grp]
        opt = np.flatnonzero(least)
        r_opt = np.flatnonzero(least[r_asg])
        keys = np.zeros((int(kb.max()), len(opt)), dtype=np.int64)
        keys[depth[r_opt], (np.cumsum(least) - 1)[r_asg[r_opt]]] = \
            acc[row[r_opt]] * OPTION_CAP + prefix[r_opt] % b_n[lc[r_opt]]
        ranked = np.lexsort((*keys[::-1], a_grp[opt]))
        best = opt[ranked[_firsts(a_grp[opt][ranked])]]
        won = np.zeros(T, dtype=bool)
        won[best] = True
        out.append(o[row[won[r_asg]]])
        g_lo = g_hi
    return np.concatenate(out)


def _firsts(x: np.ndarray) -> np.ndarray:
    """Mask of the elements of a sorted array that differ from the one before."""
    out = np.ones(len(x), dtype=bool)
    np.not_equal(x[1:], x[:-1], out=out[1:])
    return out


def _unique(x: np.ndarray) -> np.ndarray:
    """``np.unique(x)`` by sorting (numpy 2's hash-based unique is several times slower here)."""
    x = np.sort(x)
    return x[_firsts(x)]


def _order(x: np.ndarray) -> np.ndarray:
    """``np.argsort(x, kind="stable")`` of non-negative integers, by one sort of x · 2^b + index
    where that fits in int64 (numpy's sort is several times faster than its argsort)."""
    n = len(x)
    bits = max(n - 1, 1).bit_length()
    if n and int(x.max()) < 1 << (62 - bits) and int(x.min()) >= 0:
        return np.sort((x << bits) | np.arange(n)) & ((1 << bits) - 1)
    return np.argsort(x, kind="stable")


def _unique_inverse(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(x, return_inverse=True)`` (inverse flat) of non-negative integers by one sort."""
    order = _order(x)
    s = x[order]
    first = _firsts(s)
    inv = np.empty(len(x), dtype=np.int64)
    inv[order] = np.cumsum(first) - 1
    return s[first], inv


def _by_segment(found: list[tuple[np.ndarray, np.ndarray, int]], hseg: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The matches so far (flat token indices) as (segment, hyp token, ref token), by segment
    (stable: in ``found`` order within a segment)."""
    if not found:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    fh = np.concatenate([f[0] for f in found])
    fr = np.concatenate([f[1] for f in found])
    s = hseg[fh]
    order = _order(s)
    return s[order], fh[order], fr[order]


def _one_by_one(work: dict[int, Any], fixed: tuple[np.ndarray, np.ndarray, np.ndarray],
                hpos: np.ndarray, rpos: np.ndarray, hstart: np.ndarray, rstart: np.ndarray,
                solve: Callable[[Any, list[Edge]], list[Edge]]) -> tuple[np.ndarray, np.ndarray]:
    """``solve(work[s], fixed matches of s as positions)`` for each segment s of ``work`` (in
    order); its matches (positions) as flat token indices."""
    f_seg, f_h, f_r = fixed
    segs = sorted(work)
    lo = np.searchsorted(f_seg, segs, "left").tolist()
    hi = np.searchsorted(f_seg, segs, "right").tolist()
    hstart_l, rstart_l = hstart.tolist(), rstart.tolist()
    fh, fr = hpos[f_h].tolist(), rpos[f_r].tolist()
    out_h: list[int] = []
    out_r: list[int] = []
    for s, x, y in zip(segs, lo, hi):
        chosen = solve(work[s], list(zip(fh[x:y], fr[x:y])))
        out_h.extend(hstart_l[s] + i for i, _ in chosen)
        out_r.extend(rstart_l[s] + j for _, j in chosen)
    return np.array(out_h, dtype=np.int64), np.array(out_r, dtype=np.int64)


def _flat_order(h: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Matches (flat tokens, one per hypothesis word) by segment and position."""
    order = _order(h)
    return h[order], r[order]


def _components_of(u: np.ndarray, v: np.ndarray, n: int) -> np.ndarray:
    """Connected components of the graph with edges (u[e], v[e]) on nodes 0..n−1: each node's
    component, numbered in order of their least node (minimum-label propagation with pointer
    jumping)."""
    lab = np.arange(n)
    while True:
        m = np.minimum(lab[u], lab[v])
        new = lab.copy()
        np.minimum.at(new, u, m)
        np.minimum.at(new, v, m)
        new = new[new]
        if (new == lab).all():
            break
        lab = new
    roots = lab == np.arange(n)
    return (np.cumsum(roots) - 1)[lab]


def _set_stage(key_of: Callable[[list[int]], list[frozenset]], hsel: np.ndarray, rsel: np.ndarray,
               hid: np.ndarray, rid: np.ndarray, hseg: np.ndarray, rseg: np.ndarray,
               hpos: np.ndarray, rpos: np.ndarray, hstart: np.ndarray, rstart: np.ndarray,
               found: list[tuple[np.ndarray, np.ndarray, int]]) -> tuple[np.ndarray, np.ndarray]:
    """One stage of a set-valued module over the free words ``hsel``, ``rsel`` (flat token indices)
    of every segment: the matches, as flat token indices in flat order.

    What :func:`best_stage_matching` returns for each segment's candidate pairs, the matches so far
    fixed: a segment where no word has two candidates takes them all; otherwise the candidate graph's
    components are found for all segments at once, and where every component is complete bipartite
    (one hypothesis word with two synonyms in the reference, …) components of a × a words pair in
    order and the others are chosen by :func:`_class_choices`, as the aligner chooses for such
    components (they are classes of equal keys to it); the remaining segments go to
    best_stage_matching one by one."""
    words = _unique(np.concatenate([hid[hsel], rid[rsel]]))
    sets = key_of(words.tolist())
    every = [c for ks in sets for c in ks]
    if every and type(every[0]) is int:  # integer keys (synset offsets): numbered by one sort
        w_keys = _unique_inverse(np.fromiter(every, np.int64, len(every)))[1]
        n_keys = int(w_keys.max()) + 1
    else:
        codes = dict(zip(dict.fromkeys(every), range(len(every))))
        n_keys = max(len(codes), 1)
        w_keys = np.fromiter(map(codes.__getitem__, every), np.int64, len(every))
    w_len = np.fromiter(map(len, sets), np.int64, len(sets))
    w_start = np.cumsum(w_len) - w_len
    w_of = np.zeros(int(words[-1]) + 1, dtype=np.int64)
    w_of[words] = np.arange(len(words))

    def explode(sel: np.ndarray, ids: np.ndarray, seg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        w = w_of[ids[sel]]
        n = w_len[w]
        tok = np.repeat(sel, n)
        at = ranges(w_start[w], n)
        return tok, seg[tok] * n_keys + w_keys[at]

    # the words of one segment sharing a key: both sides' (token, key) sorted together by key,
    # hypothesis entries first in each run of one key, each paired with the run's reference entries
    ht, hc = explode(hsel, hid, hseg)
    rt, rc = explode(rsel, rid, rseg)
    if not len(hc) or not len(rc):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    order = _order(np.concatenate([hc, rc]))
    run = np.cumsum(_firsts(np.concatenate([hc, rc])[order])) - 1
    is_h = order < len(hc)
    n_h = np.bincount(run[is_h], minlength=run[-1] + 1)
    n_r = np.bincount(run, minlength=run[-1] + 1) - n_h
    h_run = run[is_h]
    cnt = n_r[h_run]
    at = np.flatnonzero(_firsts(run))[h_run] + n_h[h_run]  # the run's first reference entry
    eh = np.repeat(ht[order[is_h]], cnt)
    er = rt[order[ranges(at, cnt)] - len(hc)]
    # distinct candidate pairs, by segment, hypothesis then reference position (flat order)
    pairs = _unique(eh * len(rid) + er)
    eh, er = pairs // len(rid), pairs % len(rid)
    seg = hseg[eh]
    S = len(hstart)
    n_e = np.bincount(seg, minlength=S)
    n_h = np.bincount(hseg[eh[_firsts(eh)]], minlength=S)  # eh is sorted
    n_r = np.bincount(rseg[_unique(er)], minlength=S)
    forced = (n_e == n_h) & (n_e == n_r)  # no word has two candidates: all of them
    take = forced[seg]
    if take.all():
        return eh, er
    out_h, out_r = [eh[take]], [er[take]]
    eh, er, seg = eh[~take], er[~take], seg[~take]
    # the other segments' candidate graphs: components (numbered by least hypothesis token)
    first = _firsts(eh)
    h_nodes, h_of = eh[first], np.cumsum(first) - 1
    r_nodes, r_of = _unique_inverse(er)
    nH = len(h_nodes)
    comp = _components_of(h_of, nH + r_of, nH + len(r_nodes))
    ch, cr = comp[:nH], comp[nH:]
    a, b = np.bincount(ch), np.bincount(cr)
    h_tok = h_nodes[_order(ch)]
    c_seg = hseg[h_tok[np.cumsum(a) - a]]
    give_up = np.zeros(S, dtype=bool)
    give_up[c_seg[np.bincount(ch[h_of], minlength=len(a)) != a * b]] = True  # not complete
    r_tok = r_nodes[_order(cr)]
    even = a == b
    h_even, r_even = np.repeat(even, a), np.repeat(even, b)
    ph, pr = h_tok[h_even], r_tok[r_even]  # a × a components: in order
    fixed = _by_segment([*found, (ph, pr, -1)], hseg)
    un = np.flatnonzero(~even)
    ch_h, ch_r = _class_choices(c_seg[un], un, a[un], b[un], h_tok[~h_even], r_tok[~r_even], fixed,
                                give_up)
    keep = ~give_up[hseg[ph]]
    out_h += [ph[keep], ch_h]
    out_r += [pr[keep], ch_r]
    if give_up.any():
        back = give_up[seg]
        e_seg, e_h, e_r = seg[back].tolist(), hpos[eh[back]].tolist(), rpos[er[back]].tolist()
        work: dict[int, list[Edge]] = {}
        for s, i, j in zip(e_seg, e_h, e_r):
            work.setdefault(s, []).append((i, j))
        more = _one_by_one(work, _by_segment(found, hseg), hpos, rpos, hstart, rstart,
                           best_stage_matching)
        out_h.append(more[0])
        out_r.append(more[1])
    return _flat_order(np.concatenate(out_h), np.concatenate(out_r))
