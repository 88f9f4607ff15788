"""Aligning a corpus in forked worker processes (``METEOR(workers=...)``; Linux): identical results,
less wall time. The processes are :mod:`mtscore.pool`'s."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import Any

from ...pool import here_and_in_forks

#: fewest segments worth a process of their own
MIN_SEGMENTS_PER_WORKER = 250


def usable_workers(requested: int, segments: int, shareable: bool) -> int:
    """How many processes to align with: ``requested``, or for 0 one per CPU not already busy (the
    available CPUs less the 1-minute load average, rounded); but only where forking is safe (Linux,
    no other thread running, no cache shared with other METEOR objects), and each process gets at
    least ``MIN_SEGMENTS_PER_WORKER`` segments."""
    if not shareable or not sys.platform.startswith("linux") or threading.active_count() > 1:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    if requested == 0:
        requested = cpus - int(os.getloadavg()[0] + 0.5)
    return max(1, min(requested, cpus, segments // MIN_SEGMENTS_PER_WORKER))


def in_forks(task: Callable[[int, int, bool], Any], bounds: list[tuple[int, int]]) -> list[Any]:
    """``task(lo, hi, show)`` for every range: the first here (``show``: its progress bar), the
    others at the same time in forked processes (:func:`mtscore.pool.here_and_in_forks`: ``task``
    is inherited, its results are sent back). A worker's exception is raised here."""
    return here_and_in_forks(task, [(lo, hi, i == 0) for i, (lo, hi) in enumerate(bounds)])
