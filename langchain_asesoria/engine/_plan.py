"""Planning: a section's chunks proposed from estimates alone, before any exact count.

A plan is a chunk ``[start, end)`` and the end of the chunk before it (``after``):
``[start, after)`` is the overlap re-used from that chunk. Plans are made greedily: from
the previous chunk, the largest overlap of whole trailing units that the estimate keeps
within the target, then the furthest unit end estimated to fit. Each plan is only a
proposal; ``_pack`` confirms it with exact counts or corrects it.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from langchain_asesoria.engine._cuts import is_safe_cut, lstrip_at, rstrip_at
from langchain_asesoria.engine._section import SLACK, Section

#: A word's first character: after whitespace.
_WORD_START = re.compile(r"(?<=\s)\S")

#: Fitting probes before cuts inside a blob are planned in runs without slack.
_TRUSTED = 4

#: The finest separator level an overlap may start at: with ``DEFAULT_SEPARATORS``, a
#: sentence (paragraphs 0, lines 1, sentences 2, clauses 3 and 4, spaces 5). Measured on the
#: corpus questions (BM25, 256/32), overlap that starts at a clause or a word retrieves
#: no better than none (hit@1 1 vs 1 questions, hit@10 0 vs 2) and starts a chunk
#: mid-sentence, so where no sentence start is within the target there is no overlap.
OVERLAP_FINEST_LEVEL = 2
#: The finest level an overlap may start at when the chunk starts inside a sentence
#: anyway (the previous chunk ended inside one, longer than the room) and no sentence
#: starts within the target: a clause (``;``/``:`` 3, ``,`` 4), so the reader gets the
#: sentence's last clause before the cut rather than nothing. When not even that clause
#: fits the target, the overlap starts at a word (``_word_start``): the sentence's last
#: words before the cut, as many as fit.
MID_SENTENCE_FINEST_LEVEL = 4


class Span(NamedTuple):
    """A chunk's ``[start, end)`` in the joined text."""

    start: int
    end: int


class Plan(NamedTuple):
    """A proposed chunk ``[start, end)``; the previous chunk ends at ``after``.

    ``start < after`` when the chunk re-uses ``[start, after)`` as overlap. ``inner``
    marks an end cut inside a unit without any separator (a blob), by token starts.
    (A named tuple: an immutable value made once per chunk, cheaply.)
    """

    start: int
    end: int
    after: int
    inner: bool = False

    @property
    def span(self) -> Span:
        return Span(self.start, self.end)


@dataclass(frozen=True, slots=True)
class InnerCuts:
    """What exact counts have taught about ends cut inside a blob, by token starts.

    A cut inside a word may re-tokenize the next chunk's first piece, so the index's
    count there can be a token or two short. Such ends are planned one at a time
    (probes) with no slack until the exact counts tell: after ``_TRUSTED`` fitting
    probes, whole runs are planned at once with no slack; after one that does not fit,
    with ``SLACK`` tokens left free.
    """

    slack: int = 0
    trusted: int = 0
    decided: bool = False

    def learned(self, fits: bool) -> InnerCuts:
        """The state after an inner end was counted and did (not) fit."""
        if not fits:
            return InnerCuts(SLACK, self.trusted, decided=True)
        if self.decided:
            return self
        return InnerCuts(self.slack, self.trusted + 1, self.trusted + 1 >= _TRUSTED)

    def probing(self, plan: Plan) -> bool:
        """True when ``plan`` must be confirmed before planning goes on."""
        return plan.inner and not self.decided


def plan_run(
    section: Section, previous: Span | None, inner: InnerCuts, limit: int | None
) -> Iterator[Plan]:
    """Chunks after ``previous`` (from the section's start when None), from estimates
    alone: up to ``limit`` of them, until the section's end or a probe."""
    planned = 0
    while limit is None or planned < limit:
        plan = _next_plan(section, previous, inner)
        if plan is None:
            return
        yield plan
        planned += 1
        if plan.end >= section.end or inner.probing(plan):
            return
        previous = plan.span


def _next_plan(section: Section, previous: Span | None, inner: InnerCuts) -> Plan | None:
    """The chunk after ``previous``: with the largest overlap that the estimate allows
    and still lets it end at a sentence end, else without overlap if that does; when
    neither does, with the largest overlap that fits (the next chunk starts inside a
    sentence anyway). None when no end is estimated to fit."""
    if previous is None:
        return _fresh_plan(section, section.start, section.start, inner)
    after = previous.end
    overlapping: Plan | None = None
    for start in overlap_starts(section, previous):
        end = section.estimated_end(start, after)
        if end is None:
            continue
        if section.ends_sentence(end):
            return Plan(start, end, after)
        overlapping = overlapping or Plan(start, end, after)
    fresh = _fresh_plan(section, lstrip_at(section.text, after, section.end), after, inner)
    if overlapping is None or (fresh is not None and section.ends_sentence(fresh.end)):
        return fresh
    return overlapping


def _fresh_plan(section: Section, start: int, after: int, inner: InnerCuts) -> Plan | None:
    """A chunk from ``start`` without overlap: to the furthest unit end estimated to
    fit; else, in a unit without any cut whose tokens the index lists one by one (a
    long word, a blob), to the furthest safe token start that fits."""
    end = section.estimated_end(start, start)
    if end is not None:
        return Plan(start, end, after)
    end = _inner_end(section, start, inner.slack)
    return None if end is None else Plan(start, end, after, inner=True)


def _inner_end(section: Section, start: int, slack: int) -> int | None:
    text, index = section.text, section.index
    reach = index.reach(start, section.budget - section.fixed_at(start) - slack)
    if reach is None:
        return None
    tokens = index.single_tokens(start, reach, section.budget)
    if not tokens:
        return None
    cut = next((c for c in (reach, *reversed(tokens)) if is_safe_cut(text, c)), start)
    end = rstrip_at(text, start, cut)
    return end if end > start else None


# -- overlap ----------------------------------------------------------------------------


def overlap_starts(section: Section, previous: Span) -> list[int]:
    """Starts of whole trailing units of the previous chunk, best first.

    Candidates are unit starts inside the previous chunk, at a separator level up to
    ``OVERLAP_FINEST_LEVEL`` (a sentence), whose estimated content stays within the
    overlap target. The best is the longest overlap that starts at the coarsest
    boundary available (a paragraph, then a line, a sentence), so that a chunk starts
    where a thought starts; the others follow as fallbacks, largest first. When no
    sentence starts within the target: none (no overlap), unless the previous chunk
    ends inside a sentence (``MID_SENTENCE_FINEST_LEVEL``: the clauses before its end,
    else the words before it that fit).
    """
    if section.overlap_target == 0:
        return []
    level_at = _unit_starts(section, previous)
    count, end = section.index.count, previous.end
    within = sorted(p for p in level_at if count(p, end) <= section.overlap_target)
    candidates = _finest_allowed(section, end, within, level_at)
    if not candidates:
        return [] if section.ends_sentence(end) else _word_start(section, previous)
    chosen = _preferred(candidates, level_at)
    return [chosen, *(p for p in candidates if p > chosen)]


def _finest_allowed(
    section: Section, end: int, within: list[int], level_at: dict[int, int]
) -> list[int]:
    """Of the starts ``within`` the target, those at a sentence or coarser; when there
    are none and ``end`` lies inside a sentence, those at a clause or coarser."""
    found = [p for p in within if level_at[p] <= OVERLAP_FINEST_LEVEL]
    if found or section.ends_sentence(end):
        return found
    return [p for p in within if level_at[p] <= MID_SENTENCE_FINEST_LEVEL]


def _word_start(section: Section, previous: Span) -> list[int]:
    """The earliest word start inside ``previous`` whose estimated content up to its
    end stays within the target (the last words of a sentence cut at ``previous.end``),
    as a one-item list; empty when not even the last word fits."""
    start, end = previous
    lowest = section.index.reach_back(end, section.overlap_target)
    text = section.text
    for match in _WORD_START.finditer(text, start if lowest is None else max(start, lowest), end):
        at = match.start()
        if (
            at > start
            and is_safe_cut(text, at)
            and section.index.count(at, end) <= section.overlap_target
        ):
            return [at]
    return []


def _unit_starts(section: Section, previous: Span) -> dict[int, int]:
    """Starts of the section's units (of its recursive split) inside ``previous`` near
    its end -> the separator level cutting there (the coarsest that does)."""
    previous_start, previous_end = previous
    lowest = section.index.reach_back(previous_end, section.overlap_target + 1)
    low = previous_start if lowest is None else max(previous_start, lowest)
    starts = section.starts
    first, last = bisect_right(starts, low), bisect_left(starts, previous_end)
    return dict(zip(starts[first:last], section.levels[first:last], strict=True))


def _preferred(candidates: list[int], level_at: dict[int, int]) -> int:
    """The earliest (largest overlap) candidate of the coarsest level that has one."""
    coarsest = min(level_at[p] for p in candidates)
    return next(p for p in candidates if level_at[p] == coarsest)
