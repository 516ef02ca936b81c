"""Chunkers under comparison, behind one protocol: this library's engine and its peers.

More: ``docs/design/evaluation.md``.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from langchain_asesoria.engine import Tokenization
from langchain_asesoria.errors import ConfigurationError, MissingDependencyError
from langchain_asesoria.models import ChunkingConfig, ChunkMetadata
from langchain_asesoria.reading import split_document
from langchain_asesoria_eval.corpus import PAGE_SEPARATOR, CorpusDocument

__all__ = [
    "PEER_CHUNKERS",
    "AsesoriaChunker",
    "ChonkieChunker",
    "Chunker",
    "IndexedChunk",
    "LangChainRecursiveChunker",
    "PeerSplit",
    "SemanticTextSplitterChunker",
    "SemchunkChunker",
    "chonkie_split",
    "langchain_split",
    "locate_pieces",
    "semantic_text_splitter_split",
    "semchunk_split",
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
            f"the {package} peer needs {package}: from a checkout, pip install . ./evaluation.",
            expected="langchain-asesoria-eval",
        ) from error


def _fast_tokenizer(tokenization: Tokenization, peer: str) -> Any:
    """The ``tokenizers.Tokenizer`` behind ``tokenization``, as a peer's users pass it."""
    tokenizer = getattr(tokenization, "tokenizer", None)
    if tokenizer is None:
        raise ConfigurationError(
            f"the {peer} peer needs a Hugging Face tokenizer; {tokenization.name!r} has none.",
            expected="a Hugging Face tokenizer",
        )
    return tokenizer


#: A peer splitter built once, called as its users call it: a document's text to its
#: pieces, each ``(start the peer claims, text)``, in document order.
PeerSplit = Callable[[str], list[tuple[int, str]]]


def langchain_split(config: ChunkingConfig, tokenization: Tokenization) -> PeerSplit:
    """``RecursiveCharacterTextSplitter`` measuring content tokens of the tokenizer (what
    ``from_huggingface_tokenizer`` measures), with ``add_start_index``."""
    module = _peer_module("langchain_text_splitters", "langchain-text-splitters")
    splitter = module.RecursiveCharacterTextSplitter(
        chunk_size=config.max_tokens,
        chunk_overlap=config.overlap_tokens,
        length_function=tokenization.count_content,
        add_start_index=True,
    )

    def split(text: str) -> list[tuple[int, str]]:
        return [
            (int(document.metadata["start_index"]), str(document.page_content))
            for document in splitter.create_documents([text])
        ]

    return split


def semchunk_split(config: ChunkingConfig, tokenization: Tokenization) -> PeerSplit:
    """``semchunk.chunkerify(tokenizer, chunk_size)(text, offsets=True, overlap=...)``;
    a tokenization without a Hugging Face tokenizer is given as its content counter."""
    semchunk = _peer_module("semchunk", "semchunk")
    tokenizer = getattr(tokenization, "tokenizer", None) or tokenization.count_content
    chunker = semchunk.chunkerify(tokenizer, chunk_size=config.max_tokens)

    def split(text: str) -> list[tuple[int, str]]:
        pieces, offsets = chunker(text, offsets=True, overlap=config.overlap_tokens or None)
        return [(int(start), str(piece)) for piece, (start, _) in zip(pieces, offsets, strict=True)]

    return split


def semantic_text_splitter_split(config: ChunkingConfig, tokenization: Tokenization) -> PeerSplit:
    """``TextSplitter.from_huggingface_tokenizer(tokenizer, capacity, overlap)``,
    ``chunk_indices``."""
    module = _peer_module("semantic_text_splitter", "semantic-text-splitter")
    splitter = module.TextSplitter.from_huggingface_tokenizer(
        _fast_tokenizer(tokenization, "semantic-text-splitter"),
        config.max_tokens,
        overlap=config.overlap_tokens,
    )

    def split(text: str) -> list[tuple[int, str]]:
        return [(int(start), str(piece)) for start, piece in splitter.chunk_indices(text)]

    return split


def chonkie_split(config: ChunkingConfig, tokenization: Tokenization) -> PeerSplit:
    """``chonkie.RecursiveChunker(tokenizer=..., chunk_size=...)`` (it has no overlap)."""
    module = _peer_module("chonkie", "chonkie")
    chunker = module.RecursiveChunker(
        tokenizer=_fast_tokenizer(tokenization, "chonkie"), chunk_size=config.max_tokens
    )

    def split(text: str) -> list[tuple[int, str]]:
        return [(int(chunk.start_index), str(chunk.text)) for chunk in chunker.chunk(text)]

    return split


class _PeerChunker:
    """A peer's ``PeerSplit`` for one document, its pieces located exactly."""

    #: The peer's name for tables and plots.
    peer = ""
    #: Whether the starts it claims are used as hints (LangChain's are found with
    #: ``str.find`` and can point at a later copy of repeated text: not used).
    trusted_starts = True

    @staticmethod
    def make(config: ChunkingConfig, tokenization: Tokenization) -> PeerSplit:
        raise NotImplementedError

    @property
    def name(self) -> str:
        return self.peer

    def chunk(
        self, document: CorpusDocument, config: ChunkingConfig, tokenization: Tokenization
    ) -> list[IndexedChunk]:
        found = self.make(config, tokenization)(document.text)
        hints: list[int | None] | None = (
            [start for start, _ in found] if self.trusted_starts else None
        )
        pieces = [piece for _, piece in found]
        return _peer_chunks(document, locate_pieces(document.text, pieces, hints), tokenization)


class LangChainRecursiveChunker(_PeerChunker):
    """LangChain's ``RecursiveCharacterTextSplitter`` counting tokens of the same tokenizer."""

    peer = "langchain-recursive"
    trusted_starts = False
    make = staticmethod(langchain_split)


class SemchunkChunker(_PeerChunker):
    """``semchunk`` with the same tokenizer, size and overlap."""

    peer = "semchunk"
    make = staticmethod(semchunk_split)


class SemanticTextSplitterChunker(_PeerChunker):
    """``semantic_text_splitter.TextSplitter.from_huggingface_tokenizer`` with the same
    tokenizer, capacity and overlap; ``chunk_indices`` gives its offsets."""

    peer = "semantic-text-splitter"
    make = staticmethod(semantic_text_splitter_split)


class ChonkieChunker(_PeerChunker):
    """``chonkie.RecursiveChunker`` with the same tokenizer and size (it has no overlap)."""

    peer = "chonkie"
    make = staticmethod(chonkie_split)


#: Peers by the name the command line accepts.
PEER_CHUNKERS: dict[str, type[Chunker]] = {
    "langchain": LangChainRecursiveChunker,
    "semchunk": SemchunkChunker,
    "semantic-text-splitter": SemanticTextSplitterChunker,
    "chonkie": ChonkieChunker,
}
