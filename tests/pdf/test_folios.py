"""Page numbers in a line: arabic and roman forms, and the keys that follow the pages."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, examples

from langchain_asesoria.pdf import ROMAN_FOLIO, furniture_key, roman_value, running_keys
from tests.pdf_layouts import roman


@settings(PROFILE, max_examples=examples(200))
@given(st.integers(1, 3998), st.integers(1, 500), st.sampled_from(["{}", "- {} -", "[{}]"]))
def test_a_roman_folio_shares_its_key_with_the_next_page_s(
    number: int, page: int, form: str
) -> None:
    for numeral in (roman(number), roman(number).upper()):
        assert ROMAN_FOLIO.match(form.format(numeral))
        assert roman_value(numeral) == number
    this = running_keys(form.format(roman(number)), page)
    following = running_keys(form.format(roman(number + 1)), page + 1)
    assert this[1] == following[1]
    assert this[0] != following[0]
    assert furniture_key(this[0]) == furniture_key(following[0])


@pytest.mark.parametrize(
    "line", ["TÍTULO II", "Capítulo IV", "iiii", "vv", "ic", "Iv", "mmmm", "ii.iii", ""]
)
def test_what_is_no_roman_folio(line: str) -> None:
    assert ROMAN_FOLIO.match(line) is None
    assert len(running_keys(line, 2)) == 1


@pytest.mark.parametrize(
    ("line", "page", "shares_with"),
    [
        ("Página 12", 12, ("Página 13", 13)),
        ("Pág. 3 de 179", 3, ("Pág. 4 de 179", 4)),
        ("- 455 -", 3, ("- 456 -", 4)),
        ("xii", 12, ("xiii", 13)),
        ("- IV -", 2, ("- V -", 3)),
    ],
)
def test_a_number_that_follows_the_pages_shares_a_key(
    line: str, page: int, shares_with: tuple[str, int]
) -> None:
    assert running_keys(line, page)[1] == running_keys(*shares_with)[1]
