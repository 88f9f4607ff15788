"""Variant 1.5 with the paraphrase module for many pairs at once, from candidate arrays: equal to
:func:`.paraphrase.align_phrase_segment` pair by pair (the candidates those of
:func:`.paraphrase.phrase_candidates`, the searches :func:`.align.phrases_batch.align_phrases_beam_many`'s;
tested equal: ``tests/test_meteor_paraphrase_batch.py``, and on WMT22 by ``benchmarks/meteor_align.py``).

The one-word candidates (:func:`.candidates_batch.sorted_candidates`) and the paraphrase matches
(:func:`.paraphrase_batch.paraphrase_match_arrays`) stay arrays: one stable sort on (pair, reference
position) puts each position's paraphrase matches after its one-word candidates, as the rule lists
them, and the beam is cut from the arrays (:func:`.align.phrases_batch_words.align_beam_arrays`). A
pair longer than the searches take gets its definite matches from lists, as the rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .align.phrases import Phrase, fixed_phrases

if TYPE_CHECKING:
    from .metric import METEOR


def phrase_candidate_arrays(metric: METEOR, pairs: Sequence[tuple[list[int], list[int]]]
                            ) -> tuple[np.ndarray, np.ndarray]:
    """Every candidate of the pairs (both sides non-empty) as (pair, row ``(j, j length, i, i length,
    module)``), by pair and reference position, each position's in the rule's order."""
    from .align.phrases_batch_words import word_rows
    from .candidates_batch import sorted_candidates
    from .matchers import paraphrase_module
    from .paraphrase_batch import paraphrase_match_arrays

    vocab = metric.vocabulary()
    w_pair, w_j, w_i, w_module = sorted_candidates(vocab, pairs)
    pair, rows = [w_pair], [word_rows(w_j, w_i, w_module)]
    m = paraphrase_module(metric.modules)
    if m is not None:
        key = vocab.keys[m]
        para = [n for n, (h, r) in enumerate(pairs) if h != r]
        q, j, rl, i, hl = paraphrase_match_arrays(metric.paraphrase_table(), [
            ([key[x] for x in pairs[n][0]], [key[y] for y in pairs[n][1]]) for n in para])
        pair.append(np.array(para, dtype=np.int64)[q])
        rows.append(np.column_stack((j, rl, i, hl, np.full(len(q), m, dtype=np.int64))).astype(np.int64))
    all_pair, all_rows = np.concatenate(pair), np.concatenate(rows)
    longest = max((len(r) for _, r in pairs), default=0) + 1
    order = np.argsort(all_pair * longest + all_rows[:, 0], kind="stable")  # (words first: stable)
    return all_pair[order], all_rows[order]


def align_phrase_segments_batch(metric: METEOR, pairs: Sequence[tuple[list[int], list[int]]]
                                ) -> list[tuple[list[Phrase], bool]]:
    """:func:`.paraphrase.align_phrase_segment` of every pair with the jar's beam (empty sides: no
    match)."""
    from .align.jar import JAR_WORDS
    from .align.phrases_batch_words import align_beam_arrays

    out: list[tuple[list[Phrase], bool]] = [([], False)] * len(pairs)
    where = [k for k, (h, r) in enumerate(pairs) if h and r]
    kept = [pairs[k] for k in where]
    if not kept:
        return out
    pair, rows = phrase_candidate_arrays(metric, kept)
    n_hyp = np.array([len(h) for h, _ in kept], dtype=np.int64)
    n_ref = np.array([len(r) for _, r in kept], dtype=np.int64)
    long = np.maximum(n_hyp, n_ref) > JAR_WORDS
    for n in np.flatnonzero(long).tolist():  # (the rule: the definite matches only)
        cands: list[list[Phrase]] = [[] for _ in range(int(n_ref[n]))]
        for row in rows[pair == n].tolist():
            cands[row[0]].append(tuple(row))
        out[where[n]] = sorted(fixed_phrases(int(n_hyp[n]), int(n_ref[n]), cands).values()), True
    searched = np.flatnonzero(~long)
    compact = np.cumsum(~long) - 1
    inside = ~long[pair]
    assert metric.beam_width is not None
    found = align_beam_arrays(n_hyp[searched], n_ref[searched], compact[pair[inside]], rows[inside],
                              metric.jar_align_weights(), metric.beam_width)
    for n, alignment in zip(searched.tolist(), found):
        out[where[n]] = alignment, False
    return out


__all__ = ["align_phrase_segments_batch", "phrase_candidate_arrays"]
