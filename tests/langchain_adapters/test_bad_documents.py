"""Both LangChain classes refuse the same bad input with the same typed error and message,
and give chunks the same vector-store-safe metadata."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from langchain_core.documents import Document

from langchain_asesoria import (
    AsesoriaDocumentTransformer,
    AsesoriaTextSplitter,
    ChunkingConfig,
)
from langchain_asesoria.errors import AsesoriaError, InvalidPagesError
from langchain_asesoria.testing import ByteTokenization

TEXT = "Artículo 1. El impuesto grava la renta de las personas físicas. " * 6


def _document(content: object, **metadata: Any) -> Document:
    """A Document whose ``page_content`` may be anything, as a careless caller leaves it
    (pydantic checks the constructor, not a later assignment)."""
    document = Document(page_content="", metadata=metadata)
    document.page_content = content  # type: ignore[assignment]
    return document


def _good(page: int) -> Document:
    return Document(page_content=TEXT, metadata={"source": "ley.pdf", "page": page})


@dataclass(frozen=True)
class Bad:
    """A bad input, what its message says, and the error's context."""

    item: object
    says: str
    source: str | None = "ley.pdf"
    page: int | None = None
    position: int | None = None


def _pdf_page(content: object, page: object) -> Document:
    return _document(content, source="ley.pdf", page=page)


BAD = [
    pytest.param(Bad(_pdf_page(TEXT, None), "page=None is not"), id="page-none"),
    pytest.param(Bad(_pdf_page(TEXT, "tres"), "page='tres' is not"), id="page-word"),
    pytest.param(Bad(_pdf_page(TEXT, -1), "page=-1 is below"), id="page-below-base"),
    pytest.param(Bad(_pdf_page(7, 1), "page_content is int", page=2), id="content-int"),
    pytest.param(Bad(_pdf_page(None, 1), "page_content is NoneType", page=2), id="content-none"),
    pytest.param(Bad(_pdf_page(["a"], 1), "page_content is list", page=2), id="content-list"),
    pytest.param(Bad(_pdf_page(b"x", 1), "page_content is bytes", page=2), id="content-bytes"),
    pytest.param(
        Bad(
            _pdf_page("Texto \ud800 roto", 1),
            "lone surrogate '\\ud800' at position 6",
            page=2,
            position=6,
        ),
        id="lone-surrogate",
    ),
    pytest.param(
        Bad(_document("Texto \udfff"), "lone surrogate", source=None, position=6),
        id="surrogate-no-source",
    ),
]
NOT_DOCUMENTS = [
    pytest.param(Bad("texto", "expected a LangChain Document, got str", None), id="item-str"),
    pytest.param(Bad(None, "got NoneType", None), id="item-none"),
]


def _splitter() -> AsesoriaTextSplitter:
    return AsesoriaTextSplitter(ByteTokenization(512), ChunkingConfig(64, 8))


def _transformer() -> AsesoriaDocumentTransformer:
    return AsesoriaDocumentTransformer(ByteTokenization(512), ChunkingConfig(64, 8))


#: Each way into the two classes, given the input list.
ENTRIES: dict[str, Callable[[list[Any]], object]] = {
    "split_documents": lambda items: _splitter().split_documents(items),
    "transform_documents": lambda items: _transformer().transform_documents(items),
    "lazy_transform_documents": lambda items: list(_transformer().lazy_transform_documents(items)),
    "invoke": lambda items: _transformer().invoke(items),
}


def _raised(entry: Callable[[list[Any]], object], items: list[Any]) -> AsesoriaError:
    with pytest.raises(AsesoriaError) as caught:
        entry(items)
    return caught.value


@pytest.mark.parametrize("bad", BAD + NOT_DOCUMENTS)
def test_every_entry_point_refuses_a_bad_document_alike(bad: Bad) -> None:
    items = [_good(0), bad.item]  # the bad one second: its index is 1
    errors = [_raised(entry, items) for entry in ENTRIES.values()]
    first = errors[0]
    assert type(first) is InvalidPagesError, f"{type(first).__name__}: {first}"
    assert isinstance(first, ValueError)
    assert bad.says in str(first)
    assert "documents[1]" in str(first)
    assert (first.index, first.source, first.page, first.position) == (
        1,
        bad.source,
        bad.page,
        bad.position,
    )
    if bad.source is not None:
        assert str(first).startswith(f"{bad.source}: documents[1]")
    for error in errors[1:]:
        assert (type(error), str(error)) == (type(first), str(first))
        assert (error.index, error.source, error.page, error.position) == (
            first.index,
            first.source,
            first.page,
            first.position,
        )


@pytest.mark.parametrize("bad", BAD)
def test_create_documents_refuses_the_same_texts(bad: Bad) -> None:
    """The splitter's ``create_documents`` names ``texts[i]`` and otherwise says the same."""
    assert isinstance(bad.item, Document)
    texts, metadatas = [TEXT, bad.item.page_content], [{"page": 0}, dict(bad.item.metadata)]
    with pytest.raises(InvalidPagesError) as caught:
        _splitter().create_documents(texts, metadatas)
    error = caught.value
    assert bad.says in str(error)
    assert "texts[1]" in str(error)
    context = (error.index, error.source, error.page, error.position)
    assert context == (1, bad.source, bad.page, bad.position)


def test_a_bad_document_raises_even_when_failures_are_skipped() -> None:
    """``on_error="skip"`` skips a text that cannot be chunked, not an input to fix."""
    bad = [_good(0), _pdf_page(TEXT, "tres")]
    splitter = AsesoriaTextSplitter(ByteTokenization(512), ChunkingConfig(64, 8), on_error="skip")
    with pytest.raises(InvalidPagesError):
        splitter.split_documents(bad)
    transformer = AsesoriaDocumentTransformer(
        ByteTokenization(512), ChunkingConfig(64, 8), on_error="skip"
    )
    with pytest.raises(InvalidPagesError):
        transformer.transform_documents(bad)


def test_both_classes_keep_the_same_scalar_metadata() -> None:
    """No ``None``, no nested values: what one class keeps of a page's metadata the
    other keeps too."""
    metadata = {
        "source": "ley.txt",
        "title": "Ley",
        "year": 1991,
        "score": 0.5,
        "draft": False,
        "empty": None,
        "tags": {"tax": "IP"},
        "authors": ["BOE"],
    }
    page = Document(page_content=TEXT, metadata=metadata)
    for level in ("cite", "full", "lean"):
        split = _splitter_at(level).split_documents([page])
        transformed = _transformer_at(level).transform_documents([page])
        assert split
        assert transformed
        for document in split + transformed:
            values = document.metadata.values()
            assert all(isinstance(value, str | int | float | bool) for value in values)
            assert {"empty", "tags", "authors"}.isdisjoint(document.metadata)
            assert {"source", "title", "year", "score", "draft"} <= set(document.metadata)
        assert {key for d in split for key in d.metadata} - {"start_index", "end_index"} == {
            key for d in transformed for key in d.metadata
        } - {"start_index", "end_index"}


def _splitter_at(level: Any) -> AsesoriaTextSplitter:
    return AsesoriaTextSplitter(ByteTokenization(512), ChunkingConfig(64, 8), metadata_level=level)


def _transformer_at(level: Any) -> AsesoriaDocumentTransformer:
    return AsesoriaDocumentTransformer(
        ByteTokenization(512), ChunkingConfig(64, 8), metadata_level=level
    )


def test_the_splitter_names_a_text_by_the_configured_source_key() -> None:
    """A text that cannot be chunked is named by ``metadata[source_key]``, whatever the
    key is called, as the transformer names its source."""
    splitter = AsesoriaTextSplitter(ByteTokenization(512), ChunkingConfig(64, 8), source_key="path")
    bad_starts = {"path": "leyes/ley.md", "section_starts": [{"offset": 10_000}]}
    with pytest.raises(AsesoriaError) as caught:
        splitter.create_documents([TEXT], [bad_starts])
    assert str(caught.value.source).startswith("leyes/ley.md")
