"""NIST of every (hypothesis, reference) pair: a fast path equal to the pair scored alone.

A pairwise NIST entry is the NIST score of hypothesis i against reference j *as a corpus of its
own*: ``corpus_nist([h_i], [[r_j]])``, so its information weights (Doddington 2002, §2) come from
``r_j`` alone, whatever else is in the batch (:func:`.pairwise.pair_scores_by_extract`, the
definition, scores each pair alone for metrics with corpus-level weights).

The speed-up: the weights Info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn)) are ratios of counts,
and a reference corpus made of ``k`` copies of ``r_j`` multiplies every count (and the number of
reference words) by ``k``: the quotients of the same integers are the same floats, so the weights
are exactly those of ``r_j`` alone. So the hypotheses paired with one reference are extracted in
one call against ``k`` copies of it, one call per distinct reference instead of one per pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..pairwise_counts import pair_index

if TYPE_CHECKING:  # the metric imports this module (its pair kernel), not the reverse
    from .metric import NIST


def pair_scores(metric: NIST, hyps: Sequence[str], refs: Sequence[str], hyp_bounds: np.ndarray,
                ref_bounds: np.ndarray, same: bool) -> np.ndarray:
    """NIST of every pair of every group alone, flat (:func:`.pairwise_counts.pair_offsets`);
    equal to ``corpus_nist([hyps[i]], [[refs[j]]])`` pair by pair."""
    h, r = pair_index(np.asarray(hyp_bounds, dtype=np.int64), np.asarray(ref_bounds, dtype=np.int64))
    out = np.zeros(len(h), dtype=np.float64)
    if not len(h):
        return out
    order = np.argsort(r, kind="stable")
    starts = np.flatnonzero(np.r_[True, r[order][1:] != r[order][:-1]])
    for lo, hi in zip(starts.tolist(), [*starts[1:].tolist(), len(order)]):
        at = order[lo:hi]
        reference = refs[int(r[at[0]])]
        stats = metric.extract([hyps[i] for i in h[at].tolist()], [[reference] * len(at)])
        out[at] = metric.compute_many(stats.values)
    return out
