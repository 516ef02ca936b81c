"""Documents on disk read into ``LoadedPage`` values: PDF per page, Markdown and text whole.

A file's kind comes from its extension (``FILE_KINDS``). Text and Markdown are one page:
the file's text as ``read_text`` returns it (UTF-8, a leading byte-order mark dropped,
line endings as in the file), so a chunk's offsets are positions in ``read_text(path)``;
a Markdown file's YAML front matter is blanked (``front_matter``), never chunked. A PDF
is its pages' extracted text, numbered from 1 (``pypdf``, the ``pdf`` extra). Every
failure names the file and says what to do::

    DocumentReadError (AsesoriaError, OSError)   a file that cannot be read as a document
    ├── UnsupportedFileError                     an extension with no reader
    ├── EncryptedDocumentError                   a PDF that needs a password
    ├── DamagedDocumentError                     a truncated or corrupt PDF
    ├── NoTextLayerError                         a PDF with no extractable text (scanned)
    ├── NoPagesError                             a PDF with no pages at all
    └── TextEncodingError (also UnicodeError)    a text file that is not UTF-8

This module never imports LangChain.
"""

from __future__ import annotations

import codecs
import importlib
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Literal

from langchain_asesoria.errors import (
    DamagedDocumentError,
    DocumentReadError,
    EncryptedDocumentError,
    MissingDependencyError,
    NoPagesError,
    NoTextLayerError,
    TextEncodingError,
    UnsupportedFileError,
)
from langchain_asesoria.front_matter import blank_front_matter
from langchain_asesoria.models import LoadedPage

if TYPE_CHECKING:
    from pypdf import PdfReader

__all__ = [
    "FILE_KINDS",
    "DamagedDocumentError",
    "DocumentReadError",
    "EncryptedDocumentError",
    "FileKind",
    "NoPagesError",
    "NoTextLayerError",
    "TextEncodingError",
    "UnsupportedFileError",
    "blank_front_matter",
    "file_kind",
    "iter_pages",
    "no_text_layer",
    "open_pdf",
    "page_count",
    "page_text",
    "read_pages",
    "read_text",
]

FileKind = Literal["pdf", "markdown", "text"]

#: Extension (lower case) -> kind of document.
FILE_KINDS: dict[str, FileKind] = {
    ".pdf": "pdf",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
}

_PDF_EXTRA = "pip install 'langchain-asesoria[pdf]'"


def file_kind(path: Path) -> FileKind:
    """The kind of document a path holds, by its extension.

    Raises:
        UnsupportedFileError: an extension missing from ``FILE_KINDS``.
    """
    kind = FILE_KINDS.get(path.suffix.lower())
    if kind is None:
        supported = ", ".join(sorted(FILE_KINDS))
        raise UnsupportedFileError(
            f"{path}: unsupported file type {path.suffix or '(no extension)'!r}; "
            f"supported: {supported}."
        )
    return kind


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
        raise DocumentReadError(f"{path}: cannot read the file: {reason}.") from error
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        name = "UTF-8" if codecs.lookup(encoding).name == "utf-8" else encoding
        raise TextEncodingError(
            f"{path}: not valid {name} (byte {data[error.start]:#04x} at position "
            f"{error.start}); convert it first, for example "
            f"`iconv -f latin1 -t utf-8 {path.name} > {path.stem}.utf8{path.suffix}`."
        ) from error
    return text.removeprefix("\ufeff")


def _iter_text(path: Path) -> Iterator[LoadedPage]:
    yield LoadedPage(read_text(path), 1, str(path))


def _iter_markdown(path: Path) -> Iterator[LoadedPage]:
    yield LoadedPage(blank_front_matter(read_text(path)), 1, str(path))


def _pypdf() -> ModuleType:
    try:
        return importlib.import_module("pypdf")
    except ImportError as error:
        raise MissingDependencyError(
            f"reading PDF files needs pypdf and cryptography: {_PDF_EXTRA}."
        ) from error


def open_pdf(path: str | Path, password: str | None = None) -> PdfReader:
    """A ``pypdf.PdfReader``, decrypted with ``password`` (default: the empty one).

    Raises:
        DocumentReadError: no such file.
        DamagedDocumentError: pypdf cannot parse it.
        EncryptedDocumentError: encrypted with another password.
        MissingDependencyError: pypdf, or cryptography for AES, is not installed.
    """
    path = Path(path)
    pypdf = _pypdf()
    errors = importlib.import_module("pypdf.errors")
    try:
        reader: PdfReader = pypdf.PdfReader(path)
    except FileNotFoundError as error:
        raise DocumentReadError(f"{path}: no such file.") from error
    except NotImplementedError as error:  # an encryption handler pypdf does not know
        raise _unsupported_encryption(path, error) from error
    except (PermissionError, IsADirectoryError) as error:  # not a damaged PDF
        reason = error.strerror or error
        raise DocumentReadError(f"{path}: cannot read the file: {reason}.") from error
    except (errors.PyPdfError, OSError, ValueError) as error:
        raise _damaged(path, error) from error
    if reader.is_encrypted:
        try:
            decrypted = reader.decrypt(password or "")
        except errors.DependencyError as error:
            raise MissingDependencyError(
                f"{path}: this PDF is AES-encrypted; decrypting it needs cryptography: "
                f"{_PDF_EXTRA}."
            ) from error
        except NotImplementedError as error:
            raise _unsupported_encryption(path, error) from error
        if not decrypted:
            given = "the given password does not open it" if password else "it needs one"
            raise EncryptedDocumentError(
                f"{path}: the PDF is encrypted with a password and {given}; decrypt it "
                "first, for example `qpdf --password=PASSWORD --decrypt in.pdf out.pdf`."
            )
    try:
        len(reader.pages)  # parses the page tree now, not halfway through a caller's loop
    # pypdf raises many unrelated types on a broken page tree.
    except Exception as error:
        raise _damaged(path, error) from error
    return reader


def _damaged(path: Path, error: BaseException) -> DamagedDocumentError:
    return DamagedDocumentError(
        f"{path}: damaged or truncated PDF ({type(error).__name__}: {error}); re-download "
        "it or repair it (for example with `qpdf in.pdf out.pdf`)."
    )


def _unsupported_encryption(path: Path, error: BaseException) -> EncryptedDocumentError:
    return EncryptedDocumentError(
        f"{path}: the PDF is encrypted with a method pypdf does not support ({error}); "
        "decrypt it first, for example `qpdf --decrypt in.pdf out.pdf`."
    )


def page_text(
    reader: PdfReader,
    index: int,
    path: str | Path,
    mode: Literal["plain", "layout"] = "plain",
    visitor: Callable[..., None] | None = None,
) -> str:
    """The extracted text of page ``index`` (0-based) of an open PDF.

    ``visitor`` is pypdf's ``visitor_text``: called with each piece of text as it is
    extracted, with its matrices (``text, cm, tm, font, size``); plain mode only.

    Raises:
        DamagedDocumentError: the page's content cannot be extracted.
    """
    try:
        return reader.pages[index].extract_text(extraction_mode=mode, visitor_text=visitor) or ""
    # pypdf raises many unrelated types on damaged content streams.
    except Exception as error:
        raise DamagedDocumentError(
            f"{path}: cannot extract the text of page {index + 1} ({type(error).__name__}: "
            f"{error}); the PDF is damaged: repair it (for example `qpdf in.pdf out.pdf`)."
        ) from error


def _iter_pdf(path: Path) -> Iterator[LoadedPage]:
    reader = open_pdf(path)
    pages = reader.pages
    found_text = False
    for index in range(len(pages)):
        text = page_text(reader, index, path)
        number = index + 1
        found_text = found_text or bool(text.strip())
        yield LoadedPage(text, number, str(path))
    if not found_text:
        raise no_text_layer(path, len(pages))


def no_text_layer(path: str | Path, pages: int) -> NoTextLayerError | NoPagesError:
    """The error of a PDF whose ``pages`` pages hold no extractable text (``NoPagesError``
    for a PDF without pages)."""
    if not pages:
        return NoPagesError(path)
    return NoTextLayerError(
        f"{path}: none of its {pages} pages holds extractable text (a scanned PDF?); run "
        "OCR first, for example `ocrmypdf in.pdf out.pdf`."
    )


_READERS: dict[FileKind, Callable[[Path], Iterator[LoadedPage]]] = {
    "pdf": _iter_pdf,
    "markdown": _iter_markdown,
    "text": _iter_text,
}


def iter_pages(path: str | Path) -> Iterator[LoadedPage]:
    """Yields a document's pages one by one (for progress), numbered from 1.

    Pages carry ``source=str(path)``. A text or Markdown file is one page, the text of
    ``read_text``; Markdown front matter is blanked (``blank_front_matter``). A PDF
    page without text is yielded with empty text, so page numbers stay those of the PDF.

    Raises:
        DocumentReadError: the file cannot be read (one of the subclasses above), raised
            before the first page or, for damage found late, while iterating.
        MissingDependencyError: a PDF without the ``pdf`` extra installed.
    """
    path = Path(path)
    reader = _READERS[file_kind(path)]
    if not path.is_file():
        raise DocumentReadError(f"{path}: no such file.")
    return reader(path)


def read_pages(path: str | Path) -> list[LoadedPage]:
    """All of a document's pages (see ``iter_pages``): ready for ``chunk_document``."""
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
