"""Re-indexing: the same document replaces its chunks, a shorter one leaves no orphans.

``reindex`` (LangChain's indexing API with a record manager, cleanup per ``doc_id``)
is proven on ``InMemoryVectorStore`` and on a real persistent Chroma store. Plain
``add_documents`` is an upsert by the stable ``chunk_id``, but cannot delete what is
gone: that is why ``reindex`` exists.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.indexing import InMemoryRecordManager
from langchain_core.vectorstores import InMemoryVectorStore, VectorStore

from langchain_asesoria import ChunkingConfig, ConfigurationError
from langchain_asesoria.langchain import (
    AsesoriaDocumentTransformer,
    AsesoriaEmbeddings,
    delete_documents,
    reindex,
)
from langchain_asesoria.records import CHUNK_ID, DOC_ID, SESSION_ID, SOURCE_SCOPE
from langchain_asesoria.testing import ByteTokenization, RecordingEmbeddings

E5 = ByteTokenization(512, document_prefix="passage: ", query_prefix="query: ")
CONFIG = ChunkingConfig(max_tokens=80, overlap_tokens=8)
PARAGRAPH = (
    "El contribuyente integra y compensa las rentas del período según su origen. "
    "Las pérdidas patrimoniales se compensan con las ganancias del mismo año. "
)


def pages(source: str, count: int) -> list[Document]:
    """A PDF-like source: ``count`` pages of 0-based ``page`` metadata."""
    return [
        Document(
            f"Página {index + 1}. " + PARAGRAPH * 2, metadata={"source": source, "page": index}
        )
        for index in range(count)
    ]


def chunks(source: str, count: int, **fields: Any) -> list[Document]:
    transformer = AsesoriaDocumentTransformer(E5, CONFIG, tax="IRPF", **fields)
    return transformer.invoke(pages(source, count))


# -- stores ---------------------------------------------------------------------------


def in_memory_store(_: Path) -> InMemoryVectorStore:
    return InMemoryVectorStore(AsesoriaEmbeddings(RecordingEmbeddings(), E5))


def chroma_store(folder: Path) -> VectorStore:
    chromadb = pytest.importorskip("chromadb", reason="pip install 'langchain-asesoria[chroma]'")
    langchain_chroma = pytest.importorskip(
        "langchain_chroma", reason="pip install 'langchain-asesoria[chroma]'"
    )
    client = chromadb.PersistentClient(
        path=str(folder / "chroma"), settings=chromadb.Settings(anonymized_telemetry=False)
    )
    store: VectorStore = langchain_chroma.Chroma(
        collection_name="reindex",
        embedding_function=AsesoriaEmbeddings(RecordingEmbeddings(), E5),
        client=client,
    )
    return store


def stored(store: VectorStore) -> list[dict[str, Any]]:
    """Every chunk's metadata in the store, whatever the store."""
    if isinstance(store, InMemoryVectorStore):
        return [dict(entry["metadata"]) for entry in store.store.values()]
    result = store.get(include=["metadatas"])  # type: ignore[attr-defined]
    return [dict(metadata) for metadata in result["metadatas"]]


def chunk_ids_of(store: VectorStore, doc_id: str) -> set[str]:
    return {str(m[CHUNK_ID]) for m in stored(store) if m[DOC_ID] == doc_id}


StoreFactory = Callable[[Path], VectorStore]


@pytest.fixture(params=[in_memory_store, chroma_store], ids=["in-memory", "chroma"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> VectorStore:
    factory: StoreFactory = request.param
    return factory(tmp_path)


@pytest.fixture
def records() -> InMemoryRecordManager:
    manager = InMemoryRecordManager("asesoria/test")
    manager.create_schema()
    return manager


# -- reindex --------------------------------------------------------------------------


def test_reindexing_the_same_document_replaces_instead_of_duplicating(
    store: VectorStore, records: InMemoryRecordManager
) -> None:
    first = chunks("manual.pdf", 6)
    result = reindex(store, first, records)
    assert (result["num_added"], result["num_deleted"]) == (len(first), 0)
    again = reindex(store, chunks("manual.pdf", 6), records)
    assert again["num_added"] == again["num_deleted"] == 0
    assert again["num_skipped"] == len(first)  # unchanged chunks are not embedded again
    assert len(stored(store)) == len(first)
    assert chunk_ids_of(store, "manual.pdf") == {d.metadata[CHUNK_ID] for d in first}


def test_reindexing_a_shortened_document_leaves_no_orphans(
    store: VectorStore, records: InMemoryRecordManager
) -> None:
    long, other = chunks("manual.pdf", 8), chunks("otro.pdf", 3)
    reindex(store, [*long, *other], records)
    short = chunks("manual.pdf", 2)
    assert len(short) < len(long)
    result = reindex(store, short, records)
    assert chunk_ids_of(store, "manual.pdf") == {d.metadata[CHUNK_ID] for d in short}
    assert result["num_deleted"] == len(long) - result["num_skipped"]
    assert chunk_ids_of(store, "otro.pdf") == {d.metadata[CHUNK_ID] for d in other}
    assert len(stored(store)) == len(short) + len(other)


def test_a_document_made_private_keeps_no_public_copy(
    store: VectorStore, records: InMemoryRecordManager
) -> None:
    """Same text, same chunk_id, other fields: the old version must not stay retrievable."""
    public = chunks("nomina.pdf", 3)
    reindex(store, public, records)
    private = chunks("nomina.pdf", 3, source_scope="private", session_id="ana")
    assert [d.metadata[CHUNK_ID] for d in private] == [d.metadata[CHUNK_ID] for d in public]
    reindex(store, private, records)
    metadatas = stored(store)
    assert len(metadatas) == len(private)
    assert {(m[SOURCE_SCOPE], m.get(SESSION_ID)) for m in metadatas} == {("private", "ana")}


def test_incremental_cleanup_gives_the_same_store(
    store: VectorStore, records: InMemoryRecordManager
) -> None:
    reindex(store, chunks("manual.pdf", 8), records, cleanup="incremental", batch_size=3)
    short = chunks("manual.pdf", 3)
    reindex(store, short, records, cleanup="incremental", batch_size=3)
    assert chunk_ids_of(store, "manual.pdf") == {d.metadata[CHUNK_ID] for d in short}
    assert len(stored(store)) == len(short)


def test_delete_documents_removes_a_whole_document(
    store: VectorStore, records: InMemoryRecordManager
) -> None:
    reindex(store, [*chunks("manual.pdf", 4), *chunks("otro.pdf", 2)], records)
    removed = delete_documents(store, records, ["manual.pdf"])
    assert removed > 0
    assert {m[DOC_ID] for m in stored(store)} == {"otro.pdf"}
    assert delete_documents(store, records, ["manual.pdf"]) == 0


def test_plain_add_documents_upserts_but_keeps_orphans() -> None:
    """Why reindex exists: stable ids make add_documents an upsert, never a cleanup."""
    store = in_memory_store(Path())
    long = chunks("manual.pdf", 8)
    store.add_documents(long)
    store.add_documents(chunks("manual.pdf", 8))
    assert len(store.store) == len(long)  # no duplicates
    short = chunks("manual.pdf", 2)
    store.add_documents(short)
    orphans = {d.id for d in long} - {d.id for d in short}
    assert orphans
    assert orphans <= set(store.store)  # the long version's trailing chunks remain


# -- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("documents", "message"),
    [
        ([Document("sin doc_id", metadata={CHUNK_ID: "c1"})], "document 0 (chunk_id 'c1')"),
        ([Document("sin doc_id", metadata={DOC_ID: ""})], "document 0 (starting 'sin doc_id')"),
        (["not a document"], "item 0 is str"),
    ],
    ids=["no-doc-id", "empty-doc-id", "not-a-document"],
)
def test_documents_without_a_doc_id_are_refused_by_position(
    records: InMemoryRecordManager, documents: list[Any], message: str
) -> None:
    store = in_memory_store(Path())
    with pytest.raises(ConfigurationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        reindex(store, documents, records)
    assert not store.store


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cleanup": "full"}, "cleanup must be"),
        ({"batch_size": 0}, "batch_size must be"),
    ],
)
def test_bad_options_are_configuration_errors(
    records: InMemoryRecordManager, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(ConfigurationError, match=message):
        reindex(in_memory_store(Path()), chunks("a.pdf", 1), records, **kwargs)


def test_delete_documents_refuses_a_bare_string(records: InMemoryRecordManager) -> None:
    with pytest.raises(ConfigurationError, match=r"pass \['manual.pdf'\]"):
        delete_documents(in_memory_store(Path()), records, "manual.pdf")


def test_langchain_incremental_index_churns_a_source_that_reindex_skips(
    records: InMemoryRecordManager,
) -> None:
    """Why the docs point to ``reindex``: LangChain's ``index`` with ``"incremental"``
    cleans up after each batch, so a source spanning batches loses the chunks of its
    later batches on every run over unchanged input and writes them again."""
    from langchain_core.indexing import index

    store = in_memory_store(Path())
    documents = chunks("manual.pdf", 8)
    assert len(documents) > 6
    options: dict[str, Any] = {
        "cleanup": "incremental",
        "source_id_key": DOC_ID,
        "batch_size": 3,
        "key_encoder": "sha256",
    }
    index(documents, records, store, **options)
    again = index(chunks("manual.pdf", 8), records, store, **options)
    assert again["num_added"] > 0
    assert again["num_deleted"] > 0  # unchanged chunks deleted, then written again
    scoped = InMemoryRecordManager("asesoria/scoped")
    scoped.create_schema()
    other = in_memory_store(Path())
    reindex(other, documents, scoped, batch_size=3)
    result = reindex(other, chunks("manual.pdf", 8), scoped, batch_size=3)
    assert (result["num_added"], result["num_deleted"]) == (0, 0)
    assert result["num_skipped"] == len(documents)


def test_an_edit_embeds_again_the_chunks_after_it_and_skips_those_before(
    records: InMemoryRecordManager,
) -> None:
    """Offsets are hashed with the chunk: after an edit, the chunks that moved are
    written again (a copy under the old key would cite the wrong place)."""
    store = in_memory_store(Path())
    original = pages("manual.pdf", 6)
    transformer = AsesoriaDocumentTransformer(E5, CONFIG, tax="IRPF")
    first = transformer.invoke(original)
    reindex(store, first, records)
    edited = [
        *original[:3],
        Document("Añadido. " + original[3].page_content, metadata=original[3].metadata),
        *original[4:],
    ]
    second = transformer.invoke(edited)
    result = reindex(store, second, records)
    before = [d for d in first if d.metadata["page_end"] < 4]
    assert result["num_skipped"] == len(before)
    assert result["num_added"] == len(second) - len(before)
    assert len(stored(store)) == len(second)
