"""Markdown HTML comments: only the comment is blanked; an unclosed one is kept and
reported with its line; every word a reader sees reaches the page text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria.reading import Removal, read_text_document
from langchain_asesoria.structure.markdown import comments

markdown_it = pytest.importorskip("markdown_it", reason="markdown-it-py renders the text")
lxml_html = pytest.importorskip("lxml.html", reason="lxml reads the rendered page")


@pytest.mark.parametrize(
    ("text", "kept", "removals"),
    [
        (
            "<!-- nota --> Artículo 1. Tributan al 19 por 100.\n",
            "Artículo 1. Tributan al 19 por 100.",
            [Removal("comment", 1, 1, "<!-- nota -->")],
        ),
        (
            "Antes.\n\n<!-- sin cierre\nhasta el final\n",
            "<!-- sin cierre\nhasta el final",
            [Removal("unclosed comment", 1, 3, "<!-- sin cierre")],
        ),
        (
            "<!--\nvarias\nlíneas --> cola\nDespués.\n",
            "cola\nDespués.",
            [Removal("comment", 1, 1, "<!--\nvarias\nlíneas -->")],
        ),
        (
            "<!-- a --> b <!-- c --> d\n",
            "b",
            [Removal("comment", 1, 1, "<!-- a -->"), Removal("comment", 1, 1, "<!-- c -->")],
        ),
        ("<!--> x\n", "x", [Removal("comment", 1, 1, "<!-->")]),
        ("Texto <!-- en línea --> sigue.\n", "Texto <!-- en línea --> sigue.", []),
    ],
)
def test_only_the_comment_is_blanked(text: str, kept: str, removals: list[Removal]) -> None:
    document = read_text_document(text, "markdown")
    (page,) = document.pages
    assert len(page.text) == len(text)
    assert kept in page.text
    assert list(document.report.removals) == removals
    assert document.report.comments == sum(r.kind == "comment" for r in removals)


def test_removal_counts_give_one_line_per_kind() -> None:
    text = "<!-- a -->\n<!-- b --> Texto.\n<!-- sin cierre\n"
    report = read_text_document(text, "markdown").report
    assert report.removal_counts() == (("comment", 2), ("unclosed comment", 1))


_WORD = st.sampled_from(["Artículo", "cuota", "19", "euros", "tributan", "ñandú"])
_LINE = st.one_of(
    st.lists(_WORD, min_size=1, max_size=4).map(" ".join),
    st.tuples(st.lists(_WORD, max_size=3), st.lists(_WORD, max_size=3)).map(
        lambda pair: f"<!-- {' '.join(pair[0])} --> {' '.join(pair[1])}"
    ),
    st.lists(_WORD, max_size=3).map(lambda words: "<!-- " + " ".join(words)),
    st.lists(_WORD, max_size=3).map(lambda words: " ".join(words) + " -->"),
    st.just(""),
)


@given(st.lists(_LINE, max_size=12).map("\n".join))
def test_every_visible_word_reaches_the_page(text: str) -> None:
    rendered = markdown_it.MarkdownIt("commonmark").render(text)
    visible = lxml_html.fromstring(f"<div>{rendered}</div>").text_content().split()
    document = read_text_document(text, "markdown")
    words = document.pages[0].text.split()
    assert len(document.pages[0].text) == len(text)
    for word in visible:
        assert word in words
    for start, end in comments(text).closed:
        assert text[start:end].startswith("<!--")
        assert text[start:end].endswith(">")
