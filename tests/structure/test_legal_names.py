"""A unit's number and name as one heading (``legal.named_units``), and quoted amended
provisions inside the article quoting them (``legal.nest_quoted``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, examples

from langchain_asesoria.structure.headings import Heading
from langchain_asesoria.structure.legal import named_units, nest_quoted, relevel
from langchain_asesoria.structure.legal_grammar import number_only, quoted


@pytest.mark.parametrize(
    ("title", "alone"),
    [
        ("TÍTULO I", True),
        ("Capítulo II.", True),
        ("TÍTULO PRELIMINAR", True),
        ("Sección 1.ª", True),
        ("LIBRO PRIMERO", True),
        ("TÍTULO I. Delimitación del hecho imponible", False),
        ("Artículo 4", False),
        ("ANEXO I", False),
        ("Títulos valores", False),
    ],
)
def test_a_units_number_alone(title: str, alone: bool) -> None:
    assert number_only(title) is alone


@pytest.mark.parametrize(
    ("title", "is_quoted"),
    [
        ("«Artículo 20. Reducción.", True),
        ("“Artículo 2.", True),
        ("Artículo 3. Modificación", False),
    ],
)
def test_a_quoted_heading(title: str, is_quoted: bool) -> None:
    assert quoted(title) is is_quoted


def _headings(titles: list[tuple[int, str, bool]]) -> list[Heading]:
    """Headings one line each, ``(level, title, body_is_empty)``, in a row."""
    found, position = [], 0
    for level, title, bare in titles:
        found.append(Heading(position, position + len(title), level, title, bare))
        position += len(title) + 2
    return found


def test_a_number_and_its_name_are_one_heading_from_the_number_to_the_name() -> None:
    number, name, article = _headings(
        [
            (4, "TÍTULO I", True),
            (4, "Delimitación del hecho imponible", True),
            (5, "Artículo 4.", False),
        ]
    )
    assert named_units([number, name, article]) == [
        Heading(number.start, name.end, 4, "TÍTULO I. Delimitación del hecho imponible", True),
        article,
    ]


@pytest.mark.parametrize(
    "titles",
    [
        [(4, "TÍTULO I", False), (4, "Disposiciones generales", True)],  # text between them
        [(4, "TÍTULO I", True), (5, "Disposiciones generales", True)],  # another level
        [(4, "TÍTULO I", True), (4, "CAPÍTULO I", True)],  # a unit, not a name
        [(4, "TÍTULO I. Objeto", True), (4, "Ámbito", True)],  # already named
    ],
)
def test_what_is_not_a_units_name_stays_apart(titles: list[tuple[int, str, bool]]) -> None:
    headings = _headings(titles)
    assert named_units(headings) == headings


@settings(PROFILE, max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(st.integers(1, 99), st.lists(st.integers(100, 200), max_size=3))))
def test_quoted_provisions_nest_under_the_article_quoting_them(
    articles: list[tuple[int, list[int]]],
) -> None:
    """A law's articles, each quoting the provisions it amends: every quoted one is a
    child of its quoting article, every article of the law a sibling of the others."""
    titles: list[tuple[int, str, bool]] = [(3, "Ley 1/2024.", True), (4, "TÍTULO I", True)]
    for number, quoted_numbers in articles:
        titles.append((5, f"Artículo {number}. Modificación.", False))
        titles += [(5, f"«Artículo {n}. Objeto.", False) for n in quoted_numbers]
    nested = nest_quoted(relevel(_headings(titles)))
    own_level = None
    for heading in nested[2:]:
        if heading.title.startswith("«"):
            assert own_level is not None
            assert heading.level == own_level + 1
        else:
            own_level = own_level or heading.level
            assert heading.level == own_level


def test_a_quoted_heading_outside_any_article_keeps_its_level() -> None:
    headings = relevel(_headings([(3, "Ley 1/2024.", True), (5, "«Artículo 2. Objeto.", False)]))
    assert nest_quoted(headings) == headings
