"""``DocumentPages``: a document as read (pages, kind, structure) and its ``ReadReport``.

The value every entry point chunks (``reading.split``). It owns one text, its pages
joined once; its sections and leads are spans of that text; the report says what
reading removed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from langchain_asesoria.engine import content_segments
from langchain_asesoria.models import LeadSpan, LoadedPage, SectionSpan
from langchain_asesoria.pages import JoinedText, join_pages
from langchain_asesoria.pdf.furniture import Furniture, FurnitureLine
from langchain_asesoria.pdf.paragraphs import Block
from langchain_asesoria.pdf.titles import LocatedOutline
from langchain_asesoria.reading.kinds import DocumentKind
from langchain_asesoria.structure.anchors import (
    SectionStart,
    anchor_leads,
    anchor_spans,
    leads_in,
    spans_in,
)
from langchain_asesoria.structure.front_matter import FrontMatterValue
from langchain_asesoria.structure.leads import detect_leads

if TYPE_CHECKING:
    from langchain_asesoria.boe_xml.law_text import LawReport

#: The page join structure sources read (a blank line: no heading runs across it).
READING_SEPARATOR = "\n\n"


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
class PdfFileReport:
    """Whether a loader's PDF pages had their file to read the outline from.

    Pages a LangChain loader extracted (``PyPDFLoader``, ``PyMuPDFLoader``...) carry no
    outline: it is read from the file their source names (``reading.loaded_pdf``).

    Attributes:
        path: The file the outline was read from; ``None`` when none was.
        problem: Why no file was read (none at that path, a file with fewer pages than
            the pages number, one that cannot be opened); ``None`` when one was, or when
            the outline was not asked for (``ReadOptions.outline_sections``).
    """

    path: str | None = None
    problem: str | None = None


#: What reading left out, or found and kept: ``comment`` (a Markdown HTML comment,
#: blanked), ``unclosed comment`` (an ``<!--`` nothing closes: its text is kept and
#: chunked), ``chrome`` (a web page's site chrome), ``furniture`` (a PDF's running
#: header or footer), ``markup`` (an HTML tag or a link's target inside a Markdown text,
#: blanked), ``hyphen`` (a PDF's hyphen that split a word at a line's end, removed when
#: its lines were joined: the text is the word as printed, "conside-rados"), ``footnote
#: marker`` (a PDF's footnote marker glued to the word before it, parted from it by a
#: space and kept: "económico1").
RemovalKind = Literal[
    "comment", "unclosed comment", "chrome", "furniture", "markup", "hyphen", "footnote marker"
]


@dataclass(frozen=True, slots=True)
class ParagraphReport:
    """What reading a PDF as paragraphs did (``pdf.paragraphs``).

    Attributes:
        joined: Line breaks inside a paragraph that became a space or went.
        continued: Pages whose last paragraph runs on at the top of the next page.
        body_size: The size most of the document's characters are set in.
        typeset: The paragraphs set all in bold at the body's size or larger, where
            they lie in the pages as read: the headings that typography sets apart,
            and the lines that follow them ("Normativa: Art. 22.2 Ley IRPF").
        printed: The pages before they were read as paragraphs, one printed line a
            line (furniture already removed): ``Furniture.restore`` gives them back as
            extracted, where offsets of the text as extracted refer.
    """

    joined: int = 0
    continued: tuple[int, ...] = ()
    body_size: float = 0.0
    typeset: tuple[Block, ...] = ()
    printed: tuple[LoadedPage, ...] = ()


@dataclass(frozen=True, slots=True)
class Removal:
    """One piece of text reading left out of the chunks (or, for ``unclosed comment``,
    noticed and kept), where a reader finds it in the input.

    Attributes:
        kind: What it is (``RemovalKind``).
        page: The page it was on, from 1 (a Markdown or text document is one page).
        line: Its line in the page, from 1; ``None`` when the reader knows no line.
        text: Its text (a PDF line, a comment, a chrome block's label and words).
    """

    kind: RemovalKind
    page: int
    line: int | None
    text: str


@dataclass(frozen=True, slots=True)
class ReadReport:
    """What reading removed, moved or could not place in a document.

    Attributes:
        outline: A PDF's outline report; ``None`` when not read.
        furniture: The lines removed from a PDF's pages (none if not asked): running
            headers and footers, and the table of contents' (``contents``).
        contents: The table-of-contents lines among ``furniture`` (``pdf.contents``).
        front_matter: The characters of YAML front matter blanked on the first page.
        front_matter_fields: Its scalar fields as chunk metadata (``fm_<key>``), when
            ``ReadOptions.front_matter_metadata`` asks; ``front_matter_skipped``: the keys
            left out, ``(fm_<key>, why)`` (lists, mappings, nulls...).
        comments: How many HTML comment blocks were blanked (Markdown).
        markers_moved: How many list markers a PDF printed after their item's text were
            put back before it (``pdf.markers``, ``pdf.inline``).
        paragraphs: What reading a PDF as paragraphs did; ``None`` when it did not.
        headings: How many headings the structure source found.
        legal: Whether Spanish legal ranks gave the hierarchy (``structure.legal``).
        chrome: What a web page's reading left out (site navigation, menus, forms...),
            one short labelled line each, in page order (``ReadOptions.html_main_content``).
        pdf_file: For a loader's PDF pages, whether their file gave the outline;
            ``None`` for any other document (a PDF read from its file knows it).
        removals: Each piece of text reading left out (or noticed and kept), in
            input order, one ``Removal`` each; ``removal_counts`` sums them by kind.
        law: For a BOE law's XML, what its text holds and leaves out (blocks not in
            force on the day, images, unknown block types: ``boe_xml.LawReport``).
        fields: Document metadata reading found for every chunk (a BOE law's
            ``norm_id``, ``status``, ``last_updated``), after ``front_matter_fields``.
        blocks: Where a BOE consolidated page's blocks start, ``(page, offset in it,
            block id)`` (a ``<div class="bloque" id="a48">``, or a "[Bloque N: #a48]"
            line of the page saved as text), for its sections' ``block_id`` and ``url``.
    """

    outline: OutlineReport | None = None
    furniture: Furniture = field(default_factory=Furniture)
    contents: tuple[FurnitureLine, ...] = ()
    front_matter: int = 0
    front_matter_fields: tuple[tuple[str, FrontMatterValue], ...] = ()
    front_matter_skipped: tuple[tuple[str, str], ...] = ()
    comments: int = 0
    markers_moved: int = 0
    paragraphs: ParagraphReport | None = None
    headings: int = 0
    legal: bool = False
    chrome: tuple[str, ...] = ()
    pdf_file: PdfFileReport | None = None
    removals: tuple[Removal, ...] = ()
    law: LawReport | None = None
    fields: tuple[tuple[str, FrontMatterValue], ...] = ()
    blocks: tuple[tuple[int, int, str], ...] = ()

    def removal_counts(self) -> tuple[tuple[RemovalKind, int], ...]:
        """``(kind, count)`` of ``removals``, each kind once, in first-seen order."""
        return tuple(Counter(removal.kind for removal in self.removals).items())

    @property
    def running_furniture(self) -> Furniture:
        """The running headers and footers alone (``furniture`` less ``contents``)."""
        if not self.contents:
            return self.furniture
        contents = set(self.contents)
        return Furniture(tuple(line for line in self.furniture.lines if line not in contents))

    @property
    def document_fields(self) -> tuple[tuple[str, FrontMatterValue], ...]:
        """What reading gives every chunk's metadata: the front matter's, the law's."""
        return (*self.front_matter_fields, *self.fields)

    @property
    def fields_left_out(self) -> tuple[tuple[str, str], ...]:
        """What reading found for every chunk's metadata but no vector store takes, each
        ``(key, why)``: the front matter's lists, mappings, nulls..., told by the caller
        once per run (``store_values.LeftOutTally``)."""
        return self.front_matter_skipped


@dataclass(frozen=True, slots=True)
class DocumentText:
    """The text a document's chunks' offsets refer to, with its structure as spans of it.

    Attributes:
        joined: The pages joined by one separator.
        sections: The sections as spans of ``joined.text``; ``None`` when no structure
            source applied (the chunker then has no sections).
        leads: The lists' and tables' leads as spans of ``joined.text``.
    """

    joined: JoinedText
    sections: tuple[SectionSpan, ...] | None
    leads: tuple[LeadSpan, ...]


@dataclass(frozen=True, slots=True)
class DocumentPages:
    """A document's pages as they will be chunked, with the structure reading found.

    The document owns one text, its pages joined by ``READING_SEPARATOR`` once
    (``text``); its sections and leads are spans of that text. A chunking configuration
    whose ``page_separator`` is another carries them over once (``in_join``).

    Invariant: ``sections`` and ``leads`` are spans of ``text.text``, in text order.

    Attributes:
        pages: The pages, numbered from 1, with what reading removed blanked or gone.
        kind: The kind of document (``reading.kinds``).
        sections: The sections as spans of ``text``; ``None`` when no structure source
            applied (the chunker then has no sections).
        structure: The structure source that gave ``sections`` (``"markdown
            headings"``, ``"pdf outline"``, ``"loader"``), or ``None``.
        leads: The lists and tables whose chunks carry a lead-in or a header row
            (``structure.leads``), as spans of ``text``; ``None`` until found
            (``reading.steps.run_steps`` finds them last; ``in_join`` finds them for a
            document built by hand).
        report: What reading removed or could not place.
    """

    pages: tuple[LoadedPage, ...]
    kind: DocumentKind
    sections: tuple[SectionSpan, ...] | None = None
    structure: str | None = None
    leads: tuple[LeadSpan, ...] | None = None
    report: ReadReport = field(default_factory=ReadReport)
    _text: JoinedText | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def text(self) -> JoinedText:
        """The pages joined by ``READING_SEPARATOR``, once per document."""
        return self._joined()

    def _joined(self, doc_id: str = "?") -> JoinedText:
        text = self._text
        if text is None:  # joined once, on first use: a frozen value's own cache
            text = join_pages(self.pages, READING_SEPARATOR, doc_id)
            object.__setattr__(self, "_text", text)
        return text

    def starts(self) -> tuple[SectionStart, ...] | None:
        """The sections anchored in pages, ``(page, offset)`` (``structure.anchors``), as a
        loader writes them in each page's metadata; ``None`` without structure."""
        if self.sections is None:
            return None
        return anchor_spans(self.pages, self.sections, READING_SEPARATOR, self.text)

    def in_join(self, separator: str, doc_id: str = "?") -> DocumentText:
        """The text chunks' offsets refer to, the pages joined by ``separator``, and the
        sections and leads as its spans: the document's own when ``separator`` is
        ``READING_SEPARATOR``; else the pages joined once more and the spans carried
        over through the pages (``structure.anchors``).

        Raises:
            InvalidPagesError: pages that are not one document's, in order.
        """
        own = self._joined(doc_id)
        leads = self.leads if self.leads is not None else find_leads(own, self.sections)
        if separator == READING_SEPARATOR:
            return DocumentText(own, self.sections, leads)
        joined = join_pages(self.pages, separator, doc_id)
        sections = None
        if self.sections is not None:
            starts = anchor_spans(self.pages, self.sections, READING_SEPARATOR, own)
            sections = tuple(spans_in(joined, starts))
        anchored = anchor_leads(self.pages, own, leads)
        return DocumentText(joined, sections, tuple(leads_in(joined, anchored)))


def find_leads(joined: JoinedText, sections: Sequence[SectionSpan] | None) -> tuple[LeadSpan, ...]:
    """The lists and tables of ``joined`` whose continuations carry a lead
    (``structure.leads``), none running across a section's start."""
    breaks = [segment.start for segment in content_segments(joined.text, sections)]
    return tuple(detect_leads(joined.text, breaks))


def contiguous(spans: Iterable[SectionSpan], length: int) -> tuple[SectionSpan, ...]:
    """``spans`` (in text order) as a document's sections: each runs to the next one's
    start, the last to ``length``; none is empty; a title end outside its section is
    forgotten (``structure.anchors.spans_in`` reads anchored starts the same way)."""
    spans = list(spans)
    ends = [*(span.start for span in spans[1:]), length][: len(spans)]
    return tuple(
        replace(span, end=end, title_end=_inside(span.title_end, span.start, end))
        for span, end in zip(spans, ends, strict=True)
        if span.start < end
    )


def _inside(position: int | None, start: int, end: int) -> int | None:
    return position if position is not None and start <= position <= end else None
