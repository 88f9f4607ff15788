"""A corpus's METEOR statistics: every segment aligned against every reference (the corpus-wide 2005
stages first where they apply, then segment by segment), the best-scoring reference kept (§2.3 end:
the first on ties, as the jar)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from ...progress import track
from ..base import SegmentStats
from .align import even_class_stages
from .results import PreparedReferences
from .segments import align_jar_segment, align_stages
from .workers import in_forks, usable_workers

if TYPE_CHECKING:
    from .metric import METEOR

Match = tuple[int, int, int]
Kept = list[tuple[int, list[Match]]]
#: per stream, per segment: word ids (None where the reference is missing)
RefIds = list[list[list[int] | None]]
#: per stream: (stage each segment stopped at, its matches so far)
Settled = list[tuple[list[int], list[list[Match]]]]


def align_ids(metric: METEOR, h: list[int], r: list[int]) -> tuple[list[Match], bool]:
    """The alignment of one pair given as word ids, and whether the fallback was used."""
    if not h or not r:
        return [], False
    if metric.variant == "1.5":
        return align_jar_segment(metric, h, r)
    return align_stages(metric, h, r)


def even_class_prefix(metric: METEOR) -> list[np.ndarray]:
    """Key codes (per word id) of the leading equivalence stages that
    :func:`.align.even_class_stages` settles for a corpus at once: 2005 only, with ``accelerate``,
    and not with the stage cache (kept per segment) or stop words left out of the exact stage."""
    if (metric.variant != "2005" or not metric.accelerate or metric.stage_cache is not None
            or metric.exclude_stopwords):
        return []
    vocab = metric.vocabulary()
    out = []
    for matcher, key in zip(vocab.matchers, vocab.keys):
        if not matcher.single:
            break
        if matcher.name == "exact":
            out.append(np.arange(len(key), dtype=np.int64))
        else:
            codes: dict[Any, int] = {}
            out.append(np.fromiter((codes.setdefault(x, len(codes)) for x in key), np.int64, len(key)))
    return out


def _settled(metric: METEOR, hyp_ids: list[list[int]], ref_ids: RefIds, fallbacks: set[int]
             ) -> Settled | None:
    """The corpus-wide stages of every reference stream (None where they do not apply)."""
    prefix = even_class_prefix(metric)
    if not prefix:
        return None
    vocab = metric.vocabulary()
    then = None
    if len(prefix) < len(metric.modules):  # the next stage's module has key sets
        stage = len(prefix)

        def then(xs: list[int]) -> list[frozenset]:
            return vocab.keys_of(stage, xs)
    return [even_class_stages(hyp_ids, col, prefix, then=then, fallbacks=fallbacks) for col in ref_ids]


def _task(metric: METEOR, hyp_ids: list[list[int]], ref_ids: RefIds, settled: Settled | None,
          keep_alignments: bool, fw: frozenset[str] | None) -> Callable[[int, int, bool], Any]:
    """Rows (and alignments) of segments lo..hi-1 for every reference stream, the searches that hit
    the 1.5 state cap, and the segments aligned by a fallback."""
    n_refs, n_modules = len(ref_ids), len(metric.modules)

    def task(lo: int, hi: int, show: bool) -> tuple[list[Any], list[Any], int, list[int]]:
        before = metric.bounded_searches
        rows: list[list[list[int] | None]] = [[None] * (hi - lo) for _ in range(n_refs)]
        aligns: list[list[list[Match] | None]] = [[None] * (hi - lo) for _ in range(n_refs)]
        fallback: list[int] = []
        steps = track(range(n_refs * (hi - lo)), total=n_refs * (hi - lo), desc="METEOR",
                      min_total=500 if show else 1 << 62)
        for step in steps:
            k, s = divmod(step, hi - lo)
            r = ref_ids[k][lo + s]
            if r is None:
                continue
            h = hyp_ids[lo + s]
            if settled is None:
                alignment, used = align_ids(metric, h, r)
            else:
                stage, matched = settled[k][0][lo + s], settled[k][1][lo + s]
                alignment, used = (sorted(matched), False) if stage == n_modules or not h or not r \
                    else align_stages(metric, h, r, stage, matched)
            if used:
                fallback.append(lo + s)
            rows[k][s] = metric.statistics_row(h, r, alignment, fw)
            if keep_alignments:
                aligns[k][s] = alignment
        bounded, metric.bounded_searches = metric.bounded_searches - before, before
        return rows, aligns, bounded, fallback
    return task


def _ranges(metric: METEOR, hyp_ids: list[list[int]], ref_ids: RefIds) -> list[tuple[int, int]]:
    """Segment ranges for the worker processes (one range: no extra process), of about equal
    numbers of words; see ``workers``."""
    n_seg = len(hyp_ids)
    n = metric.workers
    if n != 1:
        n = usable_workers(n, n_seg, metric.stage_cache is None)
    if n <= 1:
        return [(0, n_seg)]
    load = np.cumsum([len(h) + sum(len(col[i] or ()) for col in ref_ids) + 8
                      for i, h in enumerate(hyp_ids)])
    cuts = np.searchsorted(load, load[-1] * np.arange(1, n) / n).tolist()
    edges = [0, *cuts, n_seg]
    return [(lo, hi) for lo, hi in pairwise(edges) if hi > lo]


def _best_rows(metric: METEOR, rows: list[list[list[int] | None]]) -> tuple[np.ndarray, list[int]]:
    """Per segment, the statistics of its best-scoring reference and that reference's index."""
    n_refs, n_seg, n_cols = len(rows), len(rows[0]), len(metric.columns)
    zero = [0] * n_cols
    if n_refs == 1:
        values = np.array([row if row is not None else zero for row in rows[0]], dtype=np.int64)
        return values.reshape(n_seg, n_cols), [0] * n_seg
    stacked = np.array([row if row is not None else zero for col in rows for row in col],
                       dtype=np.int64).reshape(n_refs, n_seg, n_cols)
    scores = metric.compute_many(stacked.reshape(n_refs * n_seg, n_cols)).reshape(n_refs, n_seg)
    scores[np.array([[row is None for row in col] for col in rows])] = -np.inf
    best = np.argmax(scores, axis=0)  # the first of equal scores, as the jar
    return stacked[best, np.arange(n_seg)].reshape(n_seg, n_cols), best.tolist()


def align_corpus(metric: METEOR, hyp_ids: list[list[int]], ref_ids: RefIds,
                 prepared: PreparedReferences, keep_alignments: bool
                 ) -> tuple[SegmentStats, Kept | None]:
    """Statistics plus, per segment, (kept reference, alignment as (i, j, module index)). The
    statistics' ``meta`` has ``fallback_segments`` where some segment was aligned by a fallback."""
    n_seg = len(hyp_ids)
    fw = metric.function_words() if (metric.params.delta is not None or metric.exclude_stopwords) else None
    fallbacks: set[int] = set()
    settled = _settled(metric, hyp_ids, ref_ids, fallbacks)
    task = _task(metric, hyp_ids, ref_ids, settled, keep_alignments, fw)
    bounds = _ranges(metric, hyp_ids, ref_ids)
    parts = in_forks(task, bounds) if len(bounds) > 1 else [task(0, n_seg, True)]
    metric.bounded_searches += sum(part[2] for part in parts)
    for part in parts:
        fallbacks.update(part[3])
    rows = [[row for part in parts for row in part[0][k]] for k in range(len(ref_ids))]
    values, best = _best_rows(metric, rows)
    meta = {"nrefs": prepared.nrefs}
    if fallbacks:
        meta["fallback_segments"] = str(len(fallbacks))
    stats = SegmentStats(metric.columns, values, meta)
    if not keep_alignments:
        return stats, None
    aligns = [[a for part in parts for a in part[1][k]] for k in range(len(ref_ids))]
    return stats, [(best[i], aligns[best[i]][i] or []) for i in range(n_seg)]
