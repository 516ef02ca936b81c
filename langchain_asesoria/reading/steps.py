"""The reading steps of each kind of document: one table, one row per step.

A step is a structure source (it says where sections start) or a cleaner (it removes
what is not content and reports it); each is one module of its own (``structure``,
``pdf``), wrapped here in a few lines. ``STEPS`` lists each kind's steps in the order
they run; a step runs when its ``ReadOptions`` switch is on and what it needs is there
(a PDF's outline and line heights come only from the file). A structure source leaves
alone a document whose loader already gave its sections.

Adding a structure source is one module plus one row here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

from langchain_asesoria.errors import DamagedDocumentError
from langchain_asesoria.pdf.furniture import find_furniture
from langchain_asesoria.pdf.outline import outline_entries
from langchain_asesoria.pdf.titles import locate_titles
from langchain_asesoria.reading.document import READING_SEPARATOR, DocumentPages, OutlineReport
from langchain_asesoria.reading.kinds import DocumentKind
from langchain_asesoria.reading.options import ReadOptions
from langchain_asesoria.structure.anchors import anchor_spans
from langchain_asesoria.structure.front_matter import blank_front_matter, front_matter_end
from langchain_asesoria.structure.headings import Heading, sections_of
from langchain_asesoria.structure.markdown import detect_markdown_sections

if TYPE_CHECKING:
    from pypdf import PdfReader

__all__ = ["STEPS", "FileExtras", "ReadingStep", "run_steps"]


@dataclass(frozen=True, slots=True)
class FileExtras:
    """What only a file gives: an open PDF, and the heights of its pages' lines.

    ``line_heights`` is ``None`` when the pages did not come from our extraction
    (LangChain loaders' pages): page furniture is then not looked for.
    ``html_headings``: a web page's ``<hN>`` headings as its text was extracted from
    its markup (``structure.html``), positions in the pages joined by
    ``READING_SEPARATOR``; ``None`` for any other document.
    """

    reader: PdfReader | None = None
    line_heights: tuple[tuple[float | None, ...], ...] | None = None
    html_headings: tuple[Heading, ...] | None = None


@dataclass(frozen=True, slots=True)
class ReadingStep:
    """One step: its name (for reports), its switch, and what it does."""

    name: str
    switched_on: Callable[[ReadOptions], bool]
    run: Callable[[DocumentPages, FileExtras], DocumentPages]


def _front_matter(document: DocumentPages, _: FileExtras) -> DocumentPages:
    if not document.pages:
        return document
    first, *rest = document.pages
    end = front_matter_end(first.text)
    if end == 0:
        return document
    blanked = replace(first, text=blank_front_matter(first.text))
    return replace(document, pages=(blanked, *rest), front_matter=end)


def _markdown_headings(document: DocumentPages, _: FileExtras) -> DocumentPages:
    if document.starts is not None or not document.pages:
        return document
    spans = detect_markdown_sections(document.joined(READING_SEPARATOR).text)
    starts = anchor_spans(document.pages, spans, READING_SEPARATOR)
    return replace(document, starts=starts, structure=MARKDOWN_HEADINGS.name if starts else None)


def _html_headings(document: DocumentPages, extras: FileExtras) -> DocumentPages:
    if document.starts is not None or extras.html_headings is None or not document.pages:
        return document
    length = len(document.joined(READING_SEPARATOR).text)
    spans = sections_of(extras.html_headings, length)
    starts = anchor_spans(document.pages, spans, READING_SEPARATOR)
    return replace(document, starts=starts, structure=HTML_HEADINGS.name if starts else None)


def _page_furniture(document: DocumentPages, extras: FileExtras) -> DocumentPages:
    if extras.line_heights is None:
        return document
    furniture = find_furniture(document.pages, extras.line_heights)
    return replace(document, pages=furniture.remove(document.pages), furniture=furniture)


def _pdf_outline(document: DocumentPages, extras: FileExtras) -> DocumentPages:
    if extras.reader is None or document.starts is not None:
        return document
    try:
        located = locate_titles(document.pages, outline_entries(extras.reader))
    except DamagedDocumentError as error:
        return replace(document, outline=OutlineReport(problem=str(error)), starts=())
    return replace(
        document,
        outline=OutlineReport(located),
        starts=located.starts,
        structure=PDF_OUTLINE.name if located.starts else None,
    )


FRONT_MATTER: Final = ReadingStep("front matter", lambda o: o.front_matter, _front_matter)
MARKDOWN_HEADINGS: Final = ReadingStep(
    "markdown headings", lambda o: o.markdown_headings, _markdown_headings
)
PAGE_FURNITURE: Final = ReadingStep(
    "page furniture", lambda o: o.remove_page_furniture, _page_furniture
)
PDF_OUTLINE: Final = ReadingStep("pdf outline", lambda o: o.outline_sections, _pdf_outline)
HTML_HEADINGS: Final = ReadingStep("html headings", lambda o: o.html_headings, _html_headings)

#: Each kind's steps, in the order they run.
STEPS: Final[Mapping[DocumentKind, tuple[ReadingStep, ...]]] = {
    "markdown": (FRONT_MATTER, MARKDOWN_HEADINGS),
    "pdf": (PAGE_FURNITURE, PDF_OUTLINE),
    "text": (),
    "html": (HTML_HEADINGS,),
}


def run_steps(
    document: DocumentPages, options: ReadOptions, extras: FileExtras | None = None
) -> DocumentPages:
    """``document`` after every step of its kind that ``options`` switch on."""
    extras = extras or FileExtras()
    for step in STEPS[document.kind]:
        if step.switched_on(options):
            document = step.run(document, extras)
    return document
