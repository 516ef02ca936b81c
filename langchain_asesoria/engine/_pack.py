"""Packing one section: planned chunks confirmed by exact counts, corrected where wrong.

The section's plans arrive measured (exact counts of each prepared text and of each
overlap). They are accepted in order while they fit the budget and their overlap stays
within the target. At the first that does not, one chunk is found by exact search
(``_search.correct``); planning resumes after it, ``RUN`` chunks at a time, each run
measured with one batched count.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from itertools import tee

from langchain_asesoria.engine._plan import InnerCuts, Plan, Span, plan_run
from langchain_asesoria.engine._protocols import Tokenization
from langchain_asesoria.engine._search import Measured, correct
from langchain_asesoria.engine._section import Section

#: The most chunks planned after a correction before they are counted together. Runs
#: start at one chunk after each correction and double while they are accepted, so a
#: wrong estimate wastes few exact counts and a right one is still counted in batches.
RUN = 32


@dataclass(frozen=True, slots=True)
class PackedChunk:
    """A chunk's span, text and exact counts, before its metadata.

    ``embedding_text`` is the very text that was counted (``prepare`` builds it once).
    """

    start: int
    end: int
    text: str
    embedding_text: str
    token_count: int
    overlap_tokens: int


def measure(
    plans: Iterable[tuple[Section, Plan]], tokenization: Tokenization
) -> Iterator[Measured]:
    """Each plan with the exact counts of its prepared text and of its overlap.

    Plans are read as the counts are consumed: ``count_many`` may count one batch while
    the next is planned.
    """
    candidates = (_candidate(section, plan, tokenization) for section, plan in plans)
    for_counts, for_overlaps, for_results = tee(candidates, 3)
    counts = tokenization.count_many(prepared for _, _, prepared, _ in for_counts)
    overlaps = tokenization.count_many((shared for *_, shared in for_overlaps), content=True)
    for (plan, text, prepared, _), tokens, shared in zip(
        for_results, counts, overlaps, strict=True
    ):
        yield Measured(plan, text, prepared, tokens, shared)


def _candidate(
    section: Section, plan: Plan, tokenization: Tokenization
) -> tuple[Plan, str, str, str]:
    """``(plan, content, prepared content, overlap)``; the overlap is "" when none."""
    text = section.text[plan.start : plan.end]
    shared = section.text[plan.start : plan.after]
    return plan, text, tokenization.prepare(text, section.context_at(plan.start)), shared


def pack_section(
    section: Section, planned: Iterable[Measured], tokenization: Tokenization
) -> Iterator[PackedChunk]:
    """The section's chunks in order: trimmed, exact, within budget, overlap on target.

    Args:
        section: The section.
        planned: Its first plans (``plan_run(section, None, InnerCuts(), None)``),
            measured; read only as far as they are accepted.
        tokenization: Prepares and counts the corrections and later runs.
    """
    previous: Span | None = None
    inner, run, length = InnerCuts(), planned, RUN
    while True:
        accepted, inner, failed = yield from _confirm(section, run, inner)
        previous = accepted or previous
        if previous is not None and previous.end >= section.end:
            return
        if failed is not None or accepted is None:
            chunk = correct(section, tokenization, previous, failed)
            yield _packed(section, chunk)
            previous = chunk.plan.span
            if previous.end >= section.end:
                return
            length = 1
        else:
            length = min(2 * length, RUN)
        plans = plan_run(section, previous, inner, length)
        run = measure(((section, plan) for plan in plans), tokenization)


def _confirm(
    section: Section, run: Iterable[Measured], inner: InnerCuts
) -> Generator[PackedChunk, None, tuple[Span | None, InnerCuts, Measured | None]]:
    """Yields the run's chunks while they are accepted.

    Returns:
        The last accepted chunk's span (None if none), what inner ends taught, and the
        first rejected plan (None when the whole run was accepted).
    """
    accepted: Span | None = None
    for item in run:
        fits = item.fits(section.budget)
        if item.plan.inner:
            inner = inner.learned(fits)
        if not fits or item.shared > section.overlap_target:
            return accepted, inner, item
        yield _packed(section, item)
        accepted = item.plan.span
    return accepted, inner, None


def _packed(section: Section, item: Measured) -> PackedChunk:
    plan = item.plan
    return PackedChunk(
        start=plan.start,
        end=plan.end,
        text=item.text,
        embedding_text=item.prepared,
        token_count=item.tokens,
        overlap_tokens=item.shared,
    )
