"""The jar's beam over candidates given as arrays, for many segments at once: equal to
:func:`.phrases_batch.align_phrases_beam_many` of the same candidates as phrase lists (tested:
``tests/test_meteor_jar_batch.py``, ``tests/test_meteor_paraphrase_batch.py``), so to
:func:`.phrases.align_phrases_beam` (and, with one-word candidates, :func:`.jar.align_jar_beam`)
segment by segment.

Variant 1.5 lists its one-word candidates as arrays (pair, j, i, module) in the rule's order
(:func:`..candidates_batch.sorted_candidates`), the paraphrase module its phrase matches too
(:func:`..paraphrase_batch.paraphrase_match_arrays`); here each batch's
:class:`.phrases_batch._Batch` is cut straight from those arrays, with no Python tuple per
candidate (only the chosen matches become tuples).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ....ragged import ranges
from .phrases import Phrase
from .phrases_batch import BATCH_WORK, _Batch, _search, batch_parts


def align_beam_arrays(n_hyp: np.ndarray, n_ref: np.ndarray, pair: np.ndarray, arr: np.ndarray,
                      align_weights: Sequence[float], beam: int = 40, batch: int = 512,
                      work: int = BATCH_WORK) -> list[list[Phrase]]:
    """Per pair (lengths ``n_hyp``, ``n_ref``), the beam's matches over the candidates ``arr``
    (rows ``(j, j length, i, i length, module)`` of pair ``pair``; sorted by pair, then reference
    position, then the rule's order); batched as :func:`.phrases_batch.align_phrases_beam_many`."""
    n = len(n_ref)
    per_pair = np.bincount(pair, minlength=n)[:n]
    first = np.cumsum(per_pair) - per_pair
    out: list[list[Phrase]] = [[] for _ in range(n)]
    for part in batch_parts(n_hyp, n_ref, per_pair, batch, work):
        rows = ranges(first[part], per_pair[part])
        local = np.repeat(np.arange(len(part), dtype=np.int64), per_pair[part])
        sub_ref = n_ref[part]
        offset = np.cumsum(sub_ref) - sub_ref
        counts = np.bincount(offset[local] + arr[rows, 0], minlength=int(sub_ref.sum()))
        batch_arr = np.ascontiguousarray(arr[rows], dtype=np.int64)
        for k, alignment in zip(part.tolist(), _search(_Batch(n_hyp[part], sub_ref, counts, batch_arr,
                                                              align_weights), beam)):
            out[k] = alignment
    return out


def word_rows(j: np.ndarray, i: np.ndarray, module: np.ndarray) -> np.ndarray:
    """One-word candidates as rows ``(j, 1, i, 1, module)``."""
    ones = np.ones(len(j), dtype=np.int64)
    return np.column_stack((j, ones, i, ones, module)).astype(np.int64)


def align_word_beam_many(n_hyp: np.ndarray, n_ref: np.ndarray, pair: np.ndarray, j: np.ndarray,
                         i: np.ndarray, module: np.ndarray, align_weights: Sequence[float],
                         beam: int = 40, batch: int = 512, work: int = BATCH_WORK) -> list[list[Phrase]]:
    """:func:`align_beam_arrays` of one-word candidates ``(pair, j, i, module)``."""
    return align_beam_arrays(n_hyp, n_ref, pair, word_rows(j, i, module), align_weights, beam, batch, work)


__all__ = ["align_beam_arrays", "align_word_beam_many", "word_rows"]
