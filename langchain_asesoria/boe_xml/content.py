"""A wording's XML (``<version>``'s children) as paragraphs, tables and notes.

Text is what a reader of the BOE's page sees: inline markup (``<a>``, ``<strong>``,
``<em>``, ``<span>``) gives its text, an ``<img>`` the visible ``IMAGE`` placeholder, a
``<br/>`` a line break (a space inside a table's cell: a row is one line), and runs of XML
whitespace (the file's indentation) one space. No character of text is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import date
from typing import TYPE_CHECKING, Final

from langchain_asesoria.boe_xml.model import IMAGE, Content, Note, Paragraph, Table

if TYPE_CHECKING:
    from lxml.etree import _Element

#: Between a row's cells.
CELL_SEPARATOR: Final = " | "
#: Between the rows of a table inside a cell (the cell stays on its row's line).
NESTED_ROW_SEPARATOR: Final = "; "

#: Elements that hold paragraphs of their own: read child by child, never as one.
_CONTAINERS: Final = frozenset({"div", "section", "article", "blockquote", "ul", "ol"})
#: Elements that are paragraphs of a wording (anything else with text is read as one).
_BLOCKS: Final = frozenset({"p", "table", *_CONTAINERS})
#: A blockquote's class that names the first day it is no longer shown.
_NOT_FROM: Final = re.compile(r"noDesde(\d{8})")
#: XML whitespace: the file's indentation, never a character of the text.
_XML_SPACE: Final = re.compile(r"[ \t\r\n]+")

#: Reads a note's ``YYYYMMDD`` (its ``caduca``, or the class's day) for ``what``.
DayReader = Callable[[str, str], date]

_BREAK: Final = None


def read_content(element: _Element, read_day: DayReader) -> tuple[Content, ...]:
    """The paragraphs, tables and notes of ``element``'s children, in order.

    Children with no text and no image (an empty ``<p/>``) give nothing.
    """
    items: list[Content] = []
    for child in element:
        if not isinstance(child.tag, str):
            continue
        items.extend(_items(child, read_day))
    return tuple(items)


def _table_item(element: _Element, _: DayReader) -> Iterator[Content]:
    table = _table(element)
    if table.header or table.rows or table.caption:
        yield table


def _note_item(element: _Element, read_day: DayReader) -> Iterator[Content]:
    yield _note(element, read_day)


def _image_item(element: _Element, _: DayReader) -> Iterator[Content]:
    yield Paragraph(IMAGE, element.get("class"), 1)


#: The elements of a wording that are not read as a paragraph, and how they are read.
_ITEMS: Final[dict[str, Callable[[_Element, DayReader], Iterator[Content]]]] = {
    "table": _table_item,
    "blockquote": _note_item,
    "img": _image_item,
}


def _items(element: _Element, read_day: DayReader) -> Iterator[Content]:
    reader = _ITEMS.get(str(element.tag))
    if reader is not None:
        yield from reader(element, read_day)
    elif element.tag in _CONTAINERS or any(child.tag in _BLOCKS for child in element):
        yield from read_content(element, read_day)
    else:
        paragraph = _paragraph(element)
        if paragraph.text:
            yield paragraph


def _note(element: _Element, read_day: DayReader) -> Note:
    css_class = element.get("class")
    expires: date | None = None
    caduca = element.get("caduca")
    not_from = _NOT_FROM.fullmatch(css_class or "")
    if caduca is not None:
        expires = read_day(caduca, "caduca")
    elif not_from is not None:
        expires = read_day(not_from.group(1), f"class {css_class}")
    return Note(read_content(element, read_day), css_class, expires)


def _paragraph(element: _Element) -> Paragraph:
    lines = _lines(_fragments(element, flat=False))
    return Paragraph("\n".join(lines), element.get("class"), _image_count(element))


def _image_count(element: _Element) -> int:
    return sum(1 for _ in element.iter("img"))


def _fragments(element: _Element, *, flat: bool) -> Iterator[str | None]:
    """``element``'s text in order, ``_BREAK`` at a line break (``flat``: a space)."""
    if element.text:
        yield element.text
    for child in element:
        if isinstance(child.tag, str):
            yield from _INLINE.get(child.tag, _inline_element)(child, flat)
        if child.tail:
            yield child.tail


def _edge(flat: bool) -> str | None:
    return " " if flat else _BREAK


def _inline_image(_: _Element, __: bool) -> Iterator[str | None]:
    yield f" {IMAGE} "


def _inline_break(_: _Element, flat: bool) -> Iterator[str | None]:
    yield _edge(flat)


def _inline_table(element: _Element, _: bool) -> Iterator[str | None]:
    yield f" {NESTED_ROW_SEPARATOR.join(_table(element).rows)} "


def _inline_element(element: _Element, flat: bool) -> Iterator[str | None]:
    """An element's text; a paragraph-like one (``_BLOCKS``) on lines of its own."""
    block = element.tag in _BLOCKS
    if block:
        yield _edge(flat)
    yield from _fragments(element, flat=flat)
    if block:
        yield _edge(flat)


#: Inline elements that are not read for their text, and what they give.
_INLINE: Final[dict[str, Callable[[_Element, bool], Iterator[str | None]]]] = {
    "img": _inline_image,
    "br": _inline_break,
    "table": _inline_table,
}


def _lines(fragments: Iterator[str | None]) -> list[str]:
    """The non-empty lines of ``fragments``, XML whitespace collapsed, each stripped."""
    lines: list[str] = []
    current: list[str] = []
    for fragment in [*fragments, _BREAK]:
        if fragment is not _BREAK:
            current.append(fragment)
            continue
        line = _XML_SPACE.sub(" ", "".join(current)).strip()
        if line:
            lines.append(line)
        current = []
    return lines


def _flat(element: _Element) -> str:
    """``element``'s text on one line."""
    return " ".join(_lines(_fragments(element, flat=True)))


def _cells(row: _Element) -> tuple[list[str], bool]:
    """A row's cells' texts, and whether all of them are header cells (``<th>``)."""
    cells = [child for child in row if child.tag in ("td", "th")]
    texts = [_flat(cell) for cell in cells]
    return texts, bool(cells) and all(cell.tag == "th" for cell in cells)


def _row_line(texts: list[str]) -> str:
    return CELL_SEPARATOR.join(texts).strip() if any(texts) else ""


def _rows(element: _Element, *, in_head: bool) -> Iterator[tuple[str, bool]]:
    """``(line, header)`` of each row of ``element``, its sections' rows in order."""
    for child in element:
        if child.tag == "tr":
            texts, all_th = _cells(child)
            line = _row_line(texts)
            if line:
                yield line, in_head or all_th
        elif child.tag in ("thead", "tbody", "tfoot"):
            yield from _rows(child, in_head=child.tag == "thead")


def _table(element: _Element) -> Table:
    caption_element = element.find("caption")
    caption = _flat(caption_element) if caption_element is not None else ""
    rows = list(_rows(element, in_head=False))
    # a header is the rows before the first body row; a header row after it is a row
    first_body = next((i for i, (_, header) in enumerate(rows) if not header), len(rows))
    return Table(
        caption or None,
        tuple(line for line, _ in rows[:first_body]),
        tuple(line for line, _ in rows[first_body:]),
        element.get("class"),
        _image_count(element),
    )
