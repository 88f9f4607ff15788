"""Soft pairwise accuracy (SPA) of a metric against human scores (Thompson et al., 2024).

SPA compares, for every pair of systems, how sure the humans are that one system is better with
how sure the metric is: each side's certainty is the p-value of a paired permutation test over
segments, and SPA = 1 − mean over system pairs |p_human − p_metric| (Thompson et al., 2024, §2,
"Improving Statistical Significance in Human Evaluation of Automatic Metrics via Soft Pairwise
Accuracy", WMT24; computed as mt-metrics-eval's ``pce.py`` does, the official WMT24/WMT25
system-level statistic):

* the scores are a systems × segments matrix; a system's score is the *sum* of its segment scores;
* one set of sign masks is drawn once, from ``numpy.random.default_rng(seed)`` (seed 4 in
  mt-metrics-eval): ``permutations × segments`` float32 draws in [0, 1), rounded to 0/1
  (``rint``) and mapped to −1/+1 — and used for every system pair, and for both the human and
  the metric scores;
* the null difference of systems i and j under mask m is m·s_i − m·s_j (a matrix product over
  all masks at once, in float32 as pce.py), and the one-sided p-value for "i is better than j"
  (i before j in system order) is the share of masks whose null difference is ≥ the observed
  difference sum(s_i) − sum(s_j).

Segments no human judged are left out (mt-metrics-eval filters them before it reshapes the
flat score vectors into the matrix); every system must be judged on the same segments, else the
reshaped matrix would pair different segments, and :func:`soft_pairwise_accuracy` refuses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError, OptionError
from .display import ResultDisplay

#: mt-metrics-eval's seed and number of permutations for SPA (``pce.py``)
SPA_SEED = 4
SPA_PERMUTATIONS = 1000


@dataclass(frozen=True, repr=False)
class SpaResult(ResultDisplay):
    """Soft pairwise accuracy of one metric (Thompson et al., 2024)."""

    #: 1 − mean |p_human − p_metric| over system pairs, in [0, 1]
    statistic: float
    systems: int
    #: segments used (judged for every system)
    segments: int
    #: segments left out because no human judged them
    segments_dropped: int
    permutations: int
    seed: int
    method: str = ("soft pairwise accuracy (Thompson et al., 2024), one-sided paired permutation "
                   "p-values per system pair as mt-metrics-eval's pce.py")

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def sign_masks(segments: int, permutations: int = SPA_PERMUTATIONS,
               seed: int = SPA_SEED) -> np.ndarray:
    """The ±1 float32 masks (``permutations × segments``) of pce.py: ``default_rng(seed)``'s
    float32 draws in [0, 1), rounded half to even to 0 or 1, times 2, minus 1."""
    if isinstance(permutations, bool) or not isinstance(permutations, (int, np.integer)) or \
            permutations < 1:
        raise OptionError("permutations", permutations, detail="must be a positive integer")
    rng = np.random.default_rng(seed)
    masks = rng.random(size=(permutations, segments), dtype=np.float32)
    np.rint(masks, out=masks)
    masks *= np.float32(2.0)
    masks -= np.float32(1.0)
    return masks


def pairwise_pvalues(scores: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """One-sided permutation p-values that system i is better than system j (i < j), from a
    systems × segments matrix and the ±1 masks (Thompson et al., 2024, §2); NaN on and below the
    diagonal. In float32, as pce.py: the masks times the scores is one matrix product, on a
    row-major matrix as pce.py's reshaped one (the BLAS kernel, hence float32 rounding in near
    ties, depends on the memory layout)."""
    seg = np.ascontiguousarray(np.asarray(scores), dtype=np.float32)
    totals = seg.sum(axis=1)
    partial = masks @ seg.T                                   # (permutations, systems)
    i, j = np.triu_indices(seg.shape[0], 1)
    null = partial[:, i] - partial[:, j]
    observed = totals[i] - totals[j]
    out = np.full((seg.shape[0], seg.shape[0]), np.nan)
    out[i, j] = np.count_nonzero(null >= observed, axis=0) / masks.shape[0]
    return out


def spa_from_pvalues(human_pvalues: np.ndarray, metric_pvalues: np.ndarray) -> float:
    """SPA = 1 − mean over the system pairs (upper triangle) of |p_human − p_metric|
    (Thompson et al., 2024, eq. 1; 1 − PCE in pce.py)."""
    i, j = np.triu_indices(human_pvalues.shape[0], 1)
    return float(1.0 - np.mean(np.abs(human_pvalues[i, j] - metric_pvalues[i, j])))


def judged_columns(human: np.ndarray, what: str = "SPA") -> np.ndarray:
    """The segments (columns) every system is judged on; refuses segments judged for some systems
    and not others (a shared systems × segments matrix needs the same segments for all)."""
    judged = ~np.isnan(human)
    some, every = judged.any(axis=0), judged.all(axis=0)
    partial = np.flatnonzero(some & ~every)
    if partial.size:
        k = int(partial[0])
        rows = np.flatnonzero(~judged[:, k])
        raise InputError(f"{what}: systems judged on different items: segment {k + 1} is judged for "
                         f"some systems but not for system #{int(rows[0]) + 1} ({partial.size} such "
                         "segments); keep only the segments judged for every system")
    if not every.any():
        raise InputError(f"{what}: no segment is judged for every system")
    return every


def check_spa_input(metric: np.ndarray, human: np.ndarray, name: str = "metric"
                    ) -> tuple[np.ndarray, np.ndarray, int]:
    """(metric, human) restricted to the judged segments, and how many were dropped; clear errors
    for one system, differently judged systems, missing metric scores and tied human scores."""
    x = np.asarray(metric, dtype=np.float64)
    y = np.asarray(human, dtype=np.float64)
    if y.ndim != 2 or x.shape != y.shape:
        raise InputError(f"SPA needs two systems × segments matrices of one shape, got {x.shape} "
                         f"({name}) and {y.shape} (human)")
    if y.shape[0] < 2:
        raise InputError(f"SPA needs at least two systems, got {y.shape[0]}")
    keep = judged_columns(y)
    x, y = x[:, keep], y[:, keep]
    if np.isnan(x).any():
        row = int(np.flatnonzero(np.isnan(x).any(axis=1))[0])
        raise InputError(f"SPA: {name} has no score for system #{row + 1} on a judged segment")
    if np.all(y == y.flat[0]):
        raise InputError("SPA: all human scores are tied: no system pair can be ordered")
    return x, y, int(keep.size - keep.sum())


def soft_pairwise_accuracy(metric: np.ndarray, human: np.ndarray,
                           permutations: int = SPA_PERMUTATIONS, seed: int = SPA_SEED
                           ) -> SpaResult:
    """SPA of a systems × segments metric matrix against the human matrix (NaN = unjudged), as
    mt-metrics-eval's ``PairwiseConfidenceError`` (Thompson et al., 2024)."""
    return soft_pairwise_accuracies({"metric": metric}, human, permutations, seed)["metric"]


def soft_pairwise_accuracies(metrics: Mapping[str, np.ndarray], human: np.ndarray,
                             permutations: int = SPA_PERMUTATIONS, seed: int = SPA_SEED
                             ) -> dict[str, SpaResult]:
    """:func:`soft_pairwise_accuracy` of several metrics on one human matrix: the masks and the
    human p-values are computed once (the same masks for every metric, as pce.py's seed makes)."""
    if not metrics:
        raise InputError("SPA: no metric given")
    out: dict[str, SpaResult] = {}
    masks = hp = None
    for name, matrix in metrics.items():
        x, y, dropped = check_spa_input(matrix, human, name)
        if masks is None:
            masks = sign_masks(y.shape[1], permutations, seed)
            hp = pairwise_pvalues(y, masks)
        assert hp is not None
        value = spa_from_pvalues(hp, pairwise_pvalues(x, masks))
        out[name] = SpaResult(statistic=value, systems=y.shape[0], segments=y.shape[1],
                              segments_dropped=dropped, permutations=int(permutations),
                              seed=int(seed))
    return out


__all__ = ["SPA_PERMUTATIONS", "SPA_SEED", "SpaResult", "check_spa_input", "judged_columns",
           "pairwise_pvalues", "sign_masks", "soft_pairwise_accuracies", "soft_pairwise_accuracy",
           "spa_from_pvalues"]
