"""``AsesoriaEmbeddings``: the model input rules on the embedding side of LangChain.

Documents must reach the embedder as their chunks' ``embedding_text`` (index the
transformer's output with ``page_content="embedding_text"``, its default), and each
query must carry the model's query prefix exactly once. This wrapper does the query
side and checks the document side; it never edits a document text::

    inner.embed_documents(texts) receives texts unchanged
    inner.embed_query(q) receives tokenization.prepare_query(q)   # "query: " once
"""

from __future__ import annotations

from langchain_core.embeddings import Embeddings

from langchain_asesoria.errors import ConfigurationError
from langchain_asesoria.tokenization import Tokenization


class AsesoriaEmbeddings(Embeddings):
    """Wraps any LangChain ``Embeddings`` so that queries get the model's query prefix.

    Args:
        embeddings: The model's embeddings; it must add no prefix of its own (for
            sentence-transformers, no ``prompt_name`` or ``prompts``).
        tokenization: The same tokenization the chunks were made with: its profile
            holds the query prefix (E5: ``"query: "``) and the document prefix.
        require_document_prefix: Refuse documents that lack the model's document
            prefix (E5: ``"passage: "``): they were indexed with the original text
            instead of ``embedding_text``. No effect for models without one.

    Invariants:
        ``embed_documents`` passes texts unchanged; ``embed_query(q)`` embeds
        ``tokenization.prepare_query(q)``, which never adds the prefix twice.
    """

    def __init__(
        self,
        embeddings: Embeddings,
        tokenization: Tokenization,
        *,
        require_document_prefix: bool = True,
    ) -> None:
        if not isinstance(embeddings, Embeddings):
            raise ConfigurationError(
                f"embeddings must be a LangChain Embeddings, got {type(embeddings).__name__}.",
                expected="a LangChain Embeddings",
            )
        if not isinstance(tokenization, Tokenization):
            raise ConfigurationError(
                f"tokenization must implement the Tokenization protocol, got "
                f"{type(tokenization).__name__}.",
                expected="a Tokenization",
            )
        self._embeddings = embeddings
        self._tokenization = tokenization
        self._document_prefix = tokenization.prepare("") if require_document_prefix else ""

    @property
    def embeddings(self) -> Embeddings:
        """The wrapped embeddings."""
        return self._embeddings

    def query_text(self, text: str) -> str:
        """The exact text the model receives for the query ``text``."""
        return self._tokenization.prepare_query(text)

    def _checked(self, texts: list[str]) -> list[str]:
        prefix = self._document_prefix
        if prefix:
            for index, text in enumerate(texts):
                if not text.startswith(prefix):
                    raise ConfigurationError(
                        f"document {index} lacks the model's document prefix {prefix!r} "
                        f"({text[:40]!r}...): index the chunks' embedding_text (the "
                        "transformer's default page_content='embedding_text'), or pass "
                        "require_document_prefix=False for texts prepared elsewhere.",
                        expected=f"a text starting with {prefix!r}",
                    )
        return texts

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embeds ``texts`` exactly as given.

        Raises:
            ConfigurationError: a text without the model's document prefix (when
                ``require_document_prefix``).
        """
        return self._embeddings.embed_documents(self._checked(list(texts)))

    def embed_query(self, text: str) -> list[float]:
        """Embeds ``text`` with the model's query prefix, exactly once."""
        return self._embeddings.embed_query(self.query_text(text))

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        """The asynchronous ``embed_documents``."""
        return await self._embeddings.aembed_documents(self._checked(list(texts)))

    async def aembed_query(self, text: str) -> list[float]:
        """The asynchronous ``embed_query``."""
        return await self._embeddings.aembed_query(self.query_text(text))

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self._embeddings!r}, tokenization={self._tokenization.name!r})"
        )
