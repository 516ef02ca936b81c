"""Markup inside a Markdown text (``structure.markup``), blanked by the reading stage as
comments are: every line and every other character where it was."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, examples

from langchain_asesoria.reading import read_text_document
from langchain_asesoria.structure.markup import markup_spans

#: Two lines of BOE-A-2022-5521 as legalize-es gives them (Fuente: Agencia Estatal
#: Boletín Oficial del Estado; Markdown by the Legalize project).
NOTE = (
    "###### Artículo 10. Materias.\n\n"
    "El currículo incluirá las materias comunes.\n\n"
    "> <small>Redactado conforme a la corrección de errores publicada en BOE núm. 247, "
    "de 14 de octubre de 2022. [Ref. BOE-A-2022-16754]"
    "(https://www.boe.es/buscar/doc.php?id=BOE-A-2022-16754)</small>\n\n"
    "###### Artículo 11. Materias específicas.\n\nTexto.\n"
)


def _blanked(text: str) -> str:
    (page,) = read_text_document(text, "markdown").pages
    return page.text


def test_a_boe_note_reads_as_its_words_offsets_kept() -> None:
    blanked = _blanked(NOTE)
    assert len(blanked) == len(NOTE)
    assert " ".join(blanked.split("\n")[4].split()) == (
        "> Redactado conforme a la corrección de errores publicada en BOE núm. 247, de 14 de "
        "octubre de 2022. Ref. BOE-A-2022-16754"
    )
    for mark in ("<small>", "</small>", "](", "https://"):
        assert mark not in blanked
    report = read_text_document(NOTE, "markdown").report
    assert [r.text for r in report.removals if r.kind == "markup"] == [
        "<small>",
        "[",
        "](https://www.boe.es/buscar/doc.php?id=BOE-A-2022-16754)",
        "</small>",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "a < b y c > d",
        "El tipo es <= 10 %.",
        "<https://www.boe.es> es un enlace automático.",
        "`<small>` en código.",
        "```\n<small>en un bloque de código</small>\n```",
        "Un corchete [sin enlace] (y un paréntesis).",
        "![figura](imagen.png)",
    ],
)
def test_what_is_not_markup_stays(text: str) -> None:
    assert markup_spans(text) == []


_words = st.sampled_from(["renta", "cuota", "ñandú", "base", "Artículo 5.", "€"])
_tags = st.sampled_from(["<small>", "</small>", "<br/>", '<a href="x">', "</a>", "<sup>"])
_links = st.builds(
    lambda text, url: (f"[{text}]({url})", text),
    st.sampled_from(["Ref. BOE-A-2022-16754", "art. 5", "aquí"]),
    st.sampled_from(["https://www.boe.es/x?id=1", "/buscar/doc.php", "<a b>"]),
)


@settings(PROFILE, max_examples=examples(100), deadline=None)
@given(st.lists(st.one_of(_words.map(lambda w: (w, w)), _tags.map(lambda t: (t, "")), _links)))
def test_blanked_markup_keeps_every_words_place(parts: list[tuple[str, str]]) -> None:
    text = " ".join(raw for raw, _ in parts) + "\n"
    blanked = _blanked(text)
    assert len(blanked) == len(text)
    assert blanked.split() == " ".join(kept for _, kept in parts).split()
    for position, character in enumerate(blanked):
        assert character in (text[position], " ")
