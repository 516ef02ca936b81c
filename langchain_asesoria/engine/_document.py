"""``chunk_document``: pages and metadata in, exact chunks with provenance out.

pages -> joined text -> sections -> plans -> counts -> chunks: the pages are joined
(``_pages``), cut into sections (``_build``), each section's chunks are planned from
estimates (``_plan``), every plan is counted exactly (``_pack.measure``, one batched,
look-ahead call) and confirmed or corrected (``_pack``, ``_search``), and each packed
chunk gets its own metadata here.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Container, Iterable, Iterator, Sequence
from itertools import groupby

from langchain_asesoria.engine._build import (
    Sectioning,
    build_sections,
    sectioning,
    whole_section,
)
from langchain_asesoria.engine._pack import PackedChunk, measure, pack_section
from langchain_asesoria.engine._plan import InnerCuts, Plan, plan_run
from langchain_asesoria.engine._protocols import Tokenization
from langchain_asesoria.engine._search import Measured
from langchain_asesoria.engine._section import Section
from langchain_asesoria.engine._segments import Segment, segments_for
from langchain_asesoria.errors import (
    ConfigurationError,
    IndivisibleCharacterError,
    ModelLimitError,
)
from langchain_asesoria.models import (
    Chunk,
    ChunkingConfig,
    ChunkMetadata,
    LeadSpan,
    LoadedPage,
    SectionSpan,
)
from langchain_asesoria.pages import JoinedText, join_pages

#: What the engine chunks: pages, or pages already joined by ``config.page_separator``.
Pages = Iterable[LoadedPage] | JoinedText


def check_budget(
    config: ChunkingConfig, tokenization: Tokenization, doc_id: str | None = None
) -> None:
    """Fails early on arguments of the wrong type or a budget above the model's limit.

    Raises:
        ConfigurationError: ``config`` or ``tokenization`` of the wrong type.
        ModelLimitError: ``config.max_tokens`` above ``tokenization.max_input_tokens``.
    """
    if not isinstance(config, ChunkingConfig):
        raise ConfigurationError(
            f"config must be a ChunkingConfig, got {type(config).__name__}.",
            expected="a ChunkingConfig",
        )
    if not isinstance(tokenization, Tokenization):
        raise ConfigurationError(
            f"tokenization must implement the Tokenization protocol, got "
            f"{type(tokenization).__name__}; use load_tokenization() or a fake from "
            "langchain_asesoria.testing.",
            expected="a Tokenization",
        )
    limit = tokenization.max_input_tokens
    if config.max_tokens > limit:
        raise ModelLimitError(
            f"max_tokens={config.max_tokens} exceeds the real input limit {limit} of "
            f"{tokenization.name!r}; the model would truncate. Use max_tokens <= {limit}.",
            doc_id=doc_id,
            expected=f"max_tokens <= {limit}",
        )


def check_inputs(
    metadata: ChunkMetadata, config: ChunkingConfig, tokenization: Tokenization
) -> str:
    """``check_budget``, after checking ``metadata``'s type; returns its ``doc_id``.

    Raises:
        ConfigurationError: an argument of the wrong type.
        ModelLimitError: ``config.max_tokens`` above ``tokenization.max_input_tokens``.
    """
    if not isinstance(metadata, ChunkMetadata):
        raise ConfigurationError(
            f"metadata must be a ChunkMetadata, got {type(metadata).__name__}.",
            expected="a ChunkMetadata",
        )
    check_budget(config, tokenization, metadata.doc_id)
    return metadata.doc_id


def chunks(
    pages: Pages,
    metadata: ChunkMetadata,
    *,
    config: ChunkingConfig,
    tokenization: Tokenization,
    sections: Iterable[SectionSpan] | None = None,
    leads: Iterable[LeadSpan] | None = None,
) -> Iterator[Chunk]:
    """The chunks of one document, built one at a time, that fit the model exactly and
    cite their source: the engine's one entry (``langchain_asesoria.chunk_document`` and the
    reading stage find the structure and call it).

    Pages are joined with ``config.page_separator`` (belonging to no page), unless they
    come joined already (a ``JoinedText``); offsets are positions in that joined text.
    The engine finds no structure: ``sections`` (reliable spans from an earlier stage)
    are followed and never crossed, and with ``config.carry_leads`` (and the compact
    context) a chunk that starts inside one of ``leads`` carries its lead-in or header
    row in its context. ``langchain_asesoria.chunk_document`` finds both for pages given
    directly; the reading stage finds them for everything it reads.

    Guarantees, for every returned chunk ``c`` and ``joined`` text:
        ``joined[c.start:c.end] == c.text``, with no outer whitespace;
        ``c.token_count == tokenization.count(c.embedding_text) <= config.max_tokens``;
        ``0 <= c.overlap_tokens <= config.overlap_tokens``, shared only within a section;
        every non-whitespace character of the pages lies in some chunk;
        ``c.metadata`` is its own copy of ``metadata`` with ``page``/``page_end`` of the
        chunk's body, its global 0-based ``chunk_index`` and its section.

    Raises:
        ConfigurationError: wrong argument types.
        ModelLimitError: ``config.max_tokens`` above the model's real input limit.
        InvalidPagesError: pages not of one document, not in order, not numbered from 1.
        InvalidSectionsError: sections out of order, overlapping or out of range.
        ContextTooLongError: a section's prefix and context alone fill the budget.
        IndivisibleCharacterError: one character that cannot fit even alone (while
            iterating).

    The checks, the joined text, its sections, its token index and each section's fixed
    cost are done when it is called, so bad arguments and a context over budget raise
    there; chunks are then planned, counted and built as they are read, and a
    document's chunks (or their prepared texts) are never all held at once.
    """
    doc_id = check_inputs(metadata, config, tokenization)
    if isinstance(pages, JoinedText):
        joined = pages
    else:
        joined = join_pages(pages, config.page_separator, doc_id)
    segments = content_segments(joined.text, sections, doc_id)
    found = _leads(config, leads)
    built = sectioning(joined.text, config, tokenization, doc_id, found)
    return _chunks(joined, segments, build_sections(built, segments), metadata, built)


def content_segments(
    text: str, sections: Iterable[SectionSpan] | None, doc_id: str = "document"
) -> list[Segment]:
    """The stretches of ``text`` chunked on their own: the sections and the gaps between
    them, leaving out those with no content (their starts are where a list or a table
    may not run across: the reading stage's ``breaks`` for leads).

    Raises:
        InvalidSectionsError: sections out of order, overlapping or out of range.
    """
    spans = list(sections) if sections is not None else []
    # A section with no content has nothing to chunk, whatever its context would cost.
    return [
        s for s in segments_for(spans, len(text), doc_id) if not text[s.start : s.end].isspace()
    ]


def _leads(config: ChunkingConfig, leads: Iterable[LeadSpan] | None) -> list[LeadSpan]:
    """The lists and tables whose chunks carry a lead: none unless the context is
    compact and ``config.carry_leads``."""
    if leads is None or not config.carry_leads or config.section_context != "compact":
        return []
    return sorted(leads, key=lambda s: s.start)


def _first_plans(
    sections: Sequence[Section], done: Container[int]
) -> Iterator[tuple[Section, Plan]]:
    """Every section's plans from its start, from estimates alone, in document order;
    a section's stop once it is ``done`` (its packing has moved on)."""
    for number, section in enumerate(sections):
        for plan in plan_run(section, None, InnerCuts(), None):
            if number in done:
                break
            yield section, plan


def _by_section(
    sections: Sequence[Section], measured: Iterable[Measured], done: set[int]
) -> Iterator[tuple[Section, Iterator[Measured]]]:
    """Each section with its own measured first plans (none for a section whose first
    chunk no estimate could place). When the packing asks for the next section, the
    section is added to ``done``, so that no more of its first plans are made and
    counted (a correction re-plans the rest of it: without this, every plan left after
    it would still be counted), and those already counted ahead are skipped."""
    starts = [section.start for section in sections]
    groups = groupby(measured, key=lambda item: bisect_right(starts, item.plan.start) - 1)
    empty: Iterator[Measured] = iter(())
    number, group = next(groups, (-1, empty))
    for index, section in enumerate(sections):
        if number != index:
            yield section, empty
            continue
        yield section, group
        done.add(index)
        number, group = next(groups, (-1, empty))


def _packed(
    built: Sectioning, segment: Segment, section: Section, planned: Iterator[Measured]
) -> Iterable[PackedChunk]:
    """The section's packed chunks. A brief one's are held until it is done, and kept
    only if they are one chunk (later chunks had placeholder contexts); else, or if it
    could not be packed so, it is built whole and packed again (``engine._build``)."""
    tokenization = built.tokenization
    if not section.brief:
        return pack_section(section, planned, tokenization)
    try:
        packed = list(pack_section(section, planned, tokenization))
    except IndivisibleCharacterError:
        packed = []  # the placeholder cost left too little room: the whole section decides
    if len(packed) == 1:
        return packed
    whole = whole_section(built, segment)
    plans = plan_run(whole, None, InnerCuts(), None)
    return pack_section(whole, measure(((whole, p) for p in plans), tokenization), tokenization)


def _chunks(
    joined: JoinedText,
    segments: Sequence[Segment],
    sections: Sequence[Section],
    metadata: ChunkMetadata,
    built: Sectioning,
) -> Iterator[Chunk]:
    done: set[int] = set()  # sections whose first plans are no longer read
    measured = measure(_first_plans(sections, done), built.tokenization)
    by_section = _by_section(sections, measured, done)
    chunk_index = 0
    for segment, (section, planned) in zip(segments, by_section, strict=True):
        for packed in _packed(built, segment, section, planned):
            yield Chunk(
                text=packed.text,
                embedding_text=packed.embedding_text,
                start=packed.start,
                end=packed.end,
                token_count=packed.token_count,
                overlap_tokens=packed.overlap_tokens,
                metadata=metadata.for_chunk(
                    page=joined.page_at(packed.start),
                    page_end=joined.page_at(packed.end - 1),
                    chunk_index=chunk_index,
                    section_label=segment.label,
                    section_path=segment.path,
                    section_fields=segment.fields,
                ),
            )
            chunk_index += 1
