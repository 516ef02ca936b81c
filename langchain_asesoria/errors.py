"""The library's errors: one root, each leaf also the builtin a caller would catch.

    AsesoriaError
    ├── ConfigurationError (ValueError)       settings and budgets that cannot work
    │   ├── MissingSettingError               a required setting was not given
    │   ├── ModelLimitError                   a budget above the model's real input limit
    │   └── FieldsError *                     bad document fields of one file (command line)
    ├── InvalidPagesError (ValueError)        pages out of order, duplicated, mixed, not positive
    ├── InvalidSectionsError (ValueError)     spans out of order, overlapping or out of range
    ├── BudgetError (ValueError)              something that cannot fit the token budget
    │   ├── ContextTooLongError               prefix + section context alone fill the budget
    │   └── IndivisibleCharacterError         one character that cannot fit even alone
    ├── PrivacyError (ValueError)             a private document without a session id
    ├── UsageError (ValueError)               command-line arguments that cannot be run
    │   └── QuestionFileError *               a question file that cannot be used (evaluation)
    ├── TokenizerLoadError (OSError)          a tokenizer that cannot be found or read
    │   └── SetupUnavailableError *           an evaluation setup that cannot run here (no Hub)
    ├── DocumentReadError (OSError)           a file that cannot be read as a document
    │   ├── UnsupportedFileError              an extension with no reader
    │   ├── EncryptedDocumentError            a PDF that needs a password
    │   ├── DamagedDocumentError              a truncated or corrupt PDF
    │   ├── NoTextLayerError                  a PDF with no extractable text (scanned)
    │   ├── NoPagesError                      a PDF with no pages at all
    │   └── TextEncodingError (UnicodeError)  a text file that is not UTF-8
    ├── MissingDependencyError (ImportError)  an optional extra that is not installed
    ├── OutputError * (OSError)               a command's output cannot be written
    ├── StrictModeError *                     ``asesoria-split --strict``: a file failed
    └── DocumentChunkingError * (RuntimeError)  an unexpected failure chunking one document

``*``: defined beside the code that raises it: ``FieldsError``, ``OutputError`` and
``StrictModeError`` in ``cli.errors``, ``QuestionFileError`` in
``evaluation.questions``, ``SetupUnavailableError`` in ``evaluation.presets``,
``DocumentChunkingError`` in ``parallel``.

Every message names the offending value and, where there is one, the document and the
character position, and says how to fix it.
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "AsesoriaError",
    "BudgetError",
    "ConfigurationError",
    "ContextTooLongError",
    "DamagedDocumentError",
    "DocumentReadError",
    "EncryptedDocumentError",
    "IndivisibleCharacterError",
    "InvalidPagesError",
    "InvalidSectionsError",
    "MissingDependencyError",
    "MissingSettingError",
    "ModelLimitError",
    "NoPagesError",
    "NoTextLayerError",
    "PrivacyError",
    "TextEncodingError",
    "TokenizerLoadError",
    "UnsupportedFileError",
    "UsageError",
]


class AsesoriaError(Exception):
    """Root of every error raised on purpose by langchain-asesoria."""


class ConfigurationError(AsesoriaError, ValueError):
    """A configuration value that cannot work (budget, overlap, limit, separator)."""


class MissingSettingError(ConfigurationError):
    """A setting the library will not guess was not given (named in the message)."""


class ModelLimitError(ConfigurationError):
    """A token budget above the embedding model's real input limit."""


class InvalidPagesError(AsesoriaError, ValueError):
    """Pages that are not one document's pages, numbered from 1 upward, in order."""


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
    """A file whose extension has no reader."""


class EncryptedDocumentError(DocumentReadError):
    """A PDF encrypted with a password (an empty user password is opened silently)."""


class DamagedDocumentError(DocumentReadError):
    """A truncated or corrupt PDF that ``pypdf`` cannot parse."""


class NoTextLayerError(DocumentReadError):
    """A PDF whose pages hold no extractable text: scanned images need OCR first."""


class NoPagesError(DocumentReadError):
    """A PDF whose page tree holds no page at all (nothing to read, not even a scan).

    Attributes:
        path: The file, as given.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        super().__init__(
            f"{self.path}: the PDF has no pages; export it again from the program that "
            "made it, or check that it is the document you meant."
        )


class TextEncodingError(DocumentReadError, UnicodeError):
    """A text or Markdown file that is not valid UTF-8."""
