"""Correction: one chunk found by exact counts, where a plan from estimates failed.

From the previous chunk, the largest overlap whose exact count stays within the target
and the furthest unit end whose prepared text fits exactly; a unit that does not fit
even alone is cut at finer separators, then at token starts, then (the last resort)
into character intervals, each accepted only when its exact count fits. Every count is
of the whole prepared text, memoised for the one search.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from langchain_asesoria.engine._cuts import is_safe_cut, lstrip_at, rstrip_at
from langchain_asesoria.engine._plan import Plan, Span, overlap_starts
from langchain_asesoria.engine._protocols import Tokenization
from langchain_asesoria.engine._section import SLACK, Section
from langchain_asesoria.errors import IndivisibleCharacterError


class Measured(NamedTuple):
    """A plan with its exact counts: its prepared text's, and its overlap's content.

    ``text`` is the chunk's content; ``prepared`` is ``prepare(text, context)``, built
    once (the very ``text`` object when there is neither prefix nor context). (A named
    tuple: an immutable value made once per chunk, cheaply.)
    """

    plan: Plan
    text: str
    prepared: str
    tokens: int
    shared: int

    def fits(self, budget: int) -> bool:
        return self.tokens <= budget


@dataclass(frozen=True, slots=True)
class Exact:
    """Exact counts of one section's candidate chunks, memoised for one search.

    Attributes:
        section: The section searched.
        tokenization: Prepares and counts.
        prepared: ``(start, end)`` -> the content, its prepared text and exact tokens.
        shared: ``(start, after)`` -> exact content tokens of ``text[start:after]``.
    """

    section: Section
    tokenization: Tokenization
    prepared: dict[tuple[int, int], tuple[str, str, int]] = field(default_factory=dict)
    shared: dict[tuple[int, int], int] = field(default_factory=dict)

    def tokens(self, start: int, end: int) -> int:
        """Exact tokens of the prepared candidate ``text[start:end]``."""
        known = self.prepared.get((start, end))
        if known is None:
            section, tokenization = self.section, self.tokenization
            content = section.text[start:end]
            prepared = tokenization.prepare(content, section.context_at(start))
            known = self.prepared[(start, end)] = (content, prepared, tokenization.count(prepared))
        return known[2]

    def fits(self, start: int, end: int) -> bool:
        return self.tokens(start, end) <= self.section.budget

    def overlap(self, start: int, after: int) -> int:
        """Exact content tokens of ``text[start:after]``."""
        known = self.shared.get((start, after))
        if known is None:
            known = self.tokenization.count_content(self.section.text[start:after])
            self.shared[(start, after)] = known
        return known

    def measured(self, plan: Plan) -> Measured:
        """``plan`` with the counts this search made of it."""
        self.tokens(plan.start, plan.end)
        text, prepared, tokens = self.prepared[(plan.start, plan.end)]
        shared = self.overlap(plan.start, plan.after) if plan.start < plan.after else 0
        return Measured(plan, text, prepared, tokens, shared)


def correct(
    section: Section, tokenization: Tokenization, previous: Span | None, failed: Measured | None
) -> Measured:
    """The chunk after ``previous`` (the section's first when None), by exact counts.

    ``failed`` is the plan that exact counts rejected there, if any: its counts are
    reused. The chunk always fits and holds at least one character.

    Raises:
        IndivisibleCharacterError: one character that does not fit even alone.
    """
    exact = Exact(section, tokenization)
    if failed is not None:
        plan = failed.plan
        exact.prepared[(plan.start, plan.end)] = (failed.text, failed.prepared, failed.tokens)
        if plan.start < plan.after:
            exact.shared[(plan.start, plan.after)] = failed.shared
    if previous is None:
        return exact.measured(Plan(section.start, _fresh_end(exact, section.start), section.start))
    return exact.measured(_next_chunk(exact, previous))


def _next_chunk(exact: Exact, previous: Span) -> Plan:
    section = exact.section
    for start in overlap_starts(section, previous):
        if exact.overlap(start, previous.end) > section.overlap_target:
            continue
        end = _furthest_unit_end(exact, start, previous.end)
        if end is not None:
            return Plan(start, end, previous.end)
    fresh = lstrip_at(section.text, previous.end, section.end)
    return Plan(fresh, _fresh_end(exact, fresh), previous.end)


def _furthest(exact: Exact, start: int, ends: Sequence[int], low: int, high: int) -> int | None:
    """Index of the furthest end in ``ends[low:high]`` whose chunk fits, or None.

    The estimate proposes an index; exact counts confirm it, step forward while the
    estimate is within the slack, or bisect back.
    """
    if low >= high:
        return None
    section = exact.section
    guess = bisect_right(ends, section.reach(start), low, high) - 1
    if guess < low:
        # Even the nearest end is estimated over budget: count it exactly only when the
        # estimate is close, else a long unbroken unit would be re-counted whole for
        # every chunk (quadratic); the caller then looks for finer ends.
        if section.estimate(start, ends[low]) > section.budget + SLACK:
            return None
        guess = low
    if exact.fits(start, ends[guess]):
        return _step_forward(exact, start, ends, guess, high)
    return _bisect_back(exact, start, ends, low, guess - 1)


def _step_forward(exact: Exact, start: int, ends: Sequence[int], fitting: int, high: int) -> int:
    """From a fitting index, the next ones while estimated near the budget and fitting."""
    section = exact.section
    while (
        fitting + 1 < high
        and section.estimate(start, ends[fitting + 1]) <= section.budget + SLACK
        and exact.fits(start, ends[fitting + 1])
    ):
        fitting += 1
    return fitting


def _bisect_back(exact: Exact, start: int, ends: Sequence[int], low: int, high: int) -> int | None:
    """The furthest fitting index in ``ends[low:high + 1]`` by bisection, or None."""
    best = None
    while low <= high:
        middle = (low + high) // 2
        if exact.fits(start, ends[middle]):
            best, low = middle, middle + 1
        else:
            high = middle - 1
    return best


def _furthest_unit_end(exact: Exact, start: int, after: int) -> int | None:
    """The furthest unit end beyond ``after`` that fits from ``start``, or None; past it,
    inside the next unit, when it would leave headings alone
    (``Section.ends_past_headings``) and an end there fits."""
    section = exact.section
    ends = section.ends
    index = _furthest(exact, start, ends, bisect_right(ends, after), len(ends))
    if index is None:
        return None
    inner = section.ends_past_headings(start, ends[index])
    found = section.furthest(inner, lambda end: exact.fits(start, end))
    return ends[index] if found is None else found


def _fresh_end(exact: Exact, start: int) -> int:
    """The end of a chunk starting at ``start`` with no overlap; always found."""
    end = _furthest_unit_end(exact, start, start)
    if end is not None:
        return end
    ends = exact.section.ends
    return _split_unit(exact, start, ends[bisect_right(ends, start)])


def _ascending(values: Iterator[int] | Sequence[int]) -> list[int]:
    """Sorted distinct values (cut ends may coincide after trimming)."""
    return sorted(set(values))


def _split_unit(exact: Exact, start: int, unit_end: int) -> int:
    """An end inside a unit that does not fit alone: finer cuts, tokens, characters."""
    section = exact.section
    text = section.text
    finer = _ascending(
        rstrip_at(text, start, cut) for cut in section.cuts.all_cuts_between(start, unit_end)
    )
    finer = [end for end in finer if end > start]
    index = _furthest(exact, start, finer, 0, len(finer))
    if index is not None:
        return finer[index]
    limit = finer[0] if finer else unit_end
    tokens = _ascending(
        rstrip_at(text, start, cut)
        for cut in _token_starts_after(exact, start, limit)
        if is_safe_cut(text, cut)
    )
    tokens = [end for end in tokens if end > start]
    index = _furthest(exact, start, tokens, 0, len(tokens))
    if index is not None:
        return tokens[index]
    return _split_characters(exact, start, tokens[0] if tokens else limit)


def _token_starts_after(exact: Exact, start: int, limit: int) -> list[int]:
    """Exact token starts in ``(start, limit)``, as many as one chunk could hold.

    They are the index's own when it lists every token there (a long word's); else a
    window of the text after ``start`` is tokenized, sized from the index's characters
    per token and doubled until it holds enough tokens: the cost follows the chunk, not
    the unit (a 200 KB blob without spaces is not re-read per chunk).
    """
    section = exact.section
    wanted = section.budget - section.fixed_at(start) + SLACK
    listed = section.index.single_tokens(start + 1, limit, wanted)
    if listed is not None:
        return list(listed)
    tokens = section.index.count(start, limit)
    width = (limit - start) * (wanted + 1) // tokens if tokens else limit - start
    width += width // 4 + 16
    while True:
        end = min(limit, start + width)
        found = [
            start + offset
            for offset in exact.tokenization.token_starts(section.text[start:end])
            if offset > 0
        ]
        if len(found) >= wanted or end >= limit:
            return found[:wanted]
        width *= 2


def _split_characters(exact: Exact, start: int, limit: int) -> int:
    """The last resort: character intervals, accepted only when they fit."""
    text = exact.section.text
    positions = range(start + 1, limit)
    index = _furthest(exact, start, positions, 0, len(positions))
    end = positions[index] if index is not None else start
    while end > start and not is_safe_cut(text, end):
        end -= 1
    if end > start:
        return rstrip_at(text, start, end)
    cluster = start + 1
    while cluster < limit and not is_safe_cut(text, cluster):
        cluster += 1
    if exact.fits(start, cluster):
        return cluster
    section = exact.section
    raise IndivisibleCharacterError(
        f"the character {text[start:cluster]!r} at position {start} needs "
        f"{exact.tokens(start, cluster)} tokens with its prefix and context, over the "
        f"{section.budget}-token budget. Raise max_tokens or shorten the section context.",
        doc_id=section.doc_id,
        position=start,
        expected=f"at most {section.budget} tokens",
    )
