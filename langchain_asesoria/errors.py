"""The library's errors: one root, each leaf also the builtin a caller would catch.

    AsesoriaError
    ├── ConfigurationError (ValueError)       settings and budgets that cannot work
    │   ├── MissingSettingError               a required setting was not given
    │   ├── ModelLimitError                   a budget above the model's real input limit
    │   └── FieldsError                       bad document fields of one file (command line)
    ├── InvalidPagesError (ValueError)        pages out of order, duplicated, mixed, not positive
    ├── InvalidSectionsError (ValueError)     spans out of order, overlapping or out of range
    ├── BudgetError (ValueError)              something that cannot fit the token budget
    │   ├── ContextTooLongError               prefix + section context alone fill the budget
    │   └── IndivisibleCharacterError         one character that cannot fit even alone
    ├── PrivacyError (ValueError)             a private document without a session id
    ├── UsageError (ValueError)               command-line arguments that cannot be run
    ├── TokenizerLoadError (OSError)          a tokenizer that cannot be found or read
    ├── DocumentReadError (OSError)           a file that cannot be read as a document
    │   ├── UnsupportedFileError              an extension with no reader, a .pdf not a PDF
    │   ├── EncryptedDocumentError            a PDF that needs a password
    │   ├── DamagedDocumentError              a truncated or corrupt PDF
    │   ├── NoTextLayerError                  a PDF with no extractable text (scanned)
    │   ├── NoPagesError                      a PDF with no pages at all
    │   ├── TextEncodingError (UnicodeError)  a text file that is not UTF-8
    │   └── LawXmlError                       a BOE consolidated law's XML that cannot be read
    │       ├── NotBoeResponseError           not the BOE's answer for a law's text or metadata
    │       ├── DamagedXmlError               XML cut short or not well formed (line, column)
    │       ├── BlockWithoutVersionsError     a block of the law with no wording at all
    │       └── LawDateError (ValueError)     a date of the law that does not parse
    ├── LawFetchError (OSError)               a law the BOE's open-data API did not give
    │   ├── LawNotFoundError                  the BOE has no consolidated law with that id
    │   └── BoeUnreachableError               no answer: network down, timeout, retries spent
    ├── MissingDependencyError (ImportError)  an optional extra that is not installed
    ├── OutputError (OSError)                 a command's output cannot be written
    ├── StrictModeError                       ``asesoria-split --strict``: a file failed
    └── DocumentChunkingError (RuntimeError)  an unexpected failure chunking one document

    OutlineUnavailableWarning (UserWarning)   a loader's PDF chunked without its outline

The retrieval evaluation, its own distribution (``langchain-asesoria-eval``), adds two
leaves in ``langchain_asesoria_eval.errors``: ``QuestionFileError`` (a ``UsageError``)
and ``SetupUnavailableError`` (a ``TokenizerLoadError``).

Every error carries its context as attributes, and its message is built from them:

- ``source``: the document it is about, as the caller named it (a file's path, a
  LangChain source); ``doc_id``: its ``doc_id`` when no source is known;
- ``page``: the page (1-based), ``position``: the character offset (in the document's
  joined text, or in the named page; in a file that is not a document, such as a
  sidecar, in the file; in the line a ``"file:line"`` source names, the column from 0),
  ``expected``: what would have worked;
- ``detail``: what went wrong and how to fix it;
- a BOE law's errors also ``law_id`` (``"BOE-A-2003-23514"``) and, when one block is at
  fault, ``block_id`` (``"a48"``); a download's, ``url`` and the HTTP ``status``.

``str(error)`` is ``"<source>: <detail>"`` (``"document '<doc_id>': <detail>"`` without
a source, ``detail`` alone without either). Callers read the attributes, never the
message: an adapter that knows the source an engine error is about fills it in with
``error.with_context(source=...)``, which never overwrites what the error knows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = [
    "AsesoriaError",
    "BlockWithoutVersionsError",
    "BoeUnreachableError",
    "BudgetError",
    "ConfigurationError",
    "ContextTooLongError",
    "DamagedDocumentError",
    "DamagedXmlError",
    "DocumentChunkingError",
    "DocumentReadError",
    "EncryptedDocumentError",
    "FieldsError",
    "IndivisibleCharacterError",
    "InvalidPagesError",
    "InvalidSectionsError",
    "LawDateError",
    "LawFetchError",
    "LawNotFoundError",
    "LawXmlError",
    "MissingDependencyError",
    "MissingSettingError",
    "ModelLimitError",
    "NoPagesError",
    "NoTextLayerError",
    "NotBoeResponseError",
    "OutlineUnavailableWarning",
    "OutputError",
    "PrivacyError",
    "StrictModeError",
    "TextEncodingError",
    "TokenizerLoadError",
    "UnsupportedFileError",
    "UsageError",
]


class AsesoriaError(Exception):
    """Root of every error raised on purpose by langchain-asesoria.

    Args:
        detail: What went wrong and how to fix it (without the source: it is added).
        source: The document the error is about, as the caller named it.
        doc_id: The document's ``doc_id``, shown when no ``source`` is known.
        page: The page (1-based) where it happened.
        position: The character offset where it happened.
        expected: What would have worked (a type, a range, a kind of file).

    Invariant: ``str(error)`` is built from these attributes alone, and an error survives
    pickling (worker processes) with all of them.
    """

    detail: str
    source: str | None
    doc_id: str | None
    page: int | None
    position: int | None
    expected: str | None

    def __init__(
        self,
        detail: str = "",
        *,
        source: str | None = None,
        doc_id: str | None = None,
        page: int | None = None,
        position: int | None = None,
        expected: str | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.source = source
        self.doc_id = doc_id
        self.page = page
        self.position = position
        self.expected = expected

    @property
    def where(self) -> str | None:
        """The document as messages name it: its source, else its ``doc_id``."""
        if self.source is not None:
            return self.source
        if self.doc_id is not None:
            return f"document {self.doc_id!r}"
        return None

    def __str__(self) -> str:
        where = self.where
        return f"{where}: {self.detail}" if where is not None else self.detail

    def with_context(
        self,
        *,
        source: str | None = None,
        doc_id: str | None = None,
        page: int | None = None,
    ) -> Self:
        """This error with the context it lacks filled in; what it knows is kept.

        Returns the error itself (re-raise it with ``raise error.with_context(...)``).
        """
        if self.source is None:
            self.source = source
        if self.doc_id is None:
            self.doc_id = doc_id
        if self.page is None:
            self.page = page
        return self


class ConfigurationError(AsesoriaError, ValueError):
    """A configuration value that cannot work (budget, overlap, limit, separator)."""


class MissingSettingError(ConfigurationError):
    """A setting the library will not guess was not given (named in the message)."""


class ModelLimitError(ConfigurationError):
    """A token budget above the embedding model's real input limit."""


class InvalidPagesError(AsesoriaError, ValueError):
    """Pages that are not one document's pages, numbered from 1 upward, in order.

    The LangChain classes raise it, with the same message, for the same bad input (an
    item that is not a ``Document``, a ``page_content`` that is not a ``str`` or holds a
    lone surrogate, a page number that is not one): ``index`` is then the item's
    position in the input (``documents[index]``, or ``texts[index]`` of
    ``create_documents``), ``source`` its ``metadata["source"]`` and ``page`` its
    1-based page when its number is valid; the detail names the index and raw page.
    """

    index: int | None

    def __init__(self, detail: str = "", *, index: int | None = None, **context: Any) -> None:
        super().__init__(detail, **context)
        self.index = index


class InvalidSectionsError(AsesoriaError, ValueError):
    """Section spans out of order, overlapping, empty or outside the joined text."""


class BudgetError(AsesoriaError, ValueError):
    """Something that cannot be made to fit the token budget."""


class ContextTooLongError(BudgetError):
    """The model prefix plus a section's context leave no room for content."""


class IndivisibleCharacterError(BudgetError):
    """A single character whose prepared text exceeds the budget even alone."""


class PrivacyError(AsesoriaError, ValueError):
    """A private document without the session id that isolates it."""


class UsageError(AsesoriaError, ValueError):
    """Command-line arguments that cannot be run (the message says which and the fix)."""


class TokenizerLoadError(AsesoriaError, OSError):
    """A tokenizer that cannot be found, downloaded or read."""


class MissingDependencyError(AsesoriaError, ImportError):
    """An optional dependency that is not installed (the message names the extra)."""


class DocumentReadError(AsesoriaError, OSError):
    """A file that cannot be read as a document (the message names it and the fix)."""


class UnsupportedFileError(DocumentReadError):
    """A file whose extension has no reader, or a ``.pdf`` that is not a PDF at all (text,
    a web page, a ZIP archive: the message says which, ``expected`` is ``"a PDF"``)."""


class EncryptedDocumentError(DocumentReadError):
    """A PDF encrypted with a password (an empty user password is opened silently)."""


class DamagedDocumentError(DocumentReadError):
    """A truncated or corrupt PDF that ``pypdf`` cannot parse."""


class NoTextLayerError(DocumentReadError):
    """A PDF whose pages hold no extractable text: scanned images need OCR first."""


class NoPagesError(DocumentReadError):
    """A PDF whose page tree holds no page at all (nothing to read, not even a scan)."""


class TextEncodingError(DocumentReadError, UnicodeError):
    """A text or Markdown file that is not valid UTF-8."""


class LawXmlError(DocumentReadError):
    """A BOE consolidated law's XML (its ``/texto`` or ``/metadatos`` answer) that cannot
    be read: the message names the file, and the block when one is at fault.

    Attributes:
        law_id: The law's BOE identifier (``"BOE-A-2003-23514"``), when known.
        block_id: The block at fault (``"a48"``), when one is.
    """

    law_id: str | None
    block_id: str | None

    def __init__(
        self,
        detail: str = "",
        *,
        law_id: str | None = None,
        block_id: str | None = None,
        **context: Any,
    ) -> None:
        super().__init__(detail, **context)
        self.law_id = law_id
        self.block_id = block_id


class NotBoeResponseError(LawXmlError):
    """A file or an answer that is not the BOE's ``/texto`` or ``/metadatos`` response
    (another XML, a web page, the API's own error answer saved as a law)."""


class DamagedXmlError(LawXmlError):
    """XML cut short (an interrupted download) or not well formed.

    ``source`` is ``"<file>:<line>"`` and ``position`` the column (from 0) in that line,
    as for every ``file:line`` error; ``line`` holds the line (from 1) too.
    """

    line: int | None

    def __init__(self, detail: str = "", *, line: int | None = None, **context: Any) -> None:
        super().__init__(detail, **context)
        self.line = line


class BlockWithoutVersionsError(LawXmlError):
    """A block (``<bloque>``) with no wording (``<version>``): nothing says what it held."""


class LawDateError(LawXmlError, ValueError):
    """A date of the law (``fecha_vigencia``, ``fecha_caducidad``...) that is not a real
    day written ``YYYYMMDD``."""


class LawFetchError(AsesoriaError, OSError):
    """A law the BOE's open-data API did not give (the message names the id and the fix).

    Attributes:
        law_id: The identifier asked for.
        url: The address asked.
        status: The HTTP status of the last answer, when there was one.
    """

    law_id: str | None
    url: str | None
    status: int | None

    def __init__(
        self,
        detail: str = "",
        *,
        law_id: str | None = None,
        url: str | None = None,
        status: int | None = None,
        **context: Any,
    ) -> None:
        super().__init__(detail, **context)
        self.law_id = law_id
        self.url = url
        self.status = status


class LawNotFoundError(LawFetchError):
    """The BOE has no consolidated law with that identifier (its answer is 404)."""


class BoeUnreachableError(LawFetchError):
    """The BOE could not be reached, or kept failing: the network is down, the answer
    timed out, or every retry of a 429 or 5xx answer was spent."""


class FieldsError(ConfigurationError):
    """Document fields of one file that cannot be used (sidecar, manifest, duplicate id)."""


class OutputError(AsesoriaError, OSError):
    """The destination of the chunks cannot be written."""


class StrictModeError(AsesoriaError):
    """With ``--strict``, a file failed: the run stops and writes nothing (exit 1)."""


class DocumentChunkingError(AsesoriaError, RuntimeError):
    """An unexpected failure while chunking one document (the message names it).

    Errors the engine raises on purpose (``BudgetError``, ``InvalidPagesError``...)
    already name the document and are re-raised as they are.
    """


class OutlineUnavailableWarning(UserWarning):
    """A loader's PDF whose file cannot be read again for its outline (gone, encrypted,
    another file): its chunks come without the outline's sections. The LangChain classes
    warn with it (and log on ``langchain_asesoria``); give the file with
    ``pdf_files={source: path or bytes}`` (and ``pdf_password=``) to read it."""
