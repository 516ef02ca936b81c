"""A formula, a table's unit line, an amount or a run of figures the source marks as a
heading ("### k = N / n", "### Miles de euros"), or a separator ("### ***"), is text in a
law and in any document read with legal structure (``legal_grammar.formula_line``,
``legal.formulas_as_text``); a legal unit never is one, and with ``legal_structure="off"``
the marked heading stays. On tables of titles, generated laws and a
real law (``laws/SOURCES.md``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria.reading import ReadOptions, read_document, read_text_document
from langchain_asesoria.structure.headings import Heading
from langchain_asesoria.structure.legal import formulas_as_text
from langchain_asesoria.structure.legal_grammar import formula_line

LAWS = Path(__file__).parent / "laws"

FORMULAS = [
    "k = N / n",
    "C = B.i. × T × Cc",  # noqa: RUF001 - the sign as the BOE writes it
    "Efm = [∑ a(RcO/RPm)] x Pi",
    "(Mt – Mo) (en valor absoluto) ≤ 0,70",  # noqa: RUF001
    "Miles de euros",
    "(Miles de pesetas)",
    "Euros.",
    "1.234,56 euros",
    "0,95",
    "37, 220, 404, ........ 412.359.",
    "***",
    "* * *",
    "—",
]
HEADINGS = [
    "Artículo 5. Tipo = 3 por ciento",
    "TÍTULO II. Régimen de los 1.000 euros",
    "Disposiciones generales",
    "Tarifa 1",
    "III",
    "1.",
    "1.2.3",
    "2024",
    "Anexo 1, 2 y 3",
    "Euros y pesetas en los contratos",
    # a law's title with a sign in an aside (BOE-A-2006-21509): prose, not a formula
    "Orden ITC/3750/2006, de 22 de noviembre, por la que se regula el control metrológico "
    "de los sistemas de medida para líquidos de baja viscosidad (≤ 20 mPa·s)",
]


@pytest.mark.parametrize("title", FORMULAS)
def test_formulas_and_figures_are_text(title: str) -> None:
    assert formula_line(title)
    assert formula_line(f"**{title}**")


@pytest.mark.parametrize("title", HEADINGS)
def test_units_and_titles_are_headings(title: str) -> None:
    assert not formula_line(title)


def test_the_heading_before_a_formula_has_a_body() -> None:
    headings = [
        Heading(0, 10, 5, "Artículo 3.", body_is_empty=True),
        Heading(12, 20, 3, "k = N / n", body_is_empty=False),
        Heading(30, 40, 5, "Artículo 4.", body_is_empty=False),
    ]
    kept = formulas_as_text(headings)
    assert [h.title for h in kept] == ["Artículo 3.", "Artículo 4."]
    assert not kept[0].body_is_empty


def _law(formula: str, marks: str) -> str:
    return (
        "# Real Decreto 1/2000\n\nTexto.\n\n## CAPÍTULO I. Sorteo\n\n##### Artículo 3. Cálculo.\n\n"
        f"El intervalo es:\n\n{marks} {formula}\n\nEn la cual:\n\n##### Artículo 4. Lista.\n\n"
        "Texto.\n\n##### Disposición final única. Vigor.\n\nTexto.\n"
    )


@given(st.sampled_from(FORMULAS), st.sampled_from(["#", "##", "###", "####", "#####"]))
def test_a_formula_in_a_law_is_its_articles_text(formula: str, marks: str) -> None:
    text = _law(formula, marks)
    sections = read_text_document(text, "markdown").sections or ()
    law, chapter = "Real Decreto 1/2000", "CAPÍTULO I. Sorteo"
    assert [s.section_path for s in sections][-3:] == [
        (law, chapter, "Artículo 3. Cálculo."),
        (law, chapter, "Artículo 4. Lista."),
        (law, "Disposición final única. Vigor."),
    ]
    article = sections[-3]
    assert formula in text[article.start : article.end]


@pytest.mark.parametrize("line", ["k = N / n", "Miles de euros", "***", "* * *"])
def test_outside_a_law_a_marked_formula_is_text_unless_legal_structure_is_off(line: str) -> None:
    # As a resolution without articles (BOE-A-2022-5269: "### Tt = (To / Mo) Mt,"), or a
    # separator heading (BOE-A-2020-9132: "### ***" above an agreement's articles).
    text = (
        f"# Notas\n\nTexto.\n\n### {line}\n\nEn la cual k es el intervalo.\n\n## Otra\n\nTexto.\n"
    )
    sections = read_text_document(text, "markdown").sections or ()
    assert [s.section_path for s in sections] == [("Notas",), ("Notas", "Otra")]
    assert line in text[sections[0].start : sections[0].end]
    off = read_text_document(text, "markdown", ReadOptions(legal_structure="off"))
    assert ("Notas", line) in [s.section_path for s in off.sections or ()]


def test_a_real_laws_formula_and_figures_are_article_3s_text() -> None:
    sections = read_document(LAWS / "BOE-A-1995-18778.md").sections or ()
    titles = [s.section_path[-1] for s in sections]
    assert titles[1:6] == [f"Artículo {n}." for n in range(1, 6)]
    # The law, then its unit; the signature's section ("Dado en…") has the law alone.
    assert all(len(s.section_path) == 2 or s.section_label is None for s in sections[1:])
    assert not any(formula_line(title) for s in sections for title in s.section_path)


def test_a_law_that_heads_its_articles_art_is_ranked() -> None:
    # As BOE-A-1991-30862: "##### Art. 49." under "### CAPÍTULO XI", then its disposiciones.
    text = (
        "# Real Decreto 1835/1991\n\nTexto.\n\n### CAPÍTULO XI. Del Registro\n\n"
        "##### Art. 48.\n\nTexto.\n\n##### Art. 49.\n\nTexto.\n\n"
        "##### Disposición adicional primera.\n\nTexto.\n"
    )
    paths = [s.section_path for s in read_text_document(text, "markdown").sections or ()]
    assert paths[-2:] == [
        ("Real Decreto 1835/1991", "CAPÍTULO XI. Del Registro", "Art. 49."),
        ("Real Decreto 1835/1991", "Disposición adicional primera."),
    ]
