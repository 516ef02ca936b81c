"""Parents in LangChain: parent Documents, a retriever that fills a token budget with
them, and re-indexing that replaces a document's parents without orphans.

The adapter of ``langchain_asesoria.parents``: Documents in, Documents out. What the
parents are, a parent's window around the chunks found and how a context is filled
(``window_within``, ``fill_context``) are decided there, on spans of the text.

Chunks go to a vector store, parents (``langchain_asesoria.parents``) to any
``BaseStore[str, Document]`` under their stable ``parent_id``; each chunk's metadata
names its parent. ``ParentContextRetriever`` turns the chunks a retriever finds into
their distinct parents, in rank order, each whole or as its window around those chunks,
as many as ``max_context_tokens`` holds, counted exactly. More:
``docs/guides/parents.md``.
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
from langchain_asesoria.parents import (
    DELIVERIES,
    Delivery,
    Parent,
    Span,
    fill_context,
    parent_record,
    parent_token_counter,
    window_within,
)
from langchain_asesoria.records import (
    DOC_ID,
    END_INDEX,
    PARENT_ID,
    START_INDEX,
    TEXT,
    TOKEN_COUNT,
)

if TYPE_CHECKING:
    from langchain_core.indexing import RecordManager

#: The metadata key of a delivered parent's short reference (``documents.citation``).
CITATION = "citation"


def parent_document(parent: Parent, source: str | None = None) -> Document:
    """A parent as a LangChain ``Document``: ``page_content`` is its text, ``id`` its
    ``parent_id``, and its metadata ``parent_record`` without the text."""
    metadata = {k: v for k, v in parent_record(parent, source).items() if k != TEXT}
    return Document(page_content=parent.text, metadata=metadata, id=parent.parent_id)


def parent_ids_in_rank_order(children: Iterable[Document], id_key: str = PARENT_ID) -> list[str]:
    """The distinct parent ids of ``children``, in the order their first child ranks."""
    return list(children_by_parent(children, id_key))


def children_by_parent(
    children: Iterable[Document], id_key: str = PARENT_ID
) -> dict[str, list[Document]]:
    """Each parent id's children, in rank order; the ids in the order their first child
    ranks."""
    found: dict[str, list[Document]] = {}
    for child in children:
        owner = child.metadata.get(id_key)
        if isinstance(owner, str):
            found.setdefault(owner, []).append(child)
    return found


def _start(document: Document) -> int | None:
    span = _span(document)
    return None if span is None else span[0]


def _span(document: Document) -> Span:
    start, end = document.metadata.get(START_INDEX), document.metadata.get(END_INDEX)
    if isinstance(start, bool) or not isinstance(start, int):
        return None
    if isinstance(end, bool) or not isinstance(end, int):
        end = start + len(document.page_content)
    return start, end


def _window(parent: Document, window: tuple[int, int]) -> Document:
    """The stretch ``window`` of ``parent``: its id and metadata, its own offsets."""
    first = parent.metadata[START_INDEX]
    start, end = window
    metadata = {**parent.metadata, START_INDEX: start, END_INDEX: end}
    text = parent.page_content[start - first : end - first]
    return Document(page_content=text, metadata=metadata, id=parent.id)


def parent_window(
    parent: Document, children: Sequence[Document], counter: TokenCounter, budget: int
) -> tuple[Document, int] | None:
    """The stretch of ``parent`` around its ``children`` that fits ``budget``, and its
    count (``parents.window_within`` over their ``start_index`` and ``end_index``).

    The children are taken in rank order: each is taken when the stretch from the first
    taken child's start to the last one's end still fits. Chunks tile their unit, so
    the stretch is whole consecutive chunks, inside the parent. A child without offsets
    (``start_index``, ``end_index``) or not inside the parent is not taken; ``None`` when
    no child fits. The window keeps the parent's id and metadata, with its own offsets.
    """
    where = _span(parent)
    spans = [_span(child) for child in children]
    found = window_within(
        None if where is None else where[0], parent.page_content, spans, counter, budget
    )
    if found is None:
        return None
    start, end, tokens = found
    return _window(parent, (start, end)), tokens


class ParentContextRetriever(BaseRetriever):
    """The parents of the chunks ``retriever`` finds, or their windows around those
    chunks, as many as ``max_context_tokens`` holds: distinct, in rank order, each
    counted exactly.

    Invariant: for every result ``docs``,
    ``sum(tokenizer.count_content(d.page_content) for d in docs) <= max_context_tokens``,
    each ``d.metadata["token_count"]`` is that count, no parent is delivered twice, and
    the parents come in the order their first child ranks. A child whose parent is not
    in ``docstore`` is passed over. Per parent, ``deliver`` says what is handed over:

    * ``"windows"`` (the default, the best measured in ``benchmarks/README.md``): the
      parent's window around its retrieved children (``parent_window``), within what is
      left: whole consecutive chunks inside the unit, the parent's id and metadata;
    * ``"parents"``: the whole parent; one that does not fit in what is left is passed
      over for the next that does;
    * ``"parents_or_windows"``: the whole parent when it fits, else its window.

    Attributes:
        retriever: Finds chunk Documents whose metadata names their ``parent_id``.
        docstore: The parents by id (``InMemoryStore``, ``create_kv_docstore`` over a
            ``LocalFileStore``, any ``BaseStore[str, Document]``).
        tokenizer: The generator's tokenizer: what counts the context (a
            ``Tokenization``, or a name ``load_tokenization`` loads, such as
            ``"cl100k_base"``: loaded when the retriever is built).
        max_context_tokens: The context's budget (default 4000).
        id_key: The chunks' metadata key naming their parent.
        deliver: ``"windows"``, ``"parents"`` or ``"parents_or_windows"`` (above).
    """

    retriever: BaseRetriever
    docstore: BaseStore[str, Document]
    tokenizer: Any = Field(description="a TokenCounter: the generator's tokenizer")
    max_context_tokens: int = 4000
    id_key: str = PARENT_ID
    deliver: Delivery = "windows"

    def __init__(self, **kwargs: Any) -> None:
        # Checked before pydantic, which would wrap the typed error in its own.
        budget = kwargs.get("max_context_tokens", 4000)
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise ConfigurationError(
                f"max_context_tokens must be a positive integer, got {budget!r}.",
                expected="a positive integer",
            )
        deliver = kwargs.get("deliver", "windows")
        if deliver not in DELIVERIES:
            raise ConfigurationError(
                f"deliver must be one of {', '.join(DELIVERIES)}, got {deliver!r}.",
                expected=" or ".join(DELIVERIES),
            )
        kwargs["tokenizer"] = parent_token_counter(kwargs.get("tokenizer"), budget)
        super().__init__(**kwargs)

    def fill(
        self, parents: Sequence[Document | None], children: Sequence[Sequence[Document]]
    ) -> list[Document]:
        """What fits of each parent (``children[i]`` are ``parents[i]``'s), in order, each
        with its exact count and citation (``parents.fill_context``)."""
        offered = [
            None if parent is None else (_start(parent), parent.page_content) for parent in parents
        ]
        spans = [[_span(child) for child in kids] for kids in children]
        delivered: list[Document] = []
        for piece in fill_context(
            offered, spans, self.tokenizer, self.max_context_tokens, self.deliver
        ):
            parent = parents[piece.index]
            if parent is None:  # never: fill_context passes over the parents not found
                continue
            document = parent if piece.window is None else _window(parent, piece.window)
            metadata = {**document.metadata, TOKEN_COUNT: piece.tokens}
            metadata[CITATION] = citation(Document(page_content="", metadata=metadata))
            delivered.append(
                Document(page_content=document.page_content, metadata=metadata, id=document.id)
            )
        return delivered

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        children = self.retriever.invoke(query, config={"callbacks": run_manager.get_child()})
        grouped = children_by_parent(children, self.id_key)
        return self.fill(self.docstore.mget(list(grouped)), list(grouped.values()))

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        children = await self.retriever.ainvoke(
            query, config={"callbacks": run_manager.get_child()}
        )
        grouped = children_by_parent(children, self.id_key)
        return self.fill(await self.docstore.amget(list(grouped)), list(grouped.values()))


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
