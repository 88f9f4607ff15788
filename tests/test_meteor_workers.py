"""METEOR's worker processes (:mod:`mtscore.metrics.meteor.workers`): the default splits a corpus only
where its estimated alignment work pays for another process, and a corpus split by segments over
forked processes gives what one process gives — statistics, alignments, fallback and bounded-search
counts."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import mtscore.metrics.meteor.workers as workers
from mtscore.data import sample_path
from mtscore.io.text import read_lines
from mtscore.metrics.meteor import METEOR


def _pretend(monkeypatch, cpus: int) -> None:
    """``cpus`` CPUs, no other thread (an idle daemon thread of an earlier test would stop forks)."""
    monkeypatch.setattr(workers.os, "sched_getaffinity", lambda pid: set(range(cpus)), raising=False)
    monkeypatch.setattr(workers.threading, "active_count", lambda: 1)
    monkeypatch.setattr(workers.sys, "platform", "linux")


def test_default_workers_follow_the_work(monkeypatch) -> None:
    _pretend(monkeypatch, 2)
    split = workers.SPLIT_WORK
    assert workers.usable_workers(None, 2000, True, split - 1) == 1  # not worth a process
    assert workers.usable_workers(None, 2000, True, 2 * split) == 2
    assert workers.usable_workers(None, 2000, True, 9 * split) == 2  # one per CPU at most
    assert workers.usable_workers(None, 300, True, 9 * split) == 1  # too few segments
    assert workers.usable_workers(None, 2000, False, 9 * split) == 1  # a shared stage cache
    assert workers.usable_workers(1, 2000, True, 9 * split) == 1
    assert workers.usable_workers(3, 2000, True, 0.0) == 2


def test_alignment_work_and_balanced_cuts() -> None:
    hyp, ref = np.array([4, 0, 9]), np.array([1, 5, 4])
    np.testing.assert_allclose(workers.alignment_work(hyp, [ref, ref]), 2 * (hyp * ref) ** 1.5)
    work = np.array([5.0, 1, 1, 1, 1, 1, 5, 0])
    cuts = workers.balanced_cuts(work, 2)
    assert cuts == [(0, 3), (3, 8)]  # consecutive, covering, about equal halves (7 and 8)
    assert workers.balanced_cuts(work, 1) == [(0, 8)]
    assert workers.balanced_cuts(np.zeros(3), 2) == [(0, 3)]  # no work: no empty range


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="worker processes are forked (Linux)")
@pytest.mark.parametrize("kwargs", [{}, {"modules": ("exact", "wn_stem"), "delta": 0.5}])
def test_segment_ranges_in_processes_give_one_process_results(monkeypatch, kwargs) -> None:
    folder = sample_path()
    hyps = read_lines(folder / "systems" / "Online-A.txt")[:300]
    refs = [read_lines(folder / "references" / f"{r}.txt")[:300] for r in ("A", "B")]
    one = METEOR(workers=1, **kwargs)
    alone = one.align_corpus(hyps, refs)
    _pretend(monkeypatch, 3)
    monkeypatch.setattr(workers, "MIN_SEGMENTS_PER_WORKER", 50)
    monkeypatch.setattr(workers, "SPLIT_WORK", 1.0)  # every corpus worth three processes
    split = METEOR(**kwargs)
    from mtscore.metrics.meteor.extract import _segment_ranges

    hyp_ids, prepared = split.encode(hyps), split.prepare_references(refs)
    assert len(_segment_ranges(split, hyp_ids, prepared.ids)) == 3
    together = split.align_corpus(hyps, refs)
    np.testing.assert_array_equal(alone[0].values, together[0].values)
    assert alone[0].meta == together[0].meta
    assert alone[1] == together[1]  # kept references and alignments
    assert one.bounded_searches == split.bounded_searches
    assert one.score_corpus(hyps, refs) == split.score_corpus(hyps, refs)


def test_no_automatic_split_inside_a_worker(monkeypatch) -> None:
    """A streaming worker's METEOR (``mtscore.pool``) forks no processes of its own by default."""
    _pretend(monkeypatch, 2)
    monkeypatch.setattr(workers, "_in_a_worker", lambda: True)
    assert workers.usable_workers(None, 2000, True, 9 * workers.SPLIT_WORK) == 1
    assert workers.usable_workers(2, 2000, True, 0.0) == 2  # asked for: as asked


def test_this_process_is_no_worker_and_a_pool_worker_is() -> None:
    from mtscore.pool import process_pool

    assert not workers._in_a_worker()
    with process_pool(1) as pool:
        assert pool.submit(workers._in_a_worker).result()
