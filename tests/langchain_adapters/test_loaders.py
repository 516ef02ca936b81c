"""The small loaders on the real example files, and the transformer on their output."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest
from langchain_core.documents import Document

from langchain_asesoria import ChunkingConfig, InvalidSectionsError, MissingDependencyError
from langchain_asesoria.langchain import (
    PAGE_LABEL,
    AsesoriaDocumentTransformer,
    AsesoriaTextSplitter,
    PdfPageLoader,
    TextFileLoader,
    original_text,
)
from langchain_asesoria.langchain.page_structure import (
    OUTLINE,
    PAGE_FURNITURE,
    SECTION_CONTINUED,
    SECTION_STARTS,
    STRUCTURE_KEYS,
    source_starts,
)
from langchain_asesoria.pdf import fold
from langchain_asesoria.reading import read_document, read_pages, read_text
from langchain_asesoria.records import (
    END_INDEX,
    PAGE,
    PAGE_END,
    SECTION_LABEL,
    SECTION_PATH,
    START_INDEX,
    TOKEN_COUNT,
)
from langchain_asesoria.testing import ByteTokenization
from langchain_asesoria.tokenization import HuggingFaceTokenization

DATA = Path(__file__).resolve().parents[2] / "examples" / "data"
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
        assert {key: page.metadata[key] for key in ("source", "page", "page_label")} == {
            "source": str(PDF),
            "page": index,
            "page_label": str(index + 1),
        }
        assert page.metadata["total_pages"] == 17
        assert set(page.metadata) - {"source", "page", "page_label", "total_pages"} <= set(
            STRUCTURE_KEYS
        )
    assert "Integración y compensación" in pdf_pages[0].page_content


def test_pdf_pages_carry_their_structure(pdf_pages: list[Document]) -> None:
    for page in pdf_pages:
        assert page.metadata[OUTLINE] == {"entries": 12, "unlocated": [], "problem": None}
        assert page.metadata[PAGE_FURNITURE]  # every page has its footer removed
        assert "06/09/2024 - Manual práctico" not in page.page_content
        for start in page.metadata[SECTION_STARTS]:
            offset = start["offset"]
            assert offset == 0 or page.page_content[offset - 1] == "\n"  # a line's start
            # Its title follows (after the bare titles folded into it, if any).
            assert fold(start["label"])[0] in fold(page.page_content[offset:])[0]
    second = pdf_pages[1].metadata
    classification = [
        "Capítulo 12. Integración y compensación de rentas",
        "Introducción",
        "Clasificación de las rentas según su origen y fuente y clasificación a efectos "
        "del cálculo del impuesto",
    ]
    # The outline's entry, then the heading set in bold below it ("1º Renta general").
    assert [start["path"] for start in second[SECTION_STARTS]] == [
        classification,
        [*classification, "1º Renta general"],
    ]
    assert SECTION_CONTINUED not in second  # page 1, the index, is in no section
    assert pdf_pages[2].metadata[SECTION_CONTINUED]["path"] == second[SECTION_STARTS][-1]["path"]


def test_pdf_pages_carry_where_titles_end(pdf_pages: list[Document]) -> None:
    """The transformer's sections from page metadata keep ``title_end``, so no chunk
    ends between a title and its text: the same sections ``read_document`` gives."""
    starts = [start for page in pdf_pages for start in page.metadata[SECTION_STARTS]]
    assert starts
    for page in pdf_pages:
        for start in page.metadata[SECTION_STARTS]:
            assert start["offset"] < start["title_end"] <= len(page.page_content)
    document = read_document(PDF)
    starts = source_starts(document.pages, [page.metadata for page in pdf_pages], "aeat")
    assert starts is not None
    assert tuple(starts) == document.starts()
    spans = document.sections
    assert spans
    assert all(span.title_end is not None for span in spans)


def test_pdf_loader_reads_pages_as_extracted_when_both_parts_are_off() -> None:
    pytest.importorskip("cryptography", reason="the example PDF is AES-encrypted: [pdf] extra")
    plain = PdfPageLoader(PDF, outline_sections=False, remove_page_furniture=False).load()
    assert [page.page_content for page in plain] == [page.text for page in read_pages(PDF)]
    assert all(set(page.metadata).isdisjoint(STRUCTURE_KEYS) for page in plain)
    only_outline = PdfPageLoader(PDF, remove_page_furniture=False).load()
    assert all(PAGE_FURNITURE not in page.metadata for page in only_outline)
    assert any(page.metadata[SECTION_STARTS] for page in only_outline)


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
    config = ChunkingConfig(max_tokens=256, overlap_tokens=32)
    transformer = AsesoriaDocumentTransformer(
        minilm, config, detect_markdown_headings=True, tax="IRPF", fiscal_year=2023
    )
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
        body = original_text(chunk)
        first, last = chunk.metadata[PAGE], chunk.metadata[PAGE_END]
        assert body.split()[0] in texts[first - 1]
        assert body.split()[-1] in texts[last - 1]
        assert chunk.metadata[PAGE_LABEL] == str(first)
        assert minilm.count(chunk.page_content) == chunk.metadata[TOKEN_COUNT] <= 256
        assert "06/09/2024 - Manual práctico" not in body
        # Sections come from the outline (page 1 is the index, before the first entry).
        if first > 1:
            assert chunk.metadata[SECTION_PATH].startswith("Capítulo 12. Integración")
            assert chunk.metadata[SECTION_LABEL] == chunk.metadata[SECTION_PATH].split(" > ")[-1]
        else:
            assert (chunk.metadata[SECTION_PATH], chunk.metadata[SECTION_LABEL]) == ("", "")


def test_the_splitter_gives_pdf_pages_their_sections(
    pdf_pages: list[Document], minilm: HuggingFaceTokenization
) -> None:
    splitter = AsesoriaTextSplitter(minilm, ChunkingConfig(max_tokens=256, overlap_tokens=32))
    chunks = splitter.split_documents(pdf_pages)
    for chunk in chunks:
        assert set(chunk.metadata).isdisjoint(STRUCTURE_KEYS)
        page = pdf_pages[chunk.metadata[PAGE] - 1]  # 1-based out of PDF loaders' 0-based
        start = chunk.metadata[START_INDEX]
        assert page.page_content[start : chunk.metadata[END_INDEX]] == original_text(chunk)
    with_section = [chunk for chunk in chunks if chunk.metadata[SECTION_PATH]]
    assert {chunk.metadata[PAGE] for chunk in chunks} - {
        chunk.metadata[PAGE] for chunk in with_section
    } == {1}
    # A page that starts inside a section keeps it for its first chunk.
    third = [chunk for chunk in chunks if chunk.metadata[PAGE] == 3]
    assert third[0].metadata[SECTION_LABEL] == "1º Renta general"


def test_a_changed_page_text_is_refused(pdf_pages: list[Document]) -> None:
    splitter = AsesoriaTextSplitter(
        ByteTokenization(4096), ChunkingConfig(max_tokens=4096, overlap_tokens=0)
    )
    page = pdf_pages[4]
    shortened = Document(page_content=page.page_content[:10], metadata=page.metadata)
    with pytest.raises(InvalidSectionsError, match="section_starts"):
        splitter.split_documents([shortened])


def test_real_markdown_chunks_carry_section_paths(minilm: HuggingFaceTokenization) -> None:
    config = ChunkingConfig(max_tokens=256, overlap_tokens=32)
    transformer = AsesoriaDocumentTransformer(
        minilm, config, detect_markdown_headings=True, tax="IP"
    )
    chunks = transformer.invoke(TextFileLoader(MARKDOWN).load())
    paths = [chunk.metadata.get(SECTION_PATH, "") for chunk in chunks]
    assert (
        "Ley 19/1991, de 6 de junio, del Impuesto sobre el Patrimonio > CAPÍTULO I. "
        "Disposiciones generales > Artículo 1. Naturaleza y objeto del Impuesto."
    ) in paths
    assert all(chunk.metadata[PAGE] == chunk.metadata[PAGE_END] == 1 for chunk in chunks)
    assert all(chunk.metadata[TOKEN_COUNT] <= 256 for chunk in chunks)


def test_pages_from_inside_a_section_keep_it_in_both_classes(pdf_pages: list[Document]) -> None:
    """Pages given from the middle of the PDF start in the section the whole PDF has
    there (``SECTION_CONTINUED``): the transformer reads it as the splitter does."""
    later = next(
        index
        for index, page in enumerate(pdf_pages)
        if SECTION_CONTINUED in page.metadata
        and not any(start["offset"] == 0 for start in page.metadata[SECTION_STARTS])
    )
    continued = pdf_pages[later].metadata[SECTION_CONTINUED]["path"]
    tokenization, config = ByteTokenization(512), ChunkingConfig(max_tokens=128, overlap_tokens=0)
    transformed = AsesoriaDocumentTransformer(tokenization, config).transform_documents(
        pdf_pages[later:]
    )
    split = AsesoriaTextSplitter(tokenization, config).split_documents(pdf_pages[later:])
    for chunks in (transformed, split):
        assert chunks[0].metadata[PAGE] == later + 1
        assert chunks[0].metadata[SECTION_PATH].split(" > ") == continued


def test_a_whole_pdf_in_one_document_is_read_alike_by_both_classes() -> None:
    """A PDF's text as one ``Document`` naming its file (``PyPDFLoader(mode="single")``)
    is read the same way by either class, with the file's help (``reading.loaded_pdf``),
    as the transformer always read it."""
    pytest.importorskip("cryptography", reason="the example PDF is AES-encrypted: [pdf] extra")
    text = "\n\n".join(page.text for page in read_pages(PDF))
    document = Document(text, metadata={"source": str(PDF)})
    tokenization = ByteTokenization(512)
    config = ChunkingConfig(max_tokens=200, overlap_tokens=0)
    transformed = AsesoriaDocumentTransformer(tokenization, config).transform_documents([document])
    split = AsesoriaTextSplitter(tokenization, config).split_documents([document])
    assert [(d.page_content, d.metadata, d.id) for d in split] == [
        (d.page_content, d.metadata, d.id) for d in transformed
    ]


@pytest.mark.parametrize("make", [AsesoriaTextSplitter, AsesoriaDocumentTransformer])
def test_pdf_page_loaders_structure_keys_are_read_not_told_left_out(
    pdf_pages: list[Document], make: type, caplog: pytest.LogCaptureFixture
) -> None:
    """Its outline, section starts and furniture (dicts and lists) become the chunks'
    sections; no warning calls them metadata left out."""
    assert any(not set(page.metadata).isdisjoint(STRUCTURE_KEYS) for page in pdf_pages)
    with caplog.at_level(logging.WARNING, logger="langchain_asesoria"):
        chunks = make(ByteTokenization(512), chunk_size=256).transform_documents(pdf_pages)
    assert chunks
    assert not [r for r in caplog.records if "metadata left out" in r.getMessage()]
