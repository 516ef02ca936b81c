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
from langchain_asesoria.structure.contents import listed_headings, listed_units_as_text
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


_LISTED = (
    "ANEXO III\n\nPropuesta técnica\n\nContenido:\n\n"
    "Capítulo 1.\u2003Capacidad intelectual límite.\n\nCapítulo 2.\u2003Otros trastornos.\n\n"
    "Capítulo 3.\u2003El sistema nervioso.\n\nApéndice A. Tabla de valores combinados.\n\n"
    "### Capítulo 1\n\nCapacidad intelectual límite.\n\nEl texto del capítulo primero.\n\n"
    "### Capítulo 2\n\nOtros trastornos.\n\nEl texto del capítulo segundo.\n"
)


def test_a_list_of_contents_naming_units_is_text() -> None:
    """ "Contenido:" then "Capítulo 1." … "Capítulo 3.", nothing between them, and the
    chapters further on (BOE-A-2022-17105): the list is the ANEXO's text, no chapter of
    its own, and the chapters below are cited by their own headings."""
    titles = [section.section_path[1:] for section in _sections(_LISTED)]
    assert ("ANEXO III. Propuesta técnica",) in titles
    assert not any("Capítulo 3" in " ".join(path) for path in titles)
    assert _path_at(_LISTED, "Capítulo 2.\u2003Otros") == ("ANEXO III. Propuesta técnica",)
    assert _path_at(_LISTED, "El texto del capítulo segundo")[-1].startswith("Capítulo 2")


@given(
    gap=st.sampled_from(["", "Texto del capítulo.\n\n"]),
    again=st.booleans(),
    count=st.integers(min_value=2, max_value=5),
)
@settings(max_examples=examples(20), deadline=None)
def test_units_in_a_row_are_a_list_only_when_three_follow_one_another_and_come_again(
    gap: str, again: bool, count: int
) -> None:
    """Empty CAPÍTULOs one after another are headings (the last one holds the article
    after them) unless there are three or more, with nothing between them, and the first
    is found again later: then they are text."""
    listed = "".join(f"CAPÍTULO {n}. Materia {n}\n\n{gap}" for n in range(1, count + 1))
    later = "CAPÍTULO 1\n\nTexto del primero de verdad.\n" if again else ""
    body = f"{listed}Artículo 2. Objeto.\n\nEl objeto.\n\n{later}"
    article = next(
        s.section_path for s in _sections(body) if s.section_path[-1].startswith("Artículo 2")
    )
    is_list = not gap and again and count >= 3
    assert article[-2].startswith(f"CAPÍTULO {count}") is not is_list


def test_a_list_of_provisions_by_their_labels_alone_is_no_list_of_contents() -> None:
    """ "Disposición adicional primera.", "… segunda.", "… tercera." with no names (a rule
    enumerating the provisions it excepts, BOE-A-2019-4671) is no list of contents: an
    entry names its unit. With names, the same lines are one."""
    words = ("primera", "segunda", "tercera")
    for named, listed in ((False, False), (True, True)):
        lines = [f"Disposición adicional {word}.{' Plazos.' if named else ''}" for word in words]
        text = "\n\n".join([*lines, "Disposición adicional primera. Plazos.", "El plazo."])
        starts = [text.index(line) for line in lines] + [text.rindex("Disposición adicional")]
        titles = [*lines, "Disposición adicional primera. Plazos."]
        headings = [
            Heading(start, start + len(title), 5, title)
            for start, title in zip(starts, titles, strict=True)
        ]
        kept = listed_units_as_text(text, headings)
        assert (len(kept) == 1) is listed, kept
