"""PDF structure: outline sections and page furniture, found while a PDF is read.

Modules, in data-flow order:

- ``extract``: a page's text as pypdf extracts it, with the height of each line.
- ``markers``: list markers drawn after their item's text put back before it.
- ``furniture``: running headers and footers at the pages' edges, told apart from
  body text that repeats (a table's header, an article per page), found and removed.
- ``outline``: the PDF's outline (bookmarks) as flat entries with paths and pages.
- ``titles``: each entry's title located in the cleaned text: where sections start,
  the ``SectionSpan``s they give, and the entries that could not be located.

``langchain_asesoria.reading.read_document`` runs them in that order. Everything here
but ``extract`` and ``outline`` is pure functions over values.
"""

from langchain_asesoria.pdf.extract import ExtractedPage, extract_page
from langchain_asesoria.pdf.furniture import (
    EDGE_LINES,
    LEGAL_HEADINGS,
    MARGIN_STEPS,
    MIN_PAGES,
    PAGE_NUMBER_FORMS,
    Furniture,
    FurnitureLine,
    FurnitureSummary,
    find_furniture,
    furniture_key,
    is_legal_heading,
    running_keys,
)
from langchain_asesoria.pdf.outline import OutlineEntry, outline_entries
from langchain_asesoria.pdf.titles import (
    LocatedOutline,
    SectionStart,
    fold,
    locate_sections,
    locate_titles,
    section_spans,
)

__all__ = [
    "EDGE_LINES",
    "LEGAL_HEADINGS",
    "MARGIN_STEPS",
    "MIN_PAGES",
    "PAGE_NUMBER_FORMS",
    "ExtractedPage",
    "Furniture",
    "FurnitureLine",
    "FurnitureSummary",
    "LocatedOutline",
    "OutlineEntry",
    "SectionStart",
    "extract_page",
    "find_furniture",
    "fold",
    "furniture_key",
    "is_legal_heading",
    "locate_sections",
    "locate_titles",
    "outline_entries",
    "running_keys",
    "section_spans",
]
