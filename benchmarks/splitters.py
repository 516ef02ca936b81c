"""The splitters compared, behind one small interface, each called as its users call it.

Every adapter gets the same tokenizer file, the same budget (``max_tokens``) and the same
overlap target (12.5% of the budget, in tokens) and returns, for each document, the
chunks as ``Piece(start, text, model_input)``: the claimed offset in the document's text
(its pages joined by a blank line), the chunk's text, and the text the embedding model
would receive: ``embedding_text`` for ours (model prefix and section title included);
the text itself for peers, which know no prefix (``measure`` adds ``passage: `` to it
for the E5-style case).

Peers are the evaluation's own wrappers (``langchain_asesoria_eval.chunkers``: one
per peer, configured from its documentation), timed as they are; where a peer lacks an
option (chonkie's ``RecursiveChunker`` has no overlap) it runs without it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.corpus import Doc


@dataclass(frozen=True, slots=True)
class Piece:
    start: int
    text: str
    model_input: str


#: One splitter run over a whole corpus: documents in, their pieces out (same order).
CorpusSplit = Callable[[Sequence[Doc]], list[list[Piece]]]


@dataclass(frozen=True, slots=True)
class Setup:
    """What every splitter is given."""

    tokenizer_file: Path
    budget: int
    prefix: str  # our document prefix: "" (the model as it is) or "passage: " (E5-style)

    @property
    def overlap(self) -> int:
        return self.budget // 8


def _per_doc(split: Callable[[str], list[tuple[int, str]]]) -> CorpusSplit:
    """Peers know no model prefix: their model input is their text (the prefix of the
    E5-style case is added when their chunks are measured)."""

    def run(docs: Sequence[Doc]) -> list[list[Piece]]:
        return [[Piece(start, text, text) for start, text in split(doc.text)] for doc in docs]

    return run


# -- ours --------------------------------------------------------------------------------


def _our_tokenization(setup: Setup) -> Any:
    from langchain_asesoria.tokenization import HuggingFaceTokenization, ModelProfile

    profile = ModelProfile(document_prefix=setup.prefix, max_input_tokens=512)
    return HuggingFaceTokenization.from_file(setup.tokenizer_file, profile=profile)


def _our_inputs(docs: Sequence[Doc], headings: bool) -> list[Any]:
    from langchain_asesoria import ChunkMetadata, LoadedPage
    from langchain_asesoria.parallel import DocumentInput

    return [
        DocumentInput(
            [LoadedPage(text, number) for number, text in enumerate(doc.pages, 1)],
            ChunkMetadata(doc_id=doc.name),
            detect_markdown_headings=headings and doc.kind in ("markdown", "synthetic"),
        )
        for doc in docs
    ]


def _pieces(chunks: Sequence[Any]) -> list[Piece]:
    return [Piece(chunk.start, chunk.text, chunk.embedding_text) for chunk in chunks]


def asesoria(setup: Setup, *, headings: bool = False, mode: str = "serial") -> CorpusSplit:
    """``chunk_document`` per document (``serial``), or ``parallel.chunk_documents``."""
    from langchain_asesoria import ChunkingConfig, chunk_document
    from langchain_asesoria.parallel import chunk_documents

    tokenization = _our_tokenization(setup)
    plain = ChunkingConfig(max_tokens=setup.budget, overlap_tokens=setup.overlap)

    def run(docs: Sequence[Doc]) -> list[list[Piece]]:
        inputs = _our_inputs(docs, headings)
        if mode == "serial":
            return [
                _pieces(
                    chunk_document(
                        item.pages,
                        item.metadata,
                        config=plain,
                        tokenization=tokenization,
                        detect_markdown_headings=item.detect_markdown_headings,
                    )
                )
                for item in inputs
            ]
        if headings:
            raise SystemExit("the parallel rows run without heading detection")
        results = chunk_documents(inputs, config=plain, tokenization=tokenization, mode=mode)  # type: ignore[arg-type]
        return [_pieces(chunks) for chunks in results]

    return run


# -- peers: the evaluation's wrappers, one per peer -------------------------------------------


def _peer(
    make: Callable[[Any, Any], Callable[[str], list[tuple[int, str]]]],
) -> Callable[[Setup], CorpusSplit]:
    """A peer as ``langchain_asesoria_eval.chunkers`` wraps it, with the run's
    tokenizer (no model prefix: peers know none), budget and overlap; the starts it
    claims are kept as they are (``measure`` checks them)."""

    def build(setup: Setup) -> CorpusSplit:
        from langchain_asesoria import ChunkingConfig
        from langchain_asesoria.tokenization import HuggingFaceTokenization, ModelProfile

        tokenization = HuggingFaceTokenization.from_file(
            setup.tokenizer_file, profile=ModelProfile(max_input_tokens=setup.budget)
        )
        config = ChunkingConfig(max_tokens=setup.budget, overlap_tokens=setup.overlap)
        return _per_doc(make(config, tokenization))

    return build


def _chunkers() -> Any:
    from langchain_asesoria_eval import chunkers

    return chunkers


langchain_recursive = _peer(lambda config, tok: _chunkers().langchain_split(config, tok))
semchunk_chunker = _peer(lambda config, tok: _chunkers().semchunk_split(config, tok))
semantic_text_splitter = _peer(
    lambda config, tok: _chunkers().semantic_text_splitter_split(config, tok)
)
chonkie_recursive = _peer(lambda config, tok: _chunkers().chonkie_split(config, tok))


@dataclass(frozen=True, slots=True)
class Entry:
    label: str
    make: Callable[[Setup], CorpusSplit]
    needs: tuple[str, ...]  # importable modules it needs
    pinned: bool  # measured on one core
    ours: bool = False

    def available(self) -> bool:
        return all(importlib.util.find_spec(module) is not None for module in self.needs)


SPLITTERS: dict[str, Entry] = {
    "asesoria-1core": Entry(
        "asesoria, 1 core", asesoria, ("langchain_asesoria",), pinned=True, ours=True
    ),
    "asesoria-headings-1core": Entry(
        "asesoria + headings, 1 core",
        lambda setup: asesoria(setup, headings=True),
        ("langchain_asesoria",),
        pinned=True,
        ours=True,
    ),
    "asesoria-batched": Entry(
        "asesoria, all cores (batched counts)",
        asesoria,
        ("langchain_asesoria",),
        pinned=False,
        ours=True,
    ),
    "asesoria-processes": Entry(
        "asesoria, all cores (process pool)",
        lambda setup: asesoria(setup, mode="process"),
        ("langchain_asesoria",),
        pinned=False,
        ours=True,
    ),
    "asesoria-threads": Entry(
        "asesoria, all cores (thread pool)",
        lambda setup: asesoria(setup, mode="thread"),
        ("langchain_asesoria",),
        pinned=False,
        ours=True,
    ),
    "langchain": Entry(
        "LangChain RecursiveCharacterTextSplitter",
        langchain_recursive,
        ("langchain_text_splitters",),
        pinned=False,
    ),
    "semantic-text-splitter": Entry(
        "semantic-text-splitter", semantic_text_splitter, ("semantic_text_splitter",), pinned=False
    ),
    "semchunk": Entry("semchunk", semchunk_chunker, ("semchunk",), pinned=False),
    "chonkie": Entry("chonkie RecursiveChunker", chonkie_recursive, ("chonkie",), pinned=False),
}
