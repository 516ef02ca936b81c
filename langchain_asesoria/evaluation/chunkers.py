"""Chunkers under comparison, behind one protocol: this library's engine and its peers.

Every chunker returns ``IndexedChunk`` values with exact offsets in the document's
joined text, so the same relevance judgement applies to all of them. What is indexed:

- ``asesoria``: ``Chunk.embedding_text`` unchanged (model prefix, section path,
  content), counted exactly by the engine; Markdown documents follow their headings,
  PDFs their outline sections (when the corpus was read with them).
- ``langchain-recursive``: LangChain's ``RecursiveCharacterTextSplitter`` measuring
  length in content tokens of the same tokenizer (``chunk_size=max_tokens``,
  ``chunk_overlap=overlap_tokens``), the way ``from_huggingface_tokenizer`` does.
- ``semchunk``: ``semchunk.chunk`` with the same token counter, size and overlap.

A peer's chunk is indexed as ``tokenization.prepare(text)`` (the model's document
prefix, no section context). Peers count content tokens only, so a chunk may exceed
the budget once special tokens are added: ``IndexedChunk.token_count`` is the exact
count of what is indexed, and the report shows how many chunks are over budget.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from langchain_asesoria.engine import Tokenization
from langchain_asesoria.errors import ConfigurationError, MissingDependencyError
from langchain_asesoria.evaluation.corpus import PAGE_SEPARATOR, CorpusDocument
from langchain_asesoria.models import ChunkingConfig, ChunkMetadata
from langchain_asesoria.reading import split_document

__all__ = [
    "PEER_CHUNKERS",
    "AsesoriaChunker",
    "ChonkieChunker",
    "Chunker",
    "IndexedChunk",
    "LangChainRecursiveChunker",
    "SemanticTextSplitterChunker",
    "SemchunkChunker",
    "locate_pieces",
]


@dataclass(frozen=True, slots=True)
class IndexedChunk:
    """A chunk as the evaluation indexes and judges it.

    Invariant: ``document.text[start:end] == text``.

    Attributes:
        doc_id: The document it comes from.
        start: Offset of its first character in the joined text (inclusive).
        end: Offset after its last character (exclusive).
        text: The original text.
        indexed_text: What the retriever indexes and the embedder consumes.
        token_count: Exact tokens of ``indexed_text``, special tokens included.
        overlap_tokens: Content tokens shared with the previous chunk of the document.
        context_tokens: Tokens the section context adds (``token_count`` minus the
            count of the same text prepared without context); 0 for peers.
    """

    doc_id: str
    start: int
    end: int
    text: str
    indexed_text: str
    token_count: int
    overlap_tokens: int
    context_tokens: int = 0


class Chunker(Protocol):
    """Splits one corpus document for one configuration and tokenizer."""

    @property
    def name(self) -> str:
        """A short name for tables and plots."""
        ...

    def chunk(
        self, document: CorpusDocument, config: ChunkingConfig, tokenization: Tokenization
    ) -> list[IndexedChunk]:
        """The document's chunks, in document order, with exact offsets."""
        ...


def _check_separator(config: ChunkingConfig) -> None:
    if config.page_separator != PAGE_SEPARATOR:
        raise ConfigurationError(
            f"page_separator must be {PAGE_SEPARATOR!r} in an evaluation (the question "
            f"spans are offsets in pages joined by it), got {config.page_separator!r}.",
            expected=repr(PAGE_SEPARATOR),
        )


class AsesoriaChunker:
    """This library's ``chunk_document``; Markdown documents use their ATX headings, PDFs
    their outline sections."""

    @property
    def name(self) -> str:
        return "asesoria"

    def chunk(
        self, document: CorpusDocument, config: ChunkingConfig, tokenization: Tokenization
    ) -> list[IndexedChunk]:
        _check_separator(config)
        chunks = split_document(
            document.read,
            ChunkMetadata(doc_id=document.doc_id),
            config=config,
            tokenization=tokenization,
        ).chunks
        bare = list(tokenization.count_many(tokenization.prepare(chunk.text) for chunk in chunks))
        return [
            IndexedChunk(
                document.doc_id,
                chunk.start,
                chunk.end,
                chunk.text,
                chunk.embedding_text,
                chunk.token_count,
                chunk.overlap_tokens,
                chunk.token_count - without_context,
            )
            for chunk, without_context in zip(chunks, bare, strict=True)
        ]


def locate_pieces(
    text: str, pieces: Sequence[str], hints: Sequence[int | None] | None = None
) -> list[tuple[int, int]]:
    """Exact ``[start, end)`` of each piece in ``text``, pieces being in document order.

    A hint (offsets a peer computed while splitting, as semchunk's) is used when
    ``text`` really holds the piece there; otherwise the piece is searched forward
    from just after the previous piece's start: the first occurrence there is the
    piece, since pieces come in document order. (LangChain's own ``start_index`` is
    not used as a hint: it is found with ``str.find`` and can point at a later copy of
    repeated text.) Outer whitespace of each piece is trimmed by moving the offsets.

    Raises:
        ConfigurationError: a piece that is not a substring of ``text`` (a peer that
            rewrote the text).
    """
    spans: list[tuple[int, int]] = []
    cursor = 0
    for index, piece in enumerate(pieces):
        core = piece.strip()
        if not core:
            continue
        hint = hints[index] if hints is not None else None
        if hint is not None and hint >= cursor and text.startswith(piece, hint):
            start = hint + (len(piece) - len(piece.lstrip()))
        else:
            start = text.find(core, cursor)
            if start < 0:
                raise ConfigurationError(
                    f"chunk {index} ({core[:40]!r}...) is not a substring of the document: "
                    "the peer changed the text, so its offsets cannot be evaluated.",
                    position=cursor,
                    expected="a substring of the document",
                )
        spans.append((start, start + len(core)))
        cursor = start + 1
    return spans


def _peer_chunks(
    document: CorpusDocument, spans: Sequence[tuple[int, int]], tokenization: Tokenization
) -> list[IndexedChunk]:
    """Peer spans as indexed chunks, with exact token counts and effective overlap."""
    text = document.text
    texts = [text[start:end] for start, end in spans]
    prepared = [tokenization.prepare(piece) for piece in texts]
    counts = list(tokenization.count_many(prepared))
    shared = [
        text[start : min(previous_end, end)]
        for (_, previous_end), (start, end) in itertools.pairwise(spans)
    ]
    overlaps = [0, *tokenization.count_many((s if s.strip() else "" for s in shared), content=True)]
    return [
        IndexedChunk(document.doc_id, start, end, piece, indexed, count, overlap)
        for (start, end), piece, indexed, count, overlap in zip(
            spans, texts, prepared, counts, overlaps, strict=True
        )
    ]


def _peer_module(module: str, package: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise MissingDependencyError(
            f"the {package} peer needs {package}: pip install 'langchain-asesoria[eval]'.",
            expected="langchain-asesoria[eval]",
        ) from error


class LangChainRecursiveChunker:
    """LangChain's ``RecursiveCharacterTextSplitter`` counting tokens of the same tokenizer."""

    @property
    def name(self) -> str:
        return "langchain-recursive"

    def chunk(
        self, document: CorpusDocument, config: ChunkingConfig, tokenization: Tokenization
    ) -> list[IndexedChunk]:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        splitter = RecursiveCharacterTextSplitter(
            chunk_size=config.max_tokens,
            chunk_overlap=config.overlap_tokens,
            length_function=tokenization.count_content,
        )
        pieces = splitter.split_text(document.text)
        return _peer_chunks(document, locate_pieces(document.text, pieces), tokenization)


class SemchunkChunker:
    """``semchunk.chunk`` with the same token counter, size and overlap."""

    @property
    def name(self) -> str:
        return "semchunk"

    def chunk(
        self, document: CorpusDocument, config: ChunkingConfig, tokenization: Tokenization
    ) -> list[IndexedChunk]:
        semchunk = _peer_module("semchunk", "semchunk")
        pieces, offsets = semchunk.chunk(
            document.text,
            chunk_size=config.max_tokens,
            token_counter=tokenization.count_content,
            offsets=True,
            overlap=config.overlap_tokens or None,
        )
        hints: list[int | None] = [int(start) for start, _ in offsets]
        return _peer_chunks(
            document, locate_pieces(document.text, list(pieces), hints), tokenization
        )


def _fast_tokenizer(tokenization: Tokenization, peer: str) -> Any:
    """The ``tokenizers.Tokenizer`` behind ``tokenization``, as a peer's users pass it."""
    tokenizer = getattr(tokenization, "tokenizer", None)
    if tokenizer is None:
        raise ConfigurationError(
            f"the {peer} peer needs a Hugging Face tokenizer; {tokenization.name!r} has none.",
            expected="a Hugging Face tokenizer",
        )
    return tokenizer


class SemanticTextSplitterChunker:
    """``semantic_text_splitter.TextSplitter.from_huggingface_tokenizer`` with the same
    tokenizer, capacity and overlap; ``chunk_indices`` gives its offsets."""

    @property
    def name(self) -> str:
        return "semantic-text-splitter"

    def chunk(
        self, document: CorpusDocument, config: ChunkingConfig, tokenization: Tokenization
    ) -> list[IndexedChunk]:
        module = _peer_module("semantic_text_splitter", "semantic-text-splitter")
        splitter = module.TextSplitter.from_huggingface_tokenizer(
            _fast_tokenizer(tokenization, self.name),
            config.max_tokens,
            overlap=config.overlap_tokens,
        )
        found = list(splitter.chunk_indices(document.text))
        hints: list[int | None] = [int(start) for start, _ in found]
        pieces = [str(piece) for _, piece in found]
        return _peer_chunks(document, locate_pieces(document.text, pieces, hints), tokenization)


class ChonkieChunker:
    """``chonkie.RecursiveChunker`` with the same tokenizer and size (it has no overlap)."""

    @property
    def name(self) -> str:
        return "chonkie"

    def chunk(
        self, document: CorpusDocument, config: ChunkingConfig, tokenization: Tokenization
    ) -> list[IndexedChunk]:
        module = _peer_module("chonkie", "chonkie")
        chunker = module.RecursiveChunker(
            tokenizer=_fast_tokenizer(tokenization, self.name), chunk_size=config.max_tokens
        )
        found = chunker.chunk(document.text)
        hints: list[int | None] = [int(chunk.start_index) for chunk in found]
        pieces = [str(chunk.text) for chunk in found]
        return _peer_chunks(document, locate_pieces(document.text, pieces, hints), tokenization)


#: Peers by the name the command line accepts.
PEER_CHUNKERS: dict[str, type[Chunker]] = {
    "langchain": LangChainRecursiveChunker,
    "semchunk": SemchunkChunker,
    "semantic-text-splitter": SemanticTextSplitterChunker,
    "chonkie": ChonkieChunker,
}
