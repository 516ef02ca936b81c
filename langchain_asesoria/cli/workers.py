"""The main job on every core: files read and split in worker processes (``--jobs N``).

More: ``docs/design/cli.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from pathlib import Path

from langchain_asesoria._pool import CtrlCLatch, Window, in_input_order, worker_pool
from langchain_asesoria.cli.errors import failure_label
from langchain_asesoria.cli.job import SplitJob, claim_doc_id, describe
from langchain_asesoria.cli.output import JsonlSpool, jsonl_lines
from langchain_asesoria.cli.parents import ParentOptions, file_parents
from langchain_asesoria.cli.progress import Progress
from langchain_asesoria.cli.summary import FileReport
from langchain_asesoria.engine import Tokenization
from langchain_asesoria.errors import AsesoriaError, DocumentChunkingError, StrictModeError
from langchain_asesoria.models import ChunkingConfig, ChunkMetadata, LoadedPage
from langchain_asesoria.parallel import single_threaded
from langchain_asesoria.parents import parent_records
from langchain_asesoria.reading import ReadOptions, iter_document_chunks, read_document
from langchain_asesoria.records import chunk_records

#: The least a file weighs in the window, however small: a bound on the files in flight.
FILE_WEIGHT_FLOOR = 64 * 1024


def window_of(workers: int) -> Window:
    """What may be in flight with ``workers`` (``_pool.Window``): two files and 2 MiB
    a worker. On the Spanish laws (8,684 files, up to 2.3 MB each; replayed with a time
    per byte, ``benchmarks/jobs_window.py``) as fast as no bound at all, where four files
    a worker took 4.8% longer, and a few megabytes of results waiting."""
    return Window(2 * workers, 2 * 1024 * 1024 * workers)


def _weight(path: Path) -> int:
    try:
        size = path.stat().st_size
    except OSError:  # reported when the file is read
        size = 0
    return max(size, FILE_WEIGHT_FLOOR)


@dataclass(frozen=True, slots=True)
class WorkerSetup:
    """What every worker needs, read once (pickled, from a private file) when it starts."""

    config: ChunkingConfig
    tokenization: Tokenization
    reading: ReadOptions
    parents: ParentOptions | None = None

    def single_threaded(self) -> WorkerSetup:
        """The setup whose tokenizers (the chunks' and the parents') count on the
        worker's own thread (``_pool.PoolSetup``)."""
        parents = self.parents
        if parents is not None:
            parents = replace(parents, tokenizer=single_threaded(parents.tokenizer))
        return replace(self, tokenization=single_threaded(self.tokenization), parents=parents)


@dataclass(frozen=True, slots=True)
class FileResult:
    """One file as a worker split it, ready to be written in input order.

    Attributes:
        report: Its summary row (``failure`` set when it failed).
        pages: Pages read (of a file that failed: those read before it failed).
        lines: Its chunks as JSON Lines (``output.jsonl_lines``); empty when it failed.
        records: How many chunks ``lines`` holds.
        parent_lines: Its parents as JSON Lines (with ``--parents``), else empty.
        parent_records: How many parents ``parent_lines`` holds.
        error: The message of ``--jobs 1`` for a failed file (``job.describe``).
        doc_id: The ``doc_id`` of a file split, claimed when its result is taken in
            input order (``job.claim_doc_id``).
    """

    report: FileReport
    pages: int = 0
    lines: bytes = b""
    records: int = 0
    parent_lines: bytes = b""
    parent_records: int = 0
    error: str | None = None
    doc_id: str | None = None


def _failed(path: Path, error: AsesoriaError, pages: int = 0) -> FileResult:
    report = FileReport(str(path), failure=failure_label(error))
    return FileResult(report, pages, error=describe(path, error))


# -- the worker side -------------------------------------------------------------------


def split_to_result(setup: WorkerSetup, path: Path, metadata: ChunkMetadata) -> FileResult:
    """Reads and splits one file (and builds its parents) as ``job.run_split`` does; a
    failure is a result too."""
    pages = 0

    def page_read(_: LoadedPage) -> None:
        nonlocal pages
        pages += 1

    name = str(path)
    try:
        document = read_document(path, setup.reading, on_page=page_read)
        chunks = list(
            iter_document_chunks(
                document, metadata, config=setup.config, tokenization=setup.tokenization
            )
        )
        parents = (
            file_parents(document, chunks, setup.config, setup.parents) if setup.parents else None
        )
    except AsesoriaError as error:
        return _failed(path, error, pages)
    owners = None if parents is None else parents.chunk_parents
    lines = jsonl_lines(chunk_records(chunks, owners, name))
    report = FileReport.of_document(name, document, chunks)
    if parents is None:
        return FileResult(report, pages, lines, len(chunks), doc_id=metadata.doc_id)
    parent_lines = jsonl_lines(parent_records(parents, name))
    count = len(parents.parents)
    return FileResult(
        report, pages, lines, len(chunks), parent_lines, count, doc_id=metadata.doc_id
    )


# -- the caller side ---------------------------------------------------------------------


def _ready(result: FileResult) -> Future[FileResult]:
    future: Future[FileResult] = Future()
    future.set_result(result)
    return future


#: Starts one file's split in the pool: ``split_to_result`` in a worker.
Submit = Callable[[Path, ChunkMetadata], "Future[FileResult]"]


class _Submitter:
    """Submits the job's files in input order, each file's fields decided here first."""

    def __init__(self, job: SplitJob, submit: Submit) -> None:
        self._job = job
        self._submit = submit
        self._paths = iter(job.paths)
        self._doc_ids: dict[str, Path] = {}
        self.failed = False  # some file has failed (with --strict: start no other)

    def _note(self, future: Future[FileResult]) -> None:
        if not future.cancelled() and future.exception() is None and future.result().error:
            self.failed = True

    def next(self) -> tuple[Path, Future[FileResult]] | None:
        """The next file and its (future) result; ``None`` when none is left to start."""
        if self._job.strict and self.failed:
            return None
        path = next(self._paths, None)
        if path is None:
            return None
        try:
            metadata = self._job.fields.metadata_for(path)
        except AsesoriaError as error:
            self.failed = True
            return path, _ready(_failed(path, error))
        future = self._submit(path, metadata)
        future.add_done_callback(self._note)
        return path, future

    def claimed(self, path: Path, result: FileResult) -> FileResult:
        """``result``, or a failure when the ``doc_id`` of the file it split is taken."""
        if result.error is not None or result.doc_id is None:
            return result
        try:
            claim_doc_id(path, result.doc_id, self._doc_ids)
        except AsesoriaError as error:
            self.failed = True
            return _failed(path, error, result.pages)
        return result


def ordered_results(
    job: SplitJob,
    submit: Submit,
    window: Window,
    wait: Callable[[Future[FileResult]], FileResult] = Future.result,
) -> Iterator[tuple[Path, FileResult]]:
    """Each file of ``job`` and its result, in input order, however the results complete.

    Files are in flight (submitted and not yet yielded) within ``window``; once it is
    full, a file is submitted only when an earlier one has been yielded, so a
    generator's caller that stops reading stops the submissions. With ``job.strict``,
    no file is submitted once one has failed.

    ``wait`` takes a file's result (the caller's passes Ctrl-C on).

    Raises:
        DocumentChunkingError: the worker of a file died (killed, out of memory).
    """
    submitter = _Submitter(job, submit)
    started = iter(submitter.next, None)
    for path, future in in_input_order(started, window, lambda item: _weight(item[0])):
        try:
            result = wait(future)
        except BrokenProcessPool as error:
            raise DocumentChunkingError(
                "a worker process ended abruptly (out of memory, killed, or it could not "
                "start) while splitting this file or one in flight with it; nothing "
                "written. Run again with --jobs 1 to see the error.",
                source=str(path),
            ) from error
        yield path, submitter.claimed(path, result)


def run_split_in_workers(
    job: SplitJob,
    spool: JsonlSpool,
    progress: Progress,
    workers: int,
    parent_spool: JsonlSpool | None = None,
) -> list[FileReport]:
    """``job.run_split`` on ``workers`` processes: the same records (parents too, into
    ``parent_spool`` with ``job.parents``), messages and reports.

    Raises:
        StrictModeError: with ``job.strict``, at the first file that fails (in input
            order); every worker is stopped first.
        KeyboardInterrupt: Ctrl-C, once every worker is stopped.
        DocumentChunkingError: a worker process died (killed, out of memory).
    """
    setup = WorkerSetup(job.config, job.tokenization, job.reading, job.parents)
    with (
        CtrlCLatch().installed() as ctrl_c,
        worker_pool(split_to_result, setup, workers, start_method="spawn") as submit,
    ):
        return _write_in_order(job, (spool, parent_spool), progress, submit, workers, ctrl_c)


def _write_in_order(
    job: SplitJob,
    spools: tuple[JsonlSpool, JsonlSpool | None],
    progress: Progress,
    submit: Submit,
    workers: int,
    ctrl_c: CtrlCLatch,
) -> list[FileReport]:
    """The files' records (chunks, parents), messages and reports, in input order, as
    they come back."""
    spool, parent_spool = spools
    reports: list[FileReport] = []
    for path, result in ordered_results(job, submit, window_of(workers), ctrl_c.wait):
        progress.start_file(path.name)
        progress.pages_read(result.pages)
        if result.error is not None:
            if job.strict:
                raise StrictModeError(
                    f"{result.error}\n--strict: stopped at the first failed file; nothing written."
                )
            progress.message(f"error: {result.error}")
        else:
            spool.write_lines(result.lines, result.records)
            if parent_spool is not None:
                parent_spool.write_lines(result.parent_lines, result.parent_records)
            progress.chunks_made(result.records)
        reports.append(result.report)
    return reports
