"""A file named ``.pdf`` that is not a PDF: what it holds instead, told by its first bytes.

A web page saved under a ``.pdf`` name, a text file or a ``.docx`` (a ZIP archive) would
otherwise be called damaged and sent to ``qpdf``; ``not_a_pdf`` names what it looks like
and the fix. Only a file pypdf could not open is looked at: a PDF opens before this runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from langchain_asesoria.errors import UnsupportedFileError

#: Bytes read from the start of a file: PDF readers accept the ``%PDF-`` header within
#: the first 1024 bytes.
HEAD_BYTES: Final = 1024

_PDF_HEADER: Final = b"%PDF-"

#: First bytes (after a byte order mark and blanks, lower case) -> what the file holds,
#: and what to do. The first row that matches wins.
_SIGNATURES: Final[tuple[tuple[tuple[bytes, ...], str, str], ...]] = (
    (
        (b"pk\x03\x04", b"pk\x05\x06"),
        "a ZIP archive (a .zip, or a .docx, .xlsx or .odt document)",
        "export it as PDF from the program that made it",
    ),
    (
        (b"<!doctype html", b"<html", b"<head", b"<body"),
        "an HTML page (a web page saved under a .pdf name)",
        "rename it to .html, which is read as a web page, or download the PDF itself",
    ),
    ((b"<?xml",), "XML", "rename it to .xml if it is a BOE law's XML, or get the PDF itself"),
    (
        (b"\x89png", b"\xff\xd8\xff", b"gif8", b"ii*\x00", b"mm\x00*"),
        "an image",
        "turn it into a PDF with OCR, for example `ocrmypdf image.png out.pdf`",
    ),
)

_TEXT: Final = ("plain text", "rename it to .txt (or .md if it is Markdown)")
_EMPTY: Final = ("nothing (0 bytes)", "download or export the PDF again")
_OTHER: Final = ("data of another kind", "check that it is the document you meant")


def what_it_holds(head: bytes) -> tuple[str, str] | None:
    """What a file whose first bytes are ``head`` holds and the fix, or ``None`` for a
    PDF (``%PDF-`` within its first ``HEAD_BYTES`` bytes: a damaged PDF stays damaged)."""
    if _PDF_HEADER in head[:HEAD_BYTES]:
        return None
    start = head.removeprefix(b"\xef\xbb\xbf").lstrip().lower()
    if not start:
        return _EMPTY if not head else _TEXT
    for prefixes, holds, fix in _SIGNATURES:
        if start.startswith(prefixes):
            return holds, fix
    if b"\x00" in head:
        return _OTHER
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:  # text, unless more than a character cut at the end
        return _TEXT if error.start >= len(head) - 3 else _OTHER
    return _TEXT


def not_a_pdf(path: str | Path | bytes, label: str) -> UnsupportedFileError | None:
    """The error of a ``.pdf`` that pypdf could not open and that is not a PDF at all,
    or ``None`` when it is one (damaged) or cannot be read again."""
    try:
        head = path[:HEAD_BYTES] if isinstance(path, bytes) else _head(Path(path))
    except OSError:
        return None
    found = what_it_holds(head)
    if found is None:
        return None
    holds, fix = found
    return UnsupportedFileError(
        f"not a PDF: the file holds {holds}, not PDF data (no %PDF- header); {fix}.",
        source=label,
        expected="a PDF",
    )


def _head(path: Path) -> bytes:
    with path.open("rb") as file:
        return file.read(HEAD_BYTES)
