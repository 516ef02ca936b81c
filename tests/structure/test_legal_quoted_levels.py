"""A quoted amended provision's heading, whatever its ``#`` level, holds none of the
amending law's own units (``legal.legal_levels``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria.structure.headings import sections_of
from langchain_asesoria.structure.legal import legal_unit, nest_quoted, relevel
from langchain_asesoria.structure.markdown import markdown_headings


def _paths(markdown: str) -> list[tuple[str, ...]]:
    headings = markdown_headings(markdown, glued=lambda t: legal_unit(t) is not None)
    return [
        span.section_path for span in sections_of(nest_quoted(relevel(headings)), len(markdown))
    ]


# As BOE-A-2012-9110 gives it: the amended CAPÍTULO at the law's own CAPÍTULO level.
AMENDING = (
    "# Ley 3/2012\n\n### CAPÍTULO V. Modificaciones\n\n##### Artículo 23. Modalidades.\n\n"
    "Se modifica así:\n\n{marks} «CAPÍTULO IV. De la extinción\n\nTexto.»\n\n"
    "#### «Sección 2.ª Despidos colectivos»\n\nTexto.»\n\n##### Artículo 24. Impugnación.\n\n"
    "Texto.\n\n##### Disposición adicional primera. Financiación.\n\nTexto.\n"
)


@given(st.sampled_from(["#", "##", "###", "####", "#####"]))
def test_a_quoted_heading_nests_in_its_article_and_closes_none_of_the_laws_units(
    marks: str,
) -> None:
    law, chapter, article = "Ley 3/2012", "CAPÍTULO V. Modificaciones", "Artículo 23. Modalidades."
    assert _paths(AMENDING.format(marks=marks)) == [
        (law, chapter, article),
        (law, chapter, article, "«CAPÍTULO IV. De la extinción"),
        (law, chapter, article, "«Sección 2.ª Despidos colectivos»"),
        (law, chapter, "Artículo 24. Impugnación."),
        (law, "Disposición adicional primera. Financiación."),
    ]


def test_a_disposicion_closes_a_quoted_heading_outside_any_article() -> None:
    # As BOE-A-2009-18732: a quoted TÍTULO after the amending article's own units.
    text = (
        "# Ley 18/2009\n\nTexto.\n\n##### Artículo único. Modificación.\n\nTexto.\n\n"
        "### CAPÍTULO PRIMERO. Infracciones\n\nTexto.\n\n## «TÍTULO VI. Del Registro\n\n"
        "Texto.»\n\n##### Disposición adicional primera. Referencias.\n\nTexto.\n"
    )
    assert _paths(text)[-1] == ("Ley 18/2009", "Disposición adicional primera. Referencias.")
