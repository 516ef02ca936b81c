"""The law as it stood on a day, or every wording of it: one text, its sections, their
metadata, the tables' leads and a report. Pure: a ``Law`` in, a ``LawText`` out.

- ``law_as_of(law, day)``: for every block, the wording in force on ``day``
  (``select.py``'s rule); a heading with nothing but its title opens the next block's
  section, as every other structure source does (no chunk is a heading alone).
- ``law_all_versions(law)``: every wording of every block, blocks in document order and
  each block's by day, each a section of its own, even a heading's.

Each wording's text follows the previous one's after a blank line; each section is an
exact span of the text (``text[s.start:s.end]`` is its wordings' text), and carries
the wording's metadata (``LawSection.fields``) to copy into its chunks.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime

from langchain_asesoria.boe_xml.metadata_fields import law_fields, section_fields
from langchain_asesoria.boe_xml.model import Law
from langchain_asesoria.boe_xml.nesting import Placed, place
from langchain_asesoria.boe_xml.ranks import BLOCK_KINDS
from langchain_asesoria.boe_xml.render import PIECE_SEPARATOR, Rendered, render
from langchain_asesoria.boe_xml.select import (
    LeftOut,
    Wording,
    every_wording,
    on_day,
    out_of_order,
)
from langchain_asesoria.errors import ConfigurationError
from langchain_asesoria.models import LeadSpan, SectionSpan
from langchain_asesoria.records import MetadataValue

Fields = tuple[tuple[str, MetadataValue], ...]


@dataclass(frozen=True, slots=True)
class LawSection:
    """One section of the law's text: one wording of one block (and, on a day, the
    bare headings before it that it carries).

    Attributes:
        span: Its span of ``LawText.text``: label, path, ``title_end`` (where its
            title, and the headings it carries, end) and ``fields``.
        block_id: Its block's id ("a48").
        block_type: Its block's ``tipo``.
        version_id: Its wording's id ("a48@20190129"), unique in the law.
        valid_from: The first day the wording applies.
        valid_to: The first day it no longer applies; ``None``: no end yet.
        carried: The ids of the bare headings it opens with (a day's text only).
        fields: Its chunks' metadata (``metadata_fields.section_fields``).
        vigencia: The interval in Spanish words (also in ``fields``).
    """

    span: SectionSpan
    block_id: str
    block_type: str
    version_id: str
    valid_from: date
    valid_to: date | None
    carried: tuple[str, ...]
    fields: Fields
    vigencia: str


@dataclass(frozen=True, slots=True)
class ExpiredNote:
    """A note of a wording left out of the text: shown only before ``expires``."""

    version_id: str
    expires: date


@dataclass(frozen=True, slots=True)
class LawReport:
    """What the text holds and what it leaves out.

    Attributes:
        as_of: The day asked; ``None`` for every wording.
        blocks: Blocks in the law.
        versions: Wordings in the law.
        sections: Sections in the text.
        tables: Tables in the text.
        images: Image placeholders in the text.
        left_out: The blocks with no wording in force on ``as_of``.
        expired_notes: Notes left out (shown only before a day already reached).
        unknown_types: ``(block id, tipo)`` of blocks of a type ``ranks.BLOCK_KINDS``
            does not know: kept as text, as provisions.
        unranked_headings: Headings whose first paragraph's class ranks nothing: leaves.
        never_in_force: Wordings replaced, or whose block ended, on their first day.
        out_of_order: Blocks whose XML lists a wording before an older one.
        empty: Wordings with no text at all (no section).
    """

    as_of: date | None
    blocks: int
    versions: int
    sections: int
    tables: int
    images: int
    left_out: tuple[LeftOut, ...] = ()
    expired_notes: tuple[ExpiredNote, ...] = ()
    unknown_types: tuple[tuple[str, str], ...] = ()
    unranked_headings: tuple[str, ...] = ()
    never_in_force: tuple[str, ...] = ()
    out_of_order: tuple[str, ...] = ()
    empty: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LawText:
    """The text to chunk, and everything the chunks need to cite it.

    Invariants: sections are in order, disjoint, never empty, and
    ``text[s.span.start:s.span.end]`` is the text of their wordings; every lead lies
    inside one section; ``text`` has no outer whitespace.

    Attributes:
        law_id: The law's identifier, when known.
        text: The wordings' texts, a blank line between two.
        sections: One per wording (a day's: with the bare headings it carries).
        leads: The tables' header rows, for the chunks of their rows.
        fields: The law's own metadata for every chunk (``metadata_fields.law_fields``).
        report: What it holds and leaves out.
    """

    law_id: str | None
    text: str
    sections: tuple[LawSection, ...]
    leads: tuple[LeadSpan, ...]
    fields: Fields
    report: LawReport

    @property
    def spans(self) -> tuple[SectionSpan, ...]:
        """The sections' spans, for the chunker."""
        return tuple(section.span for section in self.sections)


@dataclass(frozen=True, slots=True)
class _Unit:
    """A wording placed and rendered, ready to join."""

    placed: Placed
    rendered: Rendered


def law_as_of(law: Law, day: date) -> LawText:
    """The law as it stood on ``day``: for each block, its wording in force that day.

    Blocks not yet in force, or no longer, are left out and listed in the report; notes
    shown only until a day are in the text when ``day`` is before it.

    Raises:
        ConfigurationError: ``day`` is not a ``datetime.date`` (a ``datetime`` gives its
            day).
    """
    day = _day(day)
    chosen, left_out = on_day(law, day)
    units = [_Unit(placed, _render(placed, day)) for placed in place(chosen)]
    return _law_text(law, units, day, left_out, carry=True)


def _day(day: object) -> date:
    if isinstance(day, datetime):
        return day.date()
    if not isinstance(day, date):
        raise ConfigurationError(
            f"the day to read the law on must be a datetime.date, got {day!r}: "
            "date(2023, 12, 31), or date.fromisoformat('2023-12-31').",
            expected="a datetime.date",
        )
    return day


def law_all_versions(law: Law) -> LawText:
    """Every wording of every block, each a section of its own: blocks in document
    order, each block's wordings by day. Each is placed among the headings in force on
    its first day, and shows the notes shown that day."""
    placed_by_day: dict[date, dict[str, Placed]] = {}
    units: list[_Unit] = []
    for wording in every_wording(law):
        placed = _placed_on_own_day(law, wording, placed_by_day)
        units.append(_Unit(placed, _render(placed, wording.valid_from)))
    return _law_text(law, units, None, (), carry=False)


def _placed_on_own_day(law: Law, wording: Wording, cache: dict[date, dict[str, Placed]]) -> Placed:
    """``wording`` placed among the wordings in force on its first day (each day's
    placement computed once); one that never applies takes the place of its block's."""
    day = wording.valid_from
    if day not in cache:
        chosen, _ = on_day(law, day)
        cache[day] = {placed.wording.version_id: placed for placed in place(chosen)}
    found = cache[day].get(wording.version_id)
    if found is not None:
        return found
    chosen, _ = on_day(law, day)
    others = [other for other in chosen if other.index != wording.index]
    ordered = sorted([*others, wording], key=lambda other: other.index)
    return next(p for p in place(ordered) if p.wording.version_id == wording.version_id)


def _render(placed: Placed, shown_on: date) -> Rendered:
    return render(
        placed.wording.version, title_paragraphs=placed.title_paragraphs, shown_on=shown_on
    )


def _groups(units: Sequence[_Unit], carry: bool) -> Iterator[list[_Unit]]:
    """The units each section holds: with ``carry``, bare headings (a title and
    nothing else) join the next unit's section; at the end they stand alone."""
    pending: list[_Unit] = []
    for unit in units:
        if not unit.rendered.text:
            continue
        pending.append(unit)
        bare = unit.placed.kind == "heading" and not unit.rendered.body
        if not (carry and bare):
            yield pending
            pending = []
    for unit in pending:
        yield [unit]


def _law_text(
    law: Law,
    units: Sequence[_Unit],
    as_of: date | None,
    left_out: tuple[LeftOut, ...],
    *,
    carry: bool,
) -> LawText:
    pieces: list[str] = []
    sections: list[LawSection] = []
    leads: list[LeadSpan] = []
    offset = 0
    for group in _groups(units, carry):
        start = offset
        title_end: int | None = None
        for unit in group:
            leads.extend(
                replace(lead, start=lead.start + offset, end=lead.end + offset)
                for lead in unit.rendered.leads
            )
            if unit.rendered.title_end is not None:
                title_end = offset + unit.rendered.title_end
            pieces.append(unit.rendered.text)
            offset += len(unit.rendered.text) + len(PIECE_SEPARATOR)
        end = offset - len(PIECE_SEPARATOR)
        sections.append(_section(law, group, start, end, title_end))
    return LawText(
        law.law_id,
        PIECE_SEPARATOR.join(pieces),
        tuple(sections),
        tuple(leads),
        law_fields(law),
        _report(law, units, as_of, left_out, len(sections)),
    )


def _section(
    law: Law, group: Sequence[_Unit], start: int, end: int, title_end: int | None
) -> LawSection:
    unit = group[-1]
    wording = unit.placed.wording
    fields, words = section_fields(law, wording)
    span = SectionSpan(start, end, unit.placed.label, unit.placed.path, title_end, fields)
    return LawSection(
        span,
        wording.block.id,
        wording.block.tipo,
        wording.version_id,
        wording.valid_from,
        wording.valid_to,
        tuple(other.placed.wording.block.id for other in group[:-1]),
        fields,
        words,
    )


def _report(
    law: Law,
    units: Sequence[_Unit],
    as_of: date | None,
    left_out: tuple[LeftOut, ...],
    sections: int,
) -> LawReport:
    wordings = [unit.placed.wording for unit in units]
    return LawReport(
        as_of,
        len(law.blocks),
        law.version_count,
        sections,
        sum(unit.rendered.tables for unit in units),
        sum(unit.rendered.images for unit in units),
        left_out,
        tuple(
            ExpiredNote(unit.placed.wording.version_id, expires)
            for unit in units
            for expires in unit.rendered.expired_notes
        ),
        tuple((b.id, b.tipo) for b in law.blocks if b.tipo not in BLOCK_KINDS),
        tuple(unit.placed.wording.block.id for unit in units if unit.placed.unranked),
        tuple(w.version_id for w in wordings if w.never_applies),
        tuple(block.id for block in law.blocks if out_of_order(block)),
        tuple(unit.placed.wording.version_id for unit in units if not unit.rendered.text),
    )
