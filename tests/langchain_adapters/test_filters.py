"""Private chunks stay in their session: filter helpers and InMemoryVectorStore."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.vectorstores import InMemoryVectorStore

from langchain_asesoria import ChunkingConfig, PrivacyError
from langchain_asesoria.langchain import (
    AsesoriaDocumentTransformer,
    AsesoriaEmbeddings,
    chroma_session_filter,
    in_memory_session_filter,
    visible_to_session,
)
from langchain_asesoria.records import SESSION_ID, SOURCE_SCOPE
from langchain_asesoria.testing import ByteTokenization, RecordingEmbeddings

E5 = ByteTokenization(512, document_prefix="passage: ", query_prefix="query: ")
CONFIG = ChunkingConfig(max_tokens=80, overlap_tokens=8)

PRIVATE = {
    "ana": "Nómina de Ana: rendimientos del trabajo de 31.000 euros y pérdidas en fondos.",
    "luis": "Nómina de Luis: rendimientos del trabajo de 45.000 euros y ganancias en acciones.",
}
PUBLIC = "Las pérdidas patrimoniales se compensan con las ganancias patrimoniales del año."


def private_chunks(session: str) -> list[Document]:
    transformer = AsesoriaDocumentTransformer(
        E5, CONFIG, source_scope="private", session_id=session
    )
    page = Document(page_content=PRIVATE[session] * 3, metadata={"source": f"{session}.pdf"})
    return transformer.transform_documents([page])


def public_chunks() -> list[Document]:
    transformer = AsesoriaDocumentTransformer(E5, CONFIG, source_scope="public")
    return transformer.transform_documents([Document(PUBLIC, metadata={"source": "guia.pdf"})])


@pytest.mark.parametrize(
    ("metadata", "session", "visible"),
    [
        ({SOURCE_SCOPE: "public"}, None, True),
        ({SOURCE_SCOPE: "public"}, "ana", True),
        ({SOURCE_SCOPE: "public", SESSION_ID: "luis"}, "ana", True),
        ({SOURCE_SCOPE: "private", SESSION_ID: "ana"}, "ana", True),
        ({SOURCE_SCOPE: "private", SESSION_ID: "luis"}, "ana", False),
        ({SOURCE_SCOPE: "private", SESSION_ID: "ana"}, None, False),
        ({SOURCE_SCOPE: "private"}, "ana", False),
        ({SESSION_ID: "ana"}, "ana", False),  # no scope: fail closed
        ({}, None, False),
    ],
)
def test_visibility_table(metadata: dict[str, Any], session: str | None, visible: bool) -> None:
    assert visible_to_session(metadata, session) is visible
    assert in_memory_session_filter(session)(Document("x", metadata=metadata)) is visible


@pytest.mark.parametrize(
    ("session", "expected"),
    [
        (None, {"source_scope": {"$eq": "public"}}),
        (
            "ana",
            {
                "$or": [
                    {"source_scope": {"$eq": "public"}},
                    {
                        "$and": [
                            {"source_scope": {"$eq": "private"}},
                            {"session_id": {"$eq": "ana"}},
                        ]
                    },
                ]
            },
        ),
    ],
)
def test_chroma_filter_shape(session: str | None, expected: dict[str, Any]) -> None:
    assert chroma_session_filter(session) == expected


@pytest.mark.parametrize("session", ["", "  ", 7])
def test_empty_or_non_string_sessions_are_refused(session: Any) -> None:
    for build in (in_memory_session_filter, chroma_session_filter):
        with pytest.raises(PrivacyError, match="session_id must be a non-empty string"):
            build(session)


def test_private_chunks_always_carry_their_session() -> None:
    for session in PRIVATE:
        for chunk in private_chunks(session):
            assert chunk.metadata[SOURCE_SCOPE] == "private"
            assert chunk.metadata[SESSION_ID] == session


def test_in_memory_store_never_returns_another_sessions_chunks() -> None:
    store = InMemoryVectorStore(AsesoriaEmbeddings(RecordingEmbeddings(), E5))
    documents = public_chunks() + private_chunks("ana") + private_chunks("luis")
    store.add_documents(documents)
    everything = len(documents)
    for session, other in (("ana", "luis"), ("luis", "ana")):
        own_filter = in_memory_session_filter(session)
        for query in (PRIVATE[other], PRIVATE[session], PUBLIC, f"Nómina de {other.title()}"):
            hits = store.similarity_search(query, k=everything, filter=own_filter)
            sessions = {hit.metadata.get(SESSION_ID) for hit in hits}
            assert other not in sessions
            assert session in sessions
            assert any(hit.metadata[SOURCE_SCOPE] == "public" for hit in hits)
    anonymous = store.similarity_search(
        PRIVATE["ana"], k=everything, filter=in_memory_session_filter(None)
    )
    assert {hit.metadata[SOURCE_SCOPE] for hit in anonymous} == {"public"}
