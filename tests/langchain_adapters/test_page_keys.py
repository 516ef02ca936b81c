"""Both LangChain classes honour their source and page keys and their page base.

A loader that names its source and numbers its pages its own way (``file``, ``pagina``
counted from 1) gives the same chunks as LangChain's PDF loaders (``source``, ``page``
counted from 0) once the classes are told its keys: the same page numbers, the same
sections, the same text; for PDF pages read as their PDF and for plain texts.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.documents import Document

from langchain_asesoria import AsesoriaDocumentTransformer, AsesoriaTextSplitter, ChunkingConfig
from langchain_asesoria.records import CHUNK_INDEX, PAGE, PAGE_END, SECTION_PATH
from langchain_asesoria.testing import ByteTokenization

ROOT = Path(__file__).resolve().parents[2]
PDF = (
    ROOT / "examples" / "data" / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"
)
CONFIG = ChunkingConfig(max_tokens=300, overlap_tokens=30)
TOKENIZATION = ByteTokenization(512)

#: Where a chunk lies and what it says: what the keys must not change.
Cited = tuple[Any, Any, Any, Any, str]


def _cited(chunks: list[Document]) -> list[Cited]:
    return [
        (
            c.metadata[PAGE],
            c.metadata[PAGE_END],
            c.metadata.get(SECTION_PATH),
            c.metadata[CHUNK_INDEX],
            c.page_content,
        )
        for c in chunks
    ]


def _rekeyed(pages: list[Document], base: int) -> list[Document]:
    """``pages`` with the source under ``file`` and the page under ``pagina`` from ``base``."""
    return [
        Document(
            page.page_content,
            metadata={"file": page.metadata["source"], "pagina": page.metadata["page"] + base},
        )
        for page in pages
    ]


@pytest.fixture(scope="module")
def loader_pages() -> list[Document]:
    pytest.importorskip("langchain_community", reason="the loaders extra: pip install '.[loaders]'")
    pytest.importorskip("pypdf", reason="the pdf extra: pip install '.[pdf]'")
    from langchain_community.document_loaders import PyPDFLoader

    return PyPDFLoader(str(PDF)).load()


def _splitter(**keys: Any) -> Callable[[list[Document]], list[Document]]:
    return AsesoriaTextSplitter(TOKENIZATION, CONFIG, **keys).split_documents


def _transformer(**keys: Any) -> Callable[[list[Document]], list[Document]]:
    return AsesoriaDocumentTransformer(TOKENIZATION, CONFIG, **keys).transform_documents


WAYS = [pytest.param(_splitter, id="splitter"), pytest.param(_transformer, id="transformer")]


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("base", [0, 1])
def test_pdf_pages_under_other_keys_chunk_as_the_loaders(
    way: Callable[..., Callable[[list[Document]], list[Document]]],
    base: int,
    loader_pages: list[Document],
) -> None:
    expected = _cited(way()(loader_pages))
    keyed = way(source_key="file", page_key="pagina", page_base=base)(_rekeyed(loader_pages, base))
    assert _cited(keyed) == expected
    # read as the PDF: its outline gave sections, its running footer is gone
    assert sum(bool(c.metadata.get(SECTION_PATH)) for c in keyed) > len(keyed) // 2
    assert not any("Agencia Tributaria" in c.page_content.splitlines()[-1] for c in keyed)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("base", [0, 1])
def test_text_pages_under_other_keys(
    way: Callable[..., Callable[[list[Document]], list[Document]]], base: int
) -> None:
    texts = ["Primera página de la nota.\n\nSigue la nota.", "Segunda página, que la cierra."]
    pages = [
        Document(text, metadata={"doc": "nota.txt", "pg": number + base})
        for number, text in enumerate(texts)
    ]
    chunks = way(source_key="doc", page_key="pg", page_base=base)(list(reversed(pages)))
    # the splitter chunks each page, the transformer the source across its pages
    first = next(c for c in chunks if "Primera" in c.page_content)
    last = next(c for c in chunks if "Segunda" in c.page_content)
    assert (first.metadata[PAGE], last.metadata[PAGE_END]) == (1, 2)
    assert [c.metadata[CHUNK_INDEX] for c in chunks] == list(range(len(chunks)))


@pytest.mark.parametrize("way", WAYS)
def test_a_page_below_the_base_is_refused(
    way: Callable[..., Callable[[list[Document]], list[Document]]],
) -> None:
    from langchain_asesoria import InvalidPagesError

    pages = [Document("Texto.", metadata={"doc": "a.txt", "pg": 0})]
    with pytest.raises(InvalidPagesError, match="page_base=1"):
        way(source_key="doc", page_key="pg", page_base=1)(pages)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("written", [str, float, int])
def test_a_page_number_as_text_or_as_a_whole_float_counts_as_the_integer(
    way: Callable[..., Callable[[list[Document]], list[Document]]],
    written: Callable[[int], object],
) -> None:
    """A loader that keeps its metadata as text ("3") or as floats (3.0): the same pages
    as integers give."""
    texts = ["Primera página de la nota.", "Segunda página, que la cierra."]
    pages = [
        Document(text, metadata={"doc": "nota.txt", "pg": written(number)})
        for number, text in enumerate(texts, start=1)
    ]
    chunks = way(source_key="doc", page_key="pg", page_base=1)(pages)
    assert (chunks[0].metadata[PAGE], chunks[-1].metadata[PAGE_END]) == (1, 2)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("page", [1.5, "1.0", "tres", float("nan")])
def test_a_page_number_that_is_no_whole_number_is_refused(
    way: Callable[..., Callable[[list[Document]], list[Document]]], page: object
) -> None:
    from langchain_asesoria import InvalidPagesError

    pages = [Document("Texto.", metadata={"doc": "a.txt", "pg": page})]
    with pytest.raises(InvalidPagesError, match="not an integer page number"):
        way(source_key="doc", page_key="pg", page_base=1)(pages)
