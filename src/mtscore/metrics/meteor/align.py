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
a = b). Other components (synonym, wn_stem) get all their maximum matchings enumerated. A
branch-and-bound over the components' options then minimises the total crossings.

Bounded search for pathological input (hundreds of repeats of one word — where NLTK's METEOR had a
quadratic-time vulnerability): a component with more than ``OPTION_CAP``
options is given only the option that is optimal against the fixed matches (an O(a·b) dynamic program
over order-preserving pairings) plus the left- and right-most pairings; the branch-and-bound (bound: the
sum over undecided components of their cheapest option given the decided ones) stops after
``NODE_CAP`` nodes and keeps the best solution found (its first descent is greedy). The cardinality is
always maximal; only the crossing count may then be above the minimum.

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

from collections.abc import Sequence
from itertools import combinations
from math import comb

import numpy as np

#: most options a component may have before it is reduced (bounded search, see module doc)
OPTION_CAP = 2000
#: most branch-and-bound nodes per stage before the best solution so far is kept
NODE_CAP = 20_000
#: most dynamic-programming states per reference position in the 1.5 search
STATE_CAP = 100
#: most (state, candidate) expansions per reference position in the 1.5 search (long runs of
#: one repeated word): the states are cut to WORK_CAP // candidates, at least 8
WORK_CAP = 3000

Edge = tuple[int, int]


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


def _cross_between(a: Sequence[Edge], b: Sequence[Edge]) -> int:
    n = 0
    for i, j in a:
        for k, l in b:
            if (i - k) * (j - l) < 0:
                n += 1
    return n


def chunk_count(edges: Sequence[Edge]) -> int:
    """Fewest runs of matches contiguous and in the same order on both sides (§2.3 "chunks")."""
    if not edges:
        return 0
    s = sorted(edges)
    chunks = 1
    for (i, j), (k, l) in zip(s, s[1:]):
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


def _component_options(comp: list[Edge], fixed: Sequence[Edge]) -> list[tuple[Edge, ...]]:
    hs = sorted({i for i, _ in comp})
    rs = sorted({j for _, j in comp})
    if len(comp) == len(hs) * len(rs):  # complete bipartite
        if len(hs) == len(rs):
            return [tuple(zip(hs, rs))]
        if len(hs) > len(rs):
            n = comb(len(hs), len(rs))
            if n <= OPTION_CAP:
                return [tuple(zip(sub, rs)) for sub in combinations(hs, len(rs))]
            return _reduced(hs, rs, fixed)
        n = comb(len(rs), len(hs))
        if n <= OPTION_CAP:
            return [tuple(zip(hs, sub)) for sub in combinations(rs, len(hs))]
        return _reduced(hs, rs, fixed)
    size = _max_matching_size(comp)
    return _all_max_matchings(comp, size, OPTION_CAP)


def _reduced(hs: list[int], rs: list[int], fixed: Sequence[Edge]) -> list[tuple[Edge, ...]]:
    n = min(len(hs), len(rs))
    opts = [_ordered_dp(hs, rs, fixed), tuple(zip(hs[:n], rs[:n])), tuple(zip(hs[-n:], rs[-n:]))]
    return list(dict.fromkeys(opts))


def best_stage_matching(edges: Sequence[Edge], fixed: Sequence[Edge] = (),
                        groups: Sequence[tuple[list[int], list[int]]] | None = None) -> list[Edge]:
    """Maximum one-to-one subset of ``edges`` with the fewest crossings (counting ``fixed`` too).

    ``groups``: optionally, the components already known to be complete bipartite (hypothesis
    positions, reference positions) — what an equivalence-relation module produces — to skip the
    component search.
    """
    if not edges:
        return []
    if groups is None:
        seen_h = {i for i, _ in edges}
        seen_r = {j for _, j in edges}
        if len(seen_h) == len(seen_r) == len(edges):  # no word has two candidates
            return sorted(edges)
        comps = _components(list(dict.fromkeys(edges)))
    else:
        comps = [[(i, j) for i in hs for j in rs] for hs, rs in groups]
    chosen: list[Edge] = []
    ambiguous: list[list[Edge]] = []
    for comp in comps:
        if len(comp) == 1:
            chosen.append(comp[0])
            continue
        hs = sorted({i for i, _ in comp})
        rs = sorted({j for _, j in comp})
        if len(hs) == len(rs) and len(comp) == len(hs) * len(rs):
            chosen.extend(zip(hs, rs))  # a = b: the order-preserving pairing is the one option
        else:
            ambiguous.append(comp)
    if not ambiguous:
        return sorted(chosen)
    base = list(fixed) + chosen
    cost_cache: dict[Edge, int] = {}

    def edge_cost(e: Edge) -> int:
        c = cost_cache.get(e)
        if c is None:
            i, j = e
            c = cost_cache[e] = sum(1 for k, l in base if (i - k) * (j - l) < 0)
        return c

    options, unary = [], []
    for comp in ambiguous:
        opts = _component_options(comp, base)
        complete = len(comp) == len({i for i, _ in comp}) * len({j for _, j in comp})
        costs = [sum(edge_cost(e) for e in o) + (0 if complete else crossings(o)) for o in opts]
        order = sorted(range(len(opts)), key=costs.__getitem__)
        options.append([opts[k] for k in order])
        unary.append([costs[k] for k in order])
    if len(options) == 1:
        return sorted(chosen + list(options[0][0]))
    decided = [c for c in range(len(options)) if len(options[c]) == 1]
    open_ = [c for c in range(len(options)) if len(options[c]) > 1]
    for c in decided:
        chosen.extend(options[c][0])
    if not open_:
        return sorted(chosen)
    settled = [e for c in decided for e in options[c][0]]
    u2 = [[unary[c][k] + _cross_between(options[c][k], settled) for k in range(len(options[c]))]
          for c in open_] if settled else [unary[c] for c in open_]
    opts2 = []
    for idx, c in enumerate(open_):
        order = sorted(range(len(options[c])), key=u2[idx].__getitem__)
        opts2.append([options[c][k] for k in order])
        u2[idx] = [u2[idx][k] for k in order]
    n = len(open_)

    # components that lie apart on both sides cross the same way whatever their options: skip them
    spans = []
    for opts in opts2:
        hs = [i for o in opts for i, _ in o]
        rs = [j for o in opts for _, j in o]
        spans.append((min(hs), max(hs), min(rs), max(rs)))

    def interacts(p: int, c: int) -> bool:
        a, b = spans[p], spans[c]
        return not ((a[1] < b[0] or b[1] < a[0]) and (a[3] < b[2] or b[3] < a[2]))

    def between(p: int, c: int) -> np.ndarray:
        """Crossings between each option of component p (rows) and of component c (columns)."""
        A, B = opts2[p], opts2[c]
        if len(A) * len(B) * len(A[0]) * len(B[0]) > 256:
            a, b = np.array(A), np.array(B)  # (options, edges, 2)
            di = a[:, None, :, None, 0] - b[None, :, None, :, 0]
            dj = a[:, None, :, None, 1] - b[None, :, None, :, 1]
            return ((di * dj) < 0).sum(axis=(2, 3)).astype(np.float64)
        return np.array([[_cross_between(x, y) for y in B] for x in A], dtype=np.float64)

    forward = [[(c, between(p, c)) for c in range(p + 1, n) if interacts(p, c)] for p in range(n)]
    # acc[c][k]: cost of option k of component c given the components picked so far; the sum of
    # the remaining components' minima is a lower bound (their mutual crossings are >= 0)
    # one row per component, padded with +inf, so that every component's minimum is one call
    width = max(len(u) for u in u2)
    acc = np.full((n, width), np.inf)
    for c in range(n):
        acc[c, :len(u2[c])] = u2[c]
    best_cost = [float("inf")]
    best_pick: list[list[int]] = [[]]  # empty until the first (greedy) descent completes
    nodes = [0]
    pick: list[int] = []

    def dfs(c: int, cost: float) -> None:
        if c == n:
            if cost < best_cost[0]:
                best_cost[0] = cost
                best_pick[0] = pick[:]
            return
        mins = acc.min(axis=1)
        rest = float(mins[c + 1:].sum())  # lower bound of the components after c
        if cost + float(mins[c]) + rest >= best_cost[0] or (nodes[0] > NODE_CAP and best_pick[0]):
            return
        here = acc[c, :len(opts2[c])].tolist()  # acc[c] changes only above this level
        for k in sorted(range(len(here)), key=here.__getitem__):
            if cost + here[k] + rest >= best_cost[0]:
                break  # options are in increasing cost and the rest of the bound does not change
            nodes[0] += 1
            for r, m in forward[c]:
                acc[r, :m.shape[1]] += m[k]
            pick.append(k)
            dfs(c + 1, cost + here[k])
            pick.pop()
            for r, m in forward[c]:
                acc[r, :m.shape[1]] -= m[k]

    dfs(0, 0.0)
    for idx, k in enumerate(best_pick[0]):
        chosen.extend(opts2[idx][k])
    return sorted(chosen)


# ---- 1.5: the jar's objective, searched exactly ------------------------------------------------

def _dominated(best: tuple[int, int, int], score: tuple[int, int, int]) -> bool:
    """Whether ``score`` (weight, −chunks, −distance) can never overtake ``best`` when both states
    have the same future and ``score`` may save at most one chunk more than ``best``."""
    if best[0] != score[0]:
        return best[0] > score[0]
    gap = best[1] - score[1]  # chunks behind
    return gap > 1 or (gap == 1 and best[2] > score[2])  # ties kept: they decide the score


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
            states = dict(sorted(states.items(), key=lambda kv: kv[1][0], reverse=True)[:cap_j])
            exact = False
        new: dict[tuple[int, int], tuple[tuple[int, int, int], tuple]] = {}
        rel = relevant[j]
        cont = continues[j]
        f = fixed.get(j)
        tj = cls_r[j]
        for (used, last), (score, chain) in states.items():
            w, negc, negd = score
            if f is not None:
                i, mod = f
                c = 0 if last >= 0 and last == i - 1 else 1
                key = (used & rel, i if i in cont else -1)
                val = ((w + 2 * gains[mod], negc - c, negd - abs(j - i)), (chain, (i, j, mod)))
                old = new.get(key)
                if old is None or val[0] > old[0]:
                    new[key] = val
                continue
            # may this reference word go without an exact match? (else the maximum is lost)
            free_j = tj < 0 or after_incl[j] > (hmask[tj] & ~used).bit_count()
            acc = 0
            for i, mod in cands[j]:
                if used >> i & 1:
                    continue
                dist = abs(j - i)
                if gains[mod] == 0:
                    ti = cls_h[i]
                    if not free_j or (ti >= 0 and (hmask[ti] & ~used).bit_count() <= after_gt(ti, j)):
                        acc += dist
                        continue
                c = 0 if last >= 0 and last == i - 1 else 1
                key = ((used | (1 << i)) & rel, i if i in cont else -1)
                val = ((w + 2 * gains[mod], negc - c, negd - acc), (chain, (i, j, mod)))
                old = new.get(key)
                if old is None or val[0] > old[0]:
                    new[key] = val
                acc += dist
            if free_j:
                key = (used & rel, -1)
                val = ((w, negc, negd - acc), chain)
                old = new.get(key)
                if old is None or val[0] > old[0]:
                    new[key] = val
        if len(new) > 1:
            # dominance (exact): states with the same used words have the same future; the chunk
            # continuation word can save at most one chunk, so a state two chunks behind the best
            # of its group (or one behind without a shorter distance) can never win
            best: dict[int, tuple[int, int, int]] = {}
            for (used, _), (score, _) in new.items():
                b = best.get(used)
                if b is None or score > b:
                    best[used] = score
            new = {key: val for key, val in new.items()
                   if not _dominated(best[key[0]], val[0])}
        if len(new) > STATE_CAP:
            new = dict(sorted(new.items(), key=lambda kv: kv[1][0], reverse=True)[:STATE_CAP])
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
