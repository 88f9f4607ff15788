"""Is system A better than system B? Paired tests over the additive statistics.

* Paired bootstrap resampling (Koehn, 2004, §4): the same resampled segment ids for every system;
  p-value as sacreBLEU 2.6.0's ``-pbs`` computes it (after Moses'
  ``bootstrap-hypothesis-difference-significance.pl``): with ``d`` the observed absolute difference
  and ``d_r`` the resampled ones, ``p = (#{d_r - mean(d_r) > d} + 1) / (R + 1)``.
* Approximate randomization (Riezler & Maxwell, 2005; sacreBLEU's ``-par``): each trial swaps the two
  systems' statistics on a random half of the segments; one boolean trial × segment matrix serves
  every pair: ``mask @ X_a + ~mask @ X_b = mask @ (X_a - X_b) + ΣX_b``, so a single matrix product
  ``mask @ [X_1 … X_m]`` gives every system's trial sums; ``p = (#{|a_t - b_t| > d} + 1) / (T + 1)``.
* Holm (1979) step-down correction of a family of p-values.
* Clusters (WMT's convention, e.g. Barrault et al., 2019, §3.3): systems in rank order are cut into
  the finest groups such that every system of a higher group is significantly better than every
  system of every lower group.

Random draws follow sacreBLEU's (same calls on ``numpy.random.default_rng(seed)``), so a seed gives
sacreBLEU's resamples/trials for ``SACREBLEU_SEED=seed`` (the default seed is sacreBLEU's, 12345).
Both p-values count strict exceedances, as sacreBLEU does, with one exception: a zero observed
difference gets p = 1 (no significance is claimed for a zero difference). sacreBLEU gives two systems
with identical output the smallest p-value, ``1/(N + 1)`` (every resampled difference is 0, none
exceeds 0), which would put identical systems in different clusters.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from ..errors import InputError, OptionError
from ..metrics.base import Metric, SegmentStats
from ..progress import track
from .defaults import DEFAULT_SEED, reachable, smallest_p
from .display import ResultDisplay, StatisticResult, renamed
from .resampling import (
    BootstrapCI,
    bootstrap_scores,
    check_resampling,
    check_systems,
    interval_from_samples,
    stacked_values,
)

BOOTSTRAP = "paired bootstrap resampling (Koehn 2004; p-value as sacreBLEU -pbs)"
RANDOMIZATION = "approximate randomization (Riezler & Maxwell 2005; as sacreBLEU -par)"

#: trials whose float mask is multiplied at once
_CHUNK = 1000


def holm(pvalues: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (Holm, 1979), in the input order.

    Sorted ascending, ``p̃_(i) = max_{j ≤ i} min(1, (m - j + 1) · p_(j))``; NaN stays NaN and is not
    counted in ``m``.
    """
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    values = p[ok]
    if np.any((values < 0) | (values > 1)):
        raise InputError("p-values must lie in [0, 1]")
    m = len(values)
    if m == 0:
        return out
    order = np.argsort(values, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * values[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    out[ok] = adjusted
    return out


@dataclass(frozen=True, repr=False)
class PairComparison(StatisticResult):
    """One paired test: ``system`` against ``other`` (the baseline, in baseline mode)."""

    system: str
    other: str
    score: float
    other_score: float
    #: ``score - other_score``
    difference: float
    pvalue: float
    #: Holm-adjusted over every comparison of the result
    p_holm: float

    OUTPUT_KEYS = MappingProxyType({"pvalue": "p_value"})
    p_value = renamed("pvalue")

    @property
    def statistic(self) -> float:
        """The score difference (scipy's name)."""
        return self.difference


@dataclass(frozen=True, repr=False)
class SignificanceResult(ResultDisplay):
    """Scores, confidence intervals and pairwise paired tests of several systems on one metric."""

    method: str
    metric: str
    signature: str
    systems: tuple[str, ...]
    scores: tuple[float, ...]
    #: per system, in ``systems`` order (bootstrap percentile intervals)
    intervals: tuple[BootstrapCI, ...]
    comparisons: tuple[PairComparison, ...]
    #: resamples (bootstrap) or trials (randomization)
    resamples: int
    seed: int
    confidence: float
    baseline: str | None
    higher_is_better: bool = True

    def ranking(self) -> list[str]:
        """Systems from best to worst score."""
        sign = -1.0 if self.higher_is_better else 1.0
        order = sorted(range(len(self.systems)), key=lambda k: (sign * self.scores[k], self.systems[k]))
        return [self.systems[k] for k in order]

    def p_matrix(self, corrected: bool = True) -> np.ndarray:
        """Symmetric matrix of p-values (``systems`` order); NaN where no test was run."""
        index = {name: k for k, name in enumerate(self.systems)}
        mat = np.full((len(self.systems), len(self.systems)), np.nan)
        for c in self.comparisons:
            p = c.p_holm if corrected else c.pvalue
            mat[index[c.system], index[c.other]] = mat[index[c.other], index[c.system]] = p
        return mat

    def clusters(self, alpha: float = 0.05, corrected: bool = True) -> list[list[str]]:
        """Groups of systems not significantly different (see :func:`significance_clusters`)."""
        return significance_clusters(self, alpha=alpha, corrected=corrected)

    @property
    def test_signature(self) -> str:
        """The metric's signature plus the test's settings (as sacreBLEU: ``|bs:N|seed:S`` or
        ``|ar:N|bs:M|seed:S``)."""
        if self.method == RANDOMIZATION:
            test = f"ar:{self.resamples}|bs:{self.intervals[0].resamples}"
        else:
            test = f"bs:{self.resamples}"
        return f"{self.signature}|{test}|seed:{self.seed}|ci:{100 * self.confidence:g}%"

    def describe(self) -> str:
        unit = "trials" if self.method == RANDOMIZATION else "resamples"
        return (f"{self.method}; {self.resamples} {unit}, seed {self.seed}; "
                f"{100 * self.confidence:g}% intervals: {self.intervals[0].method}"
                f" ({self.intervals[0].resamples} resamples); Holm correction over "
                f"{len(self.comparisons)} comparisons")

    @property
    def smallest_p(self) -> float:
        """The smallest p-value the resamples can give, ``1/(R+1)``."""
        return smallest_p(self.resamples)

    def reachable(self, alpha: float = 0.05) -> bool:
        """Can a Holm-corrected p-value fall below ``alpha`` with these resamples? (m/(R+1) < α)"""
        return reachable(self.resamples, len(self.comparisons), alpha)

    def records(self) -> list[dict[str, Any]]:
        """One row per system, in rank order: score and interval."""
        by_name = dict(zip(self.systems, zip(self.scores, self.intervals)))
        return [{"system": name, "metric": self.metric, "score": by_name[name][0],
                 "mean": by_name[name][1].mean, "low": by_name[name][1].ci_low,
                 "high": by_name[name][1].ci_high} for name in self.ranking()]

    def comparison_records(self) -> list[dict[str, Any]]:
        """One row per paired test."""
        return [c.to_dict() for c in self.comparisons]

    def cluster_of(self, alpha: float = 0.05) -> dict[str, int]:
        """Each system's cluster number (1: the best), by :func:`significance_clusters`; empty
        with a baseline (clusters need every pair tested)."""
        if self.baseline is not None:
            return {}
        return {name: k + 1 for k, group in enumerate(self.clusters(alpha)) for name in group}

    def system_records(self, alpha: float = 0.05) -> list[dict[str, Any]]:
        """One row per system, in rank order: ``rank, system, metric, score, mean, low, high,
        cluster`` (None with a baseline), and the test against the baseline when there is one:
        ``vs, difference, p_value, p_holm`` (None on the baseline's own row)."""
        clusters = self.cluster_of(alpha)
        tests = {c.system: c for c in self.comparisons} if self.baseline is not None else {}
        rows = []
        for rank, row in enumerate(self.records(), start=1):
            out = {"rank": rank, **row, "cluster": clusters.get(row["system"])}
            if self.baseline is not None:
                test = tests.get(row["system"])
                out.update(zip(("vs", "difference", "p_value", "p_holm"),
                               (None,) * 4 if test is None else
                               (test.other, test.difference, test.pvalue, test.p_holm)))
            rows.append(out)
        return rows

    def pair_records(self, alpha: float = 0.05) -> list[dict[str, Any]]:
        """One row per paired test: ``system, other, score, other_score, difference, p_value,
        p_holm``, ``significant`` (``p_holm < alpha``) and ``same_cluster`` (None with a baseline):
        a significant pair in the same cluster is one the cluster rule does not cut."""
        clusters = self.cluster_of(alpha)
        return [{"system": c.system, "other": c.other, "score": c.score,
                 "other_score": c.other_score, "difference": c.difference, "p_value": c.pvalue,
                 "p_holm": c.p_holm, "significant": bool(c.p_holm < alpha),
                 "same_cluster": (clusters[c.system] == clusters[c.other]) if clusters else None}
                for c in self.comparisons]

    def to_pandas(self, alpha: float = 0.05) -> Any:
        """One row per system, in rank order, with its interval and cluster (and, with a
        baseline, its test): :meth:`system_records` as a :class:`pandas.DataFrame`. The p-values
        of every pair: :meth:`pairs_to_pandas`. Needs the ``pandas`` extra."""
        return _frame(self.system_records(alpha))

    def pairs_to_pandas(self, alpha: float = 0.05) -> Any:
        """One row per paired test, raw and Holm-corrected p-values, and whether the pair is
        significant and inside one cluster: :meth:`pair_records` as a :class:`pandas.DataFrame`."""
        return _frame(self.pair_records(alpha))

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out["intervals"] = [ci.to_dict() for ci in self.intervals]
        out["comparisons"] = [c.to_dict() for c in self.comparisons]
        return out


def _frame(rows: list[dict[str, Any]]) -> Any:
    """A :class:`pandas.DataFrame` of ``rows`` (a :class:`MissingExtraError` without pandas)."""
    from ..errors import require_extra

    pd = require_extra("pandas", "pandas", "to_pandas()")
    return pd.DataFrame(rows)


def _pairs(names: list[str], baseline: str | None, scores: np.ndarray,
           higher_is_better: bool) -> list[tuple[int, int]]:
    """(system, other) index pairs: every system against the baseline, or all pairs (the better
    system of each pair first, in rank order)."""
    if baseline is None:
        sign = -1.0 if higher_is_better else 1.0
        ranked = sorted(range(len(names)), key=lambda k: (sign * scores[k], names[k]))
        return list(itertools.combinations(ranked, 2))
    if baseline not in names:
        raise OptionError("baseline", baseline, names)
    b = names.index(baseline)
    return [(k, b) for k in range(len(names)) if k != b]


def _check_two(names: list[str]) -> None:
    if len(names) < 2:
        raise InputError("a paired test needs at least two systems")


def _comparisons(names: list[str], scores: np.ndarray, pairs: list[tuple[int, int]],
                 pvalues: list[float]) -> tuple[PairComparison, ...]:
    adjusted = holm(pvalues)
    return tuple(PairComparison(names[a], names[b], float(scores[a]), float(scores[b]),
                                float(scores[a] - scores[b]), float(p), float(q))
                 for (a, b), p, q in zip(pairs, pvalues, adjusted))


def _corpus_scores(metric: Metric[Any], stats: list[SegmentStats]) -> np.ndarray:
    return metric.compute_many(np.stack([s.total() for s in stats]).astype(np.float64))


def paired_bootstrap(metric: Metric[Any], stats_by_system: Mapping[str, SegmentStats],
                     baseline: str | None = None, resamples: int = 1000, seed: int = DEFAULT_SEED,
                     confidence: float = 0.95) -> SignificanceResult:
    """Paired bootstrap resampling of every system against ``baseline`` (or of all pairs).

    One index matrix serves every system; the confidence intervals come from the same resamples.
    """
    check_resampling(resamples, seed, confidence)
    names, stats = check_systems(stats_by_system)
    _check_two(names)
    scores = _corpus_scores(metric, stats)
    pairs = _pairs(names, baseline, scores, metric.higher_is_better)
    samples = bootstrap_scores(metric, stats, resamples, seed)
    pvalues: list[float] = []
    for a, b in pairs:
        observed = abs(scores[a] - scores[b])
        diffs = np.abs(samples[:, a] - samples[:, b])
        centred = diffs - diffs.mean()
        pvalues.append(1.0 if observed == 0 else
                       float(np.count_nonzero(centred > observed) + 1) / (resamples + 1))
    signature = metric.signature(stats[0].meta)
    intervals = tuple(interval_from_samples(scores[k], samples[:, k], confidence, resamples, seed,
                                            signature) for k in range(len(names)))
    return SignificanceResult(
        method=BOOTSTRAP, metric=metric_label(metric, stats[0].meta), signature=signature,
        systems=tuple(names),
        scores=tuple(float(s) for s in scores), intervals=intervals,
        comparisons=_comparisons(names, scores, pairs, pvalues), resamples=resamples, seed=seed,
        confidence=confidence, baseline=baseline, higher_is_better=metric.higher_is_better)


def randomization_masks(n_segments: int, trials: int, seed: int) -> np.ndarray:
    """``trials × n_segments`` booleans: True where a trial swaps the systems (sacreBLEU's draw)."""
    rng = np.random.default_rng(seed)
    return rng.integers(2, size=(trials, n_segments), dtype=bool)


def approximate_randomization(metric: Metric[Any], stats_by_system: Mapping[str, SegmentStats],
                              baseline: str | None = None, trials: int = 10000, seed: int = DEFAULT_SEED,
                              confidence: float = 0.95,
                              confidence_resamples: int = 1000) -> SignificanceResult:
    """Paired approximate randomization of every system against ``baseline`` (or of all pairs).

    The confidence intervals are percentile bootstrap intervals (``confidence_resamples`` resamples,
    same seed), since randomization gives none.
    """
    check_resampling(trials, seed, confidence, name="trials")
    check_resampling(confidence_resamples, seed, None, name="confidence_resamples")
    names, stats = check_systems(stats_by_system)
    _check_two(names)
    scores = _corpus_scores(metric, stats)
    pairs = _pairs(names, baseline, scores, metric.higher_is_better)
    values, width = stacked_values(stats)
    totals = values.sum(axis=0)
    masks = randomization_masks(values.shape[0], trials, seed)
    exceed = np.zeros(len(pairs), dtype=np.int64)
    observed = np.array([abs(scores[a] - scores[b]) for a, b in pairs])
    for start in track(range(0, trials, _CHUNK), total=-(-trials // _CHUNK), min_total=10,
                       desc="randomization"):
        picked = masks[start:start + _CHUNK].astype(np.float64) @ values  # trials × (systems·cols)
        for j, (a, b) in enumerate(pairs):
            pa = picked[:, a * width:(a + 1) * width]
            pb = picked[:, b * width:(b + 1) * width]
            ta, tb = totals[a * width:(a + 1) * width], totals[b * width:(b + 1) * width]
            # trial system 1 takes a's rows where the mask is True and b's elsewhere; system 2 the rest
            shuf_1 = pa - pb + tb
            shuf_2 = ta + tb - shuf_1
            diff = np.abs(metric.compute_many(shuf_1) - metric.compute_many(shuf_2))
            exceed[j] += np.count_nonzero(diff > observed[j])
    pvalues = [1.0 if observed[j] == 0 else (int(c) + 1) / (trials + 1)
               for j, c in enumerate(exceed)]
    signature = metric.signature(stats[0].meta)
    samples = bootstrap_scores(metric, stats, confidence_resamples, seed)
    intervals = tuple(interval_from_samples(scores[k], samples[:, k], confidence,
                                            confidence_resamples, seed, signature)
                      for k in range(len(names)))
    return SignificanceResult(
        method=RANDOMIZATION, metric=metric_label(metric, stats[0].meta), signature=signature,
        systems=tuple(names), scores=tuple(float(s) for s in scores), intervals=intervals,
        comparisons=_comparisons(names, scores, pairs, pvalues), resamples=trials, seed=seed,
        confidence=confidence, baseline=baseline, higher_is_better=metric.higher_is_better)


def significance_clusters(result: SignificanceResult, alpha: float = 0.05,
                          corrected: bool = True) -> list[list[str]]:
    """Systems in rank order, cut into the finest groups such that every system of a group is
    significantly better (p < ``alpha``, Holm-adjusted if ``corrected``) than every system of every
    lower group. Needs all pairs tested (``baseline=None``)."""
    if not 0 < alpha < 1:
        raise OptionError("alpha", alpha, detail="must be strictly between 0 and 1")
    ranking = result.ranking()
    index = {name: k for k, name in enumerate(result.systems)}
    pmat = result.p_matrix(corrected)
    order = [index[name] for name in ranking]
    sub = pmat[np.ix_(order, order)]
    m = len(order)
    for i in range(m):
        for j in range(i + 1, m):
            if np.isnan(sub[i, j]):
                raise InputError("clusters need every pair of systems tested: run the test "
                                 "without a baseline")
    clusters: list[list[str]] = [[ranking[0]]]
    for cut in range(1, m):
        # a boundary before position `cut` if every system above beats every system below
        separated = bool(np.all(sub[:cut, cut:] < alpha))
        if separated:
            clusters.append([ranking[cut]])
        else:
            clusters[-1].append(ranking[cut])
    return clusters


def metric_label(metric: Metric[Any], meta: Mapping[str, str] | None = None) -> str:
    """A metric's name in results: its signature's name (``BLEU``, ``METEOR``, ``chrF2``, an
    external metric's own name)."""
    return str(metric.signature(meta)).split("|", 1)[0] or type(metric).__name__
