"""A PDF's pages as a LangChain loader extracted them, read as the PDF file would be.

More: ``docs/design/reading.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias, Union

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

#: A loader's PDF given to read it again: its path, or its bytes (an upload read once).
PdfFile: TypeAlias = Union[str, Path, bytes]  # noqa: UP007 - a runtime alias


def loaded_pdf_extras(
    pages: Sequence[LoadedPage], options: ReadOptions, pdf_file: PdfFile | None = None
) -> tuple[FileExtras, PdfFileReport]:
    """What reading a loader's PDF pages can use, and whether their file was read.

    The extras hold no line heights (furniture by text alone) and, when the file was
    read, its reader and outline. The file is ``pdf_file`` (a path, or the PDF's bytes)
    when given, else the one the pages' source names.
    """
    no_heights = tuple(() for _ in pages)
    if not options.outline_sections:
        return FileExtras(line_heights=no_heights), PdfFileReport()
    reader, report = _pdf_file(pages, options.password, pdf_file)
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
    pages: Sequence[LoadedPage], password: str | None, given: PdfFile | None = None
) -> tuple[PdfReader | None, PdfFileReport]:
    """The file the pages name (or the one ``given``), open, when it can hold them; else
    why not."""
    names = {page.source for page in pages}
    name = next(iter(names)) if len(names) == 1 else None
    if isinstance(given, bytes):
        name = f"{name or 'the pages'} (the PDF's bytes given)"
    elif given is not None:
        name = str(given)
    if name is None:
        return None, PdfFileReport(problem="the pages name no single file")
    if given is None and not Path(name).is_file():
        return None, PdfFileReport(problem=f"no file {name!r} to read the outline from")
    try:
        reader = open_pdf(name if given is None else given, password, name=name)
        count = len(reader.pages)
    except AsesoriaError as error:
        return None, PdfFileReport(problem=f"{name!r} cannot be opened: {error}")
    last = max(page.page for page in pages)
    if last > count:
        problem = f"{name!r} has {count} pages but the pages reach page {last}: another file"
        return None, PdfFileReport(problem=problem)
    return reader, PdfFileReport(path=name)
