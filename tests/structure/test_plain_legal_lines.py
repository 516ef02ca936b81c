"""Plain legal lines of a Markdown law (``structure.legal.law_headings``, the grammar's
``heading_line``): an ANEXO, a Subsección, a TÍTULO, "Primera." inside a disposiciones
group, an ordinal article or an approved text's title written as a paragraph of its own
are structure; a sentence that opens with a unit, or a line inside «quoted» amended text,
is not. On tables of lines, generated laws and four real laws (``laws/SOURCES.md``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria.reading import read_document, read_text_document
from langchain_asesoria.structure.legal import applies, candidate_line, legal_paths, legal_unit
from langchain_asesoria.structure.legal_grammar import (
    approved_text,
    disposicion_kind,
    heading_line,
    ordinal_disposicion,
    quoted,
)

LAWS = Path(__file__).parent / "laws"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("ANEXO", True),
        ("ANEXO I. Normas de diligencia debida", True),
        ("Anexo II", True),
        ("Subsección 1.ª Disposiciones generales", True),
        ("SECCIÓN 2.ª DE LOS RECURSOS", True),
        ("TÍTULO V", True),
        ("CAPÍTULO PRIMERO. Objeto", True),
        ("Artículo primero. Modificación de la Ley 35/2006.", True),
        ("Artículo decimotercero. Salvaguarda.", True),
        ("Artículo diez. Indemnización.", True),
        ("Artículo treinta y dos.", True),
        ("Artículo 5. Exenciones.", True),
        ("DISPOSICIONES TRANSITORIAS", True),
        ("DISPOSICIÓN DEROGATORIA", True),
        ("Disposición final tercera. Entrada en vigor.", True),
        ("Artículo 5 de esta Ley establece que el plazo es de un mes.", False),
        ("Título I de la Ley 58/2003", False),
        ("Sección II de la ley", False),
        ("El anexo I recoge las tarifas.", False),
        ("ANEXO I del Reglamento, que queda redactado así:", False),
        # A heading of any length is a heading when its shape says so (issue 49).
        ("Artículo 5. Objeto" + " y ámbito de aplicación" * 20 + ".", True),
        # An instrucción técnica by its code; a norm cited, or a list's item, is none.
        ("INSTRUCCIÓN IF-01", True),
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA NÚMERO 12", True),
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA MI-IP 01 «REFINERIAS»", True),
        ("Instrucción técnica complementaria MIE-APQ 1 «Almacenamiento de cloro»", True),
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA (ITC) BT-52", True),
        ("ITC-BT-01", True),  # its abbreviation, alone: the REBT's
        ("ITC 04.1.03", True),
        ("ITC-MIG-6.1 Acometidas de gas en alta presión.", False),  # an item of a list
        ("ITC APQ-1, de capacidad mayor a 200 m3.", False),
        ("Instrucción 3/2005, de 7 de abril, de la Junta Electoral Central.", False),
        ("Instrucción de la Dirección General de los Registros y del Notariado.", False),
        ("Instrucción MIG-R.7.1. Estaciones de regulación y/o medida.", False),
        ("Instrucción técnica complementaria número 3 de este Reglamento establece…", False),
    ],
)
def test_heading_line(line: str, expected: bool) -> None:
    assert (heading_line(line) is not None) is expected
    assert candidate_line(line) is expected


@pytest.mark.parametrize(
    ("title", "ordinal"), [("Primera.", True), ("Segunda. Entrada en vigor.", True),
                           ("Única.", True), ("Primera vez que se aplica", False),
                           ("Primero.", False)],
)  # fmt: skip
def test_ordinal_disposicion(title: str, ordinal: bool) -> None:
    assert ordinal_disposicion(title) is ordinal


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("TEXTO REFUNDIDO DE LA LEY DEL IMPUESTO SOBRE TRANSMISIONES PATRIMONIALES", True),
        ("REGLAMENTO DEL IMPUESTO SOBRE LA RENTA DE LAS PERSONAS FÍSICAS", True),
        ("**REGLAMENTO DE MONTES VECINALES EN MANO COMÚN**", True),
        ("Reglamento del Impuesto, que se inserta a continuación", False),
        ("MANUEL GUTIÉRREZ MELLADO", False),
    ],
)
def test_approved_text(line: str, expected: bool) -> None:
    assert approved_text(line) is expected


def test_disposicion_kind_and_quoted() -> None:
    assert disposicion_kind("DISPOSICIONES TRANSITORIAS") == "transitoria"
    assert disposicion_kind("Disposición derogatoria única.") == "derogatoria"
    assert disposicion_kind("TÍTULO I") is None
    assert quoted("«TÍTULO III. Mercado primario de valores")
    assert quoted("*«Sección 1.ª La planificación*")
    assert not quoted("TÍTULO III")


def test_an_ordinal_article_is_an_article() -> None:
    unit = legal_unit("Artículo segundo. Objeto.")
    assert unit is not None
    assert unit.name == "artículo"


def test_a_disposicion_of_another_kind_closes_the_group() -> None:
    titles = ["Ley 1/2000", "DISPOSICIONES TRANSITORIAS", "Primera.", "Segunda."]
    titles += ["DISPOSICIÓN DEROGATORIA", "DISPOSICIÓN FINAL"]
    paths = legal_paths(titles, [1, 3, 4, 4, 3, 3], [False, True, False, False, False, False])
    assert paths[3] == ("Ley 1/2000", "DISPOSICIONES TRANSITORIAS", "Segunda.")
    assert paths[4] == ("Ley 1/2000", "DISPOSICIÓN DEROGATORIA")
    assert paths[5] == ("Ley 1/2000", "DISPOSICIÓN FINAL")


_ORDINALS = ("primero", "segundo", "tercero", "cuarto", "quinto", "sexto")
_GROUP_ORDINALS = ("Primera", "Segunda", "Tercera")
#: Sentences that open with a unit and are text: never a section.
_SENTENCES = (
    "Artículo 5 de esta Ley establece que el plazo es de un mes.",
    "TÍTULO I de la Ley 58/2003, al que se refiere el apartado anterior.",
    "ANEXO I del Reglamento, en la redacción dada por el Real Decreto 1/2020.",
)


_Case = tuple[str, list[tuple[str, ...]]]


@st.composite
def _plain_laws(draw: st.DrawFn) -> _Case:
    """A decree in Markdown whose structure is partly plain lines, and the path of every
    article and disposición: its own articles, then (maybe) an approved text's title and
    its TÍTULOs of articles, disposiciones under a plain group, an ANEXO."""
    law = "Real Decreto 9/2009, de prueba"
    lines = [f"# {law}", "", "### DISPONGO:", ""]
    paths: list[tuple[str, ...]] = []

    def body() -> None:
        lines.extend(["Texto.", ""])
        if draw(st.booleans()):
            lines.extend([draw(st.sampled_from(_SENTENCES)), ""])

    def heading(title: str, marked: bool, level: int = 5) -> None:
        lines.extend([f"{'#' * level} {title}" if marked else title, ""])

    ordinal = draw(st.booleans())
    for number in range(1, draw(st.integers(1, 3)) + 1):
        own = f"Artículo {_ORDINALS[number - 1] if ordinal else number}. Objeto."
        heading(own, draw(st.booleans()))
        body()
        paths.append((law, own))
    document: tuple[str, ...] = (law,)
    if draw(st.booleans()):
        approved = "REGLAMENTO DE PRUEBA DE LAS NORMAS"
        heading(approved, False)
        document = (law, approved)
    article = 1
    for number in ("I", "II", "III")[: draw(st.integers(1, 3))]:
        titulo = f"TÍTULO {number}"
        heading(titulo, draw(st.booleans()), 2)
        titled = (*document, titulo)
        if draw(st.booleans()):
            subseccion = f"Subsección {number.count('I')}.ª De la prueba"
            heading(subseccion, False)
            titled = (*titled, subseccion)
        for _ in range(draw(st.integers(1, 2))):
            own = f"Artículo {article}. Objeto."
            heading(own, draw(st.booleans()))
            body()
            paths.append((*titled, own))
            article += 1
    group = "DISPOSICIONES TRANSITORIAS"
    heading(group, draw(st.booleans()), 3)
    for ordinal_title in _GROUP_ORDINALS[: draw(st.integers(1, 3))]:
        own = f"{ordinal_title}. Régimen."
        heading(own, False)
        body()
        paths.append((*document, group, own))
    final = "DISPOSICIÓN FINAL"
    heading(final, draw(st.booleans()), 3)
    body()
    paths.append((*document, final))
    if draw(st.booleans()):
        lines.extend(["ANEXO", "", "Tabla de valores", "", "Valores en euros: 1.000 €.", ""])
    return "\n".join(lines), paths


@given(_plain_laws())
def test_every_unit_of_a_generated_law_has_its_path(case: _Case) -> None:
    law, expected = case
    sections = read_text_document(law, "markdown").sections or ()
    labels = {path[-1] for path in expected}
    found = [span.section_path for span in sections if span.section_label in labels]
    assert found == expected
    titles = {title for span in sections for title in span.section_path}
    assert not titles & set(_SENTENCES)  # a sentence is never a section
    if "\nANEXO\n" in law:  # its name on the next line joins it (issue 49)
        assert sections[-1].section_path == (*expected[-1][:-1], "ANEXO. Tabla de valores")


@given(st.sampled_from(_SENTENCES), st.sampled_from(["ANEXO", "TÍTULO II", "Artículo 3. Fin."]))
def test_a_line_inside_quoted_amended_text_is_text(sentence: str, line: str) -> None:
    law = "\n\n".join(
        [
            "# Ley 2/2020, de prueba",
            "##### Artículo 1. Modificación de la Ley 1/2000.",
            "Se modifica la Ley 1/2000, que queda redactada así:",
            f"«{sentence}",
            line,
            "Texto modificado.»",
            "##### Artículo 2. Entrada en vigor.",
            "Texto.",
        ]
    )
    sections = read_text_document(law, "markdown").sections or ()
    assert [span.section_label for span in sections] == [
        "Artículo 1. Modificación de la Ley 1/2000.",
        "Artículo 2. Entrada en vigor.",
    ]


@pytest.mark.parametrize(
    ("law", "label", "path"),
    [
        ("BOE-A-1977-20499.md", "ANEXO. Características y modelo del distintivo de la Casa "
         "de Su Majestad el Rey", ("Real Decreto 2157/1977", "ANEXO. Características y modelo "
         "del distintivo de la Casa de Su Majestad el Rey")),
        ("BOE-A-1977-20499.md", "Artículo segundo.", ("Real Decreto 2157/1977",
                                                      "Artículo segundo.")),
        ("BOE-A-1979-696.md", "Segunda.", ("Ley 73/1978", "DISPOSICIONES ADICIONALES",
                                           "Segunda.")),
        ("BOE-A-1979-696.md", "DISPOSICIÓN FINAL", ("Ley 73/1978", "DISPOSICIÓN FINAL")),
        ("BOE-A-1982-8961.md", "Artículo único.", ("Real Decreto 711/1982", "Artículo único.")),
        ("BOE-A-1982-8961.md", "Artículo décimo. Ingreso.", (
            "Real Decreto 711/1982", "REGLAMENTO DE LA MEDALLA AL MÉRITO EN EL TRABAJO",
            "Artículo décimo. Ingreso.")),
        ("BOE-A-1984-681.md", "DISPOSICIÓN FINAL", ("Ley 1/1984", "DISPOSICIÓN FINAL")),
        ("BOE-A-1977-1909.md", "Artículo segundo.", ("Real Decreto 54/1977",
                                                     "Artículo segundo.")),
        ("BOE-A-2018-2692.md", "Artículo único. Requisitos para la consideración como "
         "subproductos de los residuos de producción procedentes de la industria "
         "agroalimentaria.", ("Orden APM/189/2018", "Artículo único. Requisitos para la "
         "consideración como subproductos de los residuos de producción procedentes de la "
         "industria agroalimentaria.")),
    ],
)  # fmt: skip
def test_real_laws(law: str, label: str, path: tuple[str, ...]) -> None:
    sections = read_document(LAWS / law).sections or ()
    found = [span.section_path for span in sections if span.section_label == label]
    assert len(found) == 1
    root, *rest = found[0]
    assert root.startswith(path[0] + ",")  # the law's full title
    assert tuple(rest) == path[1:]


def test_a_law_is_judged_by_its_provisions_however_long_its_annex() -> None:
    """A decree of two articles and a long annex of its own headings is a law; so is a
    resolution that is only its ANEXO. No count of units decides (issue 49)."""
    titles = ["Real Decreto 1/2000", "DISPONGO:", "Artículo 1.", "Artículo 2.", "ANEXO"]
    assert applies(titles + [f"Tabla {n}" for n in range(20)])
    assert applies(["Resolución de 3 de marzo", "ANEXO", *["Tabla"] * 20])
    assert not applies(["Guía", "Introducción", "Contexto", "Anexo de tablas", "Tabla"])


def test_a_bare_division_before_articles_closes_at_a_higher_unit() -> None:
    """The Ley de 16 de diciembre de 1954: "Disposición general" holds the articles
    after it, and its TÍTULO's CAPÍTULO I closes it; a table's title at a CAPÍTULO's level
    is its sibling; "REGLAMENTO…" before TÍTULO I holds every TÍTULO."""
    titles = ["Ley", "TÍTULO V", "Disposición general", "Artículo 79.", "CAPÍTULO I"]
    titles += ["Artículo 82.", "CUADRO DE PORCENTAJES", "CAPÍTULO II", "Artículo 90."]
    hints = [1, 2, 4, 5, 3, 5, 3, 3, 5]
    bare = [False, True, True, False, True, False, True, True, False]
    paths = legal_paths(titles, hints, bare)
    assert paths[3] == ("Ley", "TÍTULO V", "Disposición general", "Artículo 79.")
    assert paths[5] == ("Ley", "TÍTULO V", "CAPÍTULO I", "Artículo 82.")
    assert paths[8] == ("Ley", "TÍTULO V", "CAPÍTULO II", "Artículo 90.")
    reglamento = ["Real Decreto", "Artículo único.", "REGLAMENTO DEL IMPUESTO", "TÍTULO I"]
    reglamento += ["Artículo 1.", "TÍTULO II", "Artículo 2."]
    paths = legal_paths(reglamento, [1, 6, 3, 2, 6, 2, 6], [False, False, True, True] + [False] * 3)
    assert paths[-1] == ("Real Decreto", "REGLAMENTO DEL IMPUESTO", "TÍTULO II", "Artículo 2.")


def test_inside_an_anexo_a_bare_division_closes_at_a_higher_unit_of_the_anexo() -> None:
    """A CNMV resolution's annexed rules (BOE-A-2019-18622): "Objeto y funciones" at a
    CAPÍTULO's level, met in an article's text right before the next article, is a caption
    of that text: it holds no article, and the next CAPÍTULO closes its CAPÍTULO. A
    container opened before the ANEXO (the approved "REGLAMENTO…",
    BOE-A-2001-8971) still holds the ANEXO and what it holds, and an annexed instruction
    the CAPÍTULO marked under it."""
    titles = ["Resolución", "Artículo único.", "ANEXO. Reglamento", "CAPÍTULO I. Generales"]
    titles += ["Artículo 1.", "Objeto y funciones", "Artículo 3.", "CAPÍTULO II. Órganos"]
    titles += ["Sección 1.ª Órganos", "Artículo 5."]
    hints = [1, 6, 2, 3, 6, 3, 6, 3, 4, 6]
    bare = [False, False, True, True, False, True, False, True, True, False]
    paths = legal_paths(titles, hints, bare)
    assert paths[6] == ("Resolución", "ANEXO. Reglamento", "CAPÍTULO I. Generales", "Artículo 3.")
    assert paths[-1] == (
        "Resolución",
        "ANEXO. Reglamento",
        "CAPÍTULO II. Órganos",
        "Sección 1.ª Órganos",
        "Artículo 5.",
    )
    decree = ["Real Decreto", "DISPONGO:", "Artículo único.", "REGLAMENTO DE X", "Artículo 1."]
    decree += ["ANEXO I", "Instrucción técnica MIE-APQ 1", "Sección 1.ª Generalidades"]
    decree += ["Artículo 1. Objeto.", "Sección 2.ª Recipientes", "CAPÍTULO I. Condiciones"]
    decree += ["Artículo 8. Tipos."]
    hints = [1, 3, 5, 2, 5, 2, 2, 4, 5, 4, 3, 5]
    bare = [False, True, False, True, False, True, True, True, False, True, True, False]
    paths = legal_paths(decree, hints, bare)
    assert paths[8] == (
        "Real Decreto",
        "REGLAMENTO DE X",
        "ANEXO I",
        "Instrucción técnica MIE-APQ 1",
        "Sección 1.ª Generalidades",
        "Artículo 1. Objeto.",
    )
    # the instruction's CAPÍTULO, marked under it, stays in it
    assert paths[-1][:4] == ("Real Decreto", "REGLAMENTO DE X", "ANEXO I", decree[6])


def test_a_plain_text_law_numbered_in_words_gets_its_articles() -> None:
    """A text law whose articles are "Artículo primero.", "Artículo segundo.": each is a
    section; "Artículo 5 de esta Ley establece que…" alone in its paragraph is text."""
    sentence = "Artículo 5 de esta Ley establece que el plazo es de un mes."
    lines = ["Ley 1/1980, de prueba", "Artículo primero.", "Texto uno.", "Artículo segundo."]
    lines += ["Texto dos.", "Artículo tercero.", sentence, "Artículo 4", "Texto."]
    text = "\n\n".join([*lines, "DISPOSICIÓN FINAL", "Vigor."])
    sections = read_text_document(text, "text").sections or ()
    assert [span.section_label for span in sections] == [
        "Artículo primero.",
        "Artículo segundo.",
        "Artículo tercero.",
        "Artículo 4",
        "DISPOSICIÓN FINAL",
    ]
