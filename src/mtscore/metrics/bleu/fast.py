"""BLEU's rules over many rows at once with numpy: the fast path of :mod:`.rules`.

Each function here equals the rule of the same name in :mod:`.rules` applied row by row (bit
for bit: tests/test_bleu_sentence.py and tests/test_bleu_properties.py); it exists because
resampling and blocks score thousands of summed rows, and a corpus has thousands of segments.
"""

from __future__ import annotations

import numpy as np

from .rules import LOG_ZERO


def closest_ref_lengths(hyp_lens: np.ndarray, ref_lens: np.ndarray) -> np.ndarray:
    """:func:`.rules.closest_ref_length` of every segment (§2.2.2). ``ref_lens`` is
    (references × segments) with -1 where a reference is missing."""
    diff = np.abs(ref_lens - hyp_lens[None, :]).astype(np.float64)
    diff[ref_lens < 0] = np.inf
    # smallest difference first, then the shortest length among equally close ones
    key = diff * (ref_lens.max(initial=0) + 1) + np.where(ref_lens < 0, 0, ref_lens)
    best = np.argmin(key, axis=0)
    return ref_lens[best, np.arange(ref_lens.shape[1])]


def brevity_penalties(hyp_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    """:func:`.rules.brevity_penalty` of every row (§2.2.2)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        shorter = np.exp(1 - ref_len / np.where(hyp_len > 0, hyp_len, 1))
    return np.where(hyp_len < ref_len, np.where(hyp_len > 0, shorter, 0.0), 1.0)


def smoothed_precision_rows(correct: np.ndarray, total: np.ndarray, smooth: str,
                            value: float | None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`.rules.smoothed_precisions` of every row: (precisions, active orders mask)."""
    correct, total = correct.copy(), total.copy()
    if smooth == "add-k":
        correct[:, 1:] += value
        total[:, 1:] += value
    # orders reached before sacreBLEU's loop stops at the first order with no n-grams
    active = np.cumprod(total > 0, axis=1).astype(bool)
    zero = correct == 0
    prec = np.zeros_like(correct)
    safe_total = np.where(total > 0, total, 1.0)
    hit = active & ~zero
    prec[hit] = (100.0 * correct / safe_total)[hit]
    miss = active & zero
    if smooth == "exp":
        halvings = np.cumsum(miss, axis=1)
        prec[miss] = (100.0 / (2.0 ** halvings * safe_total))[miss]
    elif smooth == "floor":
        prec[miss] = (100.0 * (value or 0.0) / safe_total)[miss]
    return prec, active


def geometric_means(prec: np.ndarray, eff: np.ndarray) -> np.ndarray:
    """:func:`.rules.geometric_mean` of the first ``eff[i]`` precisions of every row i."""
    log_sum = np.zeros(len(prec))
    for n in range(prec.shape[1]):
        positive = prec[:, n] > 0
        logs = np.where(positive, np.log(np.where(positive, prec[:, n], 1.0)), LOG_ZERO)
        log_sum = log_sum + np.where(n < eff, logs, 0.0)
    return np.exp(log_sum / eff)


def bleu_of_rows(rows: np.ndarray, max_order: int, smooth: str, smooth_value: float | None,
                 effective_order: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`.rules.bleu_of_row` of every row: (scores, precisions, brevity penalties)."""
    t = np.atleast_2d(np.asarray(rows, dtype=np.float64))
    N = max_order
    if t.shape[1] != 2 + 2 * N:
        raise ValueError(f"BLEU statistics have {2 + 2 * N} columns, got {t.shape[1]}")
    correct, total = t[:, 2:2 + N], t[:, 2 + N:]
    no_match = ~(correct != 0).any(axis=1)
    bp = brevity_penalties(t[:, 0], t[:, 1])
    prec, active = smoothed_precision_rows(correct, total, smooth, smooth_value)
    if effective_order:
        eff = np.where(active.any(axis=1), np.maximum(active.sum(axis=1), 1), N)
    else:
        eff = np.full(len(t), N)
    score = np.where(no_match, 0.0, bp * geometric_means(prec, eff))
    prec[no_match] = 0.0
    return score, prec, bp
