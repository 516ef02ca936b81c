"""Parents in LangChain: parent Documents, a retriever that fills a token budget with
them, and re-indexing that replaces a document's parents without orphans.

Chunks go to a vector store, parents (``langchain_asesoria.parents``) to any
``BaseStore[str, Document]`` under their stable ``parent_id``; each chunk's metadata
names its parent. ``ParentContextRetriever`` turns the chunks a retriever finds into
their distinct parents, in rank order, as many as ``max_context_tokens`` holds, counted
exactly. More: ``docs/guides/parents.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.stores import BaseStore
from pydantic import Field

from langchain_asesoria.engine import TokenCounter
from langchain_asesoria.errors import ConfigurationError
from langchain_asesoria.langchain.documents import citation
from langchain_asesoria.parents import Parent, parent_record
from langchain_asesoria.records import DOC_ID, PARENT_ID, TEXT, TOKEN_COUNT

if TYPE_CHECKING:
    from langchain_core.indexing import RecordManager

__all__ = [
    "CITATION",
    "ParentContextRetriever",
    "parent_document",
    "parent_ids_in_rank_order",
    "reindex_parents",
]

#: The metadata key of a delivered parent's short reference (``documents.citation``).
CITATION = "citation"


def parent_document(parent: Parent, source: str | None = None) -> Document:
    """A parent as a LangChain ``Document``: ``page_content`` is its text, ``id`` its
    ``parent_id``, and its metadata ``parent_record`` without the text."""
    metadata = {k: v for k, v in parent_record(parent, source).items() if k != TEXT}
    return Document(page_content=parent.text, metadata=metadata, id=parent.parent_id)


def parent_ids_in_rank_order(children: Iterable[Document], id_key: str = PARENT_ID) -> list[str]:
    """The distinct parent ids of ``children``, in the order their first child ranks."""
    seen: dict[str, None] = {}
    for child in children:
        owner = child.metadata.get(id_key)
        if isinstance(owner, str):
            seen.setdefault(owner, None)
    return list(seen)


class ParentContextRetriever(BaseRetriever):
    """The parents of the chunks ``retriever`` finds, as many as ``max_context_tokens``
    holds: distinct, in rank order, each counted exactly.

    Invariant: for every result ``docs``,
    ``sum(tokenizer.count_content(d.page_content) for d in docs) <= max_context_tokens``,
    each ``d.metadata["token_count"]`` is that count, and no parent is delivered twice. A
    parent that does not fit in what is left is passed over for the next that does; a
    child whose parent is not in ``docstore`` is passed over.

    Attributes:
        retriever: Finds chunk Documents whose metadata names their ``parent_id``.
        docstore: The parents by id (``InMemoryStore``, ``create_kv_docstore`` over a
            ``LocalFileStore``, any ``BaseStore[str, Document]``).
        tokenizer: The generator's tokenizer: what counts the context.
        max_context_tokens: The context's budget (default 4000).
        id_key: The chunks' metadata key naming their parent.
    """

    retriever: BaseRetriever
    docstore: BaseStore[str, Document]
    tokenizer: Any = Field(description="a TokenCounter: the generator's tokenizer")
    max_context_tokens: int = 4000
    id_key: str = PARENT_ID

    def __init__(self, **kwargs: Any) -> None:
        # Checked before pydantic, which would wrap the typed error in its own.
        budget = kwargs.get("max_context_tokens", 4000)
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise ConfigurationError(
                f"max_context_tokens must be a positive integer, got {budget!r}.",
                expected="a positive integer",
            )
        super().__init__(**kwargs)

    def fill(self, parents: Sequence[Document | None]) -> list[Document]:
        """The parents that fit, in order, each with its exact count and citation."""
        counter: TokenCounter = self.tokenizer
        left = self.max_context_tokens
        delivered: list[Document] = []
        for parent in parents:
            if parent is None:
                continue
            tokens = counter.count_content(parent.page_content)
            if tokens > left:
                continue
            left -= tokens
            metadata = {**parent.metadata, TOKEN_COUNT: tokens}
            metadata[CITATION] = citation(Document(page_content="", metadata=metadata))
            delivered.append(
                Document(page_content=parent.page_content, metadata=metadata, id=parent.id)
            )
        return delivered

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        children = self.retriever.invoke(query, config={"callbacks": run_manager.get_child()})
        ids = parent_ids_in_rank_order(children, self.id_key)
        return self.fill(self.docstore.mget(ids))

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        children = await self.retriever.ainvoke(
            query, config={"callbacks": run_manager.get_child()}
        )
        ids = parent_ids_in_rank_order(children, self.id_key)
        return self.fill(await self.docstore.amget(ids))


def reindex_parents(
    docstore: BaseStore[str, Document],
    parents: Iterable[Document],
    record_manager: RecordManager,
    doc_ids: Iterable[str] | None = None,
) -> tuple[int, int]:
    """Writes ``parents`` and deletes every older parent of their documents.

    ``record_manager`` remembers which parent ids each ``doc_id`` has (give it its own
    namespace, apart from the chunks'); the parents of ``doc_ids`` (default: those of
    ``parents``) that are not among the new ones are deleted from ``docstore``, so a
    changed law leaves no orphan parent. Re-run with the chunks' ``reindex``.

    Returns:
        ``(written, deleted)``.

    Raises:
        ConfigurationError: a parent without its ``doc_id`` or its id.
    """
    fresh: dict[str, Document] = {}
    for parent in parents:
        doc_id = parent.metadata.get(DOC_ID)
        if not isinstance(doc_id, str) or not parent.id:
            raise ConfigurationError(
                f"a parent needs its id and a {DOC_ID!r}, got id {parent.id!r} and "
                f"{DOC_ID} {doc_id!r}: write parent_document(parent) Documents.",
                expected=f"a Document with an id and a {DOC_ID!r}",
            )
        fresh[parent.id] = parent
    groups = {str(p.metadata[DOC_ID]) for p in fresh.values()}
    groups |= set(doc_ids or ())
    old = set(record_manager.list_keys(group_ids=sorted(groups))) if groups else set()
    stale = sorted(old - set(fresh))
    docstore.mset(list(fresh.items()))
    record_manager.update(list(fresh), group_ids=[str(p.metadata[DOC_ID]) for p in fresh.values()])
    if stale:
        docstore.mdelete(stale)
        record_manager.delete_keys(stale)
    return len(fresh), len(stale)
