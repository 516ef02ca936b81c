"""Which wording of each block applies on a day: the rule, in one place.

A block's wordings are taken in order of their ``fecha_vigencia``; the XML's order only
breaks ties. Each applies from its day (inclusive) to the next one's (exclusive), and
none from the block's ``fecha_caducidad`` on. So:

- **out of order**: a wording listed before an older one is still placed by its day
  (the block is reported in ``out_of_order``);
- **two wordings of one day**: the one the XML lists last applies; the other never
  does (its interval is empty: ``valid_to == valid_from``), and is reported;
- a block with no wording in force on the day (not yet, or no longer) is left out and
  listed with the reason and the day that decides it.

Each wording has an id, stable across runs and other for every wording of the law:
``"<block id>@<YYYYMMDD>"`` ("a48@20190129"); a wording that shares its day with one
listed after it adds its place among them, ``".1"``, ``".2"`` ("a48@20190129.1").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date
from typing import Literal

from langchain_asesoria.boe_xml.dates import day_number
from langchain_asesoria.boe_xml.model import Block, Law, Version

LeftOutReason = Literal["not_yet_in_force", "expired"]


@dataclass(frozen=True, slots=True)
class Wording:
    """One wording of one block and the days it applies.

    Attributes:
        block: The block.
        index: The block's place in the law (document order, from 0).
        version: The wording.
        valid_to: The first day it no longer applies (exclusive); ``None``: no end yet.
            ``valid_to <= valid_from``: it never applies.
        version_id: Its id ("a48@20190129"), stable across runs, unique in the law.
    """

    block: Block
    index: int
    version: Version
    valid_to: date | None
    version_id: str

    @property
    def valid_from(self) -> date:
        """The first day it applies (the version's ``fecha_vigencia``)."""
        return self.version.valid_from

    def applies_on(self, day: date) -> bool:
        """Whether it is the block's wording on ``day``."""
        return self.valid_from <= day and (self.valid_to is None or day < self.valid_to)

    @property
    def never_applies(self) -> bool:
        """Whether its interval is empty (replaced, or the block ended, on its day)."""
        return self.valid_to is not None and self.valid_to <= self.valid_from


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A block with no wording in force on the day asked.

    Attributes:
        block_id: The block's id.
        tipo: Its type.
        titulo: Its ``titulo``, when it has one.
        reason: ``"not_yet_in_force"`` (its first wording applies later) or
            ``"expired"`` (it no longer applies: its ``fecha_caducidad`` has passed, or
            its wordings are all replaced).
        day: The day that decides it: when it comes into force, or ends.
    """

    block_id: str
    tipo: str
    titulo: str | None
    reason: LeftOutReason
    day: date


def _ids(block: Block, ordered: list[Version]) -> list[str]:
    """Each wording's id: the block's and its day, and its place among the wordings of
    that day but the last (``.1``, ``.2``)."""
    days = Counter(version.valid_from for version in ordered)
    seen: Counter[date] = Counter()
    ids: list[str] = []
    for version in ordered:
        seen[version.valid_from] += 1
        place = seen[version.valid_from]
        suffix = f".{place}" if place < days[version.valid_from] else ""
        ids.append(f"{block.id}@{day_number(version.valid_from)}{suffix}")
    return ids


def block_wordings(block: Block, index: int) -> tuple[Wording, ...]:
    """The block's wordings by the day they apply from (the XML's order breaks ties),
    each with the day it ends: the next one's day, or the block's end, whichever is
    first."""
    ordered = sorted(block.versions, key=lambda version: version.valid_from)
    ends: list[date | None] = [version.valid_from for version in ordered[1:]]
    ends.append(None)
    if block.expires is not None:
        ends = [block.expires if end is None else min(end, block.expires) for end in ends]
    return tuple(
        Wording(block, index, version, end, version_id)
        for version, end, version_id in zip(ordered, ends, _ids(block, ordered), strict=True)
    )


def out_of_order(block: Block) -> bool:
    """Whether the XML lists a wording before an older one."""
    days = [version.valid_from for version in block.versions]
    return days != sorted(days)


def every_wording(law: Law) -> tuple[Wording, ...]:
    """Every wording of every block: blocks in document order, each block's by day."""
    return tuple(
        wording
        for index, block in enumerate(law.blocks)
        for wording in block_wordings(block, index)
    )


def _left_out(block: Block, wordings: tuple[Wording, ...], day: date) -> LeftOut:
    if block.expires is not None and day >= block.expires:
        return LeftOut(block.id, block.tipo, block.titulo, "expired", block.expires)
    first = min(wording.valid_from for wording in wordings)
    if day < first:
        return LeftOut(block.id, block.tipo, block.titulo, "not_yet_in_force", first)
    last_end = max((w.valid_to for w in wordings if w.valid_to is not None), default=day)
    return LeftOut(block.id, block.tipo, block.titulo, "expired", last_end)


def on_day(law: Law, day: date) -> tuple[tuple[Wording, ...], tuple[LeftOut, ...]]:
    """The wording of each block in force on ``day`` (document order), and the blocks
    with none (not yet in force, or no longer)."""
    chosen: list[Wording] = []
    left_out: list[LeftOut] = []
    for index, block in enumerate(law.blocks):
        wordings = block_wordings(block, index)
        found = next((w for w in wordings if w.applies_on(day)), None)
        if found is not None:
            chosen.append(found)
        else:
            left_out.append(_left_out(block, wordings, day))
    return tuple(chosen), tuple(left_out)
