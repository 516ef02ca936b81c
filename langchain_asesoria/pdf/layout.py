"""How a PDF page's lines are set: where each run of text starts, in which size and weight.

``extract.py`` collects these values while pypdf extracts a page's text (its
``visitor_text`` callback sees every run of text with its matrices and font), so they
describe exactly the lines of the returned text. Everything here is values and pure
functions over them; pypdf's font dictionaries are read only by ``is_bold``.

More: ``docs/design/pdf.md``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

#: A font whose name says it is set bold (``Helvetica-Bold``, ``Arial,Bold``,
#: ``ABCDEF+Calibri-Bold``, ``Roboto-Black``, ``OpenSans-Semibold``).
_BOLD_NAME: Final = re.compile(r"bold|black|heavy|semibold|demibold|demi\b", re.IGNORECASE)
#: The ``/FontWeight`` from which a font descriptor's font is bold (CSS: 600 is semibold).
_BOLD_WEIGHT: Final = 600
#: The ``/Flags`` bit of a font descriptor that forces bold glyphs (PDF 32000, 9.8.2).
_FORCE_BOLD: Final = 1 << 18


@dataclass(frozen=True, slots=True)
class Piece:
    """One visible run of a line's text, drawn from one point with one font.

    Attributes:
        start: Its offset in the line's text.
        end: After its last character (``start < end``).
        x: Where it starts across the page, in points.
        y: Its baseline's height on the page, in points.
        size: Its font size as printed (the font's size through the text and current
            transformation matrices), in points.
        bold: Whether its font is bold (``is_bold``).
    """

    start: int
    end: int
    x: float
    y: float
    size: float
    bold: bool


@dataclass(frozen=True, slots=True)
class LineLayout:
    """How one line of a page's text is set: its visible pieces, in text order.

    Invariant: ``pieces`` is not empty, and each piece's ``[start, end)`` lies in the
    line's text, in ascending order.
    """

    pieces: tuple[Piece, ...]

    @property
    def x(self) -> float:
        """Where the line starts across the page: its leftmost piece."""
        return min(piece.x for piece in self.pieces)

    @property
    def y(self) -> float:
        """The line's height: its first piece's baseline."""
        return self.pieces[0].y

    @property
    def size(self) -> float:
        """The size most of its characters are set in."""
        weights: dict[float, int] = {}
        for piece in self.pieces:
            weights[piece.size] = weights.get(piece.size, 0) + piece.end - piece.start
        return max(weights, key=lambda size: (weights[size], size))

    @property
    def bold(self) -> bool:
        """Whether every piece of the line is bold."""
        return all(piece.bold for piece in self.pieces)


def line_layout(pieces: Sequence[Piece]) -> LineLayout | None:
    """The layout of a line with these visible pieces; ``None`` for a line without one."""
    return LineLayout(tuple(pieces)) if pieces else None


def effective_size(size: float, cm: Sequence[float], tm: Sequence[float]) -> float:
    """The printed size of text set at ``size`` with text matrix ``tm`` through the
    current transformation matrix ``cm``: ``size`` times the vertical scale of both."""
    up_x = tm[2] * cm[0] + tm[3] * cm[2]
    up_y = tm[2] * cm[1] + tm[3] * cm[3]
    return round(abs(size) * math.hypot(up_x, up_y), 2)


def is_bold(font: Mapping[str, object] | None) -> bool:
    """Whether a PDF font dictionary (pypdf's, as ``visitor_text`` passes it) is bold:
    by its name (``/BaseFont``), or its descriptor's ``/FontWeight`` or ``/Flags``
    (a composite font's, from its descendant)."""
    if not font:
        return False
    if _BOLD_NAME.search(str(font.get("/BaseFont", ""))):
        return True
    descriptor = _descriptor(font)
    if descriptor is None:
        return False
    weight = _number(descriptor.get("/FontWeight"))
    flags = int(_number(descriptor.get("/Flags")))
    return weight >= _BOLD_WEIGHT or bool(flags & _FORCE_BOLD)


def _descriptor(font: Mapping[str, object]) -> Mapping[str, object] | None:
    found = _resolved(font.get("/FontDescriptor"))
    if found is None:
        descendants = _resolved(font.get("/DescendantFonts"))
        if isinstance(descendants, Sequence) and descendants:
            child = _resolved(descendants[0])
            found = _resolved(child.get("/FontDescriptor")) if isinstance(child, Mapping) else None
    return found if isinstance(found, Mapping) else None


def _resolved(value: object) -> object:
    """An indirect reference followed (pypdf's ``get_object``), else the value."""
    get_object = getattr(value, "get_object", None)
    return get_object() if callable(get_object) else value


def _number(value: object) -> float:
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 0.0
