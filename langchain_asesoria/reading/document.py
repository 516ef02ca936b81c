"""``DocumentPages``: a document as read, which knows its kind, structure and removals.

The value every entry point chunks (``reading.split``): its pages (numbered from 1, what
reading removed already gone), its kind, its sections as starts anchored in pages (so
they hold for any page separator: no caller passes one), which structure source gave
them, and a report of what reading removed or could not place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from langchain_asesoria.engine import JoinedText, join_pages
from langchain_asesoria.models import LoadedPage, SectionSpan
from langchain_asesoria.pdf.furniture import Furniture, FurnitureLine
from langchain_asesoria.pdf.titles import LocatedOutline
from langchain_asesoria.reading.kinds import DocumentKind
from langchain_asesoria.structure.anchors import SectionStart, section_spans

__all__ = ["READING_SEPARATOR", "DocumentPages", "OutlineReport", "PdfFileReport"]

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


@dataclass(frozen=True, slots=True)
class DocumentPages:
    """A document's pages as they will be chunked, and what reading found or removed.

    Invariant: every start of ``starts`` lies in the page it names, in text order.

    Attributes:
        pages: The pages, numbered from 1, with what reading removed blanked or gone.
        kind: The kind of document (``reading.kinds``).
        outline: A PDF's outline report; ``None`` when not read.
        furniture: The lines removed from a PDF's pages (none if not asked): running
            headers and footers, and the table of contents' (``contents``).
        starts: Where the sections start, anchored in pages; ``None`` when no
            structure source applied (the chunker then has no sections).
        structure: The structure source that gave ``starts`` (``"markdown headings"``,
            ``"pdf outline"``, ``"loader"``), or ``None``.
        front_matter: The characters of YAML front matter blanked on the first page.
        comments: How many HTML comment blocks were blanked (Markdown).
        contents: The table-of-contents lines among ``furniture`` (``pdf.contents``).
        markers_moved: How many list markers a PDF printed after their item's text were
            put back before it (``pdf.markers``).
        headings: How many headings the structure source found.
        legal: Whether Spanish legal ranks gave the hierarchy (``structure.legal``).
        chrome: What a web page's reading left out (its site navigation, menus, forms,
            "Subir" links, version selectors, the BOE's ANÁLISIS block...), one short
            labelled line each, in page order (none if not asked: ``ReadOptions.
            html_main_content``). A web page's ``pages`` hold its text, not its markup.
        pdf_file: For a loader's PDF pages, whether their file gave the outline;
            ``None`` for any other document (a PDF read from its file knows it).
    """

    pages: tuple[LoadedPage, ...]
    kind: DocumentKind
    outline: OutlineReport | None = None
    furniture: Furniture = field(default_factory=Furniture)
    starts: tuple[SectionStart, ...] | None = None
    structure: str | None = None
    front_matter: int = 0
    comments: int = 0
    contents: tuple[FurnitureLine, ...] = ()
    markers_moved: int = 0
    headings: int = 0
    legal: bool = False

    @property
    def running_furniture(self) -> Furniture:
        """The running headers and footers alone (``furniture`` less ``contents``)."""
        if not self.contents:
            return self.furniture
        contents = set(self.contents)
        return Furniture(tuple(line for line in self.furniture.lines if line not in contents))

    chrome: tuple[str, ...] = ()
    pdf_file: PdfFileReport | None = None

    def joined(self, separator: str = READING_SEPARATOR) -> JoinedText:
        """The pages joined by ``separator``: the text a chunk's offsets refer to."""
        return join_pages(self.pages, separator)

    def sections(self, separator: str = READING_SEPARATOR) -> list[SectionSpan] | None:
        """The sections as spans of the pages joined by ``separator``.

        ``None`` when no structure source applied; a list, maybe empty, when one did.
        ``reading.split_document`` calls it with the configuration's separator: prefer
        it to calling this yourself.
        """
        if self.starts is None:
            return None
        return section_spans(self.pages, self.starts, separator)
