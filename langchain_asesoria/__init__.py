"""langchain-asesoria: chunks that fit the embedding model exactly and cite their source.

The public API keeps the seed's names::

    from langchain_asesoria import (
        LoadedPage, ChunkMetadata, SectionSpan, Settings, get_settings,
        ChunkingConfig, Chunk, chunk_document, load_tokenization, Tokenization,
    )

``read_document(path)`` reads a PDF, Markdown or text file into pages ready for
``chunk_document``, with a PDF's outline sections and without its running headers and
footers.
"""

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
from langchain_asesoria.models import (
    DEFAULT_SEPARATORS,
    SEED_CANDIDATES,
    Chunk,
    ChunkingConfig,
    ChunkMetadata,
    LoadedPage,
    SectionSpan,
)
from langchain_asesoria.reading import DocumentPages, ReadOptions, read_document
from langchain_asesoria.settings import Settings, get_settings
from langchain_asesoria.tokenization import (
    HuggingFaceTokenization,
    ModelProfile,
    TokenIndex,
    Tokenization,
    load_tokenization,
)

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_SEPARATORS",
    "SEED_CANDIDATES",
    "AsesoriaError",
    "BudgetError",
    "Chunk",
    "ChunkMetadata",
    "ChunkingConfig",
    "ConfigurationError",
    "ContextTooLongError",
    "DamagedDocumentError",
    "DocumentPages",
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
    "PrivacyError",
    "ReadOptions",
    "SectionSpan",
    "Settings",
    "TextEncodingError",
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
]
