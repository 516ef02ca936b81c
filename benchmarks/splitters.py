"""The splitters compared, behind one small interface, each called as its users call it.

Every adapter gets the same tokenizer file, the same budget (``max_tokens``) and the same
overlap target (12.5% of the budget, in tokens) and returns, for each document, the
chunks as ``Piece(start, text, model_input)``: the claimed offset in the document's text
(its pages joined by a blank line), the chunk's text, and the text the embedding model
would receive: ``embedding_text`` for ours (model prefix and section title included);
the text itself for peers, which know no prefix (``measure`` adds ``passage: `` to it
for the E5-style case).

Peers are configured from their documentation; where a peer lacks an option (chonkie's
``RecursiveChunker`` has no overlap) it runs without it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corpus import Doc


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


def _raw_tokenizer(setup: Setup) -> Any:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(setup.tokenizer_file))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def _per_doc(split: Callable[[str], list[tuple[int, str]]]) -> CorpusSplit:
    """Peers know no model prefix: their model input is their text (the prefix of the
    E5-style case is added when their chunks are measured)."""

    def run(docs: Sequence[Doc]) -> list[list[Piece]]:
        return [[Piece(start, text, text) for start, text in split(doc.text)] for doc in docs]

    return run


# -- ours --------------------------------------------------------------------------------


def _our_tokenization(setup: Setup) -> Any:
    from langchain_asesoria import HuggingFaceTokenization, ModelProfile

    profile = ModelProfile(document_prefix=setup.prefix, max_input_tokens=512)
    return HuggingFaceTokenization.from_file(setup.tokenizer_file, profile=profile)


def _our_inputs(docs: Sequence[Doc], headings: bool) -> list[Any]:
    from langchain_asesoria import ChunkMetadata, LoadedPage
    from langchain_asesoria.parallel import DocumentInput

    del headings  # the same inputs; the config says whether headings are detected
    return [
        DocumentInput(
            [LoadedPage(text, number) for number, text in enumerate(doc.pages, 1)],
            ChunkMetadata(doc_id=doc.name),
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
    sectioned = ChunkingConfig(
        max_tokens=setup.budget, overlap_tokens=setup.overlap, detect_markdown_headings=True
    )

    def config_for(doc: Doc) -> Any:
        return sectioned if headings and doc.kind in ("markdown", "synthetic") else plain

    def run(docs: Sequence[Doc]) -> list[list[Piece]]:
        inputs = _our_inputs(docs, headings)
        if mode == "serial":
            return [
                _pieces(
                    chunk_document(
                        item.pages, item.metadata, config=config_for(doc), tokenization=tokenization
                    )
                )
                for doc, item in zip(docs, inputs, strict=True)
            ]
        if headings:
            raise SystemExit("the parallel rows run without heading detection")
        results = chunk_documents(inputs, config=plain, tokenization=tokenization, mode=mode)  # type: ignore[arg-type]
        return [_pieces(chunks) for chunks in results]

    return run


# -- peers -------------------------------------------------------------------------------


def langchain_recursive(setup: Setup) -> CorpusSplit:
    """``RecursiveCharacterTextSplitter.from_huggingface_tokenizer`` (needs ``transformers``)."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter
    from transformers import PreTrainedTokenizerFast

    tokenizer = PreTrainedTokenizerFast(tokenizer_object=_raw_tokenizer(setup))
    splitter = RecursiveCharacterTextSplitter.from_huggingface_tokenizer(
        tokenizer, chunk_size=setup.budget, chunk_overlap=setup.overlap, add_start_index=True
    )

    def split(text: str) -> list[tuple[int, str]]:
        return [
            (int(document.metadata["start_index"]), document.page_content)
            for document in splitter.create_documents([text])
        ]

    return _per_doc(split)


def semchunk_chunker(setup: Setup) -> CorpusSplit:
    """``semchunk.chunkerify(tokenizer, chunk_size)(text, offsets=True, overlap=0.125)``."""
    import semchunk

    chunker = semchunk.chunkerify(_raw_tokenizer(setup), chunk_size=setup.budget)

    def split(text: str) -> list[tuple[int, str]]:
        chunks, offsets = chunker(text, offsets=True, overlap=0.125)
        return [(start, chunk) for chunk, (start, _) in zip(chunks, offsets, strict=True)]

    return _per_doc(split)


def semantic_text_splitter(setup: Setup) -> CorpusSplit:
    """``TextSplitter.from_huggingface_tokenizer(tokenizer, capacity, overlap)``."""
    from semantic_text_splitter import TextSplitter

    splitter = TextSplitter.from_huggingface_tokenizer(
        _raw_tokenizer(setup), setup.budget, overlap=setup.overlap
    )

    def split(text: str) -> list[tuple[int, str]]:
        return [(start, chunk) for start, chunk in splitter.chunk_indices(text)]

    return _per_doc(split)


def chonkie_recursive(setup: Setup) -> CorpusSplit:
    """``chonkie.RecursiveChunker(tokenizer=..., chunk_size=...)`` (it has no overlap)."""
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(tokenizer=_raw_tokenizer(setup), chunk_size=setup.budget)

    def split(text: str) -> list[tuple[int, str]]:
        return [(chunk.start_index, chunk.text) for chunk in chunker.chunk(text)]

    return _per_doc(split)


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
        ("langchain_text_splitters", "transformers"),
        pinned=False,
    ),
    "semantic-text-splitter": Entry(
        "semantic-text-splitter", semantic_text_splitter, ("semantic_text_splitter",), pinned=False
    ),
    "semchunk": Entry("semchunk", semchunk_chunker, ("semchunk",), pinned=False),
    "chonkie": Entry("chonkie RecursiveChunker", chonkie_recursive, ("chonkie",), pinned=False),
}
