"""Orders, resolutions and circulars number their provisions "Primero.", "Segundo."
("Norma 1.ª", "Regla 4." in a circular) where a law has articles: in a text without
articles those apartados rank as articles (``legal_grammar.ordinal_apartado``), so its
disposiciones close its CAPÍTULOs (BOE-A-1989-29754, BOE-A-2000-3086) and the
resolution's "RESUELVO:" holds none of them. In a text with articles a "Primero." is no
unit."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria.reading import ReadOptions, read_text_document
from langchain_asesoria.structure.legal import applies, legal_paths
from langchain_asesoria.structure.legal_grammar import ordinal_apartado

ORDINALS = ["Primero", "Segundo", "Tercero", "Cuarto", "Quinto", "Sexto", "Séptimo"]
ORDINALS += ["Octavo", "Noveno", "Décimo", "Undécimo", "Duodécimo", "Decimotercero"]


@pytest.mark.parametrize(
    "title",
    [
        "Primero.",
        "Segundo. Sede.",
        "Decimocuarto. Información que se solicita.",
        "Único.",
        "Norma 1. Definiciones.",
        "Norma 2.ª Instrumentos que incorporan un derivado.",
        "Norma primera. Información sobre la estructura de capital",
        "Regla 4. Centros integrados en el Sistema.",
    ],
)
def test_an_ordinal_and_a_period_is_an_apartado(title: str) -> None:
    assert ordinal_apartado(title)


@pytest.mark.parametrize(
    "title",
    [
        "Primera.",
        "Primero de todo, el plazo",
        "Primeros auxilios",
        "Artículo primero.",
        "1.",
        "Normas generales",
        "Norma de calidad para el aceite",
        "Regla general",
    ],
)
def test_other_titles_are_not(title: str) -> None:
    assert not ordinal_apartado(title)


def _order(count: int, chapters: int) -> str:
    parts = ["# Orden de 10 de febrero de 2000\n\nPreámbulo.\n\n### DISPONGO:\n"]
    per_chapter = -(-count // chapters)
    for index, ordinal in enumerate(ORDINALS[:count]):
        if index % per_chapter == 0:
            parts.append(f"### CAPÍTULO {index // per_chapter + 1}. Materia\n")
        parts.append(f"##### {ordinal}. Objeto.\n\nTexto del apartado, con ñ y 5 €.\n")
    parts.append("##### Disposición adicional única. Medios.\n\nTexto.\n")
    parts.append("##### Disposición final única. Entrada en vigor.\n\nTexto.\n")
    return "\n".join(parts)


@given(st.integers(2, len(ORDINALS)), st.integers(1, 2))
def test_an_orders_disposiciones_close_its_chapters(count: int, chapters: int) -> None:
    text = _order(count, chapters)
    sections = read_text_document(text, "markdown").sections or ()
    paths = [s.section_path for s in sections]
    law = "Orden de 10 de febrero de 2000"
    assert paths[-2:] == [
        (law, "Disposición adicional única. Medios."),
        (law, "Disposición final única. Entrada en vigor."),
    ]
    apartados = [p for p in paths if p[-1].endswith("Objeto.")]
    assert len(apartados) == count
    assert all(p[0] == law and p[1].startswith("CAPÍTULO") and len(p) == 3 for p in apartados)
    assert not any("DISPONGO:" in p[:-1] for p in paths)


def test_with_legal_structure_off_the_marks_decide() -> None:
    text = _order(3, 1)
    off = read_text_document(text, "markdown", ReadOptions(legal_structure="off"))
    paths = [s.section_path for s in off.sections or ()]
    assert any(len(p) > 2 and p[-1].startswith("Disposición final") for p in paths)


def test_a_text_with_articles_has_no_apartados() -> None:
    titles = [
        "Ley 1/2000",
        "Artículo único. Modificación.",
        "Primero.",
        "Segundo.",
        "Disposición final única.",
    ]
    paths = legal_paths(titles, [1, 5, 6, 6, 5])
    assert paths[2] == ("Ley 1/2000", "Artículo único. Modificación.", "Primero.")
    assert paths[4] == ("Ley 1/2000", "Disposición final única.")


def test_a_resolution_of_apartados_is_read_as_a_law() -> None:
    titles = ["Resolución de 1 de marzo", "RESUELVO:", "Primero.", "Segundo.", "Tercero."]
    assert applies(titles)
    assert not applies(["Guía", "Primero.", "Notas", "Anexo de tablas", "Otros", "Más"])
    paths = legal_paths(titles, [1, 3, 5, 5, 5])
    assert paths[2:] == [("Resolución de 1 de marzo", t) for t in titles[2:]]


def test_a_circulars_normas_are_its_apartados() -> None:
    # As BOE-A-2009-21183: "##### Norma sexta." under "### CAPÍTULO IV", then its
    # disposiciones, which hung from CAPÍTULO IV.
    text = (
        "# Circular 1/2009\n\nTexto.\n\n### CAPÍTULO I. Capital\n\n##### Norma primera. Capital\n\n"
        "Texto.\n\n### CAPÍTULO IV. Otras normas\n\n##### Norma sexta. Presentación\n\nTexto.\n\n"
        "##### Disposición transitoria primera.\n\nTexto.\n\n"
        "##### Disposición final única.\n\nTexto.\n"
    )
    paths = [s.section_path for s in read_text_document(text, "markdown").sections or ()]
    assert paths[-3:] == [
        ("Circular 1/2009", "CAPÍTULO IV. Otras normas", "Norma sexta. Presentación"),
        ("Circular 1/2009", "Disposición transitoria primera."),
        ("Circular 1/2009", "Disposición final única."),
    ]
