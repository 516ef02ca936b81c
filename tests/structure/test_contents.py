"""A table of contents inside a law (``structure/contents.py``): the entries its heading
lists, found again below it as lines of their own, are the headings of the text it lists,
so the text is cited under its entry and not under "ÍNDICE" (BOE-A-2019-15228's
instrucciones técnicas: "### ÍNDICE", "1. Generalidades.", then "**1. Generalidades.**")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, examples

from langchain_asesoria.models import SectionSpan
from langchain_asesoria.reading import read_text_document
from langchain_asesoria.structure.contents import listed_headings
from langchain_asesoria.structure.headings import Heading

_LAW = "# Real Decreto 552/2019, por el que se aprueba el Reglamento\n\n"
_ARTICLE = "##### Artículo único. Aprobación.\n\nSe aprueba el Reglamento.\n\n"


def _sections(body: str) -> tuple[SectionSpan, ...]:
    return read_text_document(_LAW + _ARTICLE + body, "markdown").sections or ()


def _path_at(body: str, words: str) -> tuple[str, ...]:
    """The section path of the text that holds ``words``."""
    text = _LAW + _ARTICLE + body
    at = text.index(words)
    section = next(s for s in _sections(body) if s.start <= at < s.end)
    return section.section_path[1:]


_INSTRUCCION = (
    "INSTRUCCIÓN IF-01\n\nTERMINOLOGÍA\n\n### ÍNDICE\n\n"
    "1. Generalidades.\n\n2. Definiciones.\n\n2.1 Sistemas de refrigeración.\n\n"
    "**1. Generalidades.**\n\nA los efectos del presente Reglamento, son aplicables.\n\n"
    "**2. Definiciones:**\n\n**2.1 Sistemas de refrigeración.**\n\n"
    "### Tabla 1\n\nConjunto de componentes interconectados.\n\n"
    "INSTRUCCIÓN IF-02\n\nREFRIGERANTES\n\n### ÍNDICE\n\n1. Generalidades.\n\n"
    "**1. Generalidades.**\n\nLos refrigerantes se clasifican.\n"
)


def test_the_text_an_index_lists_is_cited_under_its_entries() -> None:
    instruccion = "INSTRUCCIÓN IF-01. TERMINOLOGÍA"
    assert _path_at(_INSTRUCCION, "son aplicables") == (instruccion, "1. Generalidades.")
    assert _path_at(_INSTRUCCION, "Conjunto de componentes") == (
        instruccion,
        "2. Definiciones:",
        "2.1 Sistemas de refrigeración.",
        "Tabla 1",  # a caption inside the listed text hangs below the entry it is in
    )
    assert _path_at(_INSTRUCCION, "2.1 Sistemas de refrigeración.\n\n**1.") == (
        instruccion,
        "ÍNDICE",  # the index's own lines stay the index's
    )


def test_an_index_reaches_to_the_next_unit_only() -> None:
    """IF-02's entries are matched in IF-02's text, not in IF-01's."""
    assert _path_at(_INSTRUCCION, "Los refrigerantes se clasifican") == (
        "INSTRUCCIÓN IF-02. REFRIGERANTES",
        "1. Generalidades.",
    )


def test_roman_and_unnumbered_entries_and_a_marked_repeat() -> None:
    body = (
        "ANEXO\n\n### ÍNDICE\n\nI. Objetivos estratégicos\n\nII. Criterios comunes\n\n"
        "Criterios para la coordinación institucional.\n\n"
        "El desarrollo de cada apartado del índice se muestra a continuación:\n\n"
        "## I. Objetivos estratégicos\n\nLos objetivos son los siguientes.\n\n"
        "II. Criterios comunes\n\nCriterios para la coordinación institucional\n\n"
        "Las administraciones cooperarán.\n"
    )
    assert _path_at(body, "Los objetivos son") == ("ANEXO", "I. Objetivos estratégicos")
    assert _path_at(body, "cooperarán") == (
        "ANEXO",
        "II. Criterios comunes",
        "Criterios para la coordinación institucional",
    )


def test_no_index_when_no_entry_follows_its_heading() -> None:
    text = "### ÍNDICE\n\nEl índice se publica aparte.\n\n1. Generalidades.\n\nTexto.\n"
    heading = Heading(0, len("### ÍNDICE"), 3, "ÍNDICE", False)
    assert listed_headings(text, [heading]) == [heading]


def test_entries_never_repeated_leave_the_headings_as_they_are() -> None:
    text = "### Índice\n\n1. Objeto.\n\n2. Ámbito.\n\nEl objeto es el que sigue.\n"
    heading = Heading(0, len("### Índice"), 3, "Índice", False)
    assert listed_headings(text, [heading]) == [heading]


_WORDS = ("requisitos", "generales", "manipulación", "refrigerantes", "fugas", "registro")


@st.composite
def _indexed(draw: st.DrawFn) -> tuple[str, list[str]]:
    """An index of numbered entries, then a text where some of them come back, in order,
    with or without emphasis and a closing mark: (text, the entries' lines)."""
    names = draw(
        st.lists(
            st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4).map(" ".join),
            min_size=1,
            max_size=6,
            unique=True,
        )
    )
    entries = [f"{number}. {name.capitalize()}." for number, name in enumerate(names, 1)]
    parts = ["### ÍNDICE", *entries]
    repeated = [entry for entry in entries if draw(st.booleans())]
    for entry in repeated:
        mark = draw(st.sampled_from(("", "**", "*")))
        parts += [f"{mark}{entry.rstrip('.')}{draw(st.sampled_from(('.', ':', '')))}{mark}"]
        parts += ["Texto de la instrucción, con ñ, € y acentos: año 2024."]
    return "\n\n".join(parts) + "\n", repeated


@settings(PROFILE, max_examples=examples(100), deadline=None)
@given(case=_indexed())
def test_each_repeated_entry_and_nothing_else_becomes_a_heading(
    case: tuple[str, list[str]],
) -> None:
    text, repeated = case
    index = Heading(0, len("### ÍNDICE"), 3, "ÍNDICE", False)
    found = listed_headings(text, [index])
    assert found[0] == index
    added = found[1:]
    assert len(added) == len(repeated)
    for heading, entry in zip(added, repeated, strict=True):
        line = text[heading.start : heading.end]
        assert heading.title == line.strip("*").strip()
        assert heading.title.rstrip(".:").strip("*") == entry.rstrip(".")
        assert heading.level == index.level
        assert not heading.body_is_empty
    assert [h.start for h in added] == sorted(h.start for h in added)
