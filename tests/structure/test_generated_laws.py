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
