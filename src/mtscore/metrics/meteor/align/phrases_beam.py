"""The jar's beam search over phrase candidates, faster: equal to :func:`.phrases.align_phrases_beam`.

Same steps, same order, same result (tested equal on random candidates and on every segment of the
committed jar runs: ``tests/test_meteor_paraphrase.py``). What differs is only how a path is held
and updated: an immutable tuple ``(-weighted matches, chunks, distance, last hyp end or -1, used hyp
words, used ref words, chain)``, sorted by a C-level key (:data:`.jar.BEAM_ORDER`; Python's sort is
stable, as the jar's), and a path that a step does not change (inside a chosen match, or skipping a
word with no chunk open and no candidate) is the same object in the next list, not a copy. The
rule's "next reference position" is not kept: a path reaches a fixed match's first word exactly when
the step is at it (no chosen match can cover a fixed match's words), and is otherwise inside a match
exactly when the word is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .jar import BEAM_ORDER, chain_matches
from .phrases import Phrase, PhraseCandidates, fixed_phrases, phrase_gain, span_mask


def align_phrases_beam_fast(n_hyp: int, n_ref: int, cands: PhraseCandidates,
                            align_weights: Sequence[float], beam: int = 40) -> list[Phrase]:
    """:func:`.phrases.align_phrases_beam`, with paths as ordered tuples (module doc)."""
    fixed = fixed_phrases(n_hyp, n_ref, cands)
    used_hyp = used_ref = 0
    for j, rl, i, hl, _ in fixed.values():
        used_hyp |= span_mask(i, hl)
        used_ref |= span_mask(j, rl)
    rows = [[(m, span_mask(m[2], m[3]), span_mask(m[0], m[1]), phrase_gain(m, align_weights),
              abs(m[0] - m[2]), m[2], m[2] + m[3]) for m in cs] for cs in cands]
    paths: list[tuple[Any, ...]] = [(0, 0, 0, -1, used_hyp, used_ref, ())]
    for current in range(n_ref):
        paths.sort(key=BEAM_ORDER)  # stable, as Java's Collections.sort
        bit, row, at = 1 << current, rows[current], fixed.get(current)
        if at is not None:  # every path takes the fixed match
            j, rl, i, hl, _ = at
            gain, dist_at, to = phrase_gain(at, align_weights), abs(j - i), i + hl
            paths = [(neg - gain, chunks + (last != -1 and i != last), dist + dist_at, to, uh, ur,
                      (chain, at)) for neg, chunks, dist, last, uh, ur, chain in paths[:beam]]
            continue
        if not row:  # no candidate: every path inside a match or skipping (closing its chunk)
            paths = [p if p[3] == -1 or p[5] & bit else (p[0], p[1] + 1, p[2], -1, p[4], p[5], p[6])
                     for p in paths[:beam]]
            continue
        following: list[tuple[Any, ...]] = []
        append = following.append
        for path in paths[:beam]:
            neg, chunks, dist, last, uh, ur, chain = path
            if ur & bit:  # inside a chosen match
                append(path)
                continue
            grew = False
            for m, hm, rm, gain, d, i, hyp_end in row:
                if uh & hm or ur & rm:
                    continue
                append((neg - gain, chunks + (last != -1 and i != last), dist, hyp_end,
                        uh | hm, ur | rm, (chain, m)))
                dist += d  # the jar adds it to the parent path
                grew = True
            append((neg, chunks + 1, dist, -1, uh, ur, chain) if last != -1 else
                   (neg, chunks, dist, -1, uh, ur, chain) if grew else path)
        paths = following
    paths.sort(key=BEAM_ORDER)
    # the last step (.jar.best_final_path): the first `beam` close their open chunk, the best wins
    closed = [(neg, chunks + (last != -1), dist, k, chain)
              for k, (neg, chunks, dist, last, _, _, chain) in enumerate(paths[:beam])]
    return chain_matches(min(closed)[4])
