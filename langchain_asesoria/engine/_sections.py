"""Sections: given spans checked, Markdown ATX headings detected, gaps filled."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from langchain_asesoria.errors import InvalidSectionsError
from langchain_asesoria.models import SectionSpan

__all__ = ["Segment", "detect_markdown_sections", "segments_for"]


@dataclass(frozen=True, slots=True)
class Segment:
    """A stretch of the joined text chunked on its own: a section, or a gap between."""

    start: int
    end: int
    label: str | None
    path: tuple[str, ...]


_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*")
#: A line and its ending: ``\r\n``, ``\r`` and ``\n`` all end a line (CommonMark).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def _validate(spans: Sequence[SectionSpan], length: int, doc_id: str) -> None:
    previous_end = 0
    for index, span in enumerate(spans):
        if not isinstance(span, SectionSpan):
            raise InvalidSectionsError(
                f"document {doc_id!r}: section {index} is {type(span).__name__}, not a SectionSpan."
            )
        start, end = span.start, span.end
        if not (isinstance(start, int) and isinstance(end, int)) or not 0 <= start < end <= length:
            raise InvalidSectionsError(
                f"document {doc_id!r}: section {index} {span.section_label!r} spans "
                f"[{start!r}, {end!r}), outside the joined text [0, {length}) or empty; "
                "compute spans on the final joined text."
            )
        if start < previous_end:
            raise InvalidSectionsError(
                f"document {doc_id!r}: section {index} {span.section_label!r} starts at "
                f"{start}, before the previous section ends at {previous_end}: sections must "
                "be sorted and must not overlap."
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
        segments.append(Segment(span.start, span.end, span.section_label, tuple(span.section_path)))
        position = span.end
    if position < length:
        segments.append(Segment(position, length, None, ()))
    return segments


@dataclass(frozen=True, slots=True)
class _Heading:
    start: int
    level: int
    title: str
    body_is_empty: bool = True


#: A line's mark: ``(start, level, title)`` for a heading, ``(start, 0, None)`` for a
#: line of body (text, or a fence, which is body too).
_Mark = tuple[int, int, str | None]


def _closes(fenced: re.Match[str] | None, fence: str) -> bool:
    """A closing fence: the opening character, at least as long, nothing after it."""
    if fenced is None:
        return False
    marker = fenced.group(1)
    return marker[0] == fence[0] and len(marker) >= len(fence) and not fenced.group(2).strip()


def _opens(fenced: re.Match[str] | None) -> bool:
    """An opening fence (a backtick fence's info string holds no backtick)."""
    return fenced is not None and not (fenced.group(1)[0] == "`" and "`" in fenced.group(2))


def _heading_title(line: str) -> tuple[int, str] | None:
    """``(level, title)`` of an ATX heading line, else None; an empty heading (``#``,
    ``# #``, ``### ###``) has the title ``""``."""
    heading = _ATX.fullmatch(line)
    if heading is None:
        return None
    title = (heading.group(2) or "").strip()
    if title.strip("#") == "":  # only a closing sequence: an empty heading
        title = ""
    return len(heading.group(1)), title


def _marks(text: str) -> list[_Mark]:
    """Headings and body lines outside fenced code, in order; blank lines left out."""
    marks: list[_Mark] = []
    fence: str | None = None
    for match in _LINE.finditer(text):
        line = match.group().rstrip("\r\n")
        if not match.group():
            break
        fenced = _FENCE.fullmatch(line)
        if fence is not None:
            fence = None if _closes(fenced, fence) else fence
            continue
        if _opens(fenced):
            assert fenced is not None
            fence = fenced.group(1)
            marks.append((match.start(), 0, None))
            continue
        heading = _heading_title(line)
        if heading is not None:
            marks.append((match.start(), *heading))
        elif line.strip():
            marks.append((match.start(), 0, None))
    return marks


def _headings(text: str) -> list[_Heading]:
    """ATX headings (empty ones too), each knowing whether body follows it."""
    headings: list[_Heading] = []
    for start, level, title in _marks(text):
        if title is not None:
            headings.append(_Heading(start, level, title))
        elif headings and headings[-1].body_is_empty:
            headings[-1] = replace(headings[-1], body_is_empty=False)
    return headings


def detect_markdown_sections(text: str) -> list[SectionSpan]:
    """Sections from ATX headings (``#`` to ``######``), fenced code ignored.

    Each heading opens a section that runs to the next heading and keeps the heading
    line in its content; its path holds the titles of the enclosing headings. A
    heading with no body before a deeper heading (``## TÍTULO I`` right before
    ``### CAPÍTULO I``) is folded into that deeper section, whose path names it, so
    no chunk holds a bare title. An empty heading (``#``) closes the sections of its
    level and below, as in CommonMark, and opens one with no title of its own. Lines
    end at ``\n``, ``\r\n`` or a lone ``\r``. Text before the first heading is no
    section.
    """
    headings = _headings(text)
    spans: list[SectionSpan] = []
    stack: list[tuple[int, str]] = []
    open_start: int | None = None
    for index, heading in enumerate(headings):
        while stack and stack[-1][0] >= heading.level:
            stack.pop()
        if heading.title:
            stack.append((heading.level, heading.title))
        start = heading.start if open_start is None else open_start
        following = headings[index + 1] if index + 1 < len(headings) else None
        if following is not None and heading.body_is_empty and following.level > heading.level:
            open_start = start
            continue
        open_start = None
        end = following.start if following is not None else len(text)
        path = tuple(title for _, title in stack)
        spans.append(SectionSpan(start, end, heading.title or None, path))
    return spans
