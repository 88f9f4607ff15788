"""chrF / chrF++ of every (hypothesis, reference) pair: a fast path equal to ``sentence_chrf``.

The rule is the metric's (:mod:`.rules`, :class:`.metric.CHRF`): a pair's row holds, per
order, (hypothesis n-grams, reference n-grams, matches Σ_g min(h_g, r_g)) — the hypothesis count 0
where the reference has no n-gram of that order (:func:`.rules.match_statistics`) — and its
score is ``CHRF.compute_many`` of that row. Here each string's characters (white space removed,
code points) and chrF++ words are encoded once (:mod:`.fast`), its n-grams of every order
numbered once (:class:`.ngrams.NgramSpace`), and only the matches are made per pair, for all pairs
of a source at once (:func:`.pairwise_counts.pair_matches`).

Reference aggregation (``aggregate=True``; Vamvas & Sennrich 2024, §3, ``fastchrf.aggregate_chrf``):
each hypothesis is scored once against the mean statistics of its source's references — per order
the mean n-gram counts r̄_g (matches min(h_g, r̄_g)) and the mean reference n-gram count. It is
neither the mean of the pairwise scores nor multi-reference chrF.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ...text.interning import TokenInterner
from ..ngrams import Encoded
from ..pairwise_counts import Counts, aggregate_matches, order_counts, pair_index, pair_matches
from . import fast as chrf_fast

if TYPE_CHECKING:  # CHRF.pair_kernel imports this module
    from .metric import CHRF

__all__ = ["aggregate_scores", "ngram_counts", "pair_scores"]

#: per order: (hypothesis lengths, reference lengths, order n, hypothesis counts, reference counts)
Order = tuple[np.ndarray, np.ndarray, int, Counts, Counts]


def ngram_counts(metric: CHRF, hyps: Sequence[str], refs: Sequence[str], same: bool) -> list[Order]:
    """Character orders 1..char_order, then word orders 1..word_order: each string's units and
    n-gram counts (n-grams no reference has left out of the hypotheses')."""
    hyp_lines = [metric.preprocess(h) for h in hyps]
    ref_lines = hyp_lines if same else [metric.preprocess(r) for r in refs]
    out: list[Order] = []
    if metric.char_order:
        ref_units = chrf_fast.encode_chars(ref_lines, metric.whitespace)
        hyp_units = ref_units if same else chrf_fast.encode_chars(hyp_lines, metric.whitespace)
        out += _orders(hyp_units, ref_units, chrf_fast.CODE_POINTS, metric.char_order, same)
    if metric.word_order:
        interner = TokenInterner()
        ref_units = chrf_fast.encode_words(interner, ref_lines, grow=True)
        hyp_units = ref_units if same else chrf_fast.encode_words(interner, hyp_lines, grow=False)
        out += _orders(hyp_units, ref_units, interner.size, metric.word_order, same)
    return out


def _orders(hyp: tuple[np.ndarray, np.ndarray], ref: tuple[np.ndarray, np.ndarray], vocab_size: int,
            max_order: int, same: bool) -> list[Order]:
    tables = order_counts(Encoded(*hyp), Encoded(*ref), vocab_size, max_order, same)
    return [(hyp[1], ref[1], n, hc, rc) for n, (hc, rc) in enumerate(tables, start=1)]


def pair_scores(metric: CHRF, hyps: Sequence[str], refs: Sequence[str], hyp_bounds: np.ndarray,
                ref_bounds: np.ndarray, same: bool) -> np.ndarray:
    """chrF of every pair of every group, flat (:func:`.pairwise_counts.pair_offsets`)."""
    h, r = pair_index(hyp_bounds, ref_bounds)
    rows = np.empty((len(h), len(metric.columns)), dtype=np.float64)
    for k, (hyp_len, ref_len, n, hc, rc) in enumerate(ngram_counts(metric, hyps, refs, same)):
        _order_columns(rows[:, 3 * k:3 * k + 3], hyp_len[h], _grams(ref_len, n)[r], n,
                       pair_matches(hc, rc, hyp_bounds, ref_bounds))
    return metric.compute_many(rows)


def aggregate_scores(metric: CHRF, hyps: Sequence[str], refs: Sequence[str], hyp_bounds: np.ndarray,
                     ref_bounds: np.ndarray, same: bool) -> np.ndarray:
    """chrF of every hypothesis against its group's aggregated references (one score each)."""
    orders = ngram_counts(metric, hyps, refs, same)
    S = len(hyps)
    group = np.searchsorted(hyp_bounds, np.arange(S), side="right") - 1
    n_refs = np.diff(ref_bounds).astype(np.float64)
    rows = np.empty((S, len(metric.columns)), dtype=np.float64)
    for k, (hyp_len, ref_len, n, hc, rc) in enumerate(orders):
        mean_ref = np.add.reduceat(_grams(ref_len, n), ref_bounds[:-1]) / n_refs
        _order_columns(rows[:, 3 * k:3 * k + 3], hyp_len, mean_ref[group], n,
                       aggregate_matches(hc, rc, hyp_bounds, ref_bounds, S))
    return metric.compute_many(rows)


def _grams(units: np.ndarray, n: int) -> np.ndarray:
    """How many n-grams strings of these many units have."""
    return np.maximum(units - (n - 1), 0).astype(np.float64)


def _order_columns(out: np.ndarray, hyp_len: np.ndarray, ref_count: np.ndarray, n: int,
                   matches: np.ndarray) -> None:
    """One order's (hypothesis n-grams, reference n-grams, matches): the hypothesis count is 0
    where the reference has no n-gram of the order."""
    out[:, 0] = np.where(ref_count > 0, _grams(hyp_len, n), 0)
    out[:, 1] = ref_count
    out[:, 2] = matches
