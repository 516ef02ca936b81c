"""What every pool of worker processes shares: the cores to use, and the setup handover.

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
import multiprocessing
import os
import pickle
import signal
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["end_with_caller", "handed_over", "taken_over", "usable_cores"]

#: ``prctl``'s option that sends a process a signal when its parent ends (Linux).
_PR_SET_PDEATHSIG = 1


def usable_cores() -> int:
    """The number of cores this process may use (its CPU affinity), at least 1."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # pragma: no cover - not on Linux
        return max(os.cpu_count() or 1, 1)


@contextmanager
def handed_over(setup: object) -> Iterator[str]:
    """The path of ``setup`` pickled in a private temporary folder, removed on exit.

    The folder must outlive every worker that reads it: leave this block only once the
    pool is shut down or its workers are stopped.
    """
    with tempfile.TemporaryDirectory(prefix="langchain-asesoria-") as folder:
        path = os.path.join(folder, "setup.pickle")
        with open(path, "wb") as file:
            pickle.dump(setup, file, protocol=pickle.HIGHEST_PROTOCOL)
        yield path


def taken_over(path: str) -> object:
    """What ``handed_over`` wrote at ``path`` (read by a worker as it starts)."""
    with open(path, "rb") as file:
        return pickle.load(file)  # our own file, written by this run's caller


def end_with_caller() -> None:
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
