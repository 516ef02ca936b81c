"""Sections built from a document's segments: contexts chosen, fixed costs counted.

Most sections of a law are short: an article that fits in one chunk never uses the
context of a later chunk (its first chunk has its own, the titles its text does not
show). With the compact context, a section whose whole content is estimated to fit
beside the largest context the share allows is built *brief*: only its opening context
is chosen and counted. If it does not pack into one chunk after all (an estimate off by
more than ``SLACK``), ``whole_section`` builds it again with every context, as it
would have been built at once, and the section is packed again from its start: the same
chunks either way, fewer exact counts of candidate contexts.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from langchain_asesoria.engine._context import (
    Estimate,
    FixedCosts,
    context_allowance,
    count_fixed,
    lead_contexts,
    opening_contexts,
    shows_own_title,
)
from langchain_asesoria.engine._context import contexts as section_contexts
from langchain_asesoria.engine._estimate import TokenIndex
from langchain_asesoria.engine._protocols import Tokenization, WordEstimator
from langchain_asesoria.engine._section import SLACK, Section
from langchain_asesoria.engine._segments import Segment
from langchain_asesoria.models import ChunkingConfig, LeadSpan


@dataclass(frozen=True, slots=True)
class Sectioning:
    """What building a document's sections needs, fixed for the call: the text and its
    token index, the configuration, the leads, and ``fixed``, the exact count of every
    context counted so far (sections share contexts; filled during the call only);
    ``estimate`` when the tokenization is also a ``WordEstimator``."""

    text: str
    config: ChunkingConfig
    tokenization: Tokenization
    doc_id: str
    leads: Sequence[LeadSpan]
    index: TokenIndex
    separators: tuple[re.Pattern[str], ...]
    fixed: FixedCosts
    #: The document's characters per token (which candidates are worth counting).
    per_token: float
    #: The most a compact context may cost (``context_allowance``).
    allowed: int
    #: Which candidate contexts cannot fit, uncounted (``_context._reachable``).
    estimate: Estimate | None


def sectioning(
    text: str,
    config: ChunkingConfig,
    tokenization: Tokenization,
    doc_id: str,
    leads: Sequence[LeadSpan] = (),
) -> Sectioning:
    """The document's ``Sectioning``: its token index built, the allowance counted."""
    index = tokenization.token_index(text)
    fixed: FixedCosts = {}
    return Sectioning(
        text,
        config,
        tokenization,
        doc_id,
        leads,
        index,
        tuple(re.compile(pattern) for pattern in config.separators),
        fixed,
        len(text) / max(1, index.tokens),
        context_allowance(config, tokenization, fixed),
        tokenization.estimate_content if isinstance(tokenization, WordEstimator) else None,
    )


def build_sections(built: Sectioning, segments: Sequence[Segment]) -> list[Section]:
    """Each segment as a ``Section``, brief where that is safe (see the module).

    Raises:
        ContextTooLongError: a section whose fixed cost fills the budget.
    """
    brief = _brief(built, segments)
    whole = iter(_whole(built, [s for s, short in zip(segments, brief, strict=True) if not short]))
    openings = opening_contexts(
        built.text,
        [segment for segment, short in zip(segments, brief, strict=True) if short],
        built.config,
        built.tokenization,
        (),
        built.fixed,
        built.per_token,
        built.estimate,
    )
    count_fixed(built.tokenization, built.fixed, openings)
    briefs = iter(openings)
    return [
        _brief_section(built, segment, next(briefs)) if short else next(whole)
        for segment, short in zip(segments, brief, strict=True)
    ]


def whole_section(built: Sectioning, segment: Segment) -> Section:
    """The section with every context (a brief section's, once it needs them)."""
    (section,) = _whole(built, [segment])
    return section


def _brief(built: Sectioning, segments: Sequence[Segment]) -> list[bool]:
    """Which segments need only their opening context: the compact context, a title
    the text shows (so the opening context is its own), and content estimated to
    fit, with ``SLACK`` to spare, beside the largest context the share allows."""
    if built.config.section_context != "compact":
        return [False] * len(segments)
    room = built.config.max_tokens - built.allowed - SLACK
    count = built.index.count
    return [
        count(segment.start, segment.end) <= room and shows_own_title(built.text, segment)
        for segment in segments
    ]


def _brief_section(built: Sectioning, segment: Segment, opening: str) -> Section:
    """A section whose later chunks' contexts wait: their cost counts as the largest
    the share allows, so that it is cut where the whole section would be (no unit of
    it is too large either way)."""
    return _build(built, segment, "", built.allowed, opening, [], brief=True)


def _whole(built: Sectioning, segments: Sequence[Segment]) -> list[Section]:
    config, tokenization, fixed = built.config, built.tokenization, built.fixed
    per_token, estimate = built.per_token, built.estimate
    contexts = section_contexts(segments, config, tokenization, fixed, per_token, estimate)
    openings = opening_contexts(
        built.text, segments, config, tokenization, contexts, fixed, per_token, estimate
    )
    count_fixed(tokenization, fixed, [*contexts, *openings])
    inside = _segment_leads(segments, built.leads)
    requests = [
        (segment, context, lead)
        for segment, context, held in zip(segments, contexts, inside, strict=True)
        for lead in held
    ]
    chosen = iter(
        lead_contexts(requests, config, tokenization, fixed, per_token, estimate)
        if requests
        else ()
    )
    with_leads = [[(lead.start, lead.end, next(chosen)) for lead in held] for held in inside]
    return [
        _build(built, segment, context, fixed[context], opening, held)
        for segment, context, opening, held in zip(
            segments, contexts, openings, with_leads, strict=True
        )
    ]


def _build(
    built: Sectioning,
    segment: Segment,
    context: str,
    cost: int,
    opening: str,
    held: list[tuple[int, int, str]],
    *,
    brief: bool = False,
) -> Section:
    return Section.build(
        built.text,
        (segment.start, segment.end),
        context=context,
        fixed=cost,
        opening=(opening, built.fixed[opening]),
        budget=built.config.max_tokens,
        overlap_target=built.config.overlap_tokens,
        index=built.index,
        separators=built.separators,
        doc_id=built.doc_id,
        title_end=segment.title_end,
        leads=[(a, b, lead, built.fixed[lead]) for a, b, lead in held],
        brief=brief,
    )


def _segment_leads(segments: Sequence[Segment], leads: Sequence[LeadSpan]) -> list[list[LeadSpan]]:
    """For each segment, the leads that start inside it, after its first character."""
    starts = [lead.start for lead in leads]
    return [
        list(leads[bisect_right(starts, segment.start) : bisect_right(starts, segment.end - 1)])
        for segment in segments
    ]
