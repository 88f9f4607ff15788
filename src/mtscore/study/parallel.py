"""A study's statistics extracted in worker processes (``run_study(jobs=...)``, ``study --jobs``).

One task per system: a worker extracts every metric's statistics of that system against the
system's reference set, exactly as :meth:`.metrics.Statistics.get` does in one process (a
segment's statistics depend on that segment alone), so the study's numbers are identical for any
number of jobs. Workers are :mod:`mtscore.pool`'s, started with ``spawn`` (no fork-only path: macOS
and Windows too; a worker's exception is raised here); each
receives the data set and the metric objects once, when it starts, and prepares each reference set
once. Within a worker, metric objects that share a cache (the METEOR module ablation's stage cache)
still share it: they arrive in one pickle.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..io.dataset import Dataset
from ..metrics.base import SegmentStats
from ..pool import ordered, process_pool
from .metrics import Statistics
from .model import MetricSpec

#: a worker's data set statistics and metrics (set once per worker process by :func:`_start`)
_WORKER: dict[str, Any] = {}


def _start(dataset: Dataset, specs: Sequence[MetricSpec]) -> None:
    """A worker's initializer: its :class:`Statistics` over ``dataset`` and the metrics."""
    _WORKER["data"] = Statistics(dataset)
    _WORKER["specs"] = list(specs)


def _system_stats(system: str) -> dict[str, SegmentStats]:
    """Every metric's statistics of ``system`` (run in a worker)."""
    data: Statistics = _WORKER["data"]
    ref_ids = data.dataset.reference_ids_for(system)
    return {spec.label: data.get(spec, system, ref_ids) for spec in _WORKER["specs"]}


def system_statistics(dataset: Dataset, specs: Sequence[MetricSpec], systems: Sequence[str],
                      jobs: int) -> Iterator[tuple[str, dict[str, SegmentStats]]]:
    """(system, metric label -> statistics) for every system, in the order given, from ``jobs``
    worker processes (at most one per system); ``specs``: the metrics to extract (not those with
    given statistics, ``spec.stats``)."""
    workers = max(1, min(jobs, len(systems)))
    with process_pool(workers, initializer=_start, initargs=(dataset, list(specs))) as pool:
        yield from ordered(lambda system: pool.submit(_system_stats, system), systems, len(systems))
