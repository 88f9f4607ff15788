"""The statistics rows of every segment of a corpus alignment at once, with numpy: a speed path that
equals :meth:`.metric.METEOR.statistics_row` segment by segment (``tests/test_meteor_rows.py``).

:func:`chunk_counts` counts chunks (§2.3) as :func:`.score.count_chunks` does: in hypothesis order, a
match starts a new chunk unless it follows the segment's previous match on both sides.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .align.arrays import stable_order, unique_inverse
from .align.corpus import CorpusMatches
from .score import jar_chunks

if TYPE_CHECKING:
    from .metric import METEOR


def chunk_counts(segment: np.ndarray, hyp_pos: np.ndarray, ref_pos: np.ndarray, segments: int
                 ) -> np.ndarray:
    """Per segment, :func:`.score.count_chunks` of its matches (arrays sorted by segment, then
    hypothesis position)."""
    starts = np.ones(len(segment), dtype=bool)
    starts[1:] = ((segment[1:] != segment[:-1]) | (hyp_pos[1:] != hyp_pos[:-1] + 1)
                  | (ref_pos[1:] != ref_pos[:-1] + 1))
    return np.bincount(segment[starts], minlength=segments)


def _function_word_flags(metric: METEOR, ids: np.ndarray, function_words: frozenset[str]) -> np.ndarray:
    """Whether each word id of ``ids`` is a function word (each distinct word looked up once)."""
    distinct, inverse = unique_inverse(ids)
    words = metric.vocabulary().words
    flags = np.fromiter((words[x] in function_words for x in distinct.tolist()), bool, len(distinct))
    return flags[inverse]


def statistics_rows(metric: METEOR, matches: CorpusMatches,
                    function_words: frozenset[str] | None) -> np.ndarray:
    """Every segment's :meth:`.metric.METEOR.statistics_row` (one row per segment, int64), from the
    alignments of :func:`.align.even_class_stages`; a segment without reference gets the row of an
    empty one."""
    t, n_seg, n_modules = matches.tokens, matches.tokens.segments, len(metric.modules)
    order = stable_order(matches.hyp_tok)  # by segment, then hypothesis position
    hyp_tok, ref_tok, stage = matches.hyp_tok[order], matches.ref_tok[order], matches.stage[order]
    segment = matches.segment[order]
    hyp_len, ref_len = t.lengths()
    m = np.bincount(segment, minlength=n_seg)
    chunks = chunk_counts(segment, t.hyp_pos[hyp_tok], t.ref_pos[ref_tok], n_seg)
    if metric.variant == "1.5":
        chunks = jar_chunks(chunks, m, hyp_len, ref_len)
    module = segment * n_modules + stage
    per = np.bincount(module, minlength=n_seg * n_modules).reshape(n_seg, n_modules)
    columns = [m[:, None], hyp_len[:, None], ref_len[:, None], chunks[:, None], per]
    if metric.params.delta is not None:
        assert function_words is not None
        flags = _function_word_flags(metric, np.concatenate([t.hyp_ids, t.ref_ids]), function_words)
        hyp_fw, ref_fw = flags[:len(t.hyp_ids)], flags[len(t.hyp_ids):]
        columns += [np.bincount(t.hyp_seg, weights=hyp_fw, minlength=n_seg)[:, None],
                    np.bincount(t.ref_seg, weights=ref_fw, minlength=n_seg)[:, None],
                    np.bincount(module, weights=hyp_fw[hyp_tok], minlength=n_seg * n_modules
                                ).reshape(n_seg, n_modules),
                    np.bincount(module, weights=ref_fw[ref_tok], minlength=n_seg * n_modules
                                ).reshape(n_seg, n_modules)]
    return np.hstack(columns).astype(np.int64)
