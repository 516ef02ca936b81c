"""Segments: the given section spans, checked, and the gaps between them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from langchain_asesoria.engine._headings import trailing_titles
from langchain_asesoria.errors import InvalidSectionsError
from langchain_asesoria.models import SectionSpan


@dataclass(frozen=True, slots=True)
class Segment:
    """A stretch of the joined text chunked on its own: a section, or a gap between."""

    start: int
    end: int
    label: str | None
    path: tuple[str, ...]
    title_end: int | None = None
    fields: tuple[tuple[str, str | int | float | bool], ...] = ()


def _validate(spans: Sequence[SectionSpan], length: int, doc_id: str) -> None:
    previous_end = 0
    for index, span in enumerate(spans):
        if not isinstance(span, SectionSpan):
            raise InvalidSectionsError(
                f"section {index} is {type(span).__name__}, not a SectionSpan.",
                doc_id=doc_id,
                expected="a SectionSpan",
            )
        start, end = span.start, span.end
        if not (isinstance(start, int) and isinstance(end, int)) or not 0 <= start < end <= length:
            raise InvalidSectionsError(
                f"section {index} {span.section_label!r} spans "
                f"[{start!r}, {end!r}), outside the joined text [0, {length}) or empty; "
                "compute spans on the final joined text.",
                doc_id=doc_id,
                position=start if isinstance(start, int) else None,
                expected=f"a non-empty span within [0, {length})",
            )
        title_end = span.title_end
        if title_end is not None and not (isinstance(title_end, int) and start <= title_end <= end):
            raise InvalidSectionsError(
                f"section {index} {span.section_label!r} has its title "
                f"ending at {title_end!r}, outside the section [{start}, {end}).",
                doc_id=doc_id,
                position=title_end if isinstance(title_end, int) else None,
                expected=f"a title end within [{start}, {end}]",
            )
        if start < previous_end:
            raise InvalidSectionsError(
                f"section {index} {span.section_label!r} starts at "
                f"{start}, before the previous section ends at {previous_end}: sections must "
                "be sorted and must not overlap.",
                doc_id=doc_id,
                position=start,
                expected=f"a start at or after {previous_end}",
            )
        previous_end = end


def segments_for(spans: Sequence[SectionSpan], length: int, doc_id: str = "?") -> list[Segment]:
    """The spans, checked, with the gaps between them as segments without a section.

    Raises:
        InvalidSectionsError: spans out of order, overlapping, empty or out of range.
    """
    _validate(spans, length, doc_id)
    segments: list[Segment] = []
    position = 0
    for span in spans:
        if span.start > position:
            segments.append(Segment(position, span.start, None, ()))
        segments.append(
            Segment(
                span.start,
                span.end,
                span.section_label,
                tuple(span.section_path),
                span.title_end,
                tuple(span.fields),
            )
        )
        position = span.end
    if position < length:
        segments.append(Segment(position, length, None, ()))
    return segments


def titles_to_what_follows(text: str, spans: Sequence[SectionSpan]) -> list[SectionSpan]:
    """A law's sections (as its reading found them, in text order), with the title lines
    that end one and head the section right after it ("DISPONGO", a code's title in
    capitals, a Markdown heading the reading did not make a section) moved to the start
    of that section: left where they are, they would make a chunk alone at the end of
    theirs when its last chunk is full. Spans stay contiguous where they were. The
    reading of a law calls it; the engine never moves a caller's sections."""
    moved = list(spans)
    for at in range(len(moved) - 1):
        this, following = moved[at], moved[at + 1]
        if not following.section_path or text[this.end : following.start].strip():
            continue
        cut = trailing_titles(text, max(this.start, this.title_end or this.start), this.end)
        if cut is None:
            continue
        moved[at] = replace(this, end=cut)
        moved[at + 1] = replace(following, start=cut)
    return moved
