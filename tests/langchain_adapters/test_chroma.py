"""A real Chroma store: metadata accepted as produced, sessions isolated, ids upsert.

Needs the ``chroma`` extra (``pip install 'langchain-asesoria[chroma]'``); skipped
without it. Chroma runs offline with a persistent client in a temporary folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.documents import Document

from langchain_asesoria import ChunkingConfig
from langchain_asesoria.langchain import (
    AsesoriaDocumentTransformer,
    AsesoriaEmbeddings,
    chroma_session_filter,
    original_text,
)
from langchain_asesoria.records import CHUNK_ID, PAGE, PAGE_END, SESSION_ID, SOURCE_SCOPE
from langchain_asesoria.testing import ByteTokenization, RecordingEmbeddings

chromadb = pytest.importorskip("chromadb", reason="pip install 'langchain-asesoria[chroma]'")
langchain_chroma = pytest.importorskip(
    "langchain_chroma", reason="pip install 'langchain-asesoria[chroma]'"
)

E5 = ByteTokenization(512, document_prefix="passage: ", query_prefix="query: ")
CONFIG = ChunkingConfig(max_tokens=96, overlap_tokens=12)

PRIVATE = {
    "ana": [
        # a sentence that runs on across the page break, as a PDF's does: chunks end at
        # sentence ends whenever one fits, so only such a sentence makes one span pages
        "Nómina de Ana: rendimientos del trabajo de 31.000 euros,",
        "Ana vendió fondos con pérdidas patrimoniales de 2.000 euros.",
    ],
    "luis": [
        "Nómina de Luis: rendimientos del trabajo de 45.000 euros.",
        "Luis vendió acciones con ganancias patrimoniales de 9.000 euros.",
    ],
}
PUBLIC = (
    "# Compensación\n\nLas pérdidas patrimoniales se compensan con las ganancias "
    "patrimoniales.\n\n## Saldo negativo\n\nEl saldo negativo se compensa en cuatro años."
)


def pdf(source: str, pages: list[str]) -> list[Document]:
    return [
        Document(page_content=text * 2, metadata={"source": source, "page": index})
        for index, text in enumerate(pages)
    ]


def produce() -> list[Document]:
    public = AsesoriaDocumentTransformer(
        E5, CONFIG, detect_markdown_headings=True, tax="IRPF", fiscal_year=2023
    )
    documents = public.invoke(Document(PUBLIC, metadata={"source": "guia.md"}))
    for session, pages in PRIVATE.items():
        private = AsesoriaDocumentTransformer(
            E5,
            CONFIG,
            detect_markdown_headings=True,
            source_scope="private",
            session_id=session,
            tax="IRPF",
        )
        documents += private.invoke(pdf(f"{session}/declaracion.pdf", pages))
    return documents


@pytest.fixture
def store(tmp_path: Path) -> Any:
    client = chromadb.PersistentClient(
        path=str(tmp_path / "chroma"), settings=chromadb.Settings(anonymized_telemetry=False)
    )
    return langchain_chroma.Chroma(
        collection_name="asesoria",
        embedding_function=AsesoriaEmbeddings(RecordingEmbeddings(), E5),
        client=client,
    )


def test_chroma_accepts_all_metadata_as_produced(store: Any) -> None:
    documents = produce()
    assert any(d.metadata[PAGE] != d.metadata[PAGE_END] for d in documents)
    ids = store.add_documents(documents)
    assert ids == [d.id for d in documents]
    stored = store.get(ids=ids, include=["metadatas", "documents"])
    by_id = dict(
        zip(stored["ids"], zip(stored["metadatas"], stored["documents"], strict=True), strict=True)
    )
    for document in documents:
        metadata, content = by_id[document.id]
        assert metadata == document.metadata  # nothing dropped, nothing changed
        assert content == document.page_content


def test_reindexing_the_same_input_is_an_upsert(store: Any) -> None:
    store.add_documents(produce())
    count = store._collection.count()
    store.add_documents(produce())
    assert store._collection.count() == count == len(produce())


def test_no_session_ever_retrieves_another_sessions_chunks(store: Any) -> None:
    documents = produce()
    store.add_documents(documents)
    everything = len(documents)
    queries = [text for pages in PRIVATE.values() for text in pages] + [
        "pérdidas patrimoniales",
        "Nómina",
        "saldo negativo",
    ]
    for session, other in (("ana", "luis"), ("luis", "ana")):
        where = chroma_session_filter(session)
        for query in queries:
            hits = store.similarity_search(query, k=everything, filter=where)
            assert {hit.metadata.get(SESSION_ID) for hit in hits} <= {session, None}
            assert {hit.metadata[SOURCE_SCOPE] for hit in hits} == {"public", "private"}
            assert not any(other.title() in original_text(hit) for hit in hits)
        retriever = store.as_retriever(search_kwargs={"k": everything, "filter": where})
        assert all(
            hit.metadata.get(SESSION_ID) in (session, None) for hit in retriever.invoke("euros")
        )
    anonymous = store.similarity_search("Nómina", k=everything, filter=chroma_session_filter(None))
    assert anonymous
    assert {hit.metadata[SOURCE_SCOPE] for hit in anonymous} == {"public"}


def test_retrieved_chunks_keep_their_ids(store: Any) -> None:
    documents = produce()
    store.add_documents(documents)
    hit = store.similarity_search("saldo negativo", k=1, filter=chroma_session_filter(None))[0]
    assert hit.id == hit.metadata[CHUNK_ID]
    assert hit in documents


LAW = """# Ley 1/2024, de prueba

## TÍTULO I. Objeto

##### Artículo 1. Objeto.

Esta ley regula el impuesto de prueba en todo el territorio.

## TÍTULO II. Exenciones

### CAPÍTULO I. Entidades

##### Artículo 20. Exenciones.

Están exentas las entidades sin fines lucrativos que cumplan los requisitos.

##### Artículo 21. Requisitos.

Los requisitos se acreditan ante la Administración tributaria competente.

## Disposiciones finales

##### Disposición final única. Entrada en vigor.

Esta ley entra en vigor al día siguiente de su publicación.
"""


def test_chroma_filters_by_any_level_of_the_path_with_equality(store: Any) -> None:
    """``$contains`` on ``section_path`` finds nothing in Chroma's metadata; the fields a
    level and a legal unit find every chunk of a TÍTULO, an article, a level."""
    laws = [
        Document(LAW, metadata={"source": "ley-1-2024.md"}),
        Document(LAW.replace("Ley 1/2024", "Ley 2/2024"), metadata={"source": "ley-2-2024.md"}),
    ]
    documents = AsesoriaDocumentTransformer(E5, ChunkingConfig(48, 0)).invoke(laws)
    store.add_documents(documents)

    def found(where: dict[str, Any]) -> set[str]:
        return set(store.get(where=where)["ids"])

    def expected(element: str, doc_id: str | None = None) -> set[str]:
        return {
            str(d.id)
            for d in documents
            if element in str(d.metadata["section_path"]).split(" > ")
            and doc_id in (None, d.metadata["doc_id"])
        }

    in_titulo_ii = found({"titulo": "TÍTULO II"})
    assert in_titulo_ii == expected("TÍTULO II. Exenciones")
    assert len(in_titulo_ii) >= 4
    assert found({"titulo_title": "TÍTULO II. Exenciones"}) == in_titulo_ii
    article = {"$and": [{"doc_id": "ley-2-2024.md"}, {"articulo": "Artículo 20"}]}
    assert found(article) == expected("Artículo 20. Exenciones.", "ley-2-2024.md") != set()
    hits = store.similarity_search("entidades exentas", k=10, filter=article)
    assert {hit.metadata["articulo_title"] for hit in hits} == {"Artículo 20. Exenciones."}
    assert found({"capitulo": "CAPÍTULO I"}) == expected("CAPÍTULO I. Entidades")
    assert found({"disposicion": "Disposición final única"}) == expected(
        "Disposición final única. Entrada en vigor."
    )
    assert found({"section_1": "Ley 1/2024, de prueba"}) == {
        str(d.id) for d in documents if d.metadata["doc_id"] == "ley-1-2024.md"
    }
