"""Page furniture: running headers and footers, told apart from body text that repeats.

More: ``docs/design/pdf.md``.
"""

from __future__ import annotations

import re
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise, takewhile
from typing import Final, Literal

from langchain_asesoria.models import LoadedPage
from langchain_asesoria.pdf.folios import furniture_key, in_digits, running_keys
from langchain_asesoria.pdf.outline import OutlineEntry
from langchain_asesoria.pdf.titles import fold, locate_titles
from langchain_asesoria.structure.legal_grammar import LEGAL_HEADINGS

#: Non-blank lines at the top and at the bottom of a page where furniture may stand.
EDGE_LINES: Final = 4

#: The fewest pages a line must repeat on to count as furniture.
MIN_PAGES: Final = 3

#: A page's margin: a gap of at least this many body line steps.
MARGIN_STEPS: Final = 1.25

_EVEN: Final = MARGIN_STEPS  # no gap this many steps wide: the lines are evenly spaced
_MIN_SHARE: Final = 0.5
_PARITY_SHARE: Final = 0.75
_MAX_SHARE: Final = 0.5
_DIGITS: Final = re.compile(r"(\d+)")
_TITLE_START: Final = 12  # folded characters of a title looked for in removed lines

LineHeights = Sequence[float | None]
Side = Literal["top", "bottom"]
_SIDES: Final[tuple[Side, ...]] = ("top", "bottom")


def is_legal_heading(line: str) -> bool:
    """Whether ``line`` opens with a heading of Spanish legislation (``LEGAL_HEADINGS``)."""
    text = line.lstrip()
    return any(pattern.match(text) for pattern in LEGAL_HEADINGS)


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
    texts = [" ".join(line.text.split()) for line in lines]
    split = [_DIGITS.split(in_digits(text)) for text in texts]
    parts = [
        values[0] if index % 2 == 0 or len(set(values)) == 1 else "N"
        for index, values in enumerate(zip(*split, strict=True))
    ]
    return "".join(parts) if "N" in parts[1::2] else texts[0]


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


# -- reading the pages ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Line:
    """A non-blank line of a page."""

    page: int
    start: int
    end: int
    text: str
    height: float | None
    keys: tuple[str, ...]

    def removed(self) -> FurnitureLine:
        return FurnitureLine(self.page, self.start, self.end, self.text)


@dataclass(frozen=True, slots=True)
class _Page:
    """A page's non-blank lines in visual order (``by_height``) or in text order."""

    number: int
    lines: tuple[_Line, ...]
    by_height: bool
    count: int  # its non-blank lines (``lines`` leaves turned ones out)

    def outward(self, side: Side) -> tuple[_Line, ...]:
        """Every line from the ``side`` edge inwards."""
        return self.lines if side == "top" else self.lines[::-1]

    def edge(self, side: Side, edge_lines: int) -> tuple[_Line, ...]:
        """The ``edge_lines`` lines at the ``side`` edge, outermost first."""
        return self.outward(side)[:edge_lines]

    def inside(self, edge_lines: int) -> tuple[_Line, ...]:
        """The lines at neither edge."""
        return self.lines[edge_lines : max(edge_lines, len(self.lines) - edge_lines)]


def _split_lines(text: str) -> Iterator[tuple[int, int, int, str]]:
    """``(index, start, end, line)`` of every line; ``end`` after its line break."""
    start = 0
    for index, line in enumerate(text.split("\n")):
        end = start + len(line)
        yield index, start, min(end + 1, len(text)), line
        start = end + 1


def _page(page: LoadedPage, heights: LineHeights) -> _Page:
    lines = [
        _Line(
            page.page,
            start,
            end,
            line,
            heights[index] if index < len(heights) else None,
            running_keys(line, page.page),
        )
        for index, start, end, line in _split_lines(page.text)
        if line.strip()
    ]
    placed = [line for line in lines if line.height is not None]
    if not placed:
        return _Page(page.page, tuple(lines), False, len(lines))
    # Top to bottom; lines side by side keep their text order. A line without a height
    # (turned text) is left out: never furniture, it does not hide what stands beyond.
    placed.sort(key=lambda line: -(line.height or 0.0))
    return _Page(page.page, tuple(placed), True, len(lines))


def _place(page: _Page, side: Side, rank: int, line: _Line) -> tuple[str, int]:
    """Where a line stands: its height to the point, or its rank from its edge."""
    if page.by_height and line.height is not None:
        return "height", round(line.height)
    return side, rank


# -- the rule ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Share:
    """Whether a set of pages is "most pages": of all pages with text, or of one parity."""

    totals: tuple[tuple[int | None, int], ...]
    min_pages: int

    @classmethod
    def of(cls, pages: Sequence[_Page], min_pages: int) -> _Share:
        counted = [page.number for page in pages if page.lines]
        totals = tuple(
            (parity, sum(1 for n in counted if parity is None or n % 2 == parity))
            for parity in (None, 0, 1)
        )
        return cls(totals, min_pages)

    def most(self, numbers: set[int]) -> bool:
        """At least half of all pages with text, or of one parity's when (nearly) all the
        pages are of that parity: a header that alternates."""
        if len(numbers) < self.min_pages:
            return False
        for parity, total in self.totals:
            of_parity = sum(1 for n in numbers if parity is None or n % 2 == parity)
            alternates = parity is None or of_parity >= _PARITY_SHARE * len(numbers)
            if total and alternates and of_parity >= _MIN_SHARE * total:
                return True
        return False


def _running(
    pages: Sequence[_Page], share: _Share, edge_lines: int, min_pages: int
) -> frozenset[str]:
    """The keys that stand at one place at an edge of most pages, less the document's own
    lines (design note, 1 and 2)."""
    where: dict[tuple[str, tuple[str, int]], set[int]] = defaultdict(set)
    for page in pages:
        for side in _SIDES:
            for rank, line in enumerate(page.edge(side, edge_lines)):
                for key in line.keys:
                    where[(key, _place(page, side, rank, line))].add(page.number)
    inside = {
        key
        for page in pages
        if not page.by_height
        for line in page.inside(edge_lines)
        for key in line.keys
    }

    def pages_at(key: str, place: tuple[str, int]) -> set[int]:
        kind, value = place
        if kind != "height":
            return where[(key, place)]
        return set().union(*(where.get((key, (kind, value + d)), set()) for d in (-1, 0, 1)))

    heights: dict[str, set[int]] = defaultdict(set)  # where each running key runs
    for key, place in list(where):
        if key not in inside and share.most(pages_at(key, place)):
            kind, value = place
            heights[key].update({value} if kind == "height" else ())
    return frozenset(heights) - _own_in_body(pages, heights, min_pages)


def _own_in_body(pages: Sequence[_Page], heights: dict[str, set[int]], min_pages: int) -> set[str]:
    """The running keys (``heights``: where each runs) that are the document's own lines:
    some page holds one away from where it runs or with body above and below it, and
    where it runs is inside the body's area (design note, 2)."""
    keys = frozenset(heights)
    near = {key: {h + d for h in values for d in (-1, 0, 1)} for key, values in heights.items()}
    area = _area(pages, keys, set().union(*near.values()), min_pages)
    if area is None:
        return set()
    own: set[str] = set()
    for page in pages:
        if not page.by_height:
            continue
        body = [index for index, line in enumerate(page.lines) if keys.isdisjoint(line.keys)]
        for index, line in enumerate(page.lines):
            inside = bool(body) and body[0] < index < body[-1]
            own.update(
                key
                for key in keys.intersection(line.keys)
                if heights[key] and (inside or round(line.height or 0.0) not in near[key])
            )
    low, high = area
    return {key for key in own if all(low - 1 <= h <= high + 1 for h in heights[key])}


def _area(
    pages: Sequence[_Page], keys: frozenset[str], running: set[int], min_pages: int
) -> tuple[float, float] | None:
    """The lowest and highest heights of the lines that hold no key of ``keys``: where the
    body stands. A page's outermost line is left out at a height of ``running`` where
    such outermost lines stand on ``min_pages`` pages: a running title."""
    body = [
        (line, index in (0, len(page.lines) - 1))
        for page in pages
        if page.by_height
        for index, line in enumerate(page.lines)
        if line.height is not None and keys.isdisjoint(line.keys)
    ]
    at: dict[int, set[int]] = defaultdict(set)
    for line, outermost in body:
        if outermost and round(line.height or 0.0) in running:
            at[round(line.height or 0.0)].add(line.page)
    titles = {height for height, numbers in at.items() if len(numbers) >= min_pages}
    placed = [
        line.height or 0.0
        for line, outermost in body
        if not (outermost and round(line.height or 0.0) in titles)
    ]
    return (min(placed), max(placed)) if placed else None


def _spaced_step(pages: Sequence[_Page]) -> float | None:
    """The line step of pages with margins, ``None`` when every page with heights has
    its lines evenly spaced (no gap ``_EVEN`` steps wide): then no margin to go by."""
    step = _step(pages)
    if step is None:
        return None
    for page in pages:
        if page.by_height and max(_gaps(page, "top"), default=0.0) >= _EVEN * step:
            return step
    return None


def _step(pages: Sequence[_Page]) -> float | None:
    """The body's line step, in points: the lower quartile of the gaps between a page's
    lines (short pages would have their margins weigh in a median)."""
    steps = [
        upper - lower
        for page in pages
        if page.by_height
        for upper, lower in pairwise(
            sorted({round(line.height or 0.0, 1) for line in page.lines}, reverse=True)
        )
    ]
    if len(steps) < 4:
        return min(steps, default=None)
    return statistics.quantiles(steps, n=4)[0]


def _gaps(page: _Page, side: Side) -> list[float]:
    """From the ``side`` edge inwards, the gap after each line (to the next one)."""
    outward = page.outward(side)
    return [abs((a.height or 0.0) - (b.height or 0.0)) for a, b in pairwise(outward)]


def _peel(
    page: _Page,
    side: Side,
    furniture: Callable[[_Line], bool],
    edge_lines: int,
    step: float | None,
) -> tuple[_Line, ...]:
    """The furniture at one edge: its lines from the edge inwards while ``furniture``
    holds, up to the page's margin when its lines are not evenly spaced."""
    run = tuple(takewhile(furniture, page.edge(side, edge_lines)))
    if not run or not page.by_height or step is None or len(run) == len(page.lines):
        return run
    gaps = _gaps(page, side)
    widest = max(range(len(run)), key=lambda index: (gaps[index], index))
    return run[: widest + 1] if gaps[widest] >= MARGIN_STEPS * step else ()


def _bands(pages: Sequence[_Page], found: Sequence[_Line], min_pages: int) -> set[int]:
    """Heights (whole points) where furniture was found on ``min_pages`` pages, above or
    below every other line but the outermost one left at each edge of a page, and where
    other lines stand on ``min_pages`` pages without that furniture (design note, 4)."""
    where = _found_at(found)
    left = _left(pages, found)
    others = [line.height for lines in left for line in lines[1:-1] if line.height is not None]
    if not others:
        return set()
    low, high = min(others), max(others)
    at: dict[int, set[int]] = defaultdict(set)  # the pages of the lines left at each height
    for line in (line for lines in left for line in lines if line.height is not None):
        at[round(line.height or 0.0)].add(line.page)
    return {
        height
        for height, numbers in where.items()
        if len(numbers) >= min_pages
        and (height > high + 1 or height < low - 1)
        and len(set().union(*(at.get(height + d, set()) for d in (-1, 0, 1))) - numbers)
        >= min_pages
    }


def _found_at(found: Sequence[_Line]) -> dict[int, set[int]]:
    """The pages where furniture was found at each height (whole points)."""
    where: dict[int, set[int]] = defaultdict(set)
    for line in found:
        if line.height is not None:
            where[round(line.height)].add(line.page)
    return where


def _left(pages: Sequence[_Page], found: Sequence[_Line]) -> list[list[_Line]]:
    """The lines of each page with heights that ``found`` leaves, in visual order."""
    removed = {(line.page, line.start) for line in found}
    return [
        [line for line in page.lines if (line.page, line.start) not in removed]
        for page in pages
        if page.by_height
    ]


def _changed_titles(
    pages: Sequence[_Page], found: Sequence[_Line], titles: Sequence[OutlineEntry], min_pages: int
) -> list[_Line]:
    """Running titles that changed too late to repeat: a page's outermost line, at a
    height where furniture stands on ``min_pages`` pages and no other line does, that
    is the title of an outline entry on an earlier page (the section in force, named
    in the header of its pages: on the last page only, it repeats nowhere)."""
    heights = {h for h, numbers in _found_at(found).items() if len(numbers) >= min_pages}
    left = _left(pages, found)
    inner = [line.height for lines in left for line in lines[1:-1] if line.height is not None]
    if not heights or not inner:
        return []
    low, high = min(inner), max(inner)
    earlier: dict[str, int] = {}
    for entry in titles:
        if entry.title and entry.page is not None:
            key = fold(entry.title)[0]
            earlier[key] = min(entry.page, earlier.get(key, entry.page))
    outermost = [line for lines in left if lines for line in {lines[0], lines[-1]}]
    return [
        line
        for line in outermost
        if _in_band(line, heights)
        and not low - 1 <= (line.height or 0.0) <= high + 1
        and earlier.get(fold(line.text)[0], line.page) < line.page
        and not is_legal_heading(line.text)
    ]


def _in_band(line: _Line, bands: set[int]) -> bool:
    if line.height is None:
        return False
    near = round(line.height)
    return bool({near - 1, near, near + 1} & bands)


def _found(
    pages: Sequence[_Page],
    furniture: Callable[[_Line], bool],
    edge_lines: int,
    step: float | None,
) -> list[_Line]:
    found: dict[tuple[int, int], _Line] = {}
    for page in pages:
        for side in _SIDES:
            for line in _peel(page, side, furniture, edge_lines, step):
                found[(line.page, line.start)] = line
    return sorted(found.values(), key=lambda line: (line.page, line.start))


def _starts_in(title: str, folded: str) -> bool:
    """Whether the start of ``title`` (folded) is in ``folded``: it may stand there."""
    key = fold(title)[0][:_TITLE_START]
    return bool(key) and key in folded


def _keep_titles(
    pages: Sequence[LoadedPage], lines: list[FurnitureLine], titles: Sequence[OutlineEntry]
) -> list[FurnitureLine]:
    """``lines`` less those that hold an outline title located nowhere else."""
    removed: dict[int, str] = defaultdict(str)
    for line in lines:
        removed[line.page] += fold(line.text)[0]
    lost = [
        entry
        for entry in locate_titles(Furniture(tuple(lines)).remove(pages), titles).unlocated
        if entry.page is not None and _starts_in(entry.title, removed.get(entry.page, ""))
    ]
    if not lost:
        return lines
    kept: set[tuple[int, int]] = set()
    for start in locate_titles(pages, lost).starts:
        end_page, end = start.title_end or (start.page, start.offset + 1)
        for line in lines:
            after_start = (line.page, line.end) > (start.page, start.offset)
            before_end = (line.page, line.start) < (end_page, end)
            if after_start and before_end:
                kept.add((line.page, line.start))
    return [line for line in lines if (line.page, line.start) not in kept]


def find_furniture(
    pages: Sequence[LoadedPage],
    line_heights: Sequence[LineHeights] | None = None,
    *,
    titles: Sequence[OutlineEntry] = (),
    edge_lines: int = EDGE_LINES,
    min_pages: int = MIN_PAGES,
) -> Furniture:
    """The running headers and footers of a document's pages (see ``docs/design/pdf.md``).

    Args:
        pages: One document's pages, as extracted.
        line_heights: Per page, the height on the page of each line of
            ``page.text.split("\\n")`` (``None`` where unknown); without it lines are
            placed by their order, and no running title is found.
        titles: The document's outline entries: a line holding one that could be
            located nowhere else is kept.
        edge_lines: Non-blank lines at each edge of a page where furniture may stand.
        min_pages: The fewest pages a furniture line must repeat on.

    Returns:
        The lines to remove; ``Furniture().lines == ()`` when there are none.
    """
    heights: Sequence[LineHeights] = line_heights or [() for _ in pages]
    read = [_page(page, height) for page, height in zip(pages, heights, strict=True)]
    share = _Share.of(read, min_pages)
    if share.totals[0][1] < min_pages:
        return Furniture()
    running = _running(read, share, edge_lines, min_pages)
    step = _spaced_step(read)

    def repeated(line: _Line) -> bool:
        return not running.isdisjoint(line.keys) and not is_legal_heading(line.text)

    def repeated_or_in_band(line: _Line) -> bool:
        return repeated(line) or (_in_band(line, bands) and not is_legal_heading(line.text))

    bands: set[int] = set()
    found = _found(read, repeated, edge_lines, step)
    bands = _bands(read, found, min_pages)
    if bands:
        found = _found(read, repeated_or_in_band, edge_lines, step)
    text_lines = sum(page.count for page in read)
    if len(found) > _MAX_SHARE * text_lines:  # a form repeated page after page
        return Furniture()
    if titles:
        found = sorted(
            [*found, *_changed_titles(read, found, titles, min_pages)],
            key=lambda line: (line.page, line.start),
        )
    lines = [line.removed() for line in found]
    if titles:
        lines = _keep_titles(pages, lines, titles)
    return Furniture(tuple(lines))
