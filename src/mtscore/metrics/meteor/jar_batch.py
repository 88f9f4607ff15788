"""Variant 1.5 without the paraphrase module for many pairs at once: equal to
:func:`.segments.align_jar_segment` pair by pair (tested equal on random texts and on WMT22:
``tests/test_meteor_jar_batch.py``, ``benchmarks/meteor_align.py --mode jar beam``).

Per pair the rule checks the work budget (past it: the staged greedy fallback, kept here pair by
pair), lists the one-word candidates (:func:`.segments.jar_candidates`) and searches them. Here the
candidates of every pair within its budget are listed at once (:mod:`.candidates_batch`), as
one-word phrase candidates ``(j, 1, i, 1, module)``; then

* with the jar's beam, the pairs are searched together from the candidates as arrays
  (:mod:`.align.phrases_batch_words`, equal to :mod:`.align.phrases_batch` of the same candidates as
  phrase lists; with one-word candidates the phrase beam is :func:`.align.jar.align_jar_beam`,
  tested: ``tests/test_meteor_paraphrase.py``);
* with the exact search, the pairs are searched together too (:mod:`.align.jar_batch`, equal to
  :func:`.align.jar.align_jar` pair by pair), from the candidates as arrays (no Python object per
  candidate: :mod:`.align.jar_batch_setup`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .align.phrases import Phrase
    from .metric import METEOR

Match = tuple[int, int, int]


def _word_matches(alignment: Sequence[Phrase]) -> list[Match]:
    """One-word phrase matches ``(j, 1, i, 1, module)`` as sorted ``(i, j, module)``."""
    return sorted((i, j, k) for j, _, i, _, k in alignment)


def align_jar_segments(metric: METEOR, pairs: Sequence[tuple[list[int], list[int]]]
                       ) -> list[tuple[list[Match], bool]]:
    """:func:`.segments.align_jar_segment` of every pair (an empty side: no match, no fallback)."""
    from .segments import align_jar_segment, jar_within_budget

    out: list[tuple[list[Match], bool]] = [([], False)] * len(pairs)
    where: list[int] = []
    for k, (h, r) in enumerate(pairs):
        if not h or not r:
            continue
        if jar_within_budget(metric, h, r):
            where.append(k)
        else:  # the fallback, as the rule
            out[k] = align_jar_segment(metric, h, r)
    kept = [pairs[k] for k in where]
    if not kept:
        return out
    weights = metric.jar_align_weights()
    n_hyp = np.array([len(h) for h, _ in kept], dtype=np.int64)
    n_ref = np.array([len(r) for _, r in kept], dtype=np.int64)
    from .candidates_batch import sorted_candidates  # (each search's modules imported where it runs)

    cands = sorted_candidates(metric.vocabulary(), kept)
    if metric.beam_width is not None:
        from .align.phrases_batch_words import align_word_beam_many

        found = align_word_beam_many(n_hyp, n_ref, *cands, weights, metric.beam_width)
        for k, phrases in zip(where, found):
            out[k] = _word_matches(phrases), False
        return out
    from .align.jar_batch import align_jar_flat
    from .align.jar_batch_setup import FlatCandidates

    flat = FlatCandidates(n_hyp, n_ref, *cands)
    found_exact = align_jar_flat(flat, weights)
    for k, (matches, exact) in zip(where, found_exact):
        if not exact:
            metric.bounded_searches += 1
        out[k] = matches, False
    return out
