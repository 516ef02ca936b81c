"""Fakes for testing evaluation pipelines offline, yours included: no model, no extra.

``KeywordRetriever`` ranks texts by the number of distinct query words they contain
(ties by position), so expected rankings can be worked out by hand. It fakes this
distribution's ``Retriever``; the library's fakes (tokenizers, and ``RecordingEmbeddings``
for a dense retriever's embedding model) are in ``langchain_asesoria.testing``, this
module's namesake.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_asesoria_eval.retrievers import ScoredPosition, SearchIndex

__all__ = ["KeywordRetriever"]

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
