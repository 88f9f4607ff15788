"""The built-in metrics' segment scores of a meta-evaluation's data sets in worker processes
(``mtscore meta-eval --jobs N``).

One task per (data set, metric): a worker runs :func:`.meta_data.builtin_scores` for that metric
alone, exactly as one process does (a segment's statistics depend on that segment alone, and each
metric is scored on its own), so the numbers are identical for any number of jobs. Workers are
:mod:`mtscore.pool`'s, started with ``spawn``; each receives the data sets once, when it starts.
Results are read in the order of the tasks; a worker's error is raised here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..io.dataset import Dataset
from ..pool import ordered, process_pool
from .meta_data import (
    PairData,
    builtin_scores,
    domain_columns,
    main_reference,
    pair_data,
    scored_systems,
)

#: the data sets of a worker process (set once by :func:`_start`)
_WORKER: dict[str, Any] = {}


@dataclass(frozen=True)
class ScoringPlan:
    """What to score of one data set: its systems against one reference, on the kept segments."""

    dataset: Dataset
    systems: tuple[str, ...]
    reference: str
    keep: np.ndarray | None


#: metric label -> systems × segments scores, and metric label -> system-level scores
Scores = tuple[dict[str, np.ndarray], dict[str, np.ndarray]]


def _start(plans: Sequence[ScoringPlan]) -> None:
    _WORKER["plans"] = list(plans)


def _score(task: tuple[int, str]) -> Scores:
    plan: ScoringPlan = _WORKER["plans"][task[0]]
    return builtin_scores(plan.dataset, plan.systems, plan.reference, [task[1]], plan.keep)


def builtin_scores_jobs(plans: Sequence[ScoringPlan], metrics: Sequence[str], jobs: int
                        ) -> list[Scores]:
    """:func:`.meta_data.builtin_scores` of ``metrics`` for every plan, in ``jobs`` worker
    processes (at most one per task; one job: in this process)."""
    tasks = [(k, m) for k in range(len(plans)) for m in metrics]
    out: list[Scores] = [({}, {}) for _ in plans]
    if jobs <= 1 or len(tasks) <= 1:
        for k, plan in enumerate(plans):
            out[k] = builtin_scores(plan.dataset, plan.systems, plan.reference, metrics, plan.keep)
        return out
    workers = min(jobs, len(tasks))
    with process_pool(workers, initializer=_start, initargs=(list(plans),)) as pool:
        for (k, _), (seg, system) in ordered(lambda t: pool.submit(_score, t), tasks, len(tasks)):
            out[k][0].update(seg)
            out[k][1].update(system)
    return out


def pair_data_jobs(requests: Sequence[tuple[Dataset, Mapping[str, Any]]], metrics: Sequence[str],
                   jobs: int) -> list[PairData]:
    """:func:`.meta_data.pair_data` of every (data set, its keyword arguments but ``metrics``),
    with the built-in metrics scored in ``jobs`` worker processes."""
    plans = []
    for ds, options in requests:
        reference = main_reference(ds, options.get("reference"))
        systems, _ = scored_systems(ds, reference, options.get("human", False),
                                    options.get("exclude", ()),
                                    options.get("include_outliers", False))
        plans.append(ScoringPlan(ds, systems, reference,
                                 domain_columns(ds, options.get("domain"))))
    scored = builtin_scores_jobs(plans, metrics, jobs)
    return [pair_data(ds, metrics, scored=s, **options) for (ds, options), s in zip(requests, scored)]


__all__ = ["Scores", "ScoringPlan", "builtin_scores_jobs", "pair_data_jobs"]
