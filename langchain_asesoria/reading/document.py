"""``DocumentPages``: a document as read (pages, kind, structure) and its ``ReadReport``.

The value every entry point chunks (``reading.split``). Its structure is anchored in
pages, so it holds for any page separator; the report says what reading removed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from langchain_asesoria.models import LeadSpan, LoadedPage, SectionSpan
from langchain_asesoria.pages import JoinedText, join_pages
from langchain_asesoria.pdf.furniture import Furniture, FurnitureLine
from langchain_asesoria.pdf.paragraphs import Block
from langchain_asesoria.pdf.titles import LocatedOutline
from langchain_asesoria.reading.kinds import DocumentKind
from langchain_asesoria.structure.anchors import AnchoredLead, SectionStart, leads_in, spans_in
from langchain_asesoria.structure.front_matter import FrontMatterValue

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
            left out (lists, mappings, nulls).
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
    front_matter_skipped: tuple[str, ...] = ()
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


@dataclass(frozen=True, slots=True)
class DocumentPages:
    """A document's pages as they will be chunked, with the structure reading found.

    Invariant: every start of ``starts`` and every end of ``leads`` lies in the page it
    names, in text order.

    Attributes:
        pages: The pages, numbered from 1, with what reading removed blanked or gone.
        kind: The kind of document (``reading.kinds``).
        starts: Where the sections start, anchored in pages; ``None`` when no
            structure source applied (the chunker then has no sections).
        structure: The structure source that gave ``starts`` (``"markdown headings"``,
            ``"pdf outline"``, ``"loader"``), or ``None``.
        leads: The lists and tables whose chunks carry a lead-in or a header row
            (``structure.leads``), anchored in pages; ``None`` until found
            (``reading.steps.run_steps`` finds them last; ``split_document`` finds them
            for a document built by hand).
        report: What reading removed or could not place.
    """

    pages: tuple[LoadedPage, ...]
    kind: DocumentKind
    starts: tuple[SectionStart, ...] | None = None
    structure: str | None = None
    leads: tuple[AnchoredLead, ...] | None = None
    report: ReadReport = field(default_factory=ReadReport)

    def joined(self, separator: str = READING_SEPARATOR) -> JoinedText:
        """The pages joined by ``separator``: the text a chunk's offsets refer to."""
        return join_pages(self.pages, separator)

    def sections(self, separator: str = READING_SEPARATOR) -> list[SectionSpan] | None:
        """The sections as spans of the pages joined by ``separator`` (``sections_in``)."""
        return self.sections_in(self.joined(separator))

    def sections_in(self, joined: JoinedText) -> list[SectionSpan] | None:
        """The sections as spans of ``joined`` (these pages, joined by any separator).

        ``None`` when no structure source applied; a list, maybe empty, when one did.
        """
        if self.starts is None:
            return None
        return spans_in(joined, self.starts)

    def leads_in(self, joined: JoinedText) -> list[LeadSpan] | None:
        """The leads as spans of ``joined``; ``None`` when they were not found yet."""
        return None if self.leads is None else leads_in(joined, self.leads)
