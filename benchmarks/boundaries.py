"""Where a reader sees units begin and end: sentences, lines, list items, lists, tables.

Pure functions over the text the chunks' offsets refer to (``joined``), written from
what a reader of a Spanish law sees, not from the engine's separators, so that
``benchmarks.quality`` measures the engine rather than restating it. ``pdf`` marks text
extracted from a PDF, where a line break after a space or tab is a printed line that
wrapped inside a sentence ("del \\ncontribuyente"), not a line of its own.

* A **line break** before position ``p``: the whitespace before ``p`` holds a line
  break, and (PDF) the text before it does not end with a space or tab.
* A **sentence end** before ``p``: the text before ends with ``.``, ``!``, ``?`` or
  ``…`` (closing quotes and brackets after it allowed), and the word holding that
  period is neither an abbreviation (``ABBREVIATIONS``: "art.", "núm.", "apdo.",
  "Sr.", "etc.", and initials such as "S.A.", "A.P.G.") nor an item label alone on its
  line ("2." of "\\n2. Las personas").
* An **item label** (``LABEL``): "1.", "2.º", "1.ª", "3)", "a)", "b´)", "a.", "I.",
  "i)", "ii)", "A.", "Uno.", "Artículo 5.", or a bullet, at the start of a logical line
  and followed by a space or the line's end ("i)" is a roman numeral, not a letter).
* A **logical line** (a block): a line, with the lines a PDF wrapped into it joined.
* A **clean start**: the chunk starts the text, or after a line break or a sentence end,
  or opens with an item label. A **clean end**: the chunk ends the text, or before a
  line break, or with a sentence end; never with a bare label.
* A **forced clause cut**: a start (end) right after a clause mark (``,``, ``;``, ``:``)
  inside a sentence that does not fit in the chunk beside its context: some cut
  inside that sentence is unavoidable, and a clause is where a reader makes it. The
  quality benchmark counts these as clean and reports how many there are.
* A **bare label end**: the chunk's last logical line is an item label alone
  ("…del ahorro.\\nb." or "…período. 2.").
* A **list**: a block ending in ``:`` (its lead-in) whose next block opens with an item
  label; its items are the blocks with the first item's kind of label, and the blocks
  between them (an item's own paragraphs, nested lists). It ends with its last item's
  first block, before a heading ("#", "Artículo N.", quoted or not), a coarser label
  (an article holds "Uno.", which holds "1.", then "a)", then "1.º", then bullets) or a
  label of the lead-in's own kind (the lead-in's sibling), a new lead-in of its items'
  kind ("… los siguientes requisitos:" then "1.º" again), and before a section's
  start (the document's sections as read: a web page's "Sección VI." or a PDF's
  outline title ends every list, though it reads as no heading here).
* A **table**: Markdown pipe rows (``|`` at a line's start), its header the first row; a
  web page's table as ``structure.html`` renders it (a row per line, cells joined by
  ``" | "``, the rows of a table inside a cell joined by ``"; "``), its header the
  ``<thead>``/``<th>`` rows, else the first row; in a PDF, a
  run of two or more numeric rows (lines of which at least two words, and at least
  half of them, are numbers), its header the lines above the run up to a blank line or
  a line ending in ``:`` (at most ``PDF_HEADER_LINES``).
* A start **inside a table row**: within a table, after text of the same row (not at
  a line's start nor after an inner row's ``"; "``), unless at a sentence start within
  a cell's text: a cell that holds prose (a paragraph of its own line in a web page's
  table, or sentences before the next ``" | "``) is read as prose, while a start at a
  cell separator ("ALBACETE. | 02") or mid-sentence is inside the row. A start after an
  inner row's ``"; "`` is a clean start, and an end with it a clean end (the boundary
  between two rows). A start **inside a word**: between two letters or digits.
* A chunk **continues** a list or a table when it starts at or after the end of the
  lead-in (the header) and before the unit's end: it does not hold the lead-in itself.
  It **carries** it when the part of its ``embedding_text`` before its text (prefix and
  context) holds the lead-in (header), whitespace collapsed, or its shortened form: the
  last ``SHORT_WORDS`` words of a lead-in, the first ``SHORT_WORDS`` words of a header.
"""  # noqa: RUF002 - an acute accent is part of a label of Spanish laws

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

#: Abbreviations whose period ends no sentence (lower-cased, without the period).
_ABBREVIATED = "art arts núm núms nº apdo apdos aptdo pág págs párr sr sra sres srs d dña dª"
ABBREVIATIONS: Final = frozenset(
    (_ABBREVIATED + " excmo excma ilmo ilma etc vid cfr ss op cit ej ee.uu s.a s.l s.l.u").split()
)
_INITIALS: Final = re.compile(r"(?:[A-ZÁÉÍÓÚÑ]{1,2}\.)+")

_WORD_NUMERALS: Final = (
    "Uno|Dos|Tres|Cuatro|Cinco|Seis|Siete|Ocho|Nueve|Diez|Once|Doce|Trece|Catorce|Quince"
)
#: Item labels, one alternative per kind (``label_kind`` names them by position).
_KINDS: Final = (
    r"\d{1,3}\.?[ºª°]\.?",  # 2.º, 1.ª, 3º
    r"\d{1,3}\.",  # 1.
    r"\d{1,3}\)",  # 3)
    r"[a-zñ](?:[\u00b4'`\u2019]{1,2})?\)",  # a), b\u00b4) with an acute accent
    r"[a-zñ]\.",  # a.
    r"[IVXLC]{1,6}\.",  # IV.
    rf"(?:{_WORD_NUMERALS})\.",  # Ocho.
    r"Art[íi]culo\s+\d+(?:\s+(?:bis|ter|quater))?\.?",  # Artículo 5.
    r"[•·▪◦●‣∙\-\u2013—]",  # bullets and dashes
)
LABEL: Final = re.compile("|".join(f"({kind})" for kind in _KINDS))
_ARTICLE_KIND: Final = 8  # the group of "Artículo 5." in LABEL (1-based)
#: Kinds read before ``LABEL``'s: a roman numeral in a bracket ("i)", "ii)", "iv)"; an
#: "i)" is read so even after "h)"), an upper-case letter's apartado ("A.", "D."), a
#: letter with a prime ("b')", an acute accent too: the BOE's items inside a letter's).
_ROMAN_KIND, _LETTER_KIND, _PRIME_KIND = 10, 11, 12
_BEFORE: Final = (
    (_ROMAN_KIND, re.compile(r"(?:i{1,3}|iv|vi{0,3}|ix|xi{0,3})\)")),
    (_LETTER_KIND, re.compile(r"[ABD-HJKM-UWYZÑ]\.")),  # not C, I, L, V, X: roman
    (_PRIME_KIND, re.compile(r"[a-zñ][\u00b4'`\u2019]{1,2}\)")),  # nested in a letter's item
)
_CLOSERS: Final = "\"'»”’)]"  # noqa: RUF001 - closing quotes

#: Words of a lead-in's end, or a header's start, that stand for the whole.
SHORT_WORDS: Final = 4
#: Lines above a PDF's numeric rows that may be their header.
PDF_HEADER_LINES: Final = 20
_NUMBER: Final = re.compile(r"[-\u2013]?\d[\d.,]*%?")


def label_kind(text: str) -> int | None:
    """The kind of item label ``text`` opens with (followed by a space or its end)."""
    for kind, pattern in _BEFORE:
        if (found := pattern.match(text)) and _label_ends(text, found.end()):
            return kind
    match = LABEL.match(text)
    if match is None or not _label_ends(text, match.end()):
        return None
    return match.lastindex


def _label_ends(text: str, end: int) -> bool:
    return end == len(text) or text[end].isspace()


def is_bare_label(line: str) -> bool:
    """Whether ``line`` is an item label and nothing else."""
    stripped = line.strip()
    if any(pattern.fullmatch(stripped) for _, pattern in _BEFORE):
        return True
    return LABEL.fullmatch(stripped) is not None


def line_break_before(joined: str, position: int, pdf: bool) -> bool:
    """Whether a line break (not a wrapped PDF line) is in the whitespace before."""
    text = joined[:position].rstrip()
    gap = joined[len(text) : position]
    if "\n" not in gap and "\r" not in gap:
        return False
    return not (pdf and gap[:1] in {" ", "\t"})


def line_break_after(joined: str, position: int, pdf: bool) -> bool:
    """Whether the whitespace after ``position`` holds a line break (as above)."""
    rest = joined[position:]
    gap = rest[: len(rest) - len(rest.lstrip())]
    if "\n" not in gap and "\r" not in gap:
        return False
    return not (pdf and gap[:1] in {" ", "\t"})


def last_line(text: str, pdf: bool) -> str:
    """The last logical line of ``text`` (a PDF's wrapped lines joined)."""
    lines = text.rstrip().split("\n")
    kept = [lines.pop()]
    while pdf and lines and lines[-1][-1:] in {" ", "\t"}:
        kept.insert(0, lines.pop())
    return "".join(kept)


def sentence_end(text: str, pdf: bool) -> bool:
    """Whether ``text`` ends a sentence (module docstring)."""
    stripped = text.rstrip().rstrip(_CLOSERS)
    if not stripped.endswith((".", "!", "?", "…")):
        return False
    if is_bare_label(last_line(stripped, pdf)):
        return False
    words = stripped.split()
    word = words[-1].lstrip(_CLOSERS + "(«“¿¡") if words else ""
    if not word.endswith("."):
        return True
    return not (word[:-1].lower() in ABBREVIATIONS or _INITIALS.fullmatch(word))


def ends_with_bare_label(text: str, pdf: bool) -> bool:
    """Whether the chunk text's last logical line is a label alone, or a label after
    its last sentence ("…período. 2.")."""
    line = last_line(text, pdf).strip()
    if is_bare_label(line):
        return True
    head, _, tail = line.rpartition(" ")
    return bool(head) and is_bare_label(tail) and sentence_end(head, pdf)


def clean_start(joined: str, start: int, text: str, pdf: bool) -> bool:
    """Whether a chunk starting at ``start`` with ``text`` starts cleanly."""
    before = joined[:start]
    if not before.strip() or line_break_before(joined, start, pdf):
        return True
    return sentence_end(before, pdf) or label_kind(text) is not None


def clean_end(joined: str, end: int, text: str, pdf: bool) -> bool:
    """Whether a chunk ending at ``end`` with ``text`` ends cleanly."""
    if ends_with_bare_label(text, pdf):
        return False
    if not joined[end:].strip() or line_break_after(joined, end, pdf):
        return True
    return sentence_end(text, pdf)


#: A place where a sentence may end (``sentence_end`` then decides).
_END_MARK: Final = re.compile(r"[.!?…][\"'»”’)\]]*(?=\s|$)")  # noqa: RUF001 - quotes
#: Characters of text before a mark that ``sentence_end`` needs to decide (its last
#: logical line's label, its last word).
_END_WINDOW: Final = 400


def _line_start(joined: str, position: int, pdf: bool) -> int:
    """Where the logical line holding ``position`` starts (a PDF's wrapped lines joined)."""
    index = joined.rfind("\n", 0, position)
    while pdf and index > 0 and joined[index - 1] in " \t":
        index = joined.rfind("\n", 0, index)
    return index + 1


def _line_end(joined: str, position: int, pdf: bool) -> int:
    """Where the logical line holding ``position`` ends."""
    index = joined.find("\n", position)
    while pdf and index > 0 and joined[index - 1] in " \t":
        index = joined.find("\n", index + 1)
    return len(joined) if index < 0 else index


def sentence_around(joined: str, position: int, pdf: bool) -> tuple[int, int]:
    """``[start, end)`` of the sentence holding ``position``: from the last sentence end
    (or line break) before it to the first one after it."""
    start, end = _line_start(joined, position, pdf), _line_end(joined, position, pdf)
    for mark in reversed(list(_END_MARK.finditer(joined, start, position))):
        if sentence_end(joined[max(start, mark.end() - _END_WINDOW) : mark.end()], pdf):
            start = mark.end()
            break
    for mark in _END_MARK.finditer(joined, position, end):
        if sentence_end(joined[max(start, mark.end() - _END_WINDOW) : mark.end()], pdf):
            return start, mark.end()
    return start, end


def after_clause(text: str) -> bool:
    """Whether ``text`` ends with a clause mark (``,``, ``;``, ``:``), spaces aside."""
    return text.rstrip().endswith((",", ";", ":"))


def inside_word(joined: str, start: int) -> bool:
    """Whether ``start`` falls between two letters or digits of one word."""
    return 0 < start < len(joined) and joined[start - 1].isalnum() and joined[start].isalnum()


@dataclass(frozen=True, slots=True)
class Block:
    """A logical line: ``joined[start:end]``, stripped."""

    start: int
    end: int
    text: str


def blocks(joined: str, pdf: bool) -> list[Block]:
    """The text's logical lines, blank lines left out (a PDF's wrapped lines joined)."""
    found: list[Block] = []
    position, opened = 0, None
    for line in joined.split("\n"):
        end = position + len(line)
        if line.strip():
            opened = position if opened is None else opened
            if not (pdf and line[-1:] in {" ", "\t"}):
                found.append(_block(joined, opened, end))
                opened = None
        elif opened is not None:
            found.append(_block(joined, opened, position - 1))
            opened = None
        position = end + 1
    if opened is not None:
        found.append(_block(joined, opened, len(joined)))
    return found


def _block(joined: str, start: int, end: int) -> Block:
    text = joined[start:end]
    lead = len(text) - len(text.lstrip())
    return Block(start + lead, start + len(text.rstrip()), text.strip())


@dataclass(frozen=True, slots=True)
class Unit:
    """A list or a table: its lead-in or header, where that ends, and where it ends."""

    kind: str  # "list" or "table"
    lead: str
    lead_end: int
    end: int
    start: int = 0


#: How coarse each kind of label is in a Spanish law (``LABEL``'s groups): an article
#: holds "Uno.", which holds "1.", which holds "a)", which holds "1.º"; bullets are finest.
_RANKS: Final = {8: 0, 7: 1, 6: 2, 11: 2, 2: 3, 3: 3, 4: 4, 5: 4, 1: 5, 10: 5, 12: 5, 9: 6}


def _heading(block: Block) -> bool:
    """A Markdown heading or an article's first line, quoted ones (a modification) too."""
    text = block.text.lstrip('«"“')
    return text.startswith("#") or label_kind(text) == _ARTICLE_KIND


def lists(found: Sequence[Block], breaks: Sequence[int] = ()) -> Iterator[Unit]:
    """The lists of the text (module docstring), nested ones too; none runs across a
    section's start (``breaks``, ascending: a new section ends every list)."""
    for index, lead in enumerate(found[:-1]):
        first = found[index + 1]
        kind = label_kind(first.text)
        if not lead.text.endswith(":") or kind is None or _heading(first):
            continue
        cut = next((at for at in breaks[bisect.bisect_right(breaks, lead.start) :]), None)
        if cut is not None and first.start >= cut:
            continue
        last = _last_item(found, index + 1, kind, label_kind(lead.text), cut)
        yield Unit("list", lead.text, lead.end, last.end, lead.start)


def _last_item(
    found: Sequence[Block], first: int, kind: int, sibling: int | None, cut: int | None
) -> Block:
    """The first block of the last item of the list whose first item is
    ``found[first]`` (its items of ``kind``; ``sibling``: the lead-in's own kind)."""
    last = found[first]
    for number in range(first + 1, len(found)):
        block = found[number]
        other = label_kind(block.text)
        coarser = other is not None and _RANKS[other] < _RANKS[kind]
        if (cut is not None and block.start >= cut) or _heading(block) or coarser:
            break
        leads_own = sibling is not None and other == sibling != kind
        if leads_own or _new_lead_in(found, number, kind):
            break
        if other == kind:
            last = block
    return last


def _new_lead_in(found: Sequence[Block], number: int, kind: int) -> bool:
    """A block ending in ``:`` whose next block opens an item of ``kind``: a new list of
    the same level ("… siguientes requisitos:" then "1.º" again)."""
    return (
        found[number].text.endswith(":")
        and number + 1 < len(found)
        and label_kind(found[number].text) != kind
        and label_kind(found[number + 1].text) == kind
    )


def _numeric(line: str) -> bool:
    words = line.split()
    numbers = sum(bool(_NUMBER.fullmatch(word)) for word in words)
    return numbers >= 2 and 2 * numbers >= len(words)


def _runs(found: Sequence[Block], test: Callable[[str], bool]) -> Iterator[tuple[int, int]]:
    """``(first, last)`` indexes of runs of two or more blocks passing ``test``."""
    first = None
    for index, block in enumerate([*found, Block(0, 0, "")]):
        passed = bool(block.text) and test(block.text)
        if passed and first is None:
            first = index
        elif not passed and first is not None:
            if index - first >= 2:
                yield first, index - 1
            first = None


def pipe_tables(joined: str) -> Iterator[Unit]:
    """Markdown pipe tables: their first row is the header."""
    rows = blocks(joined, pdf=False)
    for first, last in _runs(rows, lambda text: text.startswith("|")):
        header = rows[first]
        yield Unit("table", header.text, header.end, rows[last].end, header.start)


def numeric_tables(joined: str) -> Iterator[Unit]:
    """A PDF's runs of numeric rows; their header is the lines above (docstring)."""
    lines = list(_lines(joined))
    for first, last in _runs(lines, _numeric):
        above: list[Block] = []
        for block in reversed(lines[max(0, first - PDF_HEADER_LINES) : first]):
            if not block.text or block.text.endswith(":"):
                break
            above.insert(0, block)
        lead = " ".join(block.text for block in above)
        start = above[0].start if above else lines[first].start
        yield Unit("table", lead, lines[first].start, lines[last].end, start)


def _lines(joined: str) -> Iterator[Block]:
    position = 0
    for line in joined.split("\n"):
        yield Block(position, position + len(line), line.strip())
        position += len(line) + 1


def html_table(joined: str, start: int, end: int, header_end: int) -> Unit:
    """A web page's table; with no header rows, its first row is the header."""
    if header_end <= start:
        newline = joined.find("\n", start, end)
        header_end = end if newline < 0 else newline
    return Unit("table", joined[start:header_end].strip(), header_end, end, start)


def inside_row(joined: str, start: int, tables: Sequence[Unit], pdf: bool = False) -> bool:
    """Whether ``start`` falls inside a table's row (module docstring): not at a row's
    start (a line's start, or after the ``"; "`` that joins the rows of a table inside
    a web page's cell), nor at a sentence start within a cell's text."""
    for table in tables:
        if table.start < start < table.end:
            line_start = joined.rfind("\n", 0, start) + 1
            before = joined[line_start:start].rstrip()
            if before and not before.endswith(";") and not _in_cell_text(joined, start, pdf):
                return True
    return False


def row_start(joined: str, start: int, tables: Sequence[Unit]) -> bool:
    """Whether ``start`` opens a row of a table inside a web page's cell (after the
    ``"; "`` that joins those rows)."""
    before = joined[:start].rstrip()
    return before.endswith(";") and any(t.start < start < t.end for t in tables)


def row_end(joined: str, end: int, text: str, tables: Sequence[Unit]) -> bool:
    """Whether a chunk ending at ``end`` with ``text`` ends a row of a table inside a
    web page's cell (its ``";"``)."""
    return text.endswith(";") and any(t.start < end < t.end for t in tables)


def _in_cell_text(joined: str, start: int, pdf: bool) -> bool:
    """A sentence start within a cell's prose: the text since the last cell separator
    (or the line's start) ends a sentence, and ``start`` is no cell separator ("|")."""
    line_start = joined.rfind("\n", 0, start) + 1
    cell_start = max(line_start, joined.rfind(" | ", line_start, start) + 3)
    cell = joined[cell_start:start]
    return (
        bool(cell.strip())
        and not joined[start:].startswith("|")
        and sentence_end(cell, pdf)
        and "|" not in cell
    )


def _words(text: str) -> list[str]:
    return text.split()


def carries(head: str, unit: Unit) -> bool:
    """Whether ``head`` (what precedes a chunk's text in its ``embedding_text``) holds
    the unit's lead-in or header, or its shortened form (module docstring)."""
    words = " ".join(_words(head))
    lead = _words(unit.lead)
    if not lead:
        return True  # nothing to carry
    short = lead[-SHORT_WORDS:] if unit.kind == "list" else lead[:SHORT_WORDS]
    return " ".join(lead) in words or " ".join(short) in words


def continued(units: Sequence[Unit], start: int) -> Unit | None:
    """The innermost unit that a chunk starting at ``start`` continues, if any."""
    inside = [unit for unit in units if unit.lead_end <= start < unit.end]
    return max(inside, key=lambda unit: unit.start, default=None)
