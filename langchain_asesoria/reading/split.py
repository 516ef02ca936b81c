"""Chunking a document as read: its structure in the configuration's join, then the engine.

The one place where a document's structure meets the chunking configuration: its text is
joined once by ``config.page_separator``, its sections and leads (anchored in pages)
become spans of that text, and the engine chunks them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from langchain_asesoria.engine import Tokenization, check_inputs, chunks
from langchain_asesoria.models import Chunk, ChunkingConfig, ChunkMetadata, SectionSpan
from langchain_asesoria.pages import JoinedText, join_pages
from langchain_asesoria.reading.document import DocumentPages
from langchain_asesoria.reading.steps import find_leads
from langchain_asesoria.structure.anchors import leads_in


@dataclass(frozen=True, slots=True)
class ChunkedDocument:
    """A document, the text its chunks' offsets refer to, its sections and its chunks.

    Invariant: ``joined.text[c.start:c.end] == c.text`` for every chunk ``c``, and
    ``sections`` are spans of ``joined.text``.
    """

    document: DocumentPages
    joined: JoinedText
    sections: tuple[SectionSpan, ...]
    chunks: tuple[Chunk, ...]


def _chunks(
    document: DocumentPages,
    joined: JoinedText,
    metadata: ChunkMetadata,
    config: ChunkingConfig,
    tokenization: Tokenization,
) -> Iterator[Chunk]:
    leads = document.leads if document.leads is not None else find_leads(document)
    fields = document.report.document_fields
    return chunks(
        joined,
        replace(metadata, extra=(*metadata.extra, *fields)) if fields else metadata,
        config=config,
        tokenization=tokenization,
        sections=document.sections_in(joined),
        leads=leads_in(joined, leads),
    )


def iter_document_chunks(
    document: DocumentPages,
    metadata: ChunkMetadata,
    *,
    config: ChunkingConfig,
    tokenization: Tokenization,
) -> Iterator[Chunk]:
    """The chunks of ``document`` built one at a time (``engine.chunks``).

    Raises:
        AsesoriaError: As ``chunk_document``.
    """
    doc_id = check_inputs(metadata, config, tokenization)
    joined = join_pages(document.pages, config.page_separator, doc_id)
    return _chunks(document, joined, metadata, config, tokenization)


def split_document(
    document: DocumentPages,
    metadata: ChunkMetadata,
    *,
    config: ChunkingConfig,
    tokenization: Tokenization,
) -> ChunkedDocument:
    """Chunks ``document`` and returns the chunks with their joined text and sections.

    Raises:
        AsesoriaError: As ``chunk_document``.
    """
    doc_id = check_inputs(metadata, config, tokenization)
    joined = join_pages(document.pages, config.page_separator, doc_id)
    built = tuple(_chunks(document, joined, metadata, config, tokenization))
    return ChunkedDocument(document, joined, tuple(document.sections_in(joined) or ()), built)
