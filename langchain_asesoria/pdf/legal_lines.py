"""The legal heading lines of a PDF's text, for pages read without their outline.

A PDF's text has no blank line around a heading (``structure.legal.legal_lines`` wants
one), so a heading line is told by its own shape, as the BOE prints it, at a line's
start and never inside quotes (an amended article quoted in full opens with "«"):

| unit | the line |
|---|---|
| Artículo | ``Artículo 3.  Exención...``: its number (``bis``, ``único``...) and a period |
| LIBRO, TÍTULO, CAPÍTULO | the unit and its number alone, in capitals: ``TÍTULO II`` |
| Sección, Subsección | its number with ``ª``/``º`` or a period: ``Sección 1.ª Rendimientos`` |
| Disposición | ``Disposición adicional primera.``: its ordinal (or ``única``) and a period |
| Disposiciones, ANEXO, Preámbulo | the words alone on their line: ``DISPOSICIONES ADICIONALES`` |

So "Artículo 5 de la Ley..." opening a wrapped line of a sentence is no heading: its
number has no period after it. The shapes are ``structure.legal_grammar.HEADING_LINES``,
and every line found is also a ``legal_unit`` (the one recognition of ranks); levels are
all 1 and ``structure.legal.relevel`` ranks them.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from langchain_asesoria.structure.headings import Heading
from langchain_asesoria.structure.legal_grammar import HEADING_LINES, legal_unit

__all__ = ["HEADING_LINES", "pdf_legal_lines"]

_MAX_TITLE: Final = 300
_LINES: Final = re.compile(r"[^\n]*")


def _is_heading(title: str) -> bool:
    return (
        len(title) <= _MAX_TITLE
        and any(pattern.match(title) for pattern in HEADING_LINES)
        and legal_unit(title) is not None
    )


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
        if not _is_heading(title):
            if headings and headings[-1].body_is_empty:
                headings[-1] = replace(headings[-1], body_is_empty=False)
            continue
        start = match.start() + len(raw) - len(raw.lstrip())
        headings.append(Heading(start, start + len(title), 1, " ".join(title.split())))
    return headings
