"""Extraction of chunks, here or in worker processes (``spawn``: no fork-only path), results in order;
and gathering their statistics (running sums, or every row for resampling).
"""

from __future__ import annotations

import functools
import pickle
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..metrics.base import Metric, SegmentStats
from .reading import Chunk

if TYPE_CHECKING:  # the pool's modules are imported when a pool starts (a one-chunk run needs none)
    from concurrent.futures import Executor, Future


class Plan(NamedTuple):
    """What every chunk's extraction needs: the metrics and their whole-corpus reference data."""

    metrics: tuple[Metric[Any], ...]
    corpora: tuple[Any, ...]


def make_plan(metrics: Sequence[Metric[Any]], read_references: Callable[[], list[list[str | None]]]
              ) -> Plan:
    """The metrics with what each needs from the whole reference corpus (read at most once)."""
    cache: list[list[list[str | None]]] = []

    def read() -> list[list[str | None]]:
        if not cache:
            cache.append(read_references())
        return cache[0]

    return Plan(tuple(metrics), tuple(m.reference_corpus(read) for m in metrics))


def extract_chunk(plan: Plan, chunk: Chunk, totals_only: bool) -> list[list[SegmentStats]]:
    """Per metric, per system: the chunk's statistics (``totals_only``: their sum, one row, where
    the statistics are integers and so sum exactly in any order)."""
    out = []
    for metric, corpus in zip(plan.metrics, plan.corpora):
        prepared = metric.prepare_chunk(chunk.refs, corpus, chunk.start)
        row = []
        for hyps in chunk.systems:
            stats = metric.extract(hyps, prepared)
            if totals_only and np.issubdtype(stats.values.dtype, np.integer):
                stats = SegmentStats(stats.columns, stats.values.sum(axis=0)[None, :], stats.meta)
            row.append(stats)
        out.append(row)
    return out


#: the plan a worker process was started with (set by :func:`_start_worker`)
_WORKER: dict[str, Plan] = {}


def _start_worker(payload: bytes) -> None:
    _WORKER["plan"] = pickle.loads(payload)


@functools.lru_cache(maxsize=4)
def _plan_of(payload: bytes) -> Plan:
    plan: Plan = pickle.loads(payload)
    return plan


def chunk_task(payload: bytes | None, chunk: Chunk, totals_only: bool) -> list[list[SegmentStats]]:
    """:func:`extract_chunk` in a worker: the plan it was started with (``payload`` None) or the
    pickled plan given (unpickled once per worker: Dask workers are not started with it)."""
    plan = _plan_of(payload) if payload is not None else _WORKER.get("plan")
    if plan is None:
        raise RuntimeError("worker started without a plan")
    return extract_chunk(plan, chunk, totals_only)


def extracted(plan: Plan, chunks: Iterable[Chunk], totals_only: bool, jobs: int = 1,
              executor: Executor | None = None, payload: Any = None
              ) -> Iterator[tuple[Chunk, list[list[SegmentStats]]]]:
    """Each chunk with its statistics, in order. With ``jobs`` > 1 and more than one chunk, in
    ``jobs`` spawned processes (at most ``2 * jobs`` chunks in flight); ``executor`` (with a
    ``payload`` that stands for the pickled plan there, e.g. a Dask future): on that executor."""
    chunks = iter(chunks)
    if executor is not None:
        yield from _in_order(executor, payload, list(islice(chunks, 1)), chunks, totals_only,
                             2 * max(jobs, 1))
        return
    # the first chunk in this process, before the next is read: a piped input's first scores come
    # out while it is still being written, and a one-chunk corpus never starts a pool
    for chunk in islice(chunks, 1):
        yield chunk, extract_chunk(plan, chunk, totals_only)
    head = list(islice(chunks, 1))
    if jobs <= 1 or not head:
        for chunk in chain(head, chunks):
            yield chunk, extract_chunk(plan, chunk, totals_only)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                             initargs=(pickle.dumps(plan),)) as pool:
        try:
            yield from _in_order(pool, None, head, chunks, totals_only, 2 * jobs)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _in_order(executor: Executor, payload: Any, head: list[Chunk], chunks: Iterator[Chunk],
              totals_only: bool, window: int) -> Iterator[tuple[Chunk, list[list[SegmentStats]]]]:
    """Submit chunks keeping ``window`` in flight; yield the results in the order read."""
    queue: deque[tuple[Chunk, Future[list[list[SegmentStats]]]]] = deque()
    for chunk in chain(head, chunks):
        queue.append((chunk, executor.submit(chunk_task, payload, chunk, totals_only)))
        if len(queue) >= window:
            done, future = queue.popleft()
            yield done, future.result()
    while queue:
        done, future = queue.popleft()
        yield done, future.result()


class Gathered:
    """The statistics of a corpus gathered chunk by chunk: per metric and system, every row
    (``keep_rows``, for resampling) or only each chunk's sum where the statistics are integers
    (floats are kept per segment, so the corpus sum is the one the whole-corpus path computes)."""

    def __init__(self, plan: Plan, systems: Sequence[str], keep_rows: bool):
        self.plan, self.systems, self.keep_rows = plan, list(systems), keep_rows
        self._parts: list[list[list[SegmentStats]]] = [[[] for _ in systems] for _ in plan.metrics]
        self.segments = 0

    def add(self, chunk: Chunk, stats: list[list[SegmentStats]]) -> None:
        """Keep one chunk's statistics (per metric, per system)."""
        self.segments += len(chunk)
        for parts, row in zip(self._parts, stats):
            for part, st in zip(parts, row):
                if not self.keep_rows and len(st) > 1 and np.issubdtype(st.values.dtype, np.integer):
                    st = SegmentStats(st.columns, st.values.sum(axis=0)[None, :], st.meta)
                part.append(st)

    def stats(self, metric: int, system: int) -> SegmentStats:
        """One system's statistics for one metric (rows per segment only with ``keep_rows``)."""
        return SegmentStats.concat(self._parts[metric][system])

    def result(self, metric: int, system: int) -> Any:
        """The corpus result: ``compute`` of the summed statistics."""
        stats = self.stats(metric, system)
        return self.plan.metrics[metric].compute(stats.total(), stats.meta)

    def results(self) -> dict[str, dict[str, Any]]:
        """system -> metric name -> corpus result."""
        return {name: {m.name: self.result(i, s) for i, m in enumerate(self.plan.metrics)}
                for s, name in enumerate(self.systems)}
