"""A PDF's pages as a LangChain loader extracted them, read as the PDF file would be.

More: ``docs/design/reading.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from langchain_asesoria.errors import AsesoriaError
from langchain_asesoria.models import LoadedPage
from langchain_asesoria.pdf.extract import extract_page
from langchain_asesoria.pdf.furniture import MIN_PAGES, Furniture, find_furniture
from langchain_asesoria.pdf.open import open_pdf
from langchain_asesoria.reading.document import PdfFileReport
from langchain_asesoria.reading.options import ReadOptions
from langchain_asesoria.reading.steps import FileExtras

if TYPE_CHECKING:
    from pypdf import PdfReader

__all__ = ["loaded_pdf_extras"]


def loaded_pdf_extras(
    pages: Sequence[LoadedPage], options: ReadOptions
) -> tuple[FileExtras, PdfFileReport]:
    """What reading a loader's PDF pages can use, and whether their file was read.

    The extras hold no line heights (furniture by text alone) and, when the file was
    read, its reader and outline.
    """
    no_heights = tuple(() for _ in pages)
    if not options.outline_sections:
        return FileExtras(line_heights=no_heights), PdfFileReport()
    reader, report = _pdf_file(pages, options.password)
    if reader is None:
        return FileExtras(line_heights=no_heights), report
    extras = FileExtras.of_pdf(reader, no_heights)
    if options.remove_page_furniture and sum(bool(p.text.strip()) for p in pages) < MIN_PAGES:
        known = _file_furniture(reader, report, options, extras)
        extras = replace(extras, known_furniture=known)
    return extras, report


def _file_furniture(
    reader: PdfReader, report: PdfFileReport, options: ReadOptions, extras: FileExtras
) -> Furniture:
    """The running headers and footers of the PDF's own pages (our extraction, heights),
    as reading the file finds them."""
    path = report.path or ""
    extracted = [
        extract_page(reader, index, path, options.extraction_mode)
        for index in range(len(reader.pages))
    ]
    heights = [tuple(item.line_heights) for item in extracted]
    return find_furniture([item.page for item in extracted], heights, titles=extras.outline)


def _pdf_file(
    pages: Sequence[LoadedPage], password: str | None
) -> tuple[PdfReader | None, PdfFileReport]:
    """The file the pages name, open, when it can hold them; else why not."""
    names = {page.source for page in pages}
    name = next(iter(names)) if len(names) == 1 else None
    if name is None:
        return None, PdfFileReport(problem="the pages name no single file")
    if not Path(name).is_file():
        return None, PdfFileReport(problem=f"no file {name!r} to read the outline from")
    try:
        reader = open_pdf(name, password)
        count = len(reader.pages)
    except AsesoriaError as error:
        return None, PdfFileReport(problem=f"{name!r} cannot be opened: {error}")
    last = max(page.page for page in pages)
    if last > count:
        problem = f"{name!r} has {count} pages but the pages reach page {last}: another file"
        return None, PdfFileReport(problem=problem)
    return reader, PdfFileReport(path=name)
