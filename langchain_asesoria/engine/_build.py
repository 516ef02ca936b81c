"""Sections built from a document's segments: contexts chosen, fixed costs counted.

Most sections of a law are short: an article that fits in one chunk never uses the
context of a later chunk (its first chunk has its own, the titles its text does not
show). With the compact context, a section whose whole content is estimated to fit
beside the largest context the share allows is built *brief*: only its opening context
is chosen and counted. If it does not pack into one chunk after all (an estimate off by
more than ``SLACK``), ``SectionBuilder.whole`` builds it again with every context, as it
would have been built at once, and the section is packed again from its start: the same
chunks either way, fewer exact counts of candidate contexts.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from langchain_asesoria.engine._context import (
    FixedCosts,
    context_allowance,
    count_fixed,
    lead_contexts,
    opening_contexts,
    shows_own_title,
)
from langchain_asesoria.engine._context import contexts as section_contexts
from langchain_asesoria.engine._estimate import TokenIndex
from langchain_asesoria.engine._protocols import Tokenization
from langchain_asesoria.engine._section import SLACK, Section
from langchain_asesoria.engine._segments import Segment
from langchain_asesoria.models import ChunkingConfig, LeadSpan

__all__ = ["SectionBuilder"]


@dataclass
class SectionBuilder:
    """Builds a document's sections; every exact count of a context is kept in
    ``fixed`` (sections share contexts)."""

    text: str
    config: ChunkingConfig
    tokenization: Tokenization
    doc_id: str
    leads: Sequence[LeadSpan] = ()
    index: TokenIndex = field(init=False)
    fixed: FixedCosts = field(init=False, default_factory=dict)
    separators: tuple[re.Pattern[str], ...] = field(init=False)
    #: The document's characters per token (which candidates are worth counting).
    _per_token: float = field(init=False)
    #: The most a compact context may cost (``context_allowance``).
    _allowed: int = field(init=False)

    def __post_init__(self) -> None:
        self.index = self.tokenization.token_index(self.text)
        self.separators = tuple(re.compile(pattern) for pattern in self.config.separators)
        self._per_token = len(self.text) / max(1, self.index.tokens)
        self._allowed = context_allowance(self.config, self.tokenization, self.fixed)

    def all(self, segments: Sequence[Segment]) -> list[Section]:
        """Each segment as a ``Section``, brief where that is safe (see the module).

        Raises:
            ContextTooLongError: a section whose fixed cost fills the budget.
        """
        brief = self._brief(segments)
        whole = [segment for segment, short in zip(segments, brief, strict=True) if not short]
        built = iter(self._whole(whole))
        openings = opening_contexts(
            self.text,
            [segment for segment, short in zip(segments, brief, strict=True) if short],
            self.config,
            self.tokenization,
            (),
            self.fixed,
            self._per_token,
        )
        count_fixed(self.tokenization, self.fixed, openings)
        briefs = iter(openings)
        return [
            self._brief_section(segment, next(briefs)) if short else next(built)
            for segment, short in zip(segments, brief, strict=True)
        ]

    def whole(self, segment: Segment) -> Section:
        """The section with every context (a brief section's, once it needs them)."""
        (section,) = self._whole([segment])
        return section

    def _brief(self, segments: Sequence[Segment]) -> list[bool]:
        """Which segments need only their opening context: the compact context, a title
        the text shows (so the opening context is its own), and content estimated to
        fit, with ``SLACK`` to spare, beside the largest context the share allows."""
        if self.config.section_context != "compact":
            return [False] * len(segments)
        room = self.config.max_tokens - self._allowed - SLACK
        count = self.index.count
        return [
            shows_own_title(self.text, segment) and count(segment.start, segment.end) <= room
            for segment in segments
        ]

    def _brief_section(self, segment: Segment, opening: str) -> Section:
        """A section whose later chunks' contexts wait: their cost counts as the largest
        the share allows, so that it is cut where the whole section would be (no unit of
        it is too large either way)."""
        return self._build(segment, "", self._allowed, opening, [], brief=True)

    def _whole(self, segments: Sequence[Segment]) -> list[Section]:
        config, tokenization, fixed = self.config, self.tokenization, self.fixed
        contexts = section_contexts(segments, config, tokenization, fixed, self._per_token)
        openings = opening_contexts(
            self.text, segments, config, tokenization, contexts, fixed, self._per_token
        )
        count_fixed(tokenization, fixed, [*contexts, *openings])
        inside = _segment_leads(segments, self.leads)
        requests = [
            (segment, context, lead)
            for segment, context, held in zip(segments, contexts, inside, strict=True)
            for lead in held
        ]
        chosen = iter(
            lead_contexts(requests, config, tokenization, fixed, self._per_token)
            if requests
            else ()
        )
        with_leads = [[(lead.start, lead.end, next(chosen)) for lead in held] for held in inside]
        return [
            self._build(segment, context, fixed[context], opening, held)
            for segment, context, opening, held in zip(
                segments, contexts, openings, with_leads, strict=True
            )
        ]

    def _build(
        self,
        segment: Segment,
        context: str,
        cost: int,
        opening: str,
        held: list[tuple[int, int, str]],
        *,
        brief: bool = False,
    ) -> Section:
        return Section.build(
            self.text,
            (segment.start, segment.end),
            context=context,
            fixed=cost,
            opening=(opening, self.fixed[opening]),
            budget=self.config.max_tokens,
            overlap_target=self.config.overlap_tokens,
            index=self.index,
            separators=self.separators,
            doc_id=self.doc_id,
            title_end=segment.title_end,
            leads=[(a, b, lead, self.fixed[lead]) for a, b, lead in held],
            brief=brief,
        )


def _segment_leads(segments: Sequence[Segment], leads: Sequence[LeadSpan]) -> list[list[LeadSpan]]:
    """For each segment, the leads that start inside it, after its first character."""
    starts = [lead.start for lead in leads]
    return [
        list(leads[bisect_right(starts, segment.start) : bisect_right(starts, segment.end - 1)])
        for segment in segments
    ]
