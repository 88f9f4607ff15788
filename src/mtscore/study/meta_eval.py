"""Run a task set (:mod:`.meta_tasks`) on the data (:mod:`.meta_data`): each task's statistic per
metric, its significance tests between metrics and rank clusters, and the weighted average over
tasks with its own clusters — as mt-metrics-eval's ``Task.Run``, ``CompareMetrics*`` and
``TaskSetResults.AverageCorrs``/``AverageCorrMatrix`` do.

* Within a task, metrics are sorted by decreasing statistic (ties by name); for i < j the
  p-value of "metric i is better than metric j" fills the matrix; ranks come from
  :func:`mtscore.stats.rank_clusters.assign_ranks`.
* The average maps each task's statistic onto [0, 1] by the statistic's range (Pearson's
  [−1, 1]: (r + 1)/2), weights it and sums; only metrics present in every task are averaged.
  Its significance reuses every task's permutation draws: for a metric pair, each task's null
  differences are weighted and range-scaled, repeated to the longest run (early stopping makes
  runs differ in length), summed over tasks, and compared with the observed average difference.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..stats.correlation import pairwise_accuracy, rowwise_correlation
from ..stats.early_stopping import WMT_STOPPING, EarlyStopping
from ..stats.pairwise_permutation import pairwise_permutation_tests
from ..stats.perm_both import perm_both_tests, spa_permutation_tests
from ..stats.permutation_runs import MetricComparison
from ..stats.rank_clusters import assign_ranks
from ..stats.spa import judged_columns, soft_pairwise_accuracies
from .meta_data import PairData
from .meta_tasks import MetaTask


@dataclass(frozen=True, eq=False)
class TaskResult:
    """One task's statistics (metrics sorted best first), ranks and p-value matrix."""

    task: MetaTask
    statistics: Mapping[str, float]
    ranks: Mapping[str, int]
    #: pvalues[i, j], i < j: p-value of "metric i is better than metric j" (sorted order)
    pvalues: np.ndarray
    comparisons: Mapping[tuple[str, str], MetricComparison]
    note: str = ""

    @property
    def metrics(self) -> list[str]:
        return list(self.statistics)

    def null(self, m1: str, m2: str) -> np.ndarray:
        """Permutation draws of corr(m1)* − corr(m2)*."""
        if (m2, m1) in self.comparisons:
            return self.comparisons[(m2, m1)].null
        return -self.comparisons[(m1, m2)].null


@dataclass(frozen=True, eq=False)
class MetaEvaluation:
    """A task set's results and their weighted average."""

    year: str
    tasks: tuple[TaskResult, ...]
    average: Mapping[str, float]
    average_ranks: Mapping[str, int]
    average_pvalues: np.ndarray
    resamples: int
    seed: int


def spa_human(human: np.ndarray, common_segments: bool) -> np.ndarray:
    """The human matrix SPA uses: with ``common_segments``, a segment not judged for every system
    is left out (marked unjudged for all), else such a segment is an error (:func:`judged_columns`)."""
    if not common_segments:
        judged_columns(human)
        return human
    every = (~np.isnan(human)).all(axis=0)
    return np.where(every[None, :], human, np.nan)


def _values(task: MetaTask, data: Sequence[PairData], common_segments: bool
            ) -> tuple[dict[str, float], str]:
    """Each metric's statistic on the task, and a note (segments used)."""
    d = data[0]
    if task.statistic == "spa":
        res = soft_pairwise_accuracies(d.metrics, spa_human(d.human, common_segments))
        first = next(iter(res.values()))
        return {m: r.statistic for m, r in res.items()}, \
            f"SPA on the {first.segments} segments judged for all {first.systems} systems"
    if task.statistic == "acc23":
        return {m: pairwise_accuracy(x, d.human, "item").statistic
                for m, x in d.metrics.items()}, ""
    stack, human = perm_arrays(task, data)
    stats = statistic_function(task, data, human)(np.stack(list(stack.values())))
    return dict(zip(stack, (float(v) for v in stats))), ""


def perm_arrays(task: MetaTask, data: Sequence[PairData]
                 ) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The score vectors PERM-BOTH swaps for WMT23's Pearson and accuracy tasks, and the human
    vector: system scores (system level, over all pairs for accuracy; human: the mean of the
    judged segments, as WMT) or the judged cells."""
    names = list(data[0].metrics)
    if task.level == "system":
        human = np.concatenate([np.nanmean(d.human, axis=1) for d in data])
        return {m: np.concatenate([d.system_metrics[m] for d in data]) for m in names}, human
    ok = ~np.isnan(data[0].human)
    return {m: data[0].metrics[m][ok] for m in names}, data[0].human[ok]


def statistic_function(task: MetaTask, data: Sequence[PairData], human: np.ndarray
                  ) -> Callable[[np.ndarray], np.ndarray]:
    """The statistic of each row of a stack of score vectors (WMT23's PERM-BOTH tasks)."""
    if task.statistic == "accuracy":  # agreement over the system pairs of every data set
        bounds = np.cumsum([0] + [len(d.systems) for d in data])
        idx = [np.triu_indices(e - b, 1) for b, e in itertools.pairwise(bounds)]
        i = np.concatenate([b + a for b, (a, _) in zip(bounds, idx)])
        j = np.concatenate([b + c for b, (_, c) in zip(bounds, idx)])
        sign_h = np.sign(human[i] - human[j])
        return lambda s: (np.sign(s[:, i] - s[:, j]) == sign_h).mean(axis=1)
    return lambda s: rowwise_correlation(s, np.broadcast_to(human, s.shape), "pearson")


def run_task(task: MetaTask, data: Sequence[PairData], resamples: int, seed: int,
             stopping: EarlyStopping, alpha: float = 0.05, common_segments: bool = True
             ) -> TaskResult:
    """One task: statistics, tests between every two metrics, rank clusters."""
    values, note = _values(task, data, common_segments)
    order = sorted(values, key=lambda m: (-values[m], m))
    pairs = [(order[j], order[i]) for i in range(len(order)) for j in range(i + 1, len(order))]
    comps: dict[tuple[str, str], MetricComparison] = {}
    if resamples and pairs:
        d = data[0]
        if task.statistic == "spa":
            comps = spa_permutation_tests(spa_human(d.human, common_segments), d.metrics, pairs,
                                          resamples, seed, stopping)
        elif task.statistic == "acc23":
            comps = pairwise_permutation_tests(d.human, d.metrics, pairs, resamples, seed,
                                               stopping)
        else:
            stack, human = perm_arrays(task, data)
            comps = perm_both_tests(stack, pairs, statistic_function(task, data, human), resamples,
                                    seed, stopping)
    p = np.zeros((len(order), len(order)))
    for i in range(len(order)):
        for j in range(i + 1, len(order)):
            if comps:
                p[i, j] = comps[(order[j], order[i])].pvalue
    ranks = assign_ranks(p, alpha)
    return TaskResult(task=task, statistics={m: values[m] for m in order},
                      ranks=dict(zip(order, ranks)), pvalues=p, comparisons=comps, note=note)


def average(results: Sequence[TaskResult], alpha: float = 0.05
            ) -> tuple[dict[str, float], dict[str, int], np.ndarray]:
    """Weighted average of the range-scaled statistics, its p-values and rank clusters
    (``AverageCorrs``, ``AverageCorrMatrix``)."""
    common = set(results[0].statistics).intersection(*(r.statistics for r in results))
    avg = {m: sum(r.task.weight * (r.statistics[m] - r.task.value_range[0]) /
                  (r.task.value_range[1] - r.task.value_range[0]) for r in results)
           for m in common}
    names = sorted(avg, key=lambda m: (-avg[m], m))
    p = np.zeros((len(names), len(names)))
    if all(r.comparisons for r in results):
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                p[i, j] = _average_pvalue(results, names[i], names[j], avg[names[i]] - avg[names[j]])
    ranks = assign_ranks(p, alpha)
    return {m: avg[m] for m in names}, dict(zip(names, ranks)), p


def _average_pvalue(results: Sequence[TaskResult], m1: str, m2: str, diff: float) -> float:
    nulls = [r.null(m1, m2) for r in results]
    longest = max(len(n) for n in nulls)
    total = np.zeros(longest)
    for r, n in zip(results, nulls):
        lo, hi = r.task.value_range
        total += np.resize(r.task.weight * n / (hi - lo), longest)
    return float(np.mean(total >= diff))


def meta_evaluate(year: str, tasks: Sequence[MetaTask], data: Mapping[str, PairData],
                  resamples: int = 1000, seed: int = 12345,
                  stopping: EarlyStopping = WMT_STOPPING, alpha: float = 0.05,
                  common_segments: bool = True) -> MetaEvaluation:
    """Run every task of a task set on the data sets (by name). ``common_segments``: SPA keeps
    the segments judged for every system (see :func:`spa_human`)."""
    check_same_metrics(data.values())
    results = tuple(run_task(t, [data[p] for p in t.pairs], resamples, seed, stopping, alpha,
                             common_segments) for t in tasks)
    return evaluation(year, results, resamples, seed, alpha)


def check_same_metrics(data: Iterable[PairData]) -> None:
    """Every data set has the same metrics (else an error naming the differing ones)."""
    names: list[set[str]] = [set(d.metrics) for d in data]
    if any(n != names[0] for n in names):
        raise InputError("every data set needs the same metrics; differing: " +
                         ", ".join(sorted(set().union(*names) - names[0].intersection(*names))))


def evaluation(year: str, results: Sequence[TaskResult], resamples: int, seed: int,
               alpha: float = 0.05) -> MetaEvaluation:
    """The task set's results with their weighted average (:func:`average`)."""
    avg, ranks, p = average(results, alpha)
    return MetaEvaluation(year=year, tasks=tuple(results), average=avg, average_ranks=ranks,
                          average_pvalues=p, resamples=resamples, seed=seed)


__all__ = ["MetaEvaluation", "TaskResult", "average", "check_same_metrics", "evaluation",
           "meta_evaluate", "perm_arrays", "run_task", "statistic_function"]
