"""The ``asesoria-split`` command line: an adapter around the engine (see ``main``).

The errors only the command line raises are exported here (they are defined, as every
error, in ``langchain_asesoria.errors``).
"""

from langchain_asesoria.cli.main import main
from langchain_asesoria.errors import FieldsError, OutputError, StrictModeError, UsageError

__all__ = ["FieldsError", "OutputError", "StrictModeError", "UsageError", "main"]
