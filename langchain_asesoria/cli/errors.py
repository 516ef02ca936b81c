"""The command lines' exit codes and the summary's labels for errors (``errors.py``).

More: ``docs/design/cli.md``.
"""

from __future__ import annotations

from enum import IntEnum

from langchain_asesoria.errors import (
    AsesoriaError,
    BudgetError,
    ConfigurationError,
    DamagedDocumentError,
    DocumentReadError,
    EncryptedDocumentError,
    FieldsError,
    InvalidPagesError,
    MissingDependencyError,
    NoPagesError,
    NoTextLayerError,
    OutputError,
    PrivacyError,
    TextEncodingError,
    TokenizerLoadError,
    UnsupportedFileError,
    UsageError,
)


class ExitCode(IntEnum):
    """What the process exit status tells a script (``asesoria-split``, ``asesoria-eval``).

    ``FILES_FAILED`` is also ``asesoria-eval``'s "a document could not be read".
    """

    OK = 0
    FILES_FAILED = 1
    USAGE = 2
    CONFIGURATION = 3
    OUTPUT = 4
    INTERRUPTED = 130


#: Errors that stop the whole run -> exit code; the first matching row wins.
_EXIT_CODES: tuple[tuple[type[BaseException], ExitCode], ...] = (
    (UsageError, ExitCode.USAGE),
    (OutputError, ExitCode.OUTPUT),
    (ConfigurationError, ExitCode.CONFIGURATION),
    (TokenizerLoadError, ExitCode.CONFIGURATION),
    (MissingDependencyError, ExitCode.CONFIGURATION),
    (AsesoriaError, ExitCode.FILES_FAILED),
)

#: Errors of one file -> the short label the summary table shows; first match wins.
_FAILURE_LABELS: tuple[tuple[type[BaseException], str], ...] = (
    (EncryptedDocumentError, "encrypted"),
    (DamagedDocumentError, "damaged PDF"),
    (NoTextLayerError, "no text layer"),
    (NoPagesError, "no pages"),
    (TextEncodingError, "not UTF-8"),
    (UnsupportedFileError, "unsupported type"),
    (DocumentReadError, "unreadable"),
    (MissingDependencyError, "missing extra"),
    (PrivacyError, "private, no session"),
    (FieldsError, "bad fields"),
    (BudgetError, "does not fit"),
    (InvalidPagesError, "bad pages"),
    (AsesoriaError, "failed"),
)


def exit_code_for(error: AsesoriaError) -> ExitCode:
    """The exit code of an error that stopped the run."""
    return next(code for kind, code in _EXIT_CODES if isinstance(error, kind))


def failure_label(error: BaseException) -> str:
    """The summary table's short name for why one file failed."""
    return next((label for kind, label in _FAILURE_LABELS if isinstance(error, kind)), "failed")
