"""``Section``: one stretch of the joined text to chunk, with what sizing its chunks needs.

A chunk ``[a, b)`` of a section is estimated as the section's fixed cost (model prefix,
section context and special tokens, counted exactly once) plus the content tokens the
document's ``TokenIndex`` places in ``[a, b)``. Estimates only propose ends; every
chunk is confirmed by an exact count of its whole prepared text.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from langchain_asesoria.engine._cuts import SectionCuts, lstrip_at, rstrip_at
from langchain_asesoria.engine._estimate import TokenIndex
from langchain_asesoria.engine._headings import (
    CLOSERS,
    SENTENCE_MARKS,
    heading_block,
    heading_lines,
    headings_only,
    marked_heading,
    title_line,
)
from langchain_asesoria.errors import ContextTooLongError

#: How far (in tokens) past the budget an estimate may be and still deserve an exact
#: try: offsets-based estimates are off by a token or two at the edges.
SLACK = 2

#: The share of a chunk's room for content given up to end at a paragraph or line
#: rather than inside one (``Section.preferred_end``).
COARSER_WITHIN = 0.125
#: The share given up so that a lead-in (a line ending in a colon) starts the next
#: chunk with its list instead of ending this one.
LEAD_IN_WITHIN = 0.5
#: The most of a chunk's room for content that bare titles alone may take and still
#: start the chunk of their text, cut inside it (``Section.ends_past_headings``): more is
#: no title but a paragraph without its full stop. Headings that say what they are (a
#: Markdown heading, a labelled line, a label and its name) may take the whole room.
HEADINGS_WITHIN = 2 / 3
#: Separator levels up to this one (paragraphs, lines) end a unit a reader sees whole.
_LINE_LEVEL = 1
#: Separator levels up to this one (paragraphs, lines, sentences) end a sentence: a
#: chunk whose furthest end lies inside a sentence ends at the furthest sentence end
#: it holds instead, whatever it gives up (``Section.preferred_end``).
SENTENCE_LEVEL = 2
#: Added to the level of an end right after a colon: any other end is preferred.
_LEAD_IN_PENALTY = 10


@dataclass(frozen=True, slots=True)
class Section:
    """A section's content and the measures of its chunks.

    Attributes:
        text: The document's joined text.
        start: The section's first non-whitespace character.
        end: After its last non-whitespace character (``start < end``).
        context: The section context given to ``prepare``.
        opening_context: The context of the chunk that starts at ``start`` (the
            section's first): without the titles that its own text opens with.
        fixed: Exact tokens of ``prepare("", context)``: prefix, context, specials.
        opening_fixed: Exact tokens of ``prepare("", opening_context)``.
        budget: ``max_tokens``, of the whole prepared input.
        overlap_target: Content tokens to re-use from the previous chunk, at most.
        index: Where the document's content tokens start.
        cuts: Where the section's separators cut, searched where needed.
        ends: Ascending unit ends: the recursive split's cuts, trimmed, then ``end``.
        starts: Ascending unit starts after the first: the same cuts, trimmed forward.
        levels: For each of ``starts``, the separator level cutting there (0 is the
            coarsest): overlap prefers to start at the coarsest.
        doc_id: For error messages.
        lead_starts: Ascending starts of the stretches whose chunks carry a lead (a
            list's lead-in, a table's header) in their context, flattened: each runs to
            the next start, and ``lead_contexts``/``lead_fixed`` say what its chunks
            get (``None``: the section's own context, outside every list and table).
        brief: Only the first chunk's context is known (``engine._build``): the
            others' are placeholders (no context, costing the most the share allows),
            so that its packing is kept only if it gives one chunk.
    """

    text: str
    start: int
    end: int
    context: str
    fixed: int
    opening_context: str
    opening_fixed: int
    budget: int
    overlap_target: int
    index: TokenIndex
    cuts: SectionCuts
    ends: Sequence[int]
    starts: Sequence[int]
    levels: Sequence[int]
    doc_id: str
    lead_starts: Sequence[int] = ()
    lead_contexts: Sequence[str | None] = ()
    lead_fixed: Sequence[int] = ()
    brief: bool = False

    @classmethod
    def build(
        cls,
        text: str,
        span: tuple[int, int],
        *,
        context: str,
        fixed: int,
        budget: int,
        opening: tuple[str, int] | None = None,
        overlap_target: int,
        index: TokenIndex,
        separators: Sequence[re.Pattern[str]],
        doc_id: str,
        title_end: int | None = None,
        leads: Sequence[tuple[int, int, str, int]] = (),
        brief: bool = False,
    ) -> Section:
        """The section ``text[span[0]:span[1]]``, which holds some non-whitespace; no
        chunk ends right after its title when ``title_end`` says where that is. Its
        first chunk gets ``opening`` (context, fixed cost) when given, else the same
        context as the others. A chunk starting inside one of ``leads`` (start, end,
        context, fixed cost; nested or disjoint, the innermost applies) gets its context.

        Raises:
            ContextTooLongError: the fixed cost alone fills the budget.
        """
        opening_context, opening_fixed = (context, fixed) if opening is None else opening
        worst_fixed, worst = max(
            (fixed, context),
            (opening_fixed, opening_context),
            *((cost, lead) for *_, lead, cost in leads),
        )
        if worst_fixed >= budget:
            raise ContextTooLongError(
                f"section at {span[0]}: the model prefix, special tokens and section "
                f"context {worst!r} alone take {worst_fixed} tokens of the {budget}-token "
                "budget, leaving none for content. Raise max_tokens, shorten the section "
                "title, or use section_context='label' or 'none'.",
                doc_id=doc_id,
                position=span[0],
                expected=f"a context below {budget} tokens",
            )
        start = lstrip_at(text, span[0], span[1])
        end = rstrip_at(text, start, span[1])

        most = max(fixed, opening_fixed, *(cost for *_, cost in leads))
        lead_starts, lead_contexts, lead_fixed = _flattened(leads, start, end)

        def oversized(unit_start: int, unit_end: int) -> bool:
            return most + index.count(unit_start, unit_end) > budget

        title_too_large = title_end is not None and oversized(start, max(start, title_end))
        cuts = SectionCuts.find(
            text, span[0], span[1], separators, glued=title_end, title_too_large=title_too_large
        )

        active = cuts.active_cuts(oversized)
        ends = [*(rstrip_at(text, start, cut) for cut in active.cuts), end]
        starts = [lstrip_at(text, cut, end) for cut in active.cuts]
        return cls(
            text,
            start,
            end,
            context,
            fixed,
            opening_context,
            opening_fixed,
            budget,
            overlap_target,
            index,
            cuts,
            ends,
            starts,
            active.levels,
            doc_id,
            lead_starts,
            lead_contexts,
            lead_fixed,
            brief,
        )

    def context_at(self, start: int) -> str:
        """The context of the chunk starting at ``start``."""
        if start == self.start:
            return self.opening_context
        at = bisect_right(self.lead_starts, start) - 1
        lead = self.lead_contexts[at] if at >= 0 else None
        return self.context if lead is None else lead

    def fixed_at(self, start: int) -> int:
        """The fixed cost of the chunk starting at ``start``."""
        if start == self.start:
            return self.opening_fixed
        at = bisect_right(self.lead_starts, start) - 1
        return self.fixed if at < 0 or self.lead_contexts[at] is None else self.lead_fixed[at]

    def estimate(self, start: int, end: int) -> int:
        """Fixed cost plus the content tokens the index places in ``[start, end)``."""
        return self.fixed_at(start) + self.index.count(start, end)

    def reach(self, start: int) -> int:
        """Ends up to this position are estimated within the budget from ``start``."""
        reach = self.index.reach(start, self.budget - self.fixed_at(start))
        return len(self.text) + 1 if reach is None else reach

    def estimated_end(self, start: int, after: int) -> int | None:
        """The unit end beyond ``after`` to plan from ``start``: the furthest estimated
        to fit, or a coarser one a little before it (``preferred_end``); past it, inside
        the next unit, when it would leave headings alone (``ends_past_headings``)."""
        ends = self.ends
        low = bisect_right(ends, after)
        index = bisect_right(ends, self.reach(start), low) - 1
        if index < low:
            return None
        end = ends[self.preferred_end(start, low, index)]
        inner = self.ends_past_headings(start, end)
        found = self.furthest(inner, lambda e: self.estimate(start, e) <= self.budget)
        return end if found is None else found

    def ends_past_headings(self, start: int, end: int) -> list[list[int]]:
        """When the chunk ``[start, end)`` would hold headings alone (a quoted
        "Artículo 222. Contratos…", an ANEXO and its name) whose text, the paragraph
        after ``end``, does not fit with them: ends inside that paragraph, by separator
        level from sentences to spaces (each ascending), so that the headings start the
        chunk of their text instead of making one alone; none otherwise."""
        at = bisect_left(self.ends, end)
        if at >= len(self.starts) or self.ends[at] != end or self.levels[at] != 0:
            return []  # not a paragraph's end
        following, text = self.starts[at], self.text
        # the paragraph after them, to its end (the recursive split may cut it already)
        after = next((j for j in range(at + 1, len(self.levels)) if self.levels[j] == 0), None)
        paragraph_end = self.end if after is None else self.ends[after]
        if not self._headings_alone(start, end) or heading_block(text[following:paragraph_end]):
            return []
        return [
            sorted({rstrip_at(text, following, cut) for cut in cuts} - {following})
            for cuts in (
                self.cuts.level_cuts(level, following, paragraph_end)
                for level in range(SENTENCE_LEVEL, len(self.cuts.separators))
            )
        ]

    def _headings_alone(self, start: int, end: int) -> bool:
        """Whether ``[start, end)``, from a paragraph's start, is heading lines alone
        (``heading_block``): within ``HEADINGS_WITHIN`` of the room unless each says
        it is one (``marked_heading``)."""
        if not (start == self.start or self.text[max(0, start - 2) : start].isspace()):
            return False
        piece = self.text[start:end]
        if not heading_block(piece):
            return False
        room = self.budget - self.fixed_at(start)
        return self.index.count(start, end) <= room * HEADINGS_WITHIN or marked_heading(piece)

    @staticmethod
    def furthest(levels: Sequence[Sequence[int]], fits: Callable[[int], bool]) -> int | None:
        """Of ``levels`` (ascending ends per level, coarsest first), the furthest end
        that ``fits`` of the coarsest level that has one; ``None`` when none fits."""
        for ends in levels:
            low, high, best = 0, len(ends) - 1, None
            while low <= high:
                middle = (low + high) // 2
                if fits(ends[middle]):
                    best, low = ends[middle], middle + 1
                else:
                    high = middle - 1
            if best is not None:
                return best
        return None

    def _closes_sentence(self, at: int, rank: Callable[[int], int]) -> bool:
        """Whether ``ends[at]`` ends a sentence as its text shows it: a sentence or
        coarser cut (no lead-in) after a full stop, ``!``, ``?`` or ``…`` (closing quotes
        and brackets after them), so that no line end after a bare title counts."""
        if rank(at) > SENTENCE_LEVEL:
            return False
        position = self.ends[at]
        while position > self.start and self.text[position - 1] in CLOSERS:
            position -= 1
        return position > self.start and self.text[position - 1] in SENTENCE_MARKS

    def ends_sentence(self, end: int) -> bool:
        """Whether the chunk end ``end`` ends a sentence or a coarser unit (the
        section's end does): by its level when it is one of ``ends``; by its text when
        it lies inside a unit (``ends_past_headings`` cuts a paragraph at a sentence, a
        clause or a word): a sentence's mark before it, closing quotes aside."""
        if end >= self.end:
            return True
        at = bisect_left(self.ends, end)
        if at < len(self.levels) and self.ends[at] == end:
            return self.levels[at] <= SENTENCE_LEVEL
        return self.text[self.start : end].rstrip(CLOSERS)[-1:] in SENTENCE_MARKS

    def preferred_end(self, start: int, low: int, index: int) -> int:
        """Of ``ends[low:index + 1]``, the index of the end to plan: ``index`` (the
        furthest that fits) unless it ends inside a paragraph or line, or right after a
        lead-in (a colon), and a coarser end lies within reach before it. An end inside
        a sentence gives way to the furthest sentence end (or coarser, no lead-in) of
        the chunk, however far back, unless that end would leave a heading line alone
        (``_stranded``): a chunk starts inside a sentence only when that sentence alone
        exceeds the room. Otherwise reach is ``COARSER_WITHIN`` of the
        room for content (a paragraph end rather than the next paragraph's first
        sentences), ``LEAD_IN_WITHIN`` to keep a lead-in with its list; the coarsest
        within reach wins, the furthest of that level."""
        ends, text = self.ends, self.text
        if index == len(ends) - 1:
            return index  # the section's end

        def rank(at: int) -> int:
            lead_in = text[ends[at] - 1] == ":"
            return self.levels[at] + (_LEAD_IN_PENALTY if lead_in else 0)

        worst = rank(index)
        if self._title_after(index):
            return self._before_title(start, low, index, rank)
        if worst <= _LINE_LEVEL:
            return index
        sentence = self._sentence_end(start, low, index, rank) if worst > SENTENCE_LEVEL else None
        if sentence is not None:
            return sentence
        room = self.budget - self.fixed_at(start)
        within = room * (LEAD_IN_WITHIN if worst >= _LEAD_IN_PENALTY else COARSER_WITHIN)
        best, best_rank = index, worst
        at = index - 1
        while at >= low and self.index.count(ends[at], ends[index]) <= within:
            if (found := rank(at)) < best_rank and not self._stranded(start, low, at, index):
                best, best_rank = at, found
            at -= 1
        return best

    def _title_after(self, index: int) -> bool:
        """Whether the rest of the section after ``ends[index]`` is a title line alone
        (looked at only when it is estimated to fit one chunk: short)."""
        rest = self.starts[index]
        return (
            self.levels[index] == 0  # a paragraph's end
            and self.estimate(rest, self.end) <= self.budget
            and title_line(self.text[rest : self.end])
        )

    def _before_title(self, start: int, low: int, index: int, rank: Callable[[int], int]) -> int:
        """The index of the furthest sentence end before ``ends[index]`` from which the
        rest of the section (text, then the title line that ends it: "…aprueba la
        siguiente" then "INSTRUCCIÓN RELATIVA A…") is estimated to fit one chunk, so that
        the title does not make a chunk alone; ``index`` when there is none."""
        for at in range(index - 1, low - 1, -1):
            rest = self.starts[at]
            if self.estimate(rest, self.end) > self.budget:
                break
            if self._closes_sentence(at, rank) and not headings_only(
                self.text[start : self.ends[at]]
            ):
                return at
        return index

    def _sentence_end(
        self, start: int, low: int, index: int, rank: Callable[[int], int]
    ) -> int | None:
        """The index of the chunk's furthest sentence end before ``ends[index]``, when
        ending there leaves the chunk a word and no heading line alone (``_stranded``);
        else ``None``."""
        at = next(
            (a for a in range(index - 1, low - 1, -1) if self._closes_sentence(a, rank)), None
        )
        if at is None or self._stranded(start, low, at, index):
            return None
        if not any(char.isalnum() for char in self.text[start : self.ends[at]]):
            return None  # a sentence's closing mark alone ("."): no chunk of its own
        return at

    def _stranded(self, start: int, low: int, at: int, index: int) -> bool:
        """Whether ending at ``ends[at]`` instead of ``ends[index]`` (after a lead-in, or
        inside a sentence) would leave the chunk one line (its first paragraph), or bare
        title lines and one line, smaller than what it gives away: headings the reading
        left inside the section ("Artículo 39. …" quoted in a disposición; "### CAPÍTULO
        II. …" then "Artículo 24. Metodología…." quoted in an amending article) alone,
        their text and list in the next chunk."""
        ends, text = self.ends, self.text
        return (
            all(level == 0 for level in self.levels[low : at + 1])  # paragraphs only
            and heading_lines(text[start : ends[at]])
            and (start == self.start or text[max(0, start - 2) : start].isspace())
            and self.index.count(start, ends[at]) < self.index.count(ends[at], ends[index])
        )


def _clipped(
    leads: Sequence[tuple[int, int, str, int]], start: int, end: int
) -> list[tuple[int, int, str, int]]:
    """The lead stretches overlapping ``[start, end)``, clipped to it, by start and
    the longest first (so an enclosing stretch comes before those it holds)."""
    return sorted(
        (
            (max(a, start), min(b, end), context, cost)
            for a, b, context, cost in leads
            if min(b, end) > max(a, start)
        ),
        key=lambda lead: (lead[0], -lead[1]),
    )


def _flattened(
    leads: Sequence[tuple[int, int, str, int]], start: int, end: int
) -> tuple[list[int], list[str | None], list[int]]:
    """Nested or disjoint lead stretches (clipped to ``[start, end)``) as ascending
    starts, each running to the next, with the innermost lead's context and cost there
    (``None`` and 0 where none applies)."""
    clipped = _clipped(leads, start, end)
    points = sorted({p for a, b, *_ in clipped for p in (a, b)})
    starts: list[int] = []
    contexts: list[str | None] = []
    costs: list[int] = []
    held: list[tuple[int, int, int, str, int]] = []  # heap: the latest-starting on top
    following = 0
    for point in points:
        # the innermost stretch holding ``point``: the latest-starting that contains it
        while following < len(clipped) and clipped[following][0] <= point:
            a, b, text, fixed_cost = clipped[following]
            heapq.heappush(held, (-a, -following, b, text, fixed_cost))
            following += 1
        while held and held[0][2] <= point:
            heapq.heappop(held)  # ended: no stretch after it starts earlier and holds more
        context, cost = (held[0][3], held[0][4]) if held else (None, 0)
        if contexts and contexts[-1] == context:
            continue
        starts.append(point)
        contexts.append(context)
        costs.append(cost)
    return starts, contexts, costs
