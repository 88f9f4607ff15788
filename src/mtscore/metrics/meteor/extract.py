"""A corpus's METEOR statistics: every segment aligned against every reference (the corpus-wide 2005
stages first where they apply, then segment by segment), the best-scoring reference kept (§2.3 end:
the first on ties, as the jar)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ...progress import track
from ..base import SegmentStats
from .align import even_class_stages
from .align.corpus import CorpusMatches
from .results import PreparedReferences
from .rows import statistics_rows
from .segments import align_jar_segment, align_stages
from .word_ids import WordIds
from .workers import alignment_work, balanced_cuts, in_forks, usable_workers

if TYPE_CHECKING:
    from .metric import METEOR

Match = tuple[int, int, int]
Kept = list[tuple[int, list[Match]]]
#: per stream, per segment: word ids (None where the reference is missing)
RefIds = list[WordIds]
#: per stream: (stage each segment stopped at, its matches so far)
Settled = list[tuple[list[int], CorpusMatches]]
#: what is left to align: (reference stream, segment)
Work = list[tuple[int, int]]
#: pairs aligned together by variant 1.5 (:func:`_block_aligner`)
PHRASE_BLOCK = 2048


def align_ids(metric: METEOR, h: list[int], r: list[int]) -> tuple[list[Match], bool]:
    """The alignment of one pair given as word ids, and whether the fallback was used."""
    if not h or not r:
        return [], False
    if metric.two_sided:  # the paraphrase module: phrase matches
        from .paraphrase import align_phrase_segment

        return align_phrase_segment(metric, h, r)  # type: ignore[return-value]
    if metric.variant == "1.5":
        return align_jar_segment(metric, h, r)
    return align_stages(metric, h, r)


def corpus_stages_apply(metric: METEOR) -> bool:
    """Whether :func:`even_class_prefix` has stages: 2005 with ``fast``, no stage cache, stop words
    kept, and a first module with one key per word."""
    return (metric.variant == "2005" and metric.fast and metric.stage_cache is None
            and not metric.exclude_stopwords and metric.vocabulary().matchers[0].single)


def even_class_prefix(metric: METEOR) -> list[np.ndarray]:
    """Key codes (per word id) of the leading equivalence stages that
    :func:`.align.even_class_stages` settles for a corpus at once: 2005 only, with ``fast``,
    and not with the stage cache (kept per segment) or stop words left out of the exact stage."""
    if not corpus_stages_apply(metric):
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


def _settled(metric: METEOR, hyp_ids: WordIds, ref_ids: RefIds, fallbacks: set[int]
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


def _task(metric: METEOR, hyp_ids: WordIds, ref_ids: RefIds, settled: Settled | None,
          work: Work, keep_alignments: bool, fw: frozenset[str] | None) -> Callable[[int, int, bool], Any]:
    """Rows and (with ``keep_alignments``) alignments of ``work[lo:hi]``, the searches that hit the
    1.5 state cap, and the segments aligned by a fallback."""

    blocks = _block_aligner(metric)

    def task(lo: int, hi: int, show: bool) -> tuple[list[list[int]], list[list[Match]], int, list[int]]:
        before = metric.bounded_searches
        rows, aligns, fallback = [], [], []
        phrases: list[Any] = []  # a block of pairs' alignments (``blocks``)
        for n, (k, s) in enumerate(track(work[lo:hi], total=hi - lo, desc="METEOR",
                                         min_total=500 if show else 1 << 62)):
            h, r = hyp_ids[s], ref_ids[k][s]
            assert h is not None and r is not None
            if blocks is not None:
                if n % PHRASE_BLOCK == 0:
                    block = work[lo + n:min(hi, lo + n + PHRASE_BLOCK)]
                    phrases = blocks(metric, [(hyp_ids[b], ref_ids[a][b]) for a, b in block])
                alignment, used = phrases[n % PHRASE_BLOCK]
            elif settled is None:
                alignment, used = align_ids(metric, h, r)
            else:
                alignment, used = align_stages(metric, h, r, settled[k][0][s], settled[k][1][s])
            if used:
                fallback.append(s)
            rows.append(metric.statistics_row(h, r, alignment, fw))
            if keep_alignments:
                aligns.append(alignment)
        bounded, metric.bounded_searches = metric.bounded_searches - before, before
        return rows, aligns, bounded, fallback
    return task


def _block_aligner(metric: METEOR) -> Callable[[METEOR, Any], list[Any]] | None:
    """What aligns pairs a block at a time, or None: variant 1.5 with the paraphrase module
    (:func:`.paraphrase.align_phrase_segments`), or without it and with ``fast``
    (:func:`.jar_batch.align_jar_segments`)."""
    if metric.two_sided:
        from .paraphrase import align_phrase_segments

        return align_phrase_segments
    if metric.variant == "1.5" and metric.fast:
        from .jar_batch import align_jar_segments

        return align_jar_segments
    return None


def _work(metric: METEOR, hyp_ids: WordIds, ref_ids: RefIds, settled: Settled | None) -> Work:
    """The (stream, segment) pairs the corpus-wide stages left (every pair with a reference where
    they do not apply), segment by segment (a hypothesis's references one after the other: the
    paraphrase table's memo of the hypothesis's phrases is then hit)."""
    work: Work = []
    for k, col in enumerate(ref_ids):
        todo = col.present
        if settled is not None:
            todo = todo & (np.asarray(settled[k][0]) < len(metric.modules)) & (hyp_ids.lengths > 0) \
                & (col.lengths > 0)
        work.extend((k, s) for s in np.flatnonzero(todo).tolist())
    work.sort(key=_segment_first)
    return work


def _segment_first(item: tuple[int, int]) -> tuple[int, int]:
    return item[1], item[0]


def _ranges(metric: METEOR, hyp_ids: WordIds, ref_ids: RefIds, work: Work
            ) -> list[tuple[int, int]]:
    """Ranges of ``work`` for the worker processes (one range: no extra process), of about equal
    numbers of words; see ``workers``."""
    n = metric.workers
    if n != 1:
        estimate = alignment_work(hyp_ids.lengths, [col.lengths for col in ref_ids]) if n is None else None
        n = usable_workers(n, len(work), metric.stage_cache is None,
                           0.0 if estimate is None else float(estimate[[s for _, s in work]].sum()))
    if n <= 1:
        return [(0, len(work))]
    return balanced_cuts(np.array([int(hyp_ids.lengths[s] + ref_ids[k].lengths[s]) + 8 for k, s in work]), n)


def _segment_ranges(metric: METEOR, hyp_ids: WordIds, ref_ids: RefIds) -> list[tuple[int, int]]:
    """Where the corpus-wide stages apply: ranges of segments aligned in separate processes, each
    range its own corpus (stages corpus-wide, then its left-over searches), of about equal
    estimated work (:func:`.workers.alignment_work`); one range: no extra process."""
    if metric.workers == 1 or not corpus_stages_apply(metric):
        return [(0, len(hyp_ids))]
    work = alignment_work(hyp_ids.lengths, [col.lengths for col in ref_ids])
    n = usable_workers(metric.workers, len(hyp_ids), metric.stage_cache is None, float(work.sum()))
    return balanced_cuts(work, n) if n > 1 else [(0, len(hyp_ids))]


def _in_segment_ranges(metric: METEOR, hyp_ids: WordIds, ref_ids: RefIds, prepared: PreparedReferences,
                       keep_alignments: bool, bounds: list[tuple[int, int]]
                       ) -> tuple[SegmentStats, Kept | None]:
    """:func:`align_corpus` of each range of segments, the first here and the others in forked
    processes at the same time, joined: the same statistics and alignments (a segment's alignment
    depends on it alone)."""

    def task(lo: int, hi: int, show: bool) -> tuple[SegmentStats, Kept | None, int]:
        lines = np.arange(lo, hi)
        return aligned_range(metric, hyp_ids.take(lines), [col.take(lines) for col in ref_ids],
                             prepared, keep_alignments, show)

    return joined_ranges(metric, in_forks(task, bounds), prepared.nrefs, keep_alignments)


def aligned_range(metric: METEOR, hyp_ids: WordIds, ref_ids: RefIds, prepared: PreparedReferences,
                  keep_alignments: bool, show: bool) -> tuple[SegmentStats, Kept | None, int]:
    """A range of segments aligned as a corpus of its own (:func:`_in_segment_ranges`): its
    statistics, alignments, and the searches that hit the 1.5 state cap (taken back out of
    ``metric.bounded_searches``, for :func:`joined_ranges` to add)."""
    before = metric.bounded_searches
    stats, kept = _align_corpus(metric, hyp_ids, ref_ids, prepared, keep_alignments, show)
    bounded, metric.bounded_searches = metric.bounded_searches - before, before
    return stats, kept, bounded


def joined_ranges(metric: METEOR, parts: list[tuple[SegmentStats, Kept | None, int]], nrefs: str,
                  keep_alignments: bool) -> tuple[SegmentStats, Kept | None]:
    """The ranges' results (:func:`aligned_range`, in order) as the corpus's."""
    metric.bounded_searches += sum(part[2] for part in parts)
    meta = {"nrefs": nrefs}
    fallbacks = sum(int(part[0].meta.get("fallback_segments", 0)) for part in parts)
    if fallbacks:
        meta["fallback_segments"] = str(fallbacks)
    stats = SegmentStats(metric.columns, np.concatenate([part[0].values for part in parts]), meta)
    return stats, [x for part in parts for x in part[1] or ()] if keep_alignments else None


def _best_rows(metric: METEOR, values: np.ndarray, present: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Per segment, the statistics of its best-scoring reference and that reference's index
    (``values``: per stream, per segment; ``present``: where the stream has a reference)."""
    n_refs, n_seg, n_cols = values.shape
    if n_refs == 1:
        return values[0], [0] * n_seg
    scores = metric.compute_many(values.reshape(n_refs * n_seg, n_cols)).reshape(n_refs, n_seg)
    scores[~present] = -np.inf
    best = np.argmax(scores, axis=0)  # the first of equal scores, as the jar
    return values[best, np.arange(n_seg)], best.tolist()


def align_corpus(metric: METEOR, hyp_lines: Sequence[list[int]] | WordIds,
                 ref_lines: Sequence[Sequence[list[int] | None]], prepared: PreparedReferences,
                 keep_alignments: bool) -> tuple[SegmentStats, Kept | None]:
    """Statistics plus, per segment, (kept reference, alignment as (i, j, module index)). The
    statistics' ``meta`` has ``fallback_segments`` where some segment was aligned by a fallback."""
    hyp_ids, ref_ids = WordIds.of(hyp_lines), [WordIds.of(col) for col in ref_lines]
    bounds = _segment_ranges(metric, hyp_ids, ref_ids)
    if len(bounds) > 1:
        return _in_segment_ranges(metric, hyp_ids, ref_ids, prepared, keep_alignments, bounds)
    return _align_corpus(metric, hyp_ids, ref_ids, prepared, keep_alignments, True)


def _align_corpus(metric: METEOR, hyp_ids: WordIds, ref_ids: RefIds, prepared: PreparedReferences,
                  keep_alignments: bool, show: bool) -> tuple[SegmentStats, Kept | None]:
    """:func:`align_corpus` in this process (``show``: a progress bar), but for the segments the
    corpus-wide stages leave, which may go to worker processes (:func:`_ranges`)."""
    n_seg, n_refs = len(hyp_ids), len(ref_ids)
    fw = metric.function_words() if (metric.params.delta is not None or metric.exclude_stopwords) else None
    fallbacks: set[int] = set()
    settled = _settled(metric, hyp_ids, ref_ids, fallbacks)
    present = np.array([col.present for col in ref_ids], dtype=bool).reshape(n_refs, n_seg)
    values = np.zeros((n_refs, n_seg, len(metric.columns)), dtype=np.int64)
    for k, (_, matches) in enumerate(settled or ()):
        values[k] = statistics_rows(metric, matches, fw)
    values[~present] = 0
    work = _work(metric, hyp_ids, ref_ids, settled)
    task = _task(metric, hyp_ids, ref_ids, settled, work, keep_alignments, fw)
    bounds = _ranges(metric, hyp_ids, ref_ids, work) if settled is None else [(0, len(work))]
    parts = in_forks(task, bounds) if len(bounds) > 1 else [task(0, len(work), show)]
    metric.bounded_searches += sum(part[2] for part in parts)
    aligned: dict[tuple[int, int], list[Match]] = {}
    for (lo, _), (rows, aligns, _, fallback) in zip(bounds, parts):
        fallbacks.update(fallback)
        if rows:
            items = np.array(work[lo:lo + len(rows)], dtype=np.int64).reshape(len(rows), 2)
            values[items[:, 0], items[:, 1]] = rows
        aligned.update(zip(work[lo:], aligns))
    best_values, best = _best_rows(metric, values, present)
    meta = {"nrefs": prepared.nrefs}
    if fallbacks:
        meta["fallback_segments"] = str(len(fallbacks))
    stats = SegmentStats(metric.columns, best_values, meta)
    if not keep_alignments:
        return stats, None
    return stats, [(k, _alignment(aligned, settled, k, s, present)) for s, k in enumerate(best)]


def _alignment(aligned: dict[tuple[int, int], list[Match]], settled: Settled | None, k: int, s: int,
               present: np.ndarray) -> list[Match]:
    """The sorted alignment of segment s against stream k."""
    if (k, s) in aligned:
        return aligned[(k, s)]
    if settled is None or not present[k, s]:
        return []
    return sorted(settled[k][1][s])
