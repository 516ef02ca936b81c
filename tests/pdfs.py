"""Small real PDFs written for tests: pages of text lines and an outline (pypdf)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field

from pypdf import PdfWriter
from pypdf.generic import (
    DecodedStreamObject,
    DictionaryObject,
    NameObject,
    TextStringObject,
)

__all__ = ["Bookmark", "outlined_pdf"]


@dataclass(frozen=True)
class Bookmark:
    """An outline entry: its title, its 0-based page (``None``: a web link), children."""

    title: str
    page: int | None
    children: Sequence[Bookmark] = field(default_factory=tuple)


def _escape(line: str) -> bytes:
    raw = line.encode("cp1252")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _content(lines: Sequence[str]) -> bytes:
    shown = b" T* ".join(b"(" + _escape(line) + b") Tj" for line in lines)
    return b"BT /F1 11 Tf 14 TL 56 780 Td " + shown + b" ET"


def _add(writer: PdfWriter, bookmark: Bookmark, parent: object | None) -> None:
    if bookmark.page is None:
        link = DictionaryObject(
            {
                NameObject("/Title"): TextStringObject(bookmark.title),
                NameObject("/A"): DictionaryObject(
                    {
                        NameObject("/S"): NameObject("/URI"),
                        NameObject("/URI"): TextStringObject("https://www.boe.es"),
                    }
                ),
            }
        )
        item = writer.add_outline_item_dict(link, parent=parent)
    else:
        item = writer.add_outline_item(
            title=bookmark.title, page_number=bookmark.page, parent=parent
        )
    for child in bookmark.children:
        _add(writer, child, item)


def outlined_pdf(pages: Sequence[Sequence[str]], outline: Sequence[Bookmark] = ()) -> bytes:
    """A PDF whose pages show the given lines (Helvetica, WinAnsi) top to bottom."""
    writer = PdfWriter()
    font = writer._add_object(
        DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica"),
                NameObject("/Encoding"): NameObject("/WinAnsiEncoding"),
            }
        )
    )
    for lines in pages:
        page = writer.add_blank_page(595, 842)
        stream = DecodedStreamObject()
        stream.set_data(_content(lines))
        page[NameObject("/Contents")] = writer._add_object(stream)
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})}
        )
    for bookmark in outline:
        _add(writer, bookmark, None)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
