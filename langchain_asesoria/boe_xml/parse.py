"""A law's ``/texto`` answer (and its ``/metadatos``) read into a ``Law``.

Every ``<bloque>`` of ``<texto>``, in document order, with every ``<version>``, as the
XML gives them: nothing is chosen or left out here (``select.py`` chooses by date).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from langchain_asesoria.boe_xml.content import read_content
from langchain_asesoria.boe_xml.dates import parse_day
from langchain_asesoria.boe_xml.metadata import read_law_info
from langchain_asesoria.boe_xml.model import Block, Law, Version
from langchain_asesoria.boe_xml.response import response_data
from langchain_asesoria.errors import BlockWithoutVersionsError, NotBoeResponseError

if TYPE_CHECKING:
    from lxml.etree import _Element


@dataclass(frozen=True, slots=True)
class _Where:
    """What an error about one block names."""

    source: str | None
    law_id: str | None
    block_id: str | None = None

    def day(self, text: str, what: str) -> date:
        return parse_day(
            text, what=what, source=self.source, law_id=self.law_id, block_id=self.block_id
        )


def read_law(
    texto: bytes,
    metadatos: bytes | None = None,
    *,
    law_id: str | None = None,
    source: str | None = None,
    metadata_source: str | None = None,
) -> Law:
    """The law a ``/texto`` answer holds, with its ``/metadatos`` when given.

    Args:
        texto: The bytes of the BOE's ``/texto`` answer (``ID.xml``).
        metadatos: The bytes of its ``/metadatos`` answer (``ID.metadatos.xml``).
        law_id: Its identifier when the metadata does not give one (the ``/texto``
            answer holds none): ``"BOE-A-2003-23514"``.
        source: How errors name the text's file; ``metadata_source``, the metadata's.

    Returns:
        The law: its blocks in document order, every wording of each in the XML's order;
        ``law_id`` is the metadata's identifier when it has one, else ``law_id``.

    Raises:
        MissingDependencyError: lxml (the ``html`` extra) is not installed.
        DamagedXmlError: XML cut short or not well formed (its line and column).
        NotBoeResponseError: not a BOE answer, or a block without an id or with a
            duplicated one.
        BlockWithoutVersionsError: a block with no ``<version>``.
        LawDateError: a date that is not a day written ``YYYYMMDD``.
    """
    info = None
    if metadatos is not None:
        info = read_law_info(metadatos, source=metadata_source, law_id=law_id)
        law_id = info.law_id or law_id
    where = _Where(source, law_id)
    texto_element = response_data(texto, kind="texto", source=source, law_id=law_id)
    blocks: list[Block] = []
    seen: set[str] = set()
    for number, element in enumerate(texto_element.iterfind("bloque"), start=1):
        block = _block(element, number, where)
        if block.id in seen:
            raise NotBoeResponseError(
                f"has two blocks with the id {block.id!r}: a BOE law's block ids are "
                "unique (each is an anchor of its page); download it again.",
                source=source,
                law_id=law_id,
                block_id=block.id,
            )
        seen.add(block.id)
        blocks.append(block)
    return Law(law_id, tuple(blocks), info)


def _block(element: _Element, number: int, where: _Where) -> Block:
    block_id = (element.get("id") or "").strip()
    if not block_id:
        raise NotBoeResponseError(
            f"has a block without an id (<bloque> number {number}): every block of a BOE "
            "law has one; download it again.",
            source=where.source,
            law_id=where.law_id,
        )
    here = _Where(where.source, where.law_id, block_id)
    versions = tuple(_version(version, here) for version in element.iterfind("version"))
    if not versions:
        raise BlockWithoutVersionsError(
            f"has a block {block_id!r} with no wording (<version>): nothing says what it "
            "held; download the law again.",
            source=where.source,
            law_id=where.law_id,
            block_id=block_id,
        )
    expires = element.get("fecha_caducidad")
    return Block(
        block_id,
        (element.get("tipo") or "").strip(),
        element.get("titulo"),
        here.day(expires, "fecha_caducidad") if expires is not None else None,
        versions,
    )


def _version(element: _Element, where: _Where) -> Version:
    return Version(
        (element.get("id_norma") or "").strip(),
        where.day(element.get("fecha_publicacion") or "", "fecha_publicacion"),
        where.day(element.get("fecha_vigencia") or "", "fecha_vigencia"),
        read_content(element, where.day),
    )
