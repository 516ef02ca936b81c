"""A BOE consolidated law's XML (a ``/texto`` answer) read as a document.

The law as it stood on ``ReadOptions.as_of`` (today when unset), or every wording of
it (``ReadOptions.law_versions="all"``), from ``boe_xml``: its text is one page, its
sections, their metadata (``block_id``, ``valid_from``, ``url``...) and its tables'
header rows are the XML's, anchored in that page. No reading step runs: nothing is
guessed from the words. The law's ``/metadatos`` answer is read from beside the file
the page's source names (``ID.metadatos.xml``), when there is one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Final

from langchain_asesoria.boe_xml.files import file_bytes, law_id_of, metadata_path
from langchain_asesoria.boe_xml.law_text import LawText, law_all_versions, law_as_of
from langchain_asesoria.boe_xml.parse import read_law
from langchain_asesoria.errors import InvalidPagesError
from langchain_asesoria.models import LoadedPage
from langchain_asesoria.reading.document import DocumentPages, ReadReport, contiguous
from langchain_asesoria.reading.options import ReadOptions

#: The structure source of a law read from its XML (``DocumentPages.structure``).
LAW_XML: Final = "boe xml"

#: An XML declaration, dropped from a text already decoded (its ``encoding`` no longer
#: says how the characters are stored).
_DECLARATION: Final = re.compile(r"\A\s*<\?xml[^>]*\?>")


def read_law_pages(pages: Sequence[LoadedPage], options: ReadOptions) -> DocumentPages:
    """A ``/texto`` answer, given as one page of markup (a file's text, a loader's
    ``page_content``), read as the law on ``options.as_of`` or with every wording.

    Raises:
        InvalidPagesError: more or fewer than one page.
        LawXmlError: the text cannot be read as a law (``boe_xml.read_law``).
        DocumentReadError: its metadata file exists but cannot be read.
    """
    if len(pages) != 1:
        raise InvalidPagesError(
            f"a BOE law's XML is one text, got {len(pages)} pages: give the whole "
            "/texto answer as one document.",
            source=pages[0].source if pages else None,
        )
    page = pages[0]
    path = Path(page.source) if page.source else None
    texto = _DECLARATION.sub("", page.text, count=1).encode("utf-8")
    beside = metadata_path(path) if path is not None else None
    law = read_law(
        texto,
        _metadata(beside),
        law_id=law_id_of(path) if path is not None else None,
        source=page.source,
        metadata_source=None if beside is None else str(beside),
    )
    if options.law_versions == "all":
        return law_document(law_all_versions(law), page)
    return law_document(law_as_of(law, options.as_of or date.today()), page)


def _metadata(path: Path | None) -> bytes | None:
    return file_bytes(path) if path is not None and path.is_file() else None


def law_document(law: LawText, page: LoadedPage) -> DocumentPages:
    """``law``'s text as a one-page document numbered like ``page``, its sections (with
    their metadata) and its tables' header rows as spans of it, and what it left out
    in the report."""
    spans = (replace(section.span, fields=section.fields) for section in law.sections)
    sections = contiguous(spans, len(law.text))
    return DocumentPages(
        (LoadedPage(law.text, page.page, page.source),),
        "xml",
        sections=sections,
        structure=LAW_XML,
        leads=tuple(law.leads),
        report=ReadReport(headings=len(sections), legal=True, law=law.report, fields=law.fields),
    )
