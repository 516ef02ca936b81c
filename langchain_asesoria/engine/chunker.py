"""``chunk_document``: pages and metadata in, exact chunks with provenance out."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from langchain_asesoria.engine.boundaries import SectionCuts
from langchain_asesoria.engine.packer import Packer
from langchain_asesoria.engine.pages import JoinedText, join_pages
from langchain_asesoria.engine.sections import Segment, detect_markdown_sections, segments_for
from langchain_asesoria.errors import ConfigurationError, ModelLimitError
from langchain_asesoria.models import (
    Chunk,
    ChunkingConfig,
    ChunkMetadata,
    LoadedPage,
    SectionContext,
    SectionSpan,
)
from langchain_asesoria.tokenization.base import Tokenization

__all__ = ["check_budget", "chunk_document", "iter_chunks"]

#: Planned chunks whose prepared texts are built and counted together.
_COUNT_AHEAD = 128

#: Batches of prepared texts waiting for the helper at most: planning may run ahead of
#: counting, but a document's prepared texts are never all queued at once.
_PENDING = 2

#: A batch holding a prepared text longer than this (a unit without any cut that fits
#: the budget whole: for WordPiece a 200 KB word is one token) is counted on the
#: calling thread. The tokenizer needs 40-60 bytes a character to encode it; on the
#: helper thread that memory came on top of what the document had already used
#: (measured with glibc: 12 MB over the baseline for the 200 KB word, 8 MB here).
_COUNT_HERE = 1 << 16


def _context(segment: Segment, mode: SectionContext) -> str:
    """The text ``prepare`` puts before a section's content ("" for a gap)."""
    if mode == "none":
        return ""
    innermost = segment.path[-1] if segment.path else ""
    if mode == "label":
        return segment.label or innermost
    return " > ".join(segment.path) or segment.label or ""


def check_budget(
    config: ChunkingConfig, tokenization: Tokenization, doc_id: str | None = None
) -> None:
    """Fails early on arguments of the wrong type or a budget above the model's limit.

    Raises:
        ConfigurationError: ``config`` or ``tokenization`` of the wrong type.
        ModelLimitError: ``config.max_tokens`` above ``tokenization.max_input_tokens``.
    """
    if not isinstance(config, ChunkingConfig):
        raise ConfigurationError(f"config must be a ChunkingConfig, got {type(config).__name__}.")
    if not isinstance(tokenization, Tokenization):
        raise ConfigurationError(
            f"tokenization must implement the Tokenization protocol, got "
            f"{type(tokenization).__name__}; use load_tokenization() or a fake from "
            "langchain_asesoria.testing."
        )
    limit = tokenization.max_input_tokens
    if config.max_tokens > limit:
        where = f"document {doc_id!r}: " if doc_id is not None else ""
        raise ModelLimitError(
            f"{where}max_tokens={config.max_tokens} exceeds the real input limit {limit} of "
            f"{tokenization.name!r}; the model would truncate. Use max_tokens <= {limit}."
        )


def _confirm_plans_together(packers: Sequence[Packer], tokenization: Tokenization) -> None:
    """Plans every section from estimates and counts all plans in batched calls.

    Each ``_COUNT_AHEAD`` planned chunks are counted by a helper thread while planning
    goes on (the tokenizer releases the GIL): planning and counting overlap. Planning
    waits when ``_PENDING`` batches wait to be counted, so that a document's prepared
    texts are never all held at once.
    """
    text, prepare = packers[0].text if packers else "", tokenization.prepare
    plans: list[list[tuple[int, int, int]]] = []
    counted: list[tuple[Future[list[int]], Future[list[int]]]] = []
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="counts") as helper:

        def count(batch: list[tuple[str, int, int, int]]) -> None:
            prepared = [prepare(text[start:end], context) for context, start, end, _ in batch]
            shared = [text[start:after] for _, start, _, after in batch if start < after]
            if max(map(len, prepared)) > _COUNT_HERE:
                chunk_counts = _done(tokenization.count_batch(prepared))
                counted.append((chunk_counts, _done(tokenization.count_content_batch(shared))))
                return
            counted.append(
                (
                    helper.submit(tokenization.count_batch, prepared),
                    helper.submit(tokenization.count_content_batch, shared),
                )
            )
            if len(counted) > _PENDING:  # one worker: earlier batches are done first
                counted[-_PENDING - 1][1].result()

        batch: list[tuple[str, int, int, int]] = []
        for packer in packers:
            plans.append(plan := [])
            for start, end, after in packer.plan():
                plan.append((start, end, after))
                batch.append((packer.context, start, end, after))
                if len(batch) == _COUNT_AHEAD:
                    count(batch)
                    batch = []
        if batch:
            count(batch)
        counts = iter([n for future, _ in counted for n in future.result()])
        shared_counts = iter([n for _, future in counted for n in future.result()])
    for packer, plan in zip(packers, plans, strict=True):
        plan_counts = [next(counts) for _ in plan]
        plan_shared = [next(shared_counts) for start, _, after in plan if start < after]
        packer.seed_counts(plan, plan_counts, plan_shared)


def _done(counts: list[int]) -> Future[list[int]]:
    future: Future[list[int]] = Future()
    future.set_result(counts)
    return future


def chunk_document(
    pages: Iterable[LoadedPage],
    metadata: ChunkMetadata,
    *,
    config: ChunkingConfig,
    tokenization: Tokenization,
    sections: Iterable[SectionSpan] | None = None,
) -> list[Chunk]:
    """Splits one document into chunks that fit the model exactly and cite their source.

    Pages are joined with ``config.page_separator`` (belonging to no page); offsets are
    positions in that joined text (``join_pages(pages, config.page_separator).text``).
    Sections come from ``sections`` (reliable spans from an earlier stage) or, with
    ``config.detect_markdown_headings``, from ATX headings; chunks never cross them.

    Guarantees, for every returned chunk ``c`` and ``joined`` text:
        ``joined[c.start:c.end] == c.text``, with no outer whitespace;
        ``c.token_count == tokenization.count(c.embedding_text) <= config.max_tokens``;
        ``0 <= c.overlap_tokens <= config.overlap_tokens``, shared only within a section;
        every non-whitespace character of the pages lies in some chunk;
        ``c.metadata`` is its own copy of ``metadata`` with ``page``/``page_end`` of the
        chunk's body, its global 0-based ``chunk_index`` and its section.

    Raises:
        ConfigurationError: wrong argument types, or both sections and heading detection.
        ModelLimitError: ``config.max_tokens`` above the model's real input limit.
        InvalidPagesError: pages not of one document, not in order, not numbered from 1.
        InvalidSectionsError: sections out of order, overlapping or out of range.
        ContextTooLongError: a section's prefix and context alone fill the budget.
        IndivisibleCharacterError: one character that cannot fit even alone.
    """
    return list(
        iter_chunks(pages, metadata, config=config, tokenization=tokenization, sections=sections)
    )


def iter_chunks(
    pages: Iterable[LoadedPage],
    metadata: ChunkMetadata,
    *,
    config: ChunkingConfig,
    tokenization: Tokenization,
    sections: Iterable[SectionSpan] | None = None,
) -> Iterator[Chunk]:
    """``chunk_document``, built one chunk at a time: the same chunks, in order.

    Everything before the first chunk (checks, index, plans and their exact counts) is
    done when it is called, so bad arguments raise there; chunks are then built as
    they are read, and a document's chunks are never all held at once.

    Raises:
        As ``chunk_document``; ``IndivisibleCharacterError`` while iterating.
    """
    if not isinstance(metadata, ChunkMetadata):
        raise ConfigurationError(
            f"metadata must be a ChunkMetadata, got {type(metadata).__name__}."
        )
    doc_id = metadata.doc_id
    check_budget(config, tokenization, doc_id)
    joined = join_pages(pages, config.page_separator, doc_id)
    text = joined.text
    if sections is not None and config.detect_markdown_headings:
        raise ConfigurationError(
            f"document {doc_id!r}: pass sections or set detect_markdown_headings, not both."
        )
    if config.detect_markdown_headings:
        spans = detect_markdown_sections(text)
    else:
        spans = list(sections) if sections is not None else []
    # A section with no content has nothing to chunk, whatever its context would cost.
    segments = [
        s for s in segments_for(spans, len(text), doc_id) if not text[s.start : s.end].isspace()
    ]
    separators = tuple(re.compile(pattern) for pattern in config.separators)
    index = tokenization.token_index(text)
    contexts = [_context(segment, config.section_context) for segment in segments]
    fixed_costs = tokenization.count_batch([tokenization.prepare("", c) for c in contexts])
    packers = [
        Packer(
            text=text,
            context=context,
            tokenization=tokenization,
            max_tokens=config.max_tokens,
            overlap_target=config.overlap_tokens,
            index=index,
            cuts=SectionCuts.find(text, segment.start, segment.end, separators),
            doc_id=doc_id,
            fixed=fixed,
        )
        for segment, context, fixed in zip(segments, contexts, fixed_costs, strict=True)
    ]
    _confirm_plans_together(packers, tokenization)
    return _chunks(joined, segments, packers, metadata)


def _chunks(
    joined: JoinedText,
    segments: Sequence[Segment],
    packers: Sequence[Packer],
    metadata: ChunkMetadata,
) -> Iterator[Chunk]:
    chunk_index = 0
    for segment, packer in zip(segments, packers, strict=True):
        for packed in packer.pack():
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
                ),
            )
            chunk_index += 1
