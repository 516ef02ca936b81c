"""A table of contents inside a text: the entries it lists, found again below it, are the
headings of the text it lists.

An instrucción técnica writes its index under a heading ("### ÍNDICE", then "1.
Generalidades.", "2. Relación de términos definidos.", "3. Definiciones."), then its text
with each entry again as a line of its own ("**1. Generalidades.**"), which no Markdown
marks as a heading. Left so, the index's section runs over the whole text and every
chunk of it is cited under "ÍNDICE". ``listed_headings`` makes each repeated entry a
heading of the index's level (one deeper for each further part of its number: "3.1"
under "3."), so the index closes where its text starts and each part is cited by its
own entry.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from langchain_asesoria.structure.headings import Heading
from langchain_asesoria.structure.legal_grammar import (
    Label,
    heading_line,
    legal_unit,
    names_its_unit,
)
from langchain_asesoria.structure.quotations import paragraphs

#: A table of contents' heading, as a title or a line of its own.
CONTENTS_HEADING: Final = re.compile(r"(?:ÍNDICE|INDICE|Índice|SUMARIO|Sumario|CONTENIDO)\s*")
#: An entry: a number of one or more parts ("1.", "3.1", "2.1.4.", "IV.", "IV.1") and its
#: words.
_ENTRY: Final = re.compile(r"((?:\d{1,3}|[IVXL]{1,6})(?:\.\d{1,3})*)\.?\s+\S[^\n]*")
#: The fewest unit headings in a row, nothing between them, that make a list of contents.
_MIN_LISTED: Final = 3
#: The longest line taken for an entry (an entry is a title, never a paragraph of text).
_MAX_ENTRY: Final = 200
#: What an entry's line may carry around its words: emphasis, and its closing marks.
_MARKUP: Final = "#*_ \t"
_CLOSING: Final = ".:; \t"
_SPACES: Final = re.compile(r"\s+")


def listed_headings(text: str, headings: Sequence[Heading]) -> list[Heading]:
    """``headings`` (in text order) with, after each table of contents among them, the
    lines of ``text`` that repeat its entries, as headings (module docstring). An index
    reaches to the next index or legal unit heading after it; the other headings in the
    text it lists (a table's caption, "### Tabla 1") hang below its entries."""
    kept = list(headings)
    found: list[Heading] = []
    for at, heading in enumerate(headings):
        if not _is_contents(heading):
            continue
        stop = next((later.start for later in headings[at + 1 :] if _closes(later)), len(text))
        listed = _repeated(text, heading, stop)
        if listed:
            inner = max(entry.level for entry in listed) + 1
            kept = [
                replace(other, level=inner) if listed[0].start < other.start < stop else other
                for other in kept
            ]
        found += listed
    if not found:
        return kept
    taken = {heading.start for heading in found}  # an entry marked as a heading already
    kept = [heading for heading in kept if heading.start not in taken]
    merged = sorted([*kept, *found], key=lambda heading: heading.start)
    return _bodies(text, merged, found)


def _is_contents(heading: Heading) -> bool:
    return CONTENTS_HEADING.fullmatch(heading.title.strip(_MARKUP)) is not None


def _closes(heading: Heading) -> bool:
    """Whether ``heading`` ends the text an index lists: another index, a legal unit."""
    return _is_contents(heading) or legal_unit(heading.title) is not None


def _repeated(text: str, index: Heading, stop: int) -> list[Heading]:
    """The lines in ``[index.end, stop)`` that repeat the entries listed right under
    ``index``, in the entries' order (an entry not found again is passed over); none
    when the first line under ``index`` is no numbered entry."""
    entries: dict[str, int] = {}  # an entry's words -> its depth
    listing, depth = True, 0
    found: list[Heading] = []
    for start, end in paragraphs(text[index.end : stop]):
        line = text[index.end + start : index.end + end]
        key, parts = _entry(line)
        if listing and key is not None and key not in entries and (parts or entries):
            depth = parts or depth  # an unnumbered entry hangs below the numbered before it
            entries[key] = parts or depth + 1
            continue
        if listing and not entries:
            return []  # text right under the heading: no index
        listing = False
        if key is None or key not in entries:
            continue
        order = list(entries)
        level = index.level + entries[key] - 1
        entries = {later: entries[later] for later in order[order.index(key) + 1 :]}
        title = line.strip().strip(_MARKUP)
        found.append(Heading(index.end + start, index.end + end, level, title, False))
    return found


def _entry(line: str) -> tuple[str | None, int]:
    """``(words, number of its number's parts)`` of a line that may be an entry (0 parts
    when unnumbered), its words compared without emphasis, case, closing mark or
    doubled spaces; ``(None, 0)`` for a paragraph of more lines, a long line or a lead-in."""
    bare = line.strip().strip(_MARKUP)
    match = _ENTRY.fullmatch(bare)
    if "\n" in bare or len(bare) > _MAX_ENTRY or not bare:
        return None, 0
    if match is None and bare.endswith((":", ";")):
        return None, 0  # a lead-in, a list's item: text
    words = _SPACES.sub(" ", bare.rstrip(_CLOSING).strip(_MARKUP)).casefold()
    return words, 0 if match is None else match.group(1).count(".") + 1


def _bodies(text: str, headings: Sequence[Heading], new: Sequence[Heading]) -> list[Heading]:
    """The headings, each new one and each right before a new one with
    ``body_is_empty`` as the text up to the next heading says."""
    added = set(new)
    ends = [*(heading.start for heading in headings[1:]), len(text)]
    following = [*headings[1:], None]
    return [
        replace(heading, body_is_empty=not text[heading.end : end].strip())
        if heading in added or after in added
        else heading
        for heading, end, after in zip(headings, ends, following, strict=True)
    ]


def listed_units_as_text(text: str, headings: Sequence[Heading]) -> list[Heading]:
    """``headings`` (in text order) without the units a list of contents names: at
    least three headings of one unit in a row, each with its name, numbered one after
    another, nothing between them, the first of them found again further on ("Contenido:",
    then "Capítulo 1. Capacidad intelectual…", "Capítulo 2. Otros trastornos…" …
    "Capítulo 17. Columna y pelvis.", and later "### Capítulo 1"). They are text of the
    unit they stand in, as an index's entries are; an empty CAPÍTULO right before the
    next stays a heading (it is no run, or is never found again)."""
    # An entry names its unit: a label alone ("Disposición adicional primera.") is one of
    # a list of provisions a rule enumerates, which may be quoted text.
    labels = [heading_line(heading.title) for heading in headings]
    entries = [
        label if names_its_unit(heading.title) else None
        for heading, label in zip(headings, labels, strict=True)
    ]
    listed: set[int] = set()
    at = 0
    while at < len(headings):
        end = at + 1
        while end < len(headings) and _next_listed(text, headings, entries, end):
            end += 1
        first = entries[at]
        if end - at >= _MIN_LISTED and any(_same_unit(first, later) for later in labels[end:]):
            listed.update(range(at, end))
        at = end
    return [heading for index, heading in enumerate(headings) if index not in listed]


def _next_listed(
    text: str, headings: Sequence[Heading], labels: Sequence[Label | None], index: int
) -> bool:
    """Whether heading ``index`` is the one after the heading before it in a list: the
    same unit, the next number, only blank space between them."""
    before, label = labels[index - 1], labels[index]
    if before is None or label is None or before.unit != label.unit:
        return False
    if text[headings[index - 1].end : headings[index].start].strip():
        return False
    previous = before.value
    return previous is not None and label.value == (previous[0] + 1, "")


def _same_unit(label: Label | None, other: Label | None) -> bool:
    return (
        label is not None
        and other is not None
        and other.unit == label.unit
        and other.value == label.value
    )
