"""The reader's boundaries of ``benchmarks.boundaries``, on tables of hand-made examples,
and the numbers ``benchmarks.quality`` builds from them on a small chunked text."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import boundaries as b
from benchmarks.quality import TARGETS, Reader, _reader
from langchain_asesoria import ChunkingConfig, ChunkMetadata
from langchain_asesoria.reading import read_text_document, split_document
from langchain_asesoria.testing import WordTokenization


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("Las personas físicas.", True),
        ("¿Quién declara?", True),
        ("lo dispone «la ley».", True),
        ("según el art.", False),
        ("en el núm.", False),
        ("conforme al apdo.", False),
        ("compareció el Sr.", False),
        ("bienes, derechos, etc.", False),
        ("Inversiones S.A.", False),
        ("don A.P.G.", False),
        ("rentas obtenidas.\n2.", False),  # the period is the label's
        ("rentas obtenidas\n", False),
        ("rentas obtenidas;", False),
        ("las siguientes:", False),
    ],
)
def test_sentence_ends(text: str, ends: bool) -> None:
    assert b.sentence_end(text, pdf=False) is ends


@pytest.mark.parametrize(
    ("text", "bare"),
    [
        ("Texto del apartado.\n1.", True),
        ("Texto del apartado.\n2.º", True),
        ("Texto del apartado.\n1.ª", True),
        ("Texto.\n\nUno.", True),
        ("Texto.\na)", True),
        ("Texto.\nb´)", True),  # noqa: RUF001 - the BOE's own label
        ("Texto.\nIV.", True),
        ("Texto.\nArtículo 5.", True),
        ("rentas del período. 2.", True),  # after the last sentence, on its line
        ("previsto en el artículo \n11.", False),  # a PDF line that wrapped: a reference
        ("Texto del apartado 1.", False),
        ("a) Las rentas.", False),
        ("Uno. Se modifica.", False),
    ],
)
def test_bare_label_ends(text: str, bare: bool) -> None:
    assert b.ends_with_bare_label(text, pdf=True) is bare


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("a) Las rentas", 4),
        ("2.º Que destinen", 1),
        ("2.° Que destinen", 1),
        ("1. Las personas", 2),
        ("Ocho. Se añade", 7),
        ("Artículo 5. Objeto", 8),
        ("• El saldo", 9),
        ("art. 5", None),
        ("Las personas", None),
        ("a)b", None),
        ("i) La cuenta", 10),  # a roman numeral, not the letter i
        ("ii) Los ingresos", 10),
        ("D. Cuenta sujeta", 11),
        ("C. Las instituciones", 6),  # read as a roman numeral, of the same rank
        ("a') Para el conjunto", 12),  # a prime: an item inside a letter's
        ("b\u00b4) Los arrendamientos", 12),
    ],
)
def test_label_kinds(text: str, kind: int | None) -> None:
    assert b.label_kind(text) == kind


JOINED = "Primera frase. Segunda frase del \ncontribuyente, que sigue.\nOtra línea\n\na) Item"


@pytest.mark.parametrize(
    ("start", "pdf", "clean"),
    [
        (0, True, True),  # the text's start
        (JOINED.index("Segunda"), True, True),  # after a sentence end
        (JOINED.index("contribuyente"), True, False),  # a wrapped PDF line
        (JOINED.index("contribuyente"), False, True),  # a line in Markdown
        (JOINED.index("que sigue"), True, False),  # after a comma
        (JOINED.index("Otra"), True, True),  # after a real line break
        (JOINED.index("a) Item"), True, True),  # a paragraph and an item
        (JOINED.index("rase. Seg"), True, False),  # inside a word
    ],
)
def test_clean_starts(start: int, pdf: bool, clean: bool) -> None:
    assert b.clean_start(JOINED, start, JOINED[start:], pdf) is clean


@pytest.mark.parametrize(
    ("end", "clean"),
    [
        (JOINED.index(" Segunda"), True),  # a sentence end
        (JOINED.index(" \ncontribuyente"), False),  # a wrapped PDF line
        (JOINED.index(" que sigue"), False),  # a comma
        (JOINED.index("\nOtra"), True),  # a sentence and a line end
        (JOINED.index("\n\na)"), True),  # a line end without a period
        (len(JOINED), True),  # the text's end
    ],
)
def test_clean_ends(end: int, clean: bool) -> None:
    assert b.clean_end(JOINED, end, JOINED[:end], pdf=True) is clean


def test_inside_a_word() -> None:
    assert b.inside_word("contribuyente", 5)
    assert not b.inside_word("del contribuyente", 4)
    assert not b.inside_word("2.000 euros", 2)


LIST = (
    "Artículo 2. Entidades.\n\n"
    "1. Se consideran entidades sin fines lucrativos las siguientes:\n\n"
    "a) Las fundaciones.\n\n"
    "b) Las asociaciones:\n\n"
    "1.º De utilidad pública.\n\n"
    "2.º Deportivas.\n\n"
    "c) Las federaciones.\n\n"
    "2. Lo dispuesto en el apartado anterior.\n\n"
    "Artículo 3. Requisitos."
)


def test_a_list_runs_from_its_lead_in_to_its_last_item() -> None:
    found = list(b.lists(b.blocks(LIST, pdf=False)))
    outer, inner = found
    assert outer.lead == "1. Se consideran entidades sin fines lucrativos las siguientes:"
    assert LIST[outer.lead_end : outer.end].strip().endswith("c) Las federaciones.")
    assert inner.lead == "b) Las asociaciones:"
    assert LIST[inner.lead_end : inner.end].strip().endswith("2.º Deportivas.")
    assert b.continued(found, LIST.index("2.º")) == inner  # the innermost
    assert b.continued(found, LIST.index("c)")) == outer
    assert b.continued(found, LIST.index("2. Lo")) is None  # a sibling of the lead-in
    assert b.continued(found, LIST.index("1. Se")) is None  # holds the lead-in


def test_a_coarser_label_or_a_quoted_article_closes_a_list() -> None:
    text = (
        "Se modifica el Reglamento:\n\na) Primera.\n\nDos. Otra modificación.\n\n"
        "b) Segunda.\n\nAsí:\n\na) Una.\n\n«Artículo 7. Objeto.\n\nb) Otra."
    )
    first, second = b.lists(b.blocks(text, pdf=False))
    assert text[first.lead_end : first.end].strip() == "a) Primera."
    assert text[second.lead_end : second.end].strip() == "a) Una."


def test_roman_items_nest_in_letters_and_a_section_start_ends_a_list() -> None:
    text = (
        "17. Por «cuenta excluida» se entiende:\n\n"
        "a) Una cuenta que cumple los requisitos siguientes:\n\n"
        "i) Está sujeta a la legislación.\n\nii) Goza de una fiscalidad favorable.\n\n"
        "b) Una cuenta de depósito.\n\nSección IX. Otra\n\nc) Otra letra.\n"
    )
    outer, inner = b.lists(b.blocks(text, pdf=False), [text.index("Sección IX")])
    assert text[inner.lead_end : inner.end].strip().endswith("fiscalidad favorable.")
    assert text[outer.lead_end : outer.end].strip().endswith("b) Una cuenta de depósito.")


def test_a_new_lead_in_of_the_items_kind_ends_a_list() -> None:
    text = (
        "e) Los rendimientos, siempre que cumplan los requisitos siguientes:\n"
        "1.º Que estén representados mediante anotaciones en cuenta.\n"
        "2.º Que se negocien en un mercado secundario.\n"
        "Se faculta al Ministro para establecer el procedimiento.\n"
        "Igualmente, quedará sujeta a retención, cuando se cumplan los siguientes requisitos:\n"
        "1.º Que el adquirente sea no residente.\n"
        "2.º Que los rendimientos estén exceptuados.\n"
    )
    first, second = b.lists(b.blocks(text, pdf=True))
    assert text[first.lead_end : first.end].strip().endswith("mercado secundario.")
    assert text[second.lead_end : second.end].strip().endswith("estén exceptuados.")


def test_a_pdf_list_joins_wrapped_lines() -> None:
    text = "Pueden ser: \nlos siguientes:\na. Saldos del \nahorro.\n\nb. Saldos\nFin."
    [unit] = b.lists(b.blocks(text, pdf=True))
    assert unit.lead == "Pueden ser: \nlos siguientes:"
    assert text[unit.lead_end : unit.end].strip() == "a. Saldos del \nahorro.\n\nb. Saldos"


@pytest.mark.parametrize(
    ("head", "carried"),
    [
        ("Artículo 2. Entidades.\n\n", False),
        ("Artículo 2 > 1. Se consideran entidades sin fines lucrativos las siguientes:\n\n", True),
        ("Artículo 2 > … sin fines lucrativos las siguientes:\n\n", True),  # its end
        ("Artículo 2 > 1. Se consideran entidades sin …\n\n", False),  # its start alone
    ],
)
def test_a_continuation_carries_its_lead_in_or_a_shortened_form(head: str, carried: bool) -> None:
    [outer, _] = b.lists(b.blocks(LIST, pdf=False))
    assert b.carries(head, outer) is carried


TABLES = (
    "Texto.\n\n| Base | Tipo |\n|---|---|\n| 0 | 19 |\n| 12.450 | 24 |\n\n"
    "escala:\nBase para calcular\nTipo aplicable\n0,00 0,00 12.450,00 19,00\n"
    "12.450,00 2.365,50 7.750,00 24,00\n2.º La cuantía"
)


def test_pipe_and_numeric_tables_and_their_headers() -> None:
    [pipe] = b.pipe_tables(TABLES)
    assert pipe.lead == "| Base | Tipo |"
    assert TABLES[pipe.start : pipe.end].endswith("| 12.450 | 24 |")
    [numeric] = b.numeric_tables(TABLES)
    assert numeric.lead == "Base para calcular Tipo aplicable"
    assert TABLES[numeric.lead_end : numeric.end] == (
        "0,00 0,00 12.450,00 19,00\n12.450,00 2.365,50 7.750,00 24,00"
    )
    assert b.carries("Escala > Base para calcular Tipo …\n\n", numeric)  # its start
    assert not b.carries("Escala\n\n", numeric)
    row = TABLES.index("| 0 | 19 |")
    assert not b.inside_row(TABLES, row, [pipe])
    assert b.inside_row(TABLES, row + 4, [pipe])
    assert not b.inside_row(TABLES, TABLES.index("2.º La"), [pipe, numeric])


def test_a_web_table_without_header_rows_is_headed_by_its_first() -> None:
    text = "Posiciones | Naturaleza\n9-17 | Alfanumérico; 18 | Numérico\nFin"
    table = b.html_table(text, 0, text.index("\nFin"), 0)
    assert table.lead == "Posiciones | Naturaleza"
    assert not b.inside_row(text, text.index("18 |"), [table])  # an inner table's row
    assert b.inside_row(text, text.index("Alfa"), [table])
    assert b.row_start(text, text.index("18 |"), [table])
    assert b.row_end(text, text.index(" 18"), text[: text.index(" 18")], [table])


def test_a_cells_prose_is_read_as_prose_but_a_cells_period_is_no_row_start() -> None:
    text = (
        "Campo | Descripción\n"
        "Se consignará el porcentaje. El porcentaje se reducirá en un 60% en Ceuta.\n"
        "Provincia | CP; ALBACETE. | 02 | JAÉN. | 23; ALMERÍA. | 04\nFin"
    )
    table = b.html_table(text, 0, text.index("\nFin"), 0)
    assert not b.inside_row(text, text.index("El porcentaje"), [table])  # a cell's sentence
    assert b.inside_row(text, text.index("se reducirá"), [table])  # mid-sentence
    assert b.inside_row(text, text.index("| 02"), [table])  # at a cell separator
    assert b.inside_row(text, text.index("02 |"), [table])
    assert not b.inside_row(text, text.index("ALMERÍA"), [table])  # an inner row


def _numbers(text: str, budget: int, overlap: int) -> Reader:
    tokenization = WordTokenization()
    chunked = split_document(
        read_text_document(text, "markdown"),
        ChunkMetadata(doc_id="ley"),
        config=ChunkingConfig(budget, overlap),
        tokenization=tokenization,
    )
    return _reader(chunked, Path("ley.md"), tokenization, budget)


def test_the_numbers_of_a_chunked_list() -> None:
    reader = _numbers(LIST, 40, 0)
    assert reader.chunks > 2
    assert reader.inside_word == reader.inside_row == reader.bare_label_ends == 0
    assert 0 < reader.list_continuations <= reader.chunks
    assert reader.list_carried <= reader.list_continuations
    assert reader.clean_starts <= reader.chunks
    assert reader.clean_ends <= reader.chunks


def test_the_targets_pass_and_fail_on_their_numbers() -> None:
    good = Reader("all", 100, 0, 1, 4, 4, 2, 2, 0, 0, 97, 90)
    assert all(target.passes(good) for target in TARGETS)
    bad = Reader("all", 100, 1, 2, 4, 3, 2, 2, 1, 0, 96, 89)
    assert not any(target.passes(bad) for target in TARGETS)


LONG = (
    "Artículo 1. Objeto.\n\nLa entidad, una vez inscrita en el registro que corresponda, "
    "comunicará a la Administración, en el plazo de un mes, los datos del titular, del "
    "representante y de la cuenta, así como cualquier cambio posterior de los mismos. "
    "Otra frase corta.\n"
)


def test_the_sentence_around_a_position() -> None:
    start, end = b.sentence_around(LONG, LONG.index("comunicará"), pdf=False)
    assert LONG[start:end].strip().startswith("La entidad")
    assert LONG[start:end].endswith("de los mismos.")
    start, end = b.sentence_around(LONG, LONG.index("corta"), pdf=False)
    assert LONG[start:end].strip() == "Otra frase corta."
    pdf = "según el art. 5 del \nReglamento, que dice, sin más, lo que sigue. Fin."
    start, end = b.sentence_around(pdf, pdf.index("que dice"), pdf=True)  # a wrapped line
    assert pdf[start:end] == "según el art. 5 del \nReglamento, que dice, sin más, lo que sigue."


def test_after_a_clause_mark() -> None:
    assert b.after_clause("en el plazo de un mes, ")
    assert b.after_clause("lo siguiente: ")
    assert b.after_clause("del titular;")
    assert not b.after_clause("del titular ")
    assert not b.after_clause("Fin.")


def test_a_clause_cut_counts_as_clean_only_inside_a_sentence_too_long_for_the_chunk() -> None:
    """At 20 words the long sentence is cut at its commas: those cuts are forced, and
    clean; at 80 it fits whole and nothing is forced."""
    tight = _numbers(LONG, 20, 0)
    assert tight.forced_starts == tight.forced_ends == tight.chunks - 2  # all but 2 cuts
    assert tight.clean_starts == tight.clean_ends == tight.chunks
    roomy = _numbers(LONG, 80, 0)
    assert roomy.forced_starts == roomy.forced_ends == 0
