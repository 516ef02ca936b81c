"""LangChain adapters around the engine: splitter, transformer, embeddings, filters, loaders.

More: ``docs/design/langchain.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from langchain_asesoria._lazy import lazy_exports as _lazy_exports

if TYPE_CHECKING:
    from langchain_asesoria.errors import OutlineUnavailableWarning
    from langchain_asesoria.langchain.documents import (
        PAGE_LABEL,
        PAGE_LABEL_END,
        MetadataLevel,
        PageContent,
        citation,
        original_text,
    )
    from langchain_asesoria.langchain.embeddings import AsesoriaEmbeddings
    from langchain_asesoria.langchain.filters import (
        chroma_session_filter,
        in_memory_session_filter,
        visible_to_session,
    )
    from langchain_asesoria.langchain.indexing import ReindexCleanup, delete_documents, reindex
    from langchain_asesoria.langchain.loaders import BoeLawLoader, PdfPageLoader, TextFileLoader
    from langchain_asesoria.langchain.parents import (
        CITATION,
        ParentContextRetriever,
        parent_document,
        parent_ids_in_rank_order,
        reindex_parents,
    )
    from langchain_asesoria.langchain.splitter import SPLITTER_KEYS, AsesoriaTextSplitter
    from langchain_asesoria.langchain.transformer import (
        AsesoriaDocumentTransformer,
        ChunksAndParents,
        DocumentsInput,
    )
    from langchain_asesoria.reading.kinds import DEFAULT_MARKDOWN_SUFFIXES
    from langchain_asesoria.records import DOCUMENT_FIELDS
    from langchain_asesoria.store_values import scalar_metadata

#: Public names loaded on first use -> the module that defines them, so that importing
#: one class (the splitter) does not import the others' dependencies (the indexing API
#: and LangSmith, pypdf, the embeddings' callbacks).
_LAZY: Final = {
    "PAGE_LABEL": "langchain_asesoria.langchain.documents",
    "PAGE_LABEL_END": "langchain_asesoria.langchain.documents",
    "MetadataLevel": "langchain_asesoria.langchain.documents",
    "PageContent": "langchain_asesoria.langchain.documents",
    "citation": "langchain_asesoria.langchain.documents",
    "original_text": "langchain_asesoria.langchain.documents",
    "scalar_metadata": "langchain_asesoria.store_values",
    "AsesoriaEmbeddings": "langchain_asesoria.langchain.embeddings",
    "chroma_session_filter": "langchain_asesoria.langchain.filters",
    "in_memory_session_filter": "langchain_asesoria.langchain.filters",
    "visible_to_session": "langchain_asesoria.langchain.filters",
    "ReindexCleanup": "langchain_asesoria.langchain.indexing",
    "delete_documents": "langchain_asesoria.langchain.indexing",
    "reindex": "langchain_asesoria.langchain.indexing",
    "BoeLawLoader": "langchain_asesoria.langchain.loaders",
    "PdfPageLoader": "langchain_asesoria.langchain.loaders",
    "TextFileLoader": "langchain_asesoria.langchain.loaders",
    "CITATION": "langchain_asesoria.langchain.parents",
    "ParentContextRetriever": "langchain_asesoria.langchain.parents",
    "parent_document": "langchain_asesoria.langchain.parents",
    "parent_ids_in_rank_order": "langchain_asesoria.langchain.parents",
    "reindex_parents": "langchain_asesoria.langchain.parents",
    "DOCUMENT_FIELDS": "langchain_asesoria.records",
    "OutlineUnavailableWarning": "langchain_asesoria.errors",
    "SPLITTER_KEYS": "langchain_asesoria.langchain.splitter",
    "AsesoriaTextSplitter": "langchain_asesoria.langchain.splitter",
    "DEFAULT_MARKDOWN_SUFFIXES": "langchain_asesoria.reading.kinds",
    "AsesoriaDocumentTransformer": "langchain_asesoria.langchain.transformer",
    "ChunksAndParents": "langchain_asesoria.langchain.transformer",
    "DocumentsInput": "langchain_asesoria.langchain.transformer",
}


__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)


__all__ = [
    "CITATION",
    "DEFAULT_MARKDOWN_SUFFIXES",
    "DOCUMENT_FIELDS",
    "PAGE_LABEL",
    "PAGE_LABEL_END",
    "SPLITTER_KEYS",
    "AsesoriaDocumentTransformer",
    "AsesoriaEmbeddings",
    "AsesoriaTextSplitter",
    "BoeLawLoader",
    "ChunksAndParents",
    "DocumentsInput",
    "MetadataLevel",
    "OutlineUnavailableWarning",
    "PageContent",
    "ParentContextRetriever",
    "PdfPageLoader",
    "ReindexCleanup",
    "TextFileLoader",
    "chroma_session_filter",
    "citation",
    "delete_documents",
    "in_memory_session_filter",
    "original_text",
    "parent_document",
    "parent_ids_in_rank_order",
    "reindex",
    "reindex_parents",
    "scalar_metadata",
    "visible_to_session",
]
