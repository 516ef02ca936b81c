"""Spanish legal structure: the ranks of a law's headings decide its hierarchy.

More: ``docs/design/structure.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from langchain_asesoria.structure.headings import Heading
from langchain_asesoria.structure.legal_grammar import (
    NUMERAL,
    LegalUnit,
    Part,
    legal_unit,
    number_only,
    numeral_title,
    promulgation,
    quoted,
)

__all__ = [
    "NUMERAL",
    "LegalUnit",
    "applies",
    "legal_levels",
    "legal_lines",
    "legal_paths",
    "legal_unit",
    "named_units",
    "nest_quoted",
    "relevel",
]


@dataclass(frozen=True, slots=True)
class _Open:
    """An open heading: its ranked unit (``None``: not a legal unit), its own level
    (``hint``), and whether it is a document title (``root``) or a heading that opens a
    run of legal units (``container``: "REGLAMENTO DEL IMPUESTO…" before its TÍTULO I)."""

    hint: int
    unit: LegalUnit | None = None
    root: bool = False
    container: bool = False


def _part(stack: Sequence[_Open]) -> Part | None:
    return next((item.unit.part for item in reversed(stack) if item.unit is not None), None)


def _ranked(unit: LegalUnit, stack: Sequence[_Open]) -> LegalUnit | None:
    """The unit's part and rank where it stands: inside an ANEXO, what it holds is its;
    a numeral is a part of the open unit (nothing outside one)."""
    part = _part(stack)
    if unit is NUMERAL:
        return None if part is None else LegalUnit(unit.name, part, unit.rank)
    if unit.part == "articulado" and part == "anexo":
        return LegalUnit(unit.name, "anexo", unit.rank + 1)
    return unit


def _close_units(stack: list[_Open], unit: LegalUnit) -> None:
    """Closes the legal units ``unit`` closes (a part change closes them all), with what
    was opened inside them."""
    for index, item in enumerate(stack):
        if item.unit is not None and (item.unit.part != unit.part or item.unit.rank >= unit.rank):
            del stack[index:]
            return


def legal_levels(
    titles: Sequence[str], hints: Sequence[int], bare: Sequence[bool] | None = None
) -> list[int]:
    """The level of each heading by legal rank (see the module docstring).

    ``hints`` are the headings' own levels (``#`` counts, ``<hN>``, outline depth): they
    place the headings that are not legal units, and what follows those. ``bare[i]``
    says that no text follows heading ``i`` before the next heading: a bare heading right
    before a legal unit opens the run of units that follows it. The result nests as a
    stack does, so ``headings.sections_of`` builds the paths the ranks say.
    """
    top = min(hints, default=1)
    flags = list(bare) if bare is not None else [False] * len(titles)
    units = [legal_unit(title) for title in titles]
    stack: list[_Open] = []
    levels: list[int] = []
    for index, (unit, hint) in enumerate(zip(units, hints, strict=True)):
        ranked = _ranked(unit, stack) if unit is not None else None
        if ranked is None:
            root = hint <= top
            if root:
                stack.clear()
            # A bare legal unit's own title on a heading of its own ("ANEXO", then
            # "Normas de diligencia debida") is its child, whatever its level.
            titled = index > 0 and flags[index - 1] and stack and stack[-1].unit is not None
            while stack and not stack[-1].root and stack[-1].hint >= hint and not titled:
                stack.pop()
            following = units[index + 1] if index + 1 < len(units) else None
            # Neither a numeral ("5", "III") nor the promulgation ("DISPONGO:", "REY DE
            # ESPAÑA") opens the legal units after it.
            leaf = not root and promulgation(titles[index]) is not None
            opens = (
                flags[index]
                and following is not None
                and following is not NUMERAL
                and not leaf
                and not numeral_title(titles[index])
            )
            entry = _Open(hint, None, root, opens)
            if leaf:  # its own level, but nothing nests under it
                levels.append(len(stack) + 1)
                continue
        else:
            _close_units(stack, ranked)
            while stack and stack[-1].unit is None and not (stack[-1].root or stack[-1].container):
                if stack[-1].hint < hint:
                    break
                stack.pop()
            entry = _Open(hint, ranked)
        stack.append(entry)
        levels.append(len(stack))
    return levels


def legal_paths(
    titles: Sequence[str], hints: Sequence[int], bare: Sequence[bool] | None = None
) -> list[tuple[str, ...]]:
    """Each heading's path (its open ancestors by legal rank, then itself)."""
    open_titles: list[str] = []
    paths: list[tuple[str, ...]] = []
    for title, level in zip(titles, legal_levels(titles, hints, bare), strict=True):
        del open_titles[level - 1 :]
        open_titles.append(title)
        paths.append(tuple(open_titles))
    return paths


def relevel(headings: Sequence[Heading]) -> list[Heading]:
    """The headings with their levels by legal rank (``legal_levels``)."""
    levels = legal_levels(
        [h.title for h in headings],
        [h.level for h in headings],
        [h.body_is_empty for h in headings],
    )
    return [replace(h, level=level) for h, level in zip(headings, levels, strict=True)]


#: How many legal headings, articles or disposiciones among them, make a law.
_MIN_UNITS: Final = 3
_MIN_ARTICLES: Final = 2


def applies(titles: Sequence[str]) -> bool:
    """Whether headings with these titles are a law's: at least three legal units, two
    of them articles or disposiciones, and legal units at least half of the headings."""
    units = [legal_unit(title) for title in titles]
    found = [unit for unit in units if unit is not None]
    articles = [unit for unit in found if unit.name in ("artículo", "disposición")]
    return (
        len(found) >= _MIN_UNITS
        and len(articles) >= _MIN_ARTICLES
        and 2 * len(found) >= len(titles)
    )


#: A line of plain text, with its line ending.
_LINE: Final = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")
#: The longest line taken for a heading (a disposición's title runs to 330 characters).
_MAX_HEADING: Final = 500


def legal_lines(text: str) -> list[Heading]:
    """The heading lines of a plain-text law: a line alone in its paragraph (blank lines
    or the text's ends around it) that opens with a legal unit (``legal_unit``).

    Levels are all 1: ``relevel`` ranks them. A line inside a paragraph, or one that
    mentions a unit in a sentence, is never a heading.
    """
    lines = [(m.start(), m.group()) for m in _LINE.finditer(text) if m.group()]
    headings: list[Heading] = []
    for index, (start, raw) in enumerate(lines):
        line = raw.rstrip("\r\n")
        before = lines[index - 1][1].strip() if index else ""
        after = lines[index + 1][1].strip() if index + 1 < len(lines) else ""
        title = line.strip()
        if before or after or not title or len(title) > _MAX_HEADING:
            if title and headings and headings[-1].body_is_empty:
                headings[-1] = replace(headings[-1], body_is_empty=False)
            continue
        if legal_unit(title) is None:
            if headings and headings[-1].body_is_empty:
                headings[-1] = replace(headings[-1], body_is_empty=False)
            continue
        offset = start + len(line) - len(line.lstrip())
        headings.append(Heading(offset, start + len(line.rstrip()), 1, title))
    return headings


def named_units(headings: Sequence[Heading]) -> list[Heading]:
    """The headings with a unit's number and its name, two bare headings of one level in
    a row ("TÍTULO I", then "Delimitación del hecho imponible", as the BOE's web pages
    give them), made one: "TÍTULO I. Delimitación del hecho imponible", from the
    number's start to the name's end."""
    merged: list[Heading] = []
    for heading in headings:
        previous = merged[-1] if merged else None
        if (
            previous is not None
            and previous.body_is_empty
            and previous.level == heading.level
            and number_only(previous.title)
            and legal_unit(heading.title) is None
            and not quoted(heading.title)
        ):
            title = f"{previous.title.rstrip(' .:')}. {heading.title}"
            merged[-1] = Heading(
                previous.start, heading.end, heading.level, title, heading.body_is_empty
            )
        else:
            merged.append(heading)
    return merged


#: The units that quote the provisions they amend.
_QUOTING: Final = frozenset({"artículo", "disposición"})


def nest_quoted(headings: Sequence[Heading]) -> list[Heading]:
    """Ranked headings with each quoted provision ("«Artículo 20. …") one level under
    the article or disposición that quotes it ("Artículo 3. Modificación de la Ley
    35/2006"), never beside it: an amending law's text, not the law's own Art. 20. A
    quoted heading outside any article keeps its level."""
    nested: list[Heading] = []
    quoting: Heading | None = None  # the open article or disposición
    for heading in headings:
        if quoted(heading.title):
            if quoting is not None:
                heading = replace(heading, level=quoting.level + 1)
        elif (unit := legal_unit(heading.title)) is not None and unit.name in _QUOTING:
            quoting = heading
        elif quoting is not None and heading.level <= quoting.level:
            quoting = None
        nested.append(heading)
    return nested
