"""Lists and tables whose continuation chunks carry a lead (``structure.leads``)."""

# ruff: noqa: RUF001 - the BOE's prime letters and the PDF table's en dashes

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_asesoria import (
    ChunkingConfig,
    ChunkMetadata,
    IndivisibleCharacterError,
    LoadedPage,
    chunk_document,
    join_pages,
)
from langchain_asesoria.models import LeadSpan
from langchain_asesoria.structure.leads import detect_leads, label_style
from langchain_asesoria.testing import ByteTokenization, WordTokenization
from tests.strategies import PROFILE, examples, legal_list, spanish_text
from tests.test_properties import ChunkingCase, check_all
from tests.work import growth

VAT = """Artículo 20. Exenciones en operaciones interiores.

Uno. Estarán exentas de este impuesto las siguientes operaciones:

1.º Las entregas de bienes que se efectúen en el territorio.

22.º A) Las segundas y ulteriores entregas de edificaciones.

La exención no comprenderá:

a´) Los arrendamientos de terrenos para estacionamientos de vehículos.

b´) Los arrendamientos de maquinaria y otros bienes muebles.

23.º Los arrendamientos que tengan la consideración de servicios.

Dos. Las exenciones relativas a los números 20.º y 22.º anteriores.
"""

# The BOE IRPF regulation as pypdf extracts it: wrapped lines end with a space.
PDF = (
    "Artículo 85.  Cuota de retención.\n"
    "1. Para calcular la cuota de retención se practicarán, sucesivamente, las siguientes \n"
    "operaciones:\n"
    "1.º A la base para calcular el tipo de retención a que se refiere el artículo 83 de este \n"
    "Reglamento se le aplicarán los tipos que se indican en la siguiente escala:\n\n\n"
    "Base para calcular el \ntipo de retención\n–\nHasta euros\nCuota de retención\n–\nEuros\n"
    "Tipo aplicable\n–\nPorcentaje\n"
    "0,00 0,00 12.450,00 19,00\n"
    "12.450,00 2.365,50 7.750,00 24,00\n"
    "300.000,00 125.901,50 En adelante 47,00\n"
    "2.º La cuantía resultante se minorará en el importe derivado de aplicar al importe del \n"
    "mínimo personal y familiar.\n"
    "2. Otra cosa.\n"
)


def _spans(text: str) -> list[tuple[str, str, str]]:
    """(lead, first 12 characters, last 12 characters) of each span."""
    return [
        (s.lead, text[s.start : s.start + 12], text[s.end - 12 : s.end]) for s in detect_leads(text)
    ]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("1. Las personas", ("number", "1.")),
        ("2.º Los descendientes", ("ordinal", "2.º")),
        ("3.ª La tercera", ("ordinal", "3.ª")),
        ("1.° Que persigan", ("ordinal", "1.°")),
        ("a) A expresar", ("letter)", "a)")),
        ("b´) Los arrendamientos", ("letter´)", "b´)")),
        ("A) Las segundas", ("LETTER)", "A)")),
        ("Uno. Estarán exentos", ("word", "Uno.")),
        ("IV. Cuarto", ("roman", "IV.")),
        ("• El saldo", ("bullet", "•")),
        ("c. Los elementos", ("letter.", "c.")),
        ("1.500 euros", None),
        ("Artículo 5.", None),
        ("El art. 5", None),
        ("2.ºLos", None),
    ],
)
def test_label_styles(line: str, expected: tuple[str, str] | None) -> None:
    assert label_style(line) == expected


def test_nested_lists_of_a_vat_article() -> None:
    assert _spans(VAT) == [
        (
            "Uno. Estarán exentas de este impuesto las siguientes operaciones:",
            "1.º Las entr",
            "e servicios.",
        ),
        ("Uno. 22.º La exención no comprenderá:", "a´) Los arre", "nes muebles."),
    ]


def test_a_list_holds_the_paragraphs_between_its_items_and_ends_with_its_last_item() -> None:
    text = (
        "Son requisitos:\n\na) Uno.\n\nNo obstante, otra cosa.\n\nb) Dos.\n\n"
        "Lo dispuesto en este artículo.\n\nArtículo 6. Otro.\n\nc) Suelto."
    )
    (span,) = detect_leads(text)
    assert span.lead == "Son requisitos:"
    assert text[span.start : span.end] == "a) Uno.\n\nNo obstante, otra cosa.\n\nb) Dos."


def test_a_new_lead_in_of_the_same_level_ends_the_list() -> None:
    text = "Así:\n\n• Uno.\n\n• Dos.\n\nLa renta es:\n\n• Tres.\n\n• Cuatro."
    assert [(s.lead, text[s.start : s.end]) for s in detect_leads(text)] == [
        ("Así:", "• Uno.\n\n• Dos."),
        ("La renta es:", "• Tres.\n\n• Cuatro."),
    ]


def test_a_colon_without_items_leads_nothing() -> None:
    assert detect_leads("Dice así:\n\nEl texto sigue.\n\n1. Luego un número.") == []
    assert detect_leads("Son:\n\n1.500 euros al año.") == []


def test_a_pdf_list_and_its_table() -> None:
    spans = detect_leads(PDF)
    leads = [span.lead for span in spans]
    assert leads[0] == (
        "1. Para calcular la cuota de retención se practicarán, sucesivamente, las siguientes "
        "operaciones:"
    )
    header = (
        "Base para calcular el tipo de retención – Hasta euros Cuota de retención – Euros "
        "Tipo aplicable – Porcentaje"
    )
    # the table is in item 1.º: it leads with the list's lead-in, then its header
    (table,) = [span for span in spans if span.table]
    assert table.lead == f"{leads[0]}\n{header}"
    assert PDF[table.start :].startswith("0,00 0,00")
    assert PDF[: table.end].endswith("En adelante 47,00")
    # the list of 1.º and 2.º runs to "2. Otra cosa.", wrapped lines and table included
    listed = spans[0]
    assert PDF[listed.start :].startswith("1.º A la base")
    assert PDF[: listed.end].endswith("mínimo personal y familiar.")


def test_figures_without_a_header_above_lead_nothing() -> None:
    prose = "".join(f"Una línea de texto número {n} que sigue \n" for n in range(20))
    assert detect_leads(prose + "1,00 2,00\n3,00 4,00\n") == []


def test_tables_lead_with_their_header_row() -> None:
    markdown = "Texto.\n\n| Base | Tipo |\n|---|---:|\n| 0,00 | 19 |\n| 12.450,00 | 24 |\n\nFin."
    (span,) = detect_leads(markdown)
    assert span.lead == "Base | Tipo"
    assert markdown[span.start : span.end] == "| 0,00 | 19 |\n| 12.450,00 | 24 |"
    cells = (
        "Texto.\n\nPosiciones | Naturaleza | Descripción\n"
        "9-17 | Alfanumérico | NIF.\nSe consignará.\n\nFin."
    )
    (span,) = detect_leads(cells)
    assert span.lead == "Posiciones | Naturaleza | Descripción"
    assert cells[span.start : span.end] == "9-17 | Alfanumérico | NIF.\nSe consignará."


# Sección VIII of the CRS regulation (rd-1021-2015) as a web page reads: a lead-in
# paragraph without a label belongs to the item above it; roman "i)" items nest in "a)".
DEFINITIONS = """4. Por «entidad estatal» se entiende el Gobierno de un país.

Se entiende:

a) Por «parte integrante» cualquier persona u organismo.

b) Por «entidad controlada» una entidad aparte, siempre que:

i) La entidad esté controlada por entidades estatales.

ii) Los ingresos netos se abonen en su cuenta.

5. Por «fondo de pensiones» se entiende un fondo, a condición de que el fondo:

a) No tenga ningún beneficiario con más del 5 por ciento.

b) Esté sujeto a la normativa estatal.
"""


def test_a_lead_in_without_a_label_belongs_to_the_item_above_it() -> None:
    by_lead = {s.lead: s for s in detect_leads(DEFINITIONS)}
    listed = by_lead["Se entiende:"]
    assert "5. Por «fondo" not in DEFINITIONS[listed.start : listed.end]  # "5." ends it
    fund = next(lead for lead in by_lead if lead.endswith("a condición de que el fondo:"))
    assert DEFINITIONS[by_lead[fund].start :].startswith("a) No tenga")


def test_roman_items_nest_in_letters_and_i_after_h_is_a_letter() -> None:
    by_lead = {s.lead: s for s in detect_leads(DEFINITIONS)}
    inner = next(lead for lead in by_lead if lead.endswith("siempre que:"))
    assert DEFINITIONS[by_lead[inner].start : by_lead[inner].end] == (
        "i) La entidad esté controlada por entidades estatales.\n\n"
        "ii) Los ingresos netos se abonen en su cuenta."
    )
    letters = "".join(f"{letter}) Caso {letter}.\n" for letter in "abcdefghij")
    (span,) = detect_leads("Son:\n" + letters)
    assert span.end == len("Son:\n" + letters) - 1  # "i)" and "j)" are its items


def test_upper_case_letters_lead_a_list_and_c_after_b_is_a_letter() -> None:
    text = (
        "Los siguientes términos tendrán el significado que se indica:\n\n"
        "A. Institución financiera.\n\n1. Por «institución» se entiende una entidad.\n\n"
        "B. Institución no obligada.\n\nC. Cuenta financiera.\n"
    )
    outer = next(s for s in detect_leads(text) if s.lead.startswith("Los siguientes"))
    assert text[outer.start : outer.end].endswith("C. Cuenta financiera.")  # after "B."
    assert label_style("C. Cuenta") == ("roman", "C.")


def test_a_short_lead_in_keeps_the_sentence_before_it() -> None:
    text = (
        "6. Los planes de empleo instrumentan los compromisos por pensiones. En particular:\n"
        "a) La percepción de las prestaciones.\n"
        "b) La percepción de prestaciones por incapacidad.\n"
    )
    (span,) = detect_leads(text)
    assert span.lead == (
        "6. Los planes de empleo instrumentan los compromisos por pensiones. En particular:"
    )


def test_lists_and_tables_end_at_a_section_start() -> None:
    text = (
        "Podrán aportar la siguiente información:\n\na) Nombre.\n\nb) Dirección.\n\n"
        "Sección II. Requisitos generales\n\nA. Una cuenta.\n\nc) Otra letra.\n"
    )
    section = text.index("Sección II")
    (whole,) = detect_leads(text)
    assert text[whole.start : whole.end].endswith("c) Otra letra.")
    (cut,) = detect_leads(text, [section])
    assert text[cut.start : cut.end] == "a) Nombre.\n\nb) Dirección."
    assert detect_leads("Son:\n\na) Uno.\n", [len("Son:\n\n")]) == []  # items after a break


def test_a_list_in_a_tables_cell_leads_with_the_tables_header() -> None:
    cells = (
        "Texto.\n\nPosiciones | Naturaleza | Descripción de los campos\n"
        "78 | Numérico | Se consignará la naturaleza.\n"
        "Naturaleza asociada a la clave A:\n"
        "01. Rendimientos de acciones.\n02. Rendimientos de bonos.\n\nFin."
    )
    listed = next(s for s in detect_leads(cells) if not s.table)
    assert listed.lead == (
        "Posiciones | Naturaleza | Descripción de los campos\nNaturaleza asociada a la clave A:"
    )
    assert cells[listed.start :].startswith("01. Rendimientos")


def test_numbered_items_restart_inside_a_letter_of_a_numbered_item() -> None:
    """rd-1021-2015's "17. … cuentas siguientes:" holds "g) Las siguientes cuentas:",
    which holds "1." and "2.": a list of its own, ended by "18.", not by its "2."."""
    text = (
        "17. Por «cuenta excluida» se entiende cualquiera de las cuentas siguientes:\n\n"
        "a) Una cuenta de jubilación.\n\n"
        "g) Las siguientes cuentas:\n\n"
        "1. Los seguros colectivos.\n\n2. Una cuenta de patrimonios protegidos.\n\n"
        "18. Por «institución» se entiende otra cosa.\n"
    )
    by_lead = {s.lead: s for s in detect_leads(text)}
    inner = by_lead["17. g) Las siguientes cuentas:"]
    assert text[inner.start : inner.end] == (
        "1. Los seguros colectivos.\n\n2. Una cuenta de patrimonios protegidos."
    )
    # an item that does not open a sequence is a sibling of the enclosing one
    sibling = "3. Lo siguiente:\n\n4. Otro número.\n"
    assert detect_leads("Son:\n\n1. Uno.\n\n" + sibling)[0].lead == "Son:"


def test_bullets_hold_no_numbered_list_and_are_no_label_of_a_lead() -> None:
    """The AEAT manual's worked example: bullet items, then "Solución:" and "1.", whose
    "a." to "e." keep its lead-in though a bullet opens a line inside "b."."""
    text = (
        "Tiene pendientes las siguientes partidas:\n"
        "• Saldo de 2019: 600\n\n• Saldo de 2020: 2.100\n\n"
        "Efectuar la compensación.\nSolución:\n"
        "1. Integración en la base imponible general:\n"
        "a. Rendimientos del ejercicio:\nTrabajo: 50.000\n\n"
        "b. Ganancias y pérdidas:\nGanancias: 4.500\n• Saldo neto negativo: –5.100\n\n"
        "e. Total compensaciones = 5.700\n"
    )
    spans = detect_leads(text)
    bullets = next(s for s in spans if s.lead.startswith("Tiene"))
    assert text[bullets.start : bullets.end].endswith("2020: 2.100")
    letters = next(s for s in spans if s.lead.endswith("base imponible general:"))
    assert letters.lead == "1. Integración en la base imponible general:"
    assert text[letters.start : letters.end].endswith("e. Total compensaciones = 5.700")
    assert all("•" not in s.lead for s in spans)


def test_an_item_after_a_sentence_end_and_a_space_starts_its_line() -> None:
    """pypdf prints "… = 39.600f. " before "2. Integración …:": the line is no wrapped
    line of the one before, so it leads its list."""
    text = (
        "Base imponible general (45.300 – 5.700) = 39.600f. \n"
        "2. Integración y compensación en la base del ahorro:\n"
        "a. Ganancias del ejercicio.\n"
        "b. Compensación del saldo negativo.\n"
    )
    (span,) = detect_leads(text)
    assert span.lead == "2. Integración y compensación en la base del ahorro:"
    wrapped = "según el apartado \n2. de este artículo:\na) Uno.\n"  # no sentence end
    assert all(not s.lead.startswith("2.") for s in detect_leads(wrapped))


def test_a_pdf_table_of_rows_half_figures() -> None:
    """The BOE regulation's art. 110 table: rows such as "Entre 9.000,01 y 10.000 75"."""
    text = (
        "c) El importe que resulte del siguiente cuadro:\n"
        "Cuantía de los rendimientos netos\n–\nEuros\nImporte de la minoración\n–\nEuros\n"
        "Entre 9.000,01 y 10.000 75\nEntre 10.000,01 y 11.000 50\nEntre 11.000,01 y 12.000 25\n"
        "Cuando el importe sea superior a la cantidad resultante se deducirá.\n"
    )
    (table,) = [s for s in detect_leads(text) if s.table]
    header = "Cuantía de los rendimientos netos – Euros Importe de la minoración – Euros"
    assert table.lead == header
    assert text[table.start : table.end].endswith("12.000 25")


def test_a_list_in_a_table_in_a_list_leads_with_all_three() -> None:
    text = (
        "Se introducen las siguientes modificaciones en la Orden:\n\n"
        "Uno. Se modifica el campo.\n\n"
        "Posiciones | Naturaleza | Descripción de los campos\n"
        "93-94 | Numérico | Se consignará la naturaleza.\n"
        "Naturaleza asociada a la clave A:\n"
        "01. Primas por asistencia a juntas.\n02. Intereses.\n\n"
        "Dos. Se modifica otro campo.\n"
    )
    listed = next(s for s in detect_leads(text) if s.lead.endswith("clave A:"))
    assert listed.lead.split("\n") == [
        "Se introducen las siguientes modificaciones en la Orden:",
        "Posiciones | Naturaleza | Descripción de los campos",
        "Uno. Naturaleza asociada a la clave A:",
    ]


# -- the engine -------------------------------------------------------------------------


def _chunks(text: str, **options: object) -> list:  # type: ignore[type-arg]
    config = ChunkingConfig(**{"max_tokens": 160, "overlap_tokens": 0, **options})  # type: ignore[arg-type]
    return chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="iva"),
        config=config,
        tokenization=ByteTokenization(),
        detect_markdown_headings=True,
    )


def test_continuation_chunks_carry_the_lead_and_keep_their_text() -> None:
    text = "# Ley\n\n## " + VAT
    chunks = _chunks(text, context_share=0.5)
    tok = ByteTokenization()
    found = {span.lead: span for span in detect_leads(text)}
    inner = found["Uno. 22.º La exención no comprenderá:"]
    inside = [c for c in chunks if inner.start <= c.start < inner.end]
    assert inside, chunks
    for chunk in chunks:
        assert text[chunk.start : chunk.end] == chunk.text
        assert chunk.token_count == tok.count(chunk.embedding_text) <= 160
        context = chunk.embedding_text[: -len(chunk.text)]
        assert tok.count(tok.prepare("", context.strip())) <= tok.count(tok.prepare("")) + 80
    for chunk in inside:
        assert "La exención no comprenderá:" in chunk.embedding_text
        assert "La exención no comprenderá:" not in chunk.text
    outer = [c for c in chunks if c.text.startswith("23.º")]
    assert outer
    assert all("siguientes operaciones" in c.embedding_text for c in outer)


def test_leads_switched_off_and_in_the_explicit_modes() -> None:
    text = "# Ley\n\n## " + VAT
    for options in ({"carry_leads": False}, {"section_context": "path"}):
        for chunk in _chunks(text, context_share=0.5, **options):
            assert "comprenderá:" not in chunk.embedding_text[: -len(chunk.text)]


def _with_leads(text: str, config: ChunkingConfig, leads: list[LeadSpan]) -> list:  # type: ignore[type-arg]
    """The chunks of ``text`` with ``leads`` given, not detected (word-piece fake)."""
    return chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="x"),
        config=config,
        tokenization=WordTokenization(),
        leads=leads,
    )


def test_given_leads_replace_the_detected_ones() -> None:
    text = "Intro.\n\nSon:\n\na) Uno.\n\nb) Dos.\n\nc) Tres."
    at = text.index("b)")
    config = ChunkingConfig(max_tokens=8, overlap_tokens=0, context_share=0.9)
    chunks = _with_leads(text, config, [LeadSpan(at, len(text), "Dado")])
    starting = [c for c in chunks if c.start >= at]
    assert starting
    assert all(c.embedding_text.startswith("Dado") for c in starting)


def test_a_header_before_a_list_lead_in_keeps_its_first_columns() -> None:
    header = "Posiciones | Naturaleza | Descripción de los campos del registro de perceptor"
    lead = "En el campo se consignará una de las siguientes claves de la naturaleza:"
    text = "Intro.\n\nSon:\n\n" + " ".join(f"a{n}) Caso número {n}." for n in range(12))
    at = text.index("a3)")
    config = ChunkingConfig(max_tokens=80, overlap_tokens=0, context_share=0.45)
    chunks = _with_leads(text, config, [LeadSpan(at, len(text), f"{header}\n{lead}")])
    heads = [c.embedding_text[: -len(c.text)] for c in chunks if c.start >= at]
    assert heads
    for head in heads:  # shortened: the header's first words, the lead-in's last ones
        first, second = head.strip().split("\n")
        assert first.startswith("Posiciones | Naturaleza | Descripción")
        assert first != header
        assert second.endswith("claves de la naturaleza:")


# -- invariants with leads --------------------------------------------------------------


@st.composite
def _list_documents(draw: st.DrawFn) -> str:
    parts = draw(
        st.lists(st.one_of(legal_list(), spanish_text(max_paragraphs=2)), min_size=1, max_size=5)
    )
    return "\n\n".join(parts)


@pytest.mark.parametrize(
    "tokenization", [ByteTokenization(), WordTokenization()], ids=["bytes", "words"]
)
@settings(PROFILE, max_examples=examples(30), deadline=None)
@given(data=st.data())
def test_invariants_hold_with_leads(tokenization: ByteTokenization, data: st.DataObject) -> None:
    """Leads are counted, never truncated, keep the compact share and the budget."""
    text = data.draw(_list_documents(), label="text")
    if not text.strip():
        return
    max_tokens = data.draw(st.integers(64, 512), label="max_tokens")
    overlap = data.draw(st.sampled_from([0, max_tokens // 8]), label="overlap")
    share = data.draw(st.sampled_from([0.125, 0.25, 0.5]), label="share")
    config = ChunkingConfig(max_tokens=max_tokens, overlap_tokens=overlap, context_share=share)
    pages = [LoadedPage(text, 1)]
    metadata = ChunkMetadata(doc_id="listas")
    try:
        chunks = chunk_document(pages, metadata, config=config, tokenization=tokenization)
    except IndivisibleCharacterError:  # one emoji over a small budget: checked elsewhere
        return
    joined = join_pages(pages, config.page_separator).text
    case = ChunkingCase(pages, metadata, config, tokenization, None, joined)
    check_all(case, chunks)
    allowed = tokenization.count(tokenization.prepare("")) + int(max_tokens * share)
    spans = detect_leads(joined)
    for chunk in chunks:
        context = chunk.embedding_text[: len(chunk.embedding_text) - len(chunk.text)].rstrip()
        assert tokenization.count(tokenization.prepare("", context)) <= allowed, chunk
        holding = [s for s in spans if s.start <= chunk.start < s.end and chunk.start > 0]
        if holding and context:
            words = holding[-1].lead.split()  # its first words, or its last four
            assert words[0] in context or " ".join(words[-4:]) in context, (words, context)


# -- where chunks end ---------------------------------------------------------------------


def _word_chunks(text: str, max_tokens: int) -> list:  # type: ignore[type-arg]
    config = ChunkingConfig(max_tokens=max_tokens, overlap_tokens=0, carry_leads=False)
    return chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="x"),
        config=config,
        tokenization=WordTokenization(),
    )


def test_a_lead_in_starts_the_chunk_of_its_list_rather_than_ending_one() -> None:
    intro = " ".join(["uno"] * 30) + "."
    items = "\n\n".join(f"{label}) " + " ".join(["cosa"] * 12) + "." for label in "abc")
    text = f"{intro}\n\nSon requisitos:\n\n{items}"
    chunks = _word_chunks(text, 48)
    assert not any(c.text.endswith(":") for c in chunks), [c.text for c in chunks]
    assert any(c.text.startswith("Son requisitos:\n\na)") for c in chunks)


def test_a_chunk_ends_at_a_boundary_within_reach_rather_than_inside_a_sentence() -> None:
    first = " ".join(["uno"] * 36) + "."
    second = "Dos tres cuatro. " + " ".join(["cinco"] * 30) + "."
    chunks = _word_chunks(f"{first}\n\n{second}", 48)
    # the furthest fitting end is a space inside "cinco cinco…"; the sentence end just
    # before it is within an eighth of the room, so the chunk ends there
    assert chunks[0].text == f"{first}\n\nDos tres cuatro."
    # far from the budget too: a sentence end fits, so the chunk ends there and the
    # sentence longer than the room starts the next one (sentences before lines)
    long_first = " ".join(["uno"] * 8) + "."
    chunks = _word_chunks(f"{long_first}\n\nDos tres. " + " ".join(["cuatro"] * 60) + ".", 48)
    assert chunks[0].text == long_first + "\n\nDos tres."
    assert chunks[1].text.startswith("cuatro")


def _tables_in_lists(count: int) -> str:
    return "".join(f"\nH{n} | A | B\nr | 1 | 2\nSe indica:\n1. uno\n2. dos\n" for n in range(count))


def test_many_tables_and_lists_are_paired_in_one_sweep() -> None:
    """Pairing each table with the list that holds it by scanning every list took 14 s
    on 20 000 of each: one sweep over both does work in proportion to the text (counted
    in lines executed, not timed), and pairs them all."""
    assert growth(lambda count: detect_leads(_tables_in_lists(count)), 400) < 2.3
    assert len(detect_leads(_tables_in_lists(20000))) == 40000


@pytest.mark.parametrize("text", ["", " ", "\n\n", " \t\r\n\u2028 "])
def test_a_text_without_lines_has_no_leads(text: str) -> None:
    assert detect_leads(text) == []
