"""The recursive split (``engine/_cuts.py``): each separator searched only where needed.

A finer separator is searched inside a unit that the coarser ones leave too large, never
over the whole section. For the default separators (whitespace, with closing quotes
before it) this gives the very cuts that searching every separator over the whole
section and keeping those inside oversized units gives: the reference below, the
engine's definition before it searched lazily.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, examples, spanish_text

from langchain_asesoria.engine._cuts import SectionCuts, lstrip_at, rstrip_at
from langchain_asesoria.models import DEFAULT_SEPARATORS

PATTERNS = tuple(re.compile(pattern) for pattern in DEFAULT_SEPARATORS)


def _reference(text: str, limit: int, glued: int | None) -> tuple[list[int], list[int]]:
    """Cuts and levels of the recursive split with every separator searched over the
    whole text first; a unit is too large when longer than ``limit`` characters."""
    resume = 0 if glued is None else lstrip_at(text, glued, len(text))
    title_end = 0 if glued is None or glued <= limit else glued  # cut only when too large

    def allowed(cut: int) -> bool:
        if resume < cut < len(text):
            return True  # after the title and the whitespace that follows it
        # inside the title: only at its words, never at its line breaks
        return 0 < cut < title_end and not re.search(r"[\r\n]\s*$", text[:cut])

    levels = [[m.end() for m in pattern.finditer(text) if allowed(m.end())] for pattern in PATTERNS]
    cuts: list[int] = []
    made_by: list[int] = []

    def split(start: int, end: int, level: int) -> None:
        if level >= len(levels):
            return
        inside = levels[level][bisect_right(levels[level], start) : bisect_left(levels[level], end)]
        unit_start = start
        for cut in (*inside, end):
            unit_end = rstrip_at(text, unit_start, cut)
            if unit_end > unit_start and unit_end - unit_start > limit:
                split(unit_start, unit_end, level + 1)
            if cut < end:
                cuts.append(cut)
                made_by.append(level)
            unit_start = lstrip_at(text, cut, end)

    split(0, len(text), 0)
    return cuts, made_by


@settings(PROFILE, max_examples=examples(200))
@given(
    text=spanish_text().filter(str.strip),
    limit=st.integers(1, 400),
    glued=st.none() | st.integers(0, 60),
)
def test_the_lazy_split_makes_the_cuts_of_whole_section_searches(
    text: str, limit: int, glued: int | None
) -> None:
    glued = None if glued is None else min(glued, len(text))
    large = glued is not None and glued > limit
    cuts = SectionCuts.find(text, 0, len(text), PATTERNS, glued=glued, title_too_large=large)
    active = cuts.active_cuts(lambda start, end: end - start > limit)
    assert (active.cuts, active.levels) == _reference(text, limit, glued)


@settings(PROFILE, max_examples=examples(100))
@given(text=spanish_text().filter(str.strip), limit=st.integers(1, 400))
def test_each_cut_is_made_by_the_coarsest_separator_cutting_there(text: str, limit: int) -> None:
    active = SectionCuts.find(text, 0, len(text), PATTERNS).active_cuts(
        lambda start, end: end - start > limit
    )
    everywhere = [{m.end() for m in pattern.finditer(text)} for pattern in PATTERNS]
    for cut, level in zip(active.cuts, active.levels, strict=True):
        assert cut in everywhere[level]
        assert not any(cut in coarser for coarser in everywhere[:level])


@dataclass
class Spy:
    """A separator that records where it is searched (``SectionCuts`` only calls
    ``finditer``)."""

    pattern: re.Pattern[str]
    searched: list[tuple[int, int]] = field(default_factory=list)

    def finditer(self, text: str, start: int, end: int) -> Iterator[re.Match[str]]:
        self.searched.append((start, end))
        return self.pattern.finditer(text, start, end)


def test_a_finer_separator_is_searched_only_inside_a_unit_too_large() -> None:
    short, long = "Primero breve.", "Un párrafo largo. Con dos frases, y comas."
    text = f"{short}\n\n{long}\n\n{short}"
    spies = [Spy(pattern) for pattern in PATTERNS]
    cuts = SectionCuts.find(text, 0, len(text), spies)  # type: ignore[arg-type]
    active = cuts.active_cuts(lambda start, end: end - start > 20)  # the short fits
    where = text.index(long)
    assert spies[0].searched == [(0, len(text))]
    assert spies[1].searched == [(where, where + len(long))]  # the long paragraph only
    assert spies[2].searched == [(where, where + len(long))]  # no line inside it
    first = where + len("Un párrafo largo. ")
    second = first + len("Con dos frases, ")
    assert spies[3].searched == [(first, where + len(long))]  # the long sentence only
    assert spies[4].searched == [(first, where + len(long))]  # no semicolon in it
    assert active.cuts == [len(short) + 2, first, second, where + len(long) + 2]
    assert active.levels == [0, 2, 4, 0]  # a comma: semicolons and colons are level 3
    assert all(spy.searched == [] for spy in spies[5:])  # no unit left too large
