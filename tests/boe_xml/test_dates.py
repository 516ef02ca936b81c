"""The BOE's days: parsed strictly, as numbers that order as days, in Spanish words."""

from __future__ import annotations

from datetime import date

import pytest

from langchain_asesoria.boe_xml.dates import day_number, in_words, parse_day, vigencia
from langchain_asesoria.errors import LawDateError
from langchain_asesoria.records import OPEN_END_DAY


@pytest.mark.parametrize(
    ("text", "day"),
    [("20190129", date(2019, 1, 29)), (" 20040123\n", date(2004, 1, 23))],
)
def test_parse_day(text: str, day: date) -> None:
    assert parse_day(text, what="fecha_vigencia") == day


@pytest.mark.parametrize("text", ["", "2019-01-29", "20190230", "2019012", "29/01/2019", "año"])
def test_a_bad_day_is_a_typed_error_naming_the_block(text: str) -> None:
    with pytest.raises(LawDateError) as caught:
        parse_day(text, what="fecha_vigencia", source="ley.xml", block_id="a48")
    error = caught.value
    assert isinstance(error, ValueError)
    assert (error.source, error.block_id, error.expected) == (
        "ley.xml",
        "a48",
        "a day written YYYYMMDD",
    )
    assert "fecha_vigencia of block 'a48'" in str(error)


def test_day_numbers_order_as_days_and_no_end_is_last() -> None:
    assert day_number(date(2019, 1, 29)) == 20190129
    assert day_number(None) == OPEN_END_DAY == 99991231
    assert day_number(date(2019, 12, 31)) < day_number(date(2020, 1, 1)) < OPEN_END_DAY


@pytest.mark.parametrize(
    ("valid_from", "valid_to", "words"),
    [
        (date(2019, 1, 29), None, "Vigente desde el 29 de enero de 2019"),
        (
            date(2006, 9, 6),
            date(2019, 1, 29),
            "Vigente del 6 de septiembre de 2006 al 28 de enero de 2019",
        ),
        (date(2020, 2, 28), date(2020, 2, 29), "Vigente solo el 28 de febrero de 2020"),
        (
            date(2025, 7, 1),
            date(2025, 7, 1),
            "Nunca vigente: debía aplicarse desde el 1 de julio de 2025, pero deja de "
            "aplicarse el 1 de julio de 2025",
        ),
    ],
)
def test_vigencia_in_words_names_the_last_day(
    valid_from: date, valid_to: date | None, words: str
) -> None:
    assert vigencia(valid_from, valid_to) == words


def test_every_month_has_its_spanish_name() -> None:
    names = [in_words(date(2024, month, 1)).split(" de ")[1] for month in range(1, 13)]
    assert names[0] == "enero"
    assert names[8] == "septiembre"
    assert names[11] == "diciembre"
