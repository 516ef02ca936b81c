"""What a PDF's layout says about its lines: its body size, its line steps, and whether
a printed line runs on into the next one (the same paragraph) or ends it.

A reader tells a paragraph's next line from a new paragraph by the page: the next line
is set in the same size (and, above the body's size, the same weight), one line step
below (a paragraph's spacing is wider, a table's next cell stands beside it), at the
paragraph's left edge (a first line may be indented or outdented, a list item's next
lines hang under its text), and the line before did not close a sentence at the end of
its text. A bullet never continues a line; an item label does not continue one that
closed a sentence or a clause. What the layout cannot tell (a line without layout, a
line that ends a sentence without the space a wrapped line keeps) stays a line.

Pure functions over ``pdf.layout.LineLayout`` values. More: ``docs/design/pdf.md``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

from langchain_asesoria.pdf.layout import LineLayout
from langchain_asesoria.structure.leads import label_style

#: Points within which two sizes are the same size.
SIZE_TOLERANCE: Final = 0.5
#: A gap between baselines wider than this many line steps parts two paragraphs.
PARAGRAPH_GAP: Final = 1.3
#: A gap narrower than this many line steps is no next line (a cell beside it, a line
#: printed higher up: another column, a note).
_LINE_GAP: Final = 0.5
#: Line steps are measured where a size has at least this many; else the body's leading.
_MIN_STEPS: Final = 5
#: How far, in ems of the line's size, a next line may start from the paragraph's edge.
_ALIGN: Final = 0.3
#: Characters that open a list item and never continue a line.
BULLETS: Final = "•·▪◦●‣∙"
#: A line whose text closes a sentence or a clause (closing quotes and brackets after).
_CLOSED: Final = re.compile(r"[.!?…:;][\"'»”’)\]]*\Z")  # noqa: RUF001 - closing quotes


@dataclass(frozen=True, slots=True)
class Typesetting:
    """A document's body size and line steps, measured on all of its pages at once.

    Attributes:
        body_size: The size most of its characters are set in.
        steps: The line step (baseline to baseline) of each size where it was measured
            (the most frequent gap between two lines of that size, or a smaller
            frequent one when that gap is a paragraph's spacing over it).
        leading: The body's line step over its size (1.2 when not measured).
    """

    body_size: float = 0.0
    steps: Mapping[float, float] = field(default_factory=dict)
    leading: float = 1.2

    @classmethod
    def of(cls, pages: Iterable[Iterable[LineLayout | None]]) -> Typesetting:
        """The typesetting of a document's lines (each page's, in text order)."""
        chars: Counter[float] = Counter()
        gaps: dict[float, Counter[float]] = {}
        for page in pages:
            previous: LineLayout | None = None
            for layout in page:
                if layout is None:
                    previous = None
                    continue
                size = round(layout.size, 1)
                chars[size] += sum(p.end - p.start for p in layout.pieces)
                if previous is not None and abs(round(previous.size, 1) - size) < 0.05:
                    gap = round(previous.y - layout.y, 1)
                    if 0 < gap < 3 * size:
                        gaps.setdefault(size, Counter())[gap] += 1
                previous = layout
        if not chars:
            return cls()
        body = max(chars, key=lambda size: (chars[size], size))
        steps = {
            size: _line_step(found) for size, found in gaps.items() if found.total() >= _MIN_STEPS
        }
        leading = steps[body] / body if body in steps and body else 1.2
        return cls(body, steps, leading)

    def step(self, size: float) -> float:
        """The line step of ``size``: measured, or the body's leading times the size."""
        return self.steps.get(round(size, 1)) or self.leading * size

    def heading_style(self, layout: LineLayout) -> bool:
        """Whether a line is set apart from the body: bold, and larger than it."""
        return layout.bold and layout.size > self.body_size + SIZE_TOLERANCE

    def same_style(self, a: LineLayout, b: LineLayout) -> bool:
        """Whether two lines are set alike: one size and, above the body's, one weight."""
        if abs(a.size - b.size) > SIZE_TOLERANCE:
            return False
        return a.size <= self.body_size + SIZE_TOLERANCE or a.bold == b.bold

    def next_line(self, a: LineLayout, b: LineLayout) -> bool:
        """Whether ``b`` is printed one line step below ``a`` (not a paragraph's
        spacing below, not beside nor above it)."""
        step = self.step(a.size)
        return _LINE_GAP * step <= a.y - b.y <= PARAGRAPH_GAP * step


def _line_step(gaps: Counter[float]) -> float:
    """The line step of one size from the gaps between its lines: the most frequent gap,
    unless it is a paragraph's spacing over a smaller gap seen at least ``_MIN_STEPS``
    times (notes set one or two lines each, whose paragraph gaps outnumber their line
    steps: 21.2 against 9.2 points at 7.7 points); then the most frequent such gap."""
    ranked = gaps.most_common()
    mode = ranked[0][0]
    smaller = [
        (count, gap) for gap, count in ranked if count >= _MIN_STEPS and gap * PARAGRAPH_GAP < mode
    ]
    return max(smaller)[1] if smaller else mode


@dataclass(slots=True)
class Paragraph:
    """The left edges of the paragraph being read: its first line's, its next lines'.

    Mutable, local to one reading of a document's lines (``pdf.paragraphs``).
    """

    first: LineLayout
    item: bool  # its first line opens with a list marker: its next lines may hang
    edge: float | None = None  # where its second and later lines start
    last: LineLayout | None = None

    def __post_init__(self) -> None:
        self.last = self.first

    def aligned(self, b: LineLayout) -> bool:
        """Whether ``b`` starts where this paragraph's next line starts."""
        tolerance = _ALIGN * b.size
        if self.edge is not None:
            return abs(b.x - self.edge) <= tolerance or self._column(b, tolerance)
        return b.x <= self.first.x + tolerance or self.item or self._column(b, tolerance)

    def _column(self, b: LineLayout, tolerance: float) -> bool:
        """``b`` starts under the last piece of the line before, which starts right of
        that line's start: a table's cell wrapping under its own column."""
        last = self.last or self.first
        piece = last.pieces[-1]
        return piece.x > last.x + tolerance and abs(b.x - piece.x) <= tolerance

    def add(self, b: LineLayout) -> None:
        """``b`` runs on in this paragraph."""
        if self.edge is None:
            self.edge = b.x
        self.last = b


def text_runs_on(before: str, after: str) -> bool:
    """Whether the text allows the line ``before`` to run on into ``after``: ``after``
    opens with no bullet, nor with an item label after a closed sentence or clause, and
    ``before`` closes no sentence at the very end of its text (a line a PDF wrapped
    keeps the space it wrapped at: "por su perceptor. " runs on)."""
    opening = after.lstrip()
    if opening[:1] in BULLETS:
        return False
    closed = _CLOSED.search(before.rstrip()) is not None
    if closed and label_style(opening) is not None:
        return False
    return not (closed and before == before.rstrip())
