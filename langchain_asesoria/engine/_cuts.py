"""Where a section may be cut: separator matches per level, and safe character cuts.

A cut is a position ``c``: the unit before it ends at ``c`` minus trailing whitespace,
the unit after it starts at ``c`` plus leading whitespace. Cuts come from the *end*
of each separator match, so a separator's characters stay with the unit before it
and nothing is ever dropped.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from langchain_asesoria.engine._estimate import offsets_typecode

if TYPE_CHECKING:
    import regex

#: ``(start, end) -> True`` when the unit ``text[start:end]`` cannot fit alone.
OversizedTest = Callable[[int, int], bool]


@cache
def _clusters() -> regex.Pattern[str]:
    """One extended grapheme cluster (UAX #29), as the ``regex`` module implements it;
    ``regex`` is imported on the first cut that needs it (about 40 ms of every import
    of the package otherwise, most of ``AsesoriaTextSplitter``'s own)."""
    import regex

    return regex.compile(r"\X")


#: How far back ``is_safe_cut`` looks for a point where segmentation may restart.
_RESTART_LIMIT = 1 << 10


def rstrip_at(text: str, start: int, position: int) -> int:
    """The end of ``text[start:position]`` without trailing whitespace."""
    while position > start and text[position - 1].isspace():
        position -= 1
    return position


def lstrip_at(text: str, position: int, end: int) -> int:
    """The start of ``text[position:end]`` without leading whitespace."""
    while position < end and text[position].isspace():
        position += 1
    return position


def is_safe_cut(text: str, position: int) -> bool:
    r"""True when ``position`` is an extended grapheme cluster boundary (UAX #29).

    Between two ASCII characters there always is one (but inside ``"\r\n"``);
    elsewhere the clusters are found by the ``regex`` module's ``\X`` from the last
    point before ``position`` where segmentation restarts unchanged (just after an
    ASCII character, whose class no rule looks back through).
    """
    if position <= 0 or position >= len(text):
        return True
    before, after = text[position - 1], text[position]
    if before < "\x80" and after < "\x80":
        return before != "\r" or after != "\n"
    start = _restart(text, position)
    for cluster in _clusters().finditer(text, start, position + 1):
        if cluster.end() >= position:
            return cluster.end() == position
    return True  # pragma: no cover - the clusters always reach position


def _restart(text: str, position: int) -> int:
    """A position before ``position`` from which segmentation finds the same boundaries
    after it: just after an ASCII character other than CR, or the text's start; failing
    that within ``_RESTART_LIMIT`` characters, the start of the regional-indicator run
    there (flags pair up from it)."""
    lowest = max(0, position - _RESTART_LIMIT)
    for start in range(position - 1, lowest, -1):
        if text[start - 1] < "\x80" and text[start - 1] != "\r":
            return start
    while lowest > 0 and _is_regional_indicator(text[lowest - 1]):
        lowest -= 1
    return lowest


def _is_regional_indicator(char: str) -> bool:
    return "\U0001f1e6" <= char <= "\U0001f1ff"


def _cuts(
    text: str, start: int, end: int, pattern: re.Pattern[str], title: tuple[int, int]
) -> Sequence[int]:
    """Ends of the separator's matches searched in ``text[start:end]`` (its lookbehinds
    see the text before ``start``), strictly inside ``(start, end)``; an array: a
    megabyte of prose has 170,000 spaces. None from the end of the title (``title``:
    where it ends, where the text after it starts) to that text; inside the title only
    those within a line (its words), so that its lines stay together."""
    matches = pattern.finditer(text, start, end)
    cuts = array(offsets_typecode(len(text)), map(re.Match.end, matches))
    title_end, resume = title
    after = cuts[bisect_right(cuts, max(start, resume)) : bisect_left(cuts, end)]
    if resume <= start:
        return after
    inside = cuts[bisect_right(cuts, start) : bisect_left(cuts, min(title_end, end))]
    words = [cut for cut in inside if not _breaks_title(text, start, cut)]
    return array(cuts.typecode, [*words, *after]) if words else after


def _breaks_title(text: str, start: int, cut: int) -> bool:
    """The whitespace just before ``cut`` holds a line break: no cut there inside a
    title (its words may be cut, as the contract orders: spaces before characters)."""
    before = text[rstrip_at(text, start, cut) : cut]
    return "\n" in before or "\r" in before


@dataclass(frozen=True, slots=True)
class ActiveCuts:
    """The recursive split of a section: its cuts, ascending, and for each the separator
    level that made it (the coarsest separator that cuts there)."""

    cuts: list[int]
    levels: list[int]


@dataclass(frozen=True, slots=True)
class SectionCuts:
    """Where one section ``[start, end)`` may be cut, per separator, coarsest first.

    A separator is searched only where it is needed: the coarsest in the whole
    section, each finer one inside a unit that the coarser ones leave too large (the
    recursive split), or inside a stretch being cut by exact search. No cut lies
    between ``title_end`` and ``resume``, so a title stays with what follows it, and
    inside the title only cuts within a line (when even the title is too large).
    """

    text: str
    start: int
    end: int
    separators: tuple[re.Pattern[str], ...]
    resume: int
    title_end: int

    @classmethod
    def find(
        cls,
        text: str,
        start: int,
        end: int,
        separators: Sequence[re.Pattern[str]],
        glued: int | None = None,
        title_too_large: bool = False,
    ) -> SectionCuts:
        """The cuts of ``[start, end)``; none between ``glued`` (where the title that
        opens it ends) and the text after it, none at the title's own line breaks: the
        title stays with the text after it, and is cut only at its words (spaces,
        sentence ends), and only when ``title_too_large`` to fit whole in one chunk."""
        resume = start if glued is None else lstrip_at(text, glued, end)
        title_end = glued if glued is not None and title_too_large else start
        return cls(text, start, end, tuple(separators), resume, title_end)

    def level_cuts(self, level: int, start: int, end: int) -> Sequence[int]:
        """Cuts of separator ``level``, searched in ``[start, end)``, strictly inside."""
        title = (self.title_end, self.resume)
        return _cuts(self.text, start, end, self.separators[level], title)

    def active_cuts(self, oversized: OversizedTest) -> ActiveCuts:
        """Coarsest cuts, plus finer cuts inside every unit too large to fit alone.

        This is the recursive split: a paragraph that fits stays whole; one that does
        not is cut at lines, then sentence ends, then spaces, only where needed.
        """
        out = ActiveCuts([], [])
        self._split(self.start, self.end, 0, oversized, out)
        return out

    def _split(
        self, start: int, end: int, level: int, oversized: OversizedTest, out: ActiveCuts
    ) -> None:
        if level >= len(self.separators):
            return
        unit_start = start
        for cut in (*self.level_cuts(level, start, end), end):
            unit_end = rstrip_at(self.text, unit_start, cut)
            if unit_end > unit_start and oversized(unit_start, unit_end):
                self._split(unit_start, unit_end, level + 1, oversized, out)
            if cut < end:
                out.cuts.append(cut)
                out.levels.append(level)
            unit_start = lstrip_at(self.text, cut, end)

    def all_cuts_between(self, start: int, end: int) -> list[int]:
        """Every cut of every separator found in ``[start, end)``, strictly inside,
        ascending."""
        found: set[int] = set()
        for level in range(len(self.separators)):
            found.update(self.level_cuts(level, start, end))
        return sorted(found)
