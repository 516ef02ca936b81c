"""A unit's number and name as one heading (``legal.named_units``), and quoted amended
provisions as text of the article quoting them (``legal.law_headings``: never sections)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, examples

from langchain_asesoria.reading import read_text_document
from langchain_asesoria.structure.headings import Heading
from langchain_asesoria.structure.legal import named_units
from langchain_asesoria.structure.legal_grammar import name_limit, number_only, quoted


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
        ("ANEXO I", True),  # an ANEXO's name may follow it too (issue 49)
        ("ANEXO I. Tarifas", False),
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
@given(
    st.lists(st.tuples(st.integers(1, 99), st.lists(st.integers(100, 200), max_size=3))),
    st.sampled_from(["#####", "####", "###", ""]),
)
def test_quoted_provisions_are_text_of_the_article_quoting_them(
    articles: list[tuple[int, list[int]]], marks: str
) -> None:
    """A law's articles, each quoting the provisions it amends (marked as headings, at
    any level, or plain lines): every quoted one is text of its quoting article, never a
    section; every article of the law is a section under its TÍTULO."""
    law = "Ley 1/2024, de reforma"
    parts = [f"# {law}", "## TÍTULO I"]
    expected: list[tuple[str, ...]] = []
    for position, (_, quoted_numbers) in enumerate(articles, start=1):
        own = f"Artículo {position}. Modificación."
        parts += [f"##### {own}", "Se modifica la Ley 9/1999, que queda redactada así:"]
        for number in quoted_numbers:
            parts += [f"{marks} «Artículo {number}. Objeto.".strip(), "Texto del año 1999.»"]
        expected.append((law, "TÍTULO I", own))
    parts += ["##### Disposición final única. Entrada en vigor.", "Texto."]
    text = "\n\n".join(parts) + "\n"
    sections = read_text_document(text, "markdown").sections or ()
    paths = [span.section_path for span in sections if span.section_label != "TÍTULO I"]
    assert paths == [*expected, (law, "Disposición final única. Entrada en vigor.")]
    assert not any("«" in title for span in sections for title in span.section_path)
    for span, (_, quoted_numbers) in zip(sections, articles, strict=False):
        body = text[span.start : span.end]
        assert all(f"«Artículo {n}. Objeto." in body for n in quoted_numbers)


def test_a_quoted_heading_outside_any_article_is_text() -> None:
    text = (
        "# Ley 1/2024.\n\nPreámbulo con la cita:\n\n##### «Artículo 2. Objeto.\n\nTexto.»\n\n"
        "##### Disposición final única.\n\nVigor.\n"
    )
    sections = read_text_document(text, "markdown").sections or ()
    assert [span.section_path for span in sections] == [
        ("Ley 1/2024.",),
        ("Ley 1/2024.", "Disposición final única."),
    ]
    assert "«Artículo 2. Objeto." in text[sections[0].start : sections[0].end]


@pytest.mark.parametrize(
    ("unit", "name_length", "joined"),
    [
        ("ANEXO", 420, True),  # an annexed Acuerdo's whole title, on the line after it
        ("ANEXO II", 590, True),
        ("ANEXO", 640, False),  # longer than any annexed text's title: its text
    ],
)
def test_a_units_name_on_the_next_line_as_long_as_its_grammar_row_allows(
    unit: str, name_length: int, joined: bool
) -> None:
    """``UnitRow.named``: an ANEXO's name may be the title of the text it annexes
    ("Acuerdo del Consejo de Ministros de 12 de marzo de 2020, por el que se establecen
    medidas…", 330 characters), longer than a CAPÍTULO's; joined, the chunk of its name
    carries its first text (BOE-A-2020-3579)."""
    words = "Acuerdo del Consejo de Ministros de 12 de marzo de 2020, por el que se establecen"
    name = (words + " medidas" * name_length)[:name_length].rstrip()
    text = (
        f"# Orden 1/2020, de prueba.\n\nTexto de la orden.\n\n{unit}\n\n{name}\n\n"
        "En base a la evolución de la situación, el Consejo acuerda lo siguiente.\n"
    )
    sections = read_text_document(text, "markdown").sections or ()
    last = sections[-1].section_path[-1]
    assert (last == f"{unit}. {name}") is joined
    assert last.startswith(unit)


def test_the_longest_name_of_each_unit_is_a_row_of_the_grammar() -> None:
    assert name_limit("CAPÍTULO II") == name_limit("Sección 1.ª") == 300
    assert name_limit("ANEXO II") == 600
    assert name_limit("Artículo 1.") == name_limit("Texto") == 0


@pytest.mark.parametrize(
    "first",
    [
        # a lead-in whose table the text does not hold (BOE-A-2025-26458)
        "Durante 2026 las cuantías mínimas de las pensiones quedan fijadas, en cómputo "
        "anual, en los importes siguientes:",
        # a sentence a paragraph long (BOE-A-1985-26584)
        "Para la retribución de los capellanes de los centros hospitalarios públicos "
        "encargados de prestar la asistencia religiosa católica, se fija por parte de la "
        "Administración Pública la cantidad de 1.190.000 pesetas anuales, distribuidas en "
        "catorce pagas.",
    ],
)
def test_an_anexos_only_text_right_before_the_next_anexo_is_its_text(first: str) -> None:
    """ "ANEXO II", then a lead-in or a long sentence, then "ANEXO III": that line is
    ANEXO II's text, cited under it, not its name lending it to ANEXO III."""
    text = (
        f"# Ley 1/2025, de prueba.\n\nArtículo 1. Objeto.\n\nTexto.\n\nANEXO I\n\nTarifas\n\n"
        f"Texto del anexo.\n\nANEXO II\n\n{first}\n\nANEXO III\n\nRégimen de Clases Pasivas\n\n"
        "Texto del tercero.\n"
    )
    sections = read_text_document(text, "markdown").sections or ()
    holding = next(s for s in sections if s.start <= text.index(first) < s.end)
    assert holding.section_path[-1] == "ANEXO II"
    assert sections[-1].section_path[-1] == "ANEXO III. Régimen de Clases Pasivas"
