"""Aligning a corpus in forked worker processes (``METEOR(workers=...)``; Linux): identical results,
less wall time. The processes are :mod:`mtscore.pool`'s.

By default (``workers=None``) a corpus is split only where its alignment work pays for another
process: :func:`alignment_work` estimates it from the segments' lengths (the crossing searches of
long segments, with many repeated words, grow faster than their pairs of words), and each process
gets at least ``SPLIT_WORK`` of it."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import numpy as np

from ...pool import here_and_in_forks

#: fewest segments worth a process of their own
MIN_SEGMENTS_PER_WORKER = 250
#: least :func:`alignment_work` per process when ``workers`` is left to its default: about 50 ms
#: of the 2005 alignment (WMT22 zh-en: 1.8·10⁸ in 0.23 s of CPU; de-en 3·10⁷, not split), some
#: three times what starting, feeding and joining a forked process costs
SPLIT_WORK = 1 << 26


def alignment_work(hyp_lengths: np.ndarray, ref_lengths: list[np.ndarray]) -> np.ndarray:
    """Per segment, the estimated work of aligning it with its references: (hypothesis words ×
    reference words)^1.5, summed over the references."""
    work = np.zeros(len(hyp_lengths))
    for lengths in ref_lengths:
        work += (hyp_lengths * lengths).astype(np.float64) ** 1.5
    return work


def usable_workers(requested: int | None, segments: int, shareable: bool, work: float = 0.0) -> int:
    """How many processes to align with: ``requested``; for 0 one per CPU not already busy (the
    available CPUs less the 1-minute load average, rounded); for None one per ``SPLIT_WORK`` of
    ``work`` (:func:`alignment_work`, summed), at most one per CPU, and none in a process that is
    itself a worker (streaming extraction's); but only where forking is safe (Linux, no other thread
    running, no cache shared with other METEOR objects), and each process gets at least
    ``MIN_SEGMENTS_PER_WORKER`` segments."""
    if requested == 1 or not shareable or not sys.platform.startswith("linux") \
            or threading.active_count() > 1:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    if requested is None:
        requested = int(work // SPLIT_WORK)
        if requested > 1 and _in_a_worker():
            return 1  # the process is already one of several: no processes of its own unasked
    elif requested == 0:
        requested = cpus - int(os.getloadavg()[0] + 0.5)
    return max(1, min(requested, cpus, segments // MIN_SEGMENTS_PER_WORKER))


def _in_a_worker() -> bool:
    """Whether this process was started by :mod:`multiprocessing` (a worker of a pool)."""
    import multiprocessing

    return multiprocessing.parent_process() is not None


def balanced_cuts(work: np.ndarray, n: int) -> list[tuple[int, int]]:
    """``n`` consecutive ranges of indices of about equal total ``work`` (none empty)."""
    load = np.cumsum(work)
    cuts = np.searchsorted(load, load[-1] * np.arange(1, n) / n).tolist()
    edges = [0, *cuts, len(work)]
    return [(lo, hi) for lo, hi in pairwise(edges) if hi > lo]


def in_forks(task: Callable[[int, int, bool], Any], bounds: list[tuple[int, int]]) -> list[Any]:
    """``task(lo, hi, show)`` for every range: the first here (``show``: its progress bar), the
    others at the same time in forked processes (:func:`mtscore.pool.here_and_in_forks`: ``task``
    is inherited, its results are sent back). A worker's exception is raised here."""
    return here_and_in_forks(task, [(lo, hi, i == 0) for i, (lo, hi) in enumerate(bounds)])
