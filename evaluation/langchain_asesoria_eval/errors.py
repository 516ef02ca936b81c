"""The evaluation's own errors, two leaves of the library's hierarchy
(``langchain_asesoria.errors``):

    AsesoriaError
    ├── UsageError (ValueError)
    │   └── QuestionFileError                 a question file that cannot be used
    └── TokenizerLoadError (OSError)
        └── SetupUnavailableError             an evaluation setup that cannot run here (no Hub)

Each is also the library's error it derives from: a caller that catches ``UsageError``
or ``AsesoriaError`` catches it, ``asesoria-eval`` exits for it as ``asesoria-split``
does for its parent (``UsageError``: 2), and it carries the same context attributes
(``source``, ``position``, ``expected``, ``detail``) and survives pickling alike. The
library's other errors the evaluation raises (``UsageError``, ``OutputError``,
``ConfigurationError``...) are the library's own, never redefined here.
"""

from __future__ import annotations

from langchain_asesoria.errors import TokenizerLoadError, UsageError

__all__ = ["QuestionFileError", "SetupUnavailableError"]


class QuestionFileError(UsageError):
    """A question file that cannot be used: the message names the file, line and field."""


class SetupUnavailableError(TokenizerLoadError):
    """A setup that cannot run here (no network for a Hub model); it is skipped."""
