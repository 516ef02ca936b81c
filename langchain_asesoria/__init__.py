"""langchain-asesoria: chunks that fit the embedding model exactly and cite their source.

The public API keeps the names of the AsesorIA chunking specification::

    from langchain_asesoria import (
        LoadedPage, ChunkMetadata, SectionSpan, Settings, get_settings,
        ChunkingConfig, Chunk, chunk_document, load_tokenization, Tokenization,
    )

The engine's names load at once; those that need settings (pydantic), a tokenizer
library or LangChain load on first use, so ``import langchain_asesoria`` and its engine
stay light. LangChain's classes are exported here too (``AsesoriaTextSplitter``,
``AsesoriaDocumentTransformer``, ``AsesoriaEmbeddings``, ``PdfPageLoader``,
``TextFileLoader``).

``read_document(path)`` reads a PDF, Markdown or text file as every entry point does
(a PDF's outline sections, without its running headers and footers; a Markdown file's
headings, without its front matter), and ``split_document`` chunks it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from langchain_asesoria.engine import TokenIndex, Tokenization, join_pages
from langchain_asesoria.errors import (
    AsesoriaError,
    BudgetError,
    ConfigurationError,
    ContextTooLongError,
    DamagedDocumentError,
    DocumentChunkingError,
    DocumentReadError,
    EncryptedDocumentError,
    FieldsError,
    IndivisibleCharacterError,
    InvalidPagesError,
    InvalidSectionsError,
    MissingDependencyError,
    MissingSettingError,
    ModelLimitError,
    NoPagesError,
    NoTextLayerError,
    OutputError,
    PrivacyError,
    QuestionFileError,
    SetupUnavailableError,
    StrictModeError,
    TextEncodingError,
    TokenizerLoadError,
    UnsupportedFileError,
    UsageError,
)
from langchain_asesoria.models import (
    DEFAULT_SEPARATORS,
    SECTION_CONTEXTS,
    SIZE_CANDIDATES,
    Chunk,
    ChunkingConfig,
    ChunkMetadata,
    LeadSpan,
    LoadedPage,
    SectionSpan,
)

if TYPE_CHECKING:
    from langchain_asesoria.langchain import (
        AsesoriaDocumentTransformer,
        AsesoriaEmbeddings,
        AsesoriaTextSplitter,
        PdfPageLoader,
        TextFileLoader,
    )
    from langchain_asesoria.reading import (
        ChunkedDocument,
        DocumentPages,
        ReadOptions,
        read_document,
        split_document,
    )
    from langchain_asesoria.reading.given import chunk_document, iter_chunks
    from langchain_asesoria.settings import Settings, get_settings
    from langchain_asesoria.structure.markdown import detect_markdown_sections
    from langchain_asesoria.tokenization import (
        HuggingFaceTokenization,
        ModelProfile,
        load_tokenization,
    )

#: Public names loaded on first use -> the module that defines them.
_LAZY = {
    "Settings": "langchain_asesoria.settings",
    "get_settings": "langchain_asesoria.settings",
    "HuggingFaceTokenization": "langchain_asesoria.tokenization",
    "ModelProfile": "langchain_asesoria.tokenization",
    "load_tokenization": "langchain_asesoria.tokenization",
    "AsesoriaDocumentTransformer": "langchain_asesoria.langchain",
    "AsesoriaEmbeddings": "langchain_asesoria.langchain",
    "AsesoriaTextSplitter": "langchain_asesoria.langchain",
    "PdfPageLoader": "langchain_asesoria.langchain",
    "TextFileLoader": "langchain_asesoria.langchain",
    "DocumentPages": "langchain_asesoria.reading",
    "ReadOptions": "langchain_asesoria.reading",
    "read_document": "langchain_asesoria.reading",
    "split_document": "langchain_asesoria.reading",
    "ChunkedDocument": "langchain_asesoria.reading",
    "chunk_document": "langchain_asesoria.reading.given",
    "iter_chunks": "langchain_asesoria.reading.given",
    "detect_markdown_sections": "langchain_asesoria.structure.markdown",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"

__all__ = [
    "DEFAULT_SEPARATORS",
    "SECTION_CONTEXTS",
    "SIZE_CANDIDATES",
    "AsesoriaDocumentTransformer",
    "AsesoriaEmbeddings",
    "AsesoriaError",
    "AsesoriaTextSplitter",
    "BudgetError",
    "Chunk",
    "ChunkMetadata",
    "ChunkedDocument",
    "ChunkingConfig",
    "ConfigurationError",
    "ContextTooLongError",
    "DamagedDocumentError",
    "DocumentChunkingError",
    "DocumentPages",
    "DocumentReadError",
    "EncryptedDocumentError",
    "FieldsError",
    "HuggingFaceTokenization",
    "IndivisibleCharacterError",
    "InvalidPagesError",
    "InvalidSectionsError",
    "LeadSpan",
    "LoadedPage",
    "MissingDependencyError",
    "MissingSettingError",
    "ModelLimitError",
    "ModelProfile",
    "NoPagesError",
    "NoTextLayerError",
    "OutputError",
    "PdfPageLoader",
    "PrivacyError",
    "QuestionFileError",
    "ReadOptions",
    "SectionSpan",
    "Settings",
    "SetupUnavailableError",
    "StrictModeError",
    "TextEncodingError",
    "TextFileLoader",
    "TokenIndex",
    "Tokenization",
    "TokenizerLoadError",
    "UnsupportedFileError",
    "UsageError",
    "__version__",
    "chunk_document",
    "detect_markdown_sections",
    "get_settings",
    "iter_chunks",
    "join_pages",
    "load_tokenization",
    "read_document",
    "split_document",
]
