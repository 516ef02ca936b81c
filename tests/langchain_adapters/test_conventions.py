"""One convention for ``AsesoriaTextSplitter`` and ``AsesoriaDocumentTransformer``.

``docs/guides/conventions.md`` states it: ``page_content`` is the embedding text by
default; ``page``/``page_end`` are 1-based whatever the loader counts from, the loader's
``page_label`` kept as printed; ``chunk_index`` is 0-based and global per source;
``Document.id`` is the ``chunk_id``. A real PDF (``PdfPageLoader`` and langchain-
community's ``PyPDFLoader``) and a real Markdown law (``TextLoader``) go through both
classes, after ``from_model``, the one-call start.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.documents import Document

from langchain_asesoria import ChunkingConfig, join_pages
from langchain_asesoria.errors import MissingSettingError, ModelLimitError
from langchain_asesoria.langchain import (
    PAGE_LABEL,
    AsesoriaDocumentTransformer,
    AsesoriaTextSplitter,
    MetadataLevel,
    PageContent,
    PdfPageLoader,
    TextFileLoader,
    original_text,
)
from langchain_asesoria.models import LoadedPage
from langchain_asesoria.records import (
    CHUNK_ID,
    CHUNK_INDEX,
    EMBEDDING_TEXT,
    END_INDEX,
    PAGE,
    PAGE_END,
    START_INDEX,
    TEXT,
    TOKEN_COUNT,
)
from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL
from langchain_asesoria.testing import ByteTokenization
from langchain_asesoria.tokenization import Tokenization

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
PDF = CORPUS / "pdf" / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"
MARKDOWN = CORPUS / "markdown" / "BOE-A-1991-14392.md"
SIZE, OVERLAP = 256, 32


@pytest.fixture(scope="module")
def both(minilm_folder: Path) -> tuple[AsesoriaTextSplitter, AsesoriaDocumentTransformer]:
    """Both classes from ``from_model``, the model's name (the offline MiniLM package)."""
    splitter = AsesoriaTextSplitter.from_model(
        OFFLINE_EMBEDDING_MODEL, chunk_size=SIZE, chunk_overlap=OVERLAP
    )
    transformer = AsesoriaDocumentTransformer.from_model(
        OFFLINE_EMBEDDING_MODEL, chunk_size=SIZE, chunk_overlap=OVERLAP
    )
    return splitter, transformer


def _pdf_loaders() -> dict[str, Callable[[], list[Document]]]:
    def ours() -> list[Document]:
        pytest.importorskip("pypdf", reason="pip install 'langchain-asesoria[pdf]'")
        pytest.importorskip("cryptography", reason="the PDF is AES-encrypted: [pdf] extra")
        return PdfPageLoader(PDF).load()

    def pypdf_loader() -> list[Document]:
        community = pytest.importorskip(
            "langchain_community.document_loaders", reason="pip install langchain-community"
        )
        pytest.importorskip("cryptography", reason="the PDF is AES-encrypted: [pdf] extra")
        documents: list[Document] = community.PyPDFLoader(str(PDF)).load()
        return documents

    return {"PdfPageLoader": ours, "PyPDFLoader": pypdf_loader}


def assert_convention(documents: list[Document], tokenization: Tokenization) -> None:
    """Indices 0.. in order, ids the chunk ids and unique, page_content the model input."""
    assert documents
    assert [d.metadata[CHUNK_INDEX] for d in documents] == list(range(len(documents)))
    ids = [d.id for d in documents]
    assert ids == [d.metadata[CHUNK_ID] for d in documents]
    assert len(set(ids)) == len(ids)
    for document in documents:
        assert EMBEDDING_TEXT not in document.metadata
        assert TEXT in document.metadata or original_text(document) == document.page_content
        assert tokenization.count(document.page_content) == document.metadata[TOKEN_COUNT]
        assert document.metadata[TOKEN_COUNT] <= SIZE


@pytest.mark.parametrize("loader", list(_pdf_loaders()))
def test_a_pdf_gets_the_same_convention_from_both_classes(
    both: tuple[AsesoriaTextSplitter, AsesoriaDocumentTransformer], loader: str
) -> None:
    splitter, transformer = both
    pages = _pdf_loaders()[loader]()
    labels = {page.metadata["page"] + 1: page.metadata[PAGE_LABEL] for page in pages}
    split = splitter.split_documents(pages)
    chunked = transformer.transform_documents(pages)
    for documents in (split, chunked):
        assert_convention(documents, splitter.tokenization)
        for document in documents:
            metadata = document.metadata
            assert 1 <= metadata[PAGE] <= metadata[PAGE_END] <= len(pages)
            assert metadata[PAGE_LABEL] == labels[metadata[PAGE]]  # as printed, unchanged
    # The splitter: each page on its own, its 0-based loader page plus one. Both read
    # a PDF's pages as one document with its running headers and footers removed, so
    # offsets are in the text that reading leaves (``read_loaded_pages``): with our
    # loader, its pages as given; with PyPDFLoader's, the chunk's text is still the
    # page's own, in order.
    for document in split:
        metadata = document.metadata
        page = pages[metadata[PAGE] - 1]
        assert metadata[PAGE] == metadata[PAGE_END] == page.metadata["page"] + 1
        if loader == "PdfPageLoader":
            text = page.page_content[metadata[START_INDEX] : metadata[END_INDEX]]
            assert text == original_text(document)
        else:
            assert " ".join(original_text(document).split()) in " ".join(page.page_content.split())
    # The transformer: across page boundaries, offsets in the pages joined.
    joined = join_pages([LoadedPage(p.page_content, i + 1) for i, p in enumerate(pages)]).text
    for document in chunked:
        metadata = document.metadata
        if loader == "PdfPageLoader":
            assert joined[metadata[START_INDEX] : metadata[END_INDEX]] == original_text(document)
        elif metadata[PAGE] == metadata[PAGE_END]:  # furniture may lie between two pages
            page = pages[metadata[PAGE] - 1].page_content
            assert " ".join(original_text(document).split()) in " ".join(page.split())
    assert _pages(split) == _pages(chunked) == set(range(1, len(pages) + 1))


def _pages(documents: list[Document]) -> set[int]:
    return {
        page
        for document in documents
        for page in range(document.metadata[PAGE], document.metadata[PAGE_END] + 1)
    }


def _markdown_loaders() -> dict[str, Callable[[], list[Document]]]:
    def text_loader() -> list[Document]:
        community = pytest.importorskip(
            "langchain_community.document_loaders", reason="pip install langchain-community"
        )
        documents: list[Document] = community.TextLoader(str(MARKDOWN), encoding="utf-8").load()
        return documents

    return {"TextLoader": text_loader, "TextFileLoader": TextFileLoader(MARKDOWN).load}


def _key(document: Document) -> tuple[Any, ...]:
    metadata = document.metadata
    return (
        document.id,
        document.page_content,
        original_text(document),
        *(metadata[key] for key in (PAGE, PAGE_END, CHUNK_INDEX, START_INDEX, END_INDEX)),
    )


@pytest.mark.parametrize("loader", list(_markdown_loaders()))
def test_a_markdown_file_gets_the_same_chunks_from_both_classes(
    both: tuple[AsesoriaTextSplitter, AsesoriaDocumentTransformer], loader: str
) -> None:
    splitter, transformer = both
    files = _markdown_loaders()[loader]()
    split = splitter.split_documents(files)
    chunked = transformer.transform_documents(files)
    assert_convention(split, splitter.tokenization)
    assert [_key(d) for d in split] == [_key(d) for d in chunked]
    assert {(d.metadata[PAGE], d.metadata[PAGE_END]) for d in split} == {(1, 1)}
    assert any(d.metadata["section_path"] for d in split)


# -- pages in, pages out; indices and ids per source ---------------------------------------------


def _splitter(**options: Any) -> AsesoriaTextSplitter:
    return AsesoriaTextSplitter(ByteTokenization(512), chunk_size=24, **options)


def _transformer(**options: Any) -> AsesoriaDocumentTransformer:
    config = ChunkingConfig(max_tokens=24, overlap_tokens=0)
    return AsesoriaDocumentTransformer(ByteTokenization(512), config, **options)


PAGES = [
    Document(
        page_content="Uno dos tres cuatro. Cinco seis.",
        metadata={"source": "m.pdf", "page": number, PAGE_LABEL: label},
    )
    for number, label in enumerate(["i", "ii", "1"])
]


@pytest.mark.parametrize(
    ("page_key", "page_base", "loaded", "expected"),
    [
        ("page", 0, 0, 1),  # PyPDFLoader, PyMuPDFLoader: 0-based
        ("page", 0, 4, 5),
        ("page_number", 1, 1, 1),  # loaders that count from 1
        ("page_number", 1, 7, 7),
    ],
)
def test_the_loader_page_is_read_by_its_key_and_base_in_both_classes(
    page_key: str, page_base: int, loaded: int, expected: int
) -> None:
    document = Document(page_content="Texto de la página.", metadata={page_key: loaded})
    options = {"page_key": page_key, "page_base": page_base}
    for chunks in (
        _splitter(**options).split_documents([document]),
        _transformer(**options).transform_documents([document]),
    ):
        (chunk,) = chunks
        assert (chunk.metadata[PAGE], chunk.metadata[PAGE_END]) == (expected, expected)
        assert page_key == PAGE or page_key not in chunk.metadata


def test_chunk_index_runs_on_across_a_sources_pages_and_ids_stay_unique() -> None:
    documents = _splitter().split_documents(PAGES)  # the same text on every page
    assert [d.metadata[CHUNK_INDEX] for d in documents] == list(range(len(documents)))
    assert len({d.id for d in documents}) == len(documents)
    assert [d.metadata[PAGE_LABEL] for d in documents if d.metadata[CHUNK_INDEX] == 0] == ["i"]
    other = Document(page_content="Otro texto.", metadata={"source": "n.pdf"})
    (alone,) = [
        d for d in _splitter().split_documents([*PAGES, other]) if d.metadata["source"] == "n.pdf"
    ]
    assert alone.metadata[CHUNK_INDEX] == 0


@pytest.mark.parametrize(
    ("page_content", "level", "kept"),
    [
        ("embedding_text", "cite", set()),  # no prefix or context: the texts are equal
        ("embedding_text", "full", {TEXT, EMBEDDING_TEXT}),
        ("text", "cite", {EMBEDDING_TEXT}),
        ("text", "full", {TEXT, EMBEDDING_TEXT}),
        ("embedding_text", "lean", set()),
    ],
)
def test_a_text_is_stored_twice_only_when_asked(
    page_content: PageContent, level: MetadataLevel, kept: set[str]
) -> None:
    options = {"page_content": page_content, "metadata_level": level}
    for documents in (
        _splitter(**options).split_documents(PAGES),
        _transformer(**options).transform_documents(PAGES),
    ):
        for document in documents:
            assert {TEXT, EMBEDDING_TEXT} & set(document.metadata) == kept


def test_a_prefixed_model_keeps_the_original_for_the_citation() -> None:
    tokenization = ByteTokenization(512, document_prefix="passage: ")
    config = ChunkingConfig(max_tokens=40, overlap_tokens=0)
    for instance in (
        AsesoriaTextSplitter(tokenization, config),
        AsesoriaDocumentTransformer(tokenization, config),
    ):
        for document in instance.transform_documents(PAGES):
            assert document.page_content == "passage: " + document.metadata[TEXT]


def test_lean_documents_carry_only_the_loaders_metadata_in_both_classes() -> None:
    for documents in (
        _splitter(metadata_level="lean", add_start_index=False).split_documents(PAGES),
        _transformer(metadata_level="lean").transform_documents(PAGES),
    ):
        for document in documents:
            assert document.id is None
            assert set(document.metadata) == {"source", "page", PAGE_LABEL}
            assert document.metadata["page"] in (0, 1, 2)  # the loader's own, untouched


def test_the_default_keeps_what_a_citation_needs() -> None:
    for documents in (
        _splitter().split_documents(PAGES),
        _transformer().transform_documents(PAGES),
    ):
        for document in documents:
            assert {PAGE, PAGE_END, START_INDEX, END_INDEX, CHUNK_ID, "doc_id"} <= set(
                document.metadata
            )


def test_an_unknown_metadata_level_is_refused() -> None:
    with pytest.raises(ValueError, match="metadata_level must be 'lean' or 'cite' or 'full'"):
        _splitter(metadata_level="all")


@pytest.mark.parametrize("cls", [AsesoriaTextSplitter, AsesoriaDocumentTransformer])
def test_from_model_takes_the_limit_a_bare_tokenizer_file_lacks(
    minilm_folder: Path, cls: type[AsesoriaTextSplitter] | type[AsesoriaDocumentTransformer]
) -> None:
    """A ``tokenizer.json`` alone declares no input limit: ``max_input_tokens`` gives
    it, as ``EMBEDDING_MAX_TOKENS`` would; above the limit a model declares, refused."""
    bare = str(minilm_folder / "tokenizer.json")
    with pytest.raises(MissingSettingError):
        cls.from_model(bare, chunk_size=100)
    made = cls.from_model(bare, chunk_size=100, chunk_overlap=10, max_input_tokens=200)
    assert made.tokenization.max_input_tokens == 200
    assert made.config.max_tokens == 100
    with pytest.raises(ModelLimitError):
        cls.from_model(str(minilm_folder), chunk_size=100, max_input_tokens=512)
