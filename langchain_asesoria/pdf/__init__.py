"""PDF structure: outline sections and page furniture, found while a PDF is read.

More: ``docs/design/pdf.md``.
"""

from langchain_asesoria.pdf.extract import ExtractedPage, extract_page
from langchain_asesoria.pdf.folios import (
    PAGE_NUMBER_FORMS,
    ROMAN_FOLIO,
    furniture_key,
    roman_value,
    running_keys,
)
from langchain_asesoria.pdf.furniture import (
    EDGE_LINES,
    MARGIN_STEPS,
    MIN_PAGES,
    Furniture,
    FurnitureLine,
    FurnitureSummary,
    find_furniture,
    is_legal_heading,
)
from langchain_asesoria.pdf.outline import OutlineEntry, outline_entries
from langchain_asesoria.pdf.titles import (
    LocatedOutline,
    fold,
    locate_sections,
    locate_titles,
)
from langchain_asesoria.structure.anchors import SectionStart, section_spans
from langchain_asesoria.structure.legal_grammar import LEGAL_HEADINGS

__all__ = [
    "EDGE_LINES",
    "LEGAL_HEADINGS",
    "MARGIN_STEPS",
    "MIN_PAGES",
    "PAGE_NUMBER_FORMS",
    "ROMAN_FOLIO",
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
    "roman_value",
    "running_keys",
    "section_spans",
]
