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

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

from langchain_asesoria.engine import titles_to_what_follows
from langchain_asesoria.errors import DamagedDocumentError
from langchain_asesoria.pages import JoinedText
from langchain_asesoria.pdf.contents import contents_lines
from langchain_asesoria.pdf.furniture import Furniture, FurnitureLine, find_furniture
from langchain_asesoria.pdf.known_furniture import furniture_as_in
from langchain_asesoria.pdf.layout import LineLayout
from langchain_asesoria.pdf.legal_lines import pdf_legal_lines
from langchain_asesoria.pdf.markers import put_markers_first
from langchain_asesoria.pdf.outline import OutlineEntry, outline_entries
from langchain_asesoria.pdf.paragraphs import ReadLine, kept_layout, reflow
from langchain_asesoria.pdf.titles import TitleLines, Typeset, locate_titles
from langchain_asesoria.pdf.typesetting import SIZE_TOLERANCE
from langchain_asesoria.reading.document import (
    DocumentPages,
    OutlineReport,
    ParagraphReport,
    Removal,
    RemovalKind,
    contiguous,
    find_leads,
)
from langchain_asesoria.reading.kinds import DocumentKind
from langchain_asesoria.reading.law_links import front_matter_law_fields, with_block_fields
from langchain_asesoria.reading.options import ReadOptions
from langchain_asesoria.records import NORM_ID
from langchain_asesoria.structure.anchors import spans_in
from langchain_asesoria.structure.front_matter import (
    blank_front_matter,
    front_matter_end,
    front_matter_fields,
)
from langchain_asesoria.structure.headings import Heading, sections_of
from langchain_asesoria.structure.legal import (
    candidate_line,
    formulas_as_text,
    law_headings,
    named_units,
    plain_lines,
    relevel,
)
from langchain_asesoria.structure.legal_grammar import legal_unit, quoted
from langchain_asesoria.structure.markdown import comments, markdown_headings, marked_only
from langchain_asesoria.structure.markup import markup_spans
from langchain_asesoria.structure.page_text import (
    PageText,
    blank_lines,
    line_paragraphs,
    page_text,
)
from langchain_asesoria.structure.quotations import rebare

if TYPE_CHECKING:
    from pypdf import PdfReader


@dataclass(frozen=True, slots=True)
class FileExtras:
    """What only a file gives: an open PDF, the heights of its pages' lines, its outline,
    a web page's headings.

    ``line_heights`` is ``None`` when page furniture is not to be looked for (a text, a
    PDF's pages a loader already cleaned and sectioned); a loader's PDF pages have an
    empty tuple per page (``reading.loaded_pdf``): furniture found by text alone.
    ``layouts``: each extracted page's line layouts (``pdf.layout``; empty for a page
    without them), for reading paragraphs; ``None`` for any other document.
    ``html_headings``: a web page's ``<hN>`` headings as its text was extracted from
    its markup (``structure.html``), positions in the pages joined by
    ``READING_SEPARATOR``; ``None`` for any other document. ``known_furniture``: the
    lines removed from the PDF's own pages, for a loader's pages too few to compare
    (``pdf.known_furniture``).
    """

    reader: PdfReader | None = None
    line_heights: tuple[tuple[float | None, ...], ...] | None = None
    layouts: tuple[tuple[LineLayout | None, ...], ...] | None = None
    html_headings: tuple[Heading, ...] | None = None
    outline: tuple[OutlineEntry, ...] = ()
    outline_problem: str | None = None
    known_furniture: Furniture | None = None

    @classmethod
    def of_pdf(
        cls,
        reader: PdfReader,
        line_heights: tuple[tuple[float | None, ...], ...],
        layouts: tuple[tuple[LineLayout | None, ...], ...] | None = None,
    ) -> FileExtras:
        """An open PDF's extras, its outline read once (for the furniture, which never
        removes a line holding an outline title, and for the sections)."""
        try:
            outline = tuple(outline_entries(reader))
        except DamagedDocumentError as error:
            return cls(reader, line_heights, layouts, outline_problem=str(error))
        return cls(reader, line_heights, layouts, outline=outline)


#: Headings of a web page that name the version it shows, not a part of the law.
VERSION_LABELS: Final = frozenset({"TEXTO ORIGINAL", "TEXTO CONSOLIDADO"})


#: A step: the document so far, the options, what only the file gives -> the document.
StepFunction = Callable[[DocumentPages, ReadOptions, FileExtras], DocumentPages]


@dataclass(frozen=True, slots=True)
class ReadingStep:
    """One step: its name (for reports), its switch, and what it does."""

    name: str
    switched_on: Callable[[ReadOptions], bool]
    run: StepFunction


def _reported(document: DocumentPages, **found: object) -> DocumentPages:
    """``document`` with ``found`` added to its report."""
    return replace(document, report=replace(document.report, **found))  # type: ignore[arg-type]


def _front_matter(document: DocumentPages, options: ReadOptions, __: FileExtras) -> DocumentPages:
    if not document.pages:
        return document
    first, *rest = document.pages
    end = front_matter_end(first.text)
    if end == 0:
        return document
    found = front_matter_fields(first.text) if options.front_matter_metadata else None
    blanked = replace(first, text=blank_front_matter(first.text))
    return _reported(
        replace(document, pages=(blanked, *rest)),
        front_matter=end,
        front_matter_fields=found.fields if found else (),
        front_matter_skipped=found.skipped if found else (),
        fields=front_matter_law_fields(first.text),
    )


def _html_comments(document: DocumentPages, _: ReadOptions, __: FileExtras) -> DocumentPages:
    if not document.pages:
        return document
    first, *rest = document.pages  # a Markdown document is one page
    found = comments(first.text)
    if not found.closed and not found.unclosed:
        return document
    parts, position = [], 0
    for start, end in found.closed:
        parts += [first.text[position:start], re.sub(r"[^\r\n]", " ", first.text[start:end])]
        position = end
    blanked = replace(first, text="".join([*parts, first.text[position:]]))
    noted: list[tuple[int, RemovalKind, str]] = [
        (start, "comment", first.text[start:end]) for start, end in found.closed
    ]
    noted += [(start, "unclosed comment", _line_at(first.text, start)) for start in found.unclosed]
    removals = tuple(
        Removal(kind, first.page, first.text.count("\n", 0, start) + 1, text)
        for start, kind, text in sorted(noted)
    )
    return _reported(
        replace(document, pages=(blanked, *rest)),
        comments=len(found.closed),
        removals=document.report.removals + removals,
    )


def _markup(document: DocumentPages, _: ReadOptions, __: FileExtras) -> DocumentPages:
    """Markup inside a Markdown text (HTML tags, link targets) blanked as comments are:
    spaces of its length, so chunk text and offsets stay exact."""
    if not document.pages:
        return document
    first, *rest = document.pages  # a Markdown document is one page
    found = markup_spans(first.text)
    if not found:
        return document
    spans = tuple((span.start, span.end, span.kind) for span in found)
    removals = tuple(
        Removal("markup", first.page, first.text.count("\n", 0, start) + 1, first.text[start:end])
        for start, end, _ in spans
    )
    blanked = replace(first, text=blank_lines(first.text, spans))
    return _reported(
        replace(document, pages=(blanked, *rest)),
        removals=document.report.removals + removals,
    )


def _line_at(text: str, start: int) -> str:
    """The rest of the line from ``start``."""
    end = text.find("\n", start)
    return text[start : len(text) if end == -1 else end].rstrip("\r")


def _with_headings(
    document: DocumentPages, headings: Sequence[Heading], legal: bool, name: str
) -> DocumentPages:
    """``document`` with the sections ``headings`` open (positions in its text), ranked by
    legal structure when ``legal``."""
    text = document.text.text
    ranked = relevel(headings, text) if legal else list(headings)
    spans = contiguous(sections_of(ranked, len(text)), len(text))
    if legal:  # a law's closing "DISPONGO", its code's title: with what they head
        spans = tuple(titles_to_what_follows(text, spans))
    found = replace(document, sections=spans, structure=name if spans else None)
    return _reported(found, headings=len(headings), legal=legal and bool(spans))


#: A heading line whose ``#`` run is glued to its title (no ATX heading for CommonMark).
_GLUED: Final = re.compile(r" {0,3}#{1,6}[^\s#]")


def _is_legal_unit(title: str) -> bool:
    return legal_unit(title) is not None


def _markdown_headings(
    document: DocumentPages, options: ReadOptions, _: FileExtras
) -> DocumentPages:
    if document.sections is not None or not document.pages:
        return document
    joined = document.text
    text = joined.text
    # Plain legal lines alone in their paragraph ("ANEXO", "Subsección 1.ª") are headings
    # in a law only.
    marked = markdown_headings(text, glued=_is_legal_unit, lone=candidate_line)
    legal = options.legal([heading.title for heading in marked])
    if legal:
        found = law_headings(text, marked)
    else:
        found = marked_only(marked)
        if any(_GLUED.match(text, h.start, h.end) for h in found):
            found = markdown_headings(text)  # a glued "#####Artículo 16" is a heading in a law only
        if options.legal_structure != "off":
            # A formula or a table's line the source marks for its centring is text in
            # any document read with legal structure (a resolution's "### Tt = (To / Mo) Mt,").
            found = formulas_as_text(found)
    return _with_headings(document, found, legal, MARKDOWN_HEADINGS.name)


def _legal_lines(document: DocumentPages, options: ReadOptions, _: FileExtras) -> DocumentPages:
    if document.sections is not None or not document.pages:
        return document
    joined = document.text
    candidates = plain_lines(joined.text)
    if not options.legal([heading.title for heading in candidates]):
        return document
    headings = law_headings(joined.text, candidates)
    return _with_headings(document, headings, True, LEGAL_LINES.name)


def _paragraph_lines(document: DocumentPages, options: ReadOptions, _: FileExtras) -> DocumentPages:
    """A web page saved as text, one line per paragraph: its site chrome blanked (as
    ``--keep-site-chrome`` says) and listed, its heading lines the sections."""
    if document.sections is not None or not document.pages:
        return document
    joined = document.text
    if not line_paragraphs(joined.text):
        return document
    found = page_text(joined.text, chrome=options.html_main_content)
    pages = tuple(
        replace(page, text=blank_lines(page.text, _in_page(found.chrome, start, page.text)))
        for page, start in zip(document.pages, joined.page_starts, strict=True)
    )
    document = _reported(
        replace(document, pages=pages), chrome=found.report, **_blocks_of(found, joined)
    )
    if options.legal_structure == "off" or not found.headings:
        return document
    headings = named_units(found.headings)
    legal = options.legal([heading.title for heading in headings if not quoted(heading.title)])
    joined = document.text
    if legal:  # amended text an article quotes is its text, never a section
        headings = rebare(joined.text, [h for h in headings if not quoted(h.title)])
    return _with_headings(document, headings, legal, PARAGRAPH_LINES.name)


def _blocks_of(found: PageText, joined: JoinedText) -> dict[str, object]:
    """A consolidated page's blocks, anchored in pages, and its law, for the report."""
    if found.law_id is None:
        return {}
    where = dict(zip(joined.page_numbers, joined.page_starts, strict=True))
    pages = [joined.page_at(position) for position, _ in found.blocks]
    blocks = tuple(
        (page, position - where[page], block)
        for page, (position, block) in zip(pages, found.blocks, strict=True)
    )
    return {"blocks": blocks, "fields": ((NORM_ID, found.law_id),)}


def _in_page(
    spans: tuple[tuple[int, int, str], ...], start: int, text: str
) -> tuple[tuple[int, int, str], ...]:
    """The spans that fall in a page starting at ``start`` of the joined text, as
    positions in that page."""
    return tuple(
        (begin - start, end - start, label)
        for begin, end, label in spans
        if start <= begin and end <= start + len(text)
    )


def _html_headings(
    document: DocumentPages, options: ReadOptions, extras: FileExtras
) -> DocumentPages:
    if document.sections is not None or extras.html_headings is None or not document.pages:
        return document
    joined = document.text
    # The BOE's "TEXTO ORIGINAL" / "Texto consolidado" says which text the page shows: no
    # section (its words stay in the text), so no law's path names it.
    headings = [h for h in extras.html_headings if h.title.upper() not in VERSION_LABELS]
    # A TÍTULO's number and its name are one heading; the provisions an article quotes
    # are not the page's own, whatever their number.
    headings = named_units(headings)
    legal = options.legal([heading.title for heading in headings if not quoted(heading.title)])
    if legal:  # amended text an article quotes is its text, never a section
        headings = rebare(joined.text, [h for h in headings if not quoted(h.title)])
    return _with_headings(document, headings, legal, HTML_HEADINGS.name)


def _boe_blocks(document: DocumentPages, _: ReadOptions, __: FileExtras) -> DocumentPages:
    return with_block_fields(document)


def _pdf_legal_lines(
    document: DocumentPages, options: ReadOptions, extras: FileExtras
) -> DocumentPages:
    """A loader's PDF pages without their file: their legal heading lines, ranked."""
    if extras.reader is not None or document.sections is not None or not document.pages:
        return document
    joined = document.text
    headings = pdf_legal_lines(joined.text)
    if not options.legal([heading.title for heading in headings]):
        return document
    return _with_headings(document, headings, True, PDF_LEGAL_LINES.name)


def _list_markers(document: DocumentPages, _: ReadOptions, extras: FileExtras) -> DocumentPages:
    if extras.line_heights is None:
        return document
    marked = [
        put_markers_first(page, heights)
        for page, heights in zip(document.pages, extras.line_heights, strict=True)
    ]
    moved = sum(item.moved for item in marked)
    if not moved:
        return document
    return _reported(
        replace(document, pages=tuple(item.page for item in marked)), markers_moved=moved
    )


def _page_furniture(
    document: DocumentPages, options: ReadOptions, extras: FileExtras
) -> DocumentPages:
    if extras.line_heights is None:
        return document
    lines: set[FurnitureLine] = set()
    if options.remove_page_furniture:
        found = find_furniture(document.pages, extras.line_heights, titles=extras.outline)
        if not found.lines and extras.known_furniture is not None:
            found = furniture_as_in(document.pages, extras.known_furniture)
        lines.update(found.lines)
    contents = contents_lines(document.pages) if options.remove_contents else ()
    lines.update(contents)
    furniture = Furniture(tuple(sorted(lines, key=lambda line: (line.page, line.start))))
    cleaned = replace(document, pages=furniture.remove(document.pages))
    return _reported(cleaned, furniture=furniture, contents=contents)


def _pdf_paragraphs(
    document: DocumentPages, options: ReadOptions, extras: FileExtras
) -> DocumentPages:
    """A PDF's pages read as paragraphs from their layout (``pdf.paragraphs``)."""
    if extras.layouts is None or not document.pages:
        return document
    furniture = document.report.furniture
    extracted = furniture.restore(document.pages)
    layouts = [
        kept_layout(
            raw.text, layout, [line.start for line in furniture.on_page(page.page)], page.text
        )
        if layout
        else None
        for page, raw, layout in zip(document.pages, extracted, extras.layouts, strict=True)
    ]
    found = reflow(document.pages, layouts, TitleLines.of(entry.title for entry in extras.outline))
    body = found.typesetting.body_size
    typeset = tuple(
        block for block in found.blocks if block.bold and block.size > body - SIZE_TOLERANCE
    )
    noted: list[tuple[RemovalKind, ReadLine]] = [("hyphen", line) for line in found.hyphens]
    noted += [("footnote marker", line) for line in found.footnotes]
    removals = tuple(
        Removal(kind, line.page, line.line, line.text)
        for kind, line in sorted(noted, key=lambda item: (item[1].page, item[1].line or 0))
    )
    return _reported(
        replace(document, pages=found.pages),
        paragraphs=ParagraphReport(
            found.joined, found.continued, body, typeset, printed=document.pages
        ),
        markers_moved=document.report.markers_moved + found.markers,
        removals=document.report.removals + removals,
    )


def _pdf_outline(
    document: DocumentPages, options: ReadOptions, extras: FileExtras
) -> DocumentPages:
    if extras.reader is None or document.sections is not None:
        return document
    if extras.outline_problem is not None:
        return _reported(
            replace(document, sections=()), outline=OutlineReport(problem=extras.outline_problem)
        )
    entries = extras.outline
    legal = options.legal([entry.title for entry in entries])
    paragraphs = document.report.paragraphs
    typeset = None
    if options.typeset_headings and paragraphs is not None:
        typeset = Typeset(paragraphs.typeset, paragraphs.body_size)
    located = locate_titles(document.pages, entries, legal=legal, typeset=typeset)
    sections = tuple(spans_in(document.text, located.starts))
    found = replace(document, sections=sections, structure=PDF_OUTLINE.name if sections else None)
    return _reported(
        found,
        outline=OutlineReport(located),
        headings=located.located,
        legal=legal and bool(sections),
    )


FRONT_MATTER: Final = ReadingStep("front matter", lambda o: o.front_matter, _front_matter)
HTML_COMMENTS: Final = ReadingStep("html comments", lambda o: o.html_comments, _html_comments)
MARKUP: Final = ReadingStep("markup", lambda o: o.html_comments, _markup)
MARKDOWN_HEADINGS: Final = ReadingStep(
    "markdown headings", lambda o: o.markdown_headings, _markdown_headings
)
LEGAL_LINES: Final = ReadingStep(
    "legal heading lines", lambda o: o.legal_structure != "off", _legal_lines
)
LIST_MARKERS: Final = ReadingStep("list markers", lambda o: o.list_markers, _list_markers)
PAGE_FURNITURE: Final = ReadingStep(
    "page furniture", lambda o: o.remove_page_furniture or o.remove_contents, _page_furniture
)
PDF_PARAGRAPHS: Final = ReadingStep("pdf paragraphs", lambda o: o.pdf_paragraphs, _pdf_paragraphs)
PDF_OUTLINE: Final = ReadingStep("pdf outline", lambda o: o.outline_sections, _pdf_outline)
PDF_LEGAL_LINES: Final = ReadingStep(
    "pdf legal heading lines",
    lambda o: o.outline_sections and o.legal_structure != "off",
    _pdf_legal_lines,
)
HTML_HEADINGS: Final = ReadingStep("html headings", lambda o: o.html_headings, _html_headings)
BOE_BLOCKS: Final = ReadingStep("boe blocks", lambda _: True, _boe_blocks)
PARAGRAPH_LINES: Final = ReadingStep(
    "paragraph lines",
    lambda o: o.html_main_content or o.legal_structure != "off",
    _paragraph_lines,
)

#: Each kind's steps, in the order they run.
STEPS: Final[Mapping[DocumentKind, tuple[ReadingStep, ...]]] = {
    "markdown": (FRONT_MATTER, HTML_COMMENTS, MARKUP, MARKDOWN_HEADINGS),
    "pdf": (LIST_MARKERS, PAGE_FURNITURE, PDF_PARAGRAPHS, PDF_OUTLINE, PDF_LEGAL_LINES),
    "text": (PARAGRAPH_LINES, LEGAL_LINES, BOE_BLOCKS),
    "html": (HTML_HEADINGS, BOE_BLOCKS),
    "xml": (),  # a BOE law's XML gives its own structure: ``reading.law_xml``, no step
}


def run_steps(
    document: DocumentPages, options: ReadOptions, extras: FileExtras | None = None
) -> DocumentPages:
    """``document`` after every step of its kind that ``options`` switch on, then its
    lists' and tables' leads found in the text as read (``find_leads``)."""
    extras = extras or FileExtras()
    for step in STEPS[document.kind]:
        if step.switched_on(options):
            document = step.run(document, options, extras)
    return replace(document, leads=find_leads(document.text, document.sections))
