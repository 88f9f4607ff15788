"""The METEOR 1.5 jar's aligner over phrase matches (``edu.cmu.meteor.aligner.Aligner`` with the
paraphrase module; Denkowski & Lavie 2010, 2014).

A candidate is a :data:`Phrase` ``(ref start, ref length, hyp start, hyp length, module)``; the
paraphrase module proposes multi-word ones, the other modules one word a side. ``cands[j]`` lists the
candidates that start at reference word j, in the jar's order. The jar fixes a candidate that is the
only one starting at its reference word and whose every word (both sides) no other candidate covers
(:func:`fixed_phrases`). The rest is chosen left to right over reference positions, maximising
lexicographically (``Constants.PARTIAL_COMPARE_TOTAL``):

1. the aligner's weighted matches: a match adds ``int(M1 + hyp length × w) - M1`` and
   ``int(M2 + ref length × w) - M2`` (Java ``int`` accumulation; w = 1 exact, 0.5 other modules),
   i.e. ``floor(hyp length × w) + floor(ref length × w)``;
2. fewer chunks (a match continues a chunk when it starts on both sides where the previous one ended);
3. smaller *jar distance*: |ref start − hyp start| of a fixed match, and at an open position that of
   every available candidate listed *before* the chosen one (of all of them when the position is
   skipped) — the jar adds each extension's distance to the parent path.

:func:`align_phrases_beam` is the jar's beam search step for step; :func:`align_phrases` searches the
same objective exactly, by dynamic programming over reference positions (a match jumps to the
position after it) whose state is the set of still-relevant used hypothesis words and the hypothesis
end of the last match when the next position could continue its chunk; of states with the same used
words, those that cannot win are dropped (:func:`.jar._undominated`, exact), and so are steps that
would lose an exact match of a class no positive-gain phrase touches (:func:`_classes`, exact). With
one-word candidates both equal :func:`.jar.align_jar_beam` and :func:`.jar.align_jar` (tests).
"""

from __future__ import annotations

from collections.abc import Sequence
from heapq import nlargest
from typing import Any

from .jar import BEAM_ORDER, STATE_CAP, WORK_CAP, _undominated, best_final_path, chain_matches

#: (ref start, ref length, hyp start, hyp length, module)
Phrase = tuple[int, int, int, int, int]
PhraseCandidates = Sequence[Sequence[Phrase]]
Score = tuple[int, int, int]
State = tuple[int, int]


def phrase_gain(m: Phrase, weights: Sequence[float]) -> int:
    """The aligner's weighted matches of one match (Java ``int`` accumulation, both sides)."""
    w = weights[m[4]]
    return int(m[3] * w) + int(m[1] * w)


def span_mask(start: int, length: int) -> int:
    return ((1 << length) - 1) << start


def fixed_phrases(n_hyp: int, n_ref: int, cands: PhraseCandidates) -> dict[int, Phrase]:
    """Reference start → its candidate, where it is the only one starting there and every word it
    covers (both sides) is covered by no other candidate (the jar's definite matches)."""
    hyp_cover, ref_cover = [0] * n_hyp, [0] * n_ref
    for cs in cands:
        for j, rl, i, hl, _ in cs:
            for x in range(i, i + hl):
                hyp_cover[x] += 1
            for y in range(j, j + rl):
                ref_cover[y] += 1
    fixed = {}
    for j, cs in enumerate(cands):
        if len(cs) == 1:
            _, rl, i, hl, _ = m = cs[0]
            if all(ref_cover[y] == 1 for y in range(j, j + rl)) and \
                    all(hyp_cover[x] == 1 for x in range(i, i + hl)):
                fixed[j] = m
    return fixed


def align_phrases_beam(n_hyp: int, n_ref: int, cands: PhraseCandidates, align_weights: Sequence[float],
                       beam: int = 40) -> list[Phrase]:
    """The jar's beam search (``Aligner.resolve``) over phrase candidates, step for step: at each
    reference position the paths are sorted (stable) by more weighted matches, fewer *closed*
    chunks, smaller distance, and the first ``beam`` are extended. Returns the chosen matches
    sorted by reference start."""
    fixed = fixed_phrases(n_hyp, n_ref, cands)
    used_hyp = used_ref = 0
    for j, rl, i, hl, _ in fixed.values():
        used_hyp |= span_mask(i, hl)
        used_ref |= span_mask(j, rl)
    # path: [-weighted, chunks, distance, last hyp end or -1, next position, used hyp, used ref, chain]
    # (the weight negated: the jar's order is then the ascending order of the first three)
    paths: list[list[Any]] = [[0, 0, 0, -1, 0, used_hyp, used_ref, ()]]
    rows = [[(m, span_mask(m[2], m[3]), span_mask(m[0], m[1]), phrase_gain(m, align_weights),
              abs(m[0] - m[2]), m[2] + m[3], m[0] + m[1]) for m in cs] for cs in cands]
    for current in range(n_ref):
        paths.sort(key=BEAM_ORDER)  # stable, as Java's Collections.sort
        following: list[list[Any]] = []
        for path in paths[:beam]:
            if path[6] >> current & 1:  # inside a chosen match, or at a fixed one
                if current >= path[4]:
                    j, rl, i, hl, _ = m = fixed[current]
                    path[0] -= phrase_gain(m, align_weights)
                    if path[3] != -1 and i != path[3]:
                        path[1] += 1
                    path[4], path[3] = j + rl, i + hl
                    path[2] += abs(j - i)
                    path[7] = (path[7], m)
                following.append(path)
                continue
            neg, chunks, last, used_h, used_r, chain = path[0], path[1], path[3], path[5], path[6], path[7]
            for m, hm, rm, gain, dist, hyp_end, ref_end in rows[current]:
                if used_h & hm or used_r & rm:
                    continue
                following.append([neg - gain, chunks + (last != -1 and m[2] != last), path[2], hyp_end,
                                  ref_end, used_h | hm, used_r | rm, (chain, m)])
                path[2] += dist  # the jar adds it to the parent path
            if last != -1:
                path[1] += 1
                path[3] = -1
            path[4] += 1
            following.append(path)
        paths = following
    return chain_matches(best_final_path(paths, beam)[7])


def _relevant(n_ref: int, cands: PhraseCandidates, fixed: dict[int, Phrase]) -> list[int]:
    """Per position p: the hypothesis words of the open candidates starting at p or later."""
    relevant = [0] * (n_ref + 1)
    for p in range(n_ref - 1, -1, -1):
        mask = relevant[p + 1]
        if p not in fixed:
            for _, _, i, hl, _ in cands[p]:
                mask |= span_mask(i, hl)
        relevant[p] = mask
    return relevant


def _starts(n_ref: int, cands: PhraseCandidates, fixed: dict[int, Phrase]) -> list[set[int]]:
    """Per position p: the hypothesis starts of its candidates (a chunk can continue into them)."""
    out: list[set[int]] = [set() for _ in range(n_ref + 1)]
    for p in range(n_ref):
        out[p] = {fixed[p][2]} if p in fixed else {m[2] for m in cands[p]}
    return out


def _classes(n_hyp: int, n_ref: int, cands: PhraseCandidates, fixed: dict[int, Phrase],
             weights: Sequence[float]) -> tuple[list[int], list[int], list[int], list[list[int]]]:
    """The *safe* exact classes: complete bipartite blocks of identical words (the hypothesis words of
    a reference word's one-word candidates of positive gain) none of whose words any other
    candidate of positive gain covers. For them the one-word search's rule holds: the weighted
    total is maximal only if each gets min(#hyp, #ref) of its matches, so a step that makes this
    impossible is never optimal (:func:`.jar.align_jar`). Returns the class of each hypothesis and
    reference word (-1: none), each class's hypothesis words (a mask) and its reference words."""
    unsafe_h, unsafe_r = 0, 0
    for cs in cands:
        for m in cs:
            if (m[1] > 1 or m[3] > 1) and phrase_gain(m, weights) > 0:
                unsafe_h |= span_mask(m[2], m[3])
                unsafe_r |= span_mask(m[0], m[1])
    class_of_hyp, class_of_ref = [-1] * n_hyp, [-1] * n_ref
    masks: list[int] = []
    refs: list[list[int]] = []
    ok: list[bool] = []
    by_words: dict[int, int] = {}
    for j in range(n_ref):
        if j in fixed:
            continue
        mask = 0
        for m in cands[j]:
            if m[1] == m[3] == 1 and phrase_gain(m, weights) > 0:
                mask |= 1 << m[2]
        if not mask:
            continue
        t = by_words.get(mask)
        if t is None:
            t = by_words[mask] = len(masks)
            masks.append(mask)
            refs.append([])
            ok.append(True)
        refs[t].append(j)
        if mask & unsafe_h or unsafe_r >> j & 1:
            ok[t] = False
    keep = [t for t in range(len(masks)) if ok[t]]
    masks, refs = [masks[t] for t in keep], [refs[t] for t in keep]
    for t, (mask, js) in enumerate(zip(masks, refs)):
        for j in js:
            class_of_ref[j] = t
        for i in range(n_hyp):
            if mask >> i & 1:
                class_of_hyp[i] = t
    return class_of_hyp, class_of_ref, masks, refs


def _push(pending: dict[int, dict[State, tuple[Score, Any]]], pos: int, key: State, value: Score,
          chain: Any) -> None:
    states = pending.setdefault(pos, {})
    old = states.get(key)
    if old is None or value > old[0]:
        states[key] = (value, chain)


def _state_score(item: tuple[State, tuple[Score, Any]]) -> Score:
    return item[1][0]


def align_phrases(n_hyp: int, n_ref: int, cands: PhraseCandidates, align_weights: Sequence[float]
                  ) -> tuple[list[Phrase], bool]:
    """The jar's objective (module doc) maximised exactly over phrase candidates. Returns the
    matches sorted by reference start and whether the search was exact (False when a position held
    more than ``STATE_CAP`` undominated states and only the best were kept)."""
    fixed = fixed_phrases(n_hyp, n_ref, cands)
    relevant, starts = _relevant(n_ref, cands, fixed), _starts(n_ref, cands, fixed)
    class_of_hyp, class_of_ref, class_mask, class_refs = _classes(n_hyp, n_ref, cands, fixed, align_weights)
    used0 = 0
    for _, _, i, hl, _ in fixed.values():
        used0 |= span_mask(i, hl)
    pending: dict[int, dict[State, tuple[Score, Any]]] = {0: {(used0 & relevant[0], -1): ((0, 0, 0), ())}}
    exact = True
    for p in range(n_ref):
        states = pending.pop(p, None)
        if not states:
            continue
        if len(states) > 1:
            states = _undominated(states)
        cap = min(STATE_CAP, max(8, WORK_CAP // max(len(cands[p]), 1)))
        if len(states) > cap:
            states = dict(nlargest(cap, states.items(), key=_state_score))
            exact = False
        if p in fixed:
            j, rl, i, hl, _ = m = fixed[p]
            gain, dist, end = phrase_gain(m, align_weights), abs(j - i), j + rl
            for (used, last), (score, chain) in states.items():
                value = (score[0] + gain, score[1] - (0 if last == i else 1), score[2] - dist)
                to = i + hl if end <= n_ref - 1 and i + hl in starts[end] else -1
                _push(pending, end, (used & relevant[end], to), value, (chain, m))
            continue
        tj = class_of_ref[p]
        class_j = class_mask[tj] if tj >= 0 else 0
        left_j = len(class_refs[tj]) - class_refs[tj].index(p) if tj >= 0 else 0
        row = []
        for m in cands[p]:
            gain = phrase_gain(m, align_weights)
            ti = class_of_hyp[m[2]] if gain == 0 else -2  # (a zero-gain match is one word a side)
            row.append((m, span_mask(m[2], m[3]), gain, abs(m[0] - m[2]), m[0] + m[1], ti,
                        class_mask[ti] if ti >= 0 else 0,
                        sum(1 for r in class_refs[ti] if r > p) if ti >= 0 else 0))
        for (used, last), (score, chain) in states.items():
            weight, neg_chunks, neg_dist = score
            # may this reference word go without its exact match? (else the maximum is lost)
            free_j = tj < 0 or left_j > (class_j & ~used).bit_count()
            passed = 0
            for m, mask, gain, dist, end, ti, cmask, left in row:
                if used & mask:
                    continue
                if ti != -2 and (not free_j or (ti >= 0 and (cmask & ~used).bit_count() <= left)):
                    passed += dist  # a zero-gain match that would lose an exact one
                    continue
                i, hl = m[2], m[3]
                to = i + hl if end <= n_ref - 1 and i + hl in starts[end] else -1
                _push(pending, end, ((used | mask) & relevant[end], to),
                      (weight + gain, neg_chunks - (0 if last == i else 1), neg_dist - passed), (chain, m))
                passed += dist
            if free_j:
                _push(pending, p + 1, (used & relevant[p + 1], -1), (weight, neg_chunks, neg_dist - passed),
                      chain)
    final = pending.get(n_ref)
    if not final:
        return [], exact
    return chain_matches(max(final.values(), key=lambda v: v[0])[1]), exact
