"""The transformer in LCEL pipelines: invoke, batch, ainvoke, stream, and lazy streaming."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any
from uuid import UUID

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.runnables import RunnableGenerator, RunnableLambda
from langchain_core.vectorstores import InMemoryVectorStore

from langchain_asesoria import ChunkingConfig, InvalidPagesError
from langchain_asesoria.langchain import AsesoriaDocumentTransformer
from langchain_asesoria.records import PAGE, PAGE_END, SOURCE
from langchain_asesoria.testing import RecordingEmbeddings, WordTokenization

TEXTS = {
    "renta.pdf": [
        "Las pérdidas patrimoniales se compensan con ganancias del mismo año.",
        "El saldo negativo se compensa en los cuatro años siguientes.",
        "Caso práctico de compensación entre rendimientos y ganancias.",
    ],
    "patrimonio.pdf": [
        "El impuesto sobre el patrimonio grava el patrimonio neto de las personas físicas.",
        "Están exentos los bienes del patrimonio histórico español.",
    ],
    "guia.md": ["# Guía\n\nCómo presentar la declaración.\n\n## Plazos\n\nDe abril a junio."],
}


def load(source: str) -> list[Document]:
    pages = TEXTS[source]
    if len(pages) == 1:
        return [Document(page_content=pages[0], metadata={"source": source})]
    return [
        Document(page_content=text, metadata={"source": source, "page": index})
        for index, text in enumerate(pages)
    ]


def load_all(sources: list[str]) -> list[Document]:
    return [page for source in sources for page in load(source)]


def make_transformer() -> AsesoriaDocumentTransformer:
    config = ChunkingConfig(max_tokens=24, overlap_tokens=4)
    return AsesoriaDocumentTransformer(
        WordTokenization(512), config, detect_markdown_headings=True, tax="IRPF"
    )


def expected_for(sources: list[str]) -> list[Document]:
    return make_transformer().transform_documents(load_all(sources))


class Indexer:
    """An indexing step: adds chunks to an InMemoryVectorStore, returns their ids."""

    def __init__(self) -> None:
        self.store = InMemoryVectorStore(RecordingEmbeddings())

    def __call__(self, documents: list[Document]) -> list[str]:
        return self.store.add_documents(documents)


SOURCES = ["renta.pdf", "patrimonio.pdf", "guia.md"]


def test_loader_transformer_indexer_chain_invoke() -> None:
    indexer = Indexer()
    chain = RunnableLambda(load_all) | make_transformer() | RunnableLambda(indexer)
    ids = chain.invoke(SOURCES)
    expected = expected_for(SOURCES)
    assert ids == [d.id for d in expected]
    assert len(indexer.store.store) == len(expected)
    assert chain.invoke(SOURCES) == ids  # re-indexing is an upsert
    assert len(indexer.store.store) == len(expected)


def test_invoke_accepts_one_document_or_any_iterable() -> None:
    transformer = make_transformer()
    document = load("guia.md")[0]
    assert transformer.invoke(document) == expected_for(["guia.md"])
    assert transformer.invoke(iter(load_all(SOURCES))) == expected_for(SOURCES)
    with pytest.raises(InvalidPagesError, match="got str"):
        transformer.invoke("not documents")  # type: ignore[arg-type]


def test_batch_and_abatch() -> None:
    chain = RunnableLambda(load_all) | make_transformer()
    inputs = [["renta.pdf"], ["patrimonio.pdf", "guia.md"]]
    expected = [expected_for(sources) for sources in inputs]
    assert chain.batch(inputs) == expected
    assert asyncio.run(chain.abatch(inputs)) == expected


def test_ainvoke() -> None:
    chain = RunnableLambda(load_all) | make_transformer()
    assert asyncio.run(chain.ainvoke(SOURCES)) == expected_for(SOURCES)


def test_stream_yields_one_list_per_source() -> None:
    parts = list(make_transformer().stream(load_all(SOURCES)))
    assert [{d.metadata[SOURCE] for d in part} for part in parts] == [{s} for s in SOURCES]
    assert [d for part in parts for d in part] == expected_for(SOURCES)


def test_astream_yields_one_list_per_source() -> None:
    async def collect() -> list[list[Document]]:
        return [part async for part in make_transformer().astream(load_all(SOURCES))]

    parts = asyncio.run(collect())
    assert [d for part in parts for d in part] == expected_for(SOURCES)
    assert len(parts) == len(SOURCES)


def test_streaming_chain_chunks_each_source_before_loading_the_next_but_one() -> None:
    """A lazy loader step yields one page at a time; the transformer emits a source's
    chunks as soon as the next source starts, never holding every source."""
    events: list[str] = []

    def lazy_loader(paths: Iterator[list[str]]) -> Iterator[Document]:
        for batch in paths:
            for source in batch:
                for page in load(source):
                    events.append(f"load {source}")
                    yield page

    def record(parts: Iterator[list[Document]]) -> Iterator[int]:
        for part in parts:
            events.append(f"chunks {part[0].metadata[SOURCE]}")
            yield len(part)

    chain = RunnableGenerator(lazy_loader) | make_transformer() | RunnableGenerator(record)
    counts = list(chain.stream(SOURCES))
    assert counts == [len(expected_for([source])) for source in SOURCES]
    assert events == [
        *["load renta.pdf"] * 3,
        "load patrimonio.pdf",  # the next source starts: renta.pdf is complete
        "chunks renta.pdf",
        "load patrimonio.pdf",
        "load guia.md",
        "chunks patrimonio.pdf",
        "chunks guia.md",
    ]


def test_lazy_transform_documents_holds_one_source_at_a_time() -> None:
    pulled: list[str] = []

    def documents() -> Iterator[Document]:
        for source in SOURCES:
            for page in load(source):
                pulled.append(source)
                yield page

    seen: list[tuple[str, int]] = []
    for chunk in make_transformer().lazy_transform_documents(documents()):
        source = chunk.metadata[SOURCE]
        # when a source's chunk comes out, at most one page of the next source is loaded
        loaded_after = pulled[len(pulled) - pulled[::-1].index(source) :]
        assert len(loaded_after) <= 1
        seen.append((source, chunk.metadata[PAGE]))
    assert [s for s, _ in seen] == [d.metadata[SOURCE] for d in expected_for(SOURCES)]


def test_lazy_transform_documents_builds_one_chunk_document_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A long source's chunks become documents as they are read, not all at once."""
    transformer = make_transformer()
    built: list[int] = []
    original = AsesoriaDocumentTransformer._document

    def document(self: AsesoriaDocumentTransformer, *args: Any) -> Document:
        built.append(1)
        return original(self, *args)

    monkeypatch.setattr(AsesoriaDocumentTransformer, "_document", document)
    long_source = [
        Document(
            page_content="El saldo negativo se compensa en cuatro años. " * 40,
            metadata={"source": "larga.pdf", "page": page},
        )
        for page in range(3)
    ]
    lazy = transformer.lazy_transform_documents(long_source)
    first = next(lazy)
    assert len(built) == 1
    rest = list(lazy)
    assert len(built) == 1 + len(rest) > 10
    assert [first, *rest] == make_transformer().transform_documents(long_source)


def test_alazy_transform_documents() -> None:
    async def documents() -> AsyncIterator[Document]:
        for page in load_all(SOURCES):
            await asyncio.sleep(0)
            yield page

    async def collect() -> list[Document]:
        transformer = make_transformer()
        return [chunk async for chunk in transformer.alazy_transform_documents(documents())]

    assert asyncio.run(collect()) == expected_for(SOURCES)


def test_lazy_streaming_refuses_a_source_that_comes_back() -> None:
    pages = load("renta.pdf")
    interleaved = [pages[0], *load("guia.md"), *pages[1:]]
    with pytest.raises(InvalidPagesError, match=r"^renta\.pdf: its documents arrive again"):
        list(make_transformer().lazy_transform_documents(interleaved))
    with pytest.raises(InvalidPagesError, match="arrive again"):
        list(make_transformer().stream(interleaved))
    chunks = make_transformer().invoke(interleaved)  # the eager path groups them
    assert {(d.metadata[SOURCE], d.metadata[PAGE_END]) for d in chunks} >= {("renta.pdf", 3)}


def test_lazy_streaming_orders_the_pages_of_each_source() -> None:
    reversed_pages = load("renta.pdf")[::-1] + load("patrimonio.pdf")[::-1]
    result = list(make_transformer().lazy_transform_documents(reversed_pages))
    assert result == expected_for(["renta.pdf", "patrimonio.pdf"])


class _Runs(BaseCallbackHandler):
    def __init__(self) -> None:
        self.starts: list[Any] = []
        self.ends: list[tuple[Any, Any]] = []
        self.errors: list[BaseException] = []

    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self.starts.append(inputs)

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self.ends.append((kwargs.get("inputs"), outputs))

    def on_chain_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self.errors.append(error)


def test_a_streamed_run_traces_the_documents_in_and_out() -> None:
    runs = _Runs()
    transformer = make_transformer()
    pages = load_all(SOURCES)
    list(transformer.stream(pages, {"callbacks": [runs]}))
    assert runs.ends == [(pages, expected_for(SOURCES))]
    with pytest.raises(InvalidPagesError):
        list(transformer.stream(["x"], {"callbacks": [runs]}))  # type: ignore[list-item]
    assert len(runs.errors) == 1


def test_a_streamed_chain_traces_each_page_it_received() -> None:
    """A loader step streams one page at a time: the run's input is every page."""
    runs = _Runs()

    def lazy_loader(paths: Iterator[list[str]]) -> Iterator[Document]:
        for batch in paths:
            for source in batch:
                yield from load(source)

    chain = RunnableGenerator(lazy_loader) | make_transformer().with_config(callbacks=[runs])
    parts = list(chain.stream(SOURCES))
    inputs, outputs = runs.ends[-1]
    assert inputs == load_all(SOURCES)
    assert outputs == [d for part in parts for d in part] == expected_for(SOURCES)


def test_astream_events_emit_one_stream_event_per_source() -> None:
    async def events() -> list[dict[str, Any]]:
        transformer = make_transformer()
        return [event async for event in transformer.astream_events(load_all(SOURCES))]

    seen = asyncio.run(events())
    streamed = [e["data"]["chunk"] for e in seen if e["event"] == "on_chain_stream"]
    assert [{d.metadata[SOURCE] for d in part} for part in streamed] == [{s} for s in SOURCES]
    (start,) = [e for e in seen if e["event"] == "on_chain_start"]
    (end,) = [e for e in seen if e["event"] == "on_chain_end"]
    assert start["data"]["input"] == load_all(SOURCES)
    assert end["data"]["output"] == expected_for(SOURCES)


def test_schemas_name_documents() -> None:
    transformer = make_transformer()
    assert "Document" in str(transformer.get_input_jsonschema())
    assert "Document" in str(transformer.get_output_jsonschema())
