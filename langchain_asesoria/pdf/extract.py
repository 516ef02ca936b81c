"""A PDF page's text, as ``files.page_text`` extracts it, with the height and the layout
of each line.

Both come from pypdf's own extraction (its ``visitor_text`` callback, which sees every
piece of text with its matrices and font while the text is built), so they describe
exactly the lines of the returned text. A height is the vertical position of the
line's first visible piece in page space; it is ``None`` for a line without one or with
text turned from the horizontal (a rotated table, a note up the margin), and all
heights are unknown when the pieces do not add up to the text (layout mode). A line's
layout (``pdf.layout.LineLayout``) is its visible pieces: where each starts, its size
and weight; ``None`` where the height is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from langchain_asesoria.models import LoadedPage
from langchain_asesoria.pdf.layout import LineLayout, Piece, effective_size, is_bold, line_layout
from langchain_asesoria.pdf.open import page_text

if TYPE_CHECKING:
    from pypdf import PdfReader


@dataclass(frozen=True, slots=True)
class ExtractedPage:
    """One page's text and the heights and layouts of its lines.

    Invariant: ``line_heights`` and ``layout`` are each empty (unknown) or have one
    item per line of ``page.text.split("\\n")``.
    """

    page: LoadedPage
    line_heights: tuple[float | None, ...] = ()
    layout: tuple[LineLayout | None, ...] = ()


def _upright(cm: Sequence[float], tm: Sequence[float]) -> bool:
    """Whether text drawn with these matrices runs left to right, not turned."""
    across = tm[0] * cm[0] + tm[1] * cm[2]
    up = tm[0] * cm[1] + tm[1] * cm[3]
    return across > 0 and abs(up) <= 0.01 * across


@dataclass(slots=True)
class _Heights:
    """Collects the pieces of one extraction, the height of each line's first piece and
    each line's visible pieces (``Piece``)."""

    pieces: list[str] = field(default_factory=list)
    heights: list[float | None] = field(default_factory=lambda: [None])
    turned: set[int] = field(default_factory=set)
    drawn: list[list[Piece]] = field(default_factory=lambda: [[]])
    length: int = 0  # of the current line so far
    bold: dict[int, bool] = field(default_factory=dict)  # by font object

    def visit(
        self,
        text: str,
        cm: Sequence[float],
        tm: Sequence[float],
        font: Mapping[str, object] | None = None,
        size: float = 0.0,
        *_: object,
    ) -> None:
        self.pieces.append(text)
        for index, part in enumerate(text.split("\n")):
            if index:
                self.heights.append(None)
                self.drawn.append([])
                self.length = 0
            start, self.length = self.length, self.length + len(part)
            if not part.strip():
                continue
            if not _upright(cm, tm):
                self.turned.add(len(self.heights) - 1)
                continue
            # The text matrix's origin mapped through the current transformation.
            y = float(tm[4] * cm[1] + tm[5] * cm[3] + cm[5])
            if self.heights[-1] is None:
                self.heights[-1] = y
            x = float(tm[4] * cm[0] + tm[5] * cm[2] + cm[4])
            lead = len(part) - len(part.lstrip())
            end = start + len(part.rstrip())
            printed = effective_size(size, cm, tm)
            self.drawn[-1].append(Piece(start + lead, end, x, y, printed, self._bold(font)))

    def _bold(self, font: Mapping[str, object] | None) -> bool:
        key = id(font)
        found = self.bold.get(key)
        if found is None:
            found = self.bold[key] = is_bold(font)
        return found

    def lines(self) -> tuple[float | None, ...]:
        """Each line's height; ``None`` for a line with turned text (no height to go by)."""
        return tuple(
            None if index in self.turned else height for index, height in enumerate(self.heights)
        )

    def layout(self) -> tuple[LineLayout | None, ...]:
        """Each line's layout; ``None`` where its height is."""
        return tuple(
            None if index in self.turned else line_layout(pieces)
            for index, pieces in enumerate(self.drawn)
        )


def extract_page(
    reader: PdfReader,
    index: int,
    path: str | Path,
    mode: Literal["plain", "layout"] = "plain",
) -> ExtractedPage:
    """Page ``index`` (0-based) as ``LoadedPage(text, index + 1, str(path))`` with the
    heights and layouts of its lines.

    Raises:
        DamagedDocumentError: the page's content cannot be extracted.
    """
    heights = _Heights()
    text = page_text(reader, index, path, mode, heights.visit)
    page = LoadedPage(text, index + 1, str(path))
    if "".join(heights.pieces) != text or len(heights.heights) != text.count("\n") + 1:
        return ExtractedPage(page)
    return ExtractedPage(page, heights.lines(), heights.layout())
