"""Isolation under load: no session ever retrieves another session's private chunks.

Indexes private documents spread over many sessions, plus public ones, in a real
persistent Chroma store (chunks by ``AsesoriaDocumentTransformer``, the hashed
bag-of-words ``RecordingEmbeddings``), then runs random session queries through the
shipped ``chroma_session_filter`` and checks every hit against the ground truth kept
at generation time (which session owns which ``doc_id``), not against the hit's own
metadata. Queries are adversarial: most quote another session's private text; some
private documents of different sessions are word-for-word identical; ``k`` varies from
1 to 50; some queries go through ``as_retriever``; some have no session (public only).

A control sample runs the same queries without the filter: it must see other
sessions' chunks, or a zero would prove nothing. Result counts vary slightly between
runs with the same seed: Chroma's HNSW index is approximate and built on threads.

Full size (2,000 private documents over 50 sessions, 100 public, 10,000 queries; about
8 minutes on two cores, nearly all of it in Chroma's filtered queries)::

    pip install '.[chroma]'
    python -m benchmarks.isolation_load

Smaller: ``--documents 200 --sessions 10 --public 20 --queries 1000``. The exit status
is 1 when any cross-session result is found. ``benchmarks/tests/test_isolation.py`` runs it at a
reduced size in CI.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.documents import Document

from langchain_asesoria import ChunkingConfig
from langchain_asesoria.langchain import (
    AsesoriaDocumentTransformer,
    AsesoriaEmbeddings,
    chroma_session_filter,
)
from langchain_asesoria.records import DOC_ID, SESSION_ID, SOURCE_SCOPE
from langchain_asesoria.testing import ByteTokenization, RecordingEmbeddings

TOKENIZATION = ByteTokenization(512, document_prefix="passage: ", query_prefix="query: ")
CONFIG = ChunkingConfig(max_tokens=192, overlap_tokens=24)
BATCH = 1_000

WORDS = (
    "renta", "nómina", "retención", "deducción", "vivienda", "alquiler", "pensión",
    "cónyuge", "hijos", "ganancia", "pérdida", "patrimonial", "acciones", "fondos",
    "plan", "pensiones", "donativo", "hipoteca", "autonómica", "estatal", "cuota",
    "base", "imponible", "liquidable", "mínimo", "personal", "familiar", "rendimientos",
    "trabajo", "capital", "mobiliario", "inmobiliario", "actividad", "económica",
)  # fmt: skip
NAMES = ("Ana", "Luis", "Marta", "Jorge", "Lucía", "Pablo", "Elena", "Íñigo", "Nuria", "Óscar")


@dataclass
class IsolationReport:
    """What a run did and found; ``cross_session`` must be empty."""

    documents: int
    private_documents: int
    public_documents: int
    sessions: int
    chunks: int
    queries: int
    results: int
    own_private_results: int
    public_results: int
    control_queries: int
    control_foreign_results: int
    index_seconds: float
    query_seconds: float
    cross_session: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.cross_session and self.own_private_results > 0


def _text(rng: random.Random, owner: str, words: int) -> str:
    chosen = [rng.choice(WORDS) for _ in range(words)]
    amount = f"{rng.randrange(1_000, 90_000):,}".replace(",", ".")
    return f"Declaración de {owner}: " + " ".join(chosen) + f" por {amount} euros."


def _session_pages(
    rng: random.Random, session: str, index: int, shared: str
) -> tuple[str, list[Document]]:
    """One private PDF-like document (1-3 pages) of ``session``; 10% are ``shared`` text."""
    doc_id = f"{session}/declaracion-{index}.pdf"
    owner = f"{rng.choice(NAMES)} {session}"
    pages = [
        shared if index % 10 == 0 else _text(rng, owner, rng.randint(20, 90))
        for _ in range(rng.randint(1, 3))
    ]
    return doc_id, [
        Document(text, metadata={"source": doc_id, "doc_id": doc_id, "page": page})
        for page, text in enumerate(pages)
    ]


def _chroma(folder: Path) -> Any:
    import chromadb
    from chromadb.config import Settings
    from langchain_chroma import Chroma

    client = chromadb.PersistentClient(
        path=str(folder), settings=Settings(anonymized_telemetry=False)
    )
    return Chroma(
        collection_name="isolation",
        embedding_function=AsesoriaEmbeddings(RecordingEmbeddings(), TOKENIZATION),
        client=client,
    )


def _index(
    store: Any, rng: random.Random, documents: int, sessions: int, public: int
) -> tuple[dict[str, str | None], dict[str, list[str]], int]:
    """Indexes everything; returns ``doc_id -> owner session`` (None: public) and texts."""
    owners: dict[str, str | None] = {}
    texts: dict[str, list[str]] = {}
    shared = _text(rng, "plantilla común", 60)
    pending: list[Document] = []
    chunks = 0
    for index in range(public):
        doc_id = f"publico/guia-{index}.md"
        body = "\n\n".join(_text(rng, "la Agencia Tributaria", 80) for _ in range(2))
        chunked = AsesoriaDocumentTransformer(TOKENIZATION, CONFIG, tax="IRPF").invoke(
            Document(body, metadata={"source": doc_id, "doc_id": doc_id})
        )
        owners[doc_id], texts[doc_id] = None, [body]
        pending += chunked
    for index in range(documents):
        session = f"sesion-{index % sessions:03d}"
        doc_id, pages = _session_pages(rng, session, index, shared)
        transformer = AsesoriaDocumentTransformer(
            TOKENIZATION, CONFIG, source_scope="private", session_id=session, tax="IRPF"
        )
        pending += transformer.invoke(pages)
        owners[doc_id], texts[doc_id] = session, [page.page_content for page in pages]
        if len(pending) >= BATCH:
            chunks += len(store.add_documents(pending))
            pending = []
    if pending:
        chunks += len(store.add_documents(pending))
    return owners, texts, chunks


def _query_text(rng: random.Random, texts: dict[str, list[str]], doc_ids: Sequence[str]) -> str:
    """A quote of a random document (usually another session's), or a few tax words."""
    if rng.random() < 0.2:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6)))
    page = rng.choice(texts[rng.choice(doc_ids)])
    words = page.split()
    start = rng.randrange(len(words))
    return " ".join(words[start : start + rng.randint(3, 25)])


def run_isolation(
    folder: Path,
    *,
    documents: int,
    sessions: int,
    public: int,
    queries: int,
    seed: int = 2025,
    control_every: int = 20,
) -> IsolationReport:
    """Indexes and queries; every hit is checked against the generation's ground truth."""
    rng = random.Random(seed)
    store = _chroma(folder)
    started = time.perf_counter()
    owners, texts, chunks = _index(store, rng, documents, sessions, public)
    indexed = time.perf_counter()
    private_ids = [doc_id for doc_id, owner in owners.items() if owner is not None]
    session_names = sorted({owner for owner in owners.values() if owner is not None})
    report = IsolationReport(
        documents=len(owners),
        private_documents=len(private_ids),
        public_documents=public,
        sessions=len(session_names),
        chunks=chunks,
        queries=queries,
        results=0,
        own_private_results=0,
        public_results=0,
        control_queries=0,
        control_foreign_results=0,
        index_seconds=indexed - started,
        query_seconds=0.0,
    )
    for number in range(queries):
        session = None if rng.random() < 0.05 else rng.choice(session_names)
        query = _query_text(rng, texts, private_ids if rng.random() < 0.8 else list(owners))
        k = rng.randint(1, 50)
        where = chroma_session_filter(session)
        if number % 7 == 0:
            retriever = store.as_retriever(search_kwargs={"k": k, "filter": where})
            hits = retriever.invoke(query)
        else:
            hits = store.similarity_search(query, k=k, filter=where)
        for hit in hits:
            report.results += 1
            owner = owners.get(hit.metadata[DOC_ID], "unknown")
            if owner is None:
                report.public_results += 1
            elif owner == session:
                report.own_private_results += 1
            else:
                report.cross_session.append(
                    {
                        "query_session": session,
                        "doc_id": hit.metadata[DOC_ID],
                        "owner": owner,
                        "stored_scope": hit.metadata.get(SOURCE_SCOPE),
                        "stored_session": hit.metadata.get(SESSION_ID),
                    }
                )
        if session is not None and number % control_every == 0:
            report.control_queries += 1
            unfiltered = store.similarity_search(query, k=k)
            report.control_foreign_results += sum(
                owners.get(hit.metadata[DOC_ID]) not in (None, session) for hit in unfiltered
            )
    report.query_seconds = time.perf_counter() - indexed
    return report


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=2_000, help="private documents")
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--public", type=int, default=100, help="public documents")
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    with tempfile.TemporaryDirectory(prefix="asesoria-isolation-") as folder:
        report = run_isolation(
            Path(folder),
            documents=args.documents,
            sessions=args.sessions,
            public=args.public,
            queries=args.queries,
            seed=args.seed,
        )
    if args.json:
        print(json.dumps({**asdict(report), "ok": report.ok}, ensure_ascii=False, indent=2))
    else:
        rows = [
            ("documents (private + public)", f"{report.documents} ({report.private_documents} + "
             f"{report.public_documents})"),
            ("sessions", report.sessions),
            ("chunks indexed", report.chunks),
            ("queries (k = 1..50)", report.queries),
            ("results checked", report.results),
            ("  own private / public", f"{report.own_private_results} / {report.public_results}"),
            ("control: unfiltered queries", report.control_queries),
            ("  other sessions' chunks seen", report.control_foreign_results),
            ("index time", f"{report.index_seconds:.1f} s"),
            ("query time", f"{report.query_seconds:.1f} s"),
            ("CROSS-SESSION RESULTS", len(report.cross_session)),
        ]  # fmt: skip
        width = max(len(name) for name, _ in rows)
        for name, value in rows:
            print(f"{name:<{width}}  {value}")
        for leak in report.cross_session[:10]:
            print("leak:", leak, file=sys.stderr)
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
