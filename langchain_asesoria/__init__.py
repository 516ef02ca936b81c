"""langchain-asesoria: chunks that fit the embedding model exactly and cite their source.

The public API keeps the names of the AsesorIA chunking specification::

    from langchain_asesoria import (
        LoadedPage, ChunkMetadata, SectionSpan, Settings, get_settings,
        ChunkingConfig, Chunk, chunk_document, load_tokenization, Tokenization,
    )

Besides them: LangChain's classes, ``read_document``, ``split_document`` and the errors a
library caller catches, each loaded on first use. More: ``docs/design/package.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from langchain_asesoria._lazy import lazy_exports as _lazy_exports

if TYPE_CHECKING:
    from langchain_asesoria.engine import Tokenization
    from langchain_asesoria.errors import (
        AsesoriaError,
        BudgetError,
        ConfigurationError,
        ContextTooLongError,
        DamagedDocumentError,
        DocumentChunkingError,
        DocumentReadError,
        EncryptedDocumentError,
        IndivisibleCharacterError,
        InvalidPagesError,
        InvalidSectionsError,
        MissingDependencyError,
        MissingSettingError,
        ModelLimitError,
        NoPagesError,
        NoTextLayerError,
        PrivacyError,
        TextEncodingError,
        TokenizerLoadError,
        UnsupportedFileError,
    )
    from langchain_asesoria.langchain import (
        AsesoriaDocumentTransformer,
        AsesoriaEmbeddings,
        AsesoriaTextSplitter,
        PdfPageLoader,
        TextFileLoader,
    )
    from langchain_asesoria.models import (
        Chunk,
        ChunkingConfig,
        ChunkMetadata,
        LoadedPage,
        SectionSpan,
    )
    from langchain_asesoria.pages import join_pages
    from langchain_asesoria.reading import ReadOptions, read_document, split_document
    from langchain_asesoria.reading.given import chunk_document
    from langchain_asesoria.settings import Settings, get_settings
    from langchain_asesoria.tokenization import load_tokenization

_ERRORS: Final = (
    "AsesoriaError",
    "BudgetError",
    "ConfigurationError",
    "ContextTooLongError",
    "DamagedDocumentError",
    "DocumentChunkingError",
    "DocumentReadError",
    "EncryptedDocumentError",
    "IndivisibleCharacterError",
    "InvalidPagesError",
    "InvalidSectionsError",
    "MissingDependencyError",
    "MissingSettingError",
    "ModelLimitError",
    "NoPagesError",
    "NoTextLayerError",
    "PrivacyError",
    "TextEncodingError",
    "TokenizerLoadError",
    "UnsupportedFileError",
)

#: Every public name -> the module that defines it, imported on first use.
_LAZY: Final = {
    "Chunk": "langchain_asesoria.models",
    "ChunkMetadata": "langchain_asesoria.models",
    "ChunkingConfig": "langchain_asesoria.models",
    "LoadedPage": "langchain_asesoria.models",
    "SectionSpan": "langchain_asesoria.models",
    "Tokenization": "langchain_asesoria.engine",
    "chunk_document": "langchain_asesoria.reading.given",
    "join_pages": "langchain_asesoria.pages",
    "Settings": "langchain_asesoria.settings",
    "get_settings": "langchain_asesoria.settings",
    "load_tokenization": "langchain_asesoria.tokenization",
    "AsesoriaDocumentTransformer": "langchain_asesoria.langchain",
    "AsesoriaEmbeddings": "langchain_asesoria.langchain",
    "AsesoriaTextSplitter": "langchain_asesoria.langchain",
    "PdfPageLoader": "langchain_asesoria.langchain",
    "TextFileLoader": "langchain_asesoria.langchain",
    "ReadOptions": "langchain_asesoria.reading",
    "read_document": "langchain_asesoria.reading",
    "split_document": "langchain_asesoria.reading",
    **dict.fromkeys(_ERRORS, "langchain_asesoria.errors"),
}


__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)


__version__ = "0.1.0"

__all__ = [
    "AsesoriaDocumentTransformer",
    "AsesoriaEmbeddings",
    "AsesoriaError",
    "AsesoriaTextSplitter",
    "BudgetError",
    "Chunk",
    "ChunkMetadata",
    "ChunkingConfig",
    "ConfigurationError",
    "ContextTooLongError",
    "DamagedDocumentError",
    "DocumentChunkingError",
    "DocumentReadError",
    "EncryptedDocumentError",
    "IndivisibleCharacterError",
    "InvalidPagesError",
    "InvalidSectionsError",
    "LoadedPage",
    "MissingDependencyError",
    "MissingSettingError",
    "ModelLimitError",
    "NoPagesError",
    "NoTextLayerError",
    "PdfPageLoader",
    "PrivacyError",
    "ReadOptions",
    "SectionSpan",
    "Settings",
    "TextEncodingError",
    "TextFileLoader",
    "Tokenization",
    "TokenizerLoadError",
    "UnsupportedFileError",
    "__version__",
    "chunk_document",
    "get_settings",
    "join_pages",
    "load_tokenization",
    "read_document",
    "split_document",
]
