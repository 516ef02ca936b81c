"""The reading stage: any input -> one ``DocumentPages`` that knows itself -> chunks.

A map of the package is in its README. What every entry point uses:

- ``read_document(path, options)``: a file (``.pdf``, ``.md``/``.markdown``, ``.txt``,
  ``.html``/``.htm``);
- ``read_text_document(text, kind)`` and ``read_loaded_pages(pages, kind, starts=)``:
  a text or a loader's pages, read as the file of that kind would be (a LangChain
  loader's PDF pages: furniture by text, the outline from the file they name, else
  legal heading lines; ``reading.loaded_pdf``);
- ``split_document`` / ``iter_document_chunks``: a document's chunks, its sections in
  the configuration's page join;
- ``chunk_document`` / ``iter_chunks``: pages given directly (the specification's call).

``ReadOptions`` states reading's defaults in one place (everything on).
"""

from langchain_asesoria.reading.document import (
    READING_SEPARATOR,
    DocumentPages,
    OutlineReport,
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
