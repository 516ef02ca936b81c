"""A law's ``/metadatos`` answer read into a ``LawInfo``: one table, element by field."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from datetime import date
from typing import Final

from langchain_asesoria.boe_xml.dates import parse_day
from langchain_asesoria.boe_xml.model import LawInfo
from langchain_asesoria.boe_xml.response import response_data

_Reader = Callable[[str, str], "str | date | bool | None"]


def _text(value: str, _: str) -> str | None:
    return " ".join(value.split()) or None


def _flag(value: str, _: str) -> bool | None:
    """The BOE's ``S``/``N`` (sí/no); anything else is unknown."""
    return {"S": True, "N": False}.get(value.strip().upper())


#: ``LawInfo`` field -> (element of ``<metadatos>``, how its text is read).
METADATA_FIELDS: Final[dict[str, tuple[str, str]]] = {
    "law_id": ("identificador", "text"),
    "title": ("titulo", "text"),
    "rank": ("rango", "text"),
    "department": ("departamento", "text"),
    "scope": ("ambito", "text"),
    "official_number": ("numero_oficial", "text"),
    "enacted": ("fecha_disposicion", "day"),
    "published": ("fecha_publicacion", "day"),
    "in_force_from": ("fecha_vigencia", "day"),
    "repealed": ("estatus_derogacion", "flag"),
    "repealed_on": ("fecha_derogacion", "day"),
    "annulled": ("estatus_anulacion", "flag"),
    "exhausted": ("vigencia_agotada", "flag"),
    "consolidation": ("estado_consolidacion", "text"),
    "eli": ("url_eli", "text"),
    "url": ("url_html_consolidada", "text"),
    "updated": ("fecha_actualizacion", "timestamp"),
}


def read_law_info(data: bytes, *, source: str | None = None, law_id: str | None = None) -> LawInfo:
    """What a ``/metadatos`` answer says; an element it lacks (or leaves empty) is
    ``None``. ``fecha_actualizacion`` ("20260731T082621Z") gives its day.

    Raises:
        DamagedXmlError: not well-formed XML.
        NotBoeResponseError: not a BOE ``/metadatos`` answer.
        LawDateError: a date that is not a day written ``YYYYMMDD``.
    """
    element = response_data(data, kind="metadatos", source=source, law_id=law_id)

    def day(value: str, what: str) -> date | None:
        if not value.strip():
            return None
        return parse_day(value, what=what, source=source, law_id=law_id)

    def timestamp(value: str, what: str) -> date | None:
        return day(value.strip()[:8], what)

    readers: dict[str, _Reader] = {
        "text": _text,
        "flag": _flag,
        "day": day,
        "timestamp": timestamp,
    }
    values: dict[str, str | date | bool | None] = {}
    for name, (tag, kind) in METADATA_FIELDS.items():
        text = element.findtext(tag)
        values[name] = None if text is None else readers[kind](text, tag)
    assert set(values) == {field.name for field in fields(LawInfo)}
    return LawInfo(**values)  # type: ignore[arg-type]
