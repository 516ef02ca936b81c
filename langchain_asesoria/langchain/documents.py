"""Chunks as LangChain ``Document``s, and the way back to citations.

A chunk has two texts: ``text`` (the original, for citations) and ``embedding_text``
(what the embedder must consume). A ``Document`` has one ``page_content``; the
``PageContent`` mode chooses which text goes there, and the other one is kept in
``metadata`` under ``EMBEDDING_TEXT`` or ``TEXT``. So for every produced document
``d`` of a chunk ``c``::

    {d.page_content, d.metadata[other key]} == {c.text, c.embedding_text}

Metadata values are vector-store safe: ``str``, ``int``, ``float`` or ``bool``; never
``None``, lists or dicts (Chroma drops ``None`` silently and rejects containers).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import fields
from typing import Any, Final, Literal, cast, get_args

from langchain_core.documents import Document

from langchain_asesoria.engine import check_budget
from langchain_asesoria.errors import AsesoriaError, ConfigurationError
from langchain_asesoria.models import Chunk, ChunkingConfig
from langchain_asesoria.records import (
    DOC_ID,
    EMBEDDING_TEXT,
    PAGE,
    PAGE_END,
    SECTION_PATH,
    TEXT,
    MetadataValue,
)
from langchain_asesoria.tokenization import Tokenization

__all__ = [
    "CONFIG_FIELDS",
    "PAGE_LABEL",
    "PAGE_LABEL_END",
    "OnError",
    "PageContent",
    "check_on_error",
    "check_page_content",
    "chunk_texts",
    "citation",
    "config_options",
    "original_text",
    "scalar_metadata",
]

#: Which chunk text becomes ``Document.page_content``: the original ``"text"`` (what a
#: LangChain splitter returns) or the ``"embedding_text"`` (what the embedder must get:
#: ``vector_store.add_documents`` embeds ``page_content``).
PageContent = Literal["text", "embedding_text"]

#: What to do with one document that cannot be chunked (its section context cannot fit,
#: a character cannot fit, private without a session id...): ``"raise"`` the error and
#: stop, or ``"skip"`` it: it gives no chunks and a warning naming it and the error is
#: logged on the ``langchain_asesoria`` logger, while the other documents are chunked.
OnError = Literal["raise", "skip"]

#: The label a PDF prints on the chunk's first and last page (PDF loaders' ``page_label``).
PAGE_LABEL: Final = "page_label"
PAGE_LABEL_END: Final = "page_label_end"

#: page_content mode -> (metadata key of the *other* text).
_OTHER_KEY: Final[dict[str, str]] = {"text": EMBEDDING_TEXT, "embedding_text": TEXT}


_LOGGER: Final = logging.getLogger("langchain_asesoria")

#: The field names of ``ChunkingConfig``.
CONFIG_FIELDS: Final = frozenset(field.name for field in fields(ChunkingConfig))


def config_options(kwargs: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``kwargs`` split into ``ChunkingConfig`` fields and the other keywords."""
    options = {key: value for key, value in kwargs.items() if key in CONFIG_FIELDS}
    rest = {key: value for key, value in kwargs.items() if key not in CONFIG_FIELDS}
    return options, rest


class ChunkingComponent:
    """What the splitter and the transformer share: tokenizer, config, text mode, errors."""

    _tokenization: Tokenization
    _config: ChunkingConfig
    _page_content: PageContent
    _on_error: OnError

    def _bind(
        self,
        tokenization: Tokenization,
        config: ChunkingConfig,
        page_content: str,
        on_error: str = "raise",
    ) -> None:
        """Checks and keeps the four (``check_budget``, ``check_page_content``...)."""
        if not isinstance(config, ChunkingConfig):
            raise ConfigurationError(
                f"config must be a ChunkingConfig, got {type(config).__name__} {config!r}: "
                "pass ChunkingConfig(max_tokens=..., overlap_tokens=...), or the keywords "
                "chunk_size=... and chunk_overlap=....",
                expected="a ChunkingConfig",
            )
        check_budget(config, tokenization)
        self._tokenization = tokenization
        self._config = config
        self._page_content = check_page_content(page_content)
        self._on_error = check_on_error(on_error)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(tokenization={self._tokenization.name!r}, "
            f"max_tokens={self._config.max_tokens}, overlap_tokens={self._config.overlap_tokens}, "
            f"page_content={self._page_content!r}, on_error={self._on_error!r})"
        )

    def _skipped(self, name: str, error: AsesoriaError) -> None:
        """Raises ``error`` with ``on_error="raise"``; else logs that ``name`` was skipped."""
        if self._on_error == "raise":
            raise error
        _LOGGER.warning(
            "skipped document %r, which gives no chunks (on_error='skip'): %s", name, error
        )

    @property
    def tokenization(self) -> Tokenization:
        """The tokenizer that counts and prepares the model input."""
        return self._tokenization

    @property
    def config(self) -> ChunkingConfig:
        """The chunking configuration."""
        return self._config

    @property
    def page_content(self) -> PageContent:
        """Which chunk text ``page_content`` holds."""
        return self._page_content

    @property
    def on_error(self) -> OnError:
        """What happens to a document that cannot be chunked (``OnError``)."""
        return self._on_error


def _one_of(value: object, allowed: tuple[str, ...], name: str, hint: str) -> str:
    """``value`` when it is one of ``allowed``; else a ``ConfigurationError`` naming both."""
    if isinstance(value, str) and value in allowed:
        return value
    choices = " or ".join(repr(choice) for choice in allowed)
    raise ConfigurationError(f"{name} must be {choices}, got {value!r}: {hint}.", expected=choices)


def check_on_error(mode: str) -> OnError:
    """Returns ``mode`` when it is an ``OnError`` value.

    Raises:
        ConfigurationError: any other value.
    """
    hint = "'skip' leaves out a document that cannot be chunked, with a logged warning"
    return cast(OnError, _one_of(mode, get_args(OnError), "on_error", hint))


def check_page_content(mode: str) -> PageContent:
    """Returns ``mode`` when it is a ``PageContent`` value.

    Raises:
        ConfigurationError: any other value.
    """
    hint = (
        "'embedding_text' makes vector_store.add_documents embed exactly what the model "
        "must receive"
    )
    return cast(PageContent, _one_of(mode, get_args(PageContent), "page_content", hint))


def chunk_texts(chunk: Chunk, mode: PageContent) -> tuple[str, dict[str, MetadataValue]]:
    """``(page_content, {other key: other text})`` of a chunk for a ``PageContent`` mode."""
    if mode == "text":
        return chunk.text, {_OTHER_KEY[mode]: chunk.embedding_text}
    return chunk.embedding_text, {_OTHER_KEY[mode]: chunk.text}


def scalar_metadata(metadata: Mapping[Any, Any]) -> dict[str, MetadataValue]:
    """The entries of ``metadata`` a vector store accepts as they are.

    Keeps ``str`` keys whose values are ``str``, ``int``, ``float`` or ``bool``; leaves
    out ``None``, lists, dicts and other objects (the rule of LangChain's
    ``filter_complex_metadata``). Values are immutable, so the copy is deep.
    """
    return {
        key: value
        for key, value in metadata.items()
        if isinstance(key, str) and isinstance(value, str | int | float | bool)
    }


def original_text(document: Document) -> str:
    """The chunk's original text, whichever ``PageContent`` mode produced ``document``.

    It is ``metadata["text"]`` when ``page_content`` holds the embedding text, else
    ``page_content`` itself: the text to quote in a citation.
    """
    text = document.metadata.get(TEXT)
    return text if isinstance(text, str) else document.page_content


def citation(document: Document) -> str:
    """A short human-readable reference: ``doc_id, p. 3-4, § Title > Subtitle``.

    Parts that the metadata does not carry are left out.
    """
    metadata = document.metadata
    parts: list[str] = []
    if DOC_ID in metadata:
        parts.append(str(metadata[DOC_ID]))
    page, page_end = metadata.get(PAGE), metadata.get(PAGE_END, metadata.get(PAGE))
    if page is not None:
        parts.append(f"p. {page}" if page == page_end else f"pp. {page}-{page_end}")
    if metadata.get(SECTION_PATH):
        parts.append(f"§ {metadata[SECTION_PATH]}")
    return ", ".join(parts)
