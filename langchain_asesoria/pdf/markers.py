"""List markers put back before their items, where the printed page has them.

More: ``docs/design/pdf.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from langchain_asesoria.models import LoadedPage

#: A line holding only a list marker: a bullet, or a letter, number or Roman numeral
#: with its period or parenthesis ("a. ", "b)", "3.", "iv.", "2.º").
LONE_MARKER: Final = re.compile(
    r"[^\S\n]*(?:[•·▪◦●‣∙]|\(?(?:[a-zA-Z]|\d{1,3}|[ivxIVX]{1,5})[.)][ºª°]?)[^\S\n]*"
)

#: Points within which two lines are printed at the same height.
_SAME_HEIGHT: Final = 0.5


@dataclass(frozen=True, slots=True)
class MarkedPage:
    """A page with its markers put first, and how many were moved."""

    page: LoadedPage
    moved: int


def _target(lines: Sequence[str], heights: Sequence[float | None], index: int) -> int | None:
    """The earlier line the marker on line ``index`` is printed beside, if any."""
    height = heights[index]
    if height is None:
        return None
    after = heights[index + 1] if index + 1 < len(heights) else None
    if after is not None and abs(after - height) <= _SAME_HEIGHT:
        return None  # already before its item
    for earlier in range(index - 1, -1, -1):
        other = heights[earlier]
        if other is None or not lines[earlier].strip():
            continue
        if abs(other - height) <= _SAME_HEIGHT:
            return None if LONE_MARKER.fullmatch(lines[earlier]) else earlier
        if other > height:
            return None  # a line printed above the marker's: not the marker's item
    return None


def marker_targets(lines: Sequence[str], heights: Sequence[float | None]) -> dict[int, int]:
    """``{marker line: line it belongs before}`` for the page's misplaced markers.

    ``heights`` has one item per line (``ExtractedPage.line_heights``); empty: unknown,
    and nothing is moved.
    """
    if len(heights) != len(lines):
        return {}
    found: dict[int, int] = {}
    for index, line in enumerate(lines):
        if LONE_MARKER.fullmatch(line) and line.strip():
            target = _target(lines, heights, index)
            if target is not None and target not in found.values():
                found[index] = target
    return found


def put_markers_first(page: LoadedPage, heights: Sequence[float | None]) -> MarkedPage:
    """``page`` with each misplaced marker before its item (module docstring).

    Invariant: the page keeps its number of lines (``text.split("\\n")``).
    """
    lines = page.text.split("\n")
    targets = marker_targets(lines, heights)
    if not targets:
        return MarkedPage(page, 0)
    for marker, target in targets.items():
        line = lines[target]
        indent = line[: len(line) - len(line.lstrip())]
        lines[target] = f"{indent}{lines[marker].strip()} {line.lstrip()}"
        lines[marker] = ""
    return MarkedPage(replace(page, text="\n".join(lines)), len(targets))
