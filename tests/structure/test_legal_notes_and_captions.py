"""Two kinds of heading a law's text holds: a note in parentheses under a unit's heading
("### (Derogado)", "(Artículos 51 al 72)") is that unit's text (``note_line``), and a
caption met inside a disposición's or an apartado's text ("### Tipo de estacionamiento"
above a table) is closed by the next unit, as one inside an article is: the next
disposición never hangs from it (BOE-A-2021-21653, BOE-A-2011-13242)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria.models import SectionSpan
from langchain_asesoria.reading import read_text_document
from langchain_asesoria.structure.legal_grammar import broken_line, note_line

LAW = "Ley 22/2021"


def _last_section(text: str) -> SectionSpan:
    """The last section of a Markdown law's ``text``."""
    return (read_text_document(text, "markdown").sections or ())[-1]


@pytest.mark.parametrize(
    "title",
    ["(Derogado)", "**(Derogada)**", "(Suprimido)", "(Artículos 51 al 72)", "*(Sin contenido)*"],
)
def test_a_note_in_parentheses_is_a_note(title: str) -> None:
    assert note_line(title)


@pytest.mark.parametrize(
    "title",
    ["Artículo 5. (Derogado)", "(a) Objeto", "CAPÍTULO III", "()", "Tipo de estacionamiento"],
)
def test_other_titles_are_not_notes(title: str) -> None:
    assert not note_line(title)


@given(
    st.sampled_from(["(Derogado)", "**(Suprimido)**", "(Artículos 5 al 7)"]),
    st.sampled_from(["###", "####"]),
)
def test_a_note_under_a_chapter_is_its_text(note: str, marks: str) -> None:
    text = (
        f"# {LAW}\n\nTexto.\n\n## CAPÍTULO I. Objeto\n\n##### Artículo 1. Objeto.\n\nTexto.\n\n"
        f"## CAPÍTULO II. Afiliación\n\n{marks} {note}\n\n##### Artículo 5. Alta.\n\nTexto.\n\n"
        "##### Artículo 6. Baja.\n\nTexto ñ €.\n"
    )
    sections = read_text_document(text, "markdown").sections or ()
    paths = [s.section_path for s in sections]
    assert paths[-2:] == [
        (LAW, "CAPÍTULO II. Afiliación", "Artículo 5. Alta."),
        (LAW, "CAPÍTULO II. Afiliación", "Artículo 6. Baja."),
    ]
    chapter = next(s for s in sections if s.section_path[-1] == "CAPÍTULO II. Afiliación")
    assert note in text[chapter.start : chapter.end]


@given(st.sampled_from(["Tipo de estacionamiento", "Cuadro II", "Figura 5: Ejemplo de tiempos"]))
def test_a_caption_inside_a_disposicion_is_closed_by_the_next(caption: str) -> None:
    text = (
        f"# {LAW}\n\nTexto.\n\n## TÍTULO I\n\n##### Artículo 1. Objeto.\n\nTexto.\n\n"
        "##### Artículo 2. Ámbito.\n\nTexto.\n\n"
        "##### Disposición transitoria séptima. Régimen.\n\nLa tabla:\n\n"
        f"### {caption}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "##### Disposición transitoria octava. Otra.\n\nTexto.\n\n"
        "##### Disposición final única. Vigor.\n\nTexto.\n"
    )
    paths = [s.section_path for s in read_text_document(text, "markdown").sections or ()]
    assert (LAW, "Disposición transitoria octava. Otra.") in paths
    assert (LAW, "Disposición final única. Vigor.") in paths
    assert not any(caption in p[:-1] for p in paths)
    # the caption is the disposición's own: the table is cited under it
    assert (LAW, "Disposición transitoria séptima. Régimen.", caption) in paths


@given(
    st.sampled_from(["NORMAS POR LAS QUE SE RIGEN LOS PROCESOS", "Norma específica de peritación"])
)
def test_a_heading_after_the_last_disposicion_is_not_its_caption(title: str) -> None:
    """No disposición follows: the heading may open an annexed text, never the last
    disposición's caption."""
    text = (
        f"# {LAW}\n\n##### Artículo 1. Objeto.\n\nTexto.\n\n"
        "##### Disposición final única. Vigor.\n\nTexto.\n\n"
        f"### {title}\n\nEl texto anexo.\n"
    )
    paths = [s.section_path for s in read_text_document(text, "markdown").sections or ()]
    assert paths[-1] == (LAW, title)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("y accidente no laboral", True),
        ("de Artes Plásticas y Diseño", True),
        ("siendo:", True),
        ("*y en su nombre el/la (1)*", True),
        ("sección 3.ª De los sistemas multilaterales", False),  # a unit, in lower case
        ("a) Animales", False),  # a lettered item
        ("b. ReseviData.xsd", False),
        ("y", False),
        ("Disposiciones generales", False),
        ("CAPÍTULO II", False),
    ],
)
def test_broken_line(title: str, expected: bool) -> None:
    assert broken_line(title) is expected


@given(st.sampled_from(["y accidente no laboral", "de la acuicultura y la pesca"]))
def test_the_tail_of_a_broken_heading_joins_it(tail: str) -> None:
    """The Ley de Seguridad Social of 1967 (BOE-A-1967-19695) breaks a CAPÍTULO's name
    over two headings: the tail joins the CAPÍTULO's heading, so the path cites the whole
    name, the tail is never the parent of its Sección and articles, and the bare heading
    still travels with the text after it (no section of a heading alone)."""
    head = "CAPÍTULO II. Ordenación de los servicios médicos para enfermedad común"
    text = (
        f"# {LAW}\n\n## TÍTULO I. Objeto\n\n### CAPÍTULO I. Ámbito\n\n##### Artículo 1. Ñu.\n\n"
        f"Texto €.\n\n### {head}\n\n### {tail}\n\n#### Sección primera. Organización\n\n"
        "##### Artículo 2. Zonas.\n\nTexto.\n"
    )
    sections = read_text_document(text, "markdown").sections or ()
    assert sections[-1].section_path == (
        LAW,
        "TÍTULO I. Objeto",
        f"{head} {tail}",
        "Sección primera. Organización",
        "Artículo 2. Zonas.",
    )
    assert sections[-1].start == text.index(f"### {head}")
    assert all(s.section_path[-1] != f"{head} {tail}" for s in sections)  # no heading alone


def test_a_broken_line_at_the_top_level_still_opens_a_document() -> None:
    """A treaty's protocol whose subtitle is a top-level heading in lower case
    (BOE-A-1999-10148, "# reconociendo ciertos derechos…"): it hangs below the law's
    title (every path starts there) and encloses the protocol's articles, which never
    join the convention's TÍTULO III nor the plain "ANEXO" line before it."""
    text = (
        f"# {LAW}\n\n## TÍTULO III. Disposiciones diversas\n\n##### Artículo 5. Firma.\n\n"
        "Texto.\n\nANEXO\n\nModelo de declaración\n\nTexto.\n\n"
        "# reconociendo ciertos derechos\n\nTexto.\n\n"
        "##### Artículo 1. Deudas.\n\n"
        "Nadie puede ser privado de su libertad.\n"
    )
    sections = read_text_document(text, "markdown").sections or ()
    assert sections[-1].section_path == (
        LAW,
        "reconociendo ciertos derechos",
        "Artículo 1. Deudas.",
    )


@pytest.mark.parametrize("marks", ["#", "##"])
def test_headings_inside_an_anexo_are_its_own(marks: str) -> None:
    """A plain "ANEXO 1" line, then Markdown headings that are no legal unit (a form's
    "### Cargamento", "# Certificado de cantidad", BOE-A-2025-3873): each is part of the
    ANEXO, whatever its marks, until the next ANEXO; no run of articles follows them."""
    text = (
        f"# {LAW}\n\n##### Artículo 1. Objeto.\n\nTexto.\n\n"
        "ANEXO 1\n\nInforme de descarga de buque\n\n### Cargamento\n\n"
        f"{marks} Certificado de cantidad\n\n"
        "Este certificado indica la cantidad descargada.\n\n"
        "ANEXO 2\n\nInforme de carga\n\n# Certificado de carga\n\nTexto del certificado.\n"
    )
    sections = read_text_document(text, "markdown").sections or ()
    paths = {span.section_path for span in sections}
    assert (LAW, "ANEXO 1. Informe de descarga de buque", "Certificado de cantidad") in paths
    assert (LAW, "ANEXO 2. Informe de carga", "Certificado de carga") in paths


@pytest.mark.parametrize(
    ("heading", "between", "element"),
    [
        # a number alone and its name, joined (the grammar's "annex part": "IIA", "3.1")
        (
            "ANEXO IIA",
            "Documentación fundamental común",
            "ANEXO IIA. Documentación fundamental común",
        ),
        (
            "ANEXO 3.1",
            "Modificaciones al Plan General",
            "ANEXO 3.1. Modificaciones al Plan General",
        ),
        ("ANEXO NÚMERO 2", "Definiciones de activos", "ANEXO NÚMERO 2. Definiciones de activos"),
        # the annexed text's title, which the Markdown marks as a heading (BOE-A-2012-5407)
        (
            "ANEXO",
            "Protocolo de detalle PD-13\n\n# «Asignación de fechas de descarga de buques»",
            "ANEXO. Protocolo de detalle PD-13",
        ),
        # parts of parts (BOE-A-2021-15860)
        (
            "ANEXO II.B.6",
            "Test compatibilidad régimen de ayudas de estado",
            "ANEXO II.B.6. Test compatibilidad régimen de ayudas de estado",
        ),
        # a name in parentheses, too long for a note
        (
            "ANEXO I",
            "(Currículo del área de «Enseñanza Religiosa Evangélica» en Educación Primaria)",
            "ANEXO I",
        ),
        # a rubric in capitals after a named unit
        ("ANEXO II. Modelos", "DEL EJERCICIO DEL MANDO", "ANEXO II. Modelos"),
    ],
)
def test_a_unit_with_only_a_name_before_its_first_child_starts_it(
    heading: str, between: str, element: str
) -> None:
    """A unit, its name or a rubric, then its first child: no section is the unit and its
    name alone (issue 49, item 3); the chunk of the child starts with them."""
    text = (
        f"# {LAW}\n\n##### Artículo 1. Objeto.\n\nTexto.\n\n"
        f"{heading}\n\n{between}\n\n### SUSTANCIAS QUÍMICAS\n\nEl texto del anexo.\n"
    )
    sections = read_text_document(text, "markdown").sections or ()
    last = sections[-1]
    assert last.section_path[1:] == (element, "SUSTANCIAS QUÍMICAS")
    assert text[last.start :].startswith(heading)


@pytest.mark.parametrize(
    ("heading", "between", "child", "path"),
    [
        # a subdivision's rubric below the grammar's units (BOE-A-1962-6167)
        (
            "#### Sección 2.ª Apeo",
            "Epígrafe A. Forma de realizarlo",
            "##### Artículo 108.",
            ("Sección 2.ª Apeo", "Artículo 108."),
        ),
        # a PARTE (no unit of the grammar) and a numeral's rubric in capitals
        # (BOE-A-2007-19884, the Plan General de Contabilidad)
        (
            "## TERCERA PARTE. CUENTAS ANUALES",
            "I. NORMAS DE ELABORACIÓN DE LAS CUENTAS ANUALES",
            "##### 1.ª Documentos que integran las cuentas anuales",
            (
                "TERCERA PARTE. CUENTAS ANUALES",
                "1.ª Documentos que integran las cuentas anuales",
            ),
        ),
    ],
)
def test_a_heading_with_only_a_rubric_before_its_first_child_starts_it(
    heading: str, between: str, child: str, path: tuple[str, ...]
) -> None:
    """A rubric line between a heading and its first child is no text of the heading's
    own: the chunk of the child starts with both (no chunk is the heading and its rubric
    alone, issue 49, item 3)."""
    text = (
        f"# {LAW}\n\n### CAPÍTULO I. Deslinde\n\n#### Sección 1.ª Trámites\n\n"
        "##### Artículo 1. Objeto.\n\nTexto.\n\n"
        f"{heading}\n\n{between}\n\n{child}\n\nEl texto del primero.\n"
    )
    last = _last_section(text)
    assert last.section_path[1:][-len(path) :] == path
    assert text[last.start :].startswith(heading)


@pytest.mark.parametrize(
    "between",
    ["Epígrafe A. Forma de realizarlo.", "Este anexo recoge los modelos de solicitud"],
)
def test_a_sentence_after_a_heading_is_its_text(between: str) -> None:
    """A line that ends a sentence, or a sentence in lower case, is the unit's text: it
    keeps its section."""
    text = (
        f"# {LAW}\n\n### CAPÍTULO I. Deslinde\n\n#### Sección 1.ª Trámites\n\n"
        "##### Artículo 1. Objeto.\n\nTexto.\n\n"
        f"#### Sección 2.ª Apeo\n\n{between}\n\n##### Artículo 108.\n\n"
        "El texto del primero.\n"
    )
    paths = [s.section_path[1:] for s in read_text_document(text, "markdown").sections or ()]
    assert ("CAPÍTULO I. Deslinde", "Sección 2.ª Apeo") in paths


@pytest.mark.parametrize("note", ["**(Derogado)**", "> Se modifica por la Ley 2/2020."])
def test_a_unit_whose_text_is_a_note_keeps_its_section(note: str) -> None:
    """A short note in brackets or a BOE note is the unit's text, not its name."""
    text = (
        f"# {LAW}\n\n##### Artículo 1. Objeto.\n\nTexto.\n\n"
        f"ANEXO II. Modelos\n\n{note}\n\n### MODELO 1\n\nEl texto del modelo.\n"
    )
    paths = [s.section_path[1:] for s in read_text_document(text, "markdown").sections or ()]
    assert ("ANEXO II. Modelos",) in paths


def test_a_unit_with_text_of_its_own_keeps_its_section() -> None:
    """Two sentences over several lines are the unit's text, not its name."""
    text = (
        f"# {LAW}\n\n##### Artículo 1. Objeto.\n\nTexto.\n\n"
        "ANEXO II\n\nEste anexo recoge los modelos.\nCada modelo se presenta en papel.\n\n"
        "### MODELO 1\n\nEl texto del modelo.\n"
    )
    paths = [s.section_path[1:] for s in read_text_document(text, "markdown").sections or ()]
    assert ("ANEXO II",) in paths


@pytest.mark.parametrize(
    "signature",
    [
        "Dado en Madrid, el 16 de noviembre de 2007.",
        "Barcelona, 3 de marzo de 2020",
        "Sevilla, 14 de julio de 2020.\u2014El Presidente de la Junta de Andalucía, Juan Manuel "
        "Moreno Bonilla.",
        "Madrid, 10 de diciembre de 2009.\u2013La Ministra de Defensa, Carme Chacón Piqueras.",
        "Palma, 6 de mayo de 2016.-La Presidenta, la Consejera de Presidencia, Pilar Costa.",
        "Dado en Palacio a veintiocho de mayo de mil ochocientos sesenta y dos.",
        "Dado en Madrid a veintiocho de octubre de mil novecientos cincuenta y ocho.",
        "Dado en Madrid a dos de enero de dos mil.",
    ],
)
def test_the_signature_ends_the_last_disposicion(signature: str) -> None:
    """The place and date the law is signed at, the signers after a dash or not
    (``legal_grammar.SIGNATURE``): what follows is cited under the law alone."""
    text = (
        f"# {LAW}\n\nArtículo 1. Objeto.\n\nTexto.\n\n"
        "Disposición final única. Entrada en vigor.\n\nEntra en vigor mañana.\n\n"
        f"{signature}\n\nEl texto que sigue a la firma.\n"
    )
    last = _last_section(text)
    assert text[last.start :].startswith(signature)
    assert last.section_path == (LAW,)


@pytest.mark.parametrize(
    "line",
    [
        "Dado en la mil veces citada ley, el plazo se cuenta desde su publicación.",
        "Madrid, capital del Estado, es la sede de las Cortes.",
    ],
)
def test_a_line_that_only_opens_like_a_signature_is_text(line: str) -> None:
    text = f"# {LAW}\n\nArtículo 1. Objeto.\n\nTexto.\n\n{line}\n\nMás texto del artículo.\n"
    assert _last_section(text).section_path == (LAW, "Artículo 1. Objeto.")


@pytest.mark.parametrize(
    "head",
    [
        "EL PRESIDENTE DE LA JUNTA DE ANDALUCÍA",
        "DON JUAN CARLOS I, REY DE ESPAÑA, A TODOS LOS QUE LA PRESENTE VIEREN Y ENTENDIEREN,"
        "\n\nSABED: QUE LAS CORTES HAN APROBADO LA SIGUIENTE LEY:",
    ],
)
def test_a_title_and_the_promulgations_head_alone_start_the_first_child(head: str) -> None:
    """The law's title and the promulgation's head in capitals, then the preamble's
    heading: no section is the title and the head alone (es-an/BOE-A-2021-17915, the
    Constitution); the preamble's chunk starts with them."""
    text = (
        f"# {LAW}\n\n{head}\n\nEXPOSICIÓN DE MOTIVOS\n\nEl texto del preámbulo.\n\n"
        "##### Artículo 1. Objeto.\n\nTexto.\n"
    )
    sections = read_text_document(text, "markdown").sections or ()
    assert sections[0].start == 0
    assert sections[0].section_path == (LAW, "EXPOSICIÓN DE MOTIVOS")


def test_the_promulgations_head_stays_with_the_title_and_the_formula() -> None:
    """The regional president's title in capitals, then "Sea notorio…": the title's
    section ends its title after the head, so no chunk ends between them
    (es-ib/BOE-A-1994-5713)."""
    head = "EL PRESIDENTE DE LA COMUNIDAD AUTONOMA DE LAS ISLAS BALEARES"
    text = (
        f"# {LAW}\n\n{head}\n\nSea notorio a todos los ciudadanos que el Parlamento ha "
        "aprobado la siguiente Ley:\n\nEn fecha 28 de junio de 1982 el Pleno aprobó un "
        "Decreto.\n\n##### Artículo 1. Objeto.\n\nTexto.\n"
    )
    first = (read_text_document(text, "markdown").sections or ())[0]
    assert first.section_path == (LAW,)
    assert first.title_end == text.index(head) + len(head)


def test_a_title_followed_by_text_keeps_its_own_end() -> None:
    """A sentence after the title is text: the title ends at its line."""
    text = f"# {LAW}\n\nEl Parlamento ha aprobado esta ley.\n\n##### Artículo 1. Objeto.\n\nT.\n"
    first = (read_text_document(text, "markdown").sections or ())[0]
    assert first.title_end == len(f"# {LAW}")
