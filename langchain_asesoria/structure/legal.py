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
    APARTADO,
    NUMERAL,
    QUOTE_CLOSE,
    QUOTE_OPEN,
    DisposicionKind,
    LegalUnit,
    Part,
    approved_text,
    broken_line,
    disposicion_kind,
    formula_line,
    legal_unit,
    note_line,
    number_only,
    numeral_title,
    ordinal_apartado,
    ordinal_article,
    ordinal_disposicion,
    plain_heading,
    promulgation,
    quoted,
)

__all__ = [
    "NUMERAL",
    "LegalUnit",
    "applies",
    "formulas_as_text",
    "legal_levels",
    "legal_lines",
    "legal_paths",
    "legal_unit",
    "lone_heading",
    "named_units",
    "nest_quoted",
    "placed",
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
    kind: DisposicionKind | None = None
    quoted: bool = False
    holds: int | None = None
    passing: bool = False


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


def _close_units(stack: list[_Open], unit: LegalUnit, kind: DisposicionKind | None) -> None:
    """Closes the legal units ``unit`` closes (a part change closes them all; a
    disposición of another ``kind`` closes the group it is not of), with what was
    opened inside them."""
    for index, item in enumerate(stack):
        if item.unit is not None and (
            item.unit.part != unit.part
            or item.unit.rank >= unit.rank
            or (kind is not None and item.kind is not None and item.kind != kind)
        ):
            del stack[index:]
            return


def _close_quotation(stack: list[_Open], title: str, unit: LegalUnit) -> None:
    """An amending law's own article ("Artículo tercero.", "Artículo único.": amended
    text numbers its articles) or disposición (quoted ones open with their «) closes the
    quoted headings open before it, with what was opened inside them."""
    if not ordinal_article(title) and unit.part != "disposiciones":
        return
    for index, item in enumerate(stack):
        if item.quoted:
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
    """A unit of the articulado above the rank a container opened with closes it: "Disposición
    general" before the articles of a TÍTULO is closed by its CAPÍTULO I; "REGLAMENTO…"
    before TÍTULO I holds every TÍTULO. Inside an ANEXO its units do the same to the
    containers opened in it and marked no higher than the unit ("### Objeto y funciones"
    before two articles is closed by the annexed rules' "### CAPÍTULO II",
    BOE-A-2019-18622); the approved text's title before the ANEXO ("REGLAMENTO…") holds
    the ANEXO, and an annexed instruction ("## Instrucción técnica…") the "### CAPÍTULO I"
    of its Secciones (BOE-A-2001-8971). An ANEXO itself closes none."""
    if unit.part == "disposiciones" or unit.name == "anexo":
        return
    first, highest = 0, 0
    if unit.part == "anexo":
        annexes = [i for i, item in enumerate(stack) if item.unit and item.unit.name == "anexo"]
        first, highest = (annexes[-1] + 1 if annexes else 0), hint
    for index, item in enumerate(stack[first:], start=first):
        if item.holds is not None and unit.rank < item.holds and item.hint >= highest:
            del stack[index:]
            return


#: A disposición numbered by its ordinal alone inside its group ("Primera.").
_DISPOSICION: Final = LegalUnit("disposición", "disposiciones", 2)


def _in_group(title: str, stack: Sequence[_Open]) -> LegalUnit | None:
    """``"Primera."``, ``"Segunda. Entrada en vigor."`` is a disposición when a
    disposiciones group is open, else nothing."""
    grouped = any(item.unit is not None and item.unit.name == "disposiciones" for item in stack)
    return _DISPOSICION if grouped and ordinal_disposicion(title) else None


def _apartados(units: Sequence[LegalUnit | None]) -> bool:
    """Whether the text numbers its provisions as apartados ("Primero.", "Segundo."), as
    orders and resolutions do: it has no article."""
    return not any(unit is not None and unit.name == "artículo" for unit in units)


def _unit_of(title: str, stack: Sequence[_Open], apartados: bool) -> LegalUnit | None:
    """The unit of a title that ``legal_unit`` does not rank: a disposición's ordinal
    inside its group ("Primera."), or an apartado's in a text without articles."""
    grouped = _in_group(title, stack)
    if grouped is None and apartados and ordinal_apartado(title):
        return _ranked(APARTADO, stack)
    return grouped


#: The units that quote the provisions they amend.
_QUOTING: Final = frozenset({"artículo", "disposición"})


def _quoting(stack: Sequence[_Open]) -> int | None:
    """Where the open article or disposición that quotes amended text stands in
    ``stack``: a quoted heading ("«TÍTULO II…", "### «CAPÍTULO IV…") is its leaf and
    closes none of the law's own units, whatever its level; ``None`` outside one."""
    return next(
        (
            index
            for index in range(len(stack) - 1, -1, -1)
            if (unit := stack[index].unit) is not None and unit.name in _QUOTING
        ),
        None,
    )


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
    apartados = _apartados(units)
    stack: list[_Open] = []
    levels: list[int] = []
    for index, (unit, hint) in enumerate(zip(units, hints, strict=True)):
        ranked = (
            _ranked(unit, stack) if unit is not None else _unit_of(titles[index], stack, apartados)
        )
        quoting = _quoting(stack) if ranked is None and quoted(titles[index]) else None
        if quoting is not None:
            del stack[quoting + 1 :]
            levels.append(quoting + 2)
            continue
        if ranked is None:
            root = hint <= top
            if root:
                stack.clear()
            # A bare legal unit's own title on a heading of its own ("ANEXO", then
            # "Normas de diligencia debida") is its child, whatever its level.
            titled = index > 0 and flags[index - 1] and stack and stack[-1].unit is not None
            interrupts = _in_article(stack)
            while stack and not stack[-1].root and stack[-1].hint >= hint and not titled:
                stack.pop()
            following = units[index + 1] if index + 1 < len(units) else None
            # Neither a numeral ("5", "III") nor the promulgation ("DISPONGO:", "REY DE
            # ESPAÑA") opens the legal units after it.
            leaf = not root and promulgation(titles[index]) is not None
            opens = (
                flags[index]
                and not quoted(titles[index])  # amended text's heading holds none of the law
                and following is not None
                and following is not NUMERAL
                and not leaf
                and not numeral_title(titles[index])
                and (titled or not _sibling(titles[index], hint, hints[index + 1]))
            )
            # The rank it holds is where that unit stands: inside an ANEXO, its own.
            held = (
                ranked_following.rank
                if opens
                and following is not None
                and following.part == "articulado"
                and (ranked_following := _ranked(following, stack)) is not None
                else None
            )
            entry = _Open(
                hint,
                None,
                root,
                opens,
                quoted=quoted(titles[index]),
                holds=held,
                passing=numeral_title(titles[index])
                or (
                    interrupts
                    and not opens
                    and not quoted(titles[index])  # nested in its article afterwards
                    and not approved_text(titles[index])
                ),
            )
            if leaf:  # its own level, but nothing nests under it
                levels.append(len(stack) + 1)
                continue
        else:
            kind = disposicion_kind(titles[index]) if ranked.part == "disposiciones" else None
            _close_units(stack, ranked, kind)
            _close_quotation(stack, titles[index], ranked)
            _close_containers(stack, ranked, hint)
            _close_numerals(stack, hint)
            entry = _Open(hint, ranked, kind=kind)
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


def lone_heading(line: str) -> bool:
    """Whether a plain line alone in its paragraph may be a heading of a law whose other
    headings are marked (``placed`` decides by its neighbours): a legal heading's shape
    (``plain_heading``), a disposición's ordinal ("Primera.") or an approved text's title
    in capitals ("TEXTO REFUNDIDO DE LA LEY…")."""
    return plain_heading(line) or ordinal_disposicion(line) or approved_text(line)


def placed(text: str, headings: Sequence[Heading], lone: int) -> list[Heading]:
    """``headings`` of ``text``, where those of level ``lone`` are plain lines that
    ``lone_heading`` took: each kept, with a level, only where it is one.

    A plain line inside «quoted» amended text is text; "Primera." is a heading only
    inside a disposiciones group; an approved text's title only right before a legal
    unit, as the law's second document (the level under the law's title). A legal unit
    takes the level of the marked heading before it. A line left out is body again, so
    the heading before it is not bare.
    """
    marked = [h.level for h in headings if h.level != lone]
    top = min(marked, default=1)
    kept: list[Heading] = []
    last = top + 1
    quotes = _Quotes(text)
    grouped = False
    for index, heading in enumerate(headings):
        if heading.level != lone:
            kept.append(heading)
            last = heading.level
            grouped = _grouped(grouped, heading.title)
            quotes.heading(heading)
            continue
        depth = quotes.depth_at(heading.start)
        following = headings[index + 1] if index + 1 < len(headings) else None
        level = _lone_level(heading, following, depth, grouped, top, last)
        if level is None:
            if kept and kept[-1].body_is_empty:
                kept[-1] = replace(kept[-1], body_is_empty=False)
            continue
        grouped = _grouped(grouped, heading.title)
        kept.append(replace(heading, level=level))
    return kept


def _grouped(grouped: bool, title: str) -> bool:
    """Whether a disposiciones group is open after a heading of this title: it opens
    one, or one was open and it is one of its "Primera."."""
    unit = legal_unit(title)
    if unit is not None:
        return unit.name == "disposiciones"
    return grouped and ordinal_disposicion(title)


@dataclass(slots=True)
class _Quotes:
    """How many quotations are open at each plain line of ``text``, read in order (one
    ``placed`` call): marks are counted from the last heading of the law's own units,
    or, from a quoted heading ("«TÍTULO III…"), until its quotation closes."""

    text: str
    depth: int = 0
    counted: int = 0
    amended: bool = False

    def heading(self, heading: Heading) -> None:
        if quoted(heading.title):
            self.depth = max(1, self.depth + _quote_depth(self.text, self.counted, heading.end))
            self.amended, self.counted = True, heading.end
        elif not self.amended and legal_unit(heading.title) is not None:
            self.depth, self.counted = 0, heading.end

    def depth_at(self, start: int) -> int:
        self.depth = max(0, self.depth + _quote_depth(self.text, self.counted, start))
        self.amended, self.counted = self.amended and self.depth > 0, start
        return self.depth


def _quote_depth(text: str, start: int, end: int) -> int:
    """How many more quotations open than close in ``text[start:end]``."""
    part = text[start:end]
    opened = sum(part.count(mark) for mark in QUOTE_OPEN if mark not in QUOTE_CLOSE)
    closed = sum(part.count(mark) for mark in QUOTE_CLOSE if mark not in QUOTE_OPEN)
    return opened - closed


#: The ranks of the articulado (LIBRO, TÍTULO, CAPÍTULO) whose plain line closes every
#: open heading but the law's title and an approved text's.
_HIGH_RANK: Final = 3


def _lone_level(
    heading: Heading,
    following: Heading | None,
    depth: int,
    grouped: bool,
    top: int,
    last: int,
) -> int | None:
    """The level a plain line takes as a heading (``placed``), or ``None``: text."""
    if depth > 0:
        return None
    if plain_heading(heading.title):
        unit = legal_unit(heading.title)
        high = unit is not None and (unit.part == "anexo" or unit.rank <= _HIGH_RANK)
        return top + 1 if high else last
    if ordinal_disposicion(heading.title):
        return last + 1 if grouped else None
    bare = heading.body_is_empty and following is not None
    if bare and following is not None and legal_unit(following.title) is not None:
        return top + 1
    return None


#: How many legal headings, articles or disposiciones among them, make a law.
_MIN_UNITS: Final = 3
_MIN_ARTICLES: Final = 2


def applies(titles: Sequence[str]) -> bool:
    """Whether headings with these titles are a law's: at least three legal units, two
    of them articles or disposiciones, and legal units at least half of the headings,
    or of those before the first ANEXO (an annex's own headings are the annex's). A
    disposición numbered by its ordinal alone ("Primera.") counts as one. The
    promulgation as a heading ("DISPONGO:", "REY DE ESPAÑA") with an article or a
    disposición after it is a law's, whatever the count."""
    units = [legal_unit(title) or _ordinal_unit(title) for title in titles]
    if _apartados(units):
        units = [
            unit or (APARTADO if ordinal_apartado(t) else None)
            for unit, t in zip(units, titles, strict=True)
        ]
    if _promulgated(titles, units):
        return True
    found = [unit for unit in units if unit is not None]
    articles = [unit for unit in found if unit.name in _PROVISIONS]
    annex = next((i for i, unit in enumerate(units) if unit and unit.part == "anexo"), None)
    if len(found) < _MIN_UNITS or len(articles) < _MIN_ARTICLES:
        return False
    body = units[:annex] or units
    return 2 * len(found) >= len(units) or 2 * sum(map(bool, body)) >= len(body)


def _promulgated(titles: Sequence[str], units: Sequence[LegalUnit | None]) -> bool:
    """Whether the promulgation (the enacting formula, "DISPONGO:", or the Head of
    State's title, "REY DE ESPAÑA") is a heading with an article or a disposición after
    it: the law's own provisions follow it, whatever its annex's headings are."""
    formula = next(
        (index for index, title in enumerate(titles) if promulgation(title) is not None), None
    )
    return formula is not None and any(
        unit is not None and unit.name in _PROVISIONS for unit in units[formula + 1 :]
    )


def _ordinal_unit(title: str) -> LegalUnit | None:
    return _DISPOSICION if ordinal_disposicion(title) else None


#: A line of plain text, with its line ending.
_LINE: Final = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")
#: The longest line taken for a heading (a disposición's title runs to 330 characters).
_MAX_HEADING: Final = 500


def _heading_line(title: str) -> bool:
    """Whether a plain-text line alone in its paragraph is a heading: it opens with a
    legal unit, and an article's line is only its number and title ("Artículo 5.",
    "Artículo primero. Objeto", "Artículo 5"), never a sentence ("Artículo 5 de esta Ley
    establece que…")."""
    unit = legal_unit(title)
    if unit is None:
        return False
    return unit.name != "artículo" or plain_heading(title) or plain_heading(title + ".")


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
        if not _heading_line(title):
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
