"""The main job: read each document, chunk it, spool its records, report per file.

A file that fails is reported and skipped (its error on stderr, its row in the
summary); with ``strict`` the first failure stops the run instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from langchain_asesoria.cli.errors import (
    failure_label,
)
from langchain_asesoria.cli.fields import FieldResolver
from langchain_asesoria.cli.output import JsonlSpool
from langchain_asesoria.cli.parents import ParentOptions, file_parents
from langchain_asesoria.cli.progress import Progress
from langchain_asesoria.cli.summary import FileReport
from langchain_asesoria.errors import (
    AsesoriaError,
    FieldsError,
    StrictModeError,
)
from langchain_asesoria.models import Chunk, ChunkingConfig
from langchain_asesoria.parents import parent_records
from langchain_asesoria.reading import (
    DocumentPages,
    ReadOptions,
    iter_document_chunks,
    page_count,
    read_document,
)
from langchain_asesoria.records import chunk_records
from langchain_asesoria.tokenization import Tokenization


@dataclass(frozen=True, slots=True)
class SplitJob:
    """Everything a run needs, resolved from the command line.

    Attributes:
        paths: The documents, in order.
        config: The chunking config.
        tokenization: The model's tokenization.
        fields: Document fields per file.
        strict: Stop at the first failed file.
        reading: How documents are read (Markdown headings, PDF outline sections,
            furniture removal).
        parents: How each chunk's parent is built (``--parents``); ``None``: no parents.
    """

    paths: tuple[Path, ...]
    config: ChunkingConfig
    tokenization: Tokenization
    fields: FieldResolver
    strict: bool = False
    reading: ReadOptions = field(default_factory=ReadOptions)
    parents: ParentOptions | None = None


def describe(path: Path, error: AsesoriaError) -> str:
    """The error's message, naming the file unless the error names its document."""
    return str(error.with_context(source=str(path)))


def count_pages(paths: Sequence[Path]) -> int:
    """Pages the run will read (a PDF is opened, not extracted); unreadable files count 0."""
    total = 0
    for path in paths:
        try:
            total += page_count(path)
        except AsesoriaError:
            continue
    return total


def claim_doc_id(path: Path, doc_id: str, doc_ids: dict[str, Path]) -> None:
    """Records ``doc_id`` in ``doc_ids`` as ``path``'s, once ``path`` is split.

    Files claim their ids in input order and only once read and chunked, so the first
    file written with an id keeps it, and a file that fails for its own reason (a
    damaged PDF) leaves its id free and is reported for that reason.

    Raises:
        FieldsError: an earlier file already has ``doc_id`` (given in its fields: the
            default ids of one run are distinct).
    """
    owner = doc_ids.setdefault(doc_id, path)
    if owner != path:
        raise FieldsError(
            f"doc_id {doc_id!r} is already used by {owner}; give one of "
            f"them its own doc_id (in {path.name}.meta.json or a --manifest line).",
            source=str(path),
        )


def split_file(
    path: Path, job: SplitJob, progress: Progress, doc_ids: dict[str, Path]
) -> tuple[DocumentPages, list[Chunk]]:
    """One document as read (pages, sections, furniture removed) and its chunks.

    Raises:
        AsesoriaError: the file's fields are bad, it cannot be read, it cannot be
            chunked, or its ``doc_id`` is taken (checked in that order).
    """
    metadata = job.fields.metadata_for(path)
    document = read_document(path, job.reading, on_page=lambda _: progress.page_read())
    chunks = list(
        iter_document_chunks(document, metadata, config=job.config, tokenization=job.tokenization)
    )
    claim_doc_id(path, metadata.doc_id, doc_ids)
    return document, chunks


def run_split(
    job: SplitJob, spool: JsonlSpool, progress: Progress, parent_spool: JsonlSpool | None = None
) -> list[FileReport]:
    """Splits every file of the job into ``spool`` (its parents into ``parent_spool``,
    when ``job.parents``); one report per file, in order.

    Raises:
        StrictModeError: with ``job.strict``, at the first file that fails.
    """
    reports: list[FileReport] = []
    doc_ids: dict[str, Path] = {}
    for path in job.paths:
        name = str(path)
        progress.start_file(path.name)
        try:
            document, chunks = split_file(path, job, progress, doc_ids)
            parents = (
                file_parents(document, chunks, job.config, job.parents) if job.parents else None
            )
        except AsesoriaError as error:
            if job.strict:
                raise StrictModeError(
                    f"{describe(path, error)}\n--strict: stopped at the first failed file; "
                    "nothing written."
                ) from error
            progress.message(f"error: {describe(path, error)}")
            reports.append(FileReport(name, failure=failure_label(error)))
            continue
        spool.write(chunk_records(chunks, None if parents is None else parents.chunk_parents, name))
        if parents is not None and parent_spool is not None:
            parent_spool.write(parent_records(parents, name))
        progress.chunks_made(len(chunks))
        reports.append(FileReport.of_document(name, document, chunks))
    return reports
