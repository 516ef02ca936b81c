"""A recording fake ``Embeddings`` for tests, yours included: offline, exact, deterministic.

``RecordingEmbeddings`` keeps every text it is asked to embed, so a test can prove
what reached the model (``embedding_text`` for documents, one query prefix for
queries). Its vectors are a hashed bag of lower-cased words, so texts that share
words are near each other and retrieval tests are meaningful without a model.
"""

from __future__ import annotations

import hashlib
import math
import re

from langchain_core.embeddings import Embeddings

__all__ = ["RecordingEmbeddings"]

_WORD = re.compile(r"\w+")


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
