"""List markers put back before their items (``pdf/markers.py``), on tables of lines with
their heights and on the AEAT chapter's real pages (checked against the rendered page:
page 10 prints "a. Saldos negativos de rendimientos", "b. Saldos negativos de
ganancias"; page 6 prints "b. Las ganancias y pérdidas patrimoniales que no deriven")."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from langchain_asesoria import LoadedPage
from langchain_asesoria.pdf.markers import LONE_MARKER, marker_targets, put_markers_first
from langchain_asesoria.reading import DocumentPages, ReadOptions, read_document

ROOT = Path(__file__).resolve().parents[2]
AEAT = ROOT / "corpus" / "pdf" / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"


@pytest.mark.parametrize(
    ("line", "marker"),
    [
        ("a. ", True),
        ("b)", True),
        ("•", True),
        (" 3. ", True),
        ("iv.", True),
        ("2.º", True),
        ("ahorro.", False),
        ("a. Saldos", False),
        ("", False),
        ("Artículo 5.", False),
    ],
)
def test_lone_marker_lines(line: str, marker: bool) -> None:
    assert bool(LONE_MARKER.fullmatch(line) and line.strip()) is marker


# Lines and their heights (points from the page's foot, so a lower line has less).
CASES = {
    # pypdf order: item a's text, then its marker at the height of a's first line.
    "after its item": (
        ["pueden ser:", "Saldos a", "ahorro.", "a. ", "Saldos b", "ahorro", "b. "],
        [611.0, 584.7, 555.9, 584.7, 529.5, 500.7, 529.5],
        {3: 1, 6: 4},
    ),
    # The marker is already where it is printed: the line after it is at its height.
    "before its item": (
        ["pueden ser:", "a. ", "Saldos a", "ahorro."],
        [611.0, 584.7, 584.7, 555.9],
        {},
    ),
    # A nested bullet list inside item a: each marker finds its own first line.
    "nested": (
        ["Rendimientos", "negativo.", "Saldo positivo", "•", "Saldo negativo", "•", "a. "],
        [548.1, 404.1, 377.7, 377.7, 336.9, 336.9, 548.1],
        {3: 2, 5: 4, 6: 0},
    ),
    # A line printed above the marker's height comes first: no item of its own there.
    "a heading between": (
        ["Saldos a", "Reglas", "a. "],
        [584.7, 600.0, 584.7],
        {},
    ),
    # Unknown heights (layout mode, a loader's pages): nothing moves.
    "no heights": (["Saldos a", "a. "], [None, None], {}),
}


@pytest.mark.parametrize("name", CASES)
def test_markers_go_to_the_line_printed_beside_them(name: str) -> None:
    lines, heights, expected = CASES[name]
    assert marker_targets(lines, heights) == expected


def test_a_moved_marker_leaves_its_line_empty_and_the_count_of_lines() -> None:
    lines, heights, _ = CASES["after its item"]
    marked = put_markers_first(LoadedPage("\n".join(lines), 10), heights)
    assert marked.moved == 2
    assert marked.page.text == "pueden ser:\na. Saldos a\nahorro.\n\nb. Saldos b\nahorro\n"
    assert marked.page.text.count("\n") == len(lines) - 1


@cache
def _aeat(list_markers: bool) -> DocumentPages:
    # Switched off, the markers stay in the extraction order: read as printed lines too
    # (reading paragraphs puts markers first on its own, ``pdf.inline``).
    return read_document(AEAT, ReadOptions(list_markers=list_markers, pdf_paragraphs=list_markers))


def test_the_aeat_letters_open_their_own_items_as_printed() -> None:
    page10 = _aeat(True).pages[9].text
    assert "pueden ser:\na. Saldos negativos de rendimientos del capital mobiliario" in page10
    assert "ahorro.\nb. Saldos negativos de ganancias y pérdidas patrimoniales" in page10
    page6 = _aeat(True).pages[5].text
    assert "\nb. Las ganancias y pérdidas patrimoniales que no deriven" in page6
    assert "a. \nLas ganancias" not in page6
    assert _aeat(True).report.markers_moved > 0


def test_switched_off_the_extraction_order_stays() -> None:
    assert "ahorro.\na. \nSaldos negativos de ganancias" in _aeat(False).pages[9].text
    assert _aeat(False).report.markers_moved == 0
