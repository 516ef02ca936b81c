"""Outline titles located in the pages' text: where each outline section starts.

More: ``docs/design/pdf.md``.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Final

from langchain_asesoria.models import LoadedPage, SectionSpan
from langchain_asesoria.pages import join_pages
from langchain_asesoria.pdf.headings import (
    SUBTITLE_LINES,
    TitleEvent,
    TypesetHeading,
    place_headings,
    subtitle_end,
    typeset_headings,
)
from langchain_asesoria.pdf.outline import OutlineEntry
from langchain_asesoria.pdf.paragraphs import Block
from langchain_asesoria.pdf.typesetting import SIZE_TOLERANCE
from langchain_asesoria.structure.anchors import SectionStart, section_spans
from langchain_asesoria.structure.legal import legal_paths

#: What may stand before a title on its line: numbering and bullets, nothing else.
_LEAD: Final = re.compile(
    r"[\W\d_]*(?:(?:[IVXLCDM]+|[ivxlcdm]+|[A-Za-z])[.)ºª°]?[\W\d_]*)?", re.UNICODE
)
_MAX_LEAD: Final = 12
_JOIN: Final = "\n"


@dataclass(frozen=True, slots=True)
class LocatedOutline:
    """The sections an outline gives a document, and what could not be located.

    Invariant: ``starts`` are in text order, at distinct positions.

    Attributes:
        starts: Where each located section starts (folded sections merged).
        unlocated: Entries without a page in the document, or whose title was not
            found on it, in outline order.
        entries: How many entries the outline has.
        typeset: How many typeset headings (``pdf.headings``) became sections.
        unplaced: Typeset headings the layout could not place under the outline (before
            its first title, or set no smaller than every title open), in text order;
            their text stays in the section before them.
    """

    starts: tuple[SectionStart, ...] = ()
    unlocated: tuple[OutlineEntry, ...] = ()
    entries: int = 0
    typeset: int = 0
    unplaced: tuple[TypesetHeading, ...] = ()

    @property
    def located(self) -> int:
        """Entries located (folded ones included)."""
        return self.entries - len(self.unlocated)


@dataclass(frozen=True, slots=True)
class Typeset:
    """What a PDF's layout sets apart (``ParagraphReport.typeset``): its paragraphs set
    all in bold at its body's size or larger, and the body's size."""

    blocks: tuple[Block, ...]
    body_size: float


#: Folded characters a line must hold to open a title (``TitleLines``): a shorter line
#: ("1.", "a)") opens too many.
_TITLE_OPENING: Final = 8


@dataclass(frozen=True, slots=True)
class TitleLines:
    """An outline's titles, folded, to tell a line that opens one or a paragraph that is
    one (``pdf.paragraphs.reflow``'s ``titled``).

    ``titles``: the folded titles; ``openings``: each title's first ``_TITLE_OPENING``
    folded characters, so a line is compared with the few titles it may open only.
    """

    titles: frozenset[str]
    openings: Mapping[str, tuple[str, ...]]

    @classmethod
    def of(cls, titles: Iterable[str]) -> TitleLines:
        """The lines of these titles (those that fold to at least ``_TITLE_OPENING``)."""
        folded = {fold(title)[0] for title in titles}
        kept = {title for title in folded if len(title) >= _TITLE_OPENING}
        openings: dict[str, list[str]] = {}
        for title in sorted(kept):
            openings.setdefault(title[:_TITLE_OPENING], []).append(title)
        return cls(frozenset(kept), {key: tuple(found) for key, found in openings.items()})

    def __call__(self, text: str, whole: bool) -> bool:
        """Whether ``text`` is a title (``whole``) or opens one."""
        if not self.titles or (whole and len(text) > _MAX_TITLE):
            return False
        if _opening(text) not in self.openings:
            return False  # most lines: their first words open no title
        folded = fold(text)[0]
        if whole:
            return folded in self.titles
        if len(folded) < _TITLE_OPENING:
            return False
        return any(t.startswith(folded) for t in self.openings.get(folded[:_TITLE_OPENING], ()))


#: Characters past which a paragraph is no title (a bound, to fold no long paragraph).
_MAX_TITLE: Final = 400


def _opening(text: str) -> str:
    """The first ``_TITLE_OPENING`` folded characters of ``text`` (fewer when it has
    fewer), folding only as much of it as they need."""
    opening = ""
    for char in text:
        opening += _fold_char(char)
        if len(opening) >= _TITLE_OPENING:
            return opening[:_TITLE_OPENING]
    return opening


@cache
def _fold_char(char: str) -> str:
    """One character folded (``fold``): a pure function of the character, memoised."""
    decomposed = unicodedata.normalize("NFKD", char)
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(c for c in kept.casefold() if c.isalnum())


def fold(text: str) -> tuple[str, tuple[int, ...]]:
    """``text`` folded for comparison, and the offset in ``text`` of each folded character.

    Folded text keeps letters and digits only, without accents, case folded:
    ``fold("Sección 1.ª")[0] == "seccion1a"``.
    """
    chars: list[str] = []
    where: list[int] = []
    for position, char in enumerate(text):
        folded = _fold_char(char)
        chars.append(folded)
        if len(folded) == 1:
            where.append(position)
        elif folded:
            where.extend([position] * len(folded))
    return "".join(chars), tuple(where)


@dataclass(frozen=True, slots=True)
class _Match:
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class _Text:
    """The pages joined by a newline, folded, with page bounds in both coordinates."""

    text: str
    folded: str
    where: tuple[int, ...]
    page_starts: tuple[int, ...]
    page_numbers: tuple[int, ...]
    folded_starts: tuple[int, ...]

    @classmethod
    def of(cls, pages: Sequence[LoadedPage]) -> _Text:
        joined = join_pages(pages, _JOIN)
        folded, where = fold(joined.text)
        starts = tuple(
            _folded_index(where, start) for start in (*joined.page_starts, len(joined.text))
        )
        return cls(joined.text, folded, where, joined.page_starts, joined.page_numbers, starts)

    def page_index(self, number: int) -> int | None:
        index = bisect_right(self.page_numbers, number) - 1
        return index if index >= 0 and self.page_numbers[index] == number else None

    def candidates(self, key: str, index: int, after: int) -> list[_Match]:
        """Valid matches of ``key`` starting on page ``index`` at or after ``after``."""
        found: list[_Match] = []
        first = max(self.folded_starts[index], _folded_index(self.where, after))
        limit = self.folded_starts[index + 1]
        position = self.folded.find(key, first)
        while 0 <= position < limit:
            start = self.where[position]
            end = self.where[position + len(key) - 1] + 1
            line = self._line_start(start)
            if line is not None and self._whole_words(start, end):
                found.append(_Match(line, end))
            position = self.folded.find(key, position + 1)
        return found

    def _line_start(self, start: int) -> int | None:
        """Where the heading line of a title at ``start`` begins, if it is one."""
        line = self.text.rfind("\n", 0, start) + 1
        lead = self.text[line:start]
        return line if len(lead) <= _MAX_LEAD and _LEAD.fullmatch(lead) is not None else None

    def _whole_words(self, start: int, end: int) -> bool:
        text = self.text
        inside_before = start > 0 and text[start - 1].isalnum() and text[start].isalnum()
        inside_after = end < len(text) and text[end].isalnum() and text[end - 1].isalnum()
        return not (inside_before or inside_after)

    def position(self, page: int, offset: int) -> int | None:
        """The position in the joined text of ``offset`` of page number ``page``."""
        index = self.page_index(page)
        return None if index is None else self.page_starts[index] + offset

    def start_of(self, position: int) -> tuple[int, int]:
        """``(page number, offset in the page)`` of a position of the joined text."""
        index = bisect_right(self.page_starts, position) - 1
        return self.page_numbers[index], position - self.page_starts[index]


def _folded_index(where: Sequence[int], position: int) -> int:
    """The first folded character at or after ``position`` of the text."""
    return bisect_right(where, position - 1)


@dataclass(frozen=True, slots=True)
class _Located:
    match: _Match
    entry: OutlineEntry


def _locate(text: _Text, entry: OutlineEntry, after: int, taken: set[int]) -> _Match | None:
    key = fold(entry.title)[0]
    index = text.page_index(entry.page) if entry.page is not None else None
    if not key or index is None:
        return None
    page_start = text.page_starts[index]
    forward = after if page_start <= after else page_start
    for begin in dict.fromkeys((forward, page_start)):
        for match in text.candidates(key, index, begin):
            if match.start not in taken:
                return match
    return None


def _carried_path(carried: Sequence[OutlineEntry], entry: OutlineEntry) -> tuple[str, ...]:
    """``entry``'s path naming the bare titles carried into its section: after the
    ancestors the first of them shares with ``entry``, before the rest of the path."""
    path = entry.path
    extra = [title for title in dict.fromkeys(c.title for c in carried) if title not in path]
    if not extra:
        return path
    parents = carried[0].path[:-1]
    shared = 0
    while shared < min(len(parents), len(path) - 1) and parents[shared] == path[shared]:
        shared += 1
    return (*path[:shared], *extra, *path[shared:])


def _holds_text(segment: str) -> bool:
    """Whether ``segment`` has a letter or digit (not only spaces and punctuation)."""
    return any(char.isalnum() for char in segment)


def _line_end(text: str, end: int) -> int:
    """Where a title ending at ``end`` ends with its line: past the punctuation after it
    ("… del trabajador."), not past text."""
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    return end if _holds_text(text[end:line_end]) else line_end


def _by_rank(
    text: str, entries: Sequence[OutlineEntry], located: Sequence[_Located]
) -> list[_Located]:
    """The located entries, each path rebuilt by Spanish legal rank (``structure.legal``)
    over the whole outline, unlocated entries included (they still enclose what follows
    them): a flat BOE outline's articles under their TÍTULO and CAPÍTULO, its
    disposiciones under the law."""
    ordered = sorted(located, key=lambda item: item.match.start)
    ends = [item.match.start for item in ordered[1:]] + ([len(text)] if ordered else [])
    bare = {
        id(item.entry): not _holds_text(text[item.match.end : end])
        for item, end in zip(ordered, ends, strict=True)
    }
    paths = legal_paths(
        [entry.title for entry in entries],
        [len(entry.path) for entry in entries],
        [bare.get(id(entry), False) for entry in entries],
    )
    ranked = {id(entry): path for entry, path in zip(entries, paths, strict=True)}
    return [
        _Located(item.match, replace(item.entry, path=ranked[id(item.entry)])) for item in ordered
    ]


def _fold_bare(
    text: str, located: list[_Located], ranked: bool = False
) -> list[tuple[int, int, str, tuple[str, ...]]]:
    """``(start, title end, label, path)`` of each section in text order; a bare title
    travels with what follows it, or stays at the end of the section before (module
    docstring). With ``ranked`` paths (legal ranks) a carried title is named only when
    it encloses the section."""
    ordered = sorted(located, key=lambda item: item.match.start)
    starts: list[tuple[int, int, str, tuple[str, ...]]] = []
    carried: list[_Located] = []
    for item, following in zip(ordered, [*ordered[1:], None], strict=False):
        body_end = following.match.start if following is not None else len(text)
        bare = not _holds_text(text[item.match.end : body_end])
        shallower = following is None or len(following.entry.path) < len(item.entry.path)
        if bare and not carried and starts and shallower:
            continue
        if bare and following is not None:
            carried.append(item)
            continue
        first = carried[0] if carried else item
        path = item.entry.path if ranked else _carried_path([c.entry for c in carried], item.entry)
        starts.append((first.match.start, _line_end(text, item.match.end), item.entry.title, path))
        carried = []
    return starts


def _with_typeset(
    text: _Text, located: Sequence[_Located], typeset: Typeset
) -> tuple[list[_Located], list[TypesetHeading]]:
    """The located titles, each ending with its heading's block, and the typeset headings
    placed under them (``pdf.headings``); the headings that could not be placed."""
    positioned = [
        (position, block)
        for block in typeset.blocks
        if (position := text.position(block.page, block.start)) is not None
    ]
    body = typeset.body_size
    headings = typeset_headings(text.text, positioned, body)
    subtitles = sorted(
        (start, start + block.end - block.start)
        for start, block in positioned
        if abs(block.size - body) <= SIZE_TOLERANCE and block.lines <= SUBTITLE_LINES
    )
    starts = [start for start, _ in subtitles]
    taken: set[int] = set()
    titles: list[_Located] = []
    events: list[TitleEvent] = []
    for item in located:
        own = next((h for h in headings if h.start <= item.match.start < h.end), None)
        end = max(item.match.end, own.end) if own is not None else item.match.end
        if own is not None:
            taken.add(own.start)
        end = subtitle_end(text.text, end, subtitles, starts)
        titles.append(_Located(_Match(item.match.start, end), item.entry))
        events.append(TitleEvent(item.match.start, item.entry.path, own.size if own else None))
    placed, unplaced = place_headings(events, [h for h in headings if h.start not in taken])
    titles += [
        _Located(
            _Match(p.heading.start, subtitle_end(text.text, p.heading.end, subtitles, starts)),
            OutlineEntry(p.heading.title, p.path, p.heading.page),
        )
        for p in placed
    ]
    return titles, unplaced


def locate_titles(
    pages: Sequence[LoadedPage],
    entries: Sequence[OutlineEntry],
    *,
    legal: bool = False,
    typeset: Typeset | None = None,
) -> LocatedOutline:
    """Where each outline entry's section starts in ``pages`` (see the module docstring).

    Args:
        pages: One document's pages, in order, as they will be chunked (furniture
            already removed).
        entries: The outline's entries in outline order (``outline_entries``).
        legal: Rebuild the sections' paths by Spanish legal rank (``structure.legal``),
            whatever the outline's nesting says.
        typeset: The document's bold paragraphs: its typeset headings become sections
            too, under the outline's titles (``pdf.headings``), and each title's block
            ends after the short bold lines that follow it.

    Raises:
        InvalidPagesError: pages that are not one document's, in order.
    """
    text = _Text.of(pages)
    located: list[_Located] = []
    unlocated: list[OutlineEntry] = []
    taken: set[int] = set()
    after = 0
    for entry in entries:
        match = _locate(text, entry, after, taken)
        if match is None:
            unlocated.append(entry)
            continue
        taken.add(match.start)
        located.append(_Located(match, entry))
        after = match.end
    items = _by_rank(text.text, entries, located) if legal else located
    unplaced: list[TypesetHeading] = []
    if typeset is not None:
        found = len(items)
        items, unplaced = _with_typeset(text, items, typeset)
        placed = len(items) - found
    starts = tuple(
        SectionStart(*text.start_of(position), label, path, text.start_of(title_end))
        for position, title_end, label, path in _fold_bare(text.text, items, legal)
    )
    return LocatedOutline(
        starts,
        tuple(unlocated),
        len(entries),
        typeset=placed if typeset is not None else 0,
        unplaced=tuple(unplaced),
    )


def locate_sections(
    pages: Sequence[LoadedPage], entries: Sequence[OutlineEntry], separator: str = "\n\n"
) -> tuple[list[SectionSpan], tuple[OutlineEntry, ...]]:
    """The outline's sections as spans of the pages joined by ``separator``, and the
    entries that could not be located (``locate_titles`` then ``section_spans``)."""
    located = locate_titles(pages, entries)
    return section_spans(pages, located.starts, separator), located.unlocated
