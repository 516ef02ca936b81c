"""A PDF page's text, as ``files.page_text`` extracts it, with the height of each line.

The heights come from pypdf's own extraction (its ``visitor_text`` callback, which
sees every piece of text with its matrices while the text is built), so they describe
exactly the lines of the returned text. A height is the vertical position of the
line's first visible piece in page space; it is ``None`` for a line without one, and
all heights are unknown when the pieces do not add up to the text (layout mode).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from langchain_asesoria.models import LoadedPage
from langchain_asesoria.pdf.open import page_text

if TYPE_CHECKING:
    from pypdf import PdfReader

__all__ = ["ExtractedPage", "extract_page"]


@dataclass(frozen=True, slots=True)
class ExtractedPage:
    """One page's text and the heights of its lines.

    Invariant: ``line_heights`` is empty (unknown) or has one item per line of
    ``page.text.split("\\n")``.
    """

    page: LoadedPage
    line_heights: tuple[float | None, ...] = ()


@dataclass(slots=True)
class _Heights:
    """Collects the pieces of one extraction and the height of each line's first piece."""

    pieces: list[str] = field(default_factory=list)
    heights: list[float | None] = field(default_factory=lambda: [None])

    def visit(self, text: str, cm: Sequence[float], tm: Sequence[float], *_: object) -> None:
        self.pieces.append(text)
        for index, part in enumerate(text.split("\n")):
            if index:
                self.heights.append(None)
            if part.strip() and self.heights[-1] is None:
                # The text matrix's origin mapped through the current transformation.
                self.heights[-1] = float(tm[4] * cm[1] + tm[5] * cm[3] + cm[5])


def extract_page(
    reader: PdfReader,
    index: int,
    path: str | Path,
    mode: Literal["plain", "layout"] = "plain",
) -> ExtractedPage:
    """Page ``index`` (0-based) as ``LoadedPage(text, index + 1, str(path))`` with heights.

    Raises:
        DamagedDocumentError: the page's content cannot be extracted.
    """
    heights = _Heights()
    text = page_text(reader, index, path, mode, heights.visit)
    page = LoadedPage(text, index + 1, str(path))
    if "".join(heights.pieces) != text or len(heights.heights) != text.count("\n") + 1:
        return ExtractedPage(page)
    return ExtractedPage(page, tuple(heights.heights))
