"""Fake tokenizers for tests, yours included: exact, offline and fast to reason about.

``ByteTokenization`` is the test double of the AsesorIA chunking specification: one
token per UTF-8 byte plus special tokens, so tokens and characters never coincide on
Spanish text (``ñ`` is 2 tokens, ``€`` 3, an emoji 4). ``WordTokenization`` counts
word pieces of up to four letters and each punctuation mark, so cutting inside a word
changes the count: sums of parts are wrong with it, as with real tokenizers.
Both are built on ``TokenizationBase``, the public base of every tokenizer family:
a fake defines only where its tokens start. ``CountingTokenization`` wraps any
tokenization and records what is asked of it. ``RecordingEmbeddings`` is a LangChain
``Embeddings`` that keeps every text it embeds (offline, deterministic).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Iterator, Sequence

from langchain_core.embeddings import Embeddings

from langchain_asesoria.engine import TokenIndex, Tokenization
from langchain_asesoria.tokenization import ModelProfile, TokenizationBase

__all__ = [
    "ByteTokenization",
    "CountingTokenization",
    "RecordingEmbeddings",
    "WordTokenization",
]

_WORD = re.compile(r"\w+")


class _FakeTokenization(TokenizationBase):
    """A fake of the public base: it defines only its tokens (``token_starts``)."""

    __slots__ = ()

    #: The fake's name in messages and reports.
    fake_name = "fake"

    def __init__(
        self,
        max_input_tokens: int = 512,
        *,
        special_tokens: int = 2,
        document_prefix: str = "",
        query_prefix: str = "",
    ) -> None:
        profile = ModelProfile(document_prefix, query_prefix, max_input_tokens)
        super().__init__(profile, self.fake_name, special_tokens=special_tokens)


class ByteTokenization(_FakeTokenization):
    """One token per UTF-8 byte, plus ``special_tokens`` (2, like ``[CLS]``/``[SEP]``)."""

    __slots__ = ()
    fake_name = "fake-bytes"

    def count_content(self, text: str) -> int:
        return len(text.encode("utf-8"))

    def token_starts(self, text: str) -> Sequence[int]:
        if text.isascii():
            return range(len(text))
        return [index for index, char in enumerate(text) for _ in char.encode("utf-8")]


_WORD_PIECE = re.compile(r"\w{1,4}|[^\w\s]")


class WordTokenization(_FakeTokenization):
    """Word pieces of up to four word characters, and each other visible character."""

    __slots__ = ()
    fake_name = "fake-words"

    def token_starts(self, text: str) -> Sequence[int]:
        return [match.start() for match in _WORD_PIECE.finditer(text)]


class CountingTokenization:
    """Wraps a ``Tokenization`` and records what is asked of it: calls and characters.

    Use it to check that a pipeline stays linear (about one estimate pass and one exact
    count per chunk) or to see how often planned chunks are corrected.

    Attributes:
        exact: Texts counted with special tokens (``count`` and ``count_many``).
        single: Of those, counted one at a time with ``count`` (corrections).
        content: Texts counted without special tokens (overlaps).
        offsets: ``token_starts`` and ``token_index`` calls.
        characters: Characters of every text handed to the tokenizer.
    """

    def __init__(self, inner: Tokenization) -> None:
        self.inner = inner
        self.exact = 0
        self.single = 0
        self.content = 0
        self.offsets = 0
        self.characters = 0

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def max_input_tokens(self) -> int:
        return self.inner.max_input_tokens

    def count(self, text: str) -> int:
        self.exact += 1
        self.single += 1
        self.characters += len(text)
        return self.inner.count(text)

    def count_content(self, text: str) -> int:
        self.content += 1
        self.characters += len(text)
        return self.inner.count_content(text)

    def count_many(self, texts: Iterable[str], *, content: bool = False) -> Iterator[int]:
        return self.inner.count_many(self._recorded(texts, content), content=content)

    def _recorded(self, texts: Iterable[str], content: bool) -> Iterator[str]:
        for text in texts:
            if content:
                self.content += bool(text)
            else:
                self.exact += 1
            self.characters += len(text)
            yield text

    def token_starts(self, text: str) -> Sequence[int]:
        self.offsets += 1
        self.characters += len(text)
        return self.inner.token_starts(text)

    def token_index(self, text: str) -> TokenIndex:
        self.offsets += 1
        self.characters += len(text)
        return self.inner.token_index(text)

    def prepare(self, content: str, context: str = "") -> str:
        return self.inner.prepare(content, context)

    def prepare_query(self, text: str) -> str:
        return self.inner.prepare_query(text)


class RecordingEmbeddings(Embeddings):
    """Hashed bag-of-words embeddings that record their inputs.

    Args:
        size: The vector size.

    Attributes:
        documents: Every text passed to ``embed_documents``, in call order.
        queries: Every text passed to ``embed_query``, in call order.

    Invariants:
        Equal texts give equal vectors, in every process (the hash is SHA-256, not
        Python's salted ``hash``); every vector has unit length.
    """

    def __init__(self, size: int = 256) -> None:
        if size < 2:
            raise ValueError(f"size must be at least 2, got {size}.")
        self.size = size
        self.documents: list[str] = []
        self.queries: list[str] = []

    def vector(self, text: str) -> list[float]:
        """The embedding of ``text``, without recording it."""
        vector = [0.0] * self.size
        vector[0] = 0.01  # never the zero vector: cosine similarity stays defined
        for word in _WORD.findall(text.lower()):
            digest = hashlib.sha256(word.encode("utf-8")).digest()
            vector[1 + int.from_bytes(digest[:4], "big") % (self.size - 1)] += 1.0
        norm = math.sqrt(sum(value * value for value in vector))
        return [value / norm for value in vector]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Records ``texts`` and embeds them."""
        self.documents.extend(texts)
        return [self.vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        """Records ``text`` and embeds it."""
        self.queries.append(text)
        return self.vector(text)
