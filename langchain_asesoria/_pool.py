"""The one pool of worker processes (or threads): ``parallel``'s, run by
``chunk_documents``, ``read_and_chunk`` and ``asesoria-split --jobs N`` alike.

``worker_pool`` starts the workers, each of which reads the caller's setup once
(``_start_worker``: the tokenizers single-threaded, Ctrl-C ignored, ended with its
caller), and gives a ``submit``; ``in_input_order`` keeps a bounded ``Window`` of
items in flight and hands them back in input order; ``CtrlCLatch`` is a command's
wait. What a worker runs, and what it returns, are the caller's: this module knows
nothing of documents.

A spawned worker receives its initializer's arguments pickled into the pipe that
starts it, and CPython's caller writes that pipe while it still holds the pipe's read
end. A setup larger than the pipe's buffer (a tokenizer pickles to hundreds of
kilobytes) sent to a worker that dies before reading it (killed, out of memory, or a
script that starts workers again when imported) blocks the caller forever. So the
setup goes through a private file, and the pipe carries only its path: a worker that
dies at start is then a broken pool, reported, not a hang. And a worker ends with its
caller, however the caller ends (on Linux), so that none is left running.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import pickle
import signal
import tempfile
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Concatenate, Final, Literal, ParamSpec, Protocol, TypeVar, cast

if TYPE_CHECKING:
    from typing_extensions import Self

_P = ParamSpec("_P")
_R = TypeVar("_R")
_T = TypeVar("_T")


class PoolSetup(Protocol):
    """What every worker of a pool needs, pickled once for all of them."""

    def single_threaded(self) -> Self:
        """The setup whose tokenizers count on the worker's own thread (with several
        workers: the processes already use the cores)."""
        ...


_PoolSetup = TypeVar("_PoolSetup", bound=PoolSetup)

#: In a worker process: the pool's work and its setup, as ``_start_worker`` kept them.
_WORKER: list[tuple[Callable[..., object], PoolSetup]] = []


def _start_worker(setup_path: str, tied: bool) -> None:
    """Runs once in each worker process: keeps the work and its setup for every item.

    The worker never sees Ctrl-C (its caller stops it) and, when its caller started it
    from the main thread (``tied``), ends with it (``_end_with_caller``). The
    work, the setup, the worker count and the caller's level of pypdf's notes come
    pickled in the file at ``setup_path`` (``_handed_over``), not through the
    worker's start-up pipe.

    With several workers, each one runs on one thread: its tokenizer's Rust threads are
    off (unless the environment sets ``TOKENIZERS_PARALLELISM``) and the setup's
    tokenizers count on the worker's own thread (``PoolSetup.single_threaded``). The
    processes already use the cores; threads of their own would only compete with the
    other workers (measured in ``benchmarks/README.md``).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if tied:
        _end_with_caller()
    handover = _taken_over(setup_path)
    assert isinstance(handover, tuple)
    work, setup, workers, pypdf_level = handover
    logging.getLogger("pypdf").setLevel(pypdf_level)
    if workers > 1:
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        setup = setup.single_threaded()
    _WORKER[:] = [(work, setup)]


def _in_worker(*args: object) -> object:
    work, setup = _WORKER[0]
    return work(setup, *args)


@contextmanager
def worker_pool(
    work: Callable[Concatenate[_PoolSetup, _P], _R],
    setup: _PoolSetup,
    workers: int,
    *,
    mode: Literal["process", "thread"] = "process",
    start_method: str | None = None,
) -> Iterator[Callable[_P, Future[_R]]]:
    """The pool's ``submit(*args)``: a future of ``work(setup, *args)`` run in a worker.

    ``work`` is a module-level function (pickled by name); ``setup`` reaches each worker
    process once (``_start_worker``); a thread pool shares it as it is. On leaving the
    block normally the pool finishes what was submitted; on any exception (Ctrl-C, an
    error, a generator closed early) it stops every worker first
    (``_stop_workers``): what they held is abandoned.

    Args:
        work: What a worker runs per item, given the setup first.
        setup: What every worker needs (a tokenization, a configuration...).
        workers: Worker processes or threads.
        mode: ``"process"`` or ``"thread"``.
        start_method: How worker processes start (``"spawn"``...); default Python's.
    """
    if mode == "thread":
        threads = ThreadPoolExecutor(max_workers=workers)

        def run_in_thread(*args: _P.args, **kwargs: _P.kwargs) -> Future[_R]:
            return threads.submit(work, setup, *args, **kwargs)

        try:
            yield run_in_thread
        except BaseException:
            threads.shutdown(wait=True, cancel_futures=True)
            raise
        threads.shutdown(wait=True)
        return
    tied = threading.current_thread() is threading.main_thread()
    pypdf_level = logging.getLogger("pypdf").level  # workers note what the caller notes
    with _handed_over((work, setup, workers, pypdf_level)) as setup_path:
        with _ctrl_c_held():
            pool = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context(start_method),
                initializer=_start_worker,
                initargs=(setup_path, tied),
            )

        def run_in_process(*args: _P.args, **kwargs: _P.kwargs) -> Future[_R]:
            with _ctrl_c_held():  # the pool starts its workers as items are submitted
                return cast("Future[_R]", pool.submit(_in_worker, *args, **kwargs))

        try:
            yield run_in_process
        except BaseException:
            _stop_workers(pool)
            raise
        pool.shutdown(wait=True)


@dataclass(frozen=True, slots=True)
class Window:
    """What may be in flight: items submitted to the workers and not yet taken.

    Results are taken in input order, so the items done behind a long one wait in
    memory until it is done. A window of items alone would then leave the other workers
    idle behind it; a window of weight (bytes) lets short items go on while bounding
    what waits.

    Attributes:
        items: Items always allowed in flight (every worker busy, even behind an item
            heavier than ``weight``).
        weight: More items are started while those in flight weigh less than this.
    """

    items: int
    weight: int = 0


def in_input_order(
    started: Iterator[_T], window: Window, weight: Callable[[_T], int] = lambda _: 0
) -> Iterator[_T]:
    """``started``'s items in their order, each pulled (so started) ahead of the caller
    while those in flight fit ``window``.

    Pulling an item from ``started`` starts it (a submission); an item is in flight
    from then until it is yielded. So a caller that stops reading stops the
    submissions, and an iterator of inputs is streamed, never held whole.
    """
    pending: deque[tuple[_T, int]] = deque()
    in_flight = 0  # the weight of the items pending

    def room() -> bool:
        return len(pending) < window.items or in_flight < window.weight

    while True:
        while room() and (item := next(started, None)) is not None:
            pending.append((item, weight(item)))
            in_flight += pending[-1][1]
        if not pending:
            return
        item, item_weight = pending.popleft()
        in_flight -= item_weight
        yield item


#: How often the caller, waiting for a result, looks whether Ctrl-C was pressed.
_CTRL_C_POLL = 0.25


class CtrlCLatch:
    """Ctrl-C latched for the whole run: the handler records the press and raises.

    A ``KeyboardInterrupt`` raised where Python swallows exceptions (a ``__del__``, a
    weak reference's callback run in the middle of the wait) would otherwise be lost
    and the run would go on to the end; the caller's wait looks at the latch every
    ``_CTRL_C_POLL`` seconds and raises it again. For a command that owns the process
    (``asesoria-split``); a library's generator leaves the caller's handler alone.
    """

    def __init__(self) -> None:
        self.pressed = False

    def _handle(self, number: int, frame: object) -> None:
        self.pressed = True
        raise KeyboardInterrupt

    @contextmanager
    def installed(self) -> Iterator[CtrlCLatch]:
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = signal.signal(signal.SIGINT, self._handle)
        try:
            yield self
        finally:
            signal.signal(signal.SIGINT, previous)

    def wait(self, future: Future[_R]) -> _R:
        """``future.result()``, raising ``KeyboardInterrupt`` once Ctrl-C was pressed."""
        while True:
            if self.pressed:
                raise KeyboardInterrupt
            try:
                return future.result(timeout=_CTRL_C_POLL)
            except FutureTimeout:
                continue


# -- the plumbing -----------------------------------------------------------------------

#: ``prctl``'s option that sends a process a signal when its parent ends (Linux).
_PR_SET_PDEATHSIG = 1


def usable_cores() -> int:
    """The number of cores this process may use (its CPU affinity), at least 1."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # pragma: no cover - not on Linux
        return max(os.cpu_count() or 1, 1)


@contextmanager
def _handed_over(setup: object) -> Iterator[str]:
    """The path of ``setup`` pickled in a private temporary folder, removed on exit.

    The folder must outlive every worker that reads it: leave this block only once the
    pool is shut down or its workers are stopped.
    """
    with tempfile.TemporaryDirectory(prefix="langchain-asesoria-") as folder:
        path = os.path.join(folder, "setup.pickle")
        with open(path, "wb") as file:
            pickle.dump(setup, file, protocol=pickle.HIGHEST_PROTOCOL)
        yield path


def _taken_over(path: str) -> object:
    """What ``_handed_over`` wrote at ``path`` (read by a worker as it starts)."""
    with open(path, "rb") as file:
        return pickle.load(file)  # our own file, written by this run's caller


def _end_with_caller() -> None:
    """In a worker: the worker is terminated when its caller ends, even killed (Linux).

    A caller that is stopped (Ctrl-C, an error) terminates its workers itself; one that
    is killed cannot, and its workers would wait for work for ever, each holding the
    others' pipes open. Elsewhere than Linux this does nothing. Linux ties the request
    to the thread that started the worker: call it only in workers started by a thread
    that lives as long as the pool (``asesoria-split``'s main thread).
    """
    parent = multiprocessing.parent_process()
    if parent is None or not os.path.exists("/proc/self"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
        return
    if os.getppid() != parent.pid:  # the caller ended before the request was made
        os._exit(1)


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Ctrl-C waits, and is not lost, while the pool may start a worker.

    A worker started now starts with the signal blocked (a thread's blocked signals
    are inherited), so it never sees the terminal's Ctrl-C, not even while it is still
    importing. The caller's own Ctrl-C is kept until the worker is started and known to
    the pool, then raised: a Ctrl-C in the middle of a start would leave a worker that
    no one can stop. (Where signals cannot be blocked, workers ignore Ctrl-C once they
    have started.)
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list[int] = []
    handler = signal.signal(signal.SIGINT, lambda number, _: pressed.append(number))
    blocking = hasattr(signal, "pthread_sigmask")
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if blocking else None
    try:
        yield
    finally:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGINT, handler)
    if pressed:
        raise KeyboardInterrupt


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminates every worker now (their files are abandoned) and reaps them.

    ``ProcessPoolExecutor.terminate_workers`` (Python 3.14) does this; before it, the
    pool's own table of worker processes is the only handle on them.
    """
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:  # pragma: no cover - Python 3.14
        terminate()
        return
    processes: dict[int, BaseProcess] = getattr(pool, "_processes", None) or {}
    workers = list(processes.values())
    # The pool's manager thread, joined once its workers are gone: left running, the
    # interpreter's exit joins it and may print a traceback ("Bad file descriptor") from
    # a wakeup pipe the dead pool has closed.
    manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.terminate()
    for process in workers:
        process.join()
    if manager is not None:
        manager.join(timeout=_MANAGER_JOIN_SECONDS)


#: How long ``_stop_workers`` waits for the pool's manager thread once its workers are gone.
_MANAGER_JOIN_SECONDS: Final = 10.0
