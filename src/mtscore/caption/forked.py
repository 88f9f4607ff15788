"""METEOR's statistics of a caption set split between this process and a forked one (Linux).

coco-caption's evaluation spends most of its time in METEOR once the captions are tokenized, and
every image's METEOR statistics depend on that image alone (the design rule that lets a corpus be
extracted in chunks: the chunks' statistics, concatenated, are the whole corpus's;
:meth:`mtscore.metrics.base.SegmentStats.concat`). So on a machine with a second CPU,
:func:`statistics_beside_meteor` lets a forked process (:func:`mtscore.pool.here_and_in_forks`)
extract METEOR's statistics of the later images while this process extracts those of the earlier
ones and every other metric's: the same statistics, in the same order, in less wall time.

The cut (:func:`meteor_cut`) gives each process about half of the estimated work: this process
computes BLEU, ROUGE-L and CIDEr-D and a little less than half of METEOR's. METEOR's own workers (which
split its alignment alone) are not used then: two processes are enough for two CPUs.

Where both runs of the PTB tokenizer (the references', the results') can be cut before the same
image near that cut (:func:`tokenizer_cut_near`), the forked process starts before the captions
are tokenized and tokenizes those of its images itself
(:func:`mtscore.caption.evaluation.statistics_from_two_halves`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np

from ..metrics.base import Metric, SegmentStats

#: fewest images for each of the two processes: a fork, its imports and METEOR's set-up cost some
#: 20-30 ms of CPU, the METEOR statistics of 25-50 caption images; with at least 100 images each
#: the second process saves several times what it costs (the 10-image sample stays in one)
MIN_IMAGES_PER_PROCESS = 100
#: the other metrics' time (n-gram table, BLEU, ROUGE-L, CIDEr-D) as a share of METEOR's: about a
#: tenth both on 400 generated caption images and on WMT22 zh-en's 1,875 long sentences (CPU
#: times of each part); this process takes that much less of METEOR's work
OTHERS_SHARE = 0.1
#: the same as a share of METEOR's and the PTB tokenizer's time together, for the cut when the
#: tokenizer too runs in two processes (:func:`tokenizer_cut_near`): each process's CPU time after
#: the fork (2026-12-05, side by side) is balanced at about 0.125 on the 400 generated images and
#: 0.14 on WMT22 zh-en (at 0.1 this process took 4 ms and 115-150 ms more than the forked one; at
#: 0.15, 4 ms and 20-40 ms less). A twentieth, balanced by instruction counts, had left it 15 ms
#: more on the generated set: its other metrics (array code) and the fork itself run fewer
#: instructions per millisecond than the tokenizer and METEOR
OTHERS_SHARE_WITH_TOKENIZER = 0.14


def can_fork(images: int, workers: int | None) -> bool:
    """Whether to split METEOR over two processes: ``workers`` None (decide) or 2 (split when
    possible), Linux (fork), a second CPU this process may use, no other thread running (forking
    is safe only then), this process not itself a ``multiprocessing`` worker; and unless 2 is
    asked, at least :data:`MIN_IMAGES_PER_PROCESS` images each and a CPU idle
    (:func:`idle_cpu`)."""
    if workers not in (None, 1, 2) or isinstance(workers, bool):
        from ..errors import OptionError

        raise OptionError("caption workers", workers, detail="1, 2 or None (decide)")
    if workers == 1 or images < 2 or not sys.platform.startswith("linux"):
        return False
    if workers is None and images < 2 * MIN_IMAGES_PER_PROCESS:
        return False
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    if cpus < 2 or (workers is None and not idle_cpu(cpus)):
        return False
    import threading

    if threading.active_count() > 1:
        return False
    multiprocessing = sys.modules.get("multiprocessing")
    return multiprocessing is None or multiprocessing.parent_process() is None


def idle_cpu(cpus: int) -> bool:
    """Whether a CPU is idle now: fewer tasks running or ready to run than ``cpus``, this process
    included (the fourth field of ``/proc/loadavg``); if that cannot be read, whether the 1-minute
    load average leaves one. On a busy machine the second process would wait for a CPU and cost
    wall time instead of saving it."""
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            running = int(f.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return cpus - os.getloadavg()[0] >= 1
    return running < cpus


def meteor_cut(hyps: Sequence[str], refs: Sequence[Sequence[str]],
               others_share: float = OTHERS_SHARE) -> int:
    """The first image of the forked process's share: before it, (1 - ``others_share``) / 2
    of METEOR's estimated work (this process computes the other metrics too), at least one image
    on each side. The estimate is the one METEOR's own workers split a corpus by
    (:func:`mtscore.metrics.meteor.workers.alignment_work`): per image, (caption words x reference
    words)^1.5 summed over its references, words counted as the command line's split counts them
    (:func:`mtscore.metrics.meteor.text_ranges.word_counts`)."""
    from ..metrics.meteor.text_ranges import word_counts
    from ..metrics.meteor.workers import alignment_work

    width = max(len(r) for r in refs)
    ref_words = [word_counts([r[k] if k < len(r) else None for r in refs]) for k in range(width)]
    load = np.cumsum(alignment_work(word_counts(hyps), ref_words))
    cut = int(np.searchsorted(load, load[-1] * (1 - others_share) / 2)) + 1
    return min(max(cut, 1), len(hyps) - 1)


def statistics_beside_meteor(meteor: Metric[Any], meteor_stats: Callable[[Metric[Any], int, int],
                                                                         SegmentStats],
                             others: Callable[[], dict[str, SegmentStats]], cut: int, images: int
                             ) -> tuple[SegmentStats, dict[str, SegmentStats]]:
    """(METEOR's statistics of all images, ``others()``): ``meteor_stats(metric, lo, hi)`` of
    images ``cut`` to ``images`` in a forked process, while this process computes ``others()`` and
    ``meteor_stats`` of images 0 to ``cut``; the two METEOR parts concatenated. METEOR's counter of
    bounded searches counts the forked process's too."""
    from ..pool import here_and_in_forks

    def task(part: int) -> tuple[Any, ...]:
        if part == 0:
            return others(), meteor_stats(meteor, 0, cut)
        from ..progress import set_quiet

        set_quiet(True)  # (one progress bar: this process's)
        return with_bounded(meteor, lambda: meteor_stats(meteor, cut, images))

    (other_stats, first), (second, bounded) = here_and_in_forks(task, [(0,), (1,)])
    add_bounded(meteor, bounded)
    return SegmentStats.concat([first, second]), other_stats


def with_bounded(meteor: Metric[Any], statistics: Callable[[], SegmentStats]
                 ) -> tuple[SegmentStats, int]:
    """``statistics()`` and how many searches it cut short (METEOR's counter ``bounded_searches``;
    0 for a metric without one): what a forked process sends back with its statistics."""
    before = getattr(meteor, "bounded_searches", 0)
    stats = statistics()
    return stats, getattr(meteor, "bounded_searches", 0) - before


def add_bounded(meteor: Metric[Any], bounded: int) -> None:
    """A forked process's searches cut short (:func:`with_bounded`) added to METEOR's counter here."""
    if bounded and hasattr(meteor, "bounded_searches"):
        cast(Any, meteor).bounded_searches += bounded


#: how far (a share of the images) from METEOR's cut :func:`tokenizer_cut_near` looks
CUT_REACH = 0.1


def tokenizer_cut_near(cut: int, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> int | None:
    """The image nearest to ``cut`` (the earlier on a tie, at most :data:`CUT_REACH` of the images
    away, not the first) before which both runs of the PTB tokenizer, the references' and the
    results', can be cut (:func:`mtscore.text.ptb.cut.can_cut`), or None."""
    from ..text.ptb.coco import caption_lines
    from ..text.ptb.cut import can_cut

    flat, lines = caption_lines([c for image_refs in refs for c in image_refs]), caption_lines(hyps)
    ref_text, hyp_text = "\n".join(flat), "\n".join(lines)
    newline = np.cumsum([len(c) + 1 for c in flat]) - 1  # (after each line)
    ref_ends = newline[np.cumsum([len(image_refs) for image_refs in refs]) - 1]
    hyp_ends = np.cumsum([len(h) + 1 for h in lines]) - 1
    reach = max(1, int(len(hyps) * CUT_REACH))
    for k in sorted(range(max(1, cut - reach), min(len(hyps), cut + reach + 1)),
                    key=lambda k: abs(k - cut)):
        if can_cut(ref_text, int(ref_ends[k - 1])) and can_cut(hyp_text, int(hyp_ends[k - 1])):
            return k
    return None
