"""Chunking a document as read: its sections in the configuration's join, then the engine.

The one place where a document's structure meets the chunking configuration: the
document's sections (anchored in pages) become spans of the text joined by
``config.page_separator``, and the engine chunks those; no adapter re-decides whether a
document has headings. ``split_document`` also returns what the inspector shows (the
joined text and the sections), so nothing is joined or detected twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from langchain_asesoria.engine import JoinedText, Tokenization, iter_chunks
from langchain_asesoria.models import Chunk, ChunkingConfig, ChunkMetadata, SectionSpan
from langchain_asesoria.reading.document import DocumentPages

__all__ = ["ChunkedDocument", "iter_document_chunks", "split_document"]


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


def _engine_input(
    document: DocumentPages, config: ChunkingConfig
) -> tuple[ChunkingConfig, list[SectionSpan] | None]:
    """The configuration and sections the engine gets: the document's own structure."""
    plain = replace(config, detect_markdown_headings=False)
    return plain, document.sections(config.page_separator)


def iter_document_chunks(
    document: DocumentPages,
    metadata: ChunkMetadata,
    *,
    config: ChunkingConfig,
    tokenization: Tokenization,
) -> Iterator[Chunk]:
    """The chunks of ``document`` built one at a time (``engine.iter_chunks``).

    ``config.detect_markdown_headings`` does not apply here: the document's structure
    is what reading gave it (``ReadOptions.markdown_headings`` switches headings off).

    Raises:
        AsesoriaError: As ``chunk_document``.
    """
    plain, sections = _engine_input(document, config)
    return iter_chunks(
        document.pages, metadata, config=plain, tokenization=tokenization, sections=sections
    )


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
    chunks = iter_document_chunks(document, metadata, config=config, tokenization=tokenization)
    built = tuple(chunks)  # its checks first: a bad document raises before anything else
    joined = document.joined(config.page_separator)
    sections = document.sections(config.page_separator)
    return ChunkedDocument(document, joined, tuple(sections or ()), built)
