"""Small LangChain loaders: a PDF one ``Document`` per page, a text file one ``Document``.

Their metadata follows LangChain's PDF loaders, so the transformer treats them like
``PyPDFLoader``'s output: ``source`` (the path as given), ``page`` (0-based),
``page_label`` (the label the PDF prints) and ``total_pages``; a PDF's pages also carry
its sections and what was removed (``page_structure``). ``pypdf`` is imported
only when a PDF is read (the ``pdf`` extra; AES-encrypted PDFs also need
``cryptography``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document

from langchain_asesoria.langchain.page_structure import page_structure
from langchain_asesoria.pdf.open import open_pdf, page_text
from langchain_asesoria.reading import ReadOptions, read_pdf, read_text

__all__ = ["PdfPageLoader", "TextFileLoader"]


class PdfPageLoader(BaseLoader):
    """Loads a PDF, one ``Document`` per page, in page order.

    By default each page's running headers and footers are removed and the PDF's
    outline gives sections: pages carry the keys of
    ``langchain_asesoria.langchain.page_structure`` (where sections start, the section
    a page continues, the lines removed, the outline report), which
    ``AsesoriaDocumentTransformer`` and ``AsesoriaTextSplitter`` turn into chunk
    sections. Both need every page, so the whole PDF is read before the first page is
    yielded; with both switched off, pages are read one at a time, as extracted.

    Args:
        file_path: The PDF file; ``metadata["source"]`` is ``str(file_path)``.
        password: Decrypts an encrypted PDF (``""`` for an empty user password).
        extraction_mode: pypdf's ``"plain"`` (default) or ``"layout"`` text extraction.
        outline_sections: Give pages the sections of the PDF's outline.
        remove_page_furniture: Remove running headers and footers from the text.
        paragraphs: Read the text as paragraphs, not printed lines, and give the
            headings set in bold below the outline their sections
            (``ReadOptions.pdf_paragraphs``; only with the outline or the furniture
            asked for). Off, a page's text is its printed lines, as LangChain's own
            PDF loaders give it.

    Raises (when loading): the errors of ``langchain_asesoria.pdf.open_pdf`` and
        ``page_text``: ``DocumentReadError`` and its subclasses (no such file, damaged,
        encrypted with another password) and ``MissingDependencyError`` (pypdf, or
        cryptography for an AES-encrypted PDF).
    """

    def __init__(
        self,
        file_path: str | Path,
        *,
        password: str | None = None,
        extraction_mode: Literal["plain", "layout"] = "plain",
        outline_sections: bool = True,
        remove_page_furniture: bool = True,
        paragraphs: bool = True,
    ) -> None:
        self.file_path = file_path
        self.password = password
        self.extraction_mode = extraction_mode
        self.outline_sections = outline_sections
        self.remove_page_furniture = remove_page_furniture
        self.paragraphs = paragraphs

    def lazy_load(self) -> Iterator[Document]:
        """One ``Document`` per page: ``page`` 0-based, ``page_label``, ``total_pages``,
        and the structure keys when the outline or the furniture is asked for."""
        source = str(self.file_path)
        reader = open_pdf(self.file_path, self.password)
        labels = reader.page_labels
        total = len(reader.pages)
        texts: Iterator[tuple[str, dict[str, Any]]]
        if self.outline_sections or self.remove_page_furniture:
            options = ReadOptions(
                self.outline_sections,
                self.remove_page_furniture,
                extraction_mode=self.extraction_mode,
                pdf_paragraphs=self.paragraphs,
            )
            document = read_pdf(reader, source, options)
            pages = [page.text for page in document.pages]
            texts = zip(pages, page_structure(document), strict=True)
        else:
            texts = (
                (page_text(reader, index, source, self.extraction_mode), {})
                for index in range(total)
            )
        for index, (text, structure) in enumerate(texts):
            metadata: dict[str, Any] = {
                "source": source,
                "page": index,
                "page_label": str(labels[index]) if index < len(labels) else str(index + 1),
                "total_pages": total,
                **structure,
            }
            yield Document(page_content=text, metadata=metadata)


class TextFileLoader(BaseLoader):
    """Loads a text file (Markdown, plain text) as one ``Document``.

    Its text is ``files.read_text``'s, as on the command line: a leading byte-order mark
    dropped and line endings kept as in the file, so the chunks' offsets are positions
    in ``read_text(file_path)``.

    Args:
        file_path: The file; ``metadata["source"]`` is ``str(file_path)``, so a
            ``.md`` file is recognised as Markdown by the transformer.
        encoding: The file's encoding.

    Raises (when loading): ``DocumentReadError`` (the file cannot be read) and
        ``TextEncodingError`` (its bytes are not valid in ``encoding``).
    """

    def __init__(self, file_path: str | Path, *, encoding: str = "utf-8") -> None:
        self.file_path = file_path
        self.encoding = encoding

    def lazy_load(self) -> Iterator[Document]:
        """The whole file as one ``Document`` without a page number."""
        text = read_text(self.file_path, self.encoding)
        yield Document(page_content=text, metadata={"source": str(self.file_path)})
