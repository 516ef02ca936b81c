"""LangChain's own PDF loaders' pages get what ``PdfPageLoader``'s get.

``PyPDFLoader``, ``PyMuPDFLoader`` and ``PDFPlumberLoader`` (``langchain-community``, the
``loaders`` extra) give the BOE regulation's pages with "BOLETÍN OFICIAL DEL ESTADO /
LEGISLACIÓN CONSOLIDADA / Página N" on each and no sections. Through
``AsesoriaTextSplitter.split_documents`` and ``AsesoriaDocumentTransformer.
transform_documents`` they are read as their PDF (``reading.loaded_pdf``): no chunk keeps
a running header or footer, and the article chunks carry their sections, as many as
with ``PdfPageLoader`` (measured with ``python -m benchmarks.any_loader``: the same 629
of 828 splitter chunks for ``PyPDFLoader``, 629 of 845 for ``PyMuPDFLoader``, 596 of 778
for ``PDFPlumberLoader``).
"""

from __future__ import annotations

import importlib
import random
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document

from langchain_asesoria import ChunkingConfig
from langchain_asesoria.engine import join_pages
from langchain_asesoria.errors import InvalidPagesError
from langchain_asesoria.langchain import (
    AsesoriaDocumentTransformer,
    AsesoriaTextSplitter,
    PdfPageLoader,
)
from langchain_asesoria.langchain.documents import original_text
from langchain_asesoria.langchain.page_structure import (
    OUTLINE_FILE,
    OUTLINE_MISSING,
    SECTIONS_FROM,
)
from langchain_asesoria.langchain.sources import SourceReader
from langchain_asesoria.models import LoadedPage
from langchain_asesoria.pdf.legal_lines import pdf_legal_lines
from langchain_asesoria.reading import ReadOptions, read_loaded_pages
from langchain_asesoria.records import (
    END_INDEX,
    PAGE,
    SECTION_LABEL,
    SECTION_PATH,
    START_INDEX,
)
from langchain_asesoria.testing import ByteTokenization
from langchain_asesoria.tokenization import HuggingFaceTokenization

ROOT = Path(__file__).resolve().parents[2]
BOE = ROOT / "corpus" / "pdf" / "boe_consolidado_BOE-A-2007-6820_rd_439_2007_reglamento_irpf.pdf"
CONFIG = ChunkingConfig(max_tokens=256, overlap_tokens=32)

#: The BOE's running header and footer lines (each stands alone on its line).
FURNITURE = re.compile(
    r"^\s*(?:BOLETÍN OFICIAL DEL ESTADO|LEGISLACIÓN CONSOLIDADA|Página \d+)\s*$", re.MULTILINE
)

#: Loader class name -> (module it needs, the mark of its test).
LOADERS = {
    "PyPDFLoader": "pypdf",
    "PyMuPDFLoader": "pymupdf",
    "PDFPlumberLoader": "pdfplumber",
}


def _loader(name: str) -> Callable[[str], Any]:
    pytest.importorskip("langchain_community", reason="the loaders extra: pip install '.[loaders]'")
    pytest.importorskip(LOADERS[name], reason="the loaders extra: pip install '.[loaders]'")
    module = importlib.import_module("langchain_community.document_loaders")
    loader: Callable[[str], Any] = getattr(module, name)
    return loader


_PAGES: dict[str, list[Document]] = {}


def _pages(name: str) -> list[Document]:
    """The BOE regulation's pages as the loader gives them (read once per test run)."""
    if name not in _PAGES:
        if name == "PdfPageLoader":
            _PAGES[name] = PdfPageLoader(BOE).load()
        elif name == "PdfPageLoader, printed lines":
            _PAGES[name] = PdfPageLoader(BOE, paragraphs=False).load()
        else:
            _PAGES[name] = _loader(name)(str(BOE)).load()
    return [Document(d.page_content, metadata=dict(d.metadata)) for d in _PAGES[name]]


def _split(documents: list[Document], tok: HuggingFaceTokenization) -> list[Document]:
    return AsesoriaTextSplitter(tok, CONFIG).split_documents(documents)


def _transform(documents: list[Document], tok: HuggingFaceTokenization) -> list[Document]:
    return AsesoriaDocumentTransformer(tok, CONFIG).transform_documents(documents)


WAYS = {"split_documents": _split, "transform_documents": _transform}


def _articles(chunks: list[Document]) -> int:
    return sum(str(c.metadata.get(SECTION_LABEL, "")).startswith("Artículo") for c in chunks)


LOADER_PARAMS = [
    pytest.param("PyPDFLoader"),
    pytest.param("PyMuPDFLoader"),
    pytest.param("PDFPlumberLoader", marks=pytest.mark.slow),  # about 15 s to load
]


@pytest.mark.parametrize("way", sorted(WAYS))
@pytest.mark.parametrize("name", LOADER_PARAMS)
def test_a_loaders_pages_lose_their_furniture_and_gain_sections(
    name: str, way: str, minilm: HuggingFaceTokenization
) -> None:
    pages = _pages(name)
    assert sum(bool(FURNITURE.search(p.page_content)) for p in pages) == len(pages)
    chunks = WAYS[way](pages, minilm)
    ours = WAYS[way](_pages("PdfPageLoader"), minilm)
    assert [c.page_content for c in chunks if FURNITURE.search(c.page_content)] == []
    assert all(c.metadata.get(SECTION_PATH) for c in chunks)
    # The article chunks carry their article: as many as with our own loader, give or
    # take what each extractor's text makes of the chunks (measured: within 6%).
    assert _articles(chunks) >= 0.9 * _articles(ours) > 500
    assert {c.metadata[SECTIONS_FROM] for c in chunks} == {"pdf outline"}
    assert {c.metadata[OUTLINE_FILE] for c in chunks} == {str(BOE)}


def test_pypdf_loader_pages_chunk_as_pdf_page_loader_pages(
    minilm: HuggingFaceTokenization,
) -> None:
    """Same extraction (pypdf), same reading: the same chunks through the splitter.

    A loader's pages have no layout, so they keep their printed lines: ours read the
    same way (no paragraphs).
    """
    ours = _split(_pages("PdfPageLoader, printed lines"), minilm)
    theirs = _split(_pages("PyPDFLoader"), minilm)
    assert [(c.page_content, c.metadata[SECTION_PATH]) for c in theirs] == [
        (c.page_content, c.metadata[SECTION_PATH]) for c in ours
    ]


def _cited_pages_hold_their_text(chunks: list[Document], pages: list[Document]) -> None:
    """Each chunk's opening words stand in the page it cites, as the loader gave it."""
    by_page = {p.metadata["page"] + 1: p.page_content for p in pages}
    for chunk in chunks:
        opening = " ".join(original_text(chunk).split()[:6])
        assert opening in " ".join(by_page[int(chunk.metadata[PAGE])].split())


def test_a_few_pages_out_of_order_are_read_and_cited_right(
    minilm: HuggingFaceTokenization,
) -> None:
    pages = _pages("PyPDFLoader")[30:36]
    shuffled = pages[:]
    random.Random(7).shuffle(shuffled)
    chunks = _transform(shuffled, minilm)
    assert chunks == _transform(pages, minilm)
    assert [c.page_content for c in chunks if FURNITURE.search(c.page_content)] == []
    assert _articles(chunks) > 0
    _cited_pages_hold_their_text(chunks, pages)
    split = _split(shuffled, minilm)
    assert sorted(c.page_content for c in split) == sorted(
        c.page_content for c in _split(pages, minilm)
    )
    for chunk in split:  # each page on its own: the loader's 0-based page plus one
        page = next(p for p in pages if p.metadata["page"] + 1 == chunk.metadata[PAGE])
        assert original_text(chunk) in page.page_content


def test_two_pages_lose_the_furniture_their_file_shows_and_are_cited_right(
    minilm: HuggingFaceTokenization, tmp_path: Path
) -> None:
    """Two pages give nothing to compare: the lines removed from the file's own pages
    say which are furniture. Without the file nothing is removed. The text before the
    first title on them has no section (it began on a page not given)."""
    pages = _pages("PyPDFLoader")[40:42]
    chunks = _transform(pages, minilm)
    assert [c.page_content for c in chunks if FURNITURE.search(c.page_content)] == []
    sectioned = [bool(c.metadata.get(SECTION_PATH)) for c in chunks]
    assert any(sectioned)
    assert sectioned == sorted(sectioned)  # once a section opens, every chunk has one
    _cited_pages_hold_their_text(chunks, pages)
    one = _transform(pages[:1], minilm)
    assert [c.page_content for c in one if FURNITURE.search(c.page_content)] == []
    for page in pages:
        page.metadata["source"] = str(tmp_path / "reglamento.pdf")
    assert any(FURNITURE.search(c.page_content) for c in _transform(pages, minilm))


def test_without_the_file_legal_heading_lines_give_the_sections(
    minilm: HuggingFaceTokenization, tmp_path: Path
) -> None:
    pages = _pages("PyPDFLoader")
    missing = str(tmp_path / "reglamento.pdf")
    for page in pages:
        page.metadata["source"] = missing
    chunks = _split(pages, minilm)
    assert [c.page_content for c in chunks if FURNITURE.search(c.page_content)] == []
    assert {c.metadata[SECTIONS_FROM] for c in chunks} == {"pdf legal heading lines"}
    assert {c.metadata[OUTLINE_MISSING] for c in chunks} == {
        f"no file {missing!r} to read the outline from"
    }
    assert _articles(chunks) >= 0.9 * _articles(_split(_pages("PdfPageLoader"), minilm))
    paths = {str(c.metadata.get(SECTION_PATH)) for c in chunks}
    assert any("TÍTULO I > CAPÍTULO I > Artículo 1. Indemnizaciones" in path for path in paths)


def test_a_file_with_fewer_pages_is_never_used(
    minilm: HuggingFaceTokenization, tmp_path: Path
) -> None:
    """Another file under the pages' name: its outline could place nothing right."""
    other = tmp_path / "reglamento.pdf"
    shutil.copy(
        ROOT
        / "examples"
        / "data"
        / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf",
        other,
    )
    pages = _pages("PyPDFLoader")
    for page in pages:
        page.metadata["source"] = str(other)
    chunks = _transform(pages, minilm)
    missing = {str(c.metadata[OUTLINE_MISSING]) for c in chunks}
    assert len(missing) == 1
    assert "but the pages reach page 108: another file" in missing.pop()
    assert {c.metadata[SECTIONS_FROM] for c in chunks} == {"pdf legal heading lines"}


def test_edited_text_loses_only_its_own_section(minilm: HuggingFaceTokenization) -> None:
    pages = _pages("PyPDFLoader")
    page = next(p for p in pages if "Artículo 3.  Exención" in p.page_content)
    page.page_content = page.page_content.replace("Artículo 3.  Exención", "Exención")
    chunks = _transform(pages, minilm)
    labels = {str(c.metadata.get(SECTION_LABEL)) for c in chunks}
    assert not any(label.startswith("Artículo 3.") for label in labels)
    assert any(label.startswith("Artículo 4.") for label in labels)
    assert [c.page_content for c in chunks if FURNITURE.search(c.page_content)] == []


def test_a_repeated_page_is_an_error(minilm: HuggingFaceTokenization) -> None:
    pages = _pages("PyPDFLoader")[:5]
    with pytest.raises(InvalidPagesError, match="page 3 appears twice"):
        _split([*pages, pages[2]], minilm)


def test_switched_off_reading_leaves_the_pages_as_given(minilm: HuggingFaceTokenization) -> None:
    pages = _pages("PyPDFLoader")[:10]
    reading = ReadOptions(outline_sections=False, remove_page_furniture=False)
    chunks = AsesoriaTextSplitter(minilm, CONFIG, reading=reading).split_documents(pages)
    assert any(FURNITURE.search(c.page_content) for c in chunks)
    assert {c.metadata[SECTIONS_FROM] for c in chunks} == {"none"}


@pytest.mark.parametrize(
    ("line", "heading"),
    [
        ("Artículo 3.  Exención de determinados premios literarios.", True),
        ("Artículo 7 bis.  Otra cosa.", True),
        ("Artículo único.  Aprobación del Reglamento", True),
        ("TÍTULO II", True),
        ("CAPÍTULO PRELIMINAR", True),
        ("Sección 1.ª Rendimientos del trabajo", True),
        ("Disposición adicional primera.  Remisiones.", True),
        ("DISPOSICIONES TRANSITORIAS", True),
        ("ANEXO I", True),
        ("Artículo 5 de la Ley del Impuesto, tendrá la", False),  # a wrapped sentence
        ("artículo 5. de la Ley", False),
        ("«Artículo 11.  Incompatibilidades entre aportaciones.", False),  # quoted
        ("TÍTULO II de la Ley", False),
        ("Disposición adicional de la Ley", False),
        ("Títulos valores", False),
    ],
)
def test_pdf_legal_heading_lines(line: str, heading: bool) -> None:
    text = f"texto anterior.\n{line}\ntexto siguiente."
    found = pdf_legal_lines(text)
    assert bool(found) is heading
    for item in found:
        assert text[item.start : item.end] == line
        assert item.title == " ".join(line.split())
        assert not item.body_is_empty


def test_each_run_of_one_pdfs_pages_is_read_as_its_own_pdf(
    minilm: HuggingFaceTokenization, tmp_path: Path
) -> None:
    copy = tmp_path / "copia.pdf"
    shutil.copy(BOE, copy)
    first = _pages("PyPDFLoader")[20:25]
    second = _pages("PyPDFLoader")[20:25]
    for page in second:
        page.metadata["source"] = str(copy)
    chunks = _split([*first, *second], minilm)
    files = [c.metadata[OUTLINE_FILE] for c in chunks]
    assert set(files) == {str(BOE), str(copy)}
    assert files == sorted(files, key=[str(BOE), str(copy)].index)  # input order kept
    halves = [[c.page_content for c in chunks if c.metadata[OUTLINE_FILE] == f] for f in files]
    assert halves[0] == halves[-1]  # the same pages, the same chunks


def test_pages_that_name_no_file_say_so() -> None:
    pages = [LoadedPage(f"Artículo {n}.  Objeto.\nTexto {n}.", n) for n in range(1, 4)]
    document = read_loaded_pages(pages, "pdf")
    assert document.report.pdf_file is not None
    assert document.report.pdf_file.problem == "the pages name no single file"
    assert document.structure == "pdf legal heading lines"
    assert [start.label for start in document.starts() or ()] == [
        "Artículo 1. Objeto.",
        "Artículo 2. Objeto.",
        "Artículo 3. Objeto.",
    ]


_LINES = st.sampled_from(
    ["BOLETÍN OFICIAL DEL ESTADO", "Artículo 4.  Objeto.", "El impuesto grava la renta.", "año"]
)


@settings(max_examples=40, deadline=None)
@given(
    texts=st.lists(st.lists(_LINES, max_size=6).map("\n".join), min_size=1, max_size=6),
    seed=st.integers(0, 1000),
)
def test_property_offsets_index_the_pages_as_read(texts: list[str], seed: int) -> None:
    """Whatever reading removes, each chunk is the slice of the pages as read that its
    offsets name, on the pages it cites, and every kept character is in a chunk."""
    pages = [
        Document(text, metadata={"source": "nowhere/ley.pdf", "page": index})
        for index, text in enumerate(texts)
    ]
    shuffled = pages[:]
    random.Random(seed).shuffle(shuffled)
    tokenization = ByteTokenization(64)
    chunks = AsesoriaDocumentTransformer(tokenization, ChunkingConfig(32, 4)).transform_documents(
        shuffled
    )
    reader = SourceReader()
    read = reader.document(reader.source(pages)).pages
    text = join_pages(read).text
    covered = [False] * len(text)
    for chunk in chunks:
        start, end = chunk.metadata[START_INDEX], chunk.metadata[END_INDEX]
        assert text[start:end] == original_text(chunk)
        assert chunk.metadata[PAGE] == join_pages(read).page_at(start)
        covered[start:end] = [True] * (end - start)
    assert all(covered[i] for i, char in enumerate(text) if not char.isspace())
