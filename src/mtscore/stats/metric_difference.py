"""Do two metrics correlate differently with the humans? The Williams test for dependent
correlations sharing one variable (Williams, 1959; as used by Graham & Baldwin, 2014, §3) and the
paired permutation test PERM-BOTH (Deutsch et al., 2021, §4)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
import scipy.stats

from ..errors import InputError, OptionError
from .correlation import _check_grouping, _check_method, correlate, pairwise_accuracy, segment_correlation
from .defaults import DEFAULT_SEED
from .display import StatisticResult, renamed
from .resampling import check_resampling


@dataclass(frozen=True, repr=False)
class WilliamsResult(StatisticResult):
    """Williams test of r12 vs r13 (dependent correlations sharing variable 1, the human scores):
    ``statistic`` is Student's t."""

    statistic: float
    df: int
    pvalue: float
    r12: float
    r13: float
    r23: float
    n: int
    one_sided: bool = True
    method: str = "Williams (1959) test for dependent correlations, as Graham & Baldwin (2014)"

    OUTPUT_KEYS = MappingProxyType({"statistic": "t", "pvalue": "p_value"})
    t = renamed("statistic")
    p_value = renamed("pvalue")



def williams_test(r12: float, r13: float, r23: float, n: int,
                  one_sided: bool = True) -> WilliamsResult:
    """Is r12 = corr(human, metric A) larger than r13 = corr(human, metric B), given r23 =
    corr(A, B), on n items? (Williams, 1959; Graham & Baldwin, 2014, eq. 1)

    t = (r12 − r13)·√((n−1)(1+r23)) / √(2(n−1)/(n−3)·|R| + ((r12+r13)/2)²(1−r23)³), with
    |R| = 1 − r12² − r13² − r23² + 2·r12·r13·r23, Student's t with n − 3 degrees of freedom; the
    one-sided p-value is for r12 > r13.
    """
    for name, r in (("r12", r12), ("r13", r13), ("r23", r23)):
        if not -1.0 <= r <= 1.0 or math.isnan(r):
            raise OptionError(name, r, detail="a correlation must lie in [-1, 1]")
    if n <= 3:
        raise OptionError("n", n, detail="the Williams test needs more than 3 items")
    det = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
    if det < -1e-12:
        raise OptionError("correlations", f"r12={r12:g}, r13={r13:g}, r23={r23:g}",
                          detail=f"no three variables have these correlations (the determinant "
                                 f"of their correlation matrix is {det:.4g} < 0)")
    det = max(det, 0.0)
    rbar = (r12 + r13) / 2
    num = (r12 - r13) * math.sqrt((n - 1) * (1 + r23))
    den = math.sqrt(2 * (n - 1) / (n - 3) * det + rbar ** 2 * (1 - r23) ** 3)
    t = num / den if den > 0 else (math.copysign(math.inf, num) if num else 0.0)
    df = n - 3
    p = float(scipy.stats.t.sf(t, df))
    if not one_sided:
        p = float(min(1.0, 2 * scipy.stats.t.sf(abs(t), df)))
    return WilliamsResult(statistic=float(t), df=df, pvalue=p, r12=r12, r13=r13, r23=r23, n=n,
                          one_sided=one_sided)


@dataclass(frozen=True, repr=False)
class PermutationResult(StatisticResult):
    """PERM-BOTH test of ``corr(B, human) > corr(A, human)``."""

    #: corr(B) − corr(A) on the data (Δ)
    statistic: float
    pvalue: float
    statistic_a: float
    statistic_b: float
    method: str
    grouping: str
    level: str
    resamples: int
    seed: int
    test: str = ("paired permutation test PERM-BOTH (Deutsch et al. 2021): metric scores "
                 "z-normalized, swapped between the metrics per cell with probability 1/2; "
                 "p = (#{Δ* ≥ Δ} + 1)/(k + 1), one-sided for B > A")

    OUTPUT_KEYS = MappingProxyType({"statistic": "delta", "pvalue": "p_value"})
    delta = renamed("statistic")
    p_value = renamed("pvalue")



def _statistic(x: np.ndarray, y: np.ndarray, method: str, grouping: str, level: str,
               epsilon: float | None) -> float:
    if level == "system":
        if x.ndim == 2:  # system scores from segment scores: metric mean, human mean over judged
            return correlate(x.mean(axis=1), np.nanmean(y, axis=1), method)[0]
        return correlate(x, y, method)[0]
    if method == "accuracy":
        return pairwise_accuracy(x, y, grouping, epsilon).statistic
    return segment_correlation(x, y, method, grouping).statistic


def permutation_test(human: np.ndarray, metric_a: np.ndarray, metric_b: np.ndarray,
                     method: str = "pearson", grouping: str = "none", resamples: int = 1000,
                     seed: int = DEFAULT_SEED, epsilon: float | None = None,
                     level: str | None = None) -> PermutationResult:
    """Does metric B correlate better with the humans than metric A? (PERM-BOTH)

    1-D arrays: one score per system. 2-D arrays (systems × segments, human NaN = unjudged): at
    ``level="segment"`` (the default for 2-D) the segment-level correlation with ``grouping``; at
    ``level="system"`` the system-level correlation of the systems' mean segment scores (human:
    mean over judged segments), the swaps still per (system, segment) cell, as Deutsch et al.
    (2021) do. Each metric is z-normalized (over the judged cells at segment level, over all cells
    at system level) so that swapped scores are comparable; each permutation swaps A's and B's
    score in every cell with probability 1/2. A fixed ``epsilon`` applies to z-normalized scores.
    """
    _check_method(method)
    _check_grouping(grouping)
    check_resampling(resamples, seed)
    h = np.asarray(human, dtype=np.float64)
    a = np.asarray(metric_a, dtype=np.float64)
    b = np.asarray(metric_b, dtype=np.float64)
    if not (h.shape == a.shape == b.shape) or h.ndim not in (1, 2):
        raise InputError(f"human and both metrics must have one shape (systems, or systems × "
                         f"segments), got {h.shape}, {a.shape}, {b.shape}")
    if level is None:
        level = "system" if h.ndim == 1 else "segment"
    if level not in ("system", "segment"):
        raise OptionError("level", level, ("system", "segment"))
    if level == "segment" and h.ndim == 1:
        raise InputError("segment level needs systems × segments matrices")
    if level == "system" and grouping != "none":
        raise OptionError("grouping", grouping, detail="system-level scores have no grouping")
    judged = ~np.isnan(h)
    cells = judged if level == "segment" else np.ones(h.shape, dtype=bool)
    if np.isnan(a[cells]).any() or np.isnan(b[cells]).any():
        raise InputError("a metric score is NaN where it is needed" +
                         (" (a human score is given there)" if level == "segment" else
                          " (system scores are means over every segment)"))
    if level == "system" and h.ndim == 2 and np.any(~judged.any(axis=1)):
        raise InputError("a system has no judged segment")

    def znorm(v: np.ndarray) -> np.ndarray:
        sd = v[cells].std()
        return np.where(cells, (v - v[cells].mean()) / (sd if sd > 0 else 1.0), np.nan)

    za, zb = znorm(a), znorm(b)
    stat_a = _statistic(a, h, method, grouping, level, epsilon)
    stat_b = _statistic(b, h, method, grouping, level, epsilon)
    delta = _statistic(zb, h, method, grouping, level, epsilon) - \
        _statistic(za, h, method, grouping, level, epsilon)
    rng = np.random.default_rng(seed)
    count = 0
    for _ in range(resamples):
        swap = rng.integers(2, size=h.shape, dtype=bool)
        pa, pb = np.where(swap, zb, za), np.where(swap, za, zb)
        if _statistic(pb, h, method, grouping, level, epsilon) - \
                _statistic(pa, h, method, grouping, level, epsilon) >= delta:
            count += 1
    return PermutationResult(statistic=float(delta), pvalue=(count + 1) / (resamples + 1),
                             statistic_a=float(stat_a), statistic_b=float(stat_b), method=method,
                             grouping=grouping, level=level, resamples=resamples, seed=seed)
