"""Page furniture: running headers and footers found at the edges of a PDF's pages.

A page's *edge* is its first and last ``edge_lines`` non-blank lines (in the order the
text was extracted: pypdf often puts a header drawn at the top after the body). A line
at an edge is furniture when either:

- its text, digits aside ("Página 12" and "Página 13" are one line), stands at an edge
  of at least half of the pages with text, or of half of the odd or of the even pages
  (headers that alternate), and of at least ``min_pages`` pages; or
- its height on the page is known and lies where such repeated lines stand on at least
  ``min_pages`` pages, above or below every other line of the document: a running
  title that changes with the section ("Introducción", "Caso práctico").

A line inside the body is never furniture, however often it repeats (a table header
repeated on every page). When the lines found would be more than half of all the
lines, the pages are a form repeated page after page, not pages with headers: nothing
is removed. Documents of fewer than ``min_pages`` pages keep everything: there is
nothing to compare. Removing a line removes it with its line break, so
``Furniture.remove`` keeps every other character, every page and its number.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Final

from langchain_asesoria.models import LoadedPage

__all__ = [
    "EDGE_LINES",
    "MIN_PAGES",
    "Furniture",
    "FurnitureLine",
    "FurnitureSummary",
    "find_furniture",
    "furniture_key",
]

#: Non-blank lines at the top and at the bottom of a page where furniture may stand.
EDGE_LINES: Final = 4

#: The fewest pages a line must repeat on to count as furniture.
MIN_PAGES: Final = 3

_MIN_SHARE: Final = 0.5
_MAX_SHARE: Final = 0.5
_DIGITS: Final = re.compile(r"(\d+)")

LineHeights = Sequence[float | None]


def furniture_key(line: str) -> str:
    """What two furniture lines share: whitespace collapsed, every number as ``#``."""
    return _DIGITS.sub("#", " ".join(line.split()))


@dataclass(frozen=True, slots=True)
class FurnitureLine:
    """One line removed from one page.

    Invariant: ``page_text[start:end]`` is the line followed by its line break (none
    for a page's last line), and ``text == page_text[start:end].rstrip("\\n")``.

    Attributes:
        page: The page number.
        start: Offset of the line in the page's extracted text.
        end: Offset after the line and its line break.
        text: The line as extracted.
    """

    page: int
    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class FurnitureSummary:
    """One kind of removed line, for reports.

    Attributes:
        text: The line, whitespace collapsed, each number that changes from page to
            page shown as ``N`` (``"Página N"``).
        pages: The page numbers it was removed from, ascending.
    """

    text: str
    pages: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Furniture:
    """The furniture lines of one document, ordered by page then position.

    Attributes:
        lines: Every line to remove.
    """

    lines: tuple[FurnitureLine, ...] = ()

    def on_page(self, page: int) -> tuple[FurnitureLine, ...]:
        """The lines removed from page number ``page``."""
        return tuple(line for line in self.lines if line.page == page)

    def remove(self, pages: Sequence[LoadedPage]) -> tuple[LoadedPage, ...]:
        """The pages without their furniture lines; numbers, sources and order kept."""
        by_page = self._by_page()
        return tuple(
            replace(page, text=_without(page.text, by_page.get(page.page, ()))) for page in pages
        )

    def restore(self, pages: Sequence[LoadedPage]) -> tuple[LoadedPage, ...]:
        """The pages as extracted, from pages ``remove`` gave: its exact inverse."""
        by_page = self._by_page()
        return tuple(
            replace(page, text=_with(page.text, by_page.get(page.page, ()))) for page in pages
        )

    def cleaned_offset(self, page: int, offset: int) -> int:
        """Where ``offset`` of page ``page``'s extracted text lies once furniture is removed.

        An offset inside a removed line maps to where that line was.
        """
        shift = 0
        for line in self._by_page().get(page, ()):
            if line.start >= offset:
                break
            shift += min(offset, line.end) - line.start
        return offset - shift

    def summary(self) -> tuple[FurnitureSummary, ...]:
        """The removed lines grouped by ``furniture_key``, most pages first."""
        groups: dict[str, list[FurnitureLine]] = {}
        for line in self.lines:
            groups.setdefault(furniture_key(line.text), []).append(line)
        summaries = [
            FurnitureSummary(_shared_text(lines), tuple(sorted({line.page for line in lines})))
            for lines in groups.values()
        ]
        return tuple(sorted(summaries, key=lambda item: -len(item.pages)))

    def _by_page(self) -> dict[int, list[FurnitureLine]]:
        by_page: dict[int, list[FurnitureLine]] = defaultdict(list)
        for line in self.lines:
            by_page[line.page].append(line)
        return by_page


def _shared_text(lines: Sequence[FurnitureLine]) -> str:
    """The lines' common text, each number that differs between them shown as ``N``."""
    split = [_DIGITS.split(" ".join(line.text.split())) for line in lines]
    parts = [
        values[0] if index % 2 == 0 or len(set(values)) == 1 else "N"
        for index, values in enumerate(zip(*split, strict=True))
    ]
    return "".join(parts)


def _with(text: str, lines: Sequence[FurnitureLine]) -> str:
    """``text`` (furniture removed) with ``lines`` put back where they were."""
    parts: list[str] = []
    position = 0  # in ``text``
    removed = 0  # characters removed before ``position``
    for line in lines:
        at = line.start - removed
        parts.append(text[position:at])
        parts.append(line.text + "\n" * (line.end - line.start - len(line.text)))
        position = at
        removed += line.end - line.start
    parts.append(text[position:])
    return "".join(parts)


def _without(text: str, lines: Sequence[FurnitureLine]) -> str:
    parts: list[str] = []
    position = 0
    for line in lines:
        parts.append(text[position : line.start])
        position = line.end
    parts.append(text[position:])
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class _Line:
    """A non-blank line at a page's edge."""

    page: int
    index: int
    start: int
    end: int
    text: str
    key: str
    height: float | None


def _lines(text: str) -> Iterator[tuple[int, int, int, str]]:
    """``(index, start, end, line)`` of every line; ``end`` after its line break."""
    start = 0
    for index, line in enumerate(text.split("\n")):
        end = start + len(line)
        yield index, start, min(end + 1, len(text)), line
        start = end + 1


@dataclass(frozen=True, slots=True)
class _Page:
    edge: tuple[_Line, ...]
    body_lines: int
    body_heights: tuple[float, ...]


def _page(page: LoadedPage, heights: LineHeights, edge_lines: int) -> _Page:
    lines = [item for item in _lines(page.text) if item[3].strip()]
    at_edge = {item[0] for item in lines[:edge_lines] + lines[-edge_lines:]}

    def height(index: int) -> float | None:
        return heights[index] if index < len(heights) else None

    edge = tuple(
        _Line(page.page, index, start, end, line, furniture_key(line), height(index))
        for index, start, end, line in lines
        if index in at_edge
    )
    body = [index for index, *_ in lines if index not in at_edge]
    heights_known = tuple(value for index in body if (value := height(index)) is not None)
    return _Page(edge, len(body), heights_known)


def _repeated_keys(pages: Sequence[_Page], min_pages: int) -> set[str]:
    """Keys at the edge of at least half of all, odd or even pages, and ``min_pages``."""
    where: dict[str, set[int]] = defaultdict(set)
    for page in pages:
        for line in page.edge:
            where[line.key].add(line.page)
    counted = [page.edge[0].page for page in pages if page.edge]
    totals = {
        parity: sum(1 for number in counted if parity is None or number % 2 == parity)
        for parity in (None, 0, 1)
    }

    def repeated(numbers: set[int]) -> bool:
        if len(numbers) < min_pages:
            return False
        return any(
            total
            and sum(1 for n in numbers if parity is None or n % 2 == parity) >= _MIN_SHARE * total
            for parity, total in totals.items()
        )

    return {key for key, numbers in where.items() if repeated(numbers)}


def _bands(pages: Sequence[_Page], keys: set[str], min_pages: int) -> set[int]:
    """Heights (whole points) where repeated lines stand on ``min_pages`` pages, off the body."""
    where: dict[int, set[int]] = defaultdict(set)
    for page in pages:
        for line in page.edge:
            if line.key in keys and line.height is not None:
                where[round(line.height)].add(line.page)
    body = [value for page in pages for value in page.body_heights]
    if not body:
        return set()
    low, high = min(body), max(body)
    return {
        height
        for height, numbers in where.items()
        if len(numbers) >= min_pages and (height > high + 1 or height < low - 1)
    }


def _in_band(line: _Line, bands: set[int]) -> bool:
    if line.height is None:
        return False
    near = round(line.height)
    return bool({near - 1, near, near + 1} & bands)


def find_furniture(
    pages: Sequence[LoadedPage],
    line_heights: Sequence[LineHeights] | None = None,
    *,
    edge_lines: int = EDGE_LINES,
    min_pages: int = MIN_PAGES,
) -> Furniture:
    """The running headers and footers of a document's pages (see the module docstring).

    Args:
        pages: One document's pages, as extracted.
        line_heights: Per page, the height on the page of each line of
            ``page.text.split("\\n")`` (``None`` where unknown); without it only
            repeated text is found.
        edge_lines: Non-blank lines at each edge of a page where furniture may stand.
        min_pages: The fewest pages a furniture line must repeat on.

    Returns:
        The lines to remove; ``Furniture().lines == ()`` when there are none.
    """
    heights: Sequence[LineHeights] = line_heights or [() for _ in pages]
    read = [_page(page, height, edge_lines) for page, height in zip(pages, heights, strict=True)]
    if sum(1 for page in read if page.edge) < min_pages:
        return Furniture()
    keys = _repeated_keys(read, min_pages)
    bands = _bands(read, keys, min_pages)
    lines = tuple(
        FurnitureLine(line.page, line.start, line.end, line.text)
        for page in read
        for line in page.edge
        if line.key in keys or _in_band(line, bands)
    )
    text_lines = sum(len(page.edge) + page.body_lines for page in read)
    if len(lines) > _MAX_SHARE * text_lines:  # a form repeated page after page
        return Furniture()
    return Furniture(lines)
