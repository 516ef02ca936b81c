"""A BOE page saved as text (one line per paragraph, no blank lines, the site around it)
and LangChain's ``BSHTMLLoader`` text of a BOE page: the site's chrome is blanked and
listed, the law's heading lines are its sections."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from boe_pages import CHROME_WORDS, BoeLaw, boe_laws, saved_as_text
from hypothesis import given, settings
from strategies import PROFILE, examples

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage
from langchain_asesoria.langchain import AsesoriaTextSplitter
from langchain_asesoria.reading import read_loaded_pages, read_text_document, split_document
from langchain_asesoria.structure.page_text import line_paragraphs
from langchain_asesoria.testing import ByteTokenization

DATA = Path(__file__).resolve().parents[1] / "data" / "boe"
CONFIG = ChunkingConfig(max_tokens=96, overlap_tokens=8)
#: What the site holds around the law, in no chunk either.
SITE = ("Ir a contenido", "Está Vd. en", "Aviso legal", "Accesibilidad")


@settings(PROFILE, max_examples=examples(40), deadline=None)
@given(boe_laws())
def test_a_generated_page_saved_as_text_gets_the_laws_paths(law: BoeLaw) -> None:
    text = saved_as_text(law)
    document = read_text_document(text)
    (page,) = document.pages
    assert len(page.text) == len(text)  # blanked, never cut: offsets stay exact
    assert [len(line) for line in page.text.split("\n")] == [len(line) for line in text.split("\n")]
    for word in (*CHROME_WORDS, *SITE):
        assert word not in page.text, word
    sections = document.sections or ()
    paths = list(dict.fromkeys(s.section_path for s in sections))
    units = [p for p in paths if re.match(r"«?(Artículo|Disposición)", p[-1])]
    assert units == law.expected_paths()
    assert not any(title.startswith("«") for path in paths for title in path)
    assert {s.section_path[0] for s in sections} == {law.title}
    labels = [line.split(":")[0] for line in document.report.chrome]
    assert len(labels) == len(set(labels))  # one line per kind


def _saved_text(path: Path) -> str:
    """The page as lxml renders its whole body: one line per block, no blank line."""
    from langchain_asesoria.structure.html import extract_html

    body = extract_html(path.read_text(encoding="utf-8"), main_content=False).text
    return re.sub(r"\n\s*\n", "\n", body) + "\n"


def _chunks(document: object) -> list[tuple[tuple[str, ...], str]]:
    chunked = split_document(
        document,  # type: ignore[arg-type]
        ChunkMetadata(doc_id="ley"),
        config=CONFIG,
        tokenization=ByteTokenization(),
    )
    for chunk in chunked.chunks:
        assert chunked.joined.text[chunk.start : chunk.end] == chunk.text
    return [(c.metadata.section_path, c.text) for c in chunked.chunks]


@pytest.mark.parametrize("name", ["ley-37-1992-trimmed.html", "rdl-4-2024-trimmed.html"])
def test_a_real_page_saved_as_text_has_sections_and_no_chrome(name: str) -> None:
    pytest.importorskip("lxml", reason="the html extra: pip install '.[html]'")
    text = _saved_text(DATA / name)
    assert line_paragraphs(text)
    document = read_text_document(text)
    assert document.structure == "paragraph lines"
    chunks = _chunks(document)
    assert sum(bool(path) for path, _ in chunks) >= 0.9 * len(chunks)
    for word in (*CHROME_WORDS, *SITE):
        assert not any(word in text for _, text in chunks), word
    titles = {title for path, _ in chunks for title in path}
    if name.startswith("ley-37"):
        assert "TÍTULO I. Delimitación del hecho imponible" in titles
    else:
        # The amended «Artículo 20.» is text of the Artículo 3 quoting it (issue 49).
        (quoting,) = {p[-1] for p, text in chunks if p and "«Artículo 20." in text}
        assert quoting.startswith("Artículo 3. Modificación de la Ley 35/2006")
        assert not any(title.startswith("«") for path, _ in chunks for title in path)


def test_bshtmlloaders_text_of_a_boe_page_through_the_splitter() -> None:
    pytest.importorskip("bs4", reason="BeautifulSoup, for LangChain's BSHTMLLoader")
    loaders = pytest.importorskip("langchain_community.document_loaders")
    path = DATA / "ley-37-1992-trimmed.html"
    documents = loaders.BSHTMLLoader(str(path)).load()
    chunks = AsesoriaTextSplitter(ByteTokenization(), CONFIG).split_documents(documents)
    assert chunks
    with_section = [c for c in chunks if c.metadata.get("section_path")]
    assert len(with_section) >= 0.9 * len(chunks)
    for word in (*CHROME_WORDS, *SITE):
        assert not any(word in c.page_content for c in chunks), word
    assert any(
        "TÍTULO I. Delimitación del hecho imponible > Capítulo I." in c.metadata["section_path"]
        for c in with_section
    )


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("Ley 1/2024.\nArtículo 1. Objeto.\nEl impuesto grava la renta.\n", True),
        ("Ley 1/2024.\n\nArtículo 1. Objeto.\n\nEl impuesto grava la renta.\n", False),
        ("Una línea.\n", False),
        ("Texto.\n[Bloque 2: #a1]\n", True),
    ],
)
def test_a_text_of_one_line_per_paragraph(text: str, lines: bool) -> None:
    assert line_paragraphs(text) is lines


def test_a_text_not_from_the_boe_keeps_every_line() -> None:
    text = "Ley 1/2024.\nArtículo 1. Objeto.\nAyuda\nSubir\nJurisprudencia\nArtículo 2. Fin.\n"
    document = read_text_document(text)
    assert document.pages[0].text == text
    assert document.report.chrome == ()


def test_paragraphs_with_blank_lines_are_read_as_before() -> None:
    text = "Ley 1/2024.\n\nArtículo 1. Objeto.\n\nTexto.\n\nArtículo 2. Fin.\n\nTexto.\n"
    assert read_text_document(text).structure != "paragraph lines"
    assert read_loaded_pages([LoadedPage(text, 1)], "text").report.chrome == ()


def test_a_consolidated_page_saved_as_text_carries_its_blocks_as_the_web_page_does() -> None:
    """The "[Bloque N: #a1]" lines (chrome, blanked) and the "Documento consolidado
    BOE-A-…" line give the sections the block ids and links the page's markup gives."""
    pytest.importorskip("lxml", reason="the html extra: pip install '.[html]'")
    from langchain_asesoria.reading import read_document

    page = DATA / "ley-37-1992-trimmed.html"
    as_text = read_text_document(_saved_text(page))
    as_markup = read_document(page)
    assert dict(as_text.report.fields) == {"norm_id": "BOE-A-1992-28740"}

    def blocks(document: object) -> dict[str, dict[str, object]]:
        return {
            start.path[-1]: dict(start.fields)
            for start in document.starts() or ()  # type: ignore[attr-defined]
            if start.path[-1].startswith("Artículo")
        }

    found = blocks(as_text)
    assert found == blocks(as_markup)
    assert [fields["block_id"] for fields in found.values()] == ["a1", "a2", "a4"]
    assert not any("[Bloque" in text for _, text in _chunks(as_text))


@settings(PROFILE, max_examples=examples(10), deadline=None)
@given(boe_laws())
def test_a_page_saved_as_text_without_its_law_named_gets_no_links(law: BoeLaw) -> None:
    document = read_text_document(saved_as_text(law))  # its block markers, no BOE id
    assert document.report.fields == ()
    assert not any(start.fields for start in document.starts() or ())
