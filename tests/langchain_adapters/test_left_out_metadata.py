"""Metadata no vector store takes is told once per run (one call), naming each key, why
and from how many documents, whatever the number of sources: never once per source."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document

from langchain_asesoria import AsesoriaDocumentTransformer, AsesoriaTextSplitter, ReadOptions
from langchain_asesoria.store_values import LeftOutTally, store_value
from langchain_asesoria.testing import ByteTokenization

TOKENS = ByteTokenization(512)
SOURCES = 300
TEXT = "El contribuyente declara la renta del año."


def _documents(count: int = SOURCES) -> list[Document]:
    """``count`` sources of one document each, all with the same two bad keys."""
    return [
        Document(TEXT, metadata={"source": f"d{n}.txt", "authors": ["AEAT"], "when": None})
        for n in range(count)
    ]


def _splitter() -> AsesoriaTextSplitter:
    return AsesoriaTextSplitter(TOKENS, chunk_size=200)


def _transformer() -> AsesoriaDocumentTransformer:
    return AsesoriaDocumentTransformer(TOKENS, chunk_size=200)


async def _collect(stream: Any) -> list[Any]:
    return [item async for item in stream]


async def _items(documents: list[Document]) -> Any:
    for document in documents:
        yield document


#: Every way to chunk many documents in one call: (name, call -> chunk documents).
CALLS: dict[str, Callable[[list[Document]], list[Document]]] = {
    "splitter.split_documents": lambda d: _splitter().split_documents(d),
    "splitter.create_documents": lambda d: _splitter().create_documents(
        [x.page_content for x in d], [x.metadata for x in d]
    ),
    "splitter.transform_documents": lambda d: list(_splitter().transform_documents(d)),
    "splitter.atransform_documents": lambda d: list(
        asyncio.run(_splitter().atransform_documents(d))
    ),
    "transformer.transform_documents": lambda d: _transformer().transform_documents(d),
    "transformer.invoke": lambda d: _transformer().invoke(d),
    "transformer.lazy_transform_documents": lambda d: list(
        _transformer().lazy_transform_documents(iter(d))
    ),
    "transformer.alazy_transform_documents": lambda d: asyncio.run(
        _collect(_transformer().alazy_transform_documents(_items(d)))
    ),
    "transformer.atransform_documents": lambda d: list(
        asyncio.run(_transformer().atransform_documents(d))
    ),
    "transformer.stream": lambda d: [x for part in _transformer().stream(d) for x in part],
    "transformer.astream": lambda d: [
        x for part in asyncio.run(_collect(_transformer().astream(d))) for x in part
    ],
    "transformer.transform_with_parents": lambda d: (
        _transformer().transform_with_parents(d, parent_max_tokens=400).chunks
    ),
}


@contextmanager
def _told() -> Iterator[list[str]]:
    """The messages of the ``langchain_asesoria`` logger's left-out warnings meanwhile."""
    messages: list[str] = []

    class _Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.getMessage().startswith("metadata left out"):
                assert record.levelno == logging.WARNING
                messages.append(record.getMessage())

    logger, handler = logging.getLogger("langchain_asesoria"), _Keep()
    logger.addHandler(handler)
    try:
        yield messages
    finally:
        logger.removeHandler(handler)


@pytest.mark.parametrize("call", list(CALLS))
def test_hundreds_of_sources_with_the_same_bad_keys_warn_once_per_call(call: str) -> None:
    with _told() as told:
        chunks = CALLS[call](_documents())
        assert len(told) == 1, told
        CALLS[call](_documents(3))
    assert len(chunks) == SOURCES
    assert not any({"authors", "when"} & set(chunk.metadata) for chunk in chunks)
    assert len(told) == 2  # the second call is a run of its own
    assert "'authors' (a list) from 300 documents, first 'd0.txt'" in told[0]
    assert "'when' (None) from 300 documents, first 'd0.txt'" in told[0]
    assert "'authors' (a list) from 3 documents" in told[1]


def test_a_call_with_nothing_left_out_says_nothing() -> None:
    clean = [Document(TEXT, metadata={"source": "a.txt", "year": 2024})]
    with _told() as told:
        _transformer().transform_documents(clean)
        _splitter().split_documents(clean)
    assert told == []


def test_a_stream_stopped_early_tells_what_its_chunks_left_out() -> None:
    with _told() as told:
        stream = _transformer().lazy_transform_documents(iter(_documents()))
        first = next(stream)
        assert told == []  # not once per source
        stream.close()
    assert "authors" not in first.metadata
    assert len(told) == 1
    assert "'authors' (a list) from 1 document," in told[0]


def test_a_markdown_front_matter_is_told_with_the_loaders_keys() -> None:
    text = "---\ntags: [irpf]\nstatus: vigente\n---\n# Ley\n\n" + TEXT
    documents = [
        Document(text, metadata={"source": f"ley{n}.md", "authors": ["AEAT"]}) for n in range(4)
    ]
    transformer = AsesoriaDocumentTransformer(
        TOKENS, chunk_size=200, reading=ReadOptions(front_matter_metadata=True)
    )
    with _told() as told:
        chunks = transformer.transform_documents(documents)
    assert all(chunk.metadata["fm_status"] == "vigente" for chunk in chunks)
    assert told == [
        "metadata left out of the chunks of this call, as no vector store takes it: "
        "'authors' (a list) from 4 documents, first 'ley0.md'; "
        "'fm_tags' (a list) from 4 documents, first 'ley0.md'"
    ]


_KEYS = st.sampled_from(["k_a", "k_b", "k_c", "k_d"])
_VALUES = st.one_of(
    st.none(),
    st.integers(-(2**70), 2**70),
    st.floats(),
    st.text(max_size=3),
    st.lists(st.integers(), max_size=2),
    st.dates(),
)
_TOLD_KEY = re.compile(r"'(k_\w)' \(([^)]*)\) from (\d+) documents?")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.dictionaries(_KEYS, _VALUES, max_size=4), min_size=1, max_size=12))
def test_property_the_keys_told_are_the_keys_dropped_with_their_counts(
    metadatas: list[dict[str, Any]],
) -> None:
    """Whatever the values: a key is told exactly when some chunk lacks it though its
    document had it, with the number of documents that lost it; one message per call."""
    documents = [
        Document(TEXT, metadata={"source": f"s{n}.txt", **metadata})
        for n, metadata in enumerate(metadatas)
    ]
    with _told() as told:
        chunks = _transformer().transform_documents(documents)
    dropped: dict[str, int] = {}
    for document, chunk in zip(documents, chunks, strict=True):  # one chunk a source
        for key in document.metadata.keys() - chunk.metadata.keys():
            dropped[key] = dropped.get(key, 0) + 1
            assert store_value(document.metadata[key]) is None
    assert len(told) == (1 if dropped else 0)
    counted: dict[str, int] = {}
    for key, _, count in _TOLD_KEY.findall(told[0] if told else ""):
        counted[key] = counted.get(key, 0) + int(count)
    assert counted == dropped


def test_a_tally_counts_each_key_and_reason_apart_in_first_seen_order() -> None:
    tally = LeftOutTally()
    tally.add([("b", "None"), ("a", "a list")], "one.md")
    tally.add([("a", "a list"), ("a", "None")], "two.md", times=2)
    assert tally.keys() == {"a", "b"}
    assert tally.message("file") == (
        "'b' (None) from 1 file, first 'one.md'; 'a' (a list) from 3 files, first 'one.md'; "
        "'a' (None) from 2 files, first 'two.md'"
    )
    assert LeftOutTally().message() is None
