"""Fake tokenizers for tests, yours included: exact, offline and fast to reason about.

``ByteTokenization`` is the chunking specification's test double: one token per UTF-8
byte plus special tokens, so tokens and characters never coincide on Spanish text
(``ñ`` is 2 tokens, ``€`` 3, an emoji 4). ``WordTokenization`` counts word pieces of up
to four letters and each punctuation mark, so cutting inside a word changes the count:
sums of parts are wrong with it, as with real tokenizers.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence

from langchain_asesoria.tokenization.base import ModelProfile, ProfiledTokenization, TokenIndex

__all__ = ["ByteTokenization", "WordTokenization"]


class _FakeTokenization(ProfiledTokenization, ABC):
    """Exact counts from ``token_starts`` plus ``special_tokens``; a real input limit."""

    __slots__ = ("_limit", "_special")

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
        if max_input_tokens < 1 or special_tokens < 0:
            raise ValueError("max_input_tokens must be >= 1 and special_tokens >= 0")
        profile = ModelProfile(document_prefix, query_prefix, max_input_tokens)
        super().__init__(profile, self.fake_name)
        self._limit = max_input_tokens
        self._special = special_tokens

    @property
    def max_input_tokens(self) -> int:
        return self._limit

    def count(self, text: str) -> int:
        return self.count_content(text) + self._special

    def count_batch(self, texts: Sequence[str]) -> list[int]:
        return [self.count(text) for text in texts]

    def count_content(self, text: str) -> int:
        return len(self.token_starts(text))

    def count_content_batch(self, texts: Sequence[str]) -> list[int]:
        return [self.count_content(text) for text in texts]

    @abstractmethod
    def token_starts(self, text: str) -> Sequence[int]:
        """Each fake defines its tokens by their start offsets."""

    def token_index(self, text: str) -> TokenIndex:
        return TokenIndex.from_starts(self.token_starts(text))


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
