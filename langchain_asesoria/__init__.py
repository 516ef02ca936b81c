"""langchain-asesoria: chunks that fit the embedding model exactly and cite their source.

The public API keeps the names of the AsesorIA chunking specification::

    from langchain_asesoria import (
        LoadedPage, ChunkMetadata, SectionSpan, Settings, get_settings,
        ChunkingConfig, Chunk, chunk_document, load_tokenization, Tokenization,
    )

LangChain's classes are exported here too (``AsesoriaTextSplitter``,
``AsesoriaDocumentTransformer``, ``AsesoriaEmbeddings``, ``PdfPageLoader``,
``TextFileLoader``), imported on first use so that ``import langchain_asesoria`` and the
engine never load LangChain.
"""

from typing import TYPE_CHECKING, Any

from langchain_asesoria.engine import (
    chunk_document,
    detect_markdown_sections,
    iter_chunks,
    join_pages,
)
from langchain_asesoria.errors import (
    AsesoriaError,
    BudgetError,
    ConfigurationError,
    ContextTooLongError,
    DamagedDocumentError,
    DocumentReadError,
    EncryptedDocumentError,
    IndivisibleCharacterError,
    InvalidPagesError,
    InvalidSectionsError,
    MissingDependencyError,
    MissingSettingError,
    ModelLimitError,
    NoTextLayerError,
    PrivacyError,
    TextEncodingError,
    TokenizerLoadError,
    UnsupportedFileError,
    UsageError,
)
from langchain_asesoria.hub import load_tokenization
from langchain_asesoria.models import (
    DEFAULT_SEPARATORS,
    SIZE_CANDIDATES,
    Chunk,
    ChunkingConfig,
    ChunkMetadata,
    LoadedPage,
    SectionSpan,
)
from langchain_asesoria.settings import Settings, get_settings
from langchain_asesoria.tokenization import (
    HuggingFaceTokenization,
    ModelProfile,
    TokenIndex,
    Tokenization,
)

if TYPE_CHECKING:
    from langchain_asesoria.langchain import (
        AsesoriaDocumentTransformer,
        AsesoriaEmbeddings,
        AsesoriaTextSplitter,
        PdfPageLoader,
        TextFileLoader,
    )

#: The LangChain adapters exported here, imported from ``langchain_asesoria.langchain``
#: on first use.
_LANGCHAIN_CLASSES = frozenset(
    {
        "AsesoriaDocumentTransformer",
        "AsesoriaEmbeddings",
        "AsesoriaTextSplitter",
        "PdfPageLoader",
        "TextFileLoader",
    }
)


def __getattr__(name: str) -> Any:
    """Imports a LangChain adapter class on first use (PEP 562)."""
    if name in _LANGCHAIN_CLASSES:
        import importlib

        return getattr(importlib.import_module("langchain_asesoria.langchain"), name)
    raise AttributeError(f"module 'langchain_asesoria' has no attribute {name!r}")


__version__ = "0.1.0"

__all__ = [
    "DEFAULT_SEPARATORS",
    "SIZE_CANDIDATES",
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
    "DocumentReadError",
    "EncryptedDocumentError",
    "HuggingFaceTokenization",
    "IndivisibleCharacterError",
    "InvalidPagesError",
    "InvalidSectionsError",
    "LoadedPage",
    "MissingDependencyError",
    "MissingSettingError",
    "ModelLimitError",
    "ModelProfile",
    "NoTextLayerError",
    "PdfPageLoader",
    "PrivacyError",
    "SectionSpan",
    "Settings",
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
]
