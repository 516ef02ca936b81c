"""The BOE's days (``YYYYMMDD``), as numbers and in Spanish words.

A wording applies from ``valid_from`` (inclusive) to ``valid_to`` (exclusive: the first
day it no longer applies); its ``vigencia`` in words names the last day it applies, as
the BOE's pages do ("Vigente del 6 de septiembre de 2006 al 28 de enero de 2019").
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Final

from langchain_asesoria.errors import LawDateError
from langchain_asesoria.records import OPEN_END_DAY

#: The months in Spanish, January first.
MONTHS: Final = (
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
)

_DAY: Final = re.compile(r"(\d{4})(\d{2})(\d{2})")


def parse_day(
    text: str,
    *,
    what: str,
    source: str | None = None,
    law_id: str | None = None,
    block_id: str | None = None,
) -> date:
    """The day ``text`` writes as ``YYYYMMDD`` (surrounding whitespace allowed).

    Raises:
        LawDateError: ``text`` is not eight digits, or not a real day; the message names
            ``what`` (the attribute: ``fecha_vigencia``...) and the block.
    """
    found = _DAY.fullmatch(text.strip())
    day: date | None = None
    if found is not None:
        try:
            day = date(*(int(part) for part in found.groups()))
        except ValueError:
            day = None
    if day is None:
        where = f" of block {block_id!r}" if block_id is not None else ""
        raise LawDateError(
            f"{what}{where} is {text!r}, not a day written YYYYMMDD (20190129): the file "
            "was edited or is not the BOE's; download it again.",
            source=source,
            law_id=law_id,
            block_id=block_id,
            expected="a day written YYYYMMDD",
        )
    return day


def day_number(day: date | None) -> int:
    """``day`` as the number YYYYMMDD (2019-01-29 is 20190129); ``OPEN_END_DAY`` for
    ``None`` (no end). Numbers order as days do."""
    if day is None:
        return OPEN_END_DAY
    return day.year * 10_000 + day.month * 100 + day.day


def in_words(day: date) -> str:
    """``day`` in Spanish: "29 de enero de 2019" (the first of a month: "1 de ...")."""
    return f"{day.day} de {MONTHS[day.month - 1]} de {day.year}"


def vigencia(valid_from: date, valid_to: date | None) -> str:
    """A wording's interval in Spanish words: "Vigente desde el 29 de enero de 2019"
    while it has no end, "Vigente del 6 de septiembre de 2006 al 28 de enero de 2019"
    (the last day it applies) when it has one, and "Nunca vigente: debía aplicarse desde
    el 1 de julio de 2025, pero deja de aplicarse el 1 de julio de 2025" when it ends
    before it starts (another wording of the same day, or the block's end)."""
    if valid_to is None:
        return f"Vigente desde el {in_words(valid_from)}"
    if valid_to <= valid_from:
        return (
            f"Nunca vigente: debía aplicarse desde el {in_words(valid_from)}, pero deja de "
            f"aplicarse el {in_words(valid_to)}"
        )
    last = valid_to - timedelta(days=1)
    if last == valid_from:
        return f"Vigente solo el {in_words(valid_from)}"
    return f"Vigente del {in_words(valid_from)} al {in_words(last)}"
