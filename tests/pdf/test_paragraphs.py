"""Reading a PDF as paragraphs and its typeset headings: the pure rules, by table."""

from __future__ import annotations

import pytest

from langchain_asesoria.pdf.headings import (
    MAX_LINES,
    TitleEvent,
    TypesetHeading,
    place_headings,
    typeset_headings,
)
from langchain_asesoria.pdf.layout import LineLayout, Piece
from langchain_asesoria.pdf.paragraphs import Block
from langchain_asesoria.pdf.titles import TitleLines
from langchain_asesoria.pdf.typesetting import Typesetting, text_runs_on


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


def _lines(size: float, gaps: list[float], y: float = 800.0) -> list[LineLayout]:
    """Lines of one size on one page, each ``gap`` points below the one before."""
    lines = [LineLayout((Piece(0, 40, 50.0, y, size, False),))]
    for gap in gaps:
        y -= gap
        lines.append(LineLayout((Piece(0, 40, 50.0, y, size, False),)))
    return lines


@pytest.mark.parametrize(
    ("gaps", "step"),
    [
        # notes of one or two lines: paragraph gaps outnumber the line step beneath them
        ([21.2] * 12 + [9.2] * 6, 9.2),
        # the smaller gap seen too seldom to be the line step: the most frequent stays
        ([21.2] * 12 + [9.2] * 4, 21.2),
        # a smaller gap that is no paragraph's spacing over it (21.2 < 1.3 * 17.0)
        ([21.2] * 12 + [17.0] * 6, 21.2),
        # body text: the line step is the most frequent gap
        ([12.0] * 20 + [20.0] * 6, 12.0),
    ],
)
def test_a_size_s_line_step_is_not_its_paragraph_spacing(gaps: list[float], step: float) -> None:
    body = _lines(10.0, [12.0] * 30)
    notes = _lines(7.7, gaps, y=700.0)
    typesetting = Typesetting.of([body, notes])
    assert typesetting.body_size == 10.0
    assert typesetting.step(7.7) == step


def _block(lines: int, *, bold: bool = True, size: float = 14.0) -> Block:
    return Block(page=1, start=0, end=20, size=size, bold=bold, lines=lines)


@pytest.mark.parametrize(
    ("block", "heading"),
    [
        (_block(1), True),
        (_block(6), True),  # a numbered statement set as a heading over six lines
        (_block(MAX_LINES), True),
        (_block(MAX_LINES + 1), False),  # a passage set in bold: emphasis
        (_block(2, bold=False), False),
        (_block(2, size=10.0), False),  # bold in the body's size
    ],
)
def test_a_typeset_heading_is_bold_larger_and_at_most_max_lines(
    block: Block, heading: bool
) -> None:
    text = "2. Los contribuyente"
    found = typeset_headings(text, [(0, block)], body_size=10.0)
    assert [h.title for h in found] == ([text] if heading else [])
