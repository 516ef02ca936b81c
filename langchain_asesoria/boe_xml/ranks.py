"""What the XML's types and classes say about structure, as tables.

A block's ``tipo`` says what it is (a heading, a provision, a part of its own); a
heading's rank is its first paragraph's ``class`` ("titulo_num", "capitulo_num",
"seccion"...), the BOE's own markup, ranked by the legal grammar's units
(``structure.legal_grammar``): nothing is guessed from the words of the text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from langchain_asesoria.boe_xml.model import Paragraph, Version
from langchain_asesoria.structure.legal_grammar import UNITS, LegalUnit, legal_unit

#: How a block takes part in the structure: a ``heading`` opens a level that holds what
#: follows it; a ``provision`` is a leaf under the open headings; a part of its ``own``
#: (preamble, initial note, signature) stands at the top, outside every heading.
BlockKind = Literal["heading", "provision", "own"]

#: Each ``tipo`` the BOE's XML uses and its kind; another ``tipo`` is read as a
#: provision, kept as text and reported.
BLOCK_KINDS: Final[dict[str, BlockKind]] = {
    "encabezado": "heading",
    "precepto": "provision",
    "preambulo": "own",
    "nota_inicial": "own",
    "firma": "own",
    "parte_dispositiva": "own",
}

#: The label of a part of its own without a ``titulo`` (the XML gives these none).
OWN_LABELS: Final[dict[str, str]] = {
    "preambulo": "Preámbulo",
    "nota_inicial": "Nota inicial",
    "firma": "Firma",
    "parte_dispositiva": "Parte dispositiva",
}

#: A heading paragraph's class -> (the legal unit it is, its role): ``number`` is a
#: unit's number ("TÍTULO I"), ``name`` its name after it ("Normas generales"), ``whole``
#: both in one paragraph ("Sección 1.ª Transporte de personas").
HEADING_CLASSES: Final[dict[str, tuple[str, Literal["number", "name", "whole"]]]] = {
    "libro_num": ("libro", "number"),
    "libro_tit": ("libro", "name"),
    "libro": ("libro", "whole"),
    "titulo_num": ("título", "number"),
    "titulo_tit": ("título", "name"),
    "titulo": ("título", "whole"),
    "capitulo_num": ("capítulo", "number"),
    "capitulo_tit": ("capítulo", "name"),
    "capitulo": ("capítulo", "whole"),
    "seccion": ("sección", "whole"),
    "subseccion": ("subsección", "whole"),
    "anexo_num": ("anexo", "number"),
    "anexo_tit": ("anexo", "name"),
    "anexo": ("anexo", "whole"),
}

#: A provision's title paragraph ("Artículo 48. Velocidades máximas...").
PROVISION_TITLE_CLASSES: Final = frozenset({"articulo"})

#: The rank of a heading that holds everything after it, until another such heading:
#: the title of a text a decree approves ("REGLAMENTO GENERAL DE CIRCULACIÓN", class
#: ``libro`` but no LIBRO): its TÍTULOs, disposiciones and ANEXOs are all its own.
CONTAINER: Final = LegalUnit("texto aprobado", "articulado", 0)

_UNITS_BY_NAME: Final = {row.unit.name: row.unit for row in UNITS}


@dataclass(frozen=True, slots=True)
class HeadingTitle:
    """A heading wording's title: its label, its unit, and how many of its first
    paragraphs it takes (``None`` unit: no class of ``HEADING_CLASSES``)."""

    label: str
    unit: LegalUnit | None
    paragraphs: int


def _first_paragraphs(version: Version) -> list[Paragraph]:
    """The wording's leading paragraphs (up to the first table or note)."""
    leading: list[Paragraph] = []
    for item in version.content[:2]:
        if not isinstance(item, Paragraph):
            break
        leading.append(item)
    return leading


def heading_title(version: Version, fallback: str) -> HeadingTitle:
    """The title of a heading's wording: a ``number`` paragraph with the ``name`` one of
    the same unit after it ("TÍTULO I. Normas generales..."), or one ``whole``
    paragraph; else ``fallback`` (the block's ``titulo``) with no unit."""
    leading = _first_paragraphs(version)
    if not leading or leading[0].css_class not in HEADING_CLASSES:
        return HeadingTitle(fallback, None, 0)
    name, role = HEADING_CLASSES[leading[0].css_class]
    unit = _UNITS_BY_NAME[name]
    if name == "libro" and role == "whole" and _not_a_libro(leading[0].text):
        unit = CONTAINER
    label, count = leading[0].text, 1
    following = leading[1] if len(leading) > 1 else None
    if role == "number" and following is not None and _names(following, name):
        label, count = f"{label.rstrip(' .:')}. {following.text}", 2
    return HeadingTitle(" ".join(label.split()), unit, count)


def _names(paragraph: Paragraph, unit: str) -> bool:
    """Whether ``paragraph`` is the name of a ``unit`` whose number came before it."""
    return HEADING_CLASSES.get(paragraph.css_class or "") == (unit, "name")


def _not_a_libro(text: str) -> bool:
    unit = legal_unit(text)
    return unit is None or unit.name != "libro"


def provision_title(version: Version, fallback: str) -> tuple[str, int]:
    """A provision wording's label and how many first paragraphs it takes: its
    ``articulo`` paragraph ("Artículo 48. Velocidades máximas en vías fuera de
    poblado."), else ``fallback`` (the block's ``titulo``) and none."""
    leading = _first_paragraphs(version)
    if leading and leading[0].css_class in PROVISION_TITLE_CLASSES:
        return " ".join(leading[0].text.split()), 1
    return fallback, 0


def is_disposicion(titulo: str | None) -> bool:
    """Whether a provision's ``titulo`` is a disposición ("Disposición adicional
    primera"): it closes every heading of the articulado and the annexes, as the legal
    grammar ranks it (a part of the law of its own)."""
    unit = legal_unit(titulo) if titulo else None
    return unit is not None and unit.part == "disposiciones"
