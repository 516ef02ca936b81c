"""The legal heading lines of a PDF's text, for pages read without their outline.

More: ``docs/design/pdf.md``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from langchain_asesoria.structure.headings import Heading
from langchain_asesoria.structure.legal_grammar import pdf_heading_line

_LINES: Final = re.compile(r"[^\n]*")


def pdf_legal_lines(text: str) -> list[Heading]:
    """The legal heading lines of ``text`` (a PDF's pages joined), in text order.

    Invariant: ``text[h.start:h.end]`` is the heading's line, stripped; ``h.title`` is
    that line with its runs of whitespace as one space (the BOE's PDFs print two after
    an article's number). A heading followed directly by another has ``body_is_empty``.
    """
    headings: list[Heading] = []
    for match in _LINES.finditer(text):
        raw = match.group()
        title = raw.strip()
        if not title:
            continue
        if not pdf_heading_line(title):
            if headings and headings[-1].body_is_empty:
                headings[-1] = replace(headings[-1], body_is_empty=False)
            continue
        start = match.start() + len(raw) - len(raw.lstrip())
        headings.append(Heading(start, start + len(title), 1, " ".join(title.split())))
    return headings
