"""Web pages through the reading stage: a ``.html`` file, or a loader's page of markup,
becomes one page of its main content's text, sectioned by its headings, its site chrome
listed in its ``ReadReport.chrome``; chunks' offsets are positions in that text."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.documents import Document
from structure.test_html import NAVIGATION

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage
from langchain_asesoria.langchain import AsesoriaDocumentTransformer
from langchain_asesoria.reading import (
    FILE_KINDS,
    ReadOptions,
    kind_of_name,
    read_document,
    read_loaded_pages,
    split_document,
)
from langchain_asesoria.records import SECTION_PATH, START_INDEX
from langchain_asesoria.testing import ByteTokenization
from langchain_asesoria.tokenization import HuggingFaceTokenization

pytest.importorskip("lxml", reason="the html extra: pip install '.[html]'")

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "corpus" / "html").glob("*.html"))
CONFIG = ChunkingConfig(max_tokens=256, overlap_tokens=32)

PAGE = (
    "<html><body><nav>Inicio · Buscar</nav><main><h1>Ley 1/2024</h1>"
    "<h5>Artículo 1. Objeto.</h5><p>El impuesto grava la renta.</p>"
    '<p class="linkSubir"><a href="#top">Subir</a></p>'
    "<h5>Artículo 2. Ámbito.</h5><p>Se aplica en todo el territorio.</p></main></body></html>"
)


@pytest.mark.parametrize(
    ("name", "kind"),
    [("ley.html", "html"), ("LEY.HTM", "html"), ("https://www.boe.es/ley.html", "html")],
)
def test_web_pages_are_a_kind(name: str, kind: str) -> None:
    assert kind_of_name(name) == kind
    assert FILE_KINDS[Path(name).suffix.lower()] == kind


def test_a_file_and_a_loaders_markup_are_read_alike(tmp_path: Path) -> None:
    path = tmp_path / "ley.html"
    path.write_text(PAGE, encoding="utf-8")
    from_file = read_document(path)
    loaded = read_loaded_pages([LoadedPage(PAGE, 1, str(path))], "html")
    assert from_file == loaded
    assert from_file.kind == "html"
    assert from_file.structure == "html headings"
    (page,) = from_file.pages
    assert page.text == (
        "Ley 1/2024\n\nArtículo 1. Objeto.\n\nEl impuesto grava la renta.\n\n"
        "Artículo 2. Ámbito.\n\nSe aplica en todo el territorio."
    )
    assert from_file.report.chrome == (
        'outside the main content: nav "Inicio · Buscar" (15 characters)',
        'back-to-top link: "Subir"',
    )
    sections = from_file.sections or ()
    assert [s.section_path for s in sections] == [
        ("Ley 1/2024", "Artículo 1. Objeto."),
        ("Ley 1/2024", "Artículo 2. Ámbito."),
    ]


def test_text_a_loader_already_extracted_is_plain_text() -> None:
    """LangChain's ``BSHTMLLoader`` names the ``.html`` file but gives its text."""
    document = read_loaded_pages([LoadedPage("Ley 1/2024\n\nArtículo 1.", 1)], "html")
    assert document.kind == "text"
    assert document.pages[0].text == "Ley 1/2024\n\nArtículo 1."


def test_the_transformer_reads_markup_from_an_html_source(
    minilm: HuggingFaceTokenization,
) -> None:
    """LangChain's ``AsyncHtmlLoader`` gives a page's markup: chunked as the file is."""
    documents = AsesoriaDocumentTransformer(minilm, CONFIG).transform_documents(
        [Document(page_content=PAGE, metadata={"source": "https://example.org/ley.html"})]
    )
    expected = split_document(
        read_loaded_pages([LoadedPage(PAGE, 1)], "html"),
        ChunkMetadata(doc_id="ley"),
        config=CONFIG,
        tokenization=minilm,
    ).chunks
    assert [(d.metadata[START_INDEX], d.page_content) for d in documents] == [
        (c.start, c.embedding_text) for c in expected
    ]
    assert documents[0].metadata[SECTION_PATH] == "Ley 1/2024 > Artículo 1. Objeto."
    assert not any("Subir" in d.page_content or "Inicio" in d.page_content for d in documents)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_a_boe_page_chunks_with_sections_and_without_navigation(
    path: Path, minilm: HuggingFaceTokenization
) -> None:
    document = read_document(path)
    assert document.kind == "html"
    assert document.structure == "html headings"
    assert document.report.chrome
    chunked = split_document(
        document, ChunkMetadata(doc_id=path.stem), config=CONFIG, tokenization=minilm
    )
    chunks = chunked.chunks
    assert chunks
    with_section = sum(bool(c.metadata.section_path) for c in chunks)
    assert with_section >= 0.95 * len(chunks)
    for chunk in chunks:
        assert chunked.joined.text[chunk.start : chunk.end] == chunk.text
        assert chunk.token_count <= CONFIG.max_tokens
        for marker in NAVIGATION:
            assert marker not in chunk.embedding_text, (marker, chunk)


def test_reading_options_switch_the_page_chrome_and_headings() -> None:
    path = PAGES[0]
    whole = read_document(path, ReadOptions(html_main_content=False))
    assert whole.report.chrome == ()
    assert "Idioma actual" in whole.pages[0].text
    flat = read_document(path, ReadOptions(html_headings=False))
    assert flat.sections is None
    assert flat.pages == read_document(path).pages


BOE_PAGE = ROOT / "tests" / "data" / "boe" / "ley-37-1992-trimmed.html"


def test_a_consolidated_pages_sections_carry_their_blocks_id_and_link() -> None:
    """A BOE ``act.php`` page marks each block (``<div class="bloque" id="a1">``): its
    sections carry the block's id and the page's address at it, as a law's XML gives
    them; the law's id comes from the page's own links."""
    document = read_document(BOE_PAGE)
    assert dict(document.report.fields) == {"norm_id": "BOE-A-1992-28740"}
    blocks = {start.path[-1].split(".")[0]: dict(start.fields) for start in document.starts() or ()}
    assert blocks["Artículo 1"] == {
        "block_id": "a1",
        "url": "https://www.boe.es/buscar/act.php?id=BOE-A-1992-28740#a1",
    }
    assert blocks["Artículo 4"]["block_id"] == "a4"
    done = split_document(
        document, ChunkMetadata(doc_id="iva"), config=CONFIG, tokenization=ByteTokenization()
    )
    article_4 = [c for c in done.chunks if c.metadata.section_path[-1].startswith("Artículo 4")]
    assert article_4
    assert {dict(c.metadata.section_fields)["block_id"] for c in article_4} == {"a4"}


def test_a_page_without_blocks_gets_no_block_fields() -> None:
    for page in PAGES:  # the corpus's pages are doc.php: the text as published, no blocks
        document = read_document(page)
        assert not any(start.fields for start in document.starts() or ())
        assert document.report.fields == ()
