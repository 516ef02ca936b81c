"""Thread safety: one splitter shared by 8 threads gives what sequential use gives.

The engine keeps no per-call state on shared objects (STYLE.md, point 1), and the
Hugging Face tokenizer is only read after construction. So one
``AsesoriaTextSplitter``, one ``AsesoriaDocumentTransformer`` and one tokenization,
used by 8 threads released together on different documents, must return exactly the
sequential results, in every round.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import pytest
from langchain_core.documents import Document
from strategies import spanish_corpus

from langchain_asesoria import (
    Chunk,
    ChunkingConfig,
    ChunkMetadata,
    LoadedPage,
    Tokenization,
    chunk_document,
)
from langchain_asesoria.langchain import AsesoriaDocumentTransformer, AsesoriaTextSplitter
from langchain_asesoria.testing import ByteTokenization, WordTokenization
from langchain_asesoria.tokenization import HuggingFaceTokenization

THREADS = 8
ROUNDS = 3
CONFIG = ChunkingConfig(max_tokens=128, overlap_tokens=16)

T = TypeVar("T")
R = TypeVar("R")


def documents() -> list[str]:
    """16 different documents (Markdown headings in some), 8-40 KB each."""
    texts = []
    for seed in range(16):
        body = spanish_corpus(8_000 + 2_000 * seed, seed=seed)
        if seed % 2:
            body = f"# Documento {seed}\n\n## Parte uno\n\n{body}\n\n## Parte dos\n\n{body[:999]}"
        texts.append(body)
    return texts


def concurrently(function: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """``[function(item) for item in items]`` on 8 threads released at the same instant."""
    start = threading.Barrier(THREADS)

    def call(item: T) -> R:
        start.wait()
        return function(item)

    assert len(items) % THREADS == 0
    results: list[R] = []
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        for offset in range(0, len(items), THREADS):
            results += list(pool.map(call, items[offset : offset + THREADS]))
    return results


@pytest.fixture(params=["bytes", "words", "minilm"])
def tokenization(request: pytest.FixtureRequest) -> Tokenization:
    if request.param == "minilm":
        minilm: HuggingFaceTokenization = request.getfixturevalue("minilm")
        return minilm
    return ByteTokenization(256) if request.param == "bytes" else WordTokenization(256)


def test_one_splitter_from_8_threads(tokenization: Tokenization) -> None:
    splitter = AsesoriaTextSplitter(tokenization, CONFIG, detect_markdown_headings=True)
    texts = documents()
    sequential = [splitter.create_documents([text]) for text in texts]
    for _ in range(ROUNDS):
        assert concurrently(lambda text: splitter.create_documents([text]), texts) == sequential


def test_one_transformer_from_8_threads(tokenization: Tokenization) -> None:
    transformer = AsesoriaDocumentTransformer(
        tokenization, CONFIG, detect_markdown_headings=True, tax="IRPF"
    )
    sources = [
        [
            Document(text[i : i + 3_000], metadata={"source": f"doc-{n}.md", "page": i // 3_000})
            for i in range(0, len(text), 3_000)
        ]
        for n, text in enumerate(documents())
    ]
    sequential = [transformer.invoke(pages) for pages in sources]
    for _ in range(ROUNDS):
        assert concurrently(transformer.invoke, sources) == sequential


def test_one_tokenization_under_chunk_document_from_8_threads(
    tokenization: Tokenization,
) -> None:
    def chunk(text: str) -> list[Chunk]:
        return chunk_document(
            [LoadedPage(text, 1)],
            ChunkMetadata(doc_id=str(len(text))),
            config=CONFIG,
            tokenization=tokenization,
            detect_markdown_headings=True,
        )

    texts = documents()
    sequential = [chunk(text) for text in texts]
    for _ in range(ROUNDS):
        assert concurrently(chunk, texts) == sequential
