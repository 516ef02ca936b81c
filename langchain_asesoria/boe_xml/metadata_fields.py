"""The metadata a law's chunks carry: the law's, and each wording's (``records`` keys).

Values are vector-store safe (``str`` and ``int``); a field with no value is left out.
Per wording (``section_fields``), in this order:

| key | value |
|---|---|
| ``block_id`` | the block's id, the anchor of its BOE page ("a48") |
| ``block_type`` | the block's ``tipo`` ("precepto", "encabezado"...) |
| ``version_id`` | the wording's id, stable across runs, unique in the law ("a48@20190129") |
| ``valid_from`` | the first day the wording applies, ISO ("2019-01-29") |
| ``valid_to`` | the first day it no longer applies, ISO; absent while it has no end |
| ``valid_from_day`` | ``valid_from`` as YYYYMMDD (20190129) |
| ``valid_to_day`` | ``valid_to`` as YYYYMMDD, ``99991231`` while it has no end |
| ``amended_by`` | the act that gave the wording (``id_norma``, "BOE-A-2018-18002") |
| ``amendment_published`` | the day that act was published, ISO |
| ``vigencia`` | the interval in words ("Vigente desde el 29 de enero de 2019") |
| ``url`` | the BOE's page at the block (``act.php?id=BOE-A-2003-23514#a48``) |
| ``eli`` | the law's ELI, when its metadata gives one |

So a vector store finds the wordings in force on day D (a number YYYYMMDD) with
``valid_from_day <= D`` and ``valid_to_day > D`` (Chroma: ``{"$and": [{"valid_from_day":
{"$lte": D}}, {"valid_to_day": {"$gt": D}}]}``).

The law's (``law_fields``): ``norm_id`` (its identifier), ``status`` (``"in_force"`` or
``"repealed"``, when the metadata says) and ``last_updated`` (ISO, when it says).
"""

from __future__ import annotations

from datetime import date
from typing import Final

from langchain_asesoria.boe_xml.dates import day_number, vigencia
from langchain_asesoria.boe_xml.model import Law
from langchain_asesoria.boe_xml.select import Wording
from langchain_asesoria.records import (
    AMENDED_BY,
    AMENDMENT_PUBLISHED,
    BLOCK_ID,
    BLOCK_TYPE,
    ELI,
    LAST_UPDATED,
    NORM_ID,
    STATUS,
    URL,
    VALID_FROM,
    VALID_FROM_DAY,
    VALID_TO,
    VALID_TO_DAY,
    VERSION_ID,
    VIGENCIA,
    MetadataValue,
)

#: The BOE's consolidated page of a law; ``#<block id>`` anchors a block.
BOE_PAGE: Final = "https://www.boe.es/buscar/act.php?id={law_id}"

Fields = tuple[tuple[str, MetadataValue], ...]


def block_url(law_id: str, block_id: str) -> str:
    """The BOE's page of the law, at the block: a link a lawyer can click."""
    return f"{BOE_PAGE.format(law_id=law_id)}#{block_id}"


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day is not None else None


def _present(pairs: tuple[tuple[str, MetadataValue | None], ...]) -> Fields:
    return tuple((key, value) for key, value in pairs if value is not None)


def section_fields(law: Law, wording: Wording) -> tuple[Fields, str]:
    """A wording's metadata (the table above), and its ``vigencia`` in words."""
    version = wording.version
    words = vigencia(wording.valid_from, wording.valid_to)
    url = block_url(law.law_id, wording.block.id) if law.law_id else None
    eli = law.info.eli if law.info is not None else None
    fields = _present(
        (
            (BLOCK_ID, wording.block.id),
            (BLOCK_TYPE, wording.block.tipo or None),
            (VERSION_ID, wording.version_id),
            (VALID_FROM, _iso(wording.valid_from)),
            (VALID_TO, _iso(wording.valid_to)),
            (VALID_FROM_DAY, day_number(wording.valid_from)),
            (VALID_TO_DAY, day_number(wording.valid_to)),
            (AMENDED_BY, version.amended_by or None),
            (AMENDMENT_PUBLISHED, _iso(version.published)),
            (VIGENCIA, words),
            (URL, url),
            (ELI, eli),
        )
    )
    return fields, words


def law_fields(law: Law) -> Fields:
    """The law's own metadata for every chunk: ``norm_id``, ``status``, ``last_updated``."""
    info = law.info
    status = None
    if info is not None and info.repealed is not None:
        status = "repealed" if info.repealed else "in_force"
    return _present(
        (
            (NORM_ID, law.law_id),
            (STATUS, status),
            (LAST_UPDATED, _iso(info.updated) if info is not None else None),
        )
    )
