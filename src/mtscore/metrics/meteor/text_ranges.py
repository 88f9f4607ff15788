"""A corpus split into ranges of segments *before* it is encoded: each range is tokenized, encoded
and aligned in the process that aligns it (the first here, the others forked, :mod:`.workers`).

Equal to ``extract(hyps, prepare_references(refs))`` (tests/test_meteor_text_ranges.py): a
segment's statistics depend on its own words alone — not on the other segments of its range
(:func:`.extract.align_corpus` already aligns ranges on their own) and not on the word ids, which
each process's vocabulary gives its new words in its own order. What changes is only where the
encoding runs: the references and hypotheses of the forked ranges are encoded in their processes,
at the same time, instead of all of them before the fork.

The command line's path: :meth:`.metric.METEOR.prepare_chunk` gives
:class:`.results.TextReferences` (the checked streams, not encoded) where the corpus-wide stages
apply and forking may pay, and :meth:`.metric.METEOR.extract` hands them to :func:`extract_text`.
The split is decided as :func:`.extract.align_corpus` decides it (:func:`.workers.alignment_work`,
``usable_workers``, ``balanced_cuts``), with each line's words (:func:`word_counts`) standing in
for its tokens, which only the encoding finds; where it gives one range, the references are encoded
once and kept (:meth:`.results.TextReferences.prepared`), for every system scored against them.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..base import SegmentStats, checked_inputs
from .extract import aligned_range, corpus_stages_apply, joined_ranges
from .results import TextReferences
from .workers import alignment_work, balanced_cuts, in_forks, usable_workers

if TYPE_CHECKING:
    from .metric import METEOR


def may_split(metric: METEOR) -> bool:
    """Whether ``metric`` may align a corpus in ranges of its own (as :func:`.extract.align_corpus`:
    ``workers`` not 1 and the corpus-wide stages apply)."""
    return metric.workers != 1 and corpus_stages_apply(metric)


def word_counts(lines: Sequence[str | None]) -> np.ndarray:
    """Each line's number of words, estimated as its spaces + 1 (0 for a missing reference): its
    whitespace-separated words where single spaces separate them, as in the WMT files; counted in
    C (``str.count``), not split."""
    texts = ["" if line is None else line for line in lines] if None in lines else cast(list[str], lines)
    counts = np.fromiter(map(str.count, texts, repeat(" ")), np.int64, len(texts))
    counts += 1
    if texts is not lines:
        counts[[i for i, line in enumerate(lines) if line is None]] = 0
    return counts


#: :func:`.workers.alignment_work` from words (:func:`word_counts`) instead of tokens is multiplied by
#: this before it is weighed against ``SPLIT_WORK``: the tokenizers split punctuation off, so words
#: undercount tokens (WMT22 into English, 13a: by 12–16% per side), and the work, which grows with the
#: cube of the lengths, by 1.4–1.6× (zh-en 1.46, de-en 1.38, ja-en 1.56): 1.5, their middle
WORDS_WORK_FACTOR = 1.5


def text_ranges(metric: METEOR, hyps: list[str], refs: TextReferences) -> list[tuple[int, int]]:
    """The ranges :func:`.extract.align_corpus` would cut, estimated from the lines' words."""
    work = alignment_work(word_counts(hyps), [word_counts(stream) for stream in refs.streams])
    n = usable_workers(metric.workers, len(hyps), metric.stage_cache is None,
                       WORDS_WORK_FACTOR * float(work.sum()))
    return balanced_cuts(work, n) if n > 1 else [(0, len(hyps))]


def extract_text(metric: METEOR, hyps: Sequence[str], refs: TextReferences) -> SegmentStats:
    """``metric.extract(hyps, refs.prepared(metric))``, each range of segments encoded where it is
    aligned (module doc)."""
    hyps, refs = checked_inputs(metric, hyps, refs, TextReferences)
    bounds = text_ranges(metric, hyps, refs) if len(hyps) else [(0, 0)]
    if len(bounds) == 1:
        return metric.extract(hyps, refs.prepared(metric))  # (the split by tokens may still apply)
    metric.vocabulary()  # matchers and lexicons loaded once, before the fork

    def task(lo: int, hi: int, show: bool) -> tuple[SegmentStats, Any, int]:
        prepared = metric.prepare_references([stream[lo:hi] for stream in refs.streams])
        return aligned_range(metric, metric.encode(hyps[lo:hi]), prepared.ids, prepared, False, show)

    return joined_ranges(metric, in_forks(task, bounds), refs.nrefs, False)[0]
