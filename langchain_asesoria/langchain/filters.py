"""Retrieval filters that keep private documents inside their session.

A chunk is visible to a session when it is public, or private *and* of that same
session::

    source_scope == "public"  or  (source_scope == "private" and session_id == session)

A chunk without ``source_scope`` is never visible (the filters fail closed), and
without a session only public chunks are. Chunks of private documents always carry
their ``session_id`` (``ChunkMetadata`` refuses a private document without one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from langchain_core.documents import Document

from langchain_asesoria.errors import PrivacyError
from langchain_asesoria.records import SESSION_ID, SOURCE_SCOPE


def _checked_session(session_id: str | None) -> str | None:
    if session_id is not None and (not isinstance(session_id, str) or not session_id.strip()):
        raise PrivacyError(
            f"session_id must be a non-empty string or None (public documents only), got "
            f"{session_id!r}.",
            expected="a non-empty string or None",
        )
    return session_id


def visible_to_session(metadata: Mapping[str, Any], session_id: str | None) -> bool:
    """Whether a chunk with ``metadata`` may be retrieved by ``session_id``.

    Raises:
        PrivacyError: an empty or non-string ``session_id``.
    """
    session_id = _checked_session(session_id)
    scope = metadata.get(SOURCE_SCOPE)
    if scope == "public":
        return True
    return session_id is not None and scope == "private" and metadata.get(SESSION_ID) == session_id


def in_memory_session_filter(session_id: str | None) -> Callable[[Document], bool]:
    """The ``filter`` for ``InMemoryVectorStore`` searches: public, or private of this session.

    Use it as ``store.similarity_search(query, filter=in_memory_session_filter(sid))``
    or ``store.as_retriever(search_kwargs={"filter": in_memory_session_filter(sid)})``.

    Raises:
        PrivacyError: an empty or non-string ``session_id``.
    """
    session_id = _checked_session(session_id)

    def visible(document: Document) -> bool:
        return visible_to_session(document.metadata, session_id)

    return visible


def chroma_session_filter(session_id: str | None) -> dict[str, Any]:
    """The Chroma ``where`` filter: public, or private of this session.

    Use it as ``chroma.similarity_search(query, filter=chroma_session_filter(sid))``
    or ``chroma.as_retriever(search_kwargs={"filter": chroma_session_filter(sid)})``.

    Raises:
        PrivacyError: an empty or non-string ``session_id``.
    """
    public = {SOURCE_SCOPE: {"$eq": "public"}}
    session_id = _checked_session(session_id)
    if session_id is None:
        return public
    own = {"$and": [{SOURCE_SCOPE: {"$eq": "private"}}, {SESSION_ID: {"$eq": session_id}}]}
    return {"$or": [public, own]}
