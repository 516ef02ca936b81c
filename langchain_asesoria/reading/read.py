"""Reading any input into a ``DocumentPages``: a file, a text, or a loader's pages.

More: ``docs/design/reading.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from langchain_asesoria.errors import AsesoriaError
from langchain_asesoria.models import LoadedPage
from langchain_asesoria.pdf.extract import extract_page
from langchain_asesoria.pdf.open import no_text_layer, open_pdf
from langchain_asesoria.reading.document import READING_SEPARATOR, DocumentPages, ReadReport
from langchain_asesoria.reading.files import iter_pages
from langchain_asesoria.reading.kinds import DocumentKind, file_kind
from langchain_asesoria.reading.law_xml import read_law_pages
from langchain_asesoria.reading.loaded_pdf import PdfFile, loaded_pdf_extras
from langchain_asesoria.reading.options import ReadOptions
from langchain_asesoria.reading.steps import FileExtras, run_steps
from langchain_asesoria.records import BOE_ID, NORM_ID
from langchain_asesoria.structure.anchors import SectionStart, spans_in
from langchain_asesoria.structure.headings import Heading
from langchain_asesoria.structure.html import extract_html, looks_like_markup

if TYPE_CHECKING:
    from pypdf import PdfReader


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
    document = DocumentPages(tuple(item.page for item in extracted), "pdf")
    heights = tuple(tuple(item.line_heights) for item in extracted)
    layouts = tuple(tuple(item.layout) for item in extracted)
    return run_steps(document, options, FileExtras.of_pdf(reader, heights, layouts))


def read_document(
    path: str | Path,
    options: ReadOptions | None = None,
    *,
    on_page: Callable[[LoadedPage], None] | None = None,
) -> DocumentPages:
    """Reads one file with its structure (see the module docstring).

    Args:
        path: A ``.pdf``, ``.md``/``.markdown``, ``.txt``, ``.html``/``.htm`` file, or a
            BOE law's ``.xml`` (its ``/texto`` answer, with ``ID.metadatos.xml`` beside it
            when there is one: read as ``options.as_of`` and ``law_versions`` say).
        options: What to read and remove (default: everything on).
        on_page: Called with each page as it is read (for progress).

    Raises:
        DocumentReadError: the file cannot be read (one of its subclasses).
        LawXmlError: a ``.xml`` file that is not a BOE law's XML, or is damaged.
        MissingDependencyError: a PDF without the ``pdf`` extra installed, a web page
            or a law's XML without the ``html`` extra.
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
    return read_loaded_pages(pages, kind, options)


def read_loaded_pages(
    pages: Sequence[LoadedPage],
    kind: DocumentKind,
    options: ReadOptions | None = None,
    *,
    starts: Sequence[SectionStart] | None = None,
    pdf_file: PdfFile | None = None,
) -> DocumentPages:
    """A document from pages already in memory (a loader's, a Ray row's), read as ``kind``.

    ``pdf_file``: the file (a path, or its bytes) of a loader's PDF pages, read for its
    outline instead of the file their source names.

    ``starts``: sections a loader already located (``PdfPageLoader``), anchored in the
    pages; they win over the kind's structure sources, and nothing is removed. Pages of
    kind ``"pdf"`` without ``starts`` are a LangChain loader's (``PyPDFLoader``...):
    their running headers and footers are removed by text alone and their sections come
    from the outline of the file their source names, when it exists and holds them, else
    from their legal heading lines (``reading.loaded_pdf``; ``DocumentPages.pdf_file``
    says which). Pages of kind ``"html"`` are markup:
    each becomes the text of its main content (see the module docstring); pages that
    are not markup (text a loader already extracted) are read as plain text. A page of
    kind ``"xml"`` is a BOE law's ``/texto`` answer (``reading.law_xml``).
    """
    options = options or ReadOptions()
    if kind == "xml":
        return read_law_pages(pages, options)
    extras = FileExtras()
    report = ReadReport()
    if kind == "html":
        kind, pages, extras, report = _web_pages(pages, options)
    elif kind == "pdf" and starts is None and pages:
        extras, pdf_report = loaded_pdf_extras(pages, options, pdf_file)
        report = ReadReport(pdf_file=pdf_report)
    document = DocumentPages(tuple(pages), kind, report=report)
    if starts is not None:
        sections = tuple(spans_in(document.text, starts))
        document = replace(document, sections=sections, structure="loader" if starts else None)
    return run_steps(document, options, extras)


def _web_pages(
    pages: Sequence[LoadedPage], options: ReadOptions
) -> tuple[DocumentKind, list[LoadedPage], FileExtras, ReadReport]:
    """Markup pages as the text of their main content, their headings (positions in the
    text pages joined by ``READING_SEPARATOR``), what was left out of them, and a BOE
    consolidated page's blocks and law (``ReadReport.blocks``, its ``norm_id``)."""
    if not all(looks_like_markup(page.text) or not page.text.strip() for page in pages):
        return "text", list(pages), FileExtras(), ReadReport()
    texts: list[LoadedPage] = []
    headings: list[Heading] = []
    blocks: list[tuple[int, int, str]] = []
    canonical: str | None = None
    chrome: list[str] = []
    position = 0
    for page in pages:
        try:
            extracted = extract_html(page.text, main_content=options.html_main_content)
        except AsesoriaError as error:
            raise error.with_context(source=page.source, page=page.page) from None
        texts.append(replace(page, text=extracted.text))
        headings += [
            replace(h, start=h.start + position, end=h.end + position) for h in extracted.headings
        ]
        blocks += [(page.page, start, block) for start, block in extracted.blocks]
        canonical = canonical or extracted.canonical
        label = f"page {page.page}: " if len(pages) > 1 else ""
        chrome += [label + line for line in extracted.removed]
        position += len(extracted.text) + len(READING_SEPARATOR)
    found = BOE_ID.search(canonical or "") if blocks else None
    law = () if found is None else ((NORM_ID, found.group()),)
    report = ReadReport(chrome=tuple(chrome), fields=law, blocks=tuple(blocks) if law else ())
    return "html", texts, FileExtras(html_headings=tuple(headings)), report


def read_text_document(
    text: str, kind: DocumentKind = "text", options: ReadOptions | None = None
) -> DocumentPages:
    """A text in memory as a one-page document of ``kind`` (``"markdown"`` or ``"text"``)."""
    return read_loaded_pages([LoadedPage(text, 1)], kind, options)
