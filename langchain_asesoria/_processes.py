"""What every pool of worker processes shares: the cores to use, and the setup handover.

A spawned worker receives its initializer's arguments pickled into the pipe that
starts it, and CPython's caller writes that pipe while it still holds the pipe's read
end. A setup larger than the pipe's buffer (a tokenizer pickles to hundreds of
kilobytes) sent to a worker that dies before reading it (killed, out of memory, or a
script that starts workers again when imported) blocks the caller forever. So the
setup goes through a private file, and the pipe carries only its path: a worker that
dies at start is then a broken pool, reported, not a hang.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["handed_over", "taken_over", "usable_cores"]


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
