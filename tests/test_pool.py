"""mtscore.pool, the one worker-process mechanism: results in order, a worker's exception raised in
the caller with its type and message (spawned and forked workers alike)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import pytest

from mtscore.errors import InputError, OptionError
from mtscore.pool import beside_a_fork, check_jobs, here_and_in_forks, ordered, process_pool

forked = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers: Linux only")


def test_spawned_results_in_order_and_errors_with_their_message() -> None:
    with process_pool(2) as pool:
        results = ordered(lambda jobs: pool.submit(check_jobs, jobs), [3, 1, 2, 0, 4], window=2)
        assert [next(results) for _ in range(3)] == [(3, 3), (1, 1), (2, 2)]
        with pytest.raises(OptionError, match=r"invalid --jobs 0: a positive number of processes") as err:
            next(results)
    assert err.value.option == "--jobs" and err.value.value == 0  # the fields came back too


def _sleeps(seconds: float) -> float:
    import time

    time.sleep(seconds)
    return seconds


def test_no_thread_of_the_pool_outlives_an_error() -> None:
    """A pool left stopping in the background races with the interpreter's exit (CPython 3.11:
    ``OSError: Bad file descriptor`` printed after the error); on an error the pool cancels what is
    pending, waits for what runs, and leaves no thread behind."""
    import threading

    before = set(threading.enumerate())
    with pytest.raises(OptionError, match="--jobs"), process_pool(1) as pool:
        failing = pool.submit(check_jobs, 0)
        queued = pool.submit(_sleeps, 0.2)  # a worker's queue holds a few tasks: this one runs
        pending = [pool.submit(_sleeps, 0.2) for _ in range(8)]
        failing.result()
    assert set(threading.enumerate()) <= before
    assert queued.done() and queued.result() == 0.2
    assert all(f.done() for f in pending) and pending[-1].cancelled()


def test_ordered_keeps_at_most_window_in_flight() -> None:
    submitted: list[int] = []

    class Done:
        def __init__(self, value: int) -> None:
            self.value = value

        def result(self) -> int:
            return self.value * 10

    def submit(x: int) -> Done:
        submitted.append(x)
        return Done(x)

    results = ordered(submit, iter(range(6)), window=3)  # type: ignore[arg-type]
    assert next(results) == (0, 0) and submitted == [0, 1, 2]
    assert list(results) == [(x, 10 * x) for x in range(1, 6)]


@forked
def test_forked_workers_inherit_the_task_and_send_results_back() -> None:
    data = {"offset": 100}  # a closure over this process's data: never pickled
    parent = os.getpid()

    def task(x: int, y: int) -> tuple[int, bool]:
        return x + y + data["offset"], os.getpid() == parent

    assert here_and_in_forks(task, [(1, 2), (3, 4), (5, 6)]) == [(103, True), (107, False), (111, False)]
    assert here_and_in_forks(task, [(1, 1)]) == [(102, True)]


@forked
def test_a_forked_worker_error_reaches_the_caller() -> None:
    parent = os.getpid()

    def task(x: int) -> int:
        if os.getpid() != parent:
            raise InputError(f"segment {x} fails", source="hyps.txt", line=x)
        return x

    with pytest.raises(InputError, match=r"hyps.txt, line 7: segment 7 fails") as err:
        here_and_in_forks(task, [(1,), (7,)])
    assert err.value.line == 7


@forked
def test_a_forked_worker_that_dies_is_an_error_and_a_traceback_comes_back() -> None:
    parent = os.getpid()

    def dies(x: int) -> int:
        if os.getpid() != parent:
            os.kill(os.getpid(), 9)
        return x

    with pytest.raises(ChildProcessError, match="before sending its result"):
        here_and_in_forks(dies, [(1,), (2,)])

    def fails(x: int) -> int:
        if os.getpid() != parent:
            raise ValueError(f"bad {x}")
        return x

    with pytest.raises(ValueError, match="bad 2") as err:
        here_and_in_forks(fails, [(1,), (2,)])
    assert "in fails" in str(err.value.__cause__)  # the worker's traceback


@forked
def test_beside_a_fork_receives_posts_in_order_then_the_result() -> None:
    data = list(range(5))  # a closure over this process's data
    parent = os.getpid()

    def there(post: Callable[[Any], None]) -> tuple[int, bool]:
        post(data[:2])
        post(os.getpid() != parent)
        return sum(data), os.getpid() != parent

    def here(receive: Callable[[], Any]) -> list[Any]:
        return [receive(), receive()]

    assert beside_a_fork(here, there) == ([[0, 1], True], (10, True))

    def fails(post: Callable[[Any], None]) -> int:
        raise InputError("no captions", source="res.json")

    with pytest.raises(InputError, match=r"res\.json: no captions"):
        beside_a_fork(lambda receive: receive(), fails)  # (raised by receive())
    with pytest.raises(InputError, match=r"res\.json: no captions"):
        beside_a_fork(lambda receive: 1, fails)  # (raised when its result is received)
    with pytest.raises(ValueError, match="here fails"):
        beside_a_fork(lambda receive: int("here fails"), there)  # (the worker is stopped)


@forked
def test_beside_a_fork_never_keeps_the_worker_waiting_in_post() -> None:
    """A post larger than a pipe holds does not wait for ``here`` to receive it (it is read by a
    thread as it arrives): the worker goes on while ``here`` has not received yet."""
    import select

    big = b"x" * (4 << 20)  # (a pipe holds 64 KiB by default, at most 1 MiB unprivileged)
    signal_read, signal_write = os.pipe()

    def there(post: Callable[[Any], None]) -> int:
        post(big)
        os.write(signal_write, b"1")  # (reached only once the post is out of the pipe)
        return 7

    def here(receive: Callable[[], Any]) -> bool:
        went_on = bool(select.select([signal_read], [], [], 60)[0])
        return went_on and receive() == big

    try:
        assert beside_a_fork(here, there) == (True, 7)
    finally:
        os.close(signal_read)
        os.close(signal_write)
