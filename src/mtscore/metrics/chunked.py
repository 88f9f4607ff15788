"""A corpus extracted chunk by chunk, here or in worker processes, results in order: the engine of
:meth:`Metric.extract_stream <mtscore.metrics.base.Metric.extract_stream>`, of
:mod:`mtscore.streaming` (files) and of :mod:`mtscore.dask`.

A segment's statistics do not depend on the other segments (NIST's information weights excepted:
:meth:`Metric.reference_corpus` gives what every chunk needs from the whole reference corpus), so
the statistics of the chunks, concatenated, equal ``extract`` of the whole corpus. Worker processes
are :mod:`mtscore.pool`'s, started with ``spawn`` (no fork-only path), only when the input has more
than one chunk; a worker's exception is raised here.
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np

from ..errors import InputError, OptionError
from ..io.references import check_reference_streams
from ..pool import check_jobs, ordered, process_pool
from .segment_stats import SegmentStats

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from .base import Metric

#: segments per chunk: large enough that numpy's cost per call does not count, small enough that a
#: chunk of text and its statistics take a few tens of MB
DEFAULT_CHUNK = 20_000


@dataclass(frozen=True, eq=False)
class Chunk:
    """Segments ``start .. start + len(systems[0]) - 1`` of every system and reference stream
    (never compared: no generated ``__eq__``/``__hash__`` to build at start-up)."""

    start: int
    systems: list[list[str]]
    refs: list[list[str | None]]

    def __len__(self) -> int:
        return len(self.refs[0])


def check_chunking(chunk_size: int, jobs: int | None) -> int:
    """Validate ``chunk_size`` and ``jobs``; the number of jobs (None: :func:`mtscore.pool.default_jobs`)."""
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise OptionError("chunk size", chunk_size, detail="a positive number of segments")
    return check_jobs(jobs)


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
    ``jobs`` spawned processes (:mod:`mtscore.pool`; at most ``2 * jobs`` chunks in flight);
    ``executor`` (with a ``payload`` that stands for the pickled plan there, e.g. a Dask future):
    on that executor."""
    chunks = iter(chunks)
    if executor is not None:
        yield from ordered(lambda c: executor.submit(chunk_task, payload, c, totals_only), chunks,
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
    with process_pool(jobs, initializer=_start_worker, initargs=(pickle.dumps(plan),)) as pool:
        yield from ordered(lambda c: pool.submit(chunk_task, None, c, totals_only), chain(head, chunks),
                           2 * jobs)


def iter_chunks(hyps: Iterable[str], refs: Sequence[Iterable[str | None]], chunk_size: int
                ) -> Iterator[Chunk]:
    """Chunks of a corpus given as iterables (one hypothesis stream, reference streams)."""
    if isinstance(refs, str) or not isinstance(refs, Sequence) or not refs:
        check_reference_streams(cast(Any, refs), 0)  # the contract's error for a bad layout
    hyp_it, ref_its = iter(hyps), [iter(r) for r in refs]
    start = 0
    while True:
        h = list(islice(hyp_it, chunk_size))
        rs = [list(islice(r, chunk_size)) for r in ref_its]
        if any(len(r) != len(h) for r in rs):
            if start == 0 and len(h) < chunk_size:
                check_reference_streams(rs, len(h))  # names the layout when that is the problem
            n_hyps = start + len(h) + sum(1 for _ in hyp_it)
            k, r = next((k, r) for k, r in enumerate(rs) if len(r) != len(h))
            raise InputError(f"reference stream {k} has {start + len(r) + sum(1 for _ in ref_its[k])} "
                             f"segments but the hypotheses have {n_hyps}")
        if not h:
            if start == 0:
                raise InputError("empty corpus: hypotheses has no segments")
            return
        yield Chunk(start, [h], rs)
        start += len(h)
        if len(h) < chunk_size:
            return


def extract_stream(metric: Metric[Any], hyps: Iterable[str], refs: Sequence[Iterable[str | None]],
                   *, chunk_size: int = DEFAULT_CHUNK, jobs: int | None = 1) -> Iterator[SegmentStats]:
    """The statistics of ``hyps`` against reference streams ``refs`` (iterables of any length), one
    :class:`SegmentStats` per chunk of ``chunk_size`` segments; concatenated, they equal
    ``metric.extract(list(hyps), refs)``."""
    jobs = check_chunking(chunk_size, jobs)
    materialized: list[list[list[str | None]]] = []

    def read_references() -> list[list[str | None]]:
        materialized.append([list(r) for r in refs])
        return materialized[0]

    plan = make_plan([metric], read_references)
    chunks = iter_chunks(hyps, materialized[0] if materialized else refs, chunk_size)
    for _, stats in extracted(plan, chunks, False, jobs):
        yield stats[0][0]
