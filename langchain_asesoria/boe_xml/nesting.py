"""How the blocks in force nest: each one's label and path, from the XML's ranks alone.

Blocks are taken in document order. A heading closes the open headings of its rank or
deeper (and those of another part: an ANEXO closes the TÍTULOs) and opens its own; a
provision is a leaf under the open headings, and a disposición first closes them all
but an approved text's title; a part of its own (preamble, initial note, signature)
closes everything and stands at the top. Inside an ANEXO, the units of the articulado
(its TÍTULOs, Secciones) rank under it. A heading whose class ranks nothing is a leaf
(reported); a ``tipo`` the table does not know is read as a provision (reported).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from langchain_asesoria.boe_xml.ranks import (
    BLOCK_KINDS,
    CONTAINER,
    OWN_LABELS,
    BlockKind,
    heading_title,
    is_disposicion,
    provision_title,
)
from langchain_asesoria.boe_xml.select import Wording
from langchain_asesoria.structure.legal_grammar import LegalUnit


@dataclass(frozen=True, slots=True)
class Placed:
    """A wording placed in the law's structure.

    Attributes:
        wording: The wording.
        kind: Its block's kind (``ranks.BLOCK_KINDS``; an unknown ``tipo``: provision).
        label: Its own title ("Artículo 48. Velocidades máximas en vías fuera de
            poblado.", "TÍTULO I. Normas generales de comportamiento en la circulación").
        path: The titles of the headings that hold it, outermost first, then ``label``.
        title_paragraphs: How many of its first paragraphs are its title.
        unranked: A heading whose first paragraph's class ranks nothing (a leaf).
    """

    wording: Wording
    kind: BlockKind
    label: str
    path: tuple[str, ...]
    title_paragraphs: int
    unranked: bool = False


@dataclass(frozen=True, slots=True)
class _Open:
    label: str
    unit: LegalUnit


def _in_annex(unit: LegalUnit, stack: Sequence[_Open]) -> LegalUnit:
    """Inside an open ANEXO, a unit of the articulado ranks under it."""
    annexed = any(item.unit.part == "anexo" for item in stack)
    if annexed and unit.part == "articulado" and unit is not CONTAINER:
        return LegalUnit(unit.name, "anexo", unit.rank + 1)
    return unit


def _close(stack: list[_Open], unit: LegalUnit | None) -> None:
    """Closes what ``unit`` closes (``None``: every heading but an approved text's
    title, as a disposición does): a container everything; a ranked unit the headings
    of another part, or of its rank or deeper, and what they hold."""
    if unit is CONTAINER:
        stack.clear()
        return
    for index, item in enumerate(stack):
        if item.unit is CONTAINER:
            continue
        if unit is None or item.unit.part != unit.part or item.unit.rank >= unit.rank:
            del stack[index:]
            return


def _fallback(wording: Wording) -> str:
    block = wording.block
    return block.titulo or OWN_LABELS.get(block.tipo) or block.id


def _place_one(wording: Wording, stack: list[_Open]) -> Placed:
    kind = BLOCK_KINDS.get(wording.block.tipo, "provision")
    chain = tuple(item.label for item in stack)
    if kind == "own":
        stack.clear()
        label = _fallback(wording)
        return Placed(wording, kind, label, (label,), 0)
    if kind == "provision":
        label, count = provision_title(wording.version, _fallback(wording))
        if is_disposicion(wording.block.titulo):
            _close(stack, None)
            chain = tuple(item.label for item in stack)
        return Placed(wording, kind, label, (*chain, label), count)
    title = heading_title(wording.version, _fallback(wording))
    if title.unit is None:
        return Placed(wording, kind, title.label, (*chain, title.label), 0, unranked=True)
    unit = _in_annex(title.unit, stack)
    _close(stack, unit)
    stack.append(_Open(title.label, unit))
    path = tuple(item.label for item in stack)
    return Placed(wording, kind, title.label, path, title.paragraphs)


def place(wordings: Sequence[Wording]) -> tuple[Placed, ...]:
    """Each wording placed, in the order given (document order: one per block)."""
    stack: list[_Open] = []
    return tuple(_place_one(wording, stack) for wording in wordings)
