"""Headings from the typography: paragraphs set apart by weight and size, placed under
the outline's entries at the level their size gives.

A PDF's outline names the first levels of a document; below them, a manual sets its
headings in bold, larger than its body ("Ejemplo: Imputación de rentas inmobiliarias",
"Solución"). A paragraph read from the layout (``pdf.paragraphs``) is a *typeset
heading* when it is set all in bold, larger than the body (``Typesetting.heading_style``),
in at most ``MAX_LINES`` printed lines. Its level is its size: it closes the headings
open before it that are set smaller, and the nearest one set in its own size (its
sibling), and goes under the heading left open, an outline entry or another typeset
heading, whose size is larger or unknown (an entry whose title is not a typeset
heading). Before the first outline title, or when every title open is set no larger
than it, it has no place in the outline: it is reported (``unplaced``), never guessed,
and its text stays in the section before it. A document without an outline gets its
typeset headings alone, nested by size.

A short paragraph set all in bold in the body's size right after a heading
("Normativa: Art. 22.2 Ley IRPF") is part of the heading's block: no chunk ends between
them, and a heading with nothing else before the next one travels with what follows it,
as a bare outline title does (``pdf.titles``).

Pure functions over positions of one text. More: ``docs/design/pdf.md``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from langchain_asesoria.pdf.paragraphs import Block
from langchain_asesoria.pdf.typesetting import BULLETS, SIZE_TOLERANCE

#: A typeset heading spans at most this many printed lines: a title wraps over a few, a
#: numbered statement set as a heading ("2. Los contribuyentes que hayan obtenido en el
#: ejercicio…", six lines in the 2023 Renta manual) over more; a passage set in bold
#: beyond this is emphasis, no heading to name a section after.
MAX_LINES: Final = 8
#: A bold paragraph in the body's size right after a heading belongs to the heading's
#: block when it spans at most this many printed lines.
SUBTITLE_LINES: Final = 2


@dataclass(frozen=True, slots=True)
class TypesetHeading:
    """A typeset heading where it lies in one text (``start``, ``end``), its page,
    size and title (its text)."""

    start: int
    end: int
    page: int
    size: float
    title: str


@dataclass(frozen=True, slots=True)
class TitleEvent:
    """An outline title located in the text: where it starts, its path (outermost
    first) and the size its heading is set in (``None``: unknown)."""

    start: int
    path: tuple[str, ...]
    size: float | None


@dataclass(frozen=True, slots=True)
class Placed:
    """A typeset heading and its path under the outline."""

    heading: TypesetHeading
    path: tuple[str, ...]


def typeset_headings(
    text: str, blocks: Sequence[tuple[int, Block]], body_size: float
) -> list[TypesetHeading]:
    """The typeset headings among ``blocks`` (each with where it starts in ``text``)."""
    found = []
    for start, block in blocks:
        if not block.bold or block.size <= body_size + SIZE_TOLERANCE or block.lines > MAX_LINES:
            continue
        end = start + block.end - block.start
        title = " ".join(text[start:end].split()).lstrip(BULLETS + " ")
        if any(char.isalnum() for char in title):
            found.append(TypesetHeading(start, end, block.page, block.size, title))
    return found


def subtitle_end(
    text: str, end: int, subtitles: Sequence[tuple[int, int]], starts: Sequence[int]
) -> int:
    """Where a heading ending at ``end`` ends with the short bold paragraphs in the
    body's size right after it (``subtitles``: their ``(start, end)``; ``starts``: their
    starts, ascending)."""
    while True:
        after = end
        while after < len(text) and text[after].isspace():
            after += 1
        index = bisect_left(starts, after)
        if index == len(starts) or starts[index] != after:
            return end
        end = subtitles[index][1]


def place_headings(
    titles: Sequence[TitleEvent], headings: Sequence[TypesetHeading]
) -> tuple[list[Placed], list[TypesetHeading]]:
    """Each typeset heading's path under the outline's ``titles`` (in text order), and
    the headings that have no place there (module docstring)."""
    outline = bool(titles)
    sizes = {title.path: title.size for title in titles}
    events = sorted(
        [(title.start, 0, index) for index, title in enumerate(titles)]
        + [(heading.start, 1, index) for index, heading in enumerate(headings)]
    )
    stack: list[tuple[float | None, tuple[str, ...]]] = []
    placed: list[Placed] = []
    unplaced: list[TypesetHeading] = []
    for _, kind, index in events:
        if kind == 0:
            path = titles[index].path
            stack = [(sizes.get(path[:depth]), path[:depth]) for depth in range(1, len(path) + 1)]
            continue
        heading = headings[index]
        _close(stack, heading.size)
        if not stack and outline:
            unplaced.append(heading)
            continue
        path = (*(stack[-1][1] if stack else ()), heading.title)
        stack.append((heading.size, path))
        placed.append(Placed(heading, path))
    return placed, unplaced


def _close(stack: list[tuple[float | None, tuple[str, ...]]], size: float) -> None:
    """Closes the open headings a heading of ``size`` ends: those set smaller, then the
    nearest set in its size; never one of unknown size."""
    while stack and (top := stack[-1][0]) is not None and top < size - SIZE_TOLERANCE:
        stack.pop()
    if stack and (top := stack[-1][0]) is not None and abs(top - size) <= SIZE_TOLERANCE:
        stack.pop()
