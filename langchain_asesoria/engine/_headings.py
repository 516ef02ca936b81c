"""Heading lines as the engine sees them in a section's text, whatever the reading found:
one place for the question "is this piece headings, and of what kind?".

The engine knows no legal grammar (that is ``structure.legal_grammar``'s, above it); it
reads shapes: one-line paragraphs that no mark closes (bare titles), lines that open
with a label and its full stop ("Artículo 24. Metodología."), a bare label in capitals
and the name after it ("ANEXO II", then its name), Markdown heading marks, rubrics in
capitals. ``Section`` asks these predicates where a chunk may end (``heading_lines``,
``headings_only``, ``title_line``) and whether headings at a chunk's start may take the
room of their text (``heading_block``, ``marked_heading``); a law's reading asks
``trailing_titles`` which title lines ending a section head the next one.
"""

from __future__ import annotations

import re

#: What closes a sentence, and what may follow it before the sentence's end.
SENTENCE_MARKS = frozenset(".!?…")
CLOSERS = "\"'»”’)]"  # noqa: RUF001 - closing quotes
#: What ends a line that is not a bare title: a sentence's, a clause's or a lead-in's mark.
_CLOSING_MARKS = SENTENCE_MARKS | frozenset(":;,")
#: A line that opens with a label of two to four words and its full stop or bracket,
#: then a name ("Artículo 24. Metodología…", "Disposición adicional quincuagésimo
#: séptima. …", "Artículo 283 bis a) Exhibición…"): a heading line.
_LABELLED = re.compile(r"[^\W\d_]\w*(?:[^\S\n]+\S+?){1,3}[.)][^\S\n]")
#: A line's last word that leaves it open: a conjunction, an article, a preposition.
_OPEN_ENDING = re.compile(
    r"(?:^|\s)(?:y|e|o|u|ni|que|de|del|a|al|en|con|por|para|el|la|los|las|se)$", re.IGNORECASE
)
#: A bare label: one word in capitals, not a Roman numeral ("III" numbers a part of a
#: preamble, whose text follows), and a number or letter, if any ("ANEXO", "ANEXO II",
#: "CAPÍTULO 3").
_BARE_LABEL = re.compile(r"(?![IVXLCDM]+\b)[^\W\d_a-z]{3,}(?:[^\S\n]+[\w.ºª]{1,8})?")
#: A Roman numeral alone: a preamble's part ("III"), which numbers the text after it.
_ROMAN = re.compile(r"[IVXLCDM]+\.?")
#: A Markdown heading's marks at a line's start.
_MARKDOWN_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+")
#: What may open a heading's name before its first letter.
_OPENERS = " \t«“\"'(*_"
#: A paragraph break: a line end, blank lines, a line end.
_PARAGRAPH_BREAK = re.compile(r"\n[^\S\n]*\n\s*")


def heading_lines(piece: str) -> bool:
    """Whether ``piece`` (from a paragraph's start) is one line, or bare titles (no
    closing mark, colon, semicolon or comma at their end: "## TÍTULO II. Viajes
    combinados", "2.3.1. IDENTIFICACIÓN Y DELIMITACIÓN") and at their end a bare title or
    a labelled line ("Artículo 153. Información precontractual."): one line a paragraph,
    none starting in lower case (no sentence's tail)."""
    *titles, last = _PARAGRAPH_BREAK.split(piece)
    return (
        all("\n" not in line and not line[:1].islower() for line in (*titles, last))
        and not any(_closed(line) for line in titles)
        and (not titles or not _closed(last) or _LABELLED.match(last) is not None)
    )


def headings_only(piece: str) -> bool:
    """Whether every paragraph of ``piece`` is a bare title or opens with a label
    ("CAPÍTULO II", "Artículo 24. Metodología."): no text a chunk could be made of."""
    return all(
        not _closed(line) or _LABELLED.match(line) is not None
        for line in _PARAGRAPH_BREAK.split(piece.strip())
    )


def heading_block(piece: str) -> bool:
    """Whether ``piece`` is heading lines alone: paragraphs of one line each, none
    starting in lower case, each a bare title that no word leaves open ("ANEXO V", then
    its name; not "Establecer una sociedad democrática avanzada, y"), a labelled line
    whose name starts in capitals ("«Artículo 222. Contratos de concesión…»") or a
    rubric in capitals (``_in_capitals``)."""
    lines = [_MARKDOWN_HEADING.sub("", line) for line in _PARAGRAPH_BREAK.split(piece.strip())]
    return all(
        "\n" not in line
        and not line[:1].islower()
        and (
            _bare_title(line)
            or _named(line)
            or _in_capitals(line)
            or (at > 0 and _label(lines[at - 1], line))
        )
        for at, line in enumerate(lines)
    )


def _in_capitals(line: str) -> bool:
    """Whether ``line`` is written in capitals and ends with a full stop at most: a
    rubric ("1. DECLARACIÓN RESPONSABLE DE NO HABERLE SIDO OTORGADA…", "A)
    CARACTERÍSTICAS DE LOS SOPORTES…")."""
    letters = [char for char in line if char.isalpha()]
    return (
        len(letters) >= 3
        and not any(char.islower() for char in letters)
        and line.rstrip(CLOSERS)[-1:] not in _CLOSING_MARKS - SENTENCE_MARKS
    )


def marked_heading(piece: str) -> bool:
    """Whether every paragraph of the heading block ``piece`` says it is a heading: a
    Markdown heading, a labelled line ("Disposición final cuarta. Modificación…"), a bare
    label ("ANEXO II") or the name after one."""
    raw = _PARAGRAPH_BREAK.split(piece.strip())
    lines = [_MARKDOWN_HEADING.sub("", line) for line in raw]
    return all(
        _MARKDOWN_HEADING.match(paragraph) is not None
        or _named(line, plainly=True)
        or _BARE_LABEL.fullmatch(line) is not None
        or (at > 0 and _label(lines[at - 1], line))
        for at, (paragraph, line) in enumerate(zip(raw, lines, strict=True))
    )


def _label(before: str, line: str) -> bool:
    """Whether ``line`` is the name on the line after a bare label of one word and a
    number ("ANEXO", "ANEXO II" then "Acuerdo de 20 de marzo de 2020, del Consejo…, por
    el que se autoriza…."): a full stop may end it, no other mark."""
    return (
        _BARE_LABEL.fullmatch(before) is not None
        and line.rstrip(CLOSERS)[-1:] not in _CLOSING_MARKS - SENTENCE_MARKS
    )


def _bare_title(line: str) -> bool:
    """Whether ``line`` ends with no mark and no word that leaves it open."""
    return not _closed(line) and _OPEN_ENDING.search(line) is None


def _named(line: str, *, plainly: bool = False) -> bool:
    """Whether ``line`` is a labelled line ("Artículo 25.") whose name, if any, starts in
    capitals ("Artículo 222. Contratos…"; not "Los 9. poderes públicos…"); ``plainly``:
    with a number in its label or a name after it (not "Pagos fraccionados.")."""
    found = _LABELLED.match(line.lstrip(_OPENERS) + " ")
    if found is None:
        return False
    name = line.lstrip(_OPENERS)[found.end() :].lstrip(_OPENERS)
    if plainly and not name and not any(char.isdigit() for char in found.group()):
        return False
    return not name or name[:1].isupper()


def title_line(piece: str) -> bool:
    """Whether ``piece`` is one line in capitals that no mark closes: the title of what
    the text before it announces ("INSTRUCCIÓN RELATIVA A LA REMISIÓN…")."""
    return "\n" not in piece and _in_capitals(piece) and not _closed(piece)


def trailing_titles(text: str, start: int, end: int) -> int | None:
    """Where the title lines that end ``text[start:end]`` start, if it ends with any and
    holds more before them: one-line paragraphs that say they head what follows, a
    Markdown heading ("#### Orden … por la que se aprueba el pliego…") or a line in
    capitals ("DISPONGO", "CÓDIGO DE CONDUCTA RELATIVO A…"), but not the capitals of a
    name of two or more words after a line ending in a comma (a signature: "La Ministra
    de Hacienda," then "MARÍA JESÚS MONTERO CUADRADO")."""
    breaks = [found.end() for found in _PARAGRAPH_BREAK.finditer(text, start, end)]
    starts = [start, *(at for at in breaks if at < end)]
    found = None
    for at in range(len(starts) - 1, 0, -1):
        line = text[starts[at] : end if found is None else found].strip()
        before = text[starts[at - 1] : starts[at]].rstrip()
        if not _heads_what_follows(line, before) or not text[start : starts[at]].strip():
            break
        found = starts[at]
    return found


def _heads_what_follows(line: str, before: str) -> bool:
    """Whether the paragraph ``line`` (after ``before``) is a title line of what follows
    (``trailing_titles``)."""
    if "\n" in line or line[:1].islower() or "=" in line or _ROMAN.fullmatch(line):
        return False  # nor a formula ("### U = log | Vm - Vr |") nor a part's "III"
    if _MARKDOWN_HEADING.match(line) is not None:  # a closing full stop aside
        bare = _MARKDOWN_HEADING.sub("", line).lstrip("*_")
        # not a note in brackets: "### (En general)", "### (Derogado)"
        return not bare.startswith(("(", "[")) and (
            bare.rstrip(CLOSERS)[-1:] not in _CLOSING_MARKS - SENTENCE_MARKS
        )
    return title_line(line) and (len(line.split()) == 1 or not before.endswith(","))


def _closed(line: str) -> bool:
    """Whether ``line`` ends with a sentence's, a clause's or a lead-in's mark (behind
    any closing quote or bracket): not a bare title."""
    return line.rstrip(CLOSERS)[-1:] in _CLOSING_MARKS
