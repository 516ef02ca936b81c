"""The grammar of Spanish legal form (``structure.legal_grammar``), and the rule that the
promulgation and a preamble's numerals are never the parent of a law's units, on tables
of titles and on generated laws."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria.reading import read_text_document
from langchain_asesoria.structure.legal import legal_paths
from langchain_asesoria.structure.legal_grammar import (
    LEGAL_HEADINGS,
    capitals,
    disposicion_kind,
    heading_line,
    label_of,
    legal_unit,
    note_line,
    number_only,
    numeral_title,
    parte_heading,
    promulgation,
    rubric_line,
)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("DISPONGO:", "enacting"),
        ("D I S P O N G O :", "enacting"),
        ("D I S P O N G O:", "enacting"),
        ("DISPONGO", "enacting"),
        ("Dispongo:", "enacting"),
        ("Vengo en sancionar la siguiente Ley:", "enacting"),
        ("JUAN CARLOS I", "royal"),
        ("REY DE ESPAÑA", "royal"),
        ("REY DE ESPAÑA,", "royal"),
        ("DON JUAN CARLOS I, REY DE ESPAÑA", "royal"),
        ("FELIPE VI REY DE ESPAÑA", "royal"),
        ("FELIPE VI", "royal"),
        ("FRANCISCO FRANCO BAHAMONDE,", "royal"),
        ("JEFE DEL ESTADO ESPAÑOL,", "royal"),
        ("GENERALÍSIMO DE LOS EJÉRCITOS NACIONALES", "royal"),
        ("JEFE DEL ESTADO ESPAÑOL,GENERALÍSIMO DE LOS EJÉRCITOS NACIONALES", "royal"),
        ("Jefe del Estado Mayor de la Defensa", None),
        ("Francisco Franco, Jefe del Estado, dispuso", None),
        (",", None),
        ("", None),
        ("Disposiciones generales", None),
        ("TÍTULO I", None),
        ("Se dispone que el plazo sea de un mes", None),
        ("Reyes de Castilla", None),
    ],
)
def test_promulgation(title: str, expected: str | None) -> None:
    assert promulgation(title) == expected


@pytest.mark.parametrize(
    ("title", "expected"),
    [("III", True), ("5", True), ("IV.", True), ("12", True), ("Artículo 5", False), ("", False)],
)
def test_numeral_title(title: str, expected: bool) -> None:
    assert numeral_title(title) is expected


def test_every_furniture_heading_is_a_unit_of_the_grammar() -> None:
    for line in ("Artículo 5", "TÍTULO II", "CAPÍTULO III", "Disposición adicional primera"):
        assert any(p.match(line) for p in LEGAL_HEADINGS)
        assert legal_unit(line) is not None


@pytest.mark.parametrize(
    ("title", "name"),
    [
        # a Markdown law's emphasis marks, wherever they fall (legalize-es)
        ("*Sección 1.ª Promoción en mercados de terceros países*", "sección"),
        ("Sección *1.ª*. De las funciones de la Mesa", "sección"),
        ("*Sección 1.*ª Requisitos para obtener la capacitación", "sección"),
        ("*Sección 3.ª* Cursos de forma*ción*", "sección"),
        ("*Subsección 2.ª Participación en el fondo*", "subsección"),
        ("CAPÍTULO **I**. Créditos iniciales", "capítulo"),
        ("*CAPÍTULO PRELIMINAR*", "capítulo"),
        ("**TITULO VI**", "título"),
        ("_ANEXO I_", "anexo"),
        # a Sección lettered as old regulations letter them
        ("Sección B) Operaciones al contado", "sección"),
        ("Sección A. «Aplicación de la legislación suiza»", "sección"),
        # misspelt in the BOE's own text
        ("Capítuo IV bis. Régimen especial del oro de inversión", "capítulo"),
        ("CÁPITULO III. Conferencia Sectorial de Tráfico", "capítulo"),
        ("Diposición transitoria segunda. Demarcaciones.", "disposición"),
        ("Disposión transitoria primera. Comisión Gestora.", "disposición"),
    ],
)
def test_marked_lettered_and_misspelt_units_are_units(title: str, name: str) -> None:
    unit = legal_unit(title)
    assert unit is not None
    assert unit.name == name


@pytest.mark.parametrize(
    ("title", "number"),
    [
        ("ANEXO IIA", "IIA"),
        ("ANEXO 1A", "1A"),
        ("ANEXO IV.a", "IV.a"),
        ("ANEXO III-A", "III-A"),
        ("ANEXO I.A", "I.A"),
        ("ANEXO 3.1", "3.1"),
        ("ANEXO VI.1", "VI.1"),
        ("ANEXO 1 a)", "1 a)"),
        ("ANEXO II A", "II A"),
        ("ANEXO NÚMERO 2", "NÚMERO 2"),
        ("ANEXO I.II", "I.II"),  # BOE-A-2003-15799
        ("ANEXO II.B.6", "II.B.6"),  # BOE-A-2021-15860
    ],
)
def test_an_annexs_number_and_part_are_its_number(title: str, number: str) -> None:
    """``NUMBERINGS["annex part"]``: the label is the number alone, so the name on the
    next line joins it (``number_only``)."""
    label = label_of(title)
    assert label is not None
    assert label.number == number
    assert number_only(title)
    assert not number_only(f"{title}. Modelo de solicitud")


@pytest.mark.parametrize(
    ("title", "number"),
    [
        ("INSTRUCCIÓN IF-01", "IF-01"),
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA NÚMERO 1", "NÚMERO 1"),
        ("Instrucción técnica complementaria número 19", "número 19"),
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA EA - 01", "EA - 01"),
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA ITC EP–3", "ITC EP–3"),  # noqa: RUF001
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA ITC-MIG-5.1", "ITC-MIG-5.1"),
        ("INSTRUCCION MIG-R.5.1.1", "MIG-R.5.1.1"),
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA 12.0.01", "12.0.01"),
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA ITC 12.0.02", "ITC 12.0.02"),
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA (ITC) BT-52", "BT-52"),
        ("Instrucción Técnica Complementaria ITC-LAT 01", "ITC-LAT 01"),
        ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA MI-IP02", "MI-IP02"),
    ],
)
def test_an_instruccion_tecnica_is_a_unit_by_its_code(title: str, number: str) -> None:
    """``NUMBERINGS["instruction code"]``: the code is the number; the name on the next
    line joins it, and the joined title is the unit's still."""
    label = label_of(title)
    assert label is not None
    assert (label.unit.name, label.unit.part, label.number) == (
        "instrucción técnica",
        "anexo",
        number,
    )
    assert number_only(title)
    assert heading_line(title) is not None
    joined = legal_unit(f"{title}. Características y medidas de seguridad.")
    assert joined is not None
    assert joined.name == "instrucción técnica"
    assert not number_only(f"{title}. TERMINOLOGÍA")


@pytest.mark.parametrize(
    "title",
    [
        "Instrucción 3/2005, de 7 de abril, de la Junta Electoral Central, sobre…",
        "Instrucción de 12 de marzo de 2020, de la Dirección General de los Registros",
        "Instrucción IS/21, de 28 de enero de 2009, del Consejo de Seguridad Nuclear",
        "Instrucción MIG-R.7.1. Estaciones de regulación",  # an item of a list
        "INSTRUCCIÓN DE CONTABILIDAD PARA LA ADMINISTRACIÓN GENERAL DEL ESTADO",
        "INSTRUCCIÓN TÉCNICA DE SEGURIDAD DE NOTIFICACIÓN DE INCIDENTES",
        "INSTRUCCIÓN SOBRE LA NORMA 2 DEL REGLAMENTO",
        "INSTRUCCIÓN DE LA DGT 15/2003",
        "INSTRUCCIÓN 1/2010",
        "INSTRUCCIÓN",  # an instrucción's enacting word, before its "Primero."
        "Instrucción y adiestramiento II: 2 semanas.",
    ],
)
def test_a_norm_cited_or_a_title_is_no_instruccion_tecnica(title: str) -> None:
    assert label_of(title) is None


def test_an_instruccion_tecnica_closes_the_laws_units_and_holds_its_own() -> None:
    titles = ["Real Decreto 1/2019", "REGLAMENTO DE SEGURIDAD", "Artículo 1. Objeto.",
              "ANEXO I", "INSTRUCCIÓN IF-01. TERMINOLOGÍA", "ÍNDICE", "CAPÍTULO I",
              "Artículo 1. Objeto.", "ANEXO I", "Tabla A", "INSTRUCCIÓN IF-02",
              "Disposición adicional primera."]  # fmt: skip
    paths = legal_paths(titles, [1, 2, 5, 2, 2, 3, 3, 5, 2, 3, 2, 5])
    itc = "INSTRUCCIÓN IF-01. TERMINOLOGÍA"
    assert paths[5] == ("Real Decreto 1/2019", itc, "ÍNDICE")  # the law's ANEXO I closed
    assert paths[7] == ("Real Decreto 1/2019", itc, "CAPÍTULO I", "Artículo 1. Objeto.")
    assert paths[9] == ("Real Decreto 1/2019", itc, "ANEXO I", "Tabla A")  # its own ANEXO
    assert paths[10] == ("Real Decreto 1/2019", "INSTRUCCIÓN IF-02")
    # its text's disposiciones are its own, as an ANEXO holds those of the text it annexes
    assert paths[11][1:] == ("INSTRUCCIÓN IF-02", "Disposición adicional primera.")


@pytest.mark.parametrize(
    ("title", "kind"),
    [
        ("Disposición finales primera. Legislación supletoria.", "final"),
        ("Disposiciones final primera. Desarrollo reglamentario.", "final"),
        ("Disposición adiciona segunda.", "adicional"),
        ("Disposición degoratoria única. Derogación normativa.", "derogatoria"),
        ("Dsposición adicional tercera.", "adicional"),
        ("Disposición adicional adicional cuarta. Normativa aplicable.", "adicional"),
        ("Disposición transitora quinta. Acceso de los interinos existentes.", "transitoria"),
        ("DISPOSICIONES FINALES", "final"),
        ("Disposiciones transitorias", "transitoria"),
        ("Disposición final segunda.", "final"),
    ],
)
def test_a_misspelt_disposicion_is_read_as_its_kind(title: str, kind: str) -> None:
    """``legal_grammar.MISSPELT``: the misspellings of the BOE's own texts, one row each."""
    assert disposicion_kind(title) == kind
    assert heading_line(title) is not None


@pytest.mark.parametrize(
    "title",
    [
        "Sección Aduanas",
        "Sección A",
        "Capitulo de gastos",
        "**Títulos valores**",
        "*el artículo 5*",
    ],
)
def test_words_that_only_open_like_a_unit_are_not_units(title: str) -> None:
    assert legal_unit(title) is None


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("PARTE VI. Disposiciones finales", True),
        ("SEXTA PARTE. Otras disposiciones", True),
        ("PARTE PRIMERA", True),
        ("**PARTE II**", True),
        ("Parte 3. Reembolso", True),
        ("Partes contratantes", False),
        ("PARTE DISPOSITIVA", False),
        ("Parte de la renta exenta", False),
        ("TÍTULO I", False),
    ],
)
def test_parte_heading(title: str, expected: bool) -> None:
    assert parte_heading(title) is expected
    assert legal_unit(title) is None or not expected  # a PARTE is never a ranked unit


def test_the_enacting_formula_and_the_kings_title_hold_nothing() -> None:
    titles = [
        "Ley 1/2000",
        "JUAN CARLOS I",
        "REY DE ESPAÑA",
        "DISPONGO:",
        "TÍTULO I",
        "Artículo 1.",
    ]
    paths = legal_paths(titles, [1, 3, 3, 3, 2, 5], [True, True, False, True, True, False])
    assert paths[-1] == ("Ley 1/2000", "TÍTULO I", "Artículo 1.")
    assert paths[3] == ("Ley 1/2000", "DISPONGO:")


def test_a_preamble_numeral_before_a_group_does_not_open_the_law() -> None:
    """The VAT law: "EXPOSICION DE MOTIVOS" … "5", "Disposiciones transitorias" (a part of
    its preamble), then the TÍTULOs: no article under "5"."""
    titles = ["Ley 37/1992", "EXPOSICION DE MOTIVOS", "1", "Fundamentos", "5"]
    titles += ["Disposiciones transitorias", "TÍTULO PRELIMINAR", "Artículo 1."]
    hints = [1, 3, 3, 3, 3, 3, 2, 5]
    bare = [False, True, True, False, True, False, True, False]
    assert legal_paths(titles, hints, bare)[-1] == (
        "Ley 37/1992",
        "TÍTULO PRELIMINAR",
        "Artículo 1.",
    )


_PROMULGATION = st.sampled_from(
    ["DISPONGO:", "D I S P O N G O :", "DISPONGO", "REY DE ESPAÑA", "JUAN CARLOS I", "FELIPE VI"]
)
_NUMERALS = st.sampled_from(["I", "II", "III", "IV", "1", "2", "5"])


@st.composite
def _laws(draw: st.DrawFn) -> str:
    """A Markdown law: its title, a promulgation, a preamble of numbered parts, the
    enacting formula, then TÍTULOs of articles, at the heading levels the BOE uses."""
    parts = ["# Ley 9/2009, de prueba", ""]
    for title in draw(st.lists(_PROMULGATION, max_size=2)):
        parts += [f"### {title}", ""]
    if draw(st.booleans()):
        parts += [f"### {draw(st.sampled_from(['PREÁMBULO', 'EXPOSICIÓN DE MOTIVOS']))}", ""]
    for numeral in draw(st.lists(_NUMERALS, max_size=3)):
        parts += [f"### {numeral}", "", "Texto del preámbulo.", ""]
    parts += [f"### {draw(_PROMULGATION)}", ""]
    article = 1
    for number in range(1, draw(st.integers(1, 3)) + 1):
        parts += [f"## TÍTULO {number}", ""]
        for _ in range(draw(st.integers(1, 3))):
            parts += [f"##### Artículo {article}. Objeto.", "", "Texto del artículo.", ""]
            article += 1
    return "\n".join(parts)


@given(_laws())
def test_no_article_of_a_generated_law_has_the_promulgation_or_a_numeral_above(law: str) -> None:
    sections = read_text_document(law, "markdown").sections or ()
    articles = [s for s in sections if s.section_label and s.section_label.startswith("Artículo")]
    assert articles
    for span in articles:
        root, *middle, own = span.section_path
        assert root == "Ley 9/2009, de prueba"
        assert own == span.section_label
        assert len(middle) == 1
        assert middle[0].startswith("TÍTULO ")


@pytest.mark.parametrize(
    ("title", "note"),
    [
        ("(Derogado)", True),
        ("**(Suprimido).**", True),
        ("[Sin contenido]", True),
        ("*[Derogada]*", True),
        ("(Artículos 51 al 72)", True),
        ("[ANEXO]", False),  # where legalize-es leaves an annex out: a unit
        ("[Anexo II]", False),
        ("()", False),
        ("(a) Objeto", False),
        ("Derogado", False),
    ],
)
def test_a_note_in_parentheses_or_brackets(title: str, note: bool) -> None:
    assert note_line(title) is note


@pytest.mark.parametrize(
    ("line", "in_capitals"),
    [
        ("DEL EJERCICIO DEL MANDO", True),
        ("ÑANDÚ Y PINGÜINO 1", True),
        ("Del mando", False),
        ("I.", False),
    ],
)
def test_a_line_in_capitals(line: str, in_capitals: bool) -> None:
    assert capitals(line) is in_capitals


@pytest.mark.parametrize(
    ("line", "rubric"),
    [
        ("Epígrafe A. Forma de realizarlo", True),
        ("Epígrafe B. Resolución de cuestiones sobre el terreno", True),
        ("Apartado 2. Plazos", True),
        ("Apartado 2. Plazos.", False),  # a sentence's end
        ("Artículo 5. Objeto", False),  # a unit of the grammar
        ("Sección 1.ª Ejercicios", False),
        ("Se modifica el artículo 3", False),
    ],
)
def test_a_subdivisions_rubric(line: str, rubric: bool) -> None:
    assert rubric_line(line) is rubric
