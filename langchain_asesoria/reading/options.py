"""How to read a document: the one place where reading's defaults are stated.

More: ``docs/design/reading.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal, get_args

from langchain_asesoria.errors import ConfigurationError
from langchain_asesoria.structure import legal, legal_grammar

#: When legal ranks decide the hierarchy: ``"auto"`` when the headings are a law's (one
#: of them a provision: an article, a disposición), ``"on"`` whenever a legal heading is
#: found, ``"off"`` never (levels decide).
LegalStructure = Literal["auto", "on", "off"]
LEGAL_STRUCTURES: tuple[LegalStructure, ...] = get_args(LegalStructure)

#: Which wordings of a BOE law's XML are read: ``"as-of"`` those in force on a day,
#: ``"all"`` every wording, each a section of its own.
LawVersions = Literal["as-of", "all"]
LAW_VERSIONS: tuple[LawVersions, ...] = get_args(LawVersions)


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How to read a document; each field applies to its kind of document only.

    Attributes:
        outline_sections: Give a PDF the sections of its outline.
        remove_page_furniture: Remove a PDF's running headers and footers.
        password: Decrypts an encrypted PDF.
        extraction_mode: pypdf's ``"plain"`` (default) or ``"layout"`` extraction
            (layout mode gives no line heights: furniture is found by text alone).
        remove_contents: Remove a PDF's table of contents (index pages' lines of dot
            leaders and page numbers, ``pdf.contents``).
        list_markers: Put a PDF's list markers drawn after their item's text ("a.",
            "•" alone on a line below the item) back before the item, where the page
            prints them (``pdf.markers``; needs line heights, so plain extraction).
        pdf_paragraphs: Read a PDF's text as paragraphs, not printed lines: a line break
            inside a paragraph becomes a space (or goes after a hyphen that splits a
            word, reported), a paragraph that runs on across a page break leaves its
            page ending with a space, markers drawn after their item go before it and
            footnote markers are parted from their word (reported), all decided from
            the layout (``pdf.paragraphs``; needs plain extraction).
        typeset_headings: Give a PDF the sections of its headings set apart by weight
            and size (bold, larger than the body), each at the level its size gives,
            under the outline's entries (``pdf.headings``; needs ``pdf_paragraphs``;
            only with ``outline_sections``). A heading the layout cannot place is
            reported (``OutlineReport.located.unplaced``), never guessed.
        markdown_headings: Follow a Markdown document's ATX headings as sections.
        front_matter: Blank a Markdown document's YAML front matter (never chunked).
        front_matter_metadata: Also copy its scalar fields into every chunk's metadata,
            as ``fm_<key>`` (``structure.front_matter.front_matter_fields``; off by
            default). Lists and mappings are left out and reported.
        html_comments: Blank a Markdown document's HTML comment blocks (``<!-- ... -->``
            lines, never chunked; offsets kept) and the markup inside its text: HTML
            tags (the BOE's ``<small>`` notes) and links' marks and targets (``[Ref.
            BOE-A-…](https://…)`` reads "Ref. BOE-A-…"), each a ``markup`` removal.
        legal_structure: When Spanish legal ranks decide the sections' hierarchy
            (``LegalStructure``; Markdown headings, a PDF's outline, a text's heading
            lines).
        html_main_content: Read only a web page's main content: what lies outside it
            (the site's header, menus, language selector, breadcrumbs, footer) and the
            chrome inside it (navigation, forms such as the BOE's "Seleccionar
            redacción", "Subir" links, the BOE's ANÁLISIS block) left out and listed in
            ``DocumentPages.chrome`` (``structure.html``). Off: the whole ``<body>``.
        html_headings: Follow a web page's ``<h1>``..``<h6>`` headings as sections (their
            level as in the markup: ``<h5>`` is deeper than ``<h3>``).
        as_of: The day a BOE law's XML is read as of: for every block, the wording in
            force that day (``boe_xml.law_as_of``); ``None``: the day it is read. A
            ``datetime`` gives its day.
        law_versions: ``"as-of"`` (default) reads the law on ``as_of``; ``"all"`` every
            wording of every block, each a section of its own
            (``boe_xml.law_all_versions``); ``as_of`` must then be unset.
    """

    outline_sections: bool = True
    remove_page_furniture: bool = True
    password: str | None = None
    extraction_mode: Literal["plain", "layout"] = "plain"
    markdown_headings: bool = True
    list_markers: bool = True
    pdf_paragraphs: bool = True
    typeset_headings: bool = True
    remove_contents: bool = True
    front_matter: bool = True
    front_matter_metadata: bool = False
    html_comments: bool = True
    legal_structure: LegalStructure = "auto"

    def __post_init__(self) -> None:
        if self.legal_structure not in LEGAL_STRUCTURES:
            raise ConfigurationError(
                f"legal_structure must be one of {', '.join(map(repr, LEGAL_STRUCTURES))}, "
                f"got {self.legal_structure!r}.",
                expected=", ".join(LEGAL_STRUCTURES),
            )
        if self.law_versions not in LAW_VERSIONS:
            raise ConfigurationError(
                f"law_versions must be one of {', '.join(map(repr, LAW_VERSIONS))}, "
                f"got {self.law_versions!r}.",
                expected=", ".join(LAW_VERSIONS),
            )
        if isinstance(self.as_of, datetime):
            object.__setattr__(self, "as_of", self.as_of.date())
        elif self.as_of is not None and not isinstance(self.as_of, date):
            raise ConfigurationError(
                f"as_of must be a datetime.date, got {self.as_of!r}: date(2023, 12, 31), "
                "or date.fromisoformat('2023-12-31').",
                expected="a datetime.date",
            )
        if self.as_of is not None and self.law_versions == "all":
            raise ConfigurationError(
                f"as_of={self.as_of.isoformat()} reads the law on one day, "
                "law_versions='all' every wording: give one of them.",
                expected="as_of or law_versions='all'",
            )

    def legal(self, titles: Sequence[str]) -> bool:
        """Whether legal ranks decide for headings with these titles."""
        if self.legal_structure == "auto":
            return legal.applies(titles)
        return self.legal_structure == "on" and any(map(legal_grammar.legal_unit, titles))

    html_main_content: bool = True
    html_headings: bool = True
    as_of: date | None = None
    law_versions: LawVersions = "as-of"
