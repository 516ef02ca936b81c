"""LangChain adapters around the engine: splitter, transformer, embeddings, filters, loaders.

::

    from langchain_asesoria.langchain import AsesoriaDocumentTransformer, PdfPageLoader

    transformer = AsesoriaDocumentTransformer.from_model(
        "sentence-transformers/all-MiniLM-L6-v2", chunk_size=256, chunk_overlap=32, tax="IRPF"
    )
    chunks = transformer.invoke(PdfPageLoader("manual.pdf").load())
    vector_store.add_documents(chunks)  # embeds embedding_text; ids upsert

The engine (``langchain_asesoria.engine``) never imports LangChain; this package is
the only place that does. Heavy optional dependencies (pypdf) load lazily.
"""

from langchain_asesoria.langchain.documents import (
    PAGE_LABEL,
    PAGE_LABEL_END,
    MetadataLevel,
    PageContent,
    citation,
    original_text,
    scalar_metadata,
)
from langchain_asesoria.langchain.embeddings import AsesoriaEmbeddings
from langchain_asesoria.langchain.filters import (
    chroma_session_filter,
    in_memory_session_filter,
    visible_to_session,
)
from langchain_asesoria.langchain.indexing import ReindexCleanup, delete_documents, reindex
from langchain_asesoria.langchain.loaders import PdfPageLoader, TextFileLoader
from langchain_asesoria.langchain.sources import DOCUMENT_FIELDS
from langchain_asesoria.langchain.splitter import SPLITTER_KEYS, AsesoriaTextSplitter
from langchain_asesoria.langchain.transformer import (
    DEFAULT_MARKDOWN_SUFFIXES,
    AsesoriaDocumentTransformer,
    DocumentsInput,
)

__all__ = [
    "DEFAULT_MARKDOWN_SUFFIXES",
    "DOCUMENT_FIELDS",
    "PAGE_LABEL",
    "PAGE_LABEL_END",
    "SPLITTER_KEYS",
    "AsesoriaDocumentTransformer",
    "AsesoriaEmbeddings",
    "AsesoriaTextSplitter",
    "DocumentsInput",
    "MetadataLevel",
    "PageContent",
    "PdfPageLoader",
    "ReindexCleanup",
    "TextFileLoader",
    "chroma_session_filter",
    "citation",
    "delete_documents",
    "in_memory_session_filter",
    "original_text",
    "reindex",
    "scalar_metadata",
    "visible_to_session",
]
