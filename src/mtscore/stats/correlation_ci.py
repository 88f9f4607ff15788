"""Correlations with bootstrap intervals from matrices of segment scores (files, external metrics):
system level through :class:`~mtscore.metrics.mean.SegmentMean` (the joint segment bootstrap of
:func:`~.correlation.system_correlation_ci`), segment level by resampling segments, and system
level from system scores alone (resampling systems)."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Mapping, Sequence

import numpy as np

from ..errors import InputError
from ..metrics.mean import SegmentMean
from .correlation import (
    CorrelationResult,
    _aligned,
    _check_grouping,
    _check_method,
    _groups,
    _matrices,
    _percentile_interval,
    correlate,
    segment_correlation,
    system_correlation,
    system_correlation_ci,
)
from .defaults import DEFAULT_SEED
from .resampling import bootstrap_indices, check_resampling


def system_correlation_ci_from_segments(metric_2d: np.ndarray, human_2d: np.ndarray,
                                        systems: Sequence[str] | None = None,
                                        method: str = "pearson", resamples: int = 1000,
                                        seed: int = DEFAULT_SEED, confidence: float = 0.95
                                        ) -> CorrelationResult:
    """System-level correlation when the metric's system score is the mean of its segment scores
    (systems × segments matrices, human NaN = unjudged), with the joint segment bootstrap."""
    x, y = _matrices(metric_2d, human_2d)
    if np.isnan(x).any():
        raise InputError("every system needs a metric score for every segment")
    names = list(systems) if systems is not None else [f"system {k + 1}" for k in range(len(x))]
    return system_correlation_ci(SegmentMean(), {n: SegmentMean.stats(r) for n, r in zip(names, x)},
                                 dict(zip(names, y)), method, resamples, seed, confidence)


def segment_correlation_ci(metric_2d: np.ndarray, human_2d: np.ndarray, method: str = "pearson",
                           grouping: str = "system", resamples: int = 1000, seed: int = DEFAULT_SEED,
                           confidence: float = 0.95, epsilon: float | None = None
                           ) -> CorrelationResult:
    """Segment-level correlation with a percentile bootstrap interval over resampled segments
    (the same segment ids for every system). For ``grouping="item"`` a resample of segments is a
    resample of the per-segment correlations, which is how it is computed (except accuracy, whose
    tie threshold is recalibrated on each resample)."""
    _check_method(method)
    _check_grouping(grouping)
    check_resampling(resamples, seed, confidence)
    x, y = _matrices(metric_2d, human_2d)
    point = segment_correlation(x, y, method, grouping, epsilon)
    indices = bootstrap_indices(x.shape[1], resamples, seed)
    samples = np.full(resamples, np.nan)
    if grouping == "item" and method != "accuracy":
        per_item = np.full(x.shape[1], np.nan)
        for i, (gx, gy) in enumerate(_groups(x, y, "item")):
            if len(gx) >= 2:
                per_item[i] = correlate(gx, gy, method)[0]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            samples = np.nanmean(per_item[indices], axis=1)
    else:
        for r, idx in enumerate(indices):
            with contextlib.suppress(InputError):  # undefined on this resample: left out
                samples[r] = segment_correlation(x[:, idx], y[:, idx], method, grouping,
                                                 epsilon).statistic
    low, high, ci_method = _percentile_interval(
        samples, confidence, "percentile bootstrap over segments (same ids for every system)")
    return CorrelationResult(
        statistic=point.statistic, pvalue=point.pvalue, method=method, level="segment",
        grouping=grouping, n=point.n, groups=point.groups, epsilon=point.epsilon, ci_low=low,
        ci_high=high, confidence=confidence, resamples=resamples, seed=seed, ci_method=ci_method)


def system_correlation_ci_over_systems(metric_scores: Mapping[str, float] | Sequence[float],
                                       human_scores: Mapping[str, float] | Sequence[float],
                                       method: str = "pearson", resamples: int = 1000,
                                       seed: int = DEFAULT_SEED, confidence: float = 0.95
                                       ) -> CorrelationResult:
    """System-level correlation from system scores alone, with a percentile bootstrap over
    *systems* (all one can resample without segment scores; wide with few systems)."""
    _check_method(method)
    check_resampling(resamples, seed, confidence)
    point = system_correlation(metric_scores, human_scores, method)
    _, x, y = _aligned(metric_scores, human_scores)
    indices = bootstrap_indices(len(x), resamples, seed)
    samples = np.array([correlate(x[idx], y[idx], method)[0] for idx in indices])
    low, high, ci_method = _percentile_interval(samples, confidence,
                                                "percentile bootstrap over systems")
    return CorrelationResult(
        statistic=point.statistic, pvalue=point.pvalue, method=method, level="system",
        grouping="none", n=point.n, ci_low=low, ci_high=high, confidence=confidence,
        resamples=resamples, seed=seed, ci_method=ci_method)
