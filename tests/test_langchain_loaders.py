"""The small loaders on the real example files, and the transformer on their output."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from langchain_core.documents import Document

from langchain_asesoria import ChunkingConfig, HuggingFaceTokenization, MissingDependencyError
from langchain_asesoria.files import read_text
from langchain_asesoria.langchain import (
    PAGE_LABEL,
    AsesoriaDocumentTransformer,
    PdfPageLoader,
    TextFileLoader,
)
from langchain_asesoria.records import (
    PAGE,
    PAGE_END,
    SECTION_LABEL,
    SECTION_PATH,
    TEXT,
    TOKEN_COUNT,
)

DATA = Path(__file__).resolve().parent.parent / "examples" / "data"
PDF = DATA / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"
MARKDOWN = DATA / "BOE-A-1991-14392.md"


@pytest.fixture(scope="module")
def pdf_pages() -> list[Document]:
    pytest.importorskip("pypdf", reason="pip install 'langchain-asesoria[pdf]'")
    pytest.importorskip("cryptography", reason="the example PDF is AES-encrypted: [pdf] extra")
    return PdfPageLoader(PDF).load()


def test_pdf_loader_gives_one_document_per_page_like_langchain(pdf_pages: list[Document]) -> None:
    assert len(pdf_pages) == 17
    for index, page in enumerate(pdf_pages):
        assert page.metadata == {
            "source": str(PDF),
            "page": index,
            "page_label": str(index + 1),
            "total_pages": 17,
        }
    assert "Integración y compensación" in pdf_pages[0].page_content


def test_pdf_loader_is_lazy() -> None:
    pytest.importorskip("pypdf", reason="pip install 'langchain-asesoria[pdf]'")
    pytest.importorskip("cryptography", reason="the example PDF is AES-encrypted: [pdf] extra")
    iterator = PdfPageLoader(PDF).lazy_load()
    first = next(iterator)
    assert first.metadata["page"] == 0


def test_missing_pypdf_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pypdf", None)
    with pytest.raises(MissingDependencyError, match=r"langchain-asesoria\[pdf\]"):
        PdfPageLoader(PDF).load()


def test_text_file_loader_gives_one_document() -> None:
    [document] = TextFileLoader(MARKDOWN).load()
    assert document.metadata == {"source": str(MARKDOWN)}
    assert document.page_content == MARKDOWN.read_text(encoding="utf-8")


def test_text_file_loader_reads_the_text_the_command_line_reads(tmp_path: Path) -> None:
    """A BOM dropped and line endings kept (read_text): offsets agree with asesoria-split."""
    path = tmp_path / "nota.txt"
    path.write_bytes("\ufeffUno.\r\nDos.\rTres.\n".encode())
    [document] = TextFileLoader(path).load()
    assert document.page_content == "Uno.\r\nDos.\rTres.\n" == read_text(path)
    assert TextFileLoader(path, encoding="utf-8").load() == [document]


def test_real_pdf_chunks_carry_the_real_pages(
    pdf_pages: list[Document],
    minilm: HuggingFaceTokenization,
) -> None:
    config = ChunkingConfig(max_tokens=256, overlap_tokens=32, detect_markdown_headings=True)
    transformer = AsesoriaDocumentTransformer(minilm, config, tax="IRPF", fiscal_year=2023)
    chunks = transformer.invoke(pdf_pages[::-1])  # any page order
    texts = [page.page_content for page in pdf_pages]
    covered = {
        page
        for chunk in chunks
        for page in range(chunk.metadata[PAGE], chunk.metadata[PAGE_END] + 1)
    }
    assert covered == {i + 1 for i, text in enumerate(texts) if text.strip()}
    assert any(chunk.metadata[PAGE_END] > chunk.metadata[PAGE] for chunk in chunks)
    for chunk in chunks:
        body = chunk.metadata[TEXT]
        first, last = chunk.metadata[PAGE], chunk.metadata[PAGE_END]
        assert body.split()[0] in texts[first - 1]
        assert body.split()[-1] in texts[last - 1]
        assert chunk.metadata[PAGE_LABEL] == str(first)
        assert minilm.count(chunk.page_content) == chunk.metadata[TOKEN_COUNT] <= 256
        assert SECTION_LABEL not in chunk.metadata  # no heading detection on PDF text


def test_real_markdown_chunks_carry_section_paths(minilm: HuggingFaceTokenization) -> None:
    config = ChunkingConfig(max_tokens=256, overlap_tokens=32, detect_markdown_headings=True)
    transformer = AsesoriaDocumentTransformer(minilm, config, tax="IP")
    chunks = transformer.invoke(TextFileLoader(MARKDOWN).load())
    paths = [chunk.metadata.get(SECTION_PATH, "") for chunk in chunks]
    assert (
        "Ley 19/1991, de 6 de junio, del Impuesto sobre el Patrimonio > CAPÍTULO I. "
        "Disposiciones generales > Artículo 1. Naturaleza y objeto del Impuesto."
    ) in paths
    assert all(chunk.metadata[PAGE] == chunk.metadata[PAGE_END] == 1 for chunk in chunks)
    assert all(chunk.metadata[TOKEN_COUNT] <= 256 for chunk in chunks)
