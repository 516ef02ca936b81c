"""A PDF's outline (bookmarks), read with pypdf into flat entries in outline order.

More: ``docs/design/pdf.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langchain_asesoria.errors import DamagedDocumentError

if TYPE_CHECKING:
    from pypdf import PdfReader


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    """One outline entry.

    Invariant: ``path[-1] == title`` for a titled entry; untitled ancestors are left
    out of ``path``.

    Attributes:
        title: The entry's title, whitespace collapsed ("" when it has none).
        path: Titles from the outermost entry down to this one.
        page: The 1-based number of the page its destination points to, or ``None``.
    """

    title: str
    path: tuple[str, ...]
    page: int | None


def _title(item: Any) -> str:
    raw = getattr(item, "title", None)
    return " ".join(str(raw).split()) if raw is not None else ""


def _page(reader: PdfReader, item: Any, pages: int) -> int | None:
    try:
        index = reader.get_destination_page_number(item)
    # pypdf raises many types on a destination it cannot resolve.
    except Exception:
        return None
    if isinstance(index, int) and 0 <= index < pages:
        return index + 1
    return None


@dataclass(slots=True)
class _Level:
    """One list being walked: its items, its parent's path, its last titled entry's path."""

    items: Iterator[Any]
    parent: tuple[str, ...]
    last: tuple[str, ...]


_END = object()


def _walk(outline: list[Any]) -> Iterator[tuple[Any, tuple[str, ...]]]:
    """``(item, parent path)`` of every item in order, without recursion.

    A list is the children of the item before it in the same list; a list with no item
    before it belongs to the enclosing entry.
    """
    stack = [_Level(iter(outline), (), ())]
    while stack:
        level = stack[-1]
        item = next(level.items, _END)
        if item is _END:
            stack.pop()
        elif isinstance(item, list):
            stack.append(_Level(iter(item), level.last, level.last))
        else:
            title = _title(item)
            level.last = (*level.parent, title) if title else level.parent
            yield item, level.parent


def outline_entries(reader: PdfReader) -> tuple[OutlineEntry, ...]:
    """Every entry of the PDF's outline, flat, in outline order (empty without one).

    Raises:
        DamagedDocumentError: pypdf cannot read the outline; the message says so.
    """
    pages = len(reader.pages)
    try:
        outline = reader.outline
    # pypdf raises many unrelated types on a broken outline tree.
    except Exception as error:
        raise DamagedDocumentError(
            f"the PDF's outline cannot be read ({type(error).__name__}: {error}); its "
            "text can still be read without outline sections."
        ) from error
    entries: list[OutlineEntry] = []
    for item, parent in _walk(list(outline)):
        title = _title(item)
        path = (*parent, title) if title else parent
        entries.append(OutlineEntry(title, path, _page(reader, item, pages)))
    return tuple(entries)
