"""The embedder gets exactly embedding_text; each query gets the query prefix once."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.documents import Document
from langchain_core.vectorstores import InMemoryVectorStore

from langchain_asesoria import ChunkingConfig, ConfigurationError
from langchain_asesoria.langchain import (
    AsesoriaDocumentTransformer,
    AsesoriaEmbeddings,
    PageContent,
    citation,
    original_text,
)
from langchain_asesoria.records import EMBEDDING_TEXT, TEXT
from langchain_asesoria.testing import ByteTokenization, RecordingEmbeddings

E5 = ByteTokenization(512, document_prefix="passage: ", query_prefix="query: ")

GUIDE = [
    Document(
        page_content="# Compensación\n\nLas pérdidas patrimoniales se compensan con ganancias "
        "patrimoniales del mismo periodo.\n\n## Saldo negativo\n\nEl saldo negativo se "
        "compensa durante los cuatro años siguientes.",
        metadata={"source": "guia.md"},
    ),
    Document(
        page_content="El impuesto sobre el patrimonio grava el patrimonio neto.",
        metadata={"source": "ley.txt"},
    ),
]


def chunks(page_content: PageContent = "embedding_text") -> list[Document]:
    config = ChunkingConfig(max_tokens=160, overlap_tokens=16)
    return AsesoriaDocumentTransformer(
        E5, config, page_content=page_content, detect_markdown_headings=True, tax="IRPF"
    ).transform_documents(GUIDE)


def indexed() -> tuple[InMemoryVectorStore, RecordingEmbeddings, list[Document]]:
    recorder = RecordingEmbeddings()
    store = InMemoryVectorStore(AsesoriaEmbeddings(recorder, E5))
    documents = chunks()
    store.add_documents(documents)
    return store, recorder, documents


def test_the_embedder_receives_exactly_each_chunks_embedding_text() -> None:
    _, recorder, documents = indexed()
    expected = [
        E5.prepare(d.metadata[TEXT], "") for d in documents if not d.metadata["section_path"]
    ]
    assert recorder.documents == [d.page_content for d in documents]
    assert set(expected) <= set(recorder.documents)
    for text in recorder.documents:
        assert text.startswith("passage: ")
        assert not text.startswith("passage: passage: ")
    with_context = [t for t in recorder.documents if "Saldo negativo\n\n" in t]
    assert with_context  # the section context is part of what the model reads


def test_each_query_gets_the_query_prefix_exactly_once() -> None:
    store, recorder, _ = indexed()
    store.similarity_search("¿cómo se compensa el saldo negativo?", k=2)
    store.similarity_search("query: ya lleva el prefijo", k=1)
    store.as_retriever(search_kwargs={"k": 1}).invoke("patrimonio neto")
    assert recorder.queries == [
        "query: ¿cómo se compensa el saldo negativo?",
        "query: ya lleva el prefijo",
        "query: patrimonio neto",
    ]


def test_async_paths_prefix_once_and_pass_documents_unchanged() -> None:
    recorder = RecordingEmbeddings()
    store = InMemoryVectorStore(AsesoriaEmbeddings(recorder, E5))
    documents = chunks()

    async def run() -> list[Document]:
        await store.aadd_documents(documents)
        return await store.asimilarity_search("saldo negativo", k=1)

    hits = asyncio.run(run())
    assert recorder.documents == [d.page_content for d in documents]
    assert recorder.queries == ["query: saldo negativo"]
    assert "saldo negativo" in original_text(hits[0])


def test_retrieved_chunks_quote_the_original_text_with_a_citation() -> None:
    store, _, _ = indexed()
    hit = store.similarity_search("saldo negativo cuatro años siguientes", k=1)[0]
    assert original_text(hit) == hit.metadata[TEXT]
    assert original_text(hit).startswith("## Saldo negativo")
    assert citation(hit) == "guia.md, p. 1, § Compensación > Saldo negativo"


def test_reindexing_is_an_upsert() -> None:
    store, _, documents = indexed()
    store.add_documents(chunks())
    assert len(store.store) == len(documents)
    assert set(store.store) == {d.id for d in documents}


def test_original_text_in_page_content_is_refused_for_prefixed_models() -> None:
    recorder = RecordingEmbeddings()
    store = InMemoryVectorStore(AsesoriaEmbeddings(recorder, E5))
    with pytest.raises(ConfigurationError, match="lacks the model's document prefix 'passage: '"):
        store.add_documents(chunks("text"))
    assert recorder.documents == []


def test_text_mode_can_still_embed_embedding_text_explicitly() -> None:
    recorder = RecordingEmbeddings()
    store = InMemoryVectorStore(AsesoriaEmbeddings(recorder, E5))
    documents = chunks("text")
    store.add_texts(
        [d.metadata[EMBEDDING_TEXT] for d in documents],
        [d.metadata for d in documents],
        ids=[d.id for d in documents if d.id],
    )
    assert recorder.documents == [d.metadata[EMBEDDING_TEXT] for d in documents]


def test_the_document_check_can_be_switched_off() -> None:
    recorder = RecordingEmbeddings()
    embeddings = AsesoriaEmbeddings(recorder, E5, require_document_prefix=False)
    embeddings.embed_documents(["texto preparado en otro sitio"])
    assert recorder.documents == ["texto preparado en otro sitio"]


def test_models_without_prefixes_pass_everything_unchanged() -> None:
    recorder = RecordingEmbeddings()
    embeddings = AsesoriaEmbeddings(recorder, ByteTokenization(256))
    embeddings.embed_documents(["uno", "dos"])
    embeddings.embed_query("tres")
    assert (recorder.documents, recorder.queries) == (["uno", "dos"], ["tres"])
    assert embeddings.query_text("tres") == "tres"


def test_wrapper_arguments_are_checked() -> None:
    with pytest.raises(ConfigurationError, match="LangChain Embeddings"):
        AsesoriaEmbeddings("model", E5)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="Tokenization protocol"):
        AsesoriaEmbeddings(RecordingEmbeddings(), "e5")  # type: ignore[arg-type]


def test_recording_embeddings_are_deterministic_unit_vectors() -> None:
    recorder = RecordingEmbeddings(size=32)
    first, second = recorder.embed_documents(["Renta y patrimonio", "renta y PATRIMONIO"])
    assert first == second
    assert abs(sum(v * v for v in first) - 1.0) < 1e-9
    assert recorder.embed_query("") == recorder.vector("")
