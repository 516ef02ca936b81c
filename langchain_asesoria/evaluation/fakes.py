"""Fakes for testing evaluation pipelines offline, yours included: no model, no extra.

- ``KeywordRetriever``: ranks texts by the number of distinct query words they contain
  (ties by position), so expected rankings can be worked out by hand.
- ``BagOfWordsEmbeddings``: deterministic LangChain ``Embeddings`` (hashed word counts,
  L2-normalized) that records every text it was asked to embed, to check what an
  embedder really receives.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence

from langchain_core.embeddings import Embeddings

from langchain_asesoria.evaluation.retrievers import ScoredPosition, SearchIndex

__all__ = ["BagOfWordsEmbeddings", "KeywordRetriever"]

_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


class _KeywordIndex:
    __slots__ = ("_texts",)

    def __init__(self, texts: Sequence[str]) -> None:
        self._texts = [_words(text) for text in texts]

    def search(self, query: str, k: int) -> list[ScoredPosition]:
        terms = _words(query)
        scored = [
            ScoredPosition(position, float(len(terms & words)))
            for position, words in enumerate(self._texts)
        ]
        scored.sort(key=lambda hit: (-hit.score, hit.position))
        return scored[:k]


class KeywordRetriever:
    """Scores a text by how many distinct (lower-cased) query words it contains.

    Attributes:
        indexed: Every sequence of texts passed to ``index``, for assertions.
    """

    def __init__(self) -> None:
        self.indexed: list[list[str]] = []

    @property
    def name(self) -> str:
        return "keywords"

    def index(self, texts: Sequence[str]) -> SearchIndex:
        self.indexed.append(list(texts))
        return _KeywordIndex(texts)


class BagOfWordsEmbeddings(Embeddings):
    """Hashed bag-of-words vectors; records what was embedded.

    Attributes:
        documents: Every text passed to ``embed_documents``, in order.
        queries: Every text passed to ``embed_query``, in order.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.documents: list[str] = []
        self.queries: list[str] = []

    def _vector(self, text: str) -> list[float]:
        vector = [0.0] * self.size
        for word in _WORD.findall(text.lower()):
            bucket = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "big")
            vector[bucket % self.size] += 1.0
        norm = math.sqrt(sum(value * value for value in vector)) or 1.0
        return [value / norm for value in vector]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents.extend(texts)
        return [self._vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return self._vector(text)
