"""Documents on disk as their pages are extracted: a PDF per page, a text file whole.

Nothing is removed or detected here (that is the reading stage's, ``read_document``):
a text or Markdown file is one page, the text of ``read_text`` (UTF-8, a leading
byte-order mark dropped, line endings as in the file), so offsets are positions in
``read_text(path)``; a web page (``.html``) is one page of its markup, as
``read_text`` gives it (``read_document`` reads its text out of it); a PDF is its
pages' extracted text, numbered from 1 (``pypdf``, the ``pdf`` extra), running headers
and footers included. Every failure is a
``DocumentReadError`` naming the file (``error.source``) and saying what to do.
"""

from __future__ import annotations

import codecs
import errno
from collections.abc import Callable, Iterator
from pathlib import Path

from langchain_asesoria.errors import DocumentReadError, TextEncodingError
from langchain_asesoria.models import LoadedPage
from langchain_asesoria.pdf.open import no_text_layer, open_pdf, page_text
from langchain_asesoria.reading.kinds import DocumentKind, file_kind

__all__ = ["iter_pages", "link_loop", "page_count", "read_pages", "read_text"]


def read_text(path: str | Path, encoding: str = "utf-8") -> str:
    """A text or Markdown file's text, as its chunks' offsets count it.

    The file's bytes decoded with ``encoding``, a leading byte-order mark (U+FEFF)
    dropped, line endings kept as they are in the file (``open()`` in text mode would
    turn ``\r\n`` into ``\n`` and shift every later offset). For every chunk ``c``
    that ``asesoria-split``, ``read_pages`` or ``TextFileLoader`` gives for the file::

        read_text(path)[c.start:c.end] == c.text

    Raises:
        DocumentReadError: the file cannot be read.
        TextEncodingError: the bytes are not valid in ``encoding``.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        reason = error.strerror or error
        raise DocumentReadError(f"cannot read the file: {reason}.", source=str(path)) from error
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        name = "UTF-8" if codecs.lookup(encoding).name == "utf-8" else encoding
        utf16 = _utf16_name(data)
        found = utf16 or "latin1"
        saved = " (it is saved as UTF-16)" if utf16 else ""
        raise TextEncodingError(
            f"not valid {name}{saved} (byte {data[error.start]:#04x} at position "
            f"{error.start}); convert it first, for example "
            f"`iconv -f {found} -t utf-8 {path.name} > {path.stem}.utf8{path.suffix}`.",
            source=str(path),
            position=error.start,
            expected=name,
        ) from error
    return text.removeprefix("\ufeff")


def _utf16_name(data: bytes) -> str | None:
    """``iconv``'s name for ``data``'s encoding when it is UTF-16 text: ``utf-16`` with a
    byte-order mark, else ``utf-16le`` or ``utf-16be`` by where a zero byte stands in
    every other position of its start (ASCII characters); ``None`` otherwise."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    head = data[:200]
    if len(head) < 4:
        return None
    if head[1::2].count(0) > len(head) // 3:
        return "utf-16le"
    if head[::2].count(0) > len(head) // 3:
        return "utf-16be"
    return None


def _iter_text(path: Path) -> Iterator[LoadedPage]:
    yield LoadedPage(read_text(path), 1, str(path))


def _iter_pdf(path: Path) -> Iterator[LoadedPage]:
    reader = open_pdf(path)
    pages = reader.pages
    found_text = False
    for index in range(len(pages)):
        text = page_text(reader, index, path)
        found_text = found_text or bool(text.strip())
        yield LoadedPage(text, index + 1, str(path))
    if not found_text:
        raise no_text_layer(path, len(pages))


_READERS: dict[DocumentKind, Callable[[Path], Iterator[LoadedPage]]] = {
    "pdf": _iter_pdf,
    "markdown": _iter_text,
    "text": _iter_text,
    "html": _iter_text,
    "xml": _iter_text,
}


def link_loop(path: Path) -> bool:
    """Whether ``path`` is a symbolic link whose chain of targets comes back to itself."""
    if not path.is_symlink():
        return False
    try:
        path.stat()
    except OSError as error:
        return error.errno == errno.ELOOP
    return False


def _not_a_file(path: Path) -> str:
    """Why ``path``, which is not a regular file, cannot be read."""
    if link_loop(path):
        return "a symbolic link that loops back on itself."
    if path.is_symlink() and not path.exists():
        return "a symbolic link whose target does not exist."
    if path.is_dir():
        return "a folder, not a file."
    return "not a regular file." if path.exists() else "no such file."


def iter_pages(path: str | Path) -> Iterator[LoadedPage]:
    """Yields a document's pages as extracted, one by one (for progress), from 1.

    Pages carry ``source=str(path)``. A text or Markdown file is one page, the text of
    ``read_text`` (its front matter too: ``read_document`` blanks it). A PDF page without
    text is yielded with empty text, so page numbers stay those of the PDF.

    Raises:
        DocumentReadError: the file cannot be read (one of its subclasses), raised
            before the first page or, for damage found late, while iterating.
        MissingDependencyError: a PDF without the ``pdf`` extra installed.
    """
    path = Path(path)
    reader = _READERS[file_kind(path)]
    if not path.is_file():
        raise DocumentReadError(_not_a_file(path), source=str(path))
    return reader(path)


def read_pages(path: str | Path) -> list[LoadedPage]:
    """All of a document's pages as extracted (see ``iter_pages``)."""
    return list(iter_pages(path))


def page_count(path: str | Path) -> int:
    """How many pages ``iter_pages`` will yield, cheaply (a PDF is opened, not extracted).

    Raises:
        DocumentReadError: as ``iter_pages`` (a PDF is opened and decrypted).
    """
    path = Path(path)
    if file_kind(path) != "pdf":
        return 1
    return len(open_pdf(path).pages)
