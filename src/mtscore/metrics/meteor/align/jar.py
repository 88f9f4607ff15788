"""The METEOR 1.5 jar's aligner (``edu.cmu.meteor.aligner.Aligner``; Denkowski & Lavie 2014), exact.

Every module proposes candidates at once (non-exact modules only for different surface forms; a
segment identical to its reference uses the first module only). A candidate that is the only one for
both its words is fixed. The rest is chosen by maximising the aligner's weighted match count (weights
1 for exact and 0.5 for the other modules, accumulated in a Java ``int``, so each non-exact match adds
0 — the jar's truncation, reproduced), then fewest chunks, then the jar's distance term (see
:func:`align_jar`). The jar searches this with a beam of 40 (:func:`align_jar_beam`, step for step);
:func:`align_jar` searches it exactly with a dynamic program over reference positions whose state is
the set of still-relevant used hypothesis words and whether the previous reference word was matched
(and to what); steps that would lose an exact match and states dominated by another with the same used
words are dropped (both exact). If the states explode, the program keeps the best ``STATE_CAP`` per
position (fewer, down to 8, where one reference word has very many candidates: ``WORK_CAP``) — a beam
again, but after exact pruning and merging.

Work budget (per segment, checked by the caller before any candidate list is built:
:func:`within_budget`): at most ``JAR_WORDS`` words a side, and at most ``JAR_PAIRS`` candidate pairs
(exact search) or ``BEAM_WORK`` = beam × (pairs + reference words) (the jar's beam). Past it the
segment is aligned by the bounded fallback, :func:`.fallback.greedy_stages`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from heapq import nlargest
from operator import itemgetter
from typing import Any

#: most dynamic-programming states per reference position in the exact search
STATE_CAP = 100
#: most (state, candidate) expansions per reference position (long runs of one repeated word): the
#: states are cut to WORK_CAP // candidates, at least 8
WORK_CAP = 3000
#: most words a side of a segment the 1.5 searches align (WMT22's longest segment: 250)
JAR_WORDS = 1000
#: most candidate pairs of a segment the exact search takes
JAR_PAIRS = 50_000
#: most beam × (candidate pairs + reference words) of a segment the beam search takes
BEAM_WORK = 2_000_000

Candidates = Sequence[Sequence[tuple[int, int]]]
Match = tuple[int, int, int]
Score = tuple[int, int, int]
State = tuple[int, int]


def within_budget(n_hyp: int, n_ref: int, pairs: int, beam: int | None) -> bool:
    """Whether a segment's 1.5 search is within its work budget (see the module doc)."""
    if max(n_hyp, n_ref) > JAR_WORDS:
        return False
    return pairs <= JAR_PAIRS if beam is None else beam * (pairs + n_ref) <= BEAM_WORK


def fixed_candidates(n_hyp: int, cands: Candidates) -> dict[int, tuple[int, int]]:
    """Reference position → its candidate, where that candidate is the only one of both its words."""
    per_hyp = [0] * n_hyp
    for cs in cands:
        for i, _ in cs:
            per_hyp[i] += 1
    return {j: cs[0] for j, cs in enumerate(cands) if len(cs) == 1 and per_hyp[cs[0][0]] == 1}


def chain_matches(chain: Any) -> list[Any]:
    """The matches of a search path's chain ``(parent chain, match)`` (``()`` ends it), sorted."""
    out = []
    while chain:
        chain, m = chain
        out.append(m)
    out.sort()
    return out


#: the jar's order of partial paths (``PARTIAL_COMPARE_TOTAL``) on the beam searches' path lists,
#: ``[-weighted matches, chunks, distance, last match end or -1, ..., chain]``: ascending
BEAM_ORDER = itemgetter(0, 1, 2)


def best_final_path(paths: list[list[Any]], beam: int) -> list[Any]:
    """The beam searches' last step (``Aligner.resolve`` after the last reference word): the first
    ``beam`` paths in the jar's order (a stable sort, as Java's) close their open chunk, and the
    first of them in that order again is the alignment."""
    paths.sort(key=BEAM_ORDER)
    kept = paths[:beam]
    for path in kept:
        if path[3] != -1:
            path[1] += 1
    kept.sort(key=BEAM_ORDER)
    return kept[0]


@dataclass
class _Problem:
    """What the exact search precomputes: fixed candidates, the hypothesis words still wanted after
    each reference position (bit masks), the classes of exact candidates (complete bipartite blocks
    of identical words), and the words whose successor could continue a chunk at the next position."""

    gains: list[int]
    fixed: dict[int, tuple[int, int]]
    relevant: list[int]
    class_of_hyp: list[int]
    class_of_ref: list[int]
    class_mask: list[int]
    class_refs: list[list[int]]
    refs_from: list[int]
    continues: list[set[int]]

    @classmethod
    def of(cls, n_hyp: int, n_ref: int, cands: Candidates, weights: Sequence[float]) -> _Problem:
        gains = [int(w) for w in weights]  # int(M + w) - M for an int M and w >= 0
        fixed = fixed_candidates(n_hyp, cands)
        relevant = [0] * (n_ref + 1)
        for j in range(n_ref - 2, -1, -1):
            mask = relevant[j + 1]
            if j + 1 not in fixed:
                for i, _ in cands[j + 1]:
                    mask |= 1 << i
            relevant[j] = mask
        class_of_hyp, class_of_ref = [-1] * n_hyp, [-1] * n_ref
        class_mask: list[int] = []
        class_refs: list[list[int]] = []
        class_by_words: dict[frozenset[int], int] = {}
        for j in range(n_ref):
            words = frozenset(i for i, mod in cands[j] if gains[mod] > 0) if j not in fixed else None
            if not words:
                continue
            t = class_by_words.get(words)
            if t is None:
                t = class_by_words[words] = len(class_mask)
                class_mask.append(sum(1 << i for i in words))
                for i in words:
                    class_of_hyp[i] = t
                class_refs.append([])
            class_of_ref[j] = t
            class_refs[t].append(j)
        refs_from = [0] * n_ref  # reference words of j's class at positions >= j
        for refs in class_refs:
            for n, j in enumerate(refs):
                refs_from[j] = len(refs) - n
        continues: list[set[int]] = [set() for _ in range(n_ref + 1)]
        for j in range(n_ref - 1):
            following = [fixed[j + 1]] if j + 1 in fixed else cands[j + 1]
            continues[j] = {i - 1 for i, _ in following if i > 0}
        return cls(gains, fixed, relevant, class_of_hyp, class_of_ref, class_mask, class_refs,
                   refs_from, continues)

    def refs_after(self, t: int, j: int) -> int:
        return sum(1 for r in self.class_refs[t] if r > j)


def _keep(new: dict[State, tuple[Score, Any]], key: State, value: Score, chain: Any) -> None:
    old = new.get(key)
    if old is None or value > old[0]:
        new[key] = (value, chain)


def _fixed_step(p: _Problem, j: int, states: dict[State, tuple[Score, Any]]
                ) -> dict[State, tuple[Score, Any]]:
    """Every state extended by reference word j's fixed match."""
    new: dict[State, tuple[Score, Any]] = {}
    i, mod = p.fixed[j]
    gain, dist, prev = 2 * p.gains[mod], abs(j - i), i - 1
    to, match, relevant = (i if i in p.continues[j] else -1), (i, j, mod), p.relevant[j]
    for (used, last), (score, chain) in states.items():
        value = (score[0] + gain, score[1] - (0 if last >= 0 and last == prev else 1), score[2] - dist)
        key = (used & relevant, to)
        old = new.get(key)  # (the better value per state: _keep, inline in this hot loop)
        if old is None or value > old[0]:
            new[key] = (value, (chain, match))
    return new


def _open_step(p: _Problem, j: int, cands: Candidates, states: dict[State, tuple[Score, Any]]
               ) -> dict[State, tuple[Score, Any]]:
    """Every state extended by each usable candidate of reference word j, and by skipping it."""
    new: dict[State, tuple[Score, Any]] = {}
    relevant, cont = p.relevant[j], p.continues[j]
    tj = p.class_of_ref[j]
    class_j, left_j = (p.class_mask[tj], p.refs_from[j]) if tj >= 0 else (0, 0)
    # per candidate, what does not depend on the state: bit, distance, doubled gain, the hyp word a
    # chunk would continue from, the next state's continuation word, and for a non-exact match of a
    # word of an exact class: that class's hypothesis words and its reference words left
    row = []
    for i, mod in cands[j]:
        ti = p.class_of_hyp[i] if p.gains[mod] == 0 else -2
        row.append((1 << i, abs(j - i), 2 * p.gains[mod], i - 1, i if i in cont else -1, ti,
                    p.class_mask[ti] if ti >= 0 else 0, p.refs_after(ti, j) if ti >= 0 else 0,
                    (i, j, mod)))
    for (used, last), (score, chain) in states.items():
        weight, neg_chunks, neg_dist = score
        # may this reference word go without an exact match? (else the maximum is lost)
        free_j = tj < 0 or left_j > (class_j & ~used).bit_count()
        passed = 0  # the jar's distance of the candidates listed before the chosen one
        for bit, dist, gain, prev, to, ti, cmask, left, match in row:
            if used & bit:
                continue
            if ti != -2 and (not free_j or (ti >= 0 and (cmask & ~used).bit_count() <= left)):
                passed += dist  # a zero-gain match that would lose an exact one
                continue
            value = (weight + gain, neg_chunks - (0 if last >= 0 and last == prev else 1),
                     neg_dist - passed)
            key = ((used | bit) & relevant, to)
            old = new.get(key)  # (_keep, inline in this hot loop)
            if old is None or value > old[0]:
                new[key] = (value, (chain, match))
            passed += dist
        if free_j:
            _keep(new, (used & relevant, -1), (weight, neg_chunks, neg_dist - passed), chain)
    return new


def _undominated(new: dict[State, tuple[Score, Any]]) -> dict[State, tuple[Score, Any]]:
    """Dominance (exact): states with the same used words have the same future; the chunk
    continuation word can save at most one chunk, so a state two chunks behind the best of its group
    (or one behind without a shorter distance) can never win (ties are kept: they decide the score)."""
    best: dict[int, Score] = {}
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
    return kept


def _state_score(item: tuple[State, tuple[Score, Any]]) -> Score:
    return item[1][0]


def align_jar(n_hyp: int, n_ref: int, cands: Candidates, align_weights: Sequence[float]
              ) -> tuple[list[Match], bool]:
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
    state is lost that could be optimal.
    """
    p = _Problem.of(n_hyp, n_ref, cands, align_weights)
    fixed_mask = 0
    for i, _ in p.fixed.values():
        fixed_mask |= 1 << i
    states: dict[State, tuple[Score, Any]] = {(fixed_mask, -1): ((0, 0, 0), ())}
    exact = True
    for j in range(n_ref):
        cap_j = max(8, WORK_CAP // max(len(cands[j]), 1))
        if len(states) > cap_j:
            states = dict(nlargest(cap_j, states.items(), key=_state_score))  # = sorted(...)[:cap_j]
            exact = False
        new = _fixed_step(p, j, states) if j in p.fixed else _open_step(p, j, cands, states)
        if len(new) > 1:
            new = _undominated(new)
        if len(new) > STATE_CAP:
            new = dict(nlargest(STATE_CAP, new.items(), key=_state_score))
            exact = False
        states = new
    if not states:
        return [], exact
    return chain_matches(max(states.values(), key=lambda v: v[0])[1]), exact


def align_jar_beam(n_hyp: int, n_ref: int, cands: Candidates, align_weights: Sequence[float],
                   beam: int = 40) -> list[Match]:
    """The jar's own beam search (``Aligner.resolve``), step for step, for checking against the jar.

    Left to right over reference words; at each the partial paths are sorted (stable) by
    ``PARTIAL_COMPARE_TOTAL`` — more weighted matches, then fewer *closed* chunks, then smaller
    distance — and the first ``beam`` are extended by every unused candidate and by a skip. The
    jar's quirks are kept: ``int`` accumulation of the weighted matches, and the distance of an
    extension added to the parent path (so to the skip and to later siblings). Returns sorted
    (i, j, module) triples.
    """
    fixed = fixed_candidates(n_hyp, cands)
    used0 = 0
    for i, _ in fixed.values():
        used0 |= 1 << i
    # path: [-doubled weighted matches, chunks, distance, last match end (i + 1) or -1, used, chain]
    # (the weight negated: the jar's order is the ascending order of the first three, BEAM_ORDER)
    paths: list[list[Any]] = [[0, 0, 0, -1, used0, ()]]
    for current in range(n_ref):
        paths.sort(key=BEAM_ORDER)  # stable, as Java's Collections.sort
        following: list[list[Any]] = []
        for path in paths[:beam]:
            f = fixed.get(current)
            if f is not None:
                i, mod = f
                path[0] = -2 * int(-path[0] // 2 + align_weights[mod])
                if path[3] != -1 and i != path[3]:
                    path[1] += 1
                path[3] = i + 1
                path[2] += abs(current - i)
                path[5] = (path[5], (i, current, mod))
                following.append(path)
                continue
            for i, mod in cands[current]:
                if path[4] >> i & 1:
                    continue
                chunks = path[1] + (1 if path[3] != -1 and i != path[3] else 0)
                following.append([-2 * int(-path[0] // 2 + align_weights[mod]), chunks, path[2], i + 1,
                                  path[4] | (1 << i), (path[5], (i, current, mod))])
                path[2] += abs(current - i)  # the jar adds it to the parent path
            if path[3] != -1:
                path[1] += 1
                path[3] = -1
            following.append(path)
        paths = following
    return chain_matches(best_final_path(paths, beam)[5])
