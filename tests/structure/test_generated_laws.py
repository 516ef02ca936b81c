"""Generated Spanish laws in every writing style (``law_writer``): each paragraph's section
has exactly the chain of units written, every path starts with the law's title, no section
is only a heading, and quoted amended text is never a section (issue 49, item 6)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from strategies import PROFILE, examples

from langchain_asesoria.reading import read_document
from tests.structure.law_writer import (
    WrittenLaw,
    laws,
    marker_offset,
    norm,
    section_of,
)


def _read(law: WrittenLaw):  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "BOE-A-2024-1.md"
        path.write_text(law.text, encoding="utf-8")
        document = read_document(path)
    return document.text.text, document.sections or ()


@settings(PROFILE, max_examples=examples(150), deadline=None)
@given(laws())
def test_every_paragraph_of_a_generated_law_has_its_chain(law: WrittenLaw) -> None:
    text, sections = _read(law)
    assert sections
    for number, chain in {**law.chains, **law.quoted_markers}.items():
        span = section_of(sections, marker_offset(text, number))
        assert tuple(map(norm, span.section_path)) == tuple(map(norm, chain)), number


@settings(PROFILE, max_examples=examples(150), deadline=None)
@given(laws())
def test_rooted_no_heading_only_sections_and_no_quoted_sections(law: WrittenLaw) -> None:
    text, sections = _read(law)
    for span in sections:
        assert span.section_path[0] == law.title
        assert "n.º " in text[span.start : span.end], span.section_path  # text, not headings
    quoted = {norm(heading) for heading in law.quoted_headings}
    for span in sections:
        assert not any(title.lstrip("*")[:1] in '«“"' for title in span.section_path)
        assert not quoted & {norm(title) for title in span.section_path[1:]} - {
            norm(title) for chain in law.chains.values() for title in chain
        }


def test_a_last_anexo_of_one_paragraph_keeps_its_text() -> None:
    text = (
        '---\ntitle: "Ley 1/1990, de tasas"\n---\n# Ley 1/1990, de tasas\n\n'
        "Artículo único. Modificación.\n\nEl texto del artículo. Otro.\n\n"
        "Disposición final única. Entrada en vigor.\n\nEl texto final. Otro.\n\n"
        "ANEXO\n\nEl texto del anexo. Otro.\n"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ley.md"
        path.write_text(text, encoding="utf-8")
        document = read_document(path)
    sections = document.sections or ()
    assert sections[-1].section_path == ("Ley 1/1990, de tasas", "ANEXO")


def test_a_quoted_first_anexo_inside_a_closed_quotation_is_text() -> None:
    text = (
        '---\ntitle: "Ley 1/1990, de tasas"\n---\n# Ley 1/1990, de tasas\n\n'
        "Artículo único. Modificación.\n\nSe modifica la Ley 9/1999. Queda así:\n\n"
        "«Artículo 200. Hecho imponible.\n\nANEXO\n\nEl texto citado. Sigue.»\n\n"
        "Disposición final única. Entrada en vigor.\n\nEl texto final. Otro.\n"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ley.md"
        path.write_text(text, encoding="utf-8")
        document = read_document(path)
    paths = [span.section_path[1:] for span in document.sections or ()]
    assert paths == [  # the title, a heading with no text of its own, starts the first
        ("Artículo único. Modificación.",),
        ("Disposición final única. Entrada en vigor.",),
    ]


def test_an_emphasised_units_number_joins_its_name_cleanly() -> None:
    text = (
        '---\ntitle: "Ley 1/1990, de tasas"\n---\n# Ley 1/1990, de tasas\n\n'
        "CAPÍTULO I\n\n*Sección 1.*\n\nDe la gestión\n\nArtículo 1. Objeto.\n\n"
        "El texto del artículo. Otro.\n"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ley.md"
        path.write_text(text, encoding="utf-8")
        document = read_document(path)
    titles = {title for span in document.sections or () for title in span.section_path}
    assert {"*Sección 1. De la gestión*", "Sección 1. De la gestión"} & titles


def test_a_code_style_laws_next_article_ends_an_open_quotation() -> None:
    text = (
        '---\ntitle: "Ley 1/2010, del Código"\n---\n# Ley 1/2010, del Código\n\n'
        "Artículo 511-1. Modificación.\n\nSe modifica la Ley 9/1999. Queda así:\n\n"
        "«Artículo 200. Hecho imponible.\n\nEl texto citado. Sin cierre.\n\n"
        "Artículo 511-2. Objeto.\n\nEl texto propio. Otro.\n"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ley.md"
        path.write_text(text, encoding="utf-8")
        document = read_document(path)
    labels = [span.section_label for span in document.sections or ()]
    assert "Artículo 511-2. Objeto." in labels


def _sections(text: str) -> tuple[str, list]:  # type: ignore[type-arg]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "BOE-A-2019-1.md"
        path.write_text(text, encoding="utf-8")
        document = read_document(path)
    return document.text.text, list(document.sections or ())


_DECREE = (
    '---\ntitle: "Real Decreto 5/2019, por el que se aprueba el Reglamento"\n---\n'
    "# Real Decreto 5/2019, por el que se aprueba el Reglamento\n\n"
    "Artículo único. Aprobación.\n\nSe aprueba el Reglamento. Sigue.\n\n"
    "Disposición adicional tercera. Seguro.\n\nEl seguro se acredita. Sigue.\n\n"
)


def _path_at(text: str, sections: list, words: str) -> tuple[str, ...]:  # type: ignore[type-arg]
    return section_of(sections, text.index(words)).section_path[1:]  # type: ignore[attr-defined, no-any-return]


def test_an_instruccion_in_plain_lines_is_a_unit_its_name_joined_never_a_chunk_alone() -> None:
    """BOE-A-2019-15228's shape: "INSTRUCCIÓN IF-01", its name on the next line, a table of
    contents marked "### ÍNDICE", then its body; the next instrucción closes it."""
    text, sections = _sections(
        _DECREE + "INSTRUCCIÓN IF-01\n\nTERMINOLOGÍA\n\n### ÍNDICE\n\n1. Generalidades.\n\n"
        "El índice sigue. Otro.\n\n### 1. Generalidades\n\nSon aplicables las definiciones. "
        "Otra.\n\nINSTRUCCIÓN IF-02\n\nCLASIFICACIÓN DE LOS REFRIGERANTES\n\n"
        "Los refrigerantes se clasifican. Otra.\n"
    )
    itc = "INSTRUCCIÓN IF-01. TERMINOLOGÍA"
    assert _path_at(text, sections, "El índice sigue") == (itc, "ÍNDICE")
    assert _path_at(text, sections, "Son aplicables") == (itc, "1. Generalidades")
    assert _path_at(text, sections, "Los refrigerantes") == (
        "INSTRUCCIÓN IF-02. CLASIFICACIÓN DE LOS REFRIGERANTES",
    )
    # the heading lines start the chunk of what follows: no section is headings alone
    held = section_of(sections, text.index("INSTRUCCIÓN IF-01"))
    assert "El índice sigue" in text[held.start : held.end]  # type: ignore[attr-defined]
    assert not [s for s in sections if s.section_path[-1] in ("INSTRUCCIÓN IF-01", "TERMINOLOGÍA")]


def test_an_instruccion_marked_in_markdown_holds_its_headings_and_its_anexo() -> None:
    text, sections = _sections(
        _DECREE + "## INSTRUCCIÓN TÉCNICA COMPLEMENTARIA ITC-RAT 01. TERMINOLOGÍA\n\n"
        "### ÍNDICE\n\nEl índice sigue. Otro.\n\n### CAPÍTULO I. Objeto\n\n"
        "##### Artículo 1. Objeto.\n\nEsta instrucción regula. Otra.\n\nANEXO I\n\n"
        "Modelo de certificado. Otro.\n\nSegundo párrafo. Otro.\n\n"
        "## INSTRUCCIÓN TÉCNICA COMPLEMENTARIA ITC-RAT 02. NORMAS\n\nLas normas son. Otra.\n"
    )
    itc = "INSTRUCCIÓN TÉCNICA COMPLEMENTARIA ITC-RAT 01. TERMINOLOGÍA"
    assert _path_at(text, sections, "El índice sigue") == (itc, "ÍNDICE")
    assert _path_at(text, sections, "Esta instrucción regula") == (
        itc,
        "CAPÍTULO I. Objeto",
        "Artículo 1. Objeto.",
    )
    assert _path_at(text, sections, "Modelo de certificado") == (itc, "ANEXO I")
    assert _path_at(text, sections, "Las normas son") == (
        "INSTRUCCIÓN TÉCNICA COMPLEMENTARIA ITC-RAT 02. NORMAS",
    )


def test_an_anexo_with_no_text_of_its_own_holds_the_instrucciones_after_it() -> None:
    """BOE-A-2001-8971's shape: "ANEXO I", then its instrucciones técnicas, each with its
    own ANEXO; an ANEXO with text of its own is closed by the next instrucción."""
    text, sections = _sections(
        _DECREE + "ANEXO I\n\n## Instrucción técnica complementaria MIE-APQ 1 «Líquidos»\n\n"
        "Los líquidos se almacenan. Otra.\n\nANEXO\n\nModelo de placa. Otro.\n\nSigue. Otro.\n\n"
        "## Instrucción técnica complementaria MIE-APQ 2 «Cloro»\n\nEl cloro se almacena. "
        "Otra.\n"
    )
    first = ("ANEXO I", "Instrucción técnica complementaria MIE-APQ 1 «Líquidos»")
    assert _path_at(text, sections, "Los líquidos") == first
    assert _path_at(text, sections, "Modelo de placa") == (*first, "ANEXO")
    assert _path_at(text, sections, "El cloro") == (
        "ANEXO I",
        "Instrucción técnica complementaria MIE-APQ 2 «Cloro»",
    )


def test_a_norm_cited_as_a_paragraph_of_its_own_is_text() -> None:
    """A norm cited, "Instrucción 3/2005, de 7 de abril, …", alone in its paragraph is no
    instrucción técnica: the text after it stays in its article."""
    text, sections = _sections(
        _DECREE.replace(
            "Se aprueba el Reglamento. Sigue.",
            "Se derogan:\n\n"
            "Instrucción 3/2005, de 7 de abril, de la Junta Electoral Central.\n\n"
            "Instrucción de 12 de marzo de 2020, de la Dirección General de los Registros.\n\n"
            "Y las demás normas. Sigue.",
        )
    )
    assert _path_at(text, sections, "Y las demás normas") == ("Artículo único. Aprobación.",)
