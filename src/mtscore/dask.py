"""Dask adapter (optional extra ``mtscore[dask]``): score corpora partitioned over a Dask cluster.

The contract of every metric (DESIGN.md) is extract per partition, sum, compute: each partition's
statistics are extracted where the partition lives (``to_delayed`` per partition), summed in a tree
(``split_every`` partitions at a time) and the metric's ``compute`` runs once on the corpus row.
Integer statistics (BLEU, METEOR, chrF, unigram) travel as one summed row per partition; float
ones (NIST) as rows, summed once at the end as the single-process path does, so every score equals
the single-process score exactly. Bootstrap intervals and paired tests run on the gathered rows
(:func:`extract`) with :mod:`mtscore.stats`.

Data: a ``dask.bag`` of ``(hypothesis, reference_1, …, reference_k)`` tuples, or a
``dask.dataframe`` with a hypothesis column and reference columns (by default ``hypothesis`` and
every other column, in order). Whatever scheduler is active runs the graph: a
``distributed.Client`` (``LocalCluster`` on a laptop, ``Client("tcp://scheduler:8786")`` on a
cluster), else Dask's default. A worker lost mid-run has its partitions recomputed by Dask.

``mtscore score --scheduler ADDRESS`` reads the files here and sends chunks to the cluster's
workers (:func:`executor`): the files need not be visible to the workers.
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np

from .errors import InputError, require_extra
from .metrics.base import Metric, SegmentStats
from .stats.defaults import DEFAULT_SEED
from .stats.resampling import BootstrapCI, bootstrap_ci
from .stats.significance import SignificanceResult, paired_bootstrap
from .streaming import Chunk, Plan, extract_chunk, make_plan

dask = require_extra("dask", "dask", "mtscore.dask")

__all__ = ["SPLIT_EVERY", "compare", "confidence_interval", "executor", "extract", "score"]

#: partitions combined at each level of the reduction tree
SPLIT_EVERY = 8


def _to_bag(data: Any, hypothesis: str | None, references: Sequence[str] | None) -> Any:
    """A bag of (hypothesis, reference_1, …) tuples from a bag (as it is) or a dataframe."""
    import dask.bag as db

    if isinstance(data, db.Bag):
        return data
    if not hasattr(data, "columns") or not hasattr(data, "to_bag"):
        raise InputError(f"expected a dask.bag of (hypothesis, reference, …) tuples or a "
                         f"dask.dataframe, got {type(data).__name__}")
    hyp = hypothesis or "hypothesis"
    refs = list(references) if references else [c for c in data.columns if c != hyp]
    missing = [c for c in [hyp, *refs] if c not in data.columns]
    if missing or not refs:
        raise InputError(f"the dataframe has columns {list(data.columns)}: no column "
                         f"{', '.join(map(repr, missing)) or 'of references'} (give hypothesis= "
                         "and references=)")
    return data[[hyp, *refs]].to_bag(index=False, format="tuple")


def _chunk(rows: Sequence[Any], start: int) -> Chunk:
    """A partition's tuples as a :class:`Chunk` (one system, k reference streams)."""
    rows = list(rows)
    widths = {len(row) for row in rows}
    if len(widths) > 1 or (rows and min(widths) < 2):
        raise InputError("every element must be a (hypothesis, reference_1, …, reference_k) tuple "
                         f"with the same k >= 1; found lengths {sorted(widths)}")
    k = widths.pop() - 1 if rows else 1
    return Chunk(start, [[row[0] for row in rows]],
                 [[row[j] for row in rows] for j in range(1, k + 1)])


def _partition_stats(plan: Plan, rows: Sequence[Any], start: int, totals: bool) -> SegmentStats | None:
    """One partition's statistics (its summed row where ``totals`` and the statistics are integers);
    None for an empty partition."""
    chunk = _chunk(rows, start)
    if not chunk.systems[0]:
        return None
    return extract_chunk(plan, chunk, totals)[0][0]


def _combine(parts: Sequence[SegmentStats | None], totals: bool) -> SegmentStats | None:
    """Concatenate partitions' statistics in order; sum integer ones when only totals are asked."""
    present = [p for p in parts if p is not None]
    if not present:
        return None
    joined = SegmentStats.concat(present)
    if totals and np.issubdtype(joined.values.dtype, np.integer):
        return SegmentStats(joined.columns, joined.values.sum(axis=0)[None, :], joined.meta)
    return joined


def _reduced(metric: Metric[Any], data: Any, hypothesis: str | None,
             references: Sequence[str] | None, totals: bool) -> SegmentStats:
    """The partitions' statistics, combined in a tree, computed on the active scheduler."""
    bag = _to_bag(data, hypothesis, references)
    parts = bag.to_delayed()
    starts = [0] * len(parts)

    def read_references() -> list[list[str | None]]:  # metrics that need the whole corpus (NIST)
        rows = bag.compute()
        lengths = dask.compute(*[dask.delayed(len)(p) for p in parts])
        starts[:] = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(int).tolist()
        return _chunk(rows, 0).refs

    plan = dask.delayed(make_plan([metric], read_references), traverse=False)
    level = [dask.delayed(_partition_stats)(plan, p, s, totals) for p, s in zip(parts, starts)]
    while len(level) > 1:
        level = [dask.delayed(_combine)(level[i:i + SPLIT_EVERY], totals)
                 for i in range(0, len(level), SPLIT_EVERY)]
    (stats,) = dask.compute(level[0])
    if len(parts) == 1:
        stats = _combine([stats], totals)
    if stats is None:
        raise InputError("empty corpus: the collection has no segments")
    return stats


def extract(metric: Metric[Any], data: Any, *, hypothesis: str | None = None,
            references: Sequence[str] | None = None) -> SegmentStats:
    """Every segment's statistics, in the collection's order (equal to ``metric.extract`` of the
    whole corpus): for bootstrap intervals, paired tests and per-segment scores."""
    return _reduced(metric, data, hypothesis, references, totals=False)


def score(metric: Metric[Any], data: Any, *, hypothesis: str | None = None,
          references: Sequence[str] | None = None) -> Any:
    """The corpus result: statistics extracted per partition, summed in a tree, then ``compute``."""
    stats = _reduced(metric, data, hypothesis, references, totals=True)
    return metric.compute(stats.total(), stats.meta)


def confidence_interval(metric: Metric[Any], data: Any, *, resamples: int = 1000, seed: int = DEFAULT_SEED,
                        confidence: float = 0.95, hypothesis: str | None = None,
                        references: Sequence[str] | None = None) -> BootstrapCI:
    """Bootstrap confidence interval of the corpus score, on the gathered statistics (identical to
    :func:`mtscore.stats.resampling.bootstrap_ci` of the single-process statistics)."""
    stats = extract(metric, data, hypothesis=hypothesis, references=references)
    return bootstrap_ci(metric, stats, resamples=resamples, seed=seed, confidence=confidence)


def compare(metric: Metric[Any], systems: Mapping[str, Any], *, baseline: str | None = None,
            resamples: int = 1000, seed: int = DEFAULT_SEED, confidence: float = 0.95,
            hypothesis: str | None = None, references: Sequence[str] | None = None
            ) -> SignificanceResult:
    """Paired bootstrap test of systems (name -> collection, paired segment by segment)."""
    stats = {name: extract(metric, data, hypothesis=hypothesis, references=references)
             for name, data in systems.items()}
    return paired_bootstrap(metric, stats, baseline=baseline, resamples=resamples, seed=seed,
                            confidence=confidence)


def executor(address: str, plan: Plan) -> tuple[Executor, Any, Any]:
    """For ``mtscore score --scheduler``: an executor on the cluster at ``address``, the plan sent
    once to every worker (a future standing for it), and the client (close it when done)."""
    from distributed import Client

    try:
        client = Client(address, timeout=30)
    except OSError as err:
        from .errors import OptionError

        raise OptionError("--scheduler", address, detail=f"no Dask scheduler there ({err})") from None
    payload = client.scatter(pickle.dumps(plan), broadcast=True)
    return client.get_executor(), payload, client
