"""Spanish legal structure: units recognised by strict patterns, ranks decide the paths."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_asesoria.reading import ReadOptions, read_text_document
from langchain_asesoria.structure.headings import sections_of
from langchain_asesoria.structure.legal import (
    NUMERAL,
    applies,
    law_headings,
    legal_paths,
    legal_unit,
    plain_lines,
    relevel,
)
from langchain_asesoria.structure.legal_grammar import heading_line
from langchain_asesoria.structure.markdown import markdown_headings

ROOT = Path(__file__).resolve().parents[2]
LAWS = sorted((ROOT / "corpus" / "markdown").glob("*.md"))


@pytest.mark.parametrize(
    ("title", "unit"),
    [
        ("Artículo 5. Objeto.", "artículo"),
        ("Artículo 163 tervicies. Tipo de gravamen.", "artículo"),
        ("Artículo 103 quadragies. Devengo y pago.", "artículo"),  # es-ib
        ("Artículo 103 unquadragies. Hecho imponible.", "artículo"),
        ("Artículo 4 sexties. Objeto.", "artículo"),  # the BOE's spelling
        ("Artículo 7 bis", "artículo"),
        ("Artículo único. Aprobación del Reglamento.", "artículo"),
        ("Artículos 54 a 57.", "artículo"),
        ("ARTÍCULO 3", "artículo"),
        ("Art. 49.", "artículo"),
        ("Art. 1.º Objeto.", "artículo"),
        ("ART. 5 bis.", "artículo"),
        ("TÍTULO II", "título"),
        ("TÍTULO PRELIMINAR", "título"),
        ("Título I. De los derechos y deberes fundamentales", "título"),
        ("CAPÍTULO III. Régimen fiscal", "capítulo"),
        ("CAPITULO IV. Base imponible", "capítulo"),
        ("CAPÍTULO PRIMERO. De los españoles", "capítulo"),
        ("Sección 1.ª De los derechos fundamentales", "sección"),
        ("Seccion 4.ª Comprobación de valores", "sección"),
        ("Subsección 2.ª Estimación directa simplificada", "subsección"),
        ("LIBRO PRIMERO", "libro"),
        ("PREÁMBULO", "preámbulo"),
        ("[Preámbulo]", "preámbulo"),
        ("EXPOSICIÓN DE MOTIVOS", "exposición de motivos"),
        ("[Disposiciones adicionales]", "disposiciones"),
        ("DISPOSICIONES FINALES", "disposiciones"),
        ("Disposición adicional primera.", "disposición"),
        ("Disposición transitoria vigesimoprimera. Cálculo del tipo.", "disposición"),
        ("Disposición derogatoria única. Derogación normativa.", "disposición"),
        ("Disposición final tercera. Entrada en vigor de la Ley.", "disposición"),
        ("ANEXO I", "anexo"),
        ("ANEXO", "anexo"),
        ("Anexo II. Tabla de coeficientes", "anexo"),
        ("II", "numeral"),
        # Not legal headings: a cross-reference, words that only start like a unit.
        ("el artículo 5 de esta Ley", None),
        ("Títulos valores y otros activos", None),
        ("Capitulaciones matrimoniales", None),
        ("Artículo", None),
        ("Art.", None),
        ("Arte y cultura", None),
        ("Disposiciones generales del impuesto", None),
        ("REY DE ESPAÑA", None),
        ("Ley 49/2002, de 23 de diciembre", None),
        ("Introducción", None),
    ],
)
def test_legal_units_are_recognised_by_strict_patterns(title: str, unit: str | None) -> None:
    found = legal_unit(title)
    assert (found.name if found else None) == unit


@pytest.mark.parametrize(
    ("title", "lenient", "strict"),
    [
        # A Markdown heading's title opens with its unit whatever follows (legal_unit);
        # a plain line is a heading only in a heading's shape (heading_line).
        ("Anexos y cuadros", "anexo", None),
        ("Anexo de tablas", "anexo", None),
        ("ANEXO", "anexo", "anexo"),
        ("Artículo 5 de esta Ley establece", "artículo", None),
        ("Títulos valores y otros activos", None, None),
    ],
)
def test_a_markdown_title_is_read_leniently_a_plain_line_strictly(
    title: str, lenient: str | None, strict: str | None
) -> None:
    found = legal_unit(title)
    label = heading_line(title)
    assert (found.name if found else None) == lenient
    assert (label.unit.name if label else None) == strict


def _paths(markdown: str, legal: bool = True) -> list[tuple[str, ...]]:
    headings = markdown_headings(markdown, glued=lambda t: legal_unit(t) is not None)
    ranked = relevel(headings) if legal else headings
    return [span.section_path for span in sections_of(ranked, len(markdown))]


def test_a_disposicion_hangs_from_the_law_never_from_a_titulo() -> None:
    text = (
        "# Ley 49/2002\n\n## TÍTULO III. Incentivos\n\n### CAPÍTULO III. Otras formas\n\n"
        "##### Artículo 25. Convenios.\n\nTexto.\n\n##### Disposición adicional primera. "
        "Régimen.\n\nTexto.\n\n##### Disposición final tercera. Entrada en vigor.\n\nTexto.\n\n"
        "## ANEXO\n\nTabla.\n\n#### Sección 1.ª Coeficientes\n\nCifras.\n"
    )
    assert _paths(text) == [
        (
            "Ley 49/2002",
            "TÍTULO III. Incentivos",
            "CAPÍTULO III. Otras formas",
            "Artículo 25. Convenios.",
        ),
        ("Ley 49/2002", "Disposición adicional primera. Régimen."),
        ("Ley 49/2002", "Disposición final tercera. Entrada en vigor."),
        ("Ley 49/2002", "ANEXO"),
        ("Ley 49/2002", "ANEXO", "Sección 1.ª Coeficientes"),
    ]
    # By levels alone, the disposición inherited the last TÍTULO and CAPÍTULO.
    assert _paths(text, legal=False)[1][1] == "TÍTULO III. Incentivos"


def test_group_headings_and_the_parts_of_an_exposicion() -> None:
    text = (
        "# Ley 29/1987\n\n### JUAN CARLOS I\n\n### REY DE ESPAÑA\n\nA todos.\n\n"
        "### EXPOSICIÓN DE MOTIVOS\n\n### I\n\nUno.\n\n### II\n\nDos.\n\n"
        "### CAPITULO I. Disposiciones generales\n\n##### Artículo 1. Naturaleza.\n\nTexto.\n\n"
        "## DISPOSICIONES ADICIONALES\n\n##### Disposición adicional única.\n\nTexto.\n"
    )
    assert _paths(text) == [
        ("Ley 29/1987", "REY DE ESPAÑA"),
        ("Ley 29/1987", "EXPOSICIÓN DE MOTIVOS", "I"),
        ("Ley 29/1987", "EXPOSICIÓN DE MOTIVOS", "II"),
        ("Ley 29/1987", "CAPITULO I. Disposiciones generales", "Artículo 1. Naturaleza."),
        ("Ley 29/1987", "DISPOSICIONES ADICIONALES", "Disposición adicional única."),
    ]


def test_a_heading_glued_to_its_marks_is_a_legal_heading() -> None:
    """``#####Artículo 16`` is no ATX heading for CommonMark: a constitution written so
    had one section, "Artículo 15", on 177 of its 191 chunks."""
    text = (
        "# Constitución\n\n#####Artículo 15\n\nTodos.\n\n#####Artículo 16\n\nSe garantiza."
        "\n\n#####Artículo 17\n\nToda persona.\n"
    )
    document = read_text_document(text, "markdown")
    labels = [s.section_label for s in document.sections or ()]
    assert labels == ["Artículo 15", "Artículo 16", "Artículo 17"]
    off = read_text_document(text, "markdown", ReadOptions(legal_structure="off"))
    assert [s.section_label for s in off.sections or ()] == ["Constitución"]


def test_auto_needs_a_laws_evidence() -> None:
    """A provision or an ANEXO in a heading's shape is a law's evidence; there is no
    count of units (a one-article law is a law, issue 49)."""
    assert applies(["Ley", "TÍTULO I", "Artículo 1", "Artículo 2"])
    assert applies(["Ley 3/2024", "Artículo único. Modificación.", "Disposición final única."])
    assert applies(["Resolución", "ANEXO"])
    assert applies(["Orden", "Primero.", "Segundo."])  # two apartados, no article
    assert not applies(["Orden", "Primero.", "Resumen"])
    assert not applies(["Capítulo 12. Integración", "Introducción", "Caso práctico"])
    assert not applies(["Guía", "Anexo de tablas", "Artículo 5 de esta Ley establece"])


def test_a_plain_text_law_gets_its_heading_lines_never_a_cross_reference() -> None:
    text = (
        "Ley 1/2024, de prueba.\n\nTÍTULO I\n\nArtículo 1. Objeto.\n\nEsta ley desarrolla el "
        "artículo 5 de esta Ley.\nArtículo 2. Esto sigue el párrafo y no es un título.\n\n"
        "Artículo 2. Ámbito.\n\nSe aplica en España.\n\nDisposición final única. Vigor.\n\nYa.\n"
    )
    titles = [heading.title for heading in law_headings(text, plain_lines(text))]
    assert titles == [
        "TÍTULO I",
        "Artículo 1. Objeto.",
        "Artículo 2. Ámbito.",
        "Disposición final única. Vigor.",
    ]
    paths = [s.section_path for s in read_text_document(text).sections or ()]
    assert paths == [
        ("TÍTULO I", "Artículo 1. Objeto."),
        ("TÍTULO I", "Artículo 2. Ámbito."),
        ("Disposición final única. Vigor.",),
    ]


_LEGAL = re.compile(
    r"(?:TÍTULO|T[ÍI]TULO|CAP[ÍI]TULO|Secci[óo]n|Subsecci[óo]n|Art[íi]culo|Disposici[óo]n|ANEXO|LIBRO)"
)


@pytest.mark.parametrize("law", LAWS, ids=lambda path: path.stem)
def test_a_plain_text_rendering_gets_the_articles_paths_of_the_markdown(law: Path) -> None:
    """The law's Markdown with its ``#`` marks stripped: the same legal paths."""
    markdown = law.read_text(encoding="utf-8")
    plain = re.sub(r"(?m)^#{1,6}[ \t]*", "", markdown)

    def legal_paths(kind: str, text: str) -> dict[int, tuple[str, ...]]:
        document = read_text_document(text, kind)  # type: ignore[arg-type]
        return {
            span.start: tuple(t for t in span.section_path if legal_unit(t) and _LEGAL.match(t))
            for span in document.sections or ()
            if span.section_label and span.section_label.startswith("Artículo")
        }

    by_markdown = list(legal_paths("markdown", markdown).values())
    by_text = list(legal_paths("text", plain).values())
    assert by_markdown
    assert by_text == by_markdown


@settings(max_examples=200)
@given(
    st.lists(
        st.sampled_from(
            [
                "TÍTULO I",
                "CAPÍTULO II",
                "Sección 1.ª",
                "Artículo 3.",
                "Disposición adicional primera.",
                "DISPOSICIONES FINALES",
                "ANEXO I",
                "I",
                "Notas",
                "Ley 1/2000",
            ]
        ),
        min_size=1,
        max_size=30,
    ),
    st.lists(st.integers(1, 6), min_size=30, max_size=30),
)
def test_ranked_paths_are_chains_in_text_order(titles: list[str], hints: list[int]) -> None:
    markdown = "".join(
        f"{'#' * hint} {title} {number}\n\nCuerpo.\n\n"
        for number, (title, hint) in enumerate(zip(titles, hints, strict=False))
    )
    numbered = [f"{title} {number}" for number, title in enumerate(titles)]
    for path in _paths(markdown):
        positions = [numbered.index(title) for title in path]
        assert positions == sorted(positions)
        assert len(set(path)) == len(path)
        legal = [legal_unit(title) for title in path]
        parts = {unit.part for unit in legal if unit is not None and unit.name != "numeral"}
        if any(u is not None and u.name == "disposición" for u in legal):
            assert not any(u is not None and u.name in ("título", "capítulo") for u in legal)
        assert len(parts) <= 2  # a part (and an ANEXO holding articulado units)


def test_a_bare_units_title_on_a_heading_of_its_own_is_its_child() -> None:
    """A BOE web page gives "ANEXO" and its title as two ``<h5>`` headings."""
    text = (
        "# Real Decreto\n\n##### Artículo 1. Objeto.\n\nTexto.\n\n##### Artículo 2. Ámbito.\n\n"
        "Texto.\n\n##### Disposición final única.\n\nVigor.\n\n##### ANEXO\n\n"
        "##### Normas de diligencia debida\n\n##### Sección I. Obligaciones\n\nTexto.\n\n"
        "##### Sección II. Requisitos\n\nTexto.\n"
    )
    assert _paths(text)[-2:] == [
        ("Real Decreto", "ANEXO", "Normas de diligencia debida", "Sección I. Obligaciones"),
        ("Real Decreto", "ANEXO", "Normas de diligencia debida", "Sección II. Requisitos"),
    ]


@pytest.mark.parametrize("page", sorted((ROOT / "corpus" / "html").glob("*.html")), ids=str)
def test_the_boe_pages_anexo_and_disposiciones_hang_from_the_law(page: Path) -> None:
    from langchain_asesoria.reading import read_document

    spans = read_document(page).sections or ()
    assert spans
    for span in spans:
        units = [legal_unit(title) for title in span.section_path]
        names = [unit.name for unit in units if unit is not None]
        if "disposición" in names or "anexo" in names:
            assert not {"título", "capítulo"} & set(names), span.section_path
        if "anexo" in names:
            assert "disposición" not in names, span.section_path
    annexes = {title for span in spans for title in span.section_path if "ANEXO" in title}
    if page.name == "rd-1021-2015.html":
        # The ANEXO's name, a heading of its own on the page, joins its path element.
        assert annexes == {"ANEXO. Normas de diligencia debida"}
    else:
        # An ANEXO that is only its name (its form is an image) at the law's end has no
        # text of its own: it is no section alone, it stays with the text before it.
        assert annexes == set()
        assert spans[-1].section_label == "Disposición final única.\u2003Entrada en vigor."


@pytest.mark.parametrize(
    "path",
    [*LAWS, *sorted((ROOT / "corpus" / "html").glob("*.html"))],
    ids=lambda path: path.name,
)
def test_a_disposicions_path_is_the_law_and_the_disposicion(path: Path) -> None:
    """On the laws and the web pages: the law's title, the group heading where the
    text has one, the disposición; never a TÍTULO, CAPÍTULO or the page's version."""
    from langchain_asesoria.reading import read_document

    spans = read_document(path).sections or ()
    disposiciones = [
        span
        for span in spans
        if (legal_unit(span.section_label or "") or NUMERAL).name == "disposición"
    ]
    assert disposiciones
    for span in disposiciones:
        *ancestors, own = span.section_path
        assert own == span.section_label
        kinds = [legal_unit(title) for title in ancestors]
        assert all(unit is None or unit.name == "disposiciones" for unit in kinds), ancestors
        assert len([unit for unit in kinds if unit is None]) == 1, ancestors  # the law alone


@pytest.mark.parametrize(
    "formula",
    [
        "DISPONGO:",
        "D I S P O N G O :",
        "VENGO EN DECRETAR:",
        "REY DE ESPAÑA",
        "GENERALÍSIMO DE LOS EJÉRCITOS NACIONALES",
    ],
)
def test_the_enacting_formula_before_an_article_holds_none_of_them(formula: str) -> None:
    """A decree of two articles is a law (its articles say so, whatever the promulgation
    or the annex's unmarked headings); the promulgation (the enacting formula, the Head of
    State's title) holds none of its articles."""
    titles = ["Real Decreto 54/1977", formula, "Artículo primero.", "Artículo segundo."]
    assert applies(titles + ["Tabla"] * 20)
    assert applies(["Real Decreto 54/1977", "Artículo primero.", "Artículo segundo."])
    assert applies(["Real Decreto", formula, "Artículo uno.", "Disposición final.", "Tabla"])
    assert not applies(["Guía", formula, "Tabla", "Notas"])  # a formula alone is no law
    law = f"# Real Decreto 54/1977\n\n### {formula}\n\n##### Artículo primero.\n\nTexto.\n"
    sections = read_text_document(law + "\n##### Artículo segundo.\n\nTexto.\n", "markdown")
    paths = [span.section_path for span in sections.sections or ()]
    assert paths[-2] == ("Real Decreto 54/1977", "Artículo primero.")
    assert paths[-1] == ("Real Decreto 54/1977", "Artículo segundo.")


@given(st.integers(min_value=2, max_value=5), st.sampled_from(["I", "III", "IV", "2"]))
def test_a_law_unit_is_never_a_numerals_child(level: int, numeral: str) -> None:
    """A preamble's numeral ("### III") before the articles holds none of them, at any
    level above theirs; a heading that is no numeral still holds what is deeper."""
    titles = ["Orden APM/189/2018", "I", numeral, "Artículo único.", "Disposición final primera."]
    hints = [1, level, level, 6, 6]
    paths = legal_paths(titles, hints, [False] * 5)
    assert paths[3] == ("Orden APM/189/2018", "Artículo único.")
    assert paths[4] == ("Orden APM/189/2018", "Disposición final primera.")
    named = legal_paths(["Orden", "Tarifas", "Artículo 1."], [1, level, 6], [False] * 3)
    assert named[-1] == ("Orden", "Tarifas", "Artículo 1.")


def test_a_heading_inside_an_articles_text_holds_no_unit() -> None:
    """A budget law's "CORTES GENERALES" or "(Miles de pesetas)" inside an article's text,
    at a TÍTULO's level or deeper, is closed by the next article: the article stays under
    its TÍTULO. A quoted heading stays its article's, an approved text's title and a bare
    heading right before the units still hold them."""
    titles = ["Ley 21/1986", "TÍTULO III", "Artículo 28.", "CORTES GENERALES", "Artículo 29."]
    for hint in (3, 4, 6):
        paths = legal_paths(titles, [1, 2, 5, hint, 5], [False, True, False, False, False])
        assert paths[-1] == ("Ley 21/1986", "TÍTULO III", "Artículo 29.")
    # The budget's sections in a row, each a heading of the article's text.
    titles[3:3] = ["ADMINISTRACIÓN DE JUSTICIA"]
    paths = legal_paths(titles, [1, 2, 5, 3, 3, 5], [False, True, False, True, False, False])
    assert paths[-1] == ("Ley 21/1986", "TÍTULO III", "Artículo 29.")
    law = "# Ley 24/2001\n\n## TÍTULO I\n\n### CAPÍTULO I\n\n#### Sección 1.ª\n\n"
    law += "##### Artículo 2.\n\nSe añade:\n\n### «CAPÍTULO XVII. Navieras\n\nTexto.»\n\n"
    law += "#### Sección 3.ª\n\n##### Artículo 3.\n\nTexto.\n"
    sections = read_text_document(law, "markdown").sections or ()
    assert sections[-1].section_path == (
        "Ley 24/2001",
        "TÍTULO I",
        "CAPÍTULO I",
        "Sección 3.ª",
        "Artículo 3.",
    )
    decree = ["Real Decreto", "Artículo único.", "REGLAMENTO DE SEGURIDAD", "Artículo 1."]
    paths = legal_paths(decree, [1, 5, 3, 5], [False] * 4)
    assert paths[-1] == ("Real Decreto", "REGLAMENTO DE SEGURIDAD", "Artículo 1.")
    grouped = ["Ley", "TÍTULO V", "Artículo 78.", "Disposición general", "Artículo 79."]
    paths = legal_paths(grouped, [1, 2, 5, 4, 5], [False, True, False, True, False])
    assert paths[-1] == ("Ley", "TÍTULO V", "Disposición general", "Artículo 79.")


def test_a_capitulo_after_an_articulo_unico_stays_below_the_laws_title() -> None:
    """A title whose first unit is "Artículo único" holds the articles' rank, but a
    CAPÍTULO after it never closes it: every path still starts with the law's title."""
    law = "Real Decreto 552/2019, por el que se aprueba el Reglamento"
    text = (
        f"# {law}\n\n##### Artículo único. Aprobación.\n\nSe aprueba el Reglamento.\n\n"
        "CAPÍTULO 1\n\nDe las cosas\n\nArtículo 2. Objeto.\n\nEl objeto.\n"
    )
    paths = [s.section_path for s in read_text_document(text, "markdown").sections or ()]
    assert all(path[0] == law for path in paths), paths
    assert paths[-1] == (law, "CAPÍTULO 1. De las cosas", "Artículo 2. Objeto.")


_RUN_IN = (
    "las cosas que se dicen en el contrato y en la ley con todo detalle, y otras muchas "
    "cosas más que aquí se dicen para que la frase pase de ciento cincuenta caracteres."
)


@pytest.mark.parametrize("label", ["Art. 2.", "Articulo 11 bis.", "Artículo 1.º"])
def test_a_units_line_carrying_its_text_heads_the_unit_by_its_label(label: str) -> None:
    """A plain unit line with a sentence after its label ("Art. 321. En la póliza…",
    BOE-A-1984-681's "Articulo 11 bis. Las acciones…"): the label heads the unit and the
    sentence is its text, so the unit is not taken for a heading without text and its
    sentence is not cited under the next unit."""
    law = "Ley 1/1984, de prueba"
    line = f"{label} En la póliza deberán constar {_RUN_IN}"
    text = f"# {law}\n\nArtículo 1. Objeto.\n\nTexto.\n\n{line}\n\nDISPOSICIÓN ADICIONAL\n\nLos.\n"
    sections = read_text_document(text, "markdown").sections or ()
    at = text.index("En la póliza")
    section = next(s for s in sections if s.start <= at < s.end)
    assert section.section_path == (law, label)
    assert section.start == text.index(label)
    short = text.replace(_RUN_IN, "las cosas.\n\nTexto del artículo.")  # a name, not cut
    paths = [s.section_path[-1] for s in read_text_document(short, "markdown").sections or ()]
    assert label not in paths


def test_units_lines_one_after_another_carry_their_text() -> None:
    """A code's articles each on one line, the next right after it (the Código civil's
    reform, BOE-A-1981-11198: "Art. 936. El padre y la madre heredarán por partes
    iguales.", then "Art. 937. …"): each article has its sentence as text, whatever its
    length, so none is taken for a heading without text and cited under the next."""
    law = "Ley 11/1981, de prueba"
    long = "Se presumen hijos del marido los nacidos después de la celebración " * 3
    lines = [
        "Art. 936. El padre y la madre heredarán por partes iguales.",
        f"Art. 937. {long.strip()}.",
        "Art. 938. En cada línea la división se hará por cabezas.",
    ]
    text = f"# {law}\n\nCAPÍTULO I\n\nDe la herencia\n\n" + "\n\n".join(lines) + "\n"
    sections = read_text_document(text, "markdown").sections or ()
    for number in ("936", "937", "938"):
        at = text.index(f"Art. {number}.")
        section = next(s for s in sections if s.start <= at < s.end)
        assert section.section_path[-1] == f"Art. {number}.", section
    # a short name before the next unit, opening with no article or preposition, stays
    names = text.replace("El padre y la madre heredarán por partes iguales.", "Herencia.")
    paths = [s.section_path[-1] for s in read_text_document(names, "markdown").sections or ()]
    assert "Art. 936." not in paths


def test_a_containers_long_name_before_its_first_child_stays_its_name() -> None:
    """A Sección whose name is a long sentence-like line, right before its first
    Subsección or article (BOJA-b-2020-90135's "Sección 2.ª Medidas de flexibilización
    de obligaciones exigidas para la Línea 1…, regulada en la Orden…."), keeps it as its
    name: only a unit it does not hold after the line makes the line its text."""
    law = "Decreto-ley 1/2020, de prueba"
    name = "Sección 2.ª Medidas de flexibilización " + "de las obligaciones exigidas " * 6 + "."
    text = f"# {law}\n\nCAPÍTULO I\n\nDe las medidas\n\n{name}\n\nArtículo 5. Objeto.\n\nTexto.\n"
    paths = [s.section_path for s in read_text_document(text, "markdown").sections or ()]
    assert paths[-1][-2] == name
