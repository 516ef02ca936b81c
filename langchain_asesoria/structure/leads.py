"""What a list's or a table's continuation needs to be read: its lead-in or its header.

More: ``docs/design/structure.md``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import NamedTuple

from langchain_asesoria.models import WORD_NUMERALS, LeadSpan
from langchain_asesoria.structure.legal_grammar import HEADING_START

#: Item label forms at a line start, by style: items of one list share a style.
LABEL_STYLES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (style, re.compile(pattern))
    for style, pattern in (
        ("ordinal", r"\d{1,3}\.?\s?[ºª°]\.?(?=\s)"),
        ("number", r"\d{1,3}\.(?=\s)"),
        ("number)", r"\d{1,3}\)(?=\s)"),
        ("letter´)", r"[a-zñ][´'’]{1,2}\)(?=\s)"),  # noqa: RUF001 - the BOE's primes
        ("roman)", r"(?:i{1,3}|iv|vi{0,3}|ix|xi{0,3})\)(?=\s)"),
        ("letter)", r"[a-zñ]\)(?=\s)"),
        ("LETTER)", r"[A-ZÑ]\)(?=\s)"),
        ("letter.", r"[a-zñ]\.(?=\s)"),
        ("roman", r"[IVXLC]{1,6}\.(?=\s)"),
        ("LETTER.", r"[A-ZÑ]\.(?=\s)"),
        ("word", rf"(?:{'|'.join(WORD_NUMERALS)})\.(?=\s)"),
        ("bullet", r"[-–•·▪◦●‣∙*](?=\s)"),  # noqa: RUF001 - an en dash bullet
    )
)

_BULLET = re.compile(r"[-–•·▪◦●‣∙*]")  # noqa: RUF001 - an en dash bullet

#: Every style at once, tried in ``LABEL_STYLES``' order (group ``sN``: style N).
_ANY_LABEL = re.compile(
    "|".join(
        f"(?P<s{number}>{pattern.pattern})" for number, (_, pattern) in enumerate(LABEL_STYLES)
    )
)

#: At least one line in this many after a blank line: the text parts its paragraphs so.
_BLANK_SHARE = 4
#: Most words a lead keeps (the sentence before its colon may run long).
_LEAD_WORDS = 40
#: A lead-in sentence of fewer words ("Así:", "En particular:", "A estos efectos:")
#: refers to the sentence before it, which the lead keeps too.
_SHORT_LEAD = 4
#: A PDF table's header: at most this many lines of at most this many characters.
_HEADER_LINES, _HEADER_CHARS = 16, 320

_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n|$)")
#: Line breaks of ``str.splitlines`` that are no line break here.
_OTHER_BREAKS = re.compile("[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_SENTENCE_START = re.compile(r"(?:^|[.!?…]\s+|\n\s*\n\s*)(?=\S)")
_PIPE_ROW = re.compile(r"\s*\|.*\|\s*")
_PIPE_RULE = re.compile(r"\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*")
_CELLS = " | "
_FIGURE = re.compile(r"[-+]?(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?%?")
_DIGIT, _SPACE = re.compile(r"\d"), re.compile(r"\s")
#: What ends a paragraph's last line (before trailing whitespace).
_PARAGRAPH_ENDS = frozenset(".;:!?…»”)]")


class _Line(NamedTuple):
    """A line of the text: ``[start, end)`` without its line break, read once (a law
    has thousands of lines, each looked at by several rules)."""

    start: int
    end: int
    text: str
    wrapped: bool  # it continues the line before (that one ends with a space or a tab)
    blank_before: bool  # a blank line (or the text's start) comes before it
    label: tuple[str, str] | None  # ``label_style`` of its text
    figures: int  # its words that are figures ("12.450,00"), as ``_FIGURE`` reads them
    words: int

    @property
    def stripped(self) -> str:
        return self.text.strip()


def label_style(line: str) -> tuple[str, str] | None:
    """``(style, label)`` of the item label ``line`` opens with, or None."""
    match = _ANY_LABEL.match(line.lstrip())
    if match is None or match.lastgroup is None:
        return None
    return LABEL_STYLES[int(match.lastgroup[1:])][0], match.group()


def detect_leads(text: str, breaks: Sequence[int] = ()) -> list[LeadSpan]:
    """The lists and tables of ``text`` whose continuation chunks need a lead, in order
    of their starts (an inner span starts later, and may run past the end of the item
    that holds it: the latest-starting span that holds a position applies).

    ``breaks`` are ascending offsets where a section starts (its title may not read as
    a heading: a web page's "Sección II. Requisitos generales", a PDF's outline title):
    no list or table runs across one, nor leads from one section into the next."""
    lines = _lines(text)
    blank_lines = _blank_line_paragraphs(lines)
    lists: list[LeadSpan] = []
    tables: list[LeadSpan] = []
    for part in _parts(lines, breaks):
        lists.extend(_lists(text, part, blank_lines))
        tables.extend([*_pipe_tables(part), *_cell_tables(part), *_figure_tables(part)])
    tables.sort(key=lambda table: table.start)
    table_starts = [table.start for table in tables]
    # each table first takes the lead of the list it is in, so that a list in a table
    # in a list carries all three (``_in_table``)
    tables = list(_in_lists(tables, lists))
    found = [*(_in_table(listed, tables, table_starts) for listed in lists), *tables]
    return sorted(found, key=lambda lead: (lead.start, -lead.end))


def _parts(lines: list[_Line], breaks: Sequence[int]) -> Iterator[list[_Line]]:
    """``lines`` cut before each line that starts at or after a break (one pass)."""
    cuts = iter(sorted(breaks))
    cut = next(cuts, None)
    part: list[_Line] = []
    for line in lines:
        if cut is not None and line.start >= cut:
            if part:
                yield part
            part = []
            while cut is not None and line.start >= cut:
                cut = next(cuts, None)
        part.append(line)
    if part:
        yield part


def _in_table(listed: LeadSpan, tables: list[LeadSpan], starts: list[int]) -> LeadSpan:
    """A list inside a table's cell leads with the table's header, then its lead-in (on
    a line of its own): its items are read as that column's. Tables are disjoint and
    sorted (``starts``): the one that may hold the list is found by bisection."""
    at = bisect_right(starts, listed.start) - 1
    if at < 0 or listed.start >= tables[at].end:
        return listed
    return LeadSpan(listed.start, listed.end, f"{tables[at].lead}\n{listed.lead}")


def _in_lists(tables: list[LeadSpan], lists: list[LeadSpan]) -> Iterator[LeadSpan]:
    """A table inside a list item leads with the list's lead-in, then its header (on a
    line of its own): its rows are read as that item's. The list is the latest-starting
    one that holds the table's start, found in one sweep over both (``tables`` sorted):
    lists pushed by start, popped once they end before a table."""
    ordered = sorted(lists, key=lambda lead: lead.start)
    opened: list[LeadSpan] = []
    pushed = 0
    for table in tables:
        while pushed < len(ordered) and ordered[pushed].start <= table.start:
            opened.append(ordered[pushed])
            pushed += 1
        while opened and opened[-1].end <= table.start:
            opened.pop()
        if not opened:
            yield table
            continue
        lead = f"{opened[-1].lead}\n{table.lead}"
        yield LeadSpan(table.start, table.end, lead, table=True)


def _blank_line_paragraphs(lines: list[_Line]) -> bool:
    """Whether blank lines part the text's paragraphs (Markdown, a web page's text), so
    that a line after a sentence end is not a paragraph of its own (a table's row, a
    cell's second line); in a PDF's text, lines follow each other with few blank ones."""
    return sum(line.blank_before for line in lines) * _BLANK_SHARE >= len(lines)


def _lines(text: str) -> list[_Line]:
    """The text's lines that hold something, read in a few passes over all of them
    (a law has thousands: no generator step or function call per line where a
    comprehension does)."""
    raws = _raw_lines(text)
    starts = list(accumulate(map(len, raws), initial=0))
    bodies = [raw.rstrip("\r\n") for raw in raws]
    kept = [number for number, body in enumerate(bodies) if body and not body.isspace()]
    texts = [bodies[number] for number in kept]
    blank = [k == 0 or kept[k - 1] != kept[k] - 1 for k in range(len(kept))]
    labels = [label_style(body) for body in texts]
    wrapped = [
        not blank[k] and texts[k - 1][-1] in " \t" and not _item_after_end(texts[k - 1], labels[k])
        if k
        else False
        for k in range(len(kept))
    ]
    figures = [_figures(body) if _DIGIT.search(body) else (0, 0) for body in texts]
    return [
        _Line(starts[number], starts[number] + len(body), body, *flags, label, *counts)
        for number, body, flags, label, counts in zip(
            kept, texts, zip(wrapped, blank, strict=True), labels, figures, strict=True
        )
    ]


def _item_after_end(before: str, label: tuple[str, str] | None) -> bool:
    """A numbered or lettered item after a line that ends a sentence, then a space (a
    PDF's "… = 39.600f. " then "2. Integración …:"): a line start, not a wrapped line."""
    return label is not None and label[0] != "bullet" and before.rstrip()[-1:] in ".:;"


def _raw_lines(text: str) -> list[str]:
    """The text cut after each ``\\n``, ``\\r\\n`` or lone ``\\r``, breaks kept:
    ``str.splitlines`` when the text holds no other break it would cut at."""
    if _OTHER_BREAKS.search(text) is None:
        return text.splitlines(keepends=True)
    return [line for line in _LINE.findall(text) if line]


# -- lists ------------------------------------------------------------------------------


@dataclass
class _List:
    """A list being read: its items' style, the styles that end it, its lead."""

    item_style: str
    ending: frozenset[str]
    lead: str
    start: int
    end: int
    owner: str  # the label of the paragraph that holds the lead-in ("" if none)
    label: str = ""  # the label of the item being read
    in_first: bool = True  # reading the first paragraph of that item
    #: Its items restart a style of an enclosing list ("17. …" holds "g) … cuentas:",
    #: which holds "1.", "2."): a label of that style ends it unless it comes next.
    restarted: bool = False


def _lists(text: str, lines: list[_Line], blank_lines: bool) -> Iterator[LeadSpan]:
    open_lists: list[_List] = []
    above: tuple[str, str] | None = None  # the last item label read
    for number, line in enumerate(lines):
        labelled = None if line.wrapped else _letter_or_roman(line.label, open_lists)
        style = labelled[0] if labelled else None
        while open_lists and _ends(open_lists[-1], line, labelled):
            done = open_lists.pop()
            yield LeadSpan(done.start, done.end, done.lead)
        if open_lists:
            _read_line(open_lists[-1], line, labelled, _continues(lines, number, blank_lines))
        if _leads_list(lines, number):
            following = lines[number + 1].label
            assert following is not None  # _leads_list checked it
            while open_lists and _lead_in_ends(open_lists[-1], style, following[0]):
                done = open_lists.pop()
                yield LeadSpan(done.start, done.end, done.lead)
        opened = _opened(text, lines, number, open_lists, above)
        if opened is not None:
            open_lists.append(opened)
        above = labelled or above
    for done in reversed(open_lists):
        yield LeadSpan(done.start, done.end, done.lead)


def _lead_in_ends(current: _List, style: str | None, following: str) -> bool:
    """Whether a lead-in (of ``style``, None without a label) of items of style
    ``following`` ends ``current``: a new lead-in of its items' level (or of an
    enclosing one) does, and bullets, the finest items, hold no numbered or lettered
    list ("• … 2019: 600", then "Solución:" and "1. …")."""
    if current.item_style == "bullet" and following != "bullet":
        return True
    return style is None and following in {*current.ending, current.item_style}


#: A one-letter roman numeral's style, and the letters' style it may be instead.
_ROMAN_LETTERS = {"roman)": "letter)", "roman": "LETTER."}


def _letter_or_roman(
    label: tuple[str, str] | None, open_lists: list[_List]
) -> tuple[str, str] | None:
    """Reads "i)", "v)", "x)" and "C.", "I.", "V." as roman numerals, but as letters
    right after the letter before them ("h) …", then "i) …"; "B. …", then "C. …")."""
    if label is None or label[0] not in _ROMAN_LETTERS or len(label[1]) != 2 or not open_lists:
        return label
    before = chr(ord(label[1][0]) - 1) + label[1][1]
    return (_ROMAN_LETTERS[label[0]], label[1]) if open_lists[-1].label == before else label


def _read_line(
    current: _List, line: _Line, labelled: tuple[str, str] | None, goes_on: bool
) -> None:
    """An item of ``current`` opens at ``line``, or ``line`` continues the first
    paragraph of its last item (the list's end), or ``line`` is past that paragraph."""
    if labelled is not None and labelled[0] == current.item_style:
        current.label, current.end, current.in_first = labelled[1], line.end, True
    elif current.in_first and goes_on:
        current.end = line.end
    else:
        current.in_first = False


def _continues(lines: list[_Line], at: int, blank_lines: bool) -> bool:
    """``lines[at]`` goes on the paragraph before it (a wrapped or unbroken line)."""
    line = lines[at]
    if line.wrapped:
        return True
    if line.blank_before or line.label is not None:
        return False
    return blank_lines or not _ends_paragraph(lines[at - 1].text)


def _ends_paragraph(line: str) -> bool:
    """The line ends in a period, colon, semicolon, closing quote... (then spaces)."""
    return line.rstrip()[-1:] in _PARAGRAPH_ENDS


def _ends(current: _List, line: _Line, labelled: tuple[str, str] | None) -> bool:
    """Whether ``line`` is past the end of ``current``: it opens an item of an enclosing
    level (or of the lead-in's own), or it is a heading. Paragraphs without a label
    between items belong to them; the list ends with its last item's first paragraph."""
    if labelled is not None:
        if current.restarted and labelled[0] == current.item_style:
            return bool(current.label) and labelled[1] not in _next_labels(current.label)
        return labelled[0] in current.ending
    return not line.wrapped and HEADING_START.match(line.text) is not None


def _leads_list(lines: list[_Line], at: int) -> bool:
    """``lines[at]`` ends its sentence with a colon and the next line opens an item."""
    following = at + 1
    return (
        lines[at].stripped.endswith(":")
        and following < len(lines)
        and not lines[following].wrapped
        and lines[following].label is not None
    )


def _opened(
    text: str,
    lines: list[_Line],
    at: int,
    open_lists: list[_List],
    above: tuple[str, str] | None,
) -> _List | None:
    """The list that ``lines[at]`` leads, if it leads one. It ends at the label style of
    the paragraph that holds the lead-in; a paragraph without a label belongs to the
    item whose label is ``above`` it ("4. Por «entidad estatal» …", then "Se entiende:",
    its "a)" and "b)", then "5. …" ends them)."""
    if not _leads_list(lines, at):
        return None
    first = lines[at + 1]
    item = first.label
    assert item is not None  # _leads_list checked it
    owner = _paragraph_start(lines, at)
    owned = lines[owner].label
    if above is not None and above[0] == "bullet" != item[0]:
        above = None  # bullets hold no numbered or lettered list (``_lead_in_ends``)
    held_by = owned or above
    ending = {held_by[0]} if held_by and held_by[0] != item[0] else set()
    if open_lists:
        ending |= open_lists[-1].ending | {open_lists[-1].item_style}
    restarted = item[0] in ending
    if restarted and not _restarts(item, open_lists):
        return None  # a sibling of an enclosing item, not a list of its own
    label = owned[1] if owned and not _BULLET.fullmatch(owned[1]) else ""
    sentence = _lead_sentence(text, lines[owner], lines[at], owned[1] if owned else None)
    path = [
        part
        for current in open_lists
        for part in (current.owner, current.label)
        if not _BULLET.fullmatch(part)  # a bullet says nothing of the item
    ]
    labels = [
        part for number, part in enumerate([*path, label]) if part and part not in path[:number]
    ]
    return _List(
        item[0],
        frozenset(ending - {item[0]}),
        " ".join([*labels, sentence]),
        first.start,
        first.end,
        label,
        restarted=restarted,
    )


#: Roman numerals in order, as apartados are numbered ("I.", "II.", ...).
_ROMANS: tuple[str, ...] = (
    *("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"),
    *("XI", "XII", "XIII", "XIV", "XV"),
)
_FIRST_NUMBER = re.compile(r"0*1\D")


def _next_labels(label: str) -> set[str]:
    """The labels that may follow ``label`` in its list ("2." after "1.", "ñ)" or "o)"
    after "n)", "Dos." after "Uno.", "III." after "II."); empty when unsure."""
    digits = re.search(r"\d+", label)
    if digits is not None:
        following = str(int(digits.group()) + 1).zfill(len(digits.group()))
        return {label[: digits.start()] + following + label[digits.end() :]}
    word, mark = label[:-1], label[-1:]
    for sequence in (WORD_NUMERALS, _ROMANS, [r.lower() for r in _ROMANS]):
        if word in sequence[:-1]:
            return {sequence[sequence.index(word) + 1] + mark}
    if len(word) == 1 and word.isalpha():
        after = {"n": "ño", "ñ": "o", "N": "ÑO", "Ñ": "O"}.get(word, chr(ord(word) + 1))
        return {letter + label[1:] for letter in after}
    return set()


def _first_label(label: str) -> bool:
    """A label that opens a sequence: "1.", "1.º", "a)", "A.", "i)", "I.", "Uno."."""
    return bool(_FIRST_NUMBER.match(label)) or label[:-1] in {"a", "A", "i", "I", "Uno"}


def _restarts(item: tuple[str, str], open_lists: list[_List]) -> bool:
    """Whether ``item``, the first after a lead-in, opens a list of its own although an
    enclosing list has items of its style: it opens a sequence ("1."), and is not the
    next item of that enclosing list ("17." then "g) … cuentas:" then "1.")."""
    if not _first_label(item[1]):
        return False
    enclosing = next((done for done in reversed(open_lists) if done.item_style == item[0]), None)
    return enclosing is None or item[1] not in _next_labels(enclosing.label)


def _paragraph_start(lines: list[_Line], at: int) -> int:
    """The first line of the paragraph (or item) ``lines[at]`` belongs to."""
    start = at
    while start > 0:
        line = lines[start]
        if line.blank_before or (not line.wrapped and line.label):
            break
        if not line.wrapped and _ends_paragraph(lines[start - 1].text):
            break
        start -= 1
    return start


def _lead_sentence(text: str, owner: _Line, lead_line: _Line, label: str | None) -> str:
    """The sentence that ends with the lead-in's colon, without the paragraph's label."""
    body = text[owner.start : lead_line.end]
    if label is not None:
        body = body.lstrip()[len(label) :]
    starts = [match.end() for match in _SENTENCE_START.finditer(body)]
    sentence = " ".join(body[starts[-1] if starts else 0 :].split())
    if len(sentence.split(" ")) < _SHORT_LEAD and starts:
        previous = starts[-2] if len(starts) > 1 else 0  # "En particular:" says too little
        sentence = " ".join(body[previous:].split())
    words = sentence.split(" ")
    if len(words) <= _LEAD_WORDS:
        return sentence
    return " ".join([*words[: _LEAD_WORDS - 6], "…", *words[-6:]])


# -- tables -----------------------------------------------------------------------------


def _pipe_tables(lines: list[_Line]) -> Iterator[LeadSpan]:
    """Markdown pipe tables: a header row, its rule line, then rows."""
    number = 0
    while number + 2 < len(lines):
        header, rule = lines[number], lines[number + 1]
        if not (_PIPE_ROW.fullmatch(header.text) and _PIPE_RULE.fullmatch(rule.text)):
            number += 1
            continue
        last = number + 2
        while last + 1 < len(lines) and _PIPE_ROW.fullmatch(lines[last + 1].text):
            last += 1
        if _PIPE_ROW.fullmatch(lines[number + 2].text):
            yield LeadSpan(
                lines[number + 2].start, lines[last].end, _cells(header.text), table=True
            )
        number = last + 1


def _cells(row: str) -> str:
    return " | ".join(cell.strip() for cell in row.strip().strip("|").split("|"))


def _cell_tables(lines: list[_Line]) -> Iterator[LeadSpan]:
    """Blocks of cell rows (a web page's tables as read): the first row heads them."""
    number = 0
    while number < len(lines):
        header = lines[number]
        if not (header.blank_before and _CELLS in header.text and "|" not in header.text[:1]):
            number += 1
            continue
        last = number
        while last + 1 < len(lines) and not lines[last + 1].blank_before:
            last += 1
        rows = sum(_CELLS in line.text for line in lines[number + 1 : last + 1])
        if rows:
            header_row = " ".join(header.text.split())
            yield LeadSpan(lines[number + 1].start, lines[last].end, header_row, table=True)
        number = last + 1


def _figures(line: str) -> tuple[int, int]:
    """The figures among a line's words, and its words; ``(0, 0)`` for a line without
    two words holding digits (most of a law's), which no rule reads as figures."""
    if not _two_numbers(line):
        return 0, 0
    words = line.split()
    return len(list(filter(None, map(_FIGURE.fullmatch, words)))), len(words)


def _two_numbers(line: str) -> bool:
    """A digit, then whitespace, then a digit (two ``_FIGURE`` words need it): three
    linear searches, never a backtracking one (a line may be megabytes of digits)."""
    digit = _DIGIT.search(line)
    space = digit and _SPACE.search(line, digit.end())
    return bool(space and _DIGIT.search(line, space.end()))


def _figures_only(line: _Line) -> bool:
    """A table row of figures: two or more numbers, and numbers at least half of its
    words ("12.450,00 2.365,50", "Entre 9.000,01 y 10.000 75", "1.º 95 por 100")."""
    return line.figures >= 2 and 2 * line.figures >= line.words


def _figure_tables(lines: list[_Line]) -> Iterator[LeadSpan]:
    """Runs of figure rows (a PDF table) headed by the short lines just above them."""
    number = 0
    while number + 1 < len(lines):
        if not (_figures_only(lines[number]) and _figures_only(lines[number + 1])):
            number += 1
            continue
        last = number + 1
        while last + 1 < len(lines) and _figures_only(lines[last + 1]):
            last += 1
        header = _figure_header(lines, number)
        if header:
            yield LeadSpan(lines[number].start, lines[last].end, header, table=True)
        number = last + 1


def _figure_header(lines: list[_Line], first_row: int) -> str | None:
    """The column names above a figure table: the lines back to one that ends in a
    colon or a blank line, if they are few and short; None when unsure."""
    top = first_row
    while top > 0 and first_row - top < _HEADER_LINES:
        line = lines[top - 1]
        if line.stripped.endswith(":") or _figures_only(line):
            break
        top -= 1
        if line.blank_before:
            break
    else:
        if top > 0:
            return None
    header = lines[top:first_row]
    text = " ".join(" ".join(line.stripped for line in header).split())
    if not header or len(text) > _HEADER_CHARS:
        return None
    return text
