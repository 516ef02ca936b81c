"""HTML comment blocks in Markdown: blanked, never chunked, offsets kept, as CommonMark."""

from __future__ import annotations

import pytest

from langchain_asesoria.reading import ReadOptions, read_text_document
from langchain_asesoria.structure.markdown import comment_blocks

markdown_it = pytest.importorskip("markdown_it", reason="markdown-it-py checks the rule")

CASES = [
    "# Ley\n\n<!-- $id:articulo:20 -->\n##### Artículo 20\n\nTexto.\n",
    "Antes.\n\n<!--\nvarias\nlíneas -->\nDespués.\n",
    "<!-- una -->\n<!-- dos -->\nTexto con ñ y 20 €.\n",
    "```\n<!-- en código -->\n```\n\n   <!-- sangrado -->\n",
    "<!---->\n<!-->\nTexto.\n",
    "Texto <!-- en línea --> sigue.\n",
    "<!-- sin cierre\nhasta el final\n",
]


def _commonmark_blocks(text: str) -> list[tuple[int, int]]:
    """The lines of each type-2 HTML block (a comment) markdown-it-py finds."""
    lines = text.splitlines(keepends=True)
    starts = [sum(len(line) for line in lines[:i]) for i in range(len(lines) + 1)]
    blocks = []
    for token in markdown_it.MarkdownIt("commonmark").parse(text):
        if token.type == "html_block" and token.content.lstrip().startswith("<!--"):
            first, last = token.map
            end = starts[last] - (len(lines[last - 1]) - len(lines[last - 1].rstrip("\r\n")))
            blocks.append((starts[first], end))
    return blocks


@pytest.mark.parametrize("text", CASES)
def test_comment_blocks_are_commonmarks(text: str) -> None:
    assert comment_blocks(text) == _commonmark_blocks(text)


def test_a_comment_is_blanked_and_never_a_chunk_of_its_own() -> None:
    text = CASES[0] * 3 + "##### Artículo 21\n\nOtro texto.\n"
    document = read_text_document(text, "markdown")
    (page,) = document.pages
    assert len(page.text) == len(text)
    assert "<!--" not in page.text
    assert document.report.comments == 3
    kept = read_text_document(text, "markdown", ReadOptions(html_comments=False))
    assert kept.pages[0].text == text
