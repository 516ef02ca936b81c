"""Where a section may be cut: separator matches per level, and safe character cuts.

A cut is a position ``c``: the unit before it ends at ``c`` minus trailing whitespace,
the unit after it starts at ``c`` plus leading whitespace. Cuts come from the *end*
of each separator match, so a separator's characters stay with the unit before it
and nothing is ever dropped.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from langchain_asesoria.engine._estimate import offsets_typecode

__all__ = ["SectionCuts", "is_safe_cut", "lstrip_at", "rstrip_at"]

#: ``(start, end) -> True`` when the unit ``text[start:end]`` cannot fit alone.
OversizedTest = Callable[[int, int], bool]

_ZWJ = "\u200d"
_EXTENDERS = frozenset("\u200d\ufe0e\ufe0f")


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
    """False inside a grapheme: before a combining mark, joiner, variation selector or
    skin-tone modifier, after a zero-width joiner, or between a surrogate pair."""
    if position <= 0 or position >= len(text):
        return True
    char = text[position]
    if text[position - 1] == _ZWJ or char in _EXTENDERS:
        return False
    if "\U0001f3fb" <= char <= "\U0001f3ff" or "\udc00" <= char <= "\udfff":
        return False
    if _is_regional_indicator(char) and _is_regional_indicator(text[position - 1]):
        return _regional_indicators_before(text, position) % 2 == 0
    return not unicodedata.combining(char) and unicodedata.category(char) not in ("Mc", "Me")


def _is_regional_indicator(char: str) -> bool:
    return "\U0001f1e6" <= char <= "\U0001f1ff"


def _regional_indicators_before(text: str, position: int) -> int:
    """How many regional indicators run up to ``position``: flags pair them up."""
    count = 0
    while position - count > 0 and _is_regional_indicator(text[position - count - 1]):
        count += 1
    return count


def _cuts(text: str, start: int, end: int, pattern: re.Pattern[str]) -> Sequence[int]:
    """Ends of the separator's matches strictly inside ``(start, end)`` (an array:
    a megabyte of prose has 170,000 spaces)."""
    matches = pattern.finditer(text, start, end)
    cuts = array(offsets_typecode(len(text)), (match.end() for match in matches))
    return cuts[bisect_right(cuts, start) : bisect_left(cuts, end)]


@dataclass(frozen=True, slots=True)
class SectionCuts:
    """Cuts of one section ``[start, end)``, per separator level, coarsest first."""

    text: str
    start: int
    end: int
    levels: tuple[Sequence[int], ...]

    @classmethod
    def find(
        cls, text: str, start: int, end: int, separators: Sequence[re.Pattern[str]]
    ) -> SectionCuts:
        return cls(text, start, end, tuple(_cuts(text, start, end, p) for p in separators))

    def active_cuts(self, oversized: OversizedTest) -> list[int]:
        """Coarsest cuts, plus finer cuts inside every unit too large to fit alone.

        This is the recursive split: a paragraph that fits stays whole; one that does
        not is cut at lines, then sentence ends, then spaces, only where needed.
        """
        out: list[int] = []
        self._split(self.start, self.end, 0, oversized, out)
        return out

    def _split(
        self, start: int, end: int, level: int, oversized: OversizedTest, out: list[int]
    ) -> None:
        if level >= len(self.levels):
            return
        cuts = self.levels[level]
        low, high = bisect_right(cuts, start), bisect_left(cuts, end)
        unit_start = start
        for cut in (*cuts[low:high], end):
            unit_end = rstrip_at(self.text, unit_start, cut)
            if unit_end > unit_start and oversized(unit_start, unit_end):
                self._split(unit_start, unit_end, level + 1, oversized, out)
            if cut < end:
                out.append(cut)
            unit_start = lstrip_at(self.text, cut, end)

    def all_cuts_between(self, start: int, end: int) -> list[int]:
        """Every cut of every level strictly inside ``(start, end)``, ascending."""
        found: set[int] = set()
        for cuts in self.levels:
            found.update(cuts[bisect_right(cuts, start) : bisect_left(cuts, end)])
        return sorted(found)
