"""METEOR of every (hypothesis, reference) pair: equal to ``sentence_meteor`` pair by pair.

A pair's statistics are its alignment's (§2.2–2.3), which depend on both strings, so there is no
per-string shortcut for the pair step: every pair is one segment of ``METEOR.extract``, whose
corpus aligner settles the exact and stem stages of all pairs at once with numpy
(:func:`.meteor.align.even_class_stages`) and searches only the rest pair by pair. Each distinct
reference is tokenized and its words keyed once (``prepare_references``), then handed to every pair
that uses it; the score is ``METEOR.compute_many`` of the pair rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..pairwise_counts import pair_index
from .results import PreparedReferences

if TYPE_CHECKING:  # METEOR.pair_kernel imports this module
    from .metric import METEOR


def pair_scores(metric: METEOR, hyps: Sequence[str], refs: Sequence[str], hyp_bounds: np.ndarray,
                ref_bounds: np.ndarray, same: bool) -> np.ndarray:
    """METEOR of every pair of every group, flat (:func:`.pairwise_counts.pair_offsets`)."""
    h, r = pair_index(hyp_bounds, ref_bounds)
    if not len(h):
        return np.zeros(0)
    prepared = metric.prepare_references([list(refs)])
    pairs = PreparedReferences(prepared.settings, len(r), "1", [prepared.ids[0].take(r)],
                               prepared.vocabulary)
    stats = metric.extract([hyps[i] for i in h.tolist()], pairs)
    return np.asarray(metric.compute_many(stats.values), dtype=np.float64)
