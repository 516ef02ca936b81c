"""Markup inside a Markdown text: raw HTML tags and link targets, found to be blanked.

More: ``docs/design/structure.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from langchain_asesoria.structure.commonmark import fenced_code, lines

#: A raw HTML tag, opening or closing: ``<small>``, ``</small>``, ``<br/>``, ``<a
#: href="…">`` (a letter right after ``<``: never ``a < b``, an autolink ``<https://…>``
#: or a comment).
_TAG: Final = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>\n]*)?/?>")
#: An inline link: ``[text](target "title")``; its text is kept, the rest blanked.
_LINK: Final = re.compile(
    r"(?<![\\!])\[(?P<text>[^\[\]\n]*)\]"
    r"\(\s*(?:<[^<>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)"
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'))?\s*\)"
)
#: An inline code span: its content is shown as it is.
_CODE: Final = re.compile(r"(`+)(?:(?!\1).)+?\1")


@dataclass(frozen=True, slots=True)
class MarkupSpan:
    """``text[start:end]`` is markup to blank: a tag, or a link's ``[`` or ``](…)``."""

    start: int
    end: int
    kind: Literal["tag", "link target"]


def markup_spans(text: str) -> list[MarkupSpan]:
    """The HTML tags and the link marks and targets of ``text``, in order, outside
    fenced code and code spans.

    Invariant: spans do not overlap and none holds a line break, so blanking them keeps
    every line and every other character where it was; a link's text is never in one.
    """
    if "<" not in text and "[" not in text:
        return []  # no tag, no link: most laws
    fences = "```" in text or "~~~" in text
    spans: list[MarkupSpan] = []
    fence: str | None = None
    for start, line in lines(text):
        if fences:
            code, fence = fenced_code(line, fence)
            if code:
                continue
        if "<" in line or "[" in line:  # what a tag or a link opens with
            spans += _in_line(line, start)
    return spans


def _in_line(line: str, offset: int) -> list[MarkupSpan]:
    code = [m.span() for m in _CODE.finditer(line)]

    def free(start: int, end: int) -> bool:
        return not any(s < end and start < e for s, e in code)

    found: list[MarkupSpan] = []
    for link in _LINK.finditer(line):
        if free(*link.span()):
            text_end = link.end("text")
            found.append(
                MarkupSpan(offset + link.start(), offset + link.start() + 1, "link target")
            )
            found.append(MarkupSpan(offset + text_end, offset + link.end(), "link target"))
    taken = [(s.start - offset, s.end - offset) for s in found]
    for tag in _TAG.finditer(line):
        start, end = tag.span()
        if free(start, end) and not any(s < end and start < e for s, e in taken):
            found.append(MarkupSpan(offset + start, offset + end, "tag"))
    return sorted(found, key=lambda span: span.start)
