"""The reading stage: any input -> one ``DocumentPages`` that knows itself -> chunks.

More: ``docs/design/reading.md``.
"""

from langchain_asesoria.reading.document import (
    READING_SEPARATOR,
    DocumentPages,
    OutlineReport,
    ParagraphReport,
    PdfFileReport,
    ReadReport,
    Removal,
    RemovalKind,
)
from langchain_asesoria.reading.files import iter_pages, page_count, read_pages, read_text
from langchain_asesoria.reading.given import chunk_document, iter_chunks
from langchain_asesoria.reading.kinds import (
    DEFAULT_MARKDOWN_SUFFIXES,
    FILE_KINDS,
    DocumentKind,
    FileKind,
    file_kind,
    kind_for_text,
    kind_of_name,
)
from langchain_asesoria.reading.options import ReadOptions
from langchain_asesoria.reading.read import (
    read_document,
    read_loaded_pages,
    read_pdf,
    read_text_document,
)
from langchain_asesoria.reading.split import (
    ChunkedDocument,
    iter_document_chunks,
    split_document,
)
from langchain_asesoria.reading.steps import STEPS, ReadingStep
from langchain_asesoria.structure.anchors import SectionStart

__all__ = [
    "DEFAULT_MARKDOWN_SUFFIXES",
    "FILE_KINDS",
    "READING_SEPARATOR",
    "STEPS",
    "ChunkedDocument",
    "DocumentKind",
    "DocumentPages",
    "FileKind",
    "OutlineReport",
    "ParagraphReport",
    "PdfFileReport",
    "ReadOptions",
    "ReadReport",
    "ReadingStep",
    "Removal",
    "RemovalKind",
    "SectionStart",
    "chunk_document",
    "file_kind",
    "iter_chunks",
    "iter_document_chunks",
    "iter_pages",
    "kind_for_text",
    "kind_of_name",
    "page_count",
    "read_document",
    "read_loaded_pages",
    "read_pages",
    "read_pdf",
    "read_text",
    "read_text_document",
    "split_document",
]
