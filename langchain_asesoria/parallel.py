"""Many documents chunked on all cores, in input order, with the same output as one core.

``chunk_documents`` runs ``chunk_document`` on each ``DocumentInput`` in a pool of
worker processes (the default) or threads. Each worker process receives the
tokenization once, through the pool's initializer, never once per document. Results
come back in the order of the input, lazily: at most ``workers * prefetch`` documents
are in flight, so a corpus is streamed, never held whole in memory.

For every input ``d`` and its result ``r``::

    r == chunk_document(d.pages, d.metadata, config=config,
                        tokenization=tokenization, sections=d.sections)

A document that fails raises in the caller, as the error the engine raised (its message
names the document) or, for any other failure, as a ``DocumentChunkingError`` naming
the document's ``doc_id`` and its position in the input.

This module never imports LangChain.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from itertools import islice
from typing import Literal

from langchain_asesoria.engine import Tokenization
from langchain_asesoria.errors import AsesoriaError, ConfigurationError, DocumentChunkingError
from langchain_asesoria.models import Chunk, ChunkingConfig, ChunkMetadata, LoadedPage, SectionSpan
from langchain_asesoria.reading.given import chunk_document

__all__ = [
    "DocumentInput",
    "ParallelMode",
    "chunk_documents",
    "default_workers",
]

#: ``"process"``: a process pool (all cores, for any tokenizer); ``"thread"``: a thread
#: pool sharing one tokenization (the Rust tokenizer releases the GIL while it counts,
#: the engine's Python does not); ``"serial"``: the calling thread, for debugging.
ParallelMode = Literal["process", "thread", "serial"]


@dataclass(frozen=True, slots=True)
class DocumentInput:
    """One document for ``chunk_documents``: what ``chunk_document`` takes for it.

    Attributes:
        pages: The document's pages, numbered from 1 upward, in order.
        metadata: The document's fields; ``metadata.doc_id`` names it in errors.
        sections: Optional reliable section spans in offsets of the joined text.
        detect_markdown_headings: Its ATX headings as sections, instead of ``sections``.
    """

    pages: Sequence[LoadedPage]
    metadata: ChunkMetadata
    sections: Sequence[SectionSpan] | None = None
    detect_markdown_headings: bool = False


def default_workers() -> int:
    """The number of cores this process may use (its CPU affinity), at least 1."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # pragma: no cover - not on Linux
        return max(os.cpu_count() or 1, 1)


# -- the worker side ---------------------------------------------------------------------

_WORKER_STATE: dict[str, object] = {}


def _init_worker(tokenization: Tokenization, config: ChunkingConfig, workers: int) -> None:
    """Runs once in each worker process: keeps the tokenization for every document.

    With several workers, each one runs on one thread: its tokenizer's Rust threads are
    off (unless the environment sets ``TOKENIZERS_PARALLELISM``) and a
    ``LoadedTokenization`` (what ``load_tokenization`` returns, of any family) counts on
    the worker's own thread (``single_threaded``). The processes already use the cores;
    threads of their own would only compete with the other workers (measured in
    ``benchmarks/README.md``).
    """
    if workers > 1:
        from langchain_asesoria.tokenization import LoadedTokenization

        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        if isinstance(tokenization, LoadedTokenization):
            tokenization = tokenization.single_threaded()
    _WORKER_STATE["tokenization"] = tokenization
    _WORKER_STATE["config"] = config


def _chunk_one(
    document: DocumentInput,
    index: int,
    tokenization: Tokenization,
    config: ChunkingConfig,
) -> list[Chunk]:
    try:
        return chunk_document(
            document.pages,
            document.metadata,
            config=config,
            tokenization=tokenization,
            sections=document.sections,
            detect_markdown_headings=document.detect_markdown_headings,
        )
    except AsesoriaError:
        raise
    except Exception as error:
        raise DocumentChunkingError(
            f"input {index} could not be chunked: {type(error).__name__}: {error}",
            doc_id=document.metadata.doc_id,
        ) from error


def _chunk_in_worker(document: DocumentInput, index: int) -> list[Chunk]:
    tokenization = _WORKER_STATE["tokenization"]
    config = _WORKER_STATE["config"]
    assert isinstance(tokenization, Tokenization)
    assert isinstance(config, ChunkingConfig)
    return _chunk_one(document, index, tokenization, config)


# -- the caller side ---------------------------------------------------------------------


def _checked(document: object, index: int) -> DocumentInput:
    if not isinstance(document, DocumentInput):
        raise ConfigurationError(
            f"input {index} is {type(document).__name__}, not a DocumentInput(pages, "
            "metadata, sections=None).",
            expected="a DocumentInput",
        )
    return document


def _executor(
    mode: ParallelMode, workers: int, tokenization: Tokenization, config: ChunkingConfig
) -> Executor:
    if mode == "process":
        return ProcessPoolExecutor(
            max_workers=workers, initializer=_init_worker, initargs=(tokenization, config, workers)
        )
    return ThreadPoolExecutor(max_workers=workers)


def chunk_documents(
    documents: Iterable[DocumentInput],
    *,
    config: ChunkingConfig,
    tokenization: Tokenization,
    workers: int | None = None,
    mode: ParallelMode = "process",
    prefetch: int = 4,
) -> Iterator[list[Chunk]]:
    """Chunks many documents on all cores; yields each document's chunks in input order.

    The output equals ``chunk_document`` run on each document in turn, whatever the
    mode and the number of workers. Documents are read from ``documents`` only as
    workers free up (at most ``workers * prefetch`` in flight), so a generator of
    documents is streamed. The first ``workers * prefetch`` documents start largest
    first, so that a long one does not start last and run alone. With several worker
    processes, each one's tokenizer runs single-threaded (unless
    ``TOKENIZERS_PARALLELISM`` is set). Closing the iterator early stops the pool.

    Args:
        documents: The documents, any iterable (a generator is streamed).
        config: One configuration for every document.
        tokenization: One tokenization for every document; in ``"process"`` mode it is
            pickled once per worker (``load_tokenization`` results and the fakes of
            ``langchain_asesoria.testing`` are picklable).
        workers: Worker processes or threads; default: the usable cores.
        mode: ``"process"`` (default), ``"thread"`` or ``"serial"``.
        prefetch: Documents in flight per worker (the look-ahead of the largest-first
            start, and the documents held in memory at once).

    Raises:
        ConfigurationError: an input that is not a ``DocumentInput``, a bad ``mode``,
            ``workers`` or ``prefetch``.
        AsesoriaError: as ``chunk_document``, for the first failing document in input
            order (its message names the document).
        DocumentChunkingError: any other failure, naming the document.
    """
    if mode not in ("process", "thread", "serial"):
        raise ConfigurationError(
            f"mode must be 'process', 'thread' or 'serial', got {mode!r}.",
            expected="'process', 'thread' or 'serial'",
        )
    workers = default_workers() if workers is None else workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigurationError(
            f"workers must be a positive integer, got {workers!r}.", expected="a positive integer"
        )
    if isinstance(prefetch, bool) or not isinstance(prefetch, int) or prefetch < 1:
        raise ConfigurationError(
            f"prefetch must be a positive integer, got {prefetch!r}.", expected="a positive integer"
        )
    if mode == "serial":
        return _serial(documents, config, tokenization)
    return _pooled(documents, config, tokenization, workers, mode, workers * prefetch)


def _serial(
    documents: Iterable[DocumentInput], config: ChunkingConfig, tokenization: Tokenization
) -> Iterator[list[Chunk]]:
    for index, document in enumerate(documents):
        yield _chunk_one(_checked(document, index), index, tokenization, config)


def _pooled(
    documents: Iterable[DocumentInput],
    config: ChunkingConfig,
    tokenization: Tokenization,
    workers: int,
    mode: ParallelMode,
    window: int,
) -> Iterator[list[Chunk]]:
    pending: deque[Future[list[Chunk]]] = deque()
    inputs = enumerate(documents)
    with _executor(mode, workers, tokenization, config) as pool:

        def submit(document: object, index: int) -> Future[list[Chunk]]:
            checked = _checked(document, index)
            if mode == "process":
                return pool.submit(_chunk_in_worker, checked, index)
            return pool.submit(_chunk_one, checked, index, tokenization, config)

        try:
            # The first window starts largest first, so that a long document does not
            # start last and run alone; results still come back in input order.
            first = [
                (_checked(document, index), index) for index, document in islice(inputs, window)
            ]
            started = {
                index: submit(document, index)
                for document, index in sorted(first, key=lambda item: -_size(item[0]))
            }
            pending.extend(started[index] for _, index in first)
            del first, started
            for index, document in inputs:
                yield pending.popleft().result()
                pending.append(submit(document, index))
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()


def _size(document: DocumentInput) -> int:
    return sum(len(page.text) for page in document.pages)
