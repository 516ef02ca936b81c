"""Reading the BOE's ``/texto`` and ``/metadatos`` answers: every block and wording as
the XML gives them, text as a reader sees it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from boe_laws import FIXTURE_DIR, FIXTURE_ID, GenBlock, GenVersion, img, law_xml, note, p, table

from langchain_asesoria.boe_xml import (
    Law,
    Note,
    Paragraph,
    Table,
    law_id_of,
    metadata_path,
    read_law,
    read_law_file,
)
from langchain_asesoria.boe_xml.model import IMAGE

FIXTURE = FIXTURE_DIR / f"{FIXTURE_ID}.xml"
DAY = date(2004, 2, 1)


def _one(*content: str, tipo: str = "precepto") -> Law:
    block = GenBlock("a1", tipo, "Artículo 1", (GenVersion("BOE-A-2004-1", DAY, DAY, content),))
    return read_law(law_xml([block]), law_id="BOE-A-2004-1")


@pytest.fixture(scope="module")
def law() -> Law:
    return read_law_file(FIXTURE)


def test_every_block_in_document_order_with_its_wordings(law: Law) -> None:
    assert [block.id for block in law.blocks][:6] == [
        "no",
        "preambulo",
        "aunico",
        "dfunica",
        "firma",
        "reglamento",
    ]
    assert len(law.blocks) == 20
    assert law.version_count == 24
    a4 = next(block for block in law.blocks if block.id == "a4")
    assert [v.valid_from for v in a4.versions] == [
        date(2004, 2, 1),
        date(2006, 9, 6),
        date(2019, 1, 29),
        date(2031, 10, 1),
    ]
    assert [v.amended_by for v in a4.versions] == [
        FIXTURE_ID,
        "BOE-A-2006-8888",
        "BOE-A-2018-7777",
        "BOE-A-2030-6666",
    ]
    assert a4.versions[1].published == date(2006, 9, 5)


def test_blocks_keep_their_type_title_and_end(law: Law) -> None:
    by_id = {block.id: block for block in law.blocks}
    assert (by_id["ti"].tipo, by_id["ti"].titulo) == ("encabezado", "TÍTULO I")
    assert (by_id["preambulo"].tipo, by_id["preambulo"].titulo) == ("preambulo", None)
    assert by_id["a2"].expires == date(2025, 6, 17)
    assert by_id["a1"].expires is None


def test_the_metadata_beside_the_file_is_read(law: Law) -> None:
    assert law.law_id == FIXTURE_ID
    assert law.info is not None
    assert law.info.eli == "https://www.boe.es/eli/es/rd/2004/01/10/99"
    assert law.info.rank == "Real Decreto"
    assert law.info.department == "Jefatura del Estado"
    assert law.info.repealed is False
    assert law.info.updated == date(2030, 3, 15)
    assert law.info.in_force_from == date(2004, 2, 1)
    assert law.info.title is not None
    assert law.info.title.startswith("Real Decreto 99/2004")


def test_tables_images_and_notes_are_counted_in_every_wording(law: Law) -> None:
    assert law.table_count == 3
    assert law.image_count == 3


def test_without_metadata_the_id_comes_from_the_name(tmp_path: Path) -> None:
    copy = tmp_path / FIXTURE.name
    copy.write_bytes(FIXTURE.read_bytes())
    law = read_law_file(copy)
    assert law.law_id == FIXTURE_ID
    assert law.info is None
    other = tmp_path / "ley.xml"
    other.write_bytes(FIXTURE.read_bytes())
    assert read_law_file(other).law_id is None
    assert read_law_file(other, law_id="BOE-A-2004-1").law_id == "BOE-A-2004-1"


@pytest.mark.parametrize(
    ("name", "law_id"),
    [
        ("BOE-A-2003-23514.xml", "BOE-A-2003-23514"),
        ("BOE-A-2003-23514.metadatos.xml", "BOE-A-2003-23514"),
        ("reglamento.xml", None),
        ("BOE-A-2003.xml", None),
    ],
)
def test_law_id_of_a_file_name(name: str, law_id: str | None) -> None:
    assert law_id_of(Path(name)) == law_id


def test_metadata_path_is_beside_the_text() -> None:
    assert metadata_path(Path("d/BOE-A-1-2.xml")) == Path("d/BOE-A-1-2.metadatos.xml")


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        ("Texto  con\n            sangría   del fichero.", "Texto con sangría del fichero."),
        ("Cuota de <strong>12,50 €</strong> al año.", "Cuota de 12,50 € al año."),
        (
            'Véase <a class="refPost">Ref. BOE-A-2015-11722#daprimera</a>.',
            "Véase Ref. BOE-A-2015-11722#daprimera.",
        ),
        ("Primera línea<br/>segunda línea", "Primera línea\nsegunda línea"),
        ("1.\u2003Señal\xa0azul", "1.\u2003Señal\xa0azul"),
        (f"Antes {img()} después", f"Antes {IMAGE} después"),
        ("&lt;ñandú&gt; &amp; año", "<ñandú> & año"),
    ],
)
def test_paragraph_text_is_what_a_reader_sees(markup: str, text: str) -> None:
    (paragraph,) = _one(p("parrafo", markup)).blocks[0].versions[0].content
    assert paragraph == Paragraph(text, "parrafo", markup.count("<img"))


def test_an_empty_paragraph_gives_nothing_and_an_image_alone_a_placeholder() -> None:
    content = _one(p("parrafo", "   "), p("imagen", img()), img(2)).blocks[0].versions[0].content
    assert content == (Paragraph(IMAGE, "imagen", 1), Paragraph(IMAGE, None, 1))


def test_a_table_is_a_line_per_row_and_its_header_apart() -> None:
    markup = table(
        [["Pequeño", f"{img()}<br/>10,00"], ["Grande", "20,00"]],
        header=("Depósito", "Cuota (€)"),
        caption="Cuotas por depósito",
    )
    (found,) = _one(markup).blocks[0].versions[0].content
    assert found == Table(
        "Cuotas por depósito",
        ("Depósito | Cuota (€)",),
        (f"Pequeño | {IMAGE} 10,00", "Grande | 20,00"),
        "tabla",
        1,
    )


def test_a_row_of_header_cells_only_after_the_body_is_a_row() -> None:
    markup = (
        "<table><tr><th><p>A</p></th><th><p>B</p></th></tr><tr><td><p>1</p></td>"
        "<td><p/></td></tr><tr><th><p>C</p></th></tr></table>"
    )
    (found,) = _one(markup).blocks[0].versions[0].content
    assert isinstance(found, Table)
    assert (found.header, found.rows) == (("A | B",), ("1 |", "C"))


def test_notes_keep_their_class_and_the_day_they_stop_being_shown() -> None:
    content = (
        _one(
            note(p("nota_pie", "Se modifica por el Real Decreto 1/2006.")),
            note(
                p("parrafo", "Téngase en cuenta..."),
                caduca=date(2031, 10, 1),
                css_class="soloTexto",
            ),
            '<blockquote class="noDesde20151001">'
            '<p class="parrafo">Redacción anterior</p></blockquote>',
        )
        .blocks[0]
        .versions[0]
        .content
    )
    assert content == (
        Note((Paragraph("Se modifica por el Real Decreto 1/2006.", "nota_pie"),)),
        Note((Paragraph("Téngase en cuenta...", "parrafo"),), "soloTexto", date(2031, 10, 1)),
        Note((Paragraph("Redacción anterior", "parrafo"),), "noDesde20151001", date(2015, 10, 1)),
    )


def test_a_container_element_is_read_paragraph_by_paragraph() -> None:
    content = _one('<div><p class="parrafo">Uno.</p><p class="parrafo">Dos.</p></div>')
    assert content.blocks[0].versions[0].content == (
        Paragraph("Uno.", "parrafo"),
        Paragraph("Dos.", "parrafo"),
    )


def test_the_fragment_shape_with_a_documento_element_is_read() -> None:
    """A trimmed answer (``<data><documento><texto>``, no status) reads the same."""
    xml = law_xml(
        [
            GenBlock(
                "a1",
                "precepto",
                "Artículo 1",
                (GenVersion("X", DAY, DAY, (p("parrafo", "Uno."),)),),
            )
        ]
    )
    trimmed = xml.replace(b"<texto>", b"<documento><texto>").replace(
        b"</texto>", b"</texto></documento>"
    )
    trimmed = trimmed.replace(b"<code>200</code>", b"")
    assert read_law(trimmed).blocks == read_law(xml).blocks
