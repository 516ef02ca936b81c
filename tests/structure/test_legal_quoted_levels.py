"""A quoted amended provision's heading, whatever its ``#`` level, is text of the article
quoting it: never a section, and it closes none of the amending law's own units
(``legal.law_headings``, ``quotations.own_headings``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria.structure.headings import sections_of
from langchain_asesoria.structure.legal import law_headings, legal_unit, relevel
from langchain_asesoria.structure.markdown import markdown_headings


def _sections(markdown: str):  # type: ignore[no-untyped-def]
    headings = markdown_headings(markdown, glued=lambda t: legal_unit(t) is not None)
    return sections_of(relevel(law_headings(markdown, headings)), len(markdown))


def _paths(markdown: str) -> list[tuple[str, ...]]:
    return [span.section_path for span in _sections(markdown)]


# As BOE-A-2012-9110 gives it: the amended CAPÍTULO at the law's own CAPÍTULO level.
AMENDING = (
    "# Ley 3/2012\n\n### CAPÍTULO V. Modificaciones\n\n##### Artículo 23. Modalidades.\n\n"
    "Se modifica así:\n\n{marks} «CAPÍTULO IV. De la extinción\n\nTexto.»\n\n"
    "#### «Sección 2.ª Despidos colectivos»\n\nTexto.»\n\n##### Artículo 24. Impugnación.\n\n"
    "Texto.\n\n##### Disposición adicional primera. Financiación.\n\nTexto.\n"
)


@given(st.sampled_from(["#", "##", "###", "####", "#####"]))
def test_a_quoted_heading_is_its_articles_text_and_closes_none_of_the_laws_units(
    marks: str,
) -> None:
    law, chapter, article = "Ley 3/2012", "CAPÍTULO V. Modificaciones", "Artículo 23. Modalidades."
    text = AMENDING.format(marks=marks)
    sections = _sections(text)
    assert [span.section_path for span in sections] == [
        (law, chapter, article),
        (law, chapter, "Artículo 24. Impugnación."),
        (law, "Disposición adicional primera. Financiación."),
    ]
    amending = text[sections[0].start : sections[0].end]
    assert "«CAPÍTULO IV. De la extinción" in amending
    assert "«Sección 2.ª Despidos colectivos»" in amending


def test_a_disposicion_closes_a_quoted_heading_outside_any_article() -> None:
    # As BOE-A-2009-18732: a quoted TÍTULO after the amending article's own units.
    text = (
        "# Ley 18/2009\n\nTexto.\n\n##### Artículo único. Modificación.\n\nTexto.\n\n"
        "### CAPÍTULO PRIMERO. Infracciones\n\nTexto.\n\n## «TÍTULO VI. Del Registro\n\n"
        "Texto.»\n\n##### Disposición adicional primera. Referencias.\n\nTexto.\n"
    )
    assert _paths(text)[-1] == ("Ley 18/2009", "Disposición adicional primera. Referencias.")
