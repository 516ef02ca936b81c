"""The structure a page ``Document`` carries from ``PdfPageLoader`` to the LangChain classes.

A loader that knows where sections start puts it in each page's metadata, in positions
of that page's ``page_content`` (the keys below), so it does not depend on how pages are
joined later; a loader's PDF pages read as their PDF get the three scalar report keys.
Neither class copies the structure keys into chunks (vector stores refuse lists and dicts);
a step that changes ``page_content`` must drop ``SECTION_STARTS``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Final

from langchain_asesoria.errors import InvalidSectionsError
from langchain_asesoria.models import LoadedPage
from langchain_asesoria.structure.anchors import SectionStart, spans_in

if TYPE_CHECKING:  # the reading stage loads with the first source read (``sources``)
    from langchain_asesoria.reading import DocumentPages

#: The sections starting on the page, in order, each ``{"offset": int, "label": str,
#: "path": [str, ...]}``, and ``"title_end": int`` when the titles opening it end on
#: the same page (no chunk ends between them and their text).
SECTION_STARTS: Final = "section_starts"
#: The section the page starts in, when it began on an earlier page (``{"label": str,
#: "path": [str, ...]}``), for a splitter that sees one page.
SECTION_CONTINUED: Final = "section_continued"
#: The running header and footer lines removed from the page.
PAGE_FURNITURE: Final = "page_furniture"
#: The document's outline report, on every page: ``{"entries": int, "unlocated":
#: [{"title": str, "page": int | None}, ...], "problem": str | None}``.
OUTLINE: Final = "outline"

#: The structure source of a loader's PDF pages: ``"pdf outline"``, ``"pdf legal heading
#: lines"`` or ``"none"``.
SECTIONS_FROM: Final = "sections_from"
#: The file the outline was read from, when it was.
OUTLINE_FILE: Final = "outline_file"
#: Why no outline was read (no file at that path, a file with fewer pages...).
OUTLINE_MISSING: Final = "outline_missing"

#: The page-level keys that never reach a chunk's metadata.
STRUCTURE_KEYS: Final = (SECTION_STARTS, SECTION_CONTINUED, PAGE_FURNITURE, OUTLINE)
#: What reading a loader's PDF pages had: in every chunk, except at ``"lean"`` (ours,
#: not the loader's).
REPORT_KEYS: Final = (SECTIONS_FROM, OUTLINE_FILE, OUTLINE_MISSING)


def _section(label: str, path: Sequence[str]) -> dict[str, Any]:
    return {"label": label, "path": list(path)}


def page_structure(document: DocumentPages) -> list[dict[str, Any]]:
    """The structure keys of each page of ``document``, in page order.

    Pages of a document without structure (no outline read, no other source) get no
    section keys; pages without furniture removed get no ``PAGE_FURNITURE``.
    """
    outline = document.report.outline
    starts = document.starts() or ()
    report: dict[str, Any] | None = None
    if outline is not None:
        report = {
            "entries": outline.located.entries,
            "unlocated": [
                {"title": entry.title, "page": entry.page} for entry in outline.located.unlocated
            ],
            "problem": outline.problem,
        }
    keys: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for page in document.pages:
        metadata: dict[str, Any] = {}
        removed = document.report.furniture.on_page(page.page)
        if removed:
            metadata[PAGE_FURNITURE] = [line.text for line in removed]
        if report is not None:
            metadata[OUTLINE] = copy.deepcopy(report)  # each page's metadata its own
        if document.sections is not None:
            here = [start for start in starts if start.page == page.page]
            metadata[SECTION_STARTS] = [_start_keys(start) for start in here]
            if current is not None and (not here or here[0].offset > 0):
                metadata[SECTION_CONTINUED] = copy.deepcopy(current)
            if here:
                current = _section(here[-1].label, here[-1].path)
        keys.append(metadata)
    return keys


def report_keys(document: DocumentPages) -> dict[str, str]:
    """What reading a loader's PDF pages had (``reading.loaded_pdf``), as the scalar keys
    that reach every chunk: the structure source, the outline's file or why none."""
    report: dict[str, str] = {SECTIONS_FROM: document.structure or "none"}
    pdf_file = document.report.pdf_file
    if pdf_file is not None and pdf_file.path is not None:
        report[OUTLINE_FILE] = pdf_file.path
    if pdf_file is not None and pdf_file.problem is not None:
        report[OUTLINE_MISSING] = pdf_file.problem
    return report


def pages_apart(document: DocumentPages) -> dict[int, DocumentPages]:
    """Each page of ``document`` as a document of its own, by page number: the sections
    it has in the whole (the one continued from an earlier page, at its start, then those
    starting on it) and the whole's report. The splitter's way of chunking a source: each
    page on its own, its structure decided once, for the whole."""
    if len(document.pages) == 1:
        return {document.pages[0].page: document}
    parts: dict[int, DocumentPages] = {}
    starts = document.starts() or ()
    current: SectionStart | None = None
    for page in document.pages:
        here = [start for start in starts if start.page == page.page]
        own = [_on_its_page(start) for start in here]
        if current is not None and (not here or here[0].offset > 0):
            own.insert(
                0, SectionStart(page.page, 0, current.label, current.path, None, current.fields)
            )
        current = here[-1] if here else current
        alone = replace(document, pages=(page,), sections=None, leads=None)
        parts[page.page] = replace(alone, sections=tuple(spans_in(alone.text, own)))
    return parts


def _on_its_page(start: SectionStart) -> SectionStart:
    """``start`` without where its titles end when that is on a later page."""
    if start.title_end is None or start.title_end[0] == start.page:
        return start
    return replace(start, title_end=None)


def _start_keys(start: SectionStart) -> dict[str, Any]:
    keys = {"offset": start.offset, **_section(start.label, start.path)}
    if start.title_end is not None and start.title_end[0] == start.page:
        keys["title_end"] = start.title_end[1]
    return keys


def _integer(value: Any) -> int | None:
    """``value`` when it is an int (a bool is not), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _title_end(item: Mapping[str, Any], offset: int, page: LoadedPage) -> tuple[int, int] | None:
    """The page's ``(number, offset)`` where the start's titles end, when it says so."""
    title_end = _integer(item.get("title_end"))
    if title_end is None or not offset <= title_end <= len(page.text):
        return None
    return page.page, title_end


def _starts(metadata: Mapping[str, Any], page: LoadedPage, where: str) -> list[SectionStart]:
    """The page's section starts, checked against its text."""
    starts = []
    for item in metadata.get(SECTION_STARTS) or ():
        offset = _integer(item.get("offset")) if isinstance(item, Mapping) else None
        if offset is None or not 0 <= offset < len(page.text):
            raise InvalidSectionsError(
                f"metadata[{SECTION_STARTS!r}] holds {item!r}, whose offset is not a "
                f"position of the page's text ({len(page.text)} characters); the text changed "
                f"after loading: drop {SECTION_STARTS!r}, or load the pages again.",
                source=str(where),
            )
        label, path = str(item.get("label") or ""), tuple(item.get("path") or ())
        starts.append(SectionStart(page.page, offset, label, path, _title_end(item, offset, page)))
    if any(later.offset <= earlier.offset for earlier, later in pairwise(starts)):
        raise InvalidSectionsError(
            f"metadata[{SECTION_STARTS!r}] offsets are not increasing: "
            f"{[start.offset for start in starts]}.",
            source=str(where),
        )
    return starts


def source_starts(
    pages: Sequence[LoadedPage], page_metadata: Sequence[Mapping[str, Any]], name: str
) -> list[SectionStart] | None:
    """Where a source's sections start, from its pages' metadata, checked: the section
    its first page continues (``SECTION_CONTINUED``, a source that starts mid-document),
    then those starting on each page.

    Returns ``None`` when no page carries ``SECTION_STARTS`` (the reading stage then
    follows the source's kind).

    Raises:
        InvalidSectionsError: an offset outside its page's text, or offsets not
            increasing.
    """
    if not any(SECTION_STARTS in metadata for metadata in page_metadata):
        return None
    starts = [
        start
        for page, metadata in zip(pages, page_metadata, strict=True)
        for start in _starts(metadata, page, f"{name}, page {page.page}")
    ]
    continued = page_metadata[0].get(SECTION_CONTINUED) if page_metadata else None
    first = pages[0].page if pages else 1
    opening = [start for start in starts if start.page == first]
    if isinstance(continued, Mapping) and (not opening or opening[0].offset > 0):
        label, path = str(continued.get("label") or ""), tuple(continued.get("path") or ())
        starts.insert(0, SectionStart(first, 0, label, path))
    return starts
