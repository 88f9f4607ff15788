"""A corpus of any size: read in chunks, extracted chunk by chunk (on every core), statistics summed.

DESIGN.md's contract makes a corpus score ``compute(sum of extract rows)``, and the rows of a segment
do not depend on the other segments (NIST's information weights excepted: see below). So the
hypothesis and reference files are read ``chunk_size`` segments at a time, each chunk's statistics
are extracted (in worker processes with ``jobs`` > 1) and only the statistics are kept — their
running sum when no per-segment output or resampling is asked for. Memory is bounded by the chunk,
not the corpus; the statistics of a chunk equal the rows ``extract`` gives for the whole corpus, so
the scores are identical (integer statistics summed in any order; float ones, NIST's, are kept per
segment and summed once, as the whole-corpus path does).

NIST: its information weights need the whole reference corpus, so :meth:`Metric.reference_corpus`
reads the references in a first pass (the prepared references stay in memory: memory grows with the
reference corpus, not with the hypotheses), then the hypotheses stream.

Reading is strict UTF-8 as :mod:`mtscore.io.text` (BOM at the start dropped, CRLF read as LF, blank
lines are segments); invalid UTF-8 and files of different lengths are errors naming the file and the
line, found in whichever chunk they occur.

Worker processes are started with the ``spawn`` context (no fork-only path), only when the input
has more than one chunk; the results come back in order, identical to one process. The chunk engine
(plans, chunks, workers) is :mod:`mtscore.metrics.chunked`, shared with ``Metric.extract_stream``
and :mod:`mtscore.dask`; this package reads the files.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import OptionError
from ..metrics.base import Metric
from ..metrics.chunked import (
    DEFAULT_CHUNK,
    Chunk,
    Plan,
    check_chunking,
    extract_chunk,
    extract_stream,
    extracted,
    iter_chunks,
    make_plan,
)
from ..pool import check_jobs, default_jobs
from .engine import Gathered
from .reading import BLOCK_BYTES, Inputs, LineReader, TabSeparated, open_inputs, read_chunks

__all__ = ["DEFAULT_CHUNK", "Chunk", "Gathered", "Inputs", "LineReader", "Plan", "TabSeparated",
           "check_chunking", "check_jobs", "default_jobs", "extract_chunk", "extract_stream", "extracted",
           "iter_chunks", "make_plan", "open_inputs", "read_chunks", "reread_references", "score_files"]

def reread_references(ref_paths: Sequence[str]) -> Callable[[], list[list[str | None]]]:
    """A first pass over the reference files (for metrics that need the whole reference corpus)."""

    def read() -> list[list[str | None]]:
        streams: list[list[str | None]] = []
        for path in ref_paths:
            if path == "-":
                raise OptionError("references", path, detail="this metric reads the references "
                                  "twice (its weights need all of them): give a file, not stdin")
            reader = LineReader(path)
            lines: list[str | None] = []
            while chunk := reader.take(BLOCK_BYTES):
                lines.extend(chunk)
            reader.close()
            streams.append(lines)
        return streams

    return read


def score_files(hyps: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None,
                refs: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
                metrics: Metric[Any] | Sequence[Metric[Any]], *, chunk_size: int = DEFAULT_CHUNK,
                jobs: int | None = 1, keep_rows: bool = False) -> Gathered:
    """Score system files against reference files in bounded memory, chunk by chunk.

    ``hyps``: one file per system (None: standard input, tab-separated systems as sacreBLEU);
    ``refs``: one file per reference stream; ``jobs``: worker processes (None: every core);
    ``keep_rows``: keep every segment's statistics (for resampling; else only their sum).
    ``score_files(...).results()[system][metric.name]`` is the corpus result, equal to
    ``metric.corpus_score`` of the whole files.
    """
    jobs = check_chunking(chunk_size, jobs)
    hyp_paths = None if hyps is None else \
        [os.fspath(hyps)] if isinstance(hyps, (str, os.PathLike)) else [os.fspath(h) for h in hyps]
    ref_paths = [os.fspath(refs)] if isinstance(refs, (str, os.PathLike)) else [os.fspath(r) for r in refs]
    metric_list = [metrics] if isinstance(metrics, Metric) else list(metrics)
    plan = make_plan(metric_list, reread_references(ref_paths))
    inputs = open_inputs(hyp_paths, ref_paths)
    try:
        gathered = Gathered(plan, inputs.names, keep_rows)
        for chunk, stats in extracted(plan, read_chunks(inputs, chunk_size), not keep_rows, jobs):
            gathered.add(chunk, stats)
    finally:
        inputs.close()
    return gathered
