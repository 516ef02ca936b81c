"""Opening a PDF with pypdf and extracting a page's text, each failure a typed error.

``pypdf`` (the ``pdf`` extra) is imported when a PDF is first opened; AES-encrypted PDFs
also need ``cryptography``.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable
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
)
from langchain_asesoria.pdf.not_pdf import not_a_pdf

if TYPE_CHECKING:
    from pypdf import PdfReader

_PDF_EXTRA = "pip install 'langchain-asesoria[pdf]'"


def _pypdf() -> ModuleType:
    try:
        return importlib.import_module("pypdf")
    except ImportError as error:
        raise MissingDependencyError(
            f"reading PDF files needs pypdf and cryptography: {_PDF_EXTRA}."
        ) from error


def open_pdf(
    path: str | Path | bytes, password: str | None = None, *, name: str | None = None
) -> PdfReader:
    """A ``pypdf.PdfReader``, decrypted with ``password`` (default: the empty one).

    ``path`` may be the PDF's bytes (an upload read once); errors then name ``name``.

    Raises:
        DocumentReadError: no such file.
        DamagedDocumentError: pypdf cannot parse it.
        UnsupportedFileError: it is not a PDF at all (text, HTML, a ZIP archive).
        EncryptedDocumentError: encrypted with another password.
        MissingDependencyError: pypdf, or cryptography for AES, is not installed.
    """
    stream = io.BytesIO(path) if isinstance(path, bytes) else Path(path)
    label = name or ("the PDF's bytes" if isinstance(path, bytes) else str(stream))
    pypdf = _pypdf()
    errors = importlib.import_module("pypdf.errors")
    try:
        reader: PdfReader = pypdf.PdfReader(stream)
    except FileNotFoundError as error:
        raise DocumentReadError("no such file.", source=label) from error
    except NotImplementedError as error:  # an encryption handler pypdf does not know
        raise _unsupported_encryption(label, error) from error
    except (PermissionError, IsADirectoryError) as error:  # not a damaged PDF
        reason = error.strerror or error
        raise DocumentReadError(f"cannot read the file: {reason}.", source=label) from error
    except (errors.PyPdfError, OSError, ValueError) as error:
        raise (not_a_pdf(path, label) or _damaged(label, error)) from error
    if reader.is_encrypted:
        try:
            decrypted = reader.decrypt(password or "")
        except errors.DependencyError as error:
            raise MissingDependencyError(
                f"this PDF is AES-encrypted; decrypting it needs cryptography: {_PDF_EXTRA}.",
                source=label,
            ) from error
        except NotImplementedError as error:
            raise _unsupported_encryption(label, error) from error
        if not decrypted:
            given = "the given password does not open it" if password else "it needs one"
            raise EncryptedDocumentError(
                f"the PDF is encrypted with a password and {given}; decrypt it "
                "first, for example `qpdf --password=PASSWORD --decrypt in.pdf out.pdf`.",
                source=label,
            )
    try:
        len(reader.pages)  # parses the page tree now, not halfway through a caller's loop
    # pypdf raises many unrelated types on a broken page tree.
    except Exception as error:
        raise _damaged(label, error) from error
    return reader


def _damaged(path: str, error: BaseException) -> DamagedDocumentError:
    return DamagedDocumentError(
        f"damaged or truncated PDF ({type(error).__name__}: {error}); re-download "
        "it or repair it (for example with `qpdf in.pdf out.pdf`).",
        source=path,
    )


def _unsupported_encryption(path: str, error: BaseException) -> EncryptedDocumentError:
    return EncryptedDocumentError(
        f"the PDF is encrypted with a method pypdf does not support ({error}); "
        "decrypt it first, for example `qpdf --decrypt in.pdf out.pdf`.",
        source=path,
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
            f"cannot extract the text of page {index + 1} ({type(error).__name__}: "
            f"{error}); the PDF is damaged: repair it (for example `qpdf in.pdf out.pdf`).",
            source=str(path),
        ) from error


def no_text_layer(path: str | Path, pages: int) -> NoTextLayerError | NoPagesError:
    """The error of a PDF whose ``pages`` pages hold no extractable text (``NoPagesError``
    for a PDF without pages)."""
    if not pages:
        return NoPagesError(
            "the PDF has no pages; export it again from the program that made it, or check "
            "that it is the document you meant.",
            source=str(path),
        )
    return NoTextLayerError(
        f"none of its {pages} pages holds extractable text (a scanned PDF?); run OCR first, "
        "for example `ocrmypdf in.pdf out.pdf`.",
        source=str(path),
    )
