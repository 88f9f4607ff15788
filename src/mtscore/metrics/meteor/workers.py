"""Aligning a corpus in forked worker processes (``METEOR(workers=...)``; Linux): identical results,
less wall time."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import Any

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


def _child(task: Callable[[int, int, bool], Any], lo: int, hi: int, conn: Any) -> None:
    """A worker: compute its range and send it back (``marshal``); nothing when it fails."""
    import marshal

    try:
        data = marshal.dumps(task(lo, hi, False))
    except Exception:  # the parent redoes the range
        data = b""
    conn.send_bytes(data)
    conn.close()


def in_forks(task: Callable[[int, int, bool], Any], bounds: list[tuple[int, int]]) -> list[Any]:
    """``task(lo, hi, show)`` for every range: the first here, the others in forked processes that
    send their result back (``marshal``: lists, tuples, ints, None). A process that fails has its
    range redone here, so the results are always those of running every range in this process."""
    import marshal
    import multiprocessing

    context = multiprocessing.get_context("fork")
    children = []
    for lo, hi in bounds[1:]:
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=_child, args=(task, lo, hi, send), daemon=True)
        process.start()
        send.close()
        children.append((process, receive))
    results = []
    try:
        results.append(task(*bounds[0], True))
    finally:
        received = []
        for process, receive in children:
            try:
                data = receive.recv_bytes()
            except EOFError:
                data = b""
            receive.close()
            process.join()
            received.append(data if process.exitcode == 0 else b"")
    for (lo, hi), data in zip(bounds[1:], received):
        results.append(marshal.loads(data) if data else task(lo, hi, False))
    return results
