"""Re-indexing chunk documents: a document replaced, never duplicated, no orphan chunks.

More: ``docs/design/langchain.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, Literal

from langchain_core.documents import Document
from langchain_core.indexing import IndexingResult, RecordManager, index
from langchain_core.vectorstores import VectorStore

from langchain_asesoria.errors import ConfigurationError
from langchain_asesoria.records import CHUNK_ID, DOC_ID

#: ``"scoped_full"`` deletes a document's old chunks after all new ones are written;
#: ``"incremental"`` after each batch (a long document may then be briefly partial).
ReindexCleanup = Literal["scoped_full", "incremental"]

_CLEANUPS: Final = ("scoped_full", "incremental")

#: A collision-resistant key of page content and metadata (LangChain's default is SHA-1).
_KEY_ENCODER: Final = "sha256"


def _describe(document: Document, position: int) -> str:
    chunk = document.metadata.get(CHUNK_ID)
    if chunk is not None:
        return f"document {position} (chunk_id {chunk!r})"
    return f"document {position} (starting {document.page_content[:30]!r})"


def _with_doc_ids(documents: Iterable[Document]) -> Iterator[Document]:
    """The documents, lazily, each checked to carry a non-empty string ``doc_id``."""
    for position, document in enumerate(documents):
        if not isinstance(document, Document):
            raise ConfigurationError(
                f"item {position} is {type(document).__name__}, not a LangChain Document: "
                "reindex the output of AsesoriaDocumentTransformer.",
                expected="a LangChain Document",
            )
        doc_id = document.metadata.get(DOC_ID)
        if not isinstance(doc_id, str) or not doc_id.strip():
            raise ConfigurationError(
                f"{_describe(document, position)} has no {DOC_ID!r} metadata (got {doc_id!r}): "
                "reindex replaces chunks per doc_id; reindex the output of "
                "AsesoriaDocumentTransformer, which sets it on every chunk.",
                expected=f"a non-empty string {DOC_ID!r}",
            )
        yield document


def reindex(
    vector_store: VectorStore,
    documents: Iterable[Document],
    record_manager: RecordManager,
    *,
    cleanup: ReindexCleanup = "scoped_full",
    batch_size: int = 100,
) -> IndexingResult:
    """Writes ``documents`` and deletes every older chunk of their ``doc_id``s.

    Args:
        vector_store: Any LangChain vector store that deletes by id (Chroma,
            ``InMemoryVectorStore``...).
        documents: Chunk documents, for example ``AsesoriaDocumentTransformer``'s
            output; each must carry a ``doc_id`` in its metadata. Read lazily.
        record_manager: Remembers the chunks written per ``doc_id``; it must live as
            long as ``vector_store`` (see the module docstring).
        cleanup: When old chunks are deleted: ``"scoped_full"`` (default) after all
            documents are written, ``"incremental"`` after each batch.
        batch_size: Documents written per call to the store.

    Returns:
        LangChain's counts: ``num_added``, ``num_updated``, ``num_skipped`` (unchanged
        chunks, not embedded again) and ``num_deleted`` (old chunks removed).

    Raises:
        ConfigurationError: an item that is not a ``Document``, or a document without
            a ``doc_id`` (the message gives its position), an unknown ``cleanup``, a
            ``batch_size`` below 1, or a store that cannot delete by id.
    """
    if cleanup not in _CLEANUPS:
        raise ConfigurationError(
            f"cleanup must be 'scoped_full' or 'incremental', got {cleanup!r}: both delete "
            "only the chunks of the doc_ids given.",
            expected="'scoped_full' or 'incremental'",
        )
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ConfigurationError(
            f"batch_size must be a positive integer, got {batch_size!r}.",
            expected="a positive integer",
        )
    if type(vector_store).delete is VectorStore.delete:
        raise ConfigurationError(
            f"{type(vector_store).__name__} cannot delete by id, so old chunks could not be "
            "removed: use a vector store that implements delete(ids=...).",
            expected="a vector store that implements delete(ids=...)",
        )
    return index(
        _with_doc_ids(documents),
        record_manager,
        vector_store,
        batch_size=batch_size,
        cleanup=cleanup,
        source_id_key=DOC_ID,
        key_encoder=_KEY_ENCODER,
    )


def delete_documents(
    vector_store: VectorStore, record_manager: RecordManager, doc_ids: Iterable[str]
) -> int:
    """Deletes every chunk ``reindex`` wrote for ``doc_ids``; returns how many.

    Raises:
        ConfigurationError: a single string instead of a list, or a ``doc_id`` that is
            not a non-empty string.
    """
    if isinstance(doc_ids, str):
        raise ConfigurationError(
            f"doc_ids must be a list of doc_ids, got the string {doc_ids!r}: pass [{doc_ids!r}].",
            expected="a list of doc_ids",
        )
    wanted = list(doc_ids)
    for doc_id in wanted:
        if not isinstance(doc_id, str) or not doc_id.strip():
            raise ConfigurationError(
                f"doc_ids must be non-empty strings, got {doc_id!r}.",
                expected="non-empty strings",
            )
    if not wanted:
        return 0
    keys = record_manager.list_keys(group_ids=wanted)
    if keys:
        vector_store.delete(ids=keys)
        record_manager.delete_keys(keys)
    return len(keys)
