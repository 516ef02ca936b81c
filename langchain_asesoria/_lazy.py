"""A package's names loaded on first use: PEP 562's module ``__getattr__``, written once."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, names: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, which imports each of ``names``
    from its module (``names[name]``) when first asked for, and keeps it."""
    namespace = sys.modules[package].__dict__

    def load(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def names_of() -> list[str]:
        return sorted(set(namespace) | set(names))

    return load, names_of
