"""Spanish legal structure: the ranks of a law's headings decide its hierarchy.

``law_headings`` turns a law's text and its candidate headings (Markdown's marked ones,
plain lines alone in their paragraph) into the law's own headings: quoted amended text
and lines the law marks for their layout are text, a unit's name on the line after its
number joins it, the law's title is the root of everything; ``relevel`` then ranks them
(``legal_levels``) and ``headings.sections_of`` nests them.

More: ``docs/design/structure.md``.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Final

from langchain_asesoria.models import BOE_NOTE
from langchain_asesoria.structure.contents import listed_headings, listed_units_as_text
from langchain_asesoria.structure.headings import Heading
from langchain_asesoria.structure.legal_grammar import (
    ANNEXES,
    APARTADO,
    INSTRUCCION,
    NUMERAL,
    SENTENCE_OPENER,
    SIGNATURE,
    DisposicionKind,
    LegalUnit,
    Part,
    annex_closes,
    approved_text,
    broken_line,
    capitals,
    disposicion_kind,
    formula_line,
    heading_line,
    legal_unit,
    name_limit,
    note_line,
    number_only,
    numeral_title,
    ordinal_apartado,
    ordinal_disposicion,
    parte_heading,
    promulgation,
    quoted,
    rubric_line,
    run_in_text,
)
from langchain_asesoria.structure.markdown import LONE
from langchain_asesoria.structure.quotations import own_headings, paragraphs, rebare


@dataclass(frozen=True, slots=True)
class _Open:
    """An open heading: its ranked unit (``None``: not a legal unit), its own level
    (``hint``), whether it is a document title (``root``) or a heading that opens a run
    of legal units (``container``: "REGLAMENTO DEL IMPUESTO…" before its TÍTULO I), the
    rank of the units it holds (``holds``), whether it was met inside a provision's
    text (``passing``: a table's caption, closed by the next unit), and whether it is an
    ANEXO that holds the instrucciones técnicas after it (``holder``)."""

    hint: int
    unit: LegalUnit | None = None
    root: bool = False
    container: bool = False
    kind: DisposicionKind | None = None
    holds: int | None = None
    passing: bool = False
    holder: bool = False


def _part(stack: Sequence[_Open]) -> Part | None:
    return next((item.unit.part for item in reversed(stack) if item.unit is not None), None)


#: How far below an ANEXO that holds instrucciones técnicas they and their ANEXOs rank.
_HELD: Final = 2


def _ranked(unit: LegalUnit, stack: Sequence[_Open]) -> LegalUnit | None:
    """The unit's part and rank where it stands: inside an ANEXO, the articulado it
    holds is its; inside an ANEXO that holds instrucciones técnicas (``_Open.holder``),
    they and their own ANEXOs rank below it; a numeral is a part of the open unit
    (nothing outside one)."""
    if unit is NUMERAL:
        part = _part(stack)
        return None if part is None else LegalUnit(unit.name, part, unit.rank)
    if unit.name in ANNEXES and any(item.holder for item in stack):
        return LegalUnit(unit.name, unit.part, unit.rank + _HELD)
    if unit.part == "articulado" and _part(stack) == "anexo":
        return LegalUnit(unit.name, "anexo", unit.rank + 1)
    return unit


def _close_units(stack: list[_Open], unit: LegalUnit, kind: DisposicionKind | None) -> None:
    """Closes the legal units ``unit`` closes (a part change closes them all; a
    disposición of another ``kind`` closes the group it is not of), with what was
    opened inside them. An annex (an ANEXO, an instrucción técnica) holds everything
    after it (an annexed text's articles and disposiciones, an instrucción's ANEXOs):
    only an annex of its rank or above closes it (``annex_closes``)."""
    for index, item in enumerate(stack):
        if item.unit is None:
            continue
        if item.unit.name in ANNEXES and not annex_closes(item.unit, unit):
            continue
        if (
            item.unit.part != unit.part
            or item.unit.rank >= unit.rank
            or (kind is not None and item.kind is not None and item.kind != kind)
        ):
            del stack[index:]
            return


def _sibling(title: str, hint: int, following: int) -> bool:
    """Whether a bare heading is the sibling of the unit after it, not its container: the
    same level, and not an approved text's title ("CUADRO DE PORCENTAJES…" before a
    CAPÍTULO at its level)."""
    return hint == following and not approved_text(title)


#: The units that hold a law's provisions: a heading met inside one's text (a table's
#: caption, a figure's) is part of that text.
_PROVISIONS: Final = frozenset({"artículo", "apartado", "disposición"})


def _in_article(stack: Sequence[_Open]) -> bool:
    """Whether the innermost open heading is an article, an apartado or a disposición, or
    a heading already in one's text (a heading now is in its text too)."""
    if not stack:
        return False
    last = stack[-1]
    return (last.unit is not None and last.unit.name in _PROVISIONS) or (
        last.passing and last.unit is None
    )


def _innermost_unit(stack: Sequence[_Open]) -> str | None:
    """The name of the innermost open legal unit, if any."""
    return next((item.unit.name for item in reversed(stack) if item.unit is not None), None)


def _in_articulado(stack: Sequence[_Open]) -> bool:
    """Whether the innermost open unit is an article or one that groups articles (not a
    disposición, nor an apartado: what follows the last of those may be an annexed
    text)."""
    unit = _innermost_unit(stack)
    return unit == "artículo" or unit in _CONTAINERS


def _in_disposicion(stack: Sequence[_Open]) -> bool:
    """Whether the innermost open unit is a disposición."""
    return _innermost_unit(stack) == "disposición"


#: The articulado's units that group articles (in an ANEXO too, where they rank there).
_CONTAINERS: Final = frozenset({"libro", "título", "capítulo", "sección", "subsección"})


def _at_container_level(stack: Sequence[_Open], hint: int) -> bool:
    """Whether a heading at ``hint`` stands as high as an open TÍTULO, CAPÍTULO or
    Sección: inside an article it is a caption ("### Cuadro C.2.1" at the CAPÍTULO's
    ``###``), not a group of the articles after it ("#### Disposición general" below
    its TÍTULO's ``##``)."""
    return any(
        item.unit is not None and item.unit.name in _CONTAINERS and item.hint >= hint
        for item in stack
    )


def _annex(item: _Open) -> bool:
    """Whether ``item`` is an open annex, an ANEXO or an instrucción técnica (its caller
    keeps the headings after it that are no legal unit inside it)."""
    return item.unit is not None and item.unit.name in ANNEXES


def _close_numerals(stack: list[_Open], hint: int) -> None:
    """Before a legal unit, the headings that are not units and of its level or deeper
    close, and so does a passing heading at any level: a numeral ("III": a preamble's
    part), or one met inside an article's text that opens no run of units (a table's
    caption, "(Miles de pesetas)", a budget's "CORTES GENERALES"). A law's unit is never
    their child."""
    while stack and stack[-1].unit is None and not (stack[-1].root or stack[-1].container):
        if stack[-1].hint < hint and not stack[-1].passing:
            break
        stack.pop()


def _close_containers(stack: list[_Open], unit: LegalUnit, hint: int) -> None:
    """A unit of the articulado above the rank a container opened with closes it:
    "Disposición general" before the articles of a TÍTULO is closed by its CAPÍTULO I;
    "REGLAMENTO…" before TÍTULO I holds every TÍTULO. Inside an ANEXO its units do the
    same to the containers opened in it and marked no higher than the unit; the approved
    text's title before the ANEXO holds the ANEXO. An annex itself (an ANEXO, an
    instrucción técnica) closes none, and the law's title is never closed: a CAPÍTULO
    after an "Artículo único" right under it stays below it."""
    if unit.part == "disposiciones" or unit.name in ANNEXES:
        return
    first, highest = 0, 0
    if unit.part == "anexo":
        annexes = [i for i, item in enumerate(stack) if item.unit and item.unit.name in ANNEXES]
        first, highest = (annexes[-1] + 1 if annexes else 0), hint
    for index, item in enumerate(stack[first:], start=first):
        if (
            item.holds is not None
            and not item.root
            and unit.rank < item.holds
            and item.hint >= highest
        ):
            del stack[index:]
            return


#: A disposición numbered by its ordinal alone inside its group ("Primera.").
_DISPOSICION: Final = LegalUnit("disposición", "disposiciones", 2)


def _unit_of(title: str, stack: Sequence[_Open], apartados: bool) -> LegalUnit | None:
    """The unit of a title that ``legal_unit`` does not rank: a disposición's ordinal
    inside its group ("Primera."), or an apartado's in a text without articles."""
    grouped = any(item.unit is not None and item.unit.name == "disposiciones" for item in stack)
    if grouped and ordinal_disposicion(title):
        return _DISPOSICION
    if apartados and ordinal_apartado(title):
        return _ranked(APARTADO, stack)
    return None


def _apartados(units: Sequence[LegalUnit | None]) -> bool:
    """Whether the text numbers its provisions as apartados ("Primero.", "Segundo."), as
    orders and resolutions do: it has no article."""
    return not any(unit is not None and unit.name == "artículo" for unit in units)


@dataclass(frozen=True, slots=True)
class _Titles:
    """The headings ``legal_levels`` ranks: titles, own levels, bare flags, units."""

    titles: Sequence[str]
    hints: Sequence[int]
    bare: Sequence[bool]
    units: Sequence[LegalUnit | None]
    top: int
    #: The part of the next legal unit after each heading (``None``: none follows).
    next_part: Sequence[Part | None]


def _not_a_unit(titles: _Titles, index: int, stack: list[_Open]) -> tuple[_Open, bool]:
    """The entry of a heading that is no legal unit, and whether it is a leaf (the
    promulgation: its own level, nothing nests under it)."""
    title, hint = titles.titles[index], titles.hints[index]
    root = hint <= titles.top
    if root:
        stack.clear()
    # A bare legal unit's own title on a heading of its own ("ANEXO", then "Normas de
    # diligencia debida") is its child, whatever its level.
    titled = index > 0 and titles.bare[index - 1] and bool(stack) and stack[-1].unit is not None
    interrupts = _in_article(stack)
    # In the articulado, a heading that is no unit is a rubric or a caption of its text;
    # so it is in a disposición that more disposiciones follow (a table's "Euros por
    # tren-km" in a disposición transitoria): no annexed text starts before them.
    within = _in_articulado(stack) or (
        _in_disposicion(stack) and titles.next_part[index] == "disposiciones"
    )
    caption = bool(title) and within and not approved_text(title)
    following = titles.units[index + 1] if index + 1 < len(titles.units) else None
    leaf = not root and promulgation(title) is not None
    opens = (
        titles.bare[index]
        and following is not None
        and following is not NUMERAL
        and not leaf
        and not numeral_title(title)
        and (titled or not _sibling(title, hint, titles.hints[index + 1]))
        and not (caption and following.name == "artículo" and _at_container_level(stack, hint))
    )
    passing = numeral_title(title) or (interrupts and not opens and not approved_text(title))
    # A heading met in an article's text (a table's caption at a CAPÍTULO's level, even
    # right before the next article) closes no unit: only the passing headings before it.
    # Nor does an ANEXO close before a heading that is no legal unit ("ANEXO I", then
    # "### PARTE A", "# Certificado de cantidad"), however its Markdown marks it, unless a
    # run of articles follows (a treaty's protocol after its ANEXO is a text of its own).
    while (
        stack
        and not stack[-1].root
        and stack[-1].hint >= hint
        and not titled
        and not (caption and not opens and stack[-1].unit is not None)
        and not (_annex(stack[-1]) and titles.next_part[index] != "articulado")
    ):
        stack.pop()
    # The rank it holds is where that unit stands: inside an ANEXO, its own.
    held = None
    if opens and following is not None and following.part == "articulado":
        ranked_following = _ranked(following, stack)
        held = ranked_following.rank if ranked_following is not None else None
    return _Open(hint, None, root, opens, holds=held, passing=passing), leaf


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
    units = [legal_unit(title) for title in titles]
    flags = list(bare) if bare is not None else [False] * len(titles)
    table = _Titles(titles, hints, flags, units, min(hints, default=1), _next_parts(units))
    apartados = _apartados(units)
    stack: list[_Open] = []
    levels: list[int] = []
    for index, (unit, hint) in enumerate(zip(units, hints, strict=True)):
        ranked = (
            _ranked(unit, stack) if unit is not None else _unit_of(titles[index], stack, apartados)
        )
        if ranked is None:
            entry, leaf = _not_a_unit(table, index, stack)
            if leaf:  # its own level, but nothing nests under it
                levels.append(len(stack) + 1)
                continue
        else:
            kind = disposicion_kind(titles[index]) if ranked.part == "disposiciones" else None
            _close_units(stack, ranked, kind)
            _close_containers(stack, ranked, hint)
            _close_numerals(stack, hint)
            entry = _Open(hint, ranked, kind=kind, holder=_holder(table, index, stack))
        stack.append(entry)
        levels.append(len(stack))
    return levels


def _holder(titles: _Titles, index: int, stack: Sequence[_Open]) -> bool:
    """Whether the ANEXO at ``index`` holds the instrucciones técnicas after it: it has
    no text of its own and an instrucción follows it, none being open ("ANEXO I", then
    "Instrucción técnica complementaria MIE-APQ 1" to "MIE-APQ 9", BOE-A-2001-8971). An
    instrucción after an ANEXO with text of its own closes it (a reglamento's ANEXO IV,
    then its ITC EP-1, BOE-A-2009-1964)."""
    unit = titles.units[index]
    following = titles.units[index + 1] if index + 1 < len(titles.units) else None
    return (
        unit is not None
        and unit.name == "anexo"
        and titles.bare[index]
        and following is not None
        and following.name == INSTRUCCION
        and not any(item.unit is not None and item.unit.name == INSTRUCCION for item in stack)
    )


def _next_parts(units: Sequence[LegalUnit | None]) -> list[Part | None]:
    """For each heading, the part of the next legal unit after it ("articulado" for an
    article or a TÍTULO, "disposiciones", "anexo"), or ``None``."""
    after: list[Part | None] = []
    following: Part | None = None
    for unit in reversed(units):
        after.append(following)
        if unit is not None:
            following = unit.part
    return after[::-1]


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


def relevel(headings: Sequence[Heading], text: str | None = None) -> list[Heading]:
    """The headings with their levels by legal rank (``legal_levels``); with the
    ``text`` they stand in, a unit's heading (or a PARTE's) whose only text before its
    first child is its name or a rubric ("ANEXO IIA", "Documentación fundamental común…",
    then "SUSTANCIAS QUÍMICAS"; "TERCERA PARTE. CUENTAS ANUALES", then "I. NORMAS DE
    ELABORACIÓN…") has no body of its own: it starts the section of what
    follows (a note under it is its text and keeps its section)."""
    levels = legal_levels(
        [h.title for h in headings],
        [h.level for h in headings],
        [h.body_is_empty for h in headings],
    )
    ranked = [replace(h, level=level) for h, level in zip(headings, levels, strict=True)]
    if text is None:
        return ranked
    if ranked and legal_unit(ranked[0].title) is None:
        ranked[0] = _with_promulgation_head(ranked[0], text, ranked[1:2])
    return [
        replace(heading, body_is_empty=True)
        if not heading.body_is_empty
        and following.level > heading.level
        and (legal_unit(heading.title) is not None or parte_heading(heading.title))
        and _only_a_name(text[heading.end : following.start], number_only(heading.title))
        else heading
        for heading, following in pairwise(ranked)
    ] + ranked[-1:]


#: The longest line that may be a unit's name or a note on it, not its text.
_MAX_NAME_LINE: Final = 200
#: The most paragraphs in capitals that head a law's promulgation ("DON JUAN CARLOS I, REY
#: DE ESPAÑA, A TODOS LOS QUE…", then "SABED: QUE LAS CORTES…").
_MAX_HEAD_LINES: Final = 2


def _with_promulgation_head(title: Heading, text: str, following: Sequence[Heading]) -> Heading:
    """The law's title with the promulgation's head that follows it (the Head of State's
    or the regional president's title in capitals, "EL PRESIDENTE DE LA JUNTA DE
    ANDALUCÍA", one line a paragraph, at most two): a chunk never ends after them, as
    after a title (they stay with "Sea notorio a todos los ciudadanos…"), and a title with
    nothing else before its first child starts that child's chunk."""
    stop = following[0].start if following else len(text)
    end = title.end
    for start, finish in paragraphs(text[title.end : stop])[:_MAX_HEAD_LINES]:
        line = text[title.end + start : title.end + finish].strip()
        if "\n" in line or len(line) > _MAX_NAME_LINE or not capitals(line):
            break
        end = title.end + finish
    if end == title.end:
        return title
    return replace(title, end=end, body_is_empty=not text[end:stop].strip())


def _only_a_name(between: str, unnamed: bool) -> bool:
    """Whether the text between a unit's heading and its first child is only its name or
    a rubric: one or two paragraphs of one short line each, each a line in capitals
    ("DEL EJERCICIO DEL MANDO"), a subdivision's rubric (``rubric_line``: "Epígrafe A.
    Forma de realizarlo") or, after a heading that is its number alone
    (``unnamed``: "ANEXO IIA", "ANEXO 3.1"), the first its name ("Documentación
    fundamental común…", "(Currículo del área…)"). A short note in brackets
    ("**(Derogado)**"), a BOE editorial note ("Se modifica por…"), a list's lead-in or a
    sentence is the unit's text: it keeps its section. A line the Markdown marks as a
    heading that is no section (the title of the text an ANEXO holds, "# «Asignación de
    fechas…»"; a title's broken last words, "### contemplada en el artículo 7 de la") is
    a title too."""
    parts = [between[start:end].strip() for start, end in paragraphs(between)]
    if not 0 < len(parts) <= 2:
        return False
    for index, part in enumerate(parts):
        if "\n" in part or len(part) > _MAX_NAME_LINE or _NOTE.match(part) is not None:
            return False
        note = len(part) <= _MAX_NOTE and note_line(part)
        named = unnamed and index == 0 and not note
        if not (
            capitals(part)
            or rubric_line(part)
            or (named and not part.endswith((":", ";", ",")))
            or (part.startswith("#") and not note_line(part.lstrip("# ")))
        ):
            return False
    return True


#: The longest note in brackets that is a unit's whole text ("(Derogado)", "**[Suprimido]**"),
#: not its name ("(Currículo del área de Lengua Castellana y Literatura)").
_MAX_NOTE: Final = 44
_NOTE: Final = re.compile(rf"[>\s]*{BOE_NOTE}")


#: How many apartados ("Primero.", "Segundo.") make the provisions of a text without
#: articles.
_MIN_APARTADOS: Final = 2
#: The units whose heading alone makes a text a law's.
_LAW_UNITS: Final = frozenset({"artículo", "disposición", *ANNEXES})


def applies(titles: Sequence[str]) -> bool:
    """Whether headings with these titles are a law's: one of them is a provision (an
    article, a disposición; "Artículo único." and its "Disposición final única." are a
    law) or an ANEXO (a resolution's annexes), each in a heading's shape
    (``heading_line``: "Anexo de tablas" is no ANEXO), or, in a text without articles, two
    apartados ("Primero.", "Segundo."). There is no count of units: a one-article law is
    a law."""
    units = [legal_unit(title) if heading_line(title) else None for title in titles]
    if any(unit is not None and unit.name in _LAW_UNITS for unit in units):
        return True
    return sum(map(ordinal_apartado, titles)) >= _MIN_APARTADOS


def candidate_line(line: str) -> bool:
    """Whether a plain line alone in its paragraph may be a heading of a law
    (``law_headings`` decides where it stands): a legal heading's shape
    (``legal_grammar.heading_line``), a disposición's ordinal ("Primera.") or an approved
    text's title in capitals ("TEXTO REFUNDIDO DE LA LEY…")."""
    return heading_line(line) is not None or ordinal_disposicion(line) or approved_text(line)


#: A line of plain text, with its line ending.
_LINE: Final = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def plain_lines(text: str) -> list[Heading]:
    """The candidate heading lines of a plain-text law (``candidate_line``), each alone in
    its paragraph (blank lines or the text's ends around it), at level ``LONE``
    (``markdown.LONE``: the level of a plain line whose place ``law_headings`` decides)."""
    lines = [(m.start(), m.group()) for m in _LINE.finditer(text) if m.group()]
    headings: list[Heading] = []
    for index, (start, raw) in enumerate(lines):
        line = raw.rstrip("\r\n")
        title = line.strip()
        before = lines[index - 1][1].strip() if index else ""
        after = lines[index + 1][1].strip() if index + 1 < len(lines) else ""
        if not title or before or after or not candidate_line(title):
            continue
        offset = start + len(line) - len(line.lstrip())
        headings.append(Heading(offset, start + len(line.rstrip()), LONE, title))
    return headings


#: The ranks of the articulado (LIBRO, TÍTULO, CAPÍTULO) whose plain line takes the level
#: under the law's title; other units take the level of the heading before them.
_HIGH_RANK: Final = 3


def _lone_level(
    heading: Heading, following: Heading | None, grouped: bool, top: int, last: int
) -> int | None:
    """The level a plain candidate line takes as a heading, or ``None``: text."""
    unit = legal_unit(heading.title) if heading_line(heading.title) is not None else None
    if unit is not None:
        high = unit.name in ANNEXES or (unit.part == "disposiciones" and unit.rank == 1)
        high = high or (unit.part == "articulado" and unit.rank <= _HIGH_RANK)
        return top + 1 if high else last
    if ordinal_disposicion(heading.title):
        return last + 1 if grouped else None
    if heading.body_is_empty and following is not None and legal_unit(following.title):
        return top + 1  # an approved text's title right before its units
    return None


def _placed(headings: Sequence[Heading]) -> list[Heading]:
    """The headings with each plain candidate line (level ``LONE``) kept, with a level,
    only where it is a heading (``_lone_level``); a line left out is text again."""
    marked = [h.level for h in headings if h.level != LONE]
    top = min(marked, default=1)
    kept: list[Heading] = []
    last, grouped = top + 1, False
    for index, heading in enumerate(headings):
        following = headings[index + 1] if index + 1 < len(headings) else None
        level = (
            heading.level
            if heading.level != LONE
            else _lone_level(heading, following, grouped, top, last)
        )
        if level is None:
            continue
        unit = legal_unit(heading.title)
        grouped = (
            unit.name == "disposiciones"
            if unit is not None
            else (grouped and ordinal_disposicion(heading.title))
        )
        kept.append(replace(heading, level=level))
        last = level
    return kept


#: A unit's name on the line after its number: one line, no longer than the grammar's
#: ``name_limit``; with text after it, opening with a capital, no list item's label,
#: ending as no lead-in does.
_ITEM: Final = re.compile(r"(?:\d+|[a-zA-Z])[.)º]\s|[-–—•·]\s")  # noqa: RUF001 - dashes


#: A sentence, not a name: a paragraph long (200 characters or more), opening with an
#: article or a preposition ("Los límites…", "Para la retribución…", "Durante un
#: periodo…"; a name opens "De la protección…" or "Acuerdo de…"), ending with a full stop.
_SENTENCE: Final = re.compile(rf"{SENTENCE_OPENER}.{{190,}}\.", re.DOTALL)


def _name_after(text: str, heading: Heading, following: int) -> tuple[int, int] | None:
    """``[start, end)`` of the name a unit's number-only heading carries on the line
    after it ("CAPÍTULO III", then "De la protección del dominio público hidráulico"),
    before ``following`` (the next heading's start), or ``None``."""
    match = re.compile(r"\s*\n[ \t]*\n?[ \t]*(?P<name>[^\n]+)").match(text, heading.end)
    if match is None or match.start("name") >= following:
        return None
    start, end = match.span("name")
    name = match.group("name").strip()
    tail = text[end:following]
    if tail.strip() and not re.match(r"[ \t]*\r?\n[ \t]*\r?\n", tail):
        return None  # a paragraph of several lines
    last = following >= len(text)  # the text's end: its last paragraph may be its body
    name = name.strip("*_ ")  # "**Disposiciones generales**"
    if (
        not (name[:1].isupper() or name[:1].isdigit())
        or quoted(name)
        or name.startswith((">", "|", "#"))
    ):
        return None
    # A lead-in whose list or table the text does not hold ("ANEXO II", then "Durante
    # 2026 las cuantías … en los importes siguientes:") or a sentence a paragraph long
    # ("ANEJO II", then "Para la retribución de los capellanes … se fija …") is the
    # unit's text, wherever it stands.
    if name.endswith(":") or _SENTENCE.fullmatch(name):
        return None
    # Right before the next heading it can only be the name ("CAPÍTULO II", "02. Tasa
    # por redacción de proyectos", however long); with text after it, it must not read
    # as text.
    if (tail.strip() or last) and (
        len(name) > name_limit(heading.title)
        or not name[:1].isupper()
        or _ITEM.match(name)
        or name.endswith((":", ";", ","))
        or re.search(r"\.\s+\S", name.rstrip(". "))
    ):
        return None
    return start, start + len(match.group("name").rstrip())


def _named(text: str, headings: Sequence[Heading]) -> list[Heading]:
    """The headings with a unit's name written on the line after its number-only heading
    joined to it: one heading ("CAPÍTULO III. De la protección…") over both lines, so
    that no section is a heading and its name alone."""
    joined: list[Heading] = []
    for index, heading in enumerate(headings):
        following = headings[index + 1].start if index + 1 < len(headings) else len(text)
        name = _name_after(text, heading, following) if number_only(heading.title) else None
        if name is None:
            joined.append(heading)
            continue
        number = heading.title.strip("*_ ").rstrip(" .:")  # "*Sección 1.*": no emphasis
        title = f"{number}. {text[name[0] : name[1]].strip(' *_')}"
        joined.append(Heading(heading.start, name[1], heading.level, title))
    return joined


def _signed(text: str, headings: Sequence[Heading]) -> list[Heading]:
    """The headings with an empty one at each signature (``legal_grammar.SIGNATURE``: a
    paragraph "Dado en Madrid, el 16 de noviembre de 2007.") whose last heading before it
    is a provision (an article, a disposición, an apartado): the law's provisions end
    there. An empty heading closes the sections of its level and below
    (``headings.sections_of``); a signature inside an ANEXO (a form's date) is text."""
    if not headings:
        return []
    starts = [heading.start for heading in headings]
    top = min(heading.level for heading in headings)
    signed = list(headings)
    for found in reversed(list(SIGNATURE.finditer(text))):
        at = found.start()
        if at and text[max(0, at - 2) : at].count("\n") < 2 and at > 1:
            continue  # not a paragraph of its own
        index = bisect.bisect_right(starts, at) - 1
        if index < 0 or not _provision(headings[index].title):
            continue
        signed.insert(index + 1, Heading(at, found.end(), top + 1, "", body_is_empty=False))
    return signed


def _provision(title: str) -> bool:
    unit = legal_unit(title)
    if unit is not None:
        return unit.name in ("artículo", "disposición")
    return bool(ordinal_apartado(title) or ordinal_disposicion(title))


def _rooted(headings: Sequence[Heading]) -> list[Heading]:
    """A law's headings with its title the one root: a later heading at the title's
    level (a Markdown law's inner ``#``: "# PARTE DISPOSITIVA", an instruction's title)
    hangs below it."""
    if not headings:
        return []
    top = headings[0].level
    if top == LONE or any(h.level < top for h in headings):
        return list(headings)
    return [
        headings[0],
        *(replace(h, level=top + 1) if h.level == top else h for h in headings[1:]),
    ]


def law_headings(text: str, headings: Sequence[Heading]) -> list[Heading]:
    """A law's own headings from the candidates of its ``text`` (marked headings with
    their levels; plain lines alone in their paragraph at level ``LONE``), in text order,
    before ranking (``relevel``):

    * a marked formula, note or broken line is text (``formulas_as_text``);
    * quoted amended text is text (``quotations.own_headings``), as is a list of
      contents naming units (``contents.listed_units_as_text``);
    * a unit's plain line that carries its text after its label is a heading as far as
      its label ("Art. 321." of "Art. 321. En la póliza…"; ``_run_in``);
    * a plain line is a heading where its shape and place say so (``_placed``): a unit's
      line, "Primera." inside a disposiciones group, an approved text's title right
      before its units;
    * a unit's name on the line after its number joins it (``_named``), as does a name
      on a heading of its own (``named_units``);
    * the place and date the law is signed at, right after a provision, ends it: an
      empty heading there (``_signed``) closes its last disposición, so the signatures
      and a text annexed without an ANEXO heading are cited under the law alone;
    * the law's title is the root of every other heading (``_rooted``).
    """
    found = own_headings(text, formulas_as_text(headings, notes=True))
    found = rebare(text, _placed(_run_in(text, listed_units_as_text(text, found))))
    found = rebare(text, named_units(_named(text, found)))
    return _rooted(_signed(text, listed_headings(text, found)))


def _run_in(text: str, headings: Sequence[Heading]) -> list[Heading]:
    """The headings with each plain unit line that carries its text after its label
    (``legal_grammar.run_in_text``; any sentence when a unit it does not hold, or the
    text's end, follows it with nothing between) cut to its label: "Art. 2. En la
    póliza deberán constar…" heads the article as "Art. 2.", and its sentence is the
    article's text (a whole line taken as a heading left the article without text,
    cited under the next unit)."""
    cut: list[Heading] = []
    for index, heading in enumerate(headings):
        following = headings[index + 1] if index + 1 < len(headings) else None
        stop = following.start if following is not None else len(text)
        textless = not text[heading.end : stop].strip() and (
            following is None or _not_a_child(heading.title, following.title)
        )
        text_at = run_in_text(heading.title, textless) if heading.level == LONE else None
        if text_at is None:
            cut.append(heading)
            continue
        title = heading.title[:text_at].rstrip()
        cut.append(
            replace(heading, end=heading.start + len(title), title=title, body_is_empty=False)
        )
    return cut


def _not_a_child(title: str, following: str) -> bool:
    """Whether ``following`` is a unit that ``title``'s unit does not hold: the next
    article after an article, a disposición after it (a Sección's long name before its
    first Subsección or article is a name, not text)."""
    unit, after = legal_unit(title), legal_unit(following)
    return (
        unit is not None
        and after is not None
        and not (after.part == unit.part and after.rank > unit.rank)
    )


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


def formulas_as_text(headings: Sequence[Heading], notes: bool = False) -> list[Heading]:
    """The headings without those whose title is a formula, a table's unit line, an
    amount or a separator (``formula_line``: "### k = N / n", "### Miles de euros"), and
    with ``notes`` (a law's) a note in parentheses (``note_line``: "### (Derogado)") or
    the tail of a broken line (``broken_line``: "siendo:"): text of the unit they stand
    in, so the heading before one has a body.

    A broken line's tail right after a bare heading of its level is that heading's:
    "### CAPÍTULO II. Ordenación de los Servicios Médicos para enfermedad común,
    maternidad", then "### y accidente no laboral", make one heading, its title whole
    (as ``named_units`` joins a unit's number and name). One at the top level stays a
    heading: it opens a document of its own, as a treaty's protocol's subtitle "#
    reconociendo ciertos derechos…" does.
    """
    top = min((heading.level for heading in headings if heading.level > 0), default=1)
    kept: list[Heading] = []
    for heading in headings:
        title = heading.title
        broken = notes and heading.level > top and broken_line(title)
        previous = kept[-1] if kept else None
        if broken and previous and previous.body_is_empty and previous.level == heading.level:
            whole = f"{previous.title} {title}"
            kept[-1] = Heading(
                previous.start, heading.end, heading.level, whole, heading.body_is_empty
            )
        elif not (formula_line(title) or (notes and note_line(title)) or broken):
            kept.append(heading)
        elif previous and previous.body_is_empty:
            kept[-1] = replace(previous, body_is_empty=False)
    return kept
