"""The kinds of document, and how a document's kind is decided: in one place.

A file's kind comes from its extension (``FILE_KINDS``); a text that arrives without a
file (a LangChain ``Document``, a Ray row) from its source's name, when it has one, and
otherwise from what the caller says it is. The kind chooses the reading steps
(``reading.steps``): Markdown gets its front matter blanked and its headings followed,
a PDF its running headers and footers removed and its outline followed, a web page
(``.html``, ``.htm``) its main content read as text and its ``<hN>`` headings followed,
a BOE consolidated law's XML (``.xml``, the ``/texto`` answer) its wordings in force on
a day, or all of them, with the XML's own structure (``reading.law_xml``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final, Literal

from langchain_asesoria.errors import UnsupportedFileError

DocumentKind = Literal["pdf", "markdown", "text", "html", "xml"]

#: The former name of ``DocumentKind``.
FileKind = DocumentKind

#: Extension (lower case) -> kind of document.
FILE_KINDS: Final[dict[str, DocumentKind]] = {
    ".pdf": "pdf",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".html": "html",
    ".htm": "html",
    ".xml": "xml",
}

#: The kinds a source's name gives besides Markdown (its own suffixes).
_NAMED_KINDS: Final[dict[str, DocumentKind]] = {
    ".pdf": "pdf",
    ".txt": "text",
    ".html": "html",
    ".htm": "html",
    ".xml": "xml",
}

#: Source names ending with one of these are Markdown (case-insensitive).
DEFAULT_MARKDOWN_SUFFIXES: Final = (".md", ".markdown")


def file_kind(path: Path) -> DocumentKind:
    """The kind of document a path holds, by its extension.

    Raises:
        UnsupportedFileError: an extension missing from ``FILE_KINDS``.
    """
    kind = FILE_KINDS.get(path.suffix.lower())
    if kind is None:
        supported = ", ".join(sorted(FILE_KINDS))
        raise UnsupportedFileError(
            f"unsupported file type {path.suffix or '(no extension)'!r}; supported: {supported}.",
            source=str(path),
            expected=supported,
        )
    return kind


def kind_of_name(
    name: str | None,
    *,
    markdown_suffixes: Sequence[str] = DEFAULT_MARKDOWN_SUFFIXES,
    default: DocumentKind = "text",
) -> DocumentKind:
    """The kind of a text named ``name`` (a LangChain ``source``), without reading a file.

    A name ending with one of ``markdown_suffixes`` is Markdown, one ending with ``.pdf``
    a PDF's pages, one ending with ``.html`` or ``.htm`` a web page (its markup, as
    LangChain's ``AsyncHtmlLoader`` gives it), one ending with ``.xml`` a BOE law's XML
    and one ending with ``.txt`` plain text; any other name, or none, is ``default``.
    """
    lowered = (name or "").lower()
    if lowered.endswith(tuple(suffix.lower() for suffix in markdown_suffixes)):
        return "markdown"
    return _NAMED_KINDS.get(Path(lowered).suffix, default)


def kind_for_text(
    name: str | None,
    markdown: bool = False,
    markdown_suffixes: Sequence[str] = DEFAULT_MARKDOWN_SUFFIXES,
) -> DocumentKind:
    """The kind of a text that arrives without a file (a LangChain source, a Ray row).

    Its name decides when it says (``kind_of_name``); a text without a name that says is
    Markdown when the caller says so (``markdown``: the LangChain classes'
    ``detect_markdown_headings=True``), plain text otherwise. A Markdown text's headings
    are then followed as ``ReadOptions.markdown_headings`` says.
    """
    default: DocumentKind = "markdown" if markdown else "text"
    return kind_of_name(name, markdown_suffixes=markdown_suffixes, default=default)
