"""A meta-evaluation in worker processes (``mtscore meta-eval --jobs N``): the built-in metrics'
segment scores of the data sets, and the tasks.

Scoring: one task per (data set, metric): a worker runs :func:`.meta_data.builtin_scores` for that
metric alone, exactly as one process does (a segment's statistics depend on that segment alone,
and each metric is scored on its own), so the numbers are identical for any number of jobs.
Tasks (:func:`meta_evaluate_jobs`): as soon as every metric of a data set is scored, its matrices
are assembled here (:func:`.meta_data.pair_data`) and the tasks on the data sets ready go to the
workers, ahead of the scoring left: one :func:`.meta_eval.run_task` each, with the task's own
seeded generator, so the results equal :func:`.meta_eval.meta_evaluate`'s. The workers stay busy
until the end (a long scoring task overlaps with the tasks of the data sets done; one task more
than the workers is submitted, so none waits while a data set is assembled here).

Workers are :mod:`mtscore.pool`'s, started with ``spawn``; each receives the data sets once, when
it starts. A worker's error is raised here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..io.dataset import Dataset
from ..pool import ordered, process_pool
from ..stats.early_stopping import EarlyStopping
from .meta_data import (
    PairData,
    builtin_scores,
    domain_columns,
    main_reference,
    pair_data,
    scored_systems,
)
from .meta_eval import MetaEvaluation, TaskResult, check_same_metrics, evaluation, run_task
from .meta_tasks import MetaTask

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


def _plans(requests: Sequence[tuple[Dataset, Mapping[str, Any]]]) -> list[ScoringPlan]:
    """What to score of each (data set, its :func:`.meta_data.pair_data` keyword arguments)."""
    plans = []
    for ds, options in requests:
        reference = main_reference(ds, options.get("reference"))
        systems, _ = scored_systems(ds, reference, options.get("human", False),
                                    options.get("exclude", ()),
                                    options.get("include_outliers", False))
        plans.append(ScoringPlan(ds, systems, reference,
                                 domain_columns(ds, options.get("domain"))))
    return plans


def pair_data_jobs(requests: Sequence[tuple[Dataset, Mapping[str, Any]]], metrics: Sequence[str],
                   jobs: int) -> list[PairData]:
    """:func:`.meta_data.pair_data` of every (data set, its keyword arguments but ``metrics``),
    with the built-in metrics scored in ``jobs`` worker processes."""
    scored = builtin_scores_jobs(_plans(requests), metrics, jobs)
    return [pair_data(ds, metrics, scored=s, **options) for (ds, options), s in zip(requests, scored)]


@dataclass(frozen=True)
class TaskOptions:
    """How every task of a run is made (:func:`.meta_eval.run_task`'s arguments but the data)."""

    resamples: int
    seed: int
    stopping: EarlyStopping
    alpha: float = 0.05
    common_segments: bool = True


def _task(job: tuple[MetaTask, list[PairData], TaskOptions]) -> TaskResult:
    task, data, o = job
    return run_task(task, data, o.resamples, o.seed, o.stopping, o.alpha, o.common_segments)


def meta_evaluate_jobs(year: str, tasks: Sequence[MetaTask],
                       requests: Sequence[tuple[Dataset, Mapping[str, Any]]],
                       metrics: Sequence[str], jobs: int, options: TaskOptions
                       ) -> tuple[list[PairData], MetaEvaluation]:
    """Each data set's :func:`.meta_data.pair_data` and :func:`.meta_eval.meta_evaluate` of
    ``tasks`` on them (data sets by name), with the scoring and the tasks in ``jobs`` worker
    processes (module docstring; one job: in this process). Equal to the two run in turn."""
    if jobs <= 1:
        data = pair_data_jobs(requests, metrics, 1)
        check_same_metrics(data)
        by_name = {d.name: d for d in data}
        in_turn = [_task((t, [by_name[p] for p in t.pairs], options)) for t in tasks]
        return data, evaluation(year, in_turn, options.resamples, options.seed, options.alpha)
    from concurrent.futures import FIRST_COMPLETED, Future, wait

    plans = _plans(requests)
    names = [ds.name for ds, _ in requests]
    scored: list[Scores] = [({}, {}) for _ in plans]
    left = [len(metrics)] * len(plans)
    waiting = deque((k, m) for k in range(len(plans)) for m in metrics)
    ready: deque[int] = deque()  # tasks whose data sets are all assembled
    built: dict[str, PairData] = {}
    results: dict[int, TaskResult] = {}
    running: dict[Future[Any], tuple[str, Any]] = {}

    def assemble(k: int) -> None:
        ds, kwargs = requests[k]
        built[names[k]] = pair_data(ds, metrics, scored=scored[k], **kwargs)
        check_same_metrics(built.values())
        ready.extend(i for i, t in enumerate(tasks) if names[k] in t.pairs and
                     all(p in built for p in t.pairs))

    for k in range(len(plans)):
        if not left[k]:
            assemble(k)
    with process_pool(jobs, initializer=_start, initargs=(list(plans),)) as pool:
        while waiting or ready or running:
            while len(running) <= jobs and (ready or waiting):  # one ahead: no worker waits
                if ready:
                    i = ready.popleft()
                    job = (tasks[i], [built[p] for p in tasks[i].pairs], options)
                    running[pool.submit(_task, job)] = ("task", i)
                else:
                    item = waiting.popleft()
                    running[pool.submit(_score, item)] = ("score", item)
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                kind, what = running.pop(future)
                if kind == "task":
                    results[what] = future.result()
                    continue
                seg, system = future.result()
                scored[what[0]][0].update(seg)
                scored[what[0]][1].update(system)
                left[what[0]] -= 1
                if not left[what[0]]:
                    assemble(what[0])
    data = [built[n] for n in names]
    ordered_results = [results[i] for i in range(len(tasks))]
    return data, evaluation(year, ordered_results, options.resamples, options.seed, options.alpha)


__all__ = ["Scores", "ScoringPlan", "TaskOptions", "builtin_scores_jobs", "meta_evaluate_jobs",
           "pair_data_jobs"]
