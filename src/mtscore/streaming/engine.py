"""Gathering the statistics of a corpus extracted chunk by chunk (running sums, or every row for
resampling). The extraction itself (plans, chunks, worker processes) is
:mod:`mtscore.metrics.chunked`'s, whose names stay importable from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..metrics.base import SegmentStats
from ..metrics.chunked import Chunk, Plan, chunk_task, extract_chunk, extracted, make_plan

__all__ = ["Chunk", "Gathered", "Plan", "chunk_task", "extract_chunk", "extracted", "make_plan"]


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
