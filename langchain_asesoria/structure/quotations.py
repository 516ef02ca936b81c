"""Amended text quoted in an amending law, bounded per paragraph: which headings of a law's
text are its own.

An amending law quotes the provisions it writes anew ("Se modifica el artículo 20, que
queda redactado: «Artículo 20. …»"); their headings are the quoted law's, never the
amending law's. Read paragraph by paragraph (blank lines between them):

* a quotation opens at a paragraph that starts with a quotation mark («, “ or ") and
  does not close it; another such paragraph inside it opens none ("## «TÍTULO IX…",
  then "«Artículo 84…");
* it closes at the paragraph whose marks close more than they open (its opening mark
  aside): one mark left open, or closed with the wrong character ("“Caja de Ahorrosˮ"),
  holds no more than the quotation it belongs to. Marks inside a paragraph outside any
  quotation ("el «Boletín Oficial del Estado»") are that paragraph's own;
* the law's own numbering going on ends a quotation left open: its next article written
  as it writes its own ("Artículo segundo" after "Artículo primero", never "Artículo 2"),
  its next disposición or ANEXO, or the first of them. The heading lines right before
  such a unit, with no text between (its TÍTULO, CAPÍTULO and Sección and their names),
  are the law's too.

Everything inside a quotation is text of the unit that quotes it: no heading there is a
section. More: ``docs/design/structure.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from langchain_asesoria.structure.headings import Heading
from langchain_asesoria.structure.legal_grammar import (
    Label,
    code_follows,
    code_parts,
    disposicion_kind,
    label_of,
    number_only,
)

#: Marks that open a quotation, and those that close one (the BOE's «», typographic
#: “”, and a modifier letter the BOE prints for ” in some texts).
_OPENING: Final = "«“„"
_CLOSING: Final = "»”ˮ"
_STRAIGHT: Final = '"'
#: What may stand before a paragraph's first mark: heading marks, emphasis, spaces.
_LEAD: Final = "#*_ \t\u00a0>"
_PARAGRAPH: Final = re.compile(r"[^\n]*\S[^\n]*(?:\n[^\n]*\S[^\n]*)*")


def paragraphs(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of each paragraph of ``text``: lines with text, blank lines
    between them."""
    return [match.span() for match in _PARAGRAPH.finditer(text)]


def _opens(paragraph: str) -> bool:
    return paragraph.lstrip(_LEAD)[:1] in _OPENING + _STRAIGHT


def _balance(paragraph: str) -> int:
    """Marks opened less marks closed; a straight quote opens at the start, closes else."""
    opened = sum(paragraph.count(mark) for mark in _OPENING)
    closed = sum(paragraph.count(mark) for mark in _CLOSING)
    if paragraph.count(_STRAIGHT) % 2:
        if _opens(paragraph) and paragraph.lstrip(_LEAD)[:1] == _STRAIGHT:
            opened += 1
        else:
            closed += 1
    return opened - closed


#: The units whose numbering going on ends a quotation left open.
_NUMBERED: Final = frozenset({"artículo", "disposición", "anexo"})


def _style(number: str) -> str:
    return "digits" if number[:1].isdigit() else "words"


@dataclass
class _Law:
    """What a law has numbered so far: its last number of each unit (disposiciones by
    kind) and how it writes them."""

    last: dict[str, Label] = field(default_factory=dict)

    @staticmethod
    def key(label: Label, title: str) -> str:
        if label.unit.name == "disposición":
            return f"disposición {disposicion_kind(title)}"
        return label.unit.name

    def record(self, label: Label, title: str) -> None:
        self.last[self.key(label, title)] = label

    def is_first(self, label: Label, title: str) -> bool:
        """Whether the law has numbered no unit of ``label``'s kind yet."""
        return self.key(label, title) not in self.last

    def goes_on(self, label: Label, title: str) -> bool:
        """Whether ``label`` is the law's numbering going on (see the module docstring)."""
        if label.unit.name not in _NUMBERED:
            return False
        previous = self.last.get(self.key(label, title))
        value, code = label.value, code_parts(label.number)
        if previous is None:
            first = code[-1] if code else value[0] if value else None
            return label.number == "" or first == 1
        code_before = code_parts(previous.number)
        if code is not None and code_before is not None:
            return code_follows(code_before, code)  # a code's numbering: "511-1", "511-2"
        if label.number and previous.number and _style(label.number) != _style(previous.number):
            return False
        before = previous.value
        if value is None or before is None:
            return label.number == previous.number == ""
        return value[0] == before[0] + 1 or (value[0] == before[0] and value[1] > before[1])


def _label(heading: Heading) -> Label | None:
    return label_of(heading.title)


def own_headings(text: str, headings: Sequence[Heading]) -> list[Heading]:
    """The headings of ``text`` that are the law's own: those outside quoted amended text
    (see the module docstring), with ``body_is_empty`` as the text now says (a quoted
    heading is text of the heading before it)."""
    if not headings:
        return []
    law = _Law()
    kept: list[Heading] = []
    pending: list[Heading] = []  # headings in a quotation since its last body paragraph
    inside = False
    named = False  # the paragraph before was a unit's number alone: this one may be its name
    read = _with_headings(text, headings)
    for position, (start, end, own_here) in enumerate(read):
        first = next((label for h in own_here if (label := _label(h)) is not None), None)
        if (
            inside
            and first is not None
            and law.goes_on(first, own_here[0].title)
            and not (law.is_first(first, own_here[0].title) and _closes_soon(text, read, position))
        ):
            inside = False
            for heading in pending:
                _keep(kept, law, heading)
            pending.clear()
        paragraph = text[start:end]
        opens = _opens(paragraph)
        if inside or opens:
            inside = _balance(paragraph) - (1 if opens else 0) >= 0
            if own_here and not opens:
                pending += own_here
            elif not own_here and not named:
                pending.clear()
            named = bool(own_here) and number_only(own_here[-1].title)
            continue
        for heading in own_here:
            _keep(kept, law, heading)
        named = bool(own_here) and number_only(own_here[-1].title)
    return rebare(text, kept)


def _with_headings(text: str, headings: Sequence[Heading]) -> list[tuple[int, int, list[Heading]]]:
    """Each paragraph's ``[start, end)`` and the headings that start in it."""
    read: list[tuple[int, int, list[Heading]]] = []
    index = 0
    for start, end in paragraphs(text):
        here: list[Heading] = []
        while index < len(headings) and headings[index].start < end:
            if headings[index].start >= start:
                here.append(headings[index])
            index += 1
        read.append((start, end, here))
    return read


def _closes_soon(text: str, read: Sequence[tuple[int, int, list[Heading]]], at: int) -> bool:
    """Whether the quotation open at paragraph ``at`` closes before the next paragraph
    with a heading: the law's first ANEXO or disposición of a kind there is then quoted
    text, not the law's own (its numbering is no evidence when nothing came before)."""
    for start, end, here in read[at:]:
        if here and start > read[at][0]:
            return False
        if _balance(text[start:end]) < 0:
            return True
    return False


def _keep(kept: list[Heading], law: _Law, heading: Heading) -> None:
    label = _label(heading)
    if label is not None:
        law.record(label, heading.title)
    kept.append(heading)


def rebare(text: str, headings: Sequence[Heading]) -> list[Heading]:
    """``headings`` with ``body_is_empty`` true exactly when only blank text lies between
    a heading's end and the next one's start (or the text's end: a last heading is bare
    when nothing follows it)."""
    result: list[Heading] = []
    for position, heading in enumerate(headings):
        following = headings[position + 1].start if position + 1 < len(headings) else len(text)
        bare = not text[heading.end : following].strip()
        result.append(
            heading if heading.body_is_empty == bare else replace(heading, body_is_empty=bare)
        )
    return result
