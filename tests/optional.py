"""An extra's module for a test: skipped when the extra is not installed, failed when it
is installed without what its code imports.

``pytest.importorskip`` skips on any ``ImportError`` before pytest 9.1 (and on any
``ModuleNotFoundError`` since): an extra installed without one of its dependencies
(SQLAlchemy 2.1 without greenlet, under the ``classic`` extra) then skips "for the
classic extra", which is there, instead of failing. ``extra_module`` skips only when the
module's own distribution is missing, naming the extra and the module; any other import
error is the test's failure, and its message names what is missing. Warnings raised while
importing are ignored, as ``importorskip`` ignores them.
"""

from __future__ import annotations

import importlib
import importlib.util
import warnings
from types import ModuleType

import pytest

__all__ = ["extra_module"]


def extra_module(module: str, extra: str) -> ModuleType:
    """``module``, imported; a skip naming ``extra`` when its top-level package is not
    installed.

    Raises:
        ImportError: the package is installed but cannot be imported (a dependency it
            imports is missing): the extra does not install what its code needs.
    """
    top = module.partition(".")[0]
    if importlib.util.find_spec(top) is None:
        pytest.skip(f"the {extra} extra: pip install '.[{extra}]' ({top} is not installed)")
    with warnings.catch_warnings():  # as importorskip: a package's import-time notices
        warnings.simplefilter("ignore")  # (langchain-community's deprecation) are not ours
        return importlib.import_module(module)
