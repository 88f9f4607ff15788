"""Worker processes: the one mechanism of every parallel path in mtscore.

Three callers use it: streaming extraction (chunks of a corpus, :mod:`mtscore.metrics.chunked`),
the study (one task per system, :mod:`mtscore.study.parallel`) and METEOR's aligner (ranges of a
corpus, :mod:`mtscore.metrics.meteor.workers`). Each starts a pool with :func:`process_pool`, hands
every worker what it needs once (``initializer``/``initargs``), and reads the results in the order
of its tasks (:func:`ordered`). The results are those of running every task in this process.

Errors: an exception raised by a task in a worker is raised here, by the caller's loop, with its
type and message (``concurrent.futures`` sends it back; the worker's traceback is its
``__cause__``); a worker that dies makes the loop raise ``BrokenProcessPool``. Nothing is redone or
swallowed. On any error the pending tasks are cancelled and the workers stopped.
:func:`here_and_in_forks` (METEOR's aligner) forks bare processes instead of a pool and does the
same through a pipe (a worker that dies: ``ChildProcessError``); :func:`beside_a_fork` (the caption
evaluation) is one such process that also sends values before its result (read by a thread here as
they arrive, so the worker never waits for the caller to receive them).

Start methods: ``spawn`` (the default; macOS and Windows too) pickles ``initargs`` once per worker;
``fork`` (Linux only; METEOR's aligner) inherits them, so a worker's state may be a closure over
the caller's data, but it is safe only while no other thread runs (the caller checks that).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import OptionError

if TYPE_CHECKING:  # concurrent.futures and multiprocessing are imported when a pool starts
    from concurrent.futures import Future, ProcessPoolExecutor

T = TypeVar("T")
R = TypeVar("R")

#: worker start methods
START_METHODS = ("spawn", "fork")


def default_jobs() -> int:
    """The cores this process may run on (``os.sched_getaffinity``; ``os.cpu_count`` elsewhere)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def check_jobs(jobs: int | None) -> int:
    """Validate ``jobs`` (worker processes); the number of jobs (None: :func:`default_jobs`)."""
    if jobs is None:
        return default_jobs()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise OptionError("--jobs", jobs, detail="a positive number of processes")
    return jobs


@contextmanager
def process_pool(workers: int, *, start: str = "spawn", initializer: Callable[..., None] | None = None,
                 initargs: tuple[Any, ...] = ()) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``workers`` processes started with ``start`` (``spawn`` or ``fork``), each running
    ``initializer(*initargs)`` first. On leaving it waits for the workers; on an error (a task's,
    re-raised by the caller, or the caller's own) it cancels what is pending and waits only for the
    tasks already running. It waits so that no thread of the pool outlives it: a pool left to stop
    in the background races with the interpreter's exit (CPython 3.11's ``concurrent.futures``
    then writes to a pipe its own thread has just closed, ``OSError: Bad file descriptor``)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if start not in START_METHODS:
        raise OptionError("start method", start, START_METHODS)
    context = multiprocessing.get_context(start)
    with ProcessPoolExecutor(workers, mp_context=context, initializer=initializer,
                             initargs=initargs) as pool:
        try:
            yield pool
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def ordered(submit: Callable[[T], Future[R]], items: Iterable[T], window: int
            ) -> Iterator[tuple[T, R]]:
    """Each item with its result, in the order of ``items``: ``submit(item)`` starts its task
    (e.g. ``lambda x: pool.submit(task, x)``), at most ``window`` tasks are in flight (``items`` is
    read only as far as that needs), and a task's exception is raised when its turn comes."""
    queue: deque[tuple[T, Future[R]]] = deque()
    for item in items:
        queue.append((item, submit(item)))
        if len(queue) >= window:
            done, future = queue.popleft()
            yield done, future.result()
    while queue:
        done, future = queue.popleft()
        yield done, future.result()


def here_and_in_forks(task: Callable[..., R], calls: list[tuple[Any, ...]]) -> list[R]:
    """``task(*call)`` for every call: the first in this process, the others at the same time in
    forked workers (one per call) that inherit ``task`` (a closure over this process's data is
    fine: it is not pickled; the results are). In the order of ``calls``.

    Each worker is a bare forked ``multiprocessing`` process sending its result (or its exception,
    with its traceback as ``__cause__``) back through a pipe: no pool, no manager thread, so the
    processes cost a few milliseconds. A worker that dies before it sends raises
    ``ChildProcessError``; on any error the other workers are stopped."""
    if len(calls) == 1:
        return [task(*calls[0])]
    from contextlib import ExitStack

    with ExitStack() as stack:
        workers = [stack.enter_context(_forked(_send_result, task, call)) for call in calls[1:]]
        out = [task(*calls[0])]
        out.extend(_received(process, receive) for process, receive in workers)
        return out


def beside_a_fork(here: Callable[[Callable[[], Any]], R], there: Callable[[Callable[[Any], None]], T]
                  ) -> tuple[R, T]:
    """(``here(receive)``, ``there(post)``): ``there`` runs in a forked worker (as in
    :func:`here_and_in_forks`) while ``here`` runs in this process; each ``post(value)`` of the
    worker is what a ``receive()`` here returns, in order (a worker that raises, or dies, before
    posting makes ``receive()`` raise as :func:`here_and_in_forks` does). ``there``'s result comes
    after its posts. A thread of this process reads each post as it arrives (:func:`_mailbox`), so
    the worker never waits in ``post`` for ``here`` to receive: ``here`` may receive late."""
    with _forked(_send_posts, there) as (process, receive), _mailbox(process, receive) as take:
        out = here(take)
        return out, take()


@contextmanager
def _mailbox(process: Any, receive: Any) -> Iterator[Callable[[], Any]]:
    """``take()``: the next of what a forked worker sends, as :func:`_received` gives it, read from
    ``receive`` by a thread as soon as it arrives (and kept until taken). On leaving, the worker,
    if still running, is stopped (its end of the pipe closes) and the thread joined."""
    import queue
    import threading

    box: queue.SimpleQueue[Any] = queue.SimpleQueue()

    def read() -> None:
        while True:
            try:
                box.put(receive.recv())
            except EOFError:
                box.put(None)  # (the worker's end closed: it sent everything, or died)
                return
            except BaseException as error:  # (a message that cannot be read: raised by take())
                box.put(error)
                return

    def take() -> Any:
        message = box.get()
        if message is None or isinstance(message, BaseException):
            box.put(message)  # (every later take() fails the same way)
        if isinstance(message, BaseException):
            raise message
        return _opened(process, message)

    reader = threading.Thread(target=read, name="mtscore-mailbox", daemon=True)
    reader.start()
    try:
        yield take
    finally:
        if process.is_alive():
            process.terminate()
        reader.join()


@contextmanager
def _forked(target: Callable[..., None], *args: Any) -> Iterator[tuple[Any, Any]]:
    """A forked worker running ``target(send, *args)`` and the end of its pipe to receive from; on
    leaving, the pipe is closed and the worker, if still running, stopped."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=target, args=(send, *args), daemon=True)
    try:
        process.start()
    except BaseException:
        receive.close()
        send.close()
        raise
    send.close()
    try:
        yield process, receive
    finally:
        receive.close()
        if process.is_alive():
            process.terminate()
        process.join()


def _send_posts(send: Any, there: Callable[[Callable[[Any], None]], Any]) -> None:
    """In a forked worker: ``there(post)``, each post and then its result (or exception) sent."""
    _send_result(send, there, (lambda value: send.send((True, value, "")),))


def _send_result(send: Any, task: Callable[..., Any], call: tuple[Any, ...]) -> None:
    """In a forked worker: ``task(*call)``'s result, or its exception and traceback, sent back."""
    try:
        message: tuple[bool, Any, str] = (True, task(*call), "")
    except BaseException as error:  # sent to the caller, raised there
        import traceback

        message = (False, error, traceback.format_exc())
    send.send(message)
    send.close()


class WorkerTraceback(Exception):
    """A forked worker's traceback (the ``__cause__`` of its exception raised in the caller)."""


def _received(process: Any, receive: Any) -> Any:
    """What a forked worker sent: its result, or its exception raised here."""
    try:
        message = receive.recv()
    except EOFError:
        message = None
    return _opened(process, message)


def _opened(process: Any, message: tuple[bool, Any, str] | None) -> Any:
    """A forked worker's ``message`` (None: it ended before sending one): its value, or its
    exception raised here."""
    if message is None:
        process.join()
        raise ChildProcessError(f"a worker process ended (exit code {process.exitcode}) before "
                                "sending its result")
    ok, value, trace = message
    if not ok:
        raise value from WorkerTraceback(trace)
    return value
