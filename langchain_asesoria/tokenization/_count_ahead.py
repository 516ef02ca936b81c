"""Exact counts of a stream of texts, one batch counted while the caller makes the next.

``count_ahead`` is how ``HuggingFaceTokenization.count_many`` overlaps counting with the
engine's planning: the engine hands over a lazy iterable of prepared texts and reads the
counts in order; texts are read ``BATCH`` at a time, and up to ``AHEAD`` batches wait on
a helper thread (the tokenizer releases the GIL and encodes a batch on all cores) while
the engine plans the next. The engine's own code stays single-threaded.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import chain, islice
from typing import TypeVar

T = TypeVar("T")

#: Texts per encoding call: enough for every core, few encodings alive (64 counts as
#: fast as 128 on the benchmark corpus and holds half the encodings).
BATCH = 64

#: Texts per encoding call on the calling thread (no helper): nothing to keep busy but
#: the one CPU, and a correction throws away the rest of its batch (a byte-level BPE on
#: the benchmark corpus, one CPU: 77 texts counted for nothing at 64, PDFs whose one
#: section has hundreds of chunks; on 22 laws of ``es/`` with headings, 118,000
#: characters at 16, 27,000 at 4). An encoding call costs a microsecond or two more
#: than its texts: where nothing is corrected, smaller batches cost nothing measurable.
SOLO_BATCH = 4

#: Batches that may wait to be counted: planning runs ahead of counting, but a
#: document's prepared texts are never all held at once.
AHEAD = 2

#: A batch holding a text longer than this (a unit without any cut that fits the budget
#: whole: for WordPiece a 200 KB word is one token) is counted on the calling thread.
#: The tokenizer needs 40-60 bytes a character to encode it; on the helper thread that
#: memory came on top of what the document had already used (measured with glibc: 12 MB
#: over the baseline for the 200 KB word, 8 MB on the calling thread).
COUNT_HERE = 1 << 16

#: Counts a batch of texts: one number per text, in order.
BatchCounter = Callable[[list[str]], list[int]]


def _batches(texts: Iterable[str], size: int = BATCH) -> Iterator[list[str]]:
    iterator = iter(texts)
    while batch := list(islice(iterator, size)):
        yield batch


def many_cpus() -> bool:
    """Whether this process may run on more than one CPU: on one (``taskset -c 0``, a
    one-CPU container) a helper thread overlaps nothing, it only adds switches and
    counts a batch or two ahead that a correction may throw away."""
    return len(os.sched_getaffinity(0)) > 1 if hasattr(os, "sched_getaffinity") else True


def completed(value: T) -> Future[T]:
    """A future that already holds ``value`` (work done on the calling thread)."""
    future: Future[T] = Future()
    future.set_result(value)
    return future


def count_ahead(
    count_batch: BatchCounter, texts: Iterable[str], *, helper: bool = True
) -> Iterator[int]:
    """``count_batch`` over ``texts`` in batches, in order, counting ahead on a helper.

    A single batch is counted on the calling thread (no helper is started for it), and
    so is every batch when ``helper`` is false (``SOLO_BATCH`` at a time).
    """
    if not helper:
        for batch in _batches(texts, SOLO_BATCH):
            yield from count_batch(batch)
        return
    batches = _batches(texts)
    first = next(batches, [])
    second = next(batches, []) if first else []
    if not second:
        yield from count_batch(first) if first else ()
        return
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="counts") as counter:
        pending: deque[Future[list[int]]] = deque()
        for batch in chain((first, second), batches):
            if max(map(len, batch)) > COUNT_HERE:
                pending.append(completed(count_batch(batch)))
            else:
                pending.append(counter.submit(count_batch, batch))
            while len(pending) > AHEAD:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
