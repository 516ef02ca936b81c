"""Chunking a document as read: its text, sections and leads, then the engine.

The one place where a document meets the chunking configuration: the document's own text
and spans when ``config.page_separator`` is the reading's (the default), else the pages
joined by it once and the spans carried over (``DocumentPages.in_join``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from langchain_asesoria.engine import Tokenization, check_inputs, chunks
from langchain_asesoria.models import Chunk, ChunkingConfig, ChunkMetadata, SectionSpan
from langchain_asesoria.pages import JoinedText
from langchain_asesoria.reading.document import DocumentPages, DocumentText


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
    text: DocumentText,
    metadata: ChunkMetadata,
    config: ChunkingConfig,
    tokenization: Tokenization,
) -> Iterator[Chunk]:
    fields = document.report.document_fields
    return chunks(
        text.joined,
        replace(metadata, extra=(*metadata.extra, *fields)) if fields else metadata,
        config=config,
        tokenization=tokenization,
        sections=text.sections,
        leads=text.leads,
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
    text = document.in_join(config.page_separator, doc_id)
    return _chunks(document, text, metadata, config, tokenization)


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
    text = document.in_join(config.page_separator, doc_id)
    built = tuple(_chunks(document, text, metadata, config, tokenization))
    return ChunkedDocument(document, text.joined, text.sections or (), built)
