"""Inside a PDF line: markers drawn after their text put before it, footnote markers
parted from the word they follow.

Some PDFs draw a list item's marker ("•", "1. ") after the item's text, to its left, so
pypdf's text reads "Copia de la escritura.•" or "ADI: Administración Digital Integral1.":
the marker goes back before the first piece printed right of it ("• Copia de la
escritura.", "1. ADI: Administración…"). A footnote's marker is a number (or ``*``,
``†``) set smaller and raised right after a word ("económico¹"); pypdf glues it to the
word ("económico1"). It is parted from the word by a space, and reported, when the page
holds the note it calls: a line below it, set smaller than the marker's line, that
opens with the same mark. A raised number without its note (an exponent: "m²", "CO₂")
is left as it is.

Pure functions over a line's text and its ``pdf.layout.LineLayout``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from langchain_asesoria.pdf.layout import LineLayout, Piece
from langchain_asesoria.pdf.markers import LONE_MARKER

#: What a footnote's marker may be: one to three digits, or an asterisk or dagger.
FOOTNOTE_MARK: Final = re.compile(r"\d{1,3}|[*†‡]")
#: A marker is set at most this share of its line's size, and raised at least this
#: share of it above the piece it follows.
_SMALLER: Final = 0.85
_RAISED: Final = 0.15
#: A note's first word: its mark, then a space or a letter.
_NOTE: Final = re.compile(r"\s*(\d{1,3}|[*†‡])(?=[\s\w])")


@dataclass(frozen=True, slots=True)
class EditedLine:
    """A line after its inline edits.

    Attributes:
        text: The line's new text (only moved or added characters differ).
        moved: Markers put back before their item's text.
        footnotes: The words whose footnote marker was parted from them, as printed
            ("económico1").
    """

    text: str
    moved: int = 0
    footnotes: tuple[str, ...] = ()


def note_marks(lines: Sequence[tuple[str, LineLayout | None]], body_size: float) -> frozenset[str]:
    """The marks that open a page's notes: lines set smaller than ``body_size``."""
    found = set()
    for text, layout in lines:
        if layout is not None and layout.size < body_size - 0.5:
            match = _NOTE.match(text)
            if match is not None:
                found.add(match.group(1))
    return frozenset(found)


def edit_line(text: str, layout: LineLayout, notes: frozenset[str] = frozenset()) -> EditedLine:
    """``text`` with its markers drawn after their item put before it and the footnote
    markers whose note is in ``notes`` parted from their word (module docstring)."""
    parts = _parts(text, layout.pieces)
    moved = _markers_first(parts, layout.pieces)
    footnotes = _parted(parts, layout.pieces, notes) if notes else ()
    if not moved and not footnotes:
        return EditedLine(text)
    return EditedLine("".join(part for _, part in sorted(parts.items())), moved, footnotes)


def _parts(text: str, pieces: Sequence[Piece]) -> dict[float, str]:
    """The line cut at its pieces: ``{order: text}``, each piece keyed by its index and
    the text before it (spaces between pieces) by the index minus a half."""
    parts: dict[float, str] = {}
    position = 0
    for index, piece in enumerate(pieces):
        parts[index - 0.5] = text[position : piece.start]
        parts[index] = text[piece.start : piece.end]
        position = piece.end
    parts[len(pieces) - 0.5] = text[position:]
    return parts


def _markers_first(parts: dict[float, str], pieces: Sequence[Piece]) -> int:
    """Moves each marker piece printed left of the piece before it to just before the
    first piece printed right of it; how many moved."""
    moved = 0
    for index in range(1, len(pieces)):
        piece = pieces[index]
        if piece.x >= pieces[index - 1].x or not LONE_MARKER.fullmatch(parts[index]):
            continue
        target = next((i for i in range(index) if pieces[i].x > piece.x), None)
        if target is None or target - 0.25 in parts:
            continue
        marker = parts.pop(index).strip()
        parts[target - 0.25] = f"{marker} "
        moved += 1
    return moved


def _parted(
    parts: dict[float, str], pieces: Sequence[Piece], notes: frozenset[str]
) -> tuple[str, ...]:
    """Puts a space before each footnote marker glued to a word; the words, as printed."""
    words = []
    for index in range(1, len(pieces)):
        piece, before = pieces[index], pieces[index - 1]
        text = parts.get(index, "")
        glued = parts.get(index - 0.5) == "" and parts.get(index - 1, "")[-1:].isalnum()
        if not glued or text not in notes or not FOOTNOTE_MARK.fullmatch(text):
            continue
        if piece.size > _SMALLER * before.size or piece.y - before.y < _RAISED * before.size:
            continue
        parts[index - 0.5] = " "
        word = parts[index - 1].rsplit(maxsplit=1)[-1]
        words.append(f"{word}{text}")
    return tuple(words)
