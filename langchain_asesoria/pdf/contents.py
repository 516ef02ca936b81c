"""A PDF's table of contents: index pages of dot leaders and page numbers, kept out of chunks.

More: ``docs/design/pdf.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from langchain_asesoria.models import LoadedPage
from langchain_asesoria.pdf.furniture import FurnitureLine
from langchain_asesoria.structure.contents import CONTENTS_HEADING

#: The fewest entries that make a page an index page on its own.
MIN_ENTRIES: Final = 5

_ENTRY: Final = re.compile(r"(?:\.\s*){3,}\s*\d{1,4}\s*$|…+\s*\d{1,4}\s*$")
_LINE: Final = re.compile(r"[^\n]*\n?")


def _lines(text: str) -> list[tuple[int, int, str]]:
    """``(start, end with its line break, text)`` of each line of a page."""
    return [(m.start(), m.end(), m.group().rstrip("\n")) for m in _LINE.finditer(text) if m.group()]


def _is_index(lines: Sequence[tuple[int, int, str]], after_index: bool) -> bool:
    body = [text for _, _, text in lines if text.strip()]
    entries = sum(1 for text in body if _ENTRY.search(text))
    if not body or 2 * entries < len(body):
        return False
    return entries >= MIN_ENTRIES or (after_index and entries > 0)


def _removed(page: LoadedPage, lines: Sequence[tuple[int, int, str]]) -> list[FurnitureLine]:
    """The index lines of one index page (module docstring)."""
    keep: set[int] = set()
    for index, (_, _, text) in enumerate(lines):
        if not _ENTRY.search(text):
            continue
        keep.add(index)
        if index and lines[index - 1][2].endswith(" ") and not _ENTRY.search(lines[index - 1][2]):
            keep.add(index - 1)
    if keep:
        first = min(keep)
        before = [i for i in range(first) if lines[i][2].strip()]
        if before and CONTENTS_HEADING.fullmatch(lines[before[-1]][2].strip()):
            keep.add(before[-1])
    return [FurnitureLine(page.page, lines[i][0], lines[i][1], lines[i][2]) for i in sorted(keep)]


def contents_lines(pages: Sequence[LoadedPage]) -> tuple[FurnitureLine, ...]:
    """The table-of-contents lines of a document's pages, as extracted, in page order."""
    found: list[FurnitureLine] = []
    after_index = False
    for page in pages:
        lines = _lines(page.text)
        after_index = _is_index(lines, after_index)
        if after_index:
            found += _removed(page, lines)
    return tuple(found)
