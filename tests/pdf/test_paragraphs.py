"""Reading a PDF as paragraphs and its typeset headings: the pure rules, by table."""

from __future__ import annotations

import pytest

from langchain_asesoria.pdf.headings import TitleEvent, TypesetHeading, place_headings
from langchain_asesoria.pdf.titles import TitleLines
from langchain_asesoria.pdf.typesetting import text_runs_on


@pytest.mark.parametrize(
    ("before", "after", "runs_on"),
    [
        ("la renta obtenida por el ", "contribuyente se ordena", True),
        ("en tres categorías fiscales:", "• Rendimientos.", False),
        ("por su perceptor.", "a) Los rendimientos", False),
        ("por su perceptor. ", "Los rendimientos del", True),  # a wrapped line keeps its space
        ("se integran.", "Las rentas del capital", False),
    ],
)
def test_a_line_runs_on_only_when_its_text_allows(before: str, after: str, runs_on: bool) -> None:
    assert text_runs_on(before, after) is runs_on


def test_an_outline_title_opens_and_closes_a_paragraph() -> None:
    titled = TitleLines.of(["Artículo 1. Rentas del capital", "1.", "[Firma]"])
    assert titled("Artículo 1. Rentas del capital", True)
    assert titled("Artículo 1. Rentas", False)  # a title wrapped over two lines opens it
    assert not titled("Las rentas del capital se integran.", False)
    assert not titled("1.", False)  # too short to tell a title from a label


def _heading(start: int, size: float, title: str) -> TypesetHeading:
    return TypesetHeading(start, start + len(title), 1, size, title)


def test_typeset_headings_nest_by_size_under_the_outline() -> None:
    chapter = TitleEvent(0, ("Capítulo 12",), 20.0)
    headings = [
        _heading(10, 16.0, "Introducción"),
        _heading(50, 14.0, "Ejemplo"),
        _heading(90, 14.0, "Solución"),
        _heading(130, 16.0, "Reglas"),
    ]
    placed, unplaced = place_headings([chapter], headings)
    assert [p.path for p in placed] == [
        ("Capítulo 12", "Introducción"),
        ("Capítulo 12", "Introducción", "Ejemplo"),
        ("Capítulo 12", "Introducción", "Solución"),
        ("Capítulo 12", "Reglas"),
    ]
    assert unplaced == []


def test_a_heading_the_outline_cannot_place_is_reported() -> None:
    before = _heading(0, 16.0, "Antes del capítulo")
    placed, unplaced = place_headings([TitleEvent(50, ("Capítulo 12",), 20.0)], [before])
    assert placed == []
    assert unplaced == [before]
