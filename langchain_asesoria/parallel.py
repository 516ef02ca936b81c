"""Many documents read and chunked on all cores, in input order, the output of one core.

More: ``docs/design/package.md``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar

from langchain_asesoria._pool import Window, in_input_order, usable_cores, worker_pool
from langchain_asesoria.engine import Tokenization
from langchain_asesoria.errors import AsesoriaError, ConfigurationError, DocumentChunkingError
from langchain_asesoria.models import Chunk, ChunkingConfig, ChunkMetadata, LoadedPage, SectionSpan
from langchain_asesoria.reading import (
    DocumentKind,
    ReadOptions,
    iter_document_chunks,
    read_document,
    read_loaded_pages,
)
from langchain_asesoria.reading.given import chunk_document
from langchain_asesoria.records import file_doc_id
from langchain_asesoria.store_values import LeftOutTally

if TYPE_CHECKING:
    pass

#: ``"process"``: a process pool (all cores, for any tokenizer); ``"thread"``: a thread
#: pool sharing one tokenization (the Rust tokenizer releases the GIL while it counts,
#: the engine's Python does not); ``"serial"``: the calling thread, for debugging.
ParallelMode = Literal["process", "thread", "serial"]

#: One input's chunks and the metadata its reading found but no chunk keeps, each
#: ``(key, why)`` (a front matter's lists, mappings, nulls...: ``ReadReport.fields_left_out``).
_Done = tuple[list[Chunk], tuple[tuple[str, str], ...]]


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


@dataclass(frozen=True, slots=True)
class FileInput:
    """One file for ``read_and_chunk``, read in the worker as ``read_document`` reads it.

    Attributes:
        path: A ``.pdf``, ``.md``/``.markdown``, ``.txt``, ``.html``/``.htm`` file or a
            BOE law's ``.xml`` that the workers can read.
        metadata: The document's fields; default: ``doc_id`` the file's name
            (``records.file_doc_id``), as ``asesoria-split`` names a file given alone.
    """

    path: Path
    metadata: ChunkMetadata | None = None


@dataclass(frozen=True, slots=True)
class PagesInput:
    """A loader's pages for ``read_and_chunk``, read as ``read_loaded_pages`` reads them.

    Attributes:
        pages: The pages, numbered from 1 upward, in order.
        metadata: The document's fields.
        kind: What the pages are (``"pdf"`` for a LangChain PDF loader's pages: their
            furniture removed by text, their outline from the file their source names;
            ``"markdown"``, ``"text"``, ``"html"``, or ``"xml"``: a BOE law's XML).
    """

    pages: Sequence[LoadedPage]
    metadata: ChunkMetadata
    kind: DocumentKind = "pdf"


#: What ``read_and_chunk`` takes: a path (a ``str`` or ``Path``) or either input.
ReadInput = str | Path | FileInput | PagesInput


def default_workers() -> int:
    """The number of cores this process may use (its CPU affinity), at least 1."""
    return usable_cores()


# -- the documents' work, on the one pool (``_pool.worker_pool``) -----------------------


def single_threaded(tokenization: Tokenization) -> Tokenization:
    """A ``LoadedTokenization`` (what ``load_tokenization`` returns, of any family) that
    counts on the calling thread; any other tokenization as it is."""
    from langchain_asesoria.tokenization import LoadedTokenization

    if isinstance(tokenization, LoadedTokenization):
        return tokenization.single_threaded()
    return tokenization


@dataclass(frozen=True, slots=True)
class _Chunking:
    """What ``chunk_documents`` and ``read_and_chunk`` hand every worker."""

    tokenization: Tokenization
    config: ChunkingConfig
    reading: ReadOptions

    def single_threaded(self) -> _Chunking:
        return replace(self, tokenization=single_threaded(self.tokenization))


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


def _read_and_chunk_one(
    document: FileInput | PagesInput,
    index: int,
    tokenization: Tokenization,
    config: ChunkingConfig,
    reading: ReadOptions,
) -> _Done:
    if isinstance(document, FileInput):
        metadata = document.metadata or ChunkMetadata(doc_id=file_doc_id(str(document.path)))
    else:
        metadata = document.metadata
    try:
        if isinstance(document, FileInput):
            read = read_document(document.path, reading)
        else:
            read = read_loaded_pages(document.pages, document.kind, reading)
        chunks = list(
            iter_document_chunks(read, metadata, config=config, tokenization=tokenization)
        )
        return chunks, read.report.fields_left_out
    except AsesoriaError:
        raise
    except Exception as error:
        raise DocumentChunkingError(
            f"input {index} could not be read and chunked: {type(error).__name__}: {error}",
            source=str(document.path) if isinstance(document, FileInput) else None,
            doc_id=metadata.doc_id,
        ) from error


def _run_one(
    setup: _Chunking, document: DocumentInput | FileInput | PagesInput, index: int
) -> _Done:
    """One input's chunks and what they leave out: the work of ``chunk_documents`` and
    ``read_and_chunk``."""
    if isinstance(document, DocumentInput):
        return _chunk_one(document, index, setup.tokenization, setup.config), ()
    return _read_and_chunk_one(document, index, setup.tokenization, setup.config, setup.reading)


def _told(done: Generator[_Done, None, None]) -> Iterator[list[Chunk]]:
    """Each input's chunks; the metadata the run's chunks left out, counted over every
    input (whichever worker read it), logged once when the run ends or is stopped."""
    tally = LeftOutTally()
    try:
        for index, (chunks, left_out) in enumerate(done):
            tally.add(left_out, chunks[0].metadata.doc_id if chunks else f"input {index}")
            yield chunks
    finally:
        done.close()  # stops the pool at once when the caller stops early
        tally.tell("this run")


# -- the caller side ---------------------------------------------------------------------


_Input = TypeVar("_Input", DocumentInput, FileInput | PagesInput)


def _checked(document: object, index: int) -> DocumentInput:
    if not isinstance(document, DocumentInput):
        raise ConfigurationError(
            f"input {index} is {type(document).__name__}, not a DocumentInput(pages, "
            "metadata, sections=None).",
            expected="a DocumentInput",
        )
    return document


def _checked_read(document: object, index: int) -> FileInput | PagesInput:
    if isinstance(document, (str, Path)):
        return FileInput(Path(document))
    if not isinstance(document, (FileInput, PagesInput)):
        raise ConfigurationError(
            f"input {index} is {type(document).__name__}, not a path, a FileInput(path, "
            "metadata=None) or a PagesInput(pages, metadata, kind='pdf').",
            expected="a path, a FileInput or a PagesInput",
        )
    return document


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
    workers, window = _checked_options(mode, workers, prefetch)
    setup = _Chunking(tokenization, config, ReadOptions())
    if mode == "serial":
        return _told(_serial(documents, _checked, setup))
    return _told(_pooled(documents, _checked, setup, workers, mode, window))


def read_and_chunk(
    documents: Iterable[ReadInput],
    *,
    config: ChunkingConfig,
    tokenization: Tokenization,
    reading: ReadOptions | None = None,
    workers: int | None = None,
    mode: ParallelMode = "process",
    prefetch: int = 4,
) -> Iterator[list[Chunk]]:
    """Reads and chunks many documents on all cores; yields each one's chunks in input order.

    Each input is read in a worker through the reading stage (``read_document`` for a
    path: a PDF's text, outline and running headers and footers, a web page's markup,
    Markdown's headings; ``read_loaded_pages`` for a ``PagesInput``) and chunked there,
    so the caller only receives chunks. A file's chunks are those ``asesoria-split``
    writes for it (same ``reading`` options and fields). Streaming, ordering, the
    largest-first start (by file size) and the pool are those of ``chunk_documents``.
    A front matter's fields no vector store takes (``ReadOptions.front_matter_metadata``)
    are told once per run, when the iteration ends or is stopped: one warning on the
    ``langchain_asesoria`` logger naming each key, why and from how many documents.

    Args:
        documents: Paths (``str`` or ``Path``), ``FileInput`` or ``PagesInput``; any
            iterable (a generator is streamed).
        config: One configuration for every document.
        tokenization: One tokenization for every document (pickled once per worker in
            ``"process"`` mode).
        reading: How every document is read (default ``ReadOptions()``: everything on).
        workers: Worker processes or threads; default: the usable cores.
        mode: ``"process"`` (default), ``"thread"`` or ``"serial"``.
        prefetch: Documents in flight per worker.

    Raises:
        ConfigurationError: an input that is not a path, ``FileInput`` or ``PagesInput``;
            a bad ``mode``, ``workers`` or ``prefetch``.
        AsesoriaError: as ``read_document`` and the chunking, for the first failing
            document in input order (a ``DocumentReadError`` for a file that cannot be
            read; its message names the file).
        DocumentChunkingError: any other failure, naming the document.
    """
    workers, window = _checked_options(mode, workers, prefetch)
    setup = _Chunking(tokenization, config, reading or ReadOptions())
    if mode == "serial":
        return _told(_serial(documents, _checked_read, setup))
    return _told(_pooled(documents, _checked_read, setup, workers, mode, window))


def _checked_options(mode: str, workers: int | None, prefetch: int) -> tuple[int, int]:
    """``workers`` (default: the usable cores) and the window, once they are checked."""
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
    return workers, workers * prefetch


def _serial(
    documents: Iterable[object],
    check: Callable[[object, int], _Input],
    setup: _Chunking,
) -> Generator[_Done, None, None]:
    for index, document in enumerate(documents):
        yield _run_one(setup, check(document, index), index)


def _pooled(
    documents: Iterable[object],
    check: Callable[[object, int], _Input],
    setup: _Chunking,
    workers: int,
    mode: Literal["process", "thread"],
    window: int,
) -> Generator[_Done, None, None]:
    with worker_pool(_run_one, setup, workers, mode=mode) as submit:
        started = _largest_first(documents, check, submit, window)
        for future in in_input_order(started, Window(window)):
            yield future.result()


def _largest_first(
    documents: Iterable[object],
    check: Callable[[object, int], _Input],
    submit: Callable[[_Input, int], Future[_Done]],
    window: int,
) -> Iterator[Future[_Done]]:
    """Each document's future, in input order; the first ``window`` documents start
    largest first, so that a long document does not start last and run alone."""
    inputs = enumerate(documents)
    first = [(check(document, index), index) for index, document in islice(inputs, window)]
    started = {
        index: submit(document, index)
        for document, index in sorted(first, key=lambda item: -_size(item[0]))
    }
    ordered = deque(started[index] for _, index in first)
    del first, started
    while ordered:
        yield ordered.popleft()
    for index, document in inputs:
        yield submit(check(document, index), index)


def _size(document: DocumentInput | FileInput | PagesInput) -> int:
    """What the largest-first start sorts by: characters of pages, bytes of a file."""
    if isinstance(document, FileInput):
        try:
            return document.path.stat().st_size
        except OSError:
            return 0  # it fails in its worker, with the reading stage's error
    return sum(len(page.text) for page in document.pages)
