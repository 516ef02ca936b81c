"""Sections from Markdown: ATX headings as CommonMark defines them, fenced code ignored.

Only ATX headings (``#`` to ``######``) at the top level are sections, as the AsesorIA
chunking specification asks: setext headings, HTML, and headings inside block quotes or
list items are not (``tests/test_standards.py`` checks the rest against markdown-it-py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from langchain_asesoria.models import SectionSpan

__all__ = ["detect_markdown_sections"]

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*")
#: A line and its ending: ``\r\n``, ``\r`` and ``\n`` all end a line (CommonMark).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


@dataclass(frozen=True, slots=True)
class _Heading:
    start: int
    end: int  # the end of the heading line, without its line ending
    level: int
    title: str
    body_is_empty: bool = True


#: A line's mark: ``(start, end, level, title)`` for a heading, ``title`` None for a
#: line of body (text, or a fence, which is body too).
_Mark = tuple[int, int, int, str | None]


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
        line_end = match.start() + len(line)
        if _opens(fenced):
            assert fenced is not None
            fence = fenced.group(1)
            marks.append((match.start(), line_end, 0, None))
            continue
        heading = _heading_title(line)
        if heading is not None:
            marks.append((match.start(), line_end, *heading))
        elif line.strip():
            marks.append((match.start(), line_end, 0, None))
    return marks


def _headings(text: str) -> list[_Heading]:
    """ATX headings (empty ones too), each knowing whether body follows it."""
    headings: list[_Heading] = []
    for start, end, level, title in _marks(text):
        if title is not None:
            headings.append(_Heading(start, end, level, title))
        elif headings and headings[-1].body_is_empty:
            headings[-1] = replace(headings[-1], body_is_empty=False)
    return headings


def _folds_back(heading: _Heading, following: _Heading | None, opened: bool) -> bool:
    """A heading without body, right after a section's body, stays in that section
    when nothing of its own level or deeper follows it (a bare article before a new
    title, a heading at the end)."""
    return opened and (following is None or following.level < heading.level)


#: A section as it opens: its heading, the open headings (its path), and the headings
#: without body it carries before its own.
_Opened = tuple[_Heading, list[_Heading], list[_Heading]]


def _nest(stack: list[_Heading], heading: _Heading) -> None:
    """Closes the open headings of ``heading``'s level or deeper; a titled one opens."""
    while stack and stack[-1].level >= heading.level:
        stack.pop()
    if heading.title:
        stack.append(heading)


def _opened(headings: Sequence[_Heading]) -> list[_Opened]:
    """The sections the headings open, in order (see ``detect_markdown_sections``)."""
    opened: list[_Opened] = []
    stack: list[_Heading] = []
    carried: list[_Heading] = []  # headings without body, opening the next section
    for heading, following in zip(headings, [*headings[1:], None], strict=False):
        if heading.body_is_empty and not carried and _folds_back(heading, following, bool(opened)):
            continue
        _nest(stack, heading)
        if heading.body_is_empty and following is not None:
            carried.append(heading)
            continue
        opened.append((heading, list(stack), carried))
        carried = []
    return opened


def detect_markdown_sections(text: str) -> list[SectionSpan]:
    """Sections from ATX headings (``#`` to ``######``), fenced code ignored.

    Each heading opens a section that runs to the next heading and keeps the heading
    line in its content; its path holds the titles of the enclosing headings. No
    section is only headings: a heading with no body of its own travels with what
    follows it (``## TÍTULO I`` right before ``### CAPÍTULO I``, or ``### JUAN CARLOS
    I`` right before ``### REY DE ESPAÑA``), and the next section's path names it; right
    after a section's body with only shallower headings (or none) after it, it stays at
    the end of that section. ``title_end`` marks where a section's heading lines end,
    so that a chunk never ends right after them. An empty heading (``#``) closes the
    sections of its level and below, as in CommonMark, and opens one with no title of
    its own. Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``. Text before the first
    heading is no section.
    """
    opened = _opened(_headings(text))
    starts = [(carried or [heading])[0].start for heading, _, carried in opened]
    ends = [*starts[1:], len(text)][: len(starts)]
    return [
        _span(heading, stack, carried, start, end)
        for (heading, stack, carried), start, end in zip(opened, starts, ends, strict=True)
    ]


def _span(
    heading: _Heading, stack: Sequence[_Heading], carried: Sequence[_Heading], start: int, end: int
) -> SectionSpan:
    """The section of ``heading`` over ``[start, end)``, opened by the ``carried``
    headings before it; its path names them after its ancestors."""
    ancestors = [h for h in stack if h is not heading]
    own = [heading] if heading in stack else []
    named = {id(h) for h in stack}
    extra = [h for h in carried if id(h) not in named and h.title]
    path = tuple(h.title for h in (*ancestors, *extra, *own))
    return SectionSpan(start, end, heading.title or None, path, title_end=heading.end)
