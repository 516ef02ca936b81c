"""Pages given directly (the specification's ``chunk_document``): structure found, then chunked.

The caller's pages are joined once; the sections are the caller's, or the ATX headings
found when ``detect_markdown_headings`` asks; the lists' and tables' leads are found in
the joined text; the engine then chunks what it is given.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from langchain_asesoria.engine import Pages, Tokenization, check_inputs, chunks, content_segments
from langchain_asesoria.errors import ConfigurationError
from langchain_asesoria.models import Chunk, ChunkingConfig, ChunkMetadata, LeadSpan, SectionSpan
from langchain_asesoria.pages import JoinedText, join_pages
from langchain_asesoria.structure.leads import detect_leads
from langchain_asesoria.structure.markdown import detect_markdown_sections


def chunk_document(
    pages: Pages,
    metadata: ChunkMetadata,
    *,
    config: ChunkingConfig,
    tokenization: Tokenization,
    sections: Iterable[SectionSpan] | None = None,
    leads: Iterable[LeadSpan] | None = None,
    detect_markdown_headings: bool = False,
) -> list[Chunk]:
    """Splits one document into chunks that fit the model exactly and cite their source.

    Pages are joined with ``config.page_separator`` (belonging to no page); offsets are
    positions in that joined text (``join_pages(pages, config.page_separator).text``).
    Sections come from ``sections`` (reliable spans from an earlier stage) or, with
    ``detect_markdown_headings``, from ATX headings (CommonMark; fenced code ignored;
    off by default: do not enable it on text extracted from PDF); chunks never cross
    them. With ``config.carry_leads`` (and the compact context), a chunk that starts
    inside a list or a table carries its lead-in or header row in its context:
    ``leads`` when given, else those ``structure.leads.detect_leads`` finds.

    The chunks keep the engine's guarantees, listed in
    ``langchain_asesoria.engine.chunks``: each chunk's text is the exact slice of
    the joined text at its offsets, its token count is exact and within the budget, and
    every non-whitespace character of the pages lies in some chunk.

    Raises:
        ConfigurationError: wrong argument types, or both sections and heading detection.
        ModelLimitError: ``config.max_tokens`` above the model's real input limit.
        InvalidPagesError: pages not of one document, not in order, not numbered from 1.
        InvalidSectionsError: sections out of order, overlapping or out of range.
        ContextTooLongError: a section's prefix and context alone fill the budget.
        IndivisibleCharacterError: one character that cannot fit even alone.
    """
    return list(
        iter_chunks(
            pages,
            metadata,
            config=config,
            tokenization=tokenization,
            sections=sections,
            leads=leads,
            detect_markdown_headings=detect_markdown_headings,
        )
    )


def iter_chunks(
    pages: Pages,
    metadata: ChunkMetadata,
    *,
    config: ChunkingConfig,
    tokenization: Tokenization,
    sections: Iterable[SectionSpan] | None = None,
    leads: Iterable[LeadSpan] | None = None,
    detect_markdown_headings: bool = False,
) -> Iterator[Chunk]:
    """``chunk_document``, built one chunk at a time: the same chunks, in order.

    The checks, the joined text, its structure, its token index and each section's fixed
    cost are done when it is called, so bad arguments and a context over budget raise
    there; chunks are then planned, counted and built as they are read.

    Raises:
        AsesoriaError: As ``chunk_document``; ``IndivisibleCharacterError`` while
            iterating.
    """
    doc_id = check_inputs(metadata, config, tokenization)
    if sections is not None and detect_markdown_headings:
        raise ConfigurationError(
            "pass sections or set detect_markdown_headings, not both.", doc_id=doc_id
        )
    if isinstance(pages, JoinedText):
        joined = pages
    else:
        joined = join_pages(pages, config.page_separator, doc_id)
    if detect_markdown_headings:
        sections = detect_markdown_sections(joined.text)
    elif sections is not None:
        sections = list(sections)
    if leads is None and config.carry_leads and config.section_context == "compact":
        breaks = [s.start for s in content_segments(joined.text, sections, doc_id)]
        leads = detect_leads(joined.text, breaks)
    return chunks(
        joined, metadata, config=config, tokenization=tokenization, sections=sections, leads=leads
    )
