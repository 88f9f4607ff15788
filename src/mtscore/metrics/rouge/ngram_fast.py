"""ROUGE-N counts of a whole corpus with numpy: the fast path of :func:`.rules.rouge_n` (tested
equal to it, segment by segment). The hits come from :func:`.token_join.ngram_hits`: every n-gram
of both sides sorted by its tokens with stable (radix) sorts, each (n-gram, segment) one run, and
Σ min(hypothesis count, reference count) over the runs of a segment.
"""

from __future__ import annotations

import numpy as np

from .token_join import ngram_hits


def rouge_n_counts(hyp_ids: np.ndarray, hyp_lengths: np.ndarray, ref_ids: np.ndarray,
                   ref_lengths: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hits, hypothesis n-grams, reference n-grams) per segment: :func:`.rules.rouge_n` for every
    segment at once."""
    hits = ngram_hits(ref_ids, ref_lengths, hyp_ids, hyp_lengths, n)
    return hits, np.maximum(hyp_lengths - n + 1, 0), np.maximum(ref_lengths - n + 1, 0)
