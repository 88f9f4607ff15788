"""Correlation of metric scores with human judgments, and whether two metrics differ significantly.

* System level: Pearson, Spearman, Kendall τ_b / τ_c (scipy.stats) between corpus metric scores and
  human system scores, with a bootstrap interval that resamples *segments* jointly for metric and
  human (Deutsch et al., 2021, §3: the same segment ids for every system; metric scores recomputed
  from the resampled statistics rows, human system scores as the mean over the resampled judged
  segments). ``accuracy`` at system level is pairwise accuracy (Kocmi et al., 2021, §3.1): the share
  of system pairs the metric orders as the humans do.
* Segment level: a (systems × segments) matrix of scores, NaN where no human judged; the grouping
  says which vectors are correlated (as mt-metrics-eval names it): ``none`` — all judged cells
  pooled; ``item`` — across systems for each segment, then averaged; ``system`` — within each system,
  then averaged. METEOR's protocol (Banerjee & Lavie, 2005, §4.3: Pearson within each system, then
  the mean over systems) is ``grouping="system"`` with Pearson. Groups whose correlation is
  undefined (fewer than two judged cells, constant scores) are left out of the average.
  ``accuracy`` at segment level is the pairwise accuracy with ties, ``acc_eq``/``acc23`` (Deutsch et
  al., 2023, §4–5), with tie calibration: metric differences up to a threshold ε count as ties, and ε
  is chosen to maximize the accuracy.
* Differences between metrics (:mod:`.metric_difference`): the Williams test for dependent
  correlations sharing one variable (Williams, 1959; as used by Graham & Baldwin, 2014, §3) and the
  paired permutation test PERM-BOTH (Deutsch et al., 2021, §4). Intervals from matrices of segment
  scores: :mod:`.correlation_ci`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.stats

from ..errors import InputError, OptionError
from ..metrics.base import Metric, SegmentStats
from ..metrics.mean import SegmentMean  # importable from here as before
from .defaults import DEFAULT_SEED
from .display import ResultDisplay, StatisticResult, renamed
from .resampling import (
    bootstrap_index_chunks,
    check_resampling,
    check_systems,
    index_counts,
    percentile_bounds,
    stacked_values,
)

#: correlation statistics by name (``kendall`` is τ_b, scipy's default)
METHODS = ("pearson", "spearman", "kendall", "kendall-b", "kendall-c", "accuracy")
#: the column name of each method's statistic
STATISTIC_NAMES = {"pearson": "r", "spearman": "rho", "kendall": "tau_b", "kendall-b": "tau_b",
                   "kendall-c": "tau_c", "accuracy": "accuracy"}
GROUPINGS = ("none", "item", "system")
#: τ variants of :func:`kendall_variants` (Deutsch et al., 2023, Table 1)
KENDALL_VARIANTS = ("b", "c", "23", "acc23")

#: pairs enumerated at most for segment-level pairwise accuracy (memory: ~40 bytes a pair)
MAX_PAIRS = 20_000_000


class UndefinedCorrelation(InputError):
    """The data cannot support the correlation asked for (constant scores, too few judged segments):
    callers print it as a note on that statistic and go on with the others."""


# ---- one pair of vectors ------------------------------------------------------------------------

def _check_method(method: str) -> None:
    if method not in METHODS:
        raise OptionError("correlation method", method, METHODS)


def _check_grouping(grouping: str) -> None:
    if grouping not in GROUPINGS:
        raise OptionError("grouping", grouping, GROUPINGS)


def correlate(metric: np.ndarray, human: np.ndarray, method: str) -> tuple[float, float]:
    """(statistic, p-value) of two paired vectors; ``accuracy`` is pairwise agreement (p = NaN).

    NaN when the statistic is undefined (fewer than two values, a constant vector).
    """
    _check_method(method)
    x = np.asarray(metric, dtype=np.float64)
    y = np.asarray(human, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise InputError(f"metric and human scores must be paired vectors, got shapes {x.shape} "
                         f"and {y.shape}")
    if method == "accuracy":
        return pairwise_agreement(x, y), math.nan
    if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return math.nan, math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method == "pearson":
            res = scipy.stats.pearsonr(x, y)
        elif method == "spearman":
            res = scipy.stats.spearmanr(x, y)
        else:
            res = scipy.stats.kendalltau(x, y, variant="c" if method == "kendall-c" else "b")
    return float(res.statistic), float(res.pvalue)


def rowwise_correlation(metric: np.ndarray, human: np.ndarray, method: str) -> np.ndarray:
    """:func:`correlate`'s statistic for every row pair of two (rows × n) matrices at once.

    Pearson, Spearman (Pearson of average ranks) and Kendall τ_b (Σ sign·sign over pairs, divided by
    the geometric mean of the untied pair counts, scipy's default) are vectorized; other methods
    run :func:`correlate` row by row. NaN where undefined (a NaN value, a constant row).
    """
    x = np.asarray(metric, dtype=np.float64)
    y = np.asarray(human, dtype=np.float64)
    bad = np.asarray(np.isnan(x).any(axis=1) | np.isnan(y).any(axis=1), dtype=bool)
    if method in ("kendall", "kendall-b"):
        i, j = np.triu_indices(x.shape[1], 1)
        sx, sy = np.sign(x[:, i] - x[:, j]), np.sign(y[:, i] - y[:, j])
        with np.errstate(invalid="ignore", divide="ignore"):
            out = (sx * sy).sum(axis=1) / np.sqrt((sx != 0).sum(axis=1) * (sy != 0).sum(axis=1))
    elif method in ("pearson", "spearman"):
        if method == "spearman":
            x = scipy.stats.rankdata(np.where(bad[:, None], 0.0, x), axis=1)
            y = scipy.stats.rankdata(np.where(bad[:, None], 0.0, y), axis=1)
        xc = x - x.mean(axis=1, keepdims=True)
        yc = y - y.mean(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = (xc * yc).sum(axis=1) / np.sqrt((xc * xc).sum(axis=1) * (yc * yc).sum(axis=1))
        out = np.clip(out, -1.0, 1.0)
    else:
        return np.array([math.nan if b else correlate(a, c, method)[0]
                         for a, c, b in zip(x, y, bad)])
    constant = (np.ptp(np.where(bad[:, None], 0.0, x), axis=1) == 0) | \
        (np.ptp(np.where(bad[:, None], 0.0, y), axis=1) == 0)
    out = np.where(bad | constant | (x.shape[1] < 2), math.nan, out)
    return out


def pairwise_agreement(metric: np.ndarray, human: np.ndarray) -> float:
    """Share of pairs with ``sign(Δmetric) == sign(Δhuman)`` (Kocmi et al., 2021, §3.1)."""
    x = np.asarray(metric, dtype=np.float64)
    y = np.asarray(human, dtype=np.float64)
    if len(x) < 2:
        return math.nan
    i, j = np.triu_indices(len(x), 1)
    return float(np.mean(np.sign(x[i] - x[j]) == np.sign(y[i] - y[j])))


@dataclass(frozen=True, repr=False)
class TauCounts(ResultDisplay):
    """Pair counts behind every τ variant (the metric tied when ``|Δmetric| ≤ ε``)."""

    concordant: int
    discordant: int
    ties_human: int
    ties_metric: int
    ties_both: int

    @property
    def pairs(self) -> int:
        return self.concordant + self.discordant + self.ties_human + self.ties_metric + self.ties_both


def tau_counts(human: np.ndarray, metric: np.ndarray, epsilon: float = 0.0) -> TauCounts:
    """Concordant, discordant and tied pairs of two vectors (O(n²) pairs)."""
    if epsilon < 0:
        raise OptionError("epsilon", epsilon, detail="must be non-negative")
    h = np.asarray(human, dtype=np.float64)
    m = np.asarray(metric, dtype=np.float64)
    i, j = np.triu_indices(len(h), 1)
    dh, dm = h[i] - h[j], m[i] - m[j]
    th, tm = dh == 0, np.abs(dm) <= epsilon
    con = ~th & ~tm & (np.sign(dh) == np.sign(dm))
    return TauCounts(concordant=int(con.sum()), discordant=int((~th & ~tm & ~con).sum()),
                     ties_human=int((th & ~tm).sum()), ties_metric=int((~th & tm).sum()),
                     ties_both=int((th & tm).sum()))


def kendall_variants(human: np.ndarray, metric: np.ndarray, variant: str = "b",
                     epsilon: float = 0.0) -> float:
    """Kendall's τ variants (Deutsch et al., 2023, Table 1), metric differences ≤ ε as ties.

    With C, D concordant/discordant pairs, T_h, T_m, T_hm pairs tied in human only, metric only,
    both, and N all pairs: ``b`` = (C−D)/√((N−T_m−T_hm)(N−T_h−T_hm)) (scipy's τ_b); ``c`` =
    2(C−D)/(n²(k−1)/k), k = the smaller number of distinct values (scipy's τ_c; ε must be 0);
    ``23`` = (C+T_hm−D−T_h−T_m)/N; ``acc23`` = (C+T_hm)/N, the pairwise accuracy with ties.
    """
    if variant not in KENDALL_VARIANTS:
        raise OptionError("Kendall variant", variant, KENDALL_VARIANTS)
    h = np.asarray(human, dtype=np.float64)
    m = np.asarray(metric, dtype=np.float64)
    if h.shape != m.shape or h.ndim != 1:
        raise InputError(f"human and metric scores must be paired vectors, got shapes {h.shape} "
                         f"and {m.shape}")
    if variant == "c" and epsilon > 0:
        raise OptionError("epsilon", epsilon, detail="τ_c is defined without a tie threshold")
    c = tau_counts(h, m, epsilon)
    if c.pairs == 0:
        return math.nan
    if variant == "b":
        xtie, ytie = c.ties_metric + c.ties_both, c.ties_human + c.ties_both
        if xtie == c.pairs or ytie == c.pairs:
            return math.nan
        return (c.concordant - c.discordant) / math.sqrt(c.pairs - xtie) / math.sqrt(c.pairs - ytie)
    if variant == "c":
        k = min(len(np.unique(h)), len(np.unique(m)))
        if k < 2:
            return math.nan
        n = len(h)
        return 2.0 * (c.concordant - c.discordant) / (n * n * (k - 1) / k)
    if variant == "23":
        return (c.concordant + c.ties_both - c.discordant - c.ties_human - c.ties_metric) / c.pairs
    return (c.concordant + c.ties_both) / c.pairs


# ---- results ------------------------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class CorrelationResult(StatisticResult):
    """A correlation between metric and human scores and how it was computed
    (``confidence_interval()``: ``(low, high)``, NaN without an interval)."""

    statistic: float
    #: scipy's p-value for one correlation (grouping ``none``); NaN for averages and accuracy
    pvalue: float
    method: str
    level: str
    grouping: str
    #: systems (system level) or judged cells (segment level) used
    n: int
    #: groups averaged (1 for ``none``)
    groups: int = 1
    #: tie threshold of segment-level accuracy (tie calibration), else None
    epsilon: float | None = None
    #: the interval's ends (None without an interval): read them with ``confidence_interval()``
    ci_low: float | None = None
    ci_high: float | None = None
    confidence: float | None = None
    resamples: int | None = None
    seed: int | None = None
    ci_method: str | None = None

    low = renamed("ci_low", use="confidence_interval()[0]")
    high = renamed("ci_high", use="confidence_interval()[1]")

    def describe(self) -> str:
        text = f"{self.level}-level {self.method}, grouping {self.grouping}, n = {self.n}"
        if self.groups > 1:
            text += f", mean over {self.groups} groups"
        if self.epsilon is not None:
            text += f", tie threshold ε = {self.epsilon:.6g}"
        if self.ci_low is not None:
            text += (f"; {100 * (self.confidence or 0):g}% interval: {self.ci_method}, "
                     f"{self.resamples} resamples, seed {self.seed}")
        return text

    @property
    def statistic_name(self) -> str:
        """What the statistic is called in a table: ``r`` (Pearson), ``rho`` (Spearman), ``tau``
        (Kendall) or ``accuracy``."""
        return STATISTIC_NAMES[self.method]


# ---- system level -------------------------------------------------------------------------------

def _aligned(metric_scores: Mapping[str, float] | Sequence[float] | np.ndarray,
             human_scores: Mapping[str, float] | Sequence[float] | np.ndarray
             ) -> tuple[list[str] | None, np.ndarray, np.ndarray]:
    if isinstance(metric_scores, Mapping) != isinstance(human_scores, Mapping):
        raise InputError("give metric and human scores both as dicts (system -> score) or both "
                         "as arrays in the same system order")
    if isinstance(metric_scores, Mapping):
        assert isinstance(human_scores, Mapping)
        missing = [s for s in metric_scores if s not in human_scores]
        extra = [s for s in human_scores if s not in metric_scores]
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"no human score for {', '.join(map(str, missing))}")
            if extra:
                parts.append(f"no metric score for {', '.join(map(str, extra))}")
            raise InputError("; ".join(parts))
        names = list(metric_scores)
        return (names, np.array([metric_scores[s] for s in names], dtype=np.float64),
                np.array([human_scores[s] for s in names], dtype=np.float64))
    x = np.asarray(metric_scores, dtype=np.float64)
    y = np.asarray(human_scores, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise InputError(f"metric and human system scores must be vectors of one length, got "
                         f"shapes {x.shape} and {y.shape}")
    return None, x, y


def system_correlation(metric_scores: Mapping[str, float] | Sequence[float] | np.ndarray,
                       human_scores: Mapping[str, float] | Sequence[float] | np.ndarray,
                       method: str = "pearson") -> CorrelationResult:
    """Correlation of system-level metric scores with human system scores (dicts or arrays)."""
    _check_method(method)
    _, x, y = _aligned(metric_scores, human_scores)
    if np.isnan(x).any() or np.isnan(y).any():
        raise InputError("system-level scores must not be NaN")
    if len(x) < 3:
        raise UndefinedCorrelation(f"a system-level correlation needs at least 3 systems, got "
                                   f"{len(x)}")
    r, p = correlate(x, y, method)
    return CorrelationResult(statistic=r, pvalue=p, method=method, level="system",
                             grouping="none", n=len(x))


def human_system_scores(human_by_system: Mapping[str, np.ndarray]) -> dict[str, float]:
    """WMT's system score: the mean human score over the system's judged (non-NaN) segments."""
    out = {}
    for name, seg in human_by_system.items():
        seg = np.asarray(seg, dtype=np.float64)
        if np.all(np.isnan(seg)):
            raise InputError(f"system {name!r} has no judged segment")
        out[name] = float(np.nanmean(seg))
    return out


def _percentile_interval(samples: np.ndarray, confidence: float,
                         method: str) -> tuple[float, float, str]:
    """Percentile bounds of the defined resampled correlations, and the method as stated in results
    (naming how many undefined resamples were left out, if any)."""
    valid = samples[~np.isnan(samples)]
    if len(valid) == 0:
        raise UndefinedCorrelation("the correlation is undefined on every resample (constant "
                                   "scores or too few judged segments)")
    low, high = percentile_bounds(valid, confidence)
    left_out = len(samples) - len(valid)
    return low, high, method + (f" ({left_out} undefined resamples left out)" if left_out else "")


def system_correlation_ci(metric: Metric[Any], stats_by_system: Mapping[str, SegmentStats],
                          human_by_system: Mapping[str, np.ndarray], method: str = "pearson",
                          resamples: int = 1000, seed: int = DEFAULT_SEED,
                          confidence: float = 0.95) -> CorrelationResult:
    """System-level correlation with a percentile bootstrap interval over resampled segments.

    Each resample draws segment ids once for all systems; metric scores are recomputed from the
    resampled statistics, human system scores are means over the resampled judged segments
    (a segment drawn twice counts twice). Resamples where the correlation is undefined are left
    out of the interval.
    """
    _check_method(method)
    check_resampling(resamples, seed, confidence)
    names, stats = check_systems(stats_by_system)
    missing = [s for s in names if s not in human_by_system]
    if missing:
        raise InputError(f"no human scores for {', '.join(missing)}")
    n_seg = len(stats[0])
    human = np.stack([np.asarray(human_by_system[s], dtype=np.float64) for s in names])
    if human.shape != (len(names), n_seg):
        raise InputError(f"human segment scores must have one value per segment ({n_seg}), "
                         f"NaN for unjudged; got shape {human.shape[1:]}")
    point = system_correlation(
        dict(zip(names, metric.compute_many(np.stack([s.total() for s in stats]).astype(np.float64)))),
        human_system_scores(dict(zip(names, human))), method)
    values, width = stacked_values(stats)
    judged = ~np.isnan(human)
    filled = np.where(judged, human, 0.0)
    samples = np.empty(resamples)
    start = 0
    for idx in bootstrap_index_chunks(n_seg, resamples, seed):
        counts = index_counts(idx, n_seg).astype(np.float64)            # r × segments
        totals = counts @ values
        metric_samples = np.stack([metric.compute_many(totals[:, k * width:(k + 1) * width])
                                   for k in range(len(names))], axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            human_samples = (counts @ filled.T) / (counts @ judged.T.astype(np.float64))
        samples[start:start + len(counts)] = rowwise_correlation(metric_samples, human_samples,
                                                                 method)
        start += len(counts)
    low, high, ci_method = _percentile_interval(
        samples, confidence,
        "percentile bootstrap over segments, resampled jointly for metric and human")
    return CorrelationResult(
        statistic=point.statistic, pvalue=point.pvalue, method=method, level="system",
        grouping="none", n=len(names), ci_low=low, ci_high=high, confidence=confidence,
        resamples=resamples, seed=seed, ci_method=ci_method)


# ---- segment level ------------------------------------------------------------------------------

def _matrices(metric_2d: np.ndarray, human_2d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(metric_2d, dtype=np.float64)
    y = np.asarray(human_2d, dtype=np.float64)
    if x.ndim != 2 or x.shape != y.shape:
        raise InputError(f"segment-level scores must be two matrices (systems × segments) of one "
                         f"shape, got {x.shape} and {y.shape}")
    if np.isnan(x[~np.isnan(y)]).any():
        raise InputError("a metric score is NaN where a human score is given")
    return x, y


def _groups(x: np.ndarray, y: np.ndarray, grouping: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (metric, human) vectors of each group, unjudged cells left out."""
    _check_grouping(grouping)
    if grouping == "none":
        ok = ~np.isnan(y)
        return [(x[ok], y[ok])]
    if grouping == "item":
        x, y = x.T, y.T
    out = []
    for row_x, row_y in zip(x, y):
        ok = ~np.isnan(row_y)
        out.append((row_x[ok], row_y[ok]))
    return out


def _group_statistics(groups: list[tuple[np.ndarray, np.ndarray]], method: str) -> list[float]:
    """:func:`correlate`'s statistic of every group with one defined, in group order: groups of
    equal size are stacked and given to :func:`rowwise_correlation` (tested equal to it)."""
    sizes = np.array([len(gx) for gx, _ in groups])
    stat = np.full(len(groups), math.nan)
    for size in np.unique(sizes[sizes >= 2]).tolist():
        at = np.flatnonzero(sizes == size)
        stat[at] = rowwise_correlation(np.stack([groups[k][0] for k in at.tolist()]),
                                       np.stack([groups[k][1] for k in at.tolist()]), method)
    return stat[~np.isnan(stat)].tolist()


def segment_correlation(metric_2d: np.ndarray, human_2d: np.ndarray, method: str = "pearson",
                        grouping: str = "system", epsilon: float | None = None
                        ) -> CorrelationResult:
    """Segment-level correlation of a (systems × segments) metric matrix with human scores.

    Human NaN = unjudged, left out. ``method="accuracy"`` is the pairwise accuracy with ties
    (``acc23``), tie-calibrated unless ``epsilon`` is given.
    """
    _check_method(method)
    _check_grouping(grouping)
    x, y = _matrices(metric_2d, human_2d)
    groups = _groups(x, y, grouping)
    n = int(sum(len(g[0]) for g in groups))
    if method == "accuracy":
        acc = pairwise_accuracy(x, y, grouping=grouping, epsilon=epsilon)
        return acc
    if grouping == "none":
        r, p = correlate(*groups[0], method) if len(groups[0][0]) >= 2 else (math.nan, math.nan)
        values, pvalues = ([r], [p]) if not math.isnan(r) else ([], [])
    else:  # per-group p-values are not reported: the statistics of equal-size groups at once
        values, pvalues = _group_statistics(groups, method), []
    if not values:
        raise UndefinedCorrelation(f"no group has a defined {method} correlation (too few "
                                   "judged segments or constant scores)")
    stat = float(np.mean(values))
    pvalue = pvalues[0] if grouping == "none" else math.nan
    return CorrelationResult(statistic=stat, pvalue=pvalue, method=method, level="segment",
                             grouping=grouping, n=n, groups=len(values))


def _pair_arrays(x: np.ndarray, y: np.ndarray, grouping: str
                 ) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], int]:
    """Every within-group pair of judged cells: (|Δmetric|, human tie, concordant, weight), the
    weight being 1/(pairs of its group)/(groups with a pair); and the number of such groups."""
    if grouping == "item":  # every group is a column: all system pairs of all columns at once
        a, b = np.triu_indices(x.shape[0], 1)
        dh = y[a] - y[b]
        ok = ~np.isnan(dh)
        per_item = ok.sum(axis=0)
        used = int(np.count_nonzero(per_item))
        if not used:
            raise InputError("no segment has two judged systems to pair")
        dm = (x[a] - x[b])[ok]
        dh = dh[ok]
        weight = (1.0 / np.where(per_item > 0, per_item, 1) / used)[np.nonzero(ok)[1]]
    else:
        groups = [g for g in _groups(x, y, grouping) if len(g[0]) >= 2]
        total = sum(len(g[0]) * (len(g[0]) - 1) // 2 for g in groups)
        if total > MAX_PAIRS:
            raise OptionError("grouping", grouping, detail=f"{total:,} pairs are too many for "
                              f"pairwise accuracy (limit {MAX_PAIRS:,}); use grouping 'item'")
        if not groups:
            raise InputError("no group has two judged segments to pair")
        used = len(groups)
        dms, dhs, weights = [], [], []
        for gx, gy in groups:
            i, j = np.triu_indices(len(gx), 1)
            dms.append(gx[i] - gx[j])
            dhs.append(gy[i] - gy[j])
            weights.append(np.full(len(i), 1.0 / len(i) / used))
        dm, dh, weight = np.concatenate(dms), np.concatenate(dhs), np.concatenate(weights)
    htie = dh == 0
    con = ~htie & (dm != 0) & (np.sign(dm) == np.sign(dh))
    return (np.abs(dm), htie, con, weight), used


def pairwise_accuracy(metric_2d: np.ndarray, human_2d: np.ndarray, grouping: str = "item",
                      epsilon: float | None = None) -> CorrelationResult:
    """Pairwise accuracy with ties, ``acc23`` (Deutsch et al., 2023, §4), averaged over groups.

    A pair is right when the metric orders it as the humans do, or when both tie; the metric ties
    when ``|Δmetric| ≤ ε``. ``epsilon=None`` calibrates ε (§5): every observed ``|Δmetric|`` (and 0)
    is tried and the one with the highest accuracy kept (the smallest among equals).
    """
    _check_grouping(grouping)
    x, y = _matrices(metric_2d, human_2d)
    (diff, htie, con, weight), used = _pair_arrays(x, y, grouping)
    n = int(np.count_nonzero(~np.isnan(y)))
    base = float(np.sum(weight * con))
    gain = weight * (htie.astype(np.float64) - con)      # change when the pair becomes a metric tie
    if epsilon is not None:
        if epsilon < 0:
            raise OptionError("epsilon", epsilon, detail="must be non-negative")
        value = base + float(np.sum(gain[diff <= epsilon]))
        best_eps = float(epsilon)
    else:
        order = np.argsort(diff)  # order within equal differences does not matter (runs)
        sorted_diff = diff[order]
        running = base + np.cumsum(gain[order])
        # the value at a threshold includes every pair with that difference: last index of a run
        last = np.r_[sorted_diff[1:] != sorted_diff[:-1], True]
        thresholds = np.r_[0.0, sorted_diff[last]]
        values = np.r_[base, running[last]]
        if sorted_diff[0] == 0:  # threshold 0 already ties the pairs with equal metric scores
            thresholds, values = thresholds[1:], values[1:]
        k = int(np.argmax(values))
        value, best_eps = float(values[k]), float(thresholds[k])
    return CorrelationResult(statistic=value, pvalue=math.nan, method="accuracy", level="segment",
                             grouping=grouping, n=n, groups=used, epsilon=best_eps)

__all__ = ["GROUPINGS", "KENDALL_VARIANTS", "METHODS", "STATISTIC_NAMES", "CorrelationResult",
           "SegmentMean", "TauCounts", "UndefinedCorrelation", "correlate", "human_system_scores",
           "kendall_variants",
           "pairwise_accuracy", "pairwise_agreement", "rowwise_correlation", "segment_correlation",
           "system_correlation", "system_correlation_ci", "tau_counts"]
