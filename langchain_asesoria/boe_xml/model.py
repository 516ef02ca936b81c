"""A BOE consolidated law as its XML gives it: blocks, every wording, their content.

The values mirror the BOE's ``/texto`` answer (``<bloque>``, ``<version>``, ``<p>``,
``<table>``, ``<blockquote>``) without interpreting it: which wording applies on a day,
and how blocks nest, is decided later (``select.py``, ``nesting.py``). Text is already
the text a reader sees: markup removed, XML indentation collapsed, an image as
``IMAGE``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Final, TypeAlias

#: What an image (``<img>``) becomes in the text: visible, and counted.
IMAGE: Final = "[imagen]"


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A paragraph (``<p>``, or another element read as one).

    Attributes:
        text: Its text: inline markup removed, runs of XML whitespace made one space,
            stripped; a ``<br/>`` is a line break; never a blank line inside.
        css_class: Its ``class`` as the XML gives it ("parrafo", "articulo",
            "titulo_num", "nota_pie"...), ``None`` without one.
        images: How many ``IMAGE`` placeholders ``text`` holds.
    """

    text: str
    css_class: str | None = None
    images: int = 0


@dataclass(frozen=True, slots=True)
class Table:
    """A table, row by row: each row one line, its cells joined by ``" | "``.

    Attributes:
        caption: Its caption's text, when it has one.
        header: Its header rows (``<thead>``, or rows of ``<th>`` only).
        rows: Its other rows.
        css_class: Its ``class`` ("tabla", "sinbordes"...).
        images: How many ``IMAGE`` placeholders its caption and rows hold.
    """

    caption: str | None
    header: tuple[str, ...]
    rows: tuple[str, ...]
    css_class: str | None = None
    images: int = 0


@dataclass(frozen=True, slots=True)
class Note:
    """A ``<blockquote>``: the BOE's notes on a wording ("Se modifica por..."), an
    editorial warning shown until a day, or quoted text.

    Attributes:
        parts: What it holds, in order.
        css_class: Its ``class`` ("soloTexto", "sangrado"...).
        expires: The first day it is no longer shown (its ``caduca`` attribute, or a
            ``noDesdeYYYYMMDD`` class); ``None``: always shown with its wording.
    """

    parts: tuple[Content, ...]
    css_class: str | None = None
    expires: date | None = None


#: What a wording holds, in order.
Content: TypeAlias = "Paragraph | Table | Note"


@dataclass(frozen=True, slots=True)
class Version:
    """One wording of a block (``<version>``).

    Attributes:
        amended_by: The act that gave it (``id_norma``): the law itself for the
            original wording, else the amending act.
        published: The day that act was published (``fecha_publicacion``).
        valid_from: The first day the wording applies (``fecha_vigencia``).
        content: Its paragraphs, tables and notes, in order.
    """

    amended_by: str
    published: date
    valid_from: date
    content: tuple[Content, ...]


@dataclass(frozen=True, slots=True)
class Block:
    """One block of the law (``<bloque>``), in document order.

    Attributes:
        id: Its id, unique in the law, and the anchor of the BOE's page ("a48").
        tipo: Its type as the XML says ("precepto", "encabezado", "preambulo"...).
        titulo: Its ``titulo`` attribute ("Artículo 48", "TÍTULO I"), when given.
        expires: The first day it no longer applies at all (``fecha_caducidad``).
        versions: Its wordings, in the XML's order; never empty.
    """

    id: str
    tipo: str
    titulo: str | None
    expires: date | None
    versions: tuple[Version, ...]


@dataclass(frozen=True, slots=True)
class LawInfo:
    """What the law's ``/metadatos`` answer says (each ``None`` when it does not).

    Attributes:
        law_id: Its BOE identifier (``identificador``).
        title: Its official title (``titulo``).
        rank: Its rank ("Real Decreto", "Ley": ``rango``).
        department: The department that issued it (``departamento``).
        scope: "Estatal" or the autonomous community (``ambito``).
        official_number: "1428/2003" (``numero_oficial``).
        enacted: The day it was signed (``fecha_disposicion``).
        published: The day it was published (``fecha_publicacion``).
        in_force_from: The day it came into force (``fecha_vigencia``).
        repealed: Whether it is repealed as a whole (``estatus_derogacion`` "S").
        repealed_on: The day of that repeal (``fecha_derogacion``).
        annulled: Whether a court annulled it (``estatus_anulacion`` "S").
        exhausted: Whether it has spent its effects (``vigencia_agotada`` "S").
        consolidation: The state of its consolidated text ("Finalizado").
        eli: Its European Legislation Identifier (``url_eli``).
        url: Its consolidated page on boe.es (``url_html_consolidada``).
        updated: The day the BOE last updated it (``fecha_actualizacion``'s day).
    """

    law_id: str | None = None
    title: str | None = None
    rank: str | None = None
    department: str | None = None
    scope: str | None = None
    official_number: str | None = None
    enacted: date | None = None
    published: date | None = None
    in_force_from: date | None = None
    repealed: bool | None = None
    repealed_on: date | None = None
    annulled: bool | None = None
    exhausted: bool | None = None
    consolidation: str | None = None
    eli: str | None = None
    url: str | None = None
    updated: date | None = None


@dataclass(frozen=True, slots=True)
class Law:
    """A consolidated law: its blocks in document order and what its metadata says.

    Invariant: block ids are unique; every block has at least one wording.

    Attributes:
        law_id: Its BOE identifier: the metadata's, else the one the caller gave.
        blocks: Its blocks, in document order.
        info: Its ``/metadatos``, when read.
    """

    law_id: str | None
    blocks: tuple[Block, ...]
    info: LawInfo | None = None

    @property
    def version_count(self) -> int:
        """Wordings of all blocks."""
        return sum(len(block.versions) for block in self.blocks)

    @property
    def table_count(self) -> int:
        """Tables in all wordings, notes included."""
        return sum(_count(v.content, _tables) for b in self.blocks for v in b.versions)

    @property
    def image_count(self) -> int:
        """Images in all wordings, notes included."""
        return sum(_count(v.content, _images) for b in self.blocks for v in b.versions)


def _tables(item: Paragraph | Table) -> int:
    return int(isinstance(item, Table))


def _images(item: Paragraph | Table) -> int:
    return item.images


def _count(content: tuple[Content, ...], measure: Callable[[Paragraph | Table], int]) -> int:
    """``measure`` summed over ``content``, into its notes."""
    return sum(
        _count(item.parts, measure) if isinstance(item, Note) else measure(item) for item in content
    )
