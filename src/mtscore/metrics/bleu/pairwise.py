"""Sentence BLEU of every (hypothesis, reference) pair: a fast path equal to ``BLEU.sentence_score``.

The rule is BLEU's own (:mod:`.bleu`): a pair's row of statistics is ``hyp_len, ref_len,
match_1..N, total_1..N`` (§2.1 clipped matches against the one reference, §2.2.2 its length) and
its score is ``BLEU.compute_many`` of that row — every smoothing and effective order as the metric
has them. Here each string is tokenized once (:func:`~mtscore.text.span_encoder.make_encoder`) and
its n-grams numbered once (:class:`~.ngrams.NgramSpace`); only the clipped matches are made per
pair, for all pairs of a group at once (:func:`.pairwise_counts.pair_matches`).

Reference aggregation (``aggregate=True``, Vamvas & Sennrich 2024): each hypothesis is scored once
against the mean of its group's reference statistics — n-gram counts r̄_g (matches min(h_g, r̄_g))
and the mean reference length for the brevity penalty. It is not the mean of the pairwise scores
(BLEU is not linear in its statistics) but costs one row per hypothesis instead of one per pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ...text.span_encoder import make_encoder
from ..ngrams import Encoded
from ..pairwise_counts import Counts, aggregate_matches, order_counts, pair_index, pair_matches

if TYPE_CHECKING:  # BLEU.pair_kernel imports this module
    from .metric import BLEU


def ngram_counts(metric: BLEU, hyps: Sequence[str], refs: Sequence[str], same: bool
                 ) -> tuple[np.ndarray, np.ndarray, list[tuple[Counts, Counts]]]:
    """Token counts of every hypothesis and reference, and per order 1..N their n-gram counts
    (:func:`.pairwise_counts.order_counts`). ``same``: the hypotheses are the references (MBR)."""
    encoder = make_encoder(metric.tokenizer, metric.lowercase)
    ref_ids, ref_len = encoder.encode(list(refs), grow=True)
    hyp_ids, hyp_len = (ref_ids, ref_len) if same else encoder.encode(list(hyps), grow=False)
    tables = order_counts(Encoded(hyp_ids, hyp_len), Encoded(ref_ids, ref_len), encoder.size,
                          metric.max_order, same)
    return hyp_len, ref_len, tables


def pair_scores(metric: BLEU, hyps: Sequence[str], refs: Sequence[str], hyp_bounds: np.ndarray,
                ref_bounds: np.ndarray, same: bool) -> np.ndarray:
    """Sentence BLEU of every pair of every group, flat (:func:`.pairwise_counts.pair_offsets`)."""
    hyp_len, ref_len, tables = ngram_counts(metric, hyps, refs, same)
    h, r = pair_index(hyp_bounds, ref_bounds)
    matches = [pair_matches(hc, rc, hyp_bounds, ref_bounds) for hc, rc in tables]
    return metric.compute_many(_rows(metric, hyp_len[h], ref_len[r].astype(np.float64), matches))


def aggregate_scores(metric: BLEU, hyps: Sequence[str], refs: Sequence[str], hyp_bounds: np.ndarray,
                     ref_bounds: np.ndarray, same: bool) -> np.ndarray:
    """BLEU of every hypothesis against its group's aggregated references (one score per hypothesis)."""
    hyp_len, ref_len, tables = ngram_counts(metric, hyps, refs, same)
    group = np.searchsorted(hyp_bounds, np.arange(len(hyp_len)), side="right") - 1
    mean_ref = np.add.reduceat(ref_len.astype(np.float64), ref_bounds[:-1]) / np.diff(ref_bounds)
    matches = [aggregate_matches(hc, rc, hyp_bounds, ref_bounds, len(hyp_len)) for hc, rc in tables]
    return metric.compute_many(_rows(metric, hyp_len, mean_ref[group], matches))


def _rows(metric: BLEU, hyp_len: np.ndarray, ref_len: np.ndarray, matches: list[np.ndarray]) -> np.ndarray:
    """BLEU's statistics rows: hyp_len, ref_len, match_1..N, total_1..N."""
    N = metric.max_order
    rows = np.empty((len(hyp_len), 2 + 2 * N), dtype=np.float64)
    rows[:, 0] = hyp_len
    rows[:, 1] = ref_len
    for n in range(1, N + 1):
        rows[:, 1 + n] = matches[n - 1]
        rows[:, 1 + N + n] = np.maximum(hyp_len - (n - 1), 0)
    return rows
