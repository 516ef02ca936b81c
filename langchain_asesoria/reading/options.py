"""How to read a document: the one place where reading's defaults are stated.

Every entry point reads with ``ReadOptions`` (the command line builds them from its
flags, the LangChain classes and the Ray helper take them as ``reading=``), so the same
input gives the same pages and sections everywhere. By default everything is on:

- Markdown: YAML front matter blanked (``front_matter``), ATX headings followed
  (``markdown_headings``);
- PDF: running headers and footers removed (``remove_page_furniture``), outline
  followed (``outline_sections``);
- web pages (``.html``): the main content only, site chrome left out and listed
  (``html_main_content``), ``<h1>``..``<h6>`` followed (``html_headings``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["ReadOptions"]


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How to read a document; each field applies to its kind of document only.

    Attributes:
        outline_sections: Give a PDF the sections of its outline.
        remove_page_furniture: Remove a PDF's running headers and footers.
        password: Decrypts an encrypted PDF.
        extraction_mode: pypdf's ``"plain"`` (default) or ``"layout"`` extraction
            (layout mode gives no line heights: furniture is found by text alone).
        markdown_headings: Follow a Markdown document's ATX headings as sections.
        front_matter: Blank a Markdown document's YAML front matter (never chunked).
        html_main_content: Read only a web page's main content: what lies outside it
            (the site's header, menus, language selector, breadcrumbs, footer) and the
            chrome inside it (navigation, forms such as the BOE's "Seleccionar
            redacción", "Subir" links, the BOE's ANÁLISIS block) left out and listed in
            ``DocumentPages.chrome`` (``structure.html``). Off: the whole ``<body>``.
        html_headings: Follow a web page's ``<h1>``..``<h6>`` headings as sections (their
            level as in the markup: ``<h5>`` is deeper than ``<h3>``).
    """

    outline_sections: bool = True
    remove_page_furniture: bool = True
    password: str | None = None
    extraction_mode: Literal["plain", "layout"] = "plain"
    markdown_headings: bool = True
    front_matter: bool = True
    html_main_content: bool = True
    html_headings: bool = True
