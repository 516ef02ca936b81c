"""Paragraphs, not printed lines: a PDF's pages read as its reader reads them.

Each page's lines (furniture already removed) are read with their layout
(``pdf.layout``): a line that runs on in the same paragraph (``pdf.typesetting``) is
joined to it by a space, or by nothing after a hyphen that splits a word; paragraphs
stay one a line, so a page's text becomes its paragraphs joined by line breaks, blank
lines gone. A paragraph that runs on at the top of the next page leaves its page ending
with a space (the page break is then a wrapped line, no paragraph break, for any page
separator); each page keeps its own text, so page ranges stay exact. Inside a line,
markers drawn after their item go back before it and footnote markers are parted from
their word (``pdf.inline``).

A hyphen at a line's end before a lower-case letter splits a word when the word without
it is found elsewhere in the document and the hyphenated form is not ("conside-" +
"rados": "considerados"); a compound keeps it ("Decreto-" + "ley": "Decreto-ley"), and so
does a hyphen in doubt, or at a page's end. A soft hyphen (U+00AD) always goes. Every
hyphen removed is reported, and so is every footnote marker parted.

The outline knows better than the layout: a line that opens one of its titles starts a
paragraph (not one in lower case without an item label: it runs on in its sentence), and a
paragraph whose text is one of its titles ends there (``titled``: a
title set in the body's size and weight, "Artículo 1. Rentas del capital", is still a
heading, not the first words of the paragraph below it).

What the layout cannot read is left as it was: a page without layout (layout-mode
extraction, a loader's pages) keeps its text, and a line without one (turned text) is a
paragraph of its own. Every non-blank character of a page stays, but for the hyphens
reported.

Pure functions over pages and layouts. More: ``docs/design/pdf.md``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from langchain_asesoria.models import LoadedPage
from langchain_asesoria.pdf.inline import edit_line, note_marks
from langchain_asesoria.pdf.layout import LineLayout
from langchain_asesoria.pdf.typesetting import Paragraph, Typesetting, text_runs_on
from langchain_asesoria.structure.leads import label_style

#: A word split at a line's end: letters, then a hyphen (any of the usual three).
_SPLIT: Final = re.compile(r"(\w+)([-\u00ad\u2010])\Z")
#: A line ending in a hyphen right after a letter or digit: joined with no space.
_HYPHENATED: Final = re.compile(r"\w[-\u00ad\u2010]\Z")
_FIRST_WORD: Final = re.compile(r"\w+")
_WORDS: Final = re.compile(r"\w+(?:-\w+)?")

#: Each line of a page with its layout and its line number in the page as extracted
#: (from 1; ``None`` for a line reading added).
NumberedLayout = tuple[tuple[LineLayout | None, int | None], ...]


@dataclass(frozen=True, slots=True)
class Block:
    """A paragraph of a page as read: where it lies in the page's new text, its setting.

    Attributes:
        page: The page number.
        start: Its first character's offset in the page's text.
        end: After its last character.
        size: The size most of its characters are set in.
        bold: Whether all of it is bold.
        lines: How many printed lines it joins.
    """

    page: int
    start: int
    end: int
    size: float
    bold: bool
    lines: int


@dataclass(frozen=True, slots=True)
class ReadLine:
    """A place where reading changed a printed line, for the report.

    Attributes:
        page: The page number.
        line: The line in the page as extracted, from 1 (``None``: unknown).
        text: What was there: the word and its hyphen ("conside-rados"), or the word
            and the footnote marker glued to it ("económico1").
    """

    page: int
    line: int | None
    text: str


@dataclass(frozen=True, slots=True)
class Reflowed:
    """Pages read as paragraphs (module docstring), and what reading changed.

    Attributes:
        pages: The pages, numbers and sources kept.
        blocks: Every paragraph with a layout, in text order.
        typesetting: The document's body size and line steps.
        joined: Line breaks inside a paragraph that became a space or went.
        continued: Pages whose last paragraph runs on at the top of the next page.
        hyphens: Hyphens removed from a word split at a line's end.
        footnotes: Footnote markers parted from the word they follow.
        markers: List markers drawn after their item put back before it.
    """

    pages: tuple[LoadedPage, ...]
    blocks: tuple[Block, ...] = ()
    typesetting: Typesetting = field(default_factory=Typesetting)
    joined: int = 0
    continued: tuple[int, ...] = ()
    hyphens: tuple[ReadLine, ...] = ()
    footnotes: tuple[ReadLine, ...] = ()
    markers: int = 0


def kept_layout(
    extracted: str,
    layout: Sequence[LineLayout | None],
    removed: Sequence[int],
    cleaned: str,
) -> NumberedLayout | None:
    """The layout of each line of ``cleaned`` (the page's text ``extracted`` without the
    lines starting at the offsets ``removed``, furniture), with its line number in
    ``extracted``; ``None`` when the layout does not describe ``extracted`` line by line."""
    lines = extracted.split("\n")
    if len(layout) != len(lines):
        return None
    gone = {extracted.count("\n", 0, start) for start in removed}
    kept: list[tuple[LineLayout | None, int | None]] = [
        (layout[i], i + 1) for i in range(len(lines)) if i not in gone
    ]
    texts = [lines[i] for i in range(len(lines)) if i not in gone]
    left = cleaned.split("\n")
    if len(left) == len(kept) + 1 and left[-1] == "":  # the page's last line went
        kept.append((None, None))
        texts.append("")
    return tuple(kept) if left == texts else None


@dataclass(slots=True)
class _Vocabulary:
    """The document's words, to tell a split word from a compound at a line's end."""

    words: set[str]
    compounds: set[str]

    @classmethod
    def of(cls, pages: Sequence[LoadedPage]) -> _Vocabulary:
        words: set[str] = set()
        compounds: set[str] = set()
        for page in pages:
            for found in _WORDS.findall(page.text.casefold()):
                (compounds if "-" in found else words).add(found)
        return cls(words, compounds)

    def joiner(self, before: str, after: str) -> tuple[str, bool]:
        """How ``before`` (a line ending in a hyphen after a letter) joins ``after``:
        the text kept of ``before``, and whether a hyphen went."""
        split = _SPLIT.search(before)
        first = _FIRST_WORD.match(after)
        if split is None or first is None or not after[:1].islower():
            return before, False
        head, hyphen = split.group(1), split.group(2)
        word = f"{head}{first.group()}".casefold()
        joined_form = f"{head}-{first.group()}".casefold()
        if hyphen == "\u00ad" or (word in self.words and joined_form not in self.compounds):
            return before[:-1], True
        return before, False


@dataclass(slots=True)
class _Line:
    text: str
    layout: LineLayout | None
    number: int | None


@dataclass(slots=True)
class _Open:
    """The paragraph being read: its lines' texts so far, its edges, its blocks' data."""

    parts: list[str]
    paragraph: Paragraph | None
    layouts: list[LineLayout]
    last: _Line


@dataclass(slots=True)
class _Reader:
    """Reads a document's pages in order (mutable, local to one ``reflow`` call)."""

    typesetting: Typesetting
    vocabulary: _Vocabulary
    titled: Callable[[str, bool], bool]
    texts: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    joined: int = 0
    continued: list[int] = field(default_factory=list)
    hyphens: list[ReadLine] = field(default_factory=list)
    footnotes: list[ReadLine] = field(default_factory=list)
    markers: int = 0
    carried: _Open | None = None  # the last paragraph of the page before

    def page(self, page: LoadedPage, layout: NumberedLayout | None) -> str:
        """The page's new text (the page before may gain its trailing space)."""
        if layout is None:
            self.carried = None
            return page.text
        lines = self._lines(page, layout)
        paragraphs: list[str] = []
        current: _Open | None = None
        for line in lines:
            if current is None and self.carried is not None and self._runs_on_page(line):
                self.continued.append(page.page - 1)
                self.texts[-1] += " "
                self.joined += 1
                current = _Open([line.text.strip()], self.carried.paragraph, [], line)
                self._add_layout(current, line)
                if current.paragraph is not None and line.layout is not None:
                    current.paragraph.add(line.layout)
            elif current is not None and self._runs_on(current, line, page.page):
                continue
            else:
                if current is not None:
                    paragraphs.append(self._close(current, page.page, paragraphs))
                current = self._open(line)
            self.carried = None
        if current is not None:
            paragraphs.append(self._close(current, page.page, paragraphs))
        self.carried = current if current is not None and current.paragraph else None
        return "\n".join(paragraphs)

    def _lines(self, page: LoadedPage, layout: NumberedLayout) -> list[_Line]:
        texts = page.text.split("\n")
        pairs = [(text, item[0]) for text, item in zip(texts, layout, strict=True)]
        notes = note_marks(pairs, self.typesetting.body_size)
        lines = []
        for text, (line_layout, number) in zip(texts, layout, strict=True):
            if not text.strip():
                continue
            if line_layout is not None:
                edited = edit_line(text, line_layout, notes)
                self.markers += edited.moved
                self.footnotes += [ReadLine(page.page, number, word) for word in edited.footnotes]
                text = edited.text
            lines.append(_Line(text, line_layout, number))
        return lines

    def _open(self, line: _Line) -> _Open:
        layout = line.layout
        paragraph = None
        if layout is not None:
            opening = line.text.lstrip()
            paragraph = Paragraph(layout, item=label_style(opening) is not None)
        found = _Open([line.text.strip()], paragraph, [], line)
        self._add_layout(found, line)
        return found

    @staticmethod
    def _add_layout(current: _Open, line: _Line) -> None:
        if line.layout is not None:
            current.layouts.append(line.layout)

    def _continues(self, current: _Open, line: _Line) -> bool:
        a, b, paragraph = current.last.layout, line.layout, current.paragraph
        if a is None or b is None or paragraph is None:
            return False
        if not self.typesetting.same_style(a, b) or not paragraph.aligned(b):
            return False
        if not text_runs_on(current.last.text, line.text):
            return False
        return not (
            _opens_title(line.text, self.titled) or self.titled(" ".join(current.parts), True)
        )

    def _runs_on(self, current: _Open, line: _Line, page: int) -> bool:
        """Joins ``line`` to the paragraph when it runs on in it; whether it did."""
        a, b = current.last.layout, line.layout
        if a is None or b is None or not self.typesetting.next_line(a, b):
            return False
        if not self._continues(current, line):
            return False
        self._join(current, line, page)
        current.layouts.append(b)
        return True

    def _join(self, current: _Open, line: _Line, page: int) -> None:
        """Adds ``line`` to the paragraph: after a space, or after nothing when the line
        before ends in a hyphen (removed, and reported, when it splits a word)."""
        before, opening = current.parts[-1], line.text.strip()
        glued = not current.last.text[-1:].isspace() and _HYPHENATED.search(before) is not None
        if glued and opening[:1].isalnum():
            kept, removed = self.vocabulary.joiner(before, opening)
            if removed:
                head = before.rsplit(maxsplit=1)[-1]
                first = _FIRST_WORD.match(opening)
                word = f"{head}{first.group() if first else ''}"
                self.hyphens.append(ReadLine(page, current.last.number, word))
            current.parts[-1] = kept
            current.parts.append(opening)
        else:
            current.parts.append(f" {opening}")
        if current.paragraph is not None and line.layout is not None:
            current.paragraph.add(line.layout)
        current.last = line
        self.joined += 1

    def _runs_on_page(self, line: _Line) -> bool:
        """Whether the first line of a page runs on in the last paragraph of the page
        before (no line step to measure across a page break: style, edge and text, and
        the text must say so: the line opens in lower case, or the one before ends in a
        hyphen; a running footer left in, "Página 1", does not run on)."""
        carried = self.carried
        if carried is None:
            return False
        opening = line.text.lstrip()[:1]
        said = opening.islower() or _HYPHENATED.search(carried.last.text.rstrip()) is not None
        return said and self._continues(carried, line)

    def _close(self, current: _Open, page: int, paragraphs: Sequence[str]) -> str:
        text = "".join(current.parts)
        if current.layouts:
            start = sum(len(p) + 1 for p in paragraphs)
            self.blocks.append(_block(page, start, start + len(text), current.layouts))
        return text


def _opens_title(text: str, titled: Callable[[str, bool], bool]) -> bool:
    """Whether a line opens one of the outline's titles: never a line in lower case
    without an item label ("rendimientos del capital." after "se califiquen como"), which
    runs on in its sentence whatever title its words would open once folded."""
    opening = text.lstrip()
    if opening[:1].islower() and label_style(opening) is None:
        return False
    return titled(text, False)


def _block(page: int, start: int, end: int, layouts: Sequence[LineLayout]) -> Block:
    weights: dict[float, int] = {}
    for layout in layouts:
        for piece in layout.pieces:
            weights[piece.size] = weights.get(piece.size, 0) + piece.end - piece.start
    size = max(weights, key=lambda s: (weights[s], s))
    return Block(page, start, end, size, all(layout.bold for layout in layouts), len(layouts))


def _no_title(text: str, whole: bool) -> bool:
    return False


def reflow(
    pages: Sequence[LoadedPage],
    layouts: Sequence[NumberedLayout | None],
    titled: Callable[[str, bool], bool] = _no_title,
) -> Reflowed:
    """``pages`` read as paragraphs (module docstring).

    Args:
        pages: One document's pages, in order, furniture removed.
        layouts: Per page, the layout of each of its lines with its line number as
            extracted (``kept_layout``); ``None`` for a page read as it is.
        titled: ``titled(text, whole)``: whether ``text`` opens one of the outline's
            titles (``whole=False``) or is one whole (``whole=True``): such a line starts
            a paragraph and such a paragraph ends (``pdf.titles.TitleLines``).

    Invariant: every page keeps its number and source, and every non-blank character
    of its text but the hyphens in ``hyphens``.
    """
    typesetting = Typesetting.of(
        [line for line, _ in layout] for layout in layouts if layout is not None
    )
    reader = _Reader(typesetting, _Vocabulary.of(pages), titled)
    for page, layout in zip(pages, layouts, strict=True):
        reader.texts.append(reader.page(page, layout))
    return Reflowed(
        tuple(replace(page, text=text) for page, text in zip(pages, reader.texts, strict=True)),
        tuple(reader.blocks),
        typesetting,
        reader.joined,
        tuple(reader.continued),
        tuple(reader.hyphens),
        tuple(reader.footnotes),
        reader.markers,
    )
