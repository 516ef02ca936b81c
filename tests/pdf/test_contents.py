"""``pdf.contents``: index pages of dot leaders and page numbers, and nothing else."""

from __future__ import annotations

from langchain_asesoria.models import LoadedPage
from langchain_asesoria.pdf.contents import contents_lines
from langchain_asesoria.pdf.furniture import Furniture

INDEX = (
    "Real Decreto 1/2024, de prueba.\nReferencia: BOE-A-2024-1\nÍNDICE\n"
    "Preámbulo ......................... 4\nArtículos .......................... 6\n"
    "TÍTULO I. Objeto y ámbito de aplicación del impuesto sobre la renta de las \n"
    "personas físicas .................... 7\nCAPÍTULO I. Rentas exentas ........ 7\n"
    "Disposiciones finales .............. 9\n"
)
MORE = "CAPÍTULO II. Imputación ........... 10\nDisposiciones adicionales … 12\n"
BODY = (
    "TEXTO CONSOLIDADO\nArtículo 1. Objeto.\nLa base se fija en 1.000 euros....... 5\n"
    "Y sigue el texto del artículo, con ñ y 20 €.\n"
)


def test_index_pages_lose_their_entries_and_keep_the_rest() -> None:
    pages = [LoadedPage(INDEX, 1), LoadedPage(MORE, 2), LoadedPage(BODY, 3)]
    lines = contents_lines(pages)
    assert [line.page for line in lines] == [1] * 7 + [2, 2]
    assert lines[0].text == "ÍNDICE"
    assert "TÍTULO I. Objeto y ámbito de aplicación del impuesto sobre la renta de las " in [
        line.text for line in lines
    ]  # a wrapped entry goes whole
    cleaned = Furniture(lines).remove(pages)
    assert cleaned[0].text == "Real Decreto 1/2024, de prueba.\nReferencia: BOE-A-2024-1\n"
    assert cleaned[1].text == ""
    assert cleaned[2].text == BODY  # a body line ending in dots and a number stays
    assert Furniture(lines).restore(cleaned) == tuple(pages)


def test_a_few_dotted_lines_in_the_body_are_no_index() -> None:
    page = LoadedPage("Importe ........ 10\nTipo .......... 20\n" + "Texto del artículo.\n" * 5, 1)
    assert contents_lines([page]) == ()
