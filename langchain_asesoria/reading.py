"""Documents read with their structure: pages, outline sections, and furniture removed.

``read_document`` is what every entry point uses (the command line, the LangChain
loader, the Ray helper, the evaluation). For a PDF it:

1. extracts each page's text with pypdf, and the height of each line;
2. removes the running headers and footers (``pdf.furniture``), *before* any offset
   is computed, keeping every page and its number (and every line that holds an
   outline title found nowhere else);
3. reads the outline (``pdf.outline``) and locates each title in the cleaned text
   (``pdf.titles``): the sections, and the entries that could not be located.

Markdown and text files are read as ``files.iter_pages`` reads them, with no sections
(the chunker follows Markdown headings itself). ``files.read_pages`` is unchanged: it
returns a PDF's pages as extracted, furniture included.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from langchain_asesoria.errors import DamagedDocumentError
from langchain_asesoria.files import FileKind, file_kind, iter_pages, no_text_layer, open_pdf
from langchain_asesoria.models import LoadedPage, SectionSpan
from langchain_asesoria.pdf.extract import extract_page
from langchain_asesoria.pdf.furniture import Furniture, find_furniture
from langchain_asesoria.pdf.outline import outline_entries
from langchain_asesoria.pdf.titles import LocatedOutline, locate_titles, section_spans

if TYPE_CHECKING:
    from pypdf import PdfReader

__all__ = ["DocumentPages", "OutlineReport", "ReadOptions", "read_document", "read_pdf"]


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How to read a document; every field but the PDF ones is ignored for other files.

    Attributes:
        outline_sections: Give a PDF the sections of its outline.
        remove_page_furniture: Remove a PDF's running headers and footers.
        password: Decrypts an encrypted PDF.
        extraction_mode: pypdf's ``"plain"`` (default) or ``"layout"`` extraction
            (layout mode gives no line heights: furniture is found by text alone).
    """

    outline_sections: bool = True
    remove_page_furniture: bool = True
    password: str | None = None
    extraction_mode: Literal["plain", "layout"] = "plain"


@dataclass(frozen=True, slots=True)
class OutlineReport:
    """What a PDF's outline gave.

    Attributes:
        located: Sections located, entries not located, entries in all.
        problem: Why the outline could not be read, when it could not.
    """

    located: LocatedOutline = field(default_factory=LocatedOutline)
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class DocumentPages:
    """A document's pages as they will be chunked, and what reading found or removed.

    Attributes:
        pages: The pages, numbered from 1, furniture removed when asked.
        kind: The kind of document.
        outline: The outline's sections and report; ``None`` when not read (not a
            PDF, or ``outline_sections=False``).
        furniture: The lines removed (none when not asked, or not a PDF).
    """

    pages: tuple[LoadedPage, ...]
    kind: FileKind
    outline: OutlineReport | None = None
    furniture: Furniture = field(default_factory=Furniture)

    def sections(self, separator: str = "\n\n") -> list[SectionSpan] | None:
        """The outline's sections as spans of the pages joined by ``separator``.

        ``None`` when the outline was not read, so that the chunker follows its own
        configuration (Markdown headings); a list, maybe empty, when it was.
        """
        if self.outline is None:
            return None
        return section_spans(self.pages, self.outline.located.starts, separator)


def read_pdf(
    reader: PdfReader,
    path: str | Path,
    options: ReadOptions | None = None,
    *,
    on_page: Callable[[LoadedPage], None] | None = None,
) -> DocumentPages:
    """An open PDF's pages, furniture removed and outline sections located, as asked.

    Unlike ``read_document``, a PDF without text is not an error here: its pages are
    returned empty (LangChain loaders do the same).

    Raises:
        DamagedDocumentError: a page whose content cannot be extracted.
    """
    options = options or ReadOptions()
    extracted = []
    for index in range(len(reader.pages)):
        page = extract_page(reader, index, path, options.extraction_mode)
        extracted.append(page)
        if on_page is not None:
            on_page(page.page)
    pages = tuple(item.page for item in extracted)
    try:
        entries, problem = outline_entries(reader), None
    except DamagedDocumentError as error:
        entries, problem = (), str(error)
    furniture = Furniture()
    if options.remove_page_furniture:
        heights = [item.line_heights for item in extracted]
        furniture = find_furniture(pages, heights, titles=entries)
        pages = furniture.remove(pages)
    outline = None
    if options.outline_sections:
        located = locate_titles(pages, entries)
        outline = OutlineReport(located) if problem is None else OutlineReport(problem=problem)
    return DocumentPages(pages, "pdf", outline, furniture)


def read_document(
    path: str | Path,
    options: ReadOptions | None = None,
    *,
    on_page: Callable[[LoadedPage], None] | None = None,
) -> DocumentPages:
    """Reads one document with its structure (see the module docstring).

    Args:
        path: A ``.pdf``, ``.md``/``.markdown`` or ``.txt`` file.
        options: What to read and remove (default: everything on).
        on_page: Called with each page as it is read (for progress).

    Raises:
        DocumentReadError: the file cannot be read (see ``langchain_asesoria.files``).
        MissingDependencyError: a PDF without the ``pdf`` extra installed.
    """
    path = Path(path)
    options = options or ReadOptions()
    kind = file_kind(path)
    if kind == "pdf":
        document = read_pdf(open_pdf(path, options.password), path, options, on_page=on_page)
        if not any(page.text.strip() for page in document.pages):
            raise no_text_layer(path, len(document.pages))
        return document
    pages = []
    for page in iter_pages(path):
        pages.append(page)
        if on_page is not None:
            on_page(page)
    return DocumentPages(tuple(pages), kind)
