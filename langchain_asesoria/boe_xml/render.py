"""A wording as text: its paragraphs, tables and notes, a blank line between each.

A table is one piece, a line per row (its caption first, then its header rows, then its
rows): its header row travels with every chunk of its rows as a lead
(``models.LeadSpan``). A note stays with its wording (the BOE's "Se modifica por...");
one shown only until a day (``caduca``, ``noDesdeYYYYMMDD``) is in the text when the
wording is read on an earlier day, else left out and reported.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Final

from langchain_asesoria.boe_xml.model import Content, Note, Paragraph, Table, Version
from langchain_asesoria.models import LeadSpan

#: Between two paragraphs (or tables, or a note's paragraphs) of a wording, and between
#: two wordings: a blank line.
PIECE_SEPARATOR: Final = "\n\n"


@dataclass(frozen=True, slots=True)
class Rendered:
    """A wording's text and what it holds.

    Attributes:
        text: Its pieces joined by ``PIECE_SEPARATOR``; no outer whitespace.
        title_end: Where its title paragraphs end in ``text`` (``None``: it has none).
        body: Whether anything follows its title.
        leads: Its tables' header rows, as spans of ``text``.
        tables: Tables in ``text``.
        images: Image placeholders in ``text``.
        expired_notes: The days after which the notes left out stopped being shown.
    """

    text: str
    title_end: int | None
    body: bool
    leads: tuple[LeadSpan, ...]
    tables: int
    images: int
    expired_notes: tuple[date, ...]


@dataclass(frozen=True, slots=True)
class _Piece:
    text: str
    lead: tuple[int, str] | None = None  # (where its rows start in text, the header)
    images: int = 0
    table: bool = False


def _table_piece(table: Table) -> _Piece:
    head = [*([table.caption] if table.caption else []), *table.header]
    text = "\n".join([*head, *table.rows])
    lead = None
    if table.header and table.rows:
        lead = (len("\n".join(head)) + 1, "\n".join(table.header))
    return _Piece(text, lead, table.images, table=True)


def _pieces(content: tuple[Content, ...], shown_on: date, expired: list[date]) -> Iterator[_Piece]:
    for item in content:
        if isinstance(item, Paragraph):
            yield _Piece(item.text, images=item.images)
        elif isinstance(item, Table):
            yield _table_piece(item)
        elif _shown(item, shown_on):
            yield from _pieces(item.parts, shown_on, expired)
        else:
            assert item.expires is not None
            expired.append(item.expires)


def _shown(note: Note, day: date) -> bool:
    return note.expires is None or day < note.expires


def render(version: Version, *, title_paragraphs: int, shown_on: date) -> Rendered:
    """The wording's text, read on ``shown_on`` (for its notes shown until a day).

    Invariant: ``text[lead.start:lead.end]`` is a table's rows for every lead, and
    ``text[:title_end]`` its first ``title_paragraphs`` pieces.
    """
    expired: list[date] = []
    pieces = list(_pieces(version.content, shown_on, expired))
    leads: list[LeadSpan] = []
    offset = 0
    title_end: int | None = None
    for number, piece in enumerate(pieces, start=1):
        if piece.lead is not None:
            start, header = piece.lead
            leads.append(LeadSpan(offset + start, offset + len(piece.text), header, table=True))
        offset += len(piece.text)
        if number == title_paragraphs:
            title_end = offset
        offset += len(PIECE_SEPARATOR)
    return Rendered(
        PIECE_SEPARATOR.join(piece.text for piece in pieces),
        title_end,
        len(pieces) > title_paragraphs,
        tuple(leads),
        sum(piece.table for piece in pieces),
        sum(piece.images for piece in pieces),
        tuple(expired),
    )
