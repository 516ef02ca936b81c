"""Sections from Markdown: ATX headings as CommonMark defines them, fenced code ignored.

Only ATX headings (``#`` to ``######``) at the top level are sections, as the AsesorIA
chunking specification asks: setext headings, HTML, and headings inside block quotes or
list items are not (``tests/structure/test_standards.py`` checks the rest against markdown-it-py).
The line grammar (fences, headings, list items) is ``structure.commonmark``'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from langchain_asesoria.models import SectionSpan
from langchain_asesoria.structure.commonmark import (
    ATX,
    FENCE,
    ListItem,
    closes,
    dedented,
    fenced_code,
    indent,
    lines,
    opens,
)
from langchain_asesoria.structure.headings import Heading, sections_of

#: A line's mark: ``(start, end, level, title)`` for a heading, ``title`` None for a
#: line of body (text, or a fence, which is body too).
_Mark = tuple[int, int, int, str | None]


def _heading_title(line: str) -> tuple[int, str] | None:
    """``(level, title)`` of an ATX heading line, else None; an empty heading (``#``,
    ``# #``, ``### ###``) has the title ``""``."""
    if "#" not in line[:4]:
        return None  # most lines: ``ATX`` needs a ``#`` after at most three spaces
    heading = ATX.fullmatch(line)
    if heading is None:
        return None
    title = (heading.group(2) or "").strip()
    if title.strip("#") == "":  # only a closing sequence: an empty heading
        title = ""
    return len(heading.group(1)), title


#: A ``#`` run glued to its title (``#####Artículo 16``): no ATX heading for CommonMark.
_GLUED = re.compile(r" {0,3}(#{1,6})(\S.*?)[ \t]*")


def _glued_title(line: str, accept: Callable[[str], bool] | None) -> tuple[int, str] | None:
    """``(level, title)`` of a line whose ``#`` run is glued to a title that ``accept``
    takes (a legal unit), else None."""
    if accept is None:
        return None
    glued = _GLUED.fullmatch(line)
    if glued is None or glued.group(2).startswith("#") or not accept(glued.group(2)):
        return None
    return len(glued.group(1)), glued.group(2).strip()


def _marks(text: str, glued: Callable[[str], bool] | None = None) -> list[_Mark]:
    """Headings and body lines outside fenced code, in order; blank lines left out.

    Fenced code and list items are followed as CommonMark does: a fence opened inside a
    list item closes with it, and a heading inside an item is body.
    """
    marks: list[_Mark] = []
    fence: str | None = None
    fence_width: int | None = None  # the content column of the list item holding the fence
    items = ListItem()
    for start, line in lines(text):
        line_end = start + len(line)
        if fence is not None:
            if fence_width is None or not line.strip() or indent(line) >= fence_width:
                fenced = FENCE.fullmatch(dedented(line, fence_width))
                fence = None if closes(fenced, fence) else fence
                continue
            fence = None  # the list item closed, and its fence with it
            items.close()
        body = items.holds(line)
        in_item = body is not None
        fenced = FENCE.fullmatch(line if body is None else body)
        if opens(fenced):
            assert fenced is not None
            fence, fence_width = fenced.group(1), items.width if in_item else None
            marks.append((start, line_end, 0, None))
            continue
        heading = None if in_item else _heading_title(line) or _glued_title(line, glued)
        if heading is not None:
            marks.append((start, line_end, *heading))
        elif line.strip():
            marks.append((start, line_end, 0, None))
    return marks


#: An HTML comment block opens with ``<!--`` (up to three spaces before it, CommonMark's
#: HTML block of type 2) and runs to the end of the first line holding ``-->``.
_COMMENT_OPEN = re.compile(r" {0,3}<!--")


def comment_blocks(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of each HTML comment block outside fenced code, in order.

    A block is whole lines: from the line that opens with ``<!--`` to the end of the
    line holding the ``-->`` that closes it (the end of the text when none does). Line
    breaks are not included in ``end``, so blanking the block keeps every line.
    """
    if "<!--" not in text:
        return []  # no comment: most texts, and no line to walk
    blocks: list[tuple[int, int]] = []
    fence: str | None = None
    opened: int | None = None
    for start, line in lines(text):
        line_end = start + len(line)
        if opened is not None:
            if "-->" in line:
                blocks.append((opened, line_end))
                opened = None
            continue
        code, fence = fenced_code(line, fence)
        if code:
            continue
        if _COMMENT_OPEN.match(line):
            if "-->" in line[line.index("<!--") + 4 :] or line.lstrip().startswith(
                ("<!-->", "<!--->")
            ):
                blocks.append((start, line_end))
            else:
                opened = start
    if opened is not None:
        blocks.append((opened, len(text.rstrip("\r\n"))))
    return blocks


#: How an HTML comment ends: ``-->``, or at once for the abrupt ``<!-->`` and ``<!--->``.
_ABRUPT = ("<!-->", "<!--->")


@dataclass(frozen=True, slots=True)
class CommentScan:
    """The HTML comments of a Markdown text's comment blocks (``comments``).

    Attributes:
        closed: ``[start, end)`` of each comment, from its ``<!--`` to the end of its
            ``-->``: what a browser hides (text after ``-->`` on its line is shown).
        unclosed: The offset of each ``<!--`` no ``-->`` closes within its block; its
            text is shown as it is, so it is kept.
    """

    closed: tuple[tuple[int, int], ...] = ()
    unclosed: tuple[int, ...] = ()


def comments(text: str) -> CommentScan:
    """The comments of each HTML comment block (``comment_blocks``) of ``text``.

    Invariant: every ``closed`` span starts with ``<!--`` and ends with ``>``, lies in
    one comment block, and spans do not overlap; blanking them leaves every other
    character (text after ``-->``, an unclosed comment's text) where it was.
    """
    closed: list[tuple[int, int]] = []
    unclosed: list[int] = []
    for start, end in comment_blocks(text):
        position = text.find("<!--", start, end)
        while position != -1:
            abrupt = next((a for a in _ABRUPT if text.startswith(a, position)), None)
            close = text.find("-->", position + 4, end)
            if abrupt is not None:
                closed.append((position, position + len(abrupt)))
            elif close == -1:
                unclosed.append(position)
                break
            else:
                closed.append((position, close + 3))
            position = text.find("<!--", closed[-1][1], end)
    return CommentScan(tuple(closed), tuple(unclosed))


#: The level of a plain line taken for a heading (``markdown_headings``'s ``lone``): its
#: place is for the caller to decide.
LONE: Final = 0
#: A blank line between two lines.
_BLANK: Final = re.compile(r"(?:\r\n|\r|\n)[ \t]*(?:\r\n|\r|\n)")


def _alone(text: str, marks: Sequence[_Mark]) -> set[int]:
    """The indexes of the body lines alone in their paragraph: a blank line, a heading or
    the text's ends on each side (never a fence's line)."""
    found: set[int] = set()
    for index, (start, end, _, title) in enumerate(marks):
        if title is not None or FENCE.fullmatch(text[start:end]):
            continue
        before = index == 0 or marks[index - 1][3] is not None
        before = before or _BLANK.search(text, marks[index - 1][1], start) is not None
        after = index + 1 == len(marks) or marks[index + 1][3] is not None
        after = after or _BLANK.search(text, end, marks[index + 1][0]) is not None
        if before and after:
            found.add(index)
    return found


def markdown_headings(
    text: str,
    glued: Callable[[str], bool] | None = None,
    lone: Callable[[str], bool] | None = None,
) -> list[Heading]:
    """ATX headings (empty ones too), each knowing whether body follows it.

    ``glued``: also take a line whose ``#`` run is glued to its title (``#####Artículo
    16``, which CommonMark reads as text) when ``glued(title)`` is true. ``lone``: also
    take a line of body alone in its paragraph (outside fences and list items) when
    ``lone(line)`` is true, as a heading of level ``LONE`` (0) titled by the stripped line.
    """
    marks = _marks(text, glued)
    alone = _alone(text, marks) if lone is not None else set()
    headings: list[Heading] = []
    for index, (start, end, level, title) in enumerate(marks):
        if title is None and index in alone and lone is not None and lone(text[start:end]):
            line = text[start:end]
            headings.append(
                Heading(start + len(line) - len(line.lstrip()), end, LONE, line.strip())
            )
        elif title is not None:
            headings.append(Heading(start, end, level, title))
        elif headings and headings[-1].body_is_empty:
            headings[-1] = replace(headings[-1], body_is_empty=False)
    return headings


def marked_only(headings: Sequence[Heading]) -> list[Heading]:
    """``headings`` without the plain lines ``markdown_headings`` took (level ``LONE``):
    each is body again, so the heading before it is not bare."""
    kept: list[Heading] = []
    for heading in headings:
        if heading.level != LONE:
            kept.append(heading)
        elif kept and kept[-1].body_is_empty:
            kept[-1] = replace(kept[-1], body_is_empty=False)
    return kept


#: The former name of ``markdown_headings`` (the standards tests use it).
_headings = markdown_headings


def detect_markdown_sections(text: str) -> list[SectionSpan]:
    """Sections from ATX headings (``#`` to ``######``), fenced code ignored.

    Each heading opens a section that runs to the next heading and keeps the heading
    line in its content (``headings.sections_of`` nests them by level). Lines end at
    ``\\n``, ``\\r\\n`` or a lone ``\\r``. Text before the first heading is no section.
    """
    return sections_of(markdown_headings(text), len(text))
