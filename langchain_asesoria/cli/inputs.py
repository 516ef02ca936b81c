"""Command-line inputs (files, folders, globs) expanded into the documents to split.

- A file is taken as given, whatever its extension (an unsupported one fails on its own).
- A folder is scanned recursively for ``.pdf``, ``.md``/``.markdown``, ``.txt`` and
  ``.html``/``.htm`` files, hidden files and folders skipped.
- A glob (``*``, ``?``, ``[``; ``**`` for any depth) keeps the supported files it
  matches, so a shell that does not expand globs (Windows) works too.

``--exclude`` patterns match from the right of the path (``SOURCES.md``,
``drafts/*.md``). Results keep the order of the arguments, sorted within a folder or a
glob, without duplicates.
"""

from __future__ import annotations

import glob
from collections.abc import Iterable, Sequence
from pathlib import Path

from langchain_asesoria.errors import (
    UsageError,
)
from langchain_asesoria.reading import FILE_KINDS

__all__ = ["expand_inputs"]

_GLOB_CHARACTERS = frozenset("*?[")


def _is_document(path: Path) -> bool:
    return path.is_file() and path.suffix.lower() in FILE_KINDS


def _is_hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts)


def _scan_folder(folder: Path) -> list[Path]:
    return sorted(
        path for path in folder.rglob("*") if _is_document(path) and not _is_hidden(path, folder)
    )


def _expand_one(argument: str) -> list[Path]:
    if _GLOB_CHARACTERS.intersection(argument):
        matches = sorted(Path(match) for match in glob.glob(argument, recursive=True))
        found = [path for path in matches if _is_document(path)]
        if not found:
            raise UsageError(f"{argument!r} matches no .pdf, .md, .txt or .html file.")
        return found
    path = Path(argument)
    if path.is_dir():
        return _scan_folder(path)
    if not path.exists():
        raise UsageError("no such file or folder.", source=str(argument))
    return [path]


def _unique(paths: Iterable[Path]) -> list[Path]:
    seen: set[Path] = set()
    unique: list[Path] = []
    for path in paths:
        key = path.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(path)
    return unique


def expand_inputs(arguments: Sequence[str], exclude: Sequence[str] = ()) -> list[Path]:
    """The documents named by files, folders and globs, less the excluded ones.

    Raises:
        UsageError: a path that does not exist, a glob that matches nothing, or no
            document left to split.
    """
    paths = _unique(path for argument in arguments for path in _expand_one(argument))
    kept = [path for path in paths if not any(path.match(pattern) for pattern in exclude)]
    if not kept:
        raise UsageError(
            "no document to split: give .pdf, .md, .txt or .html files, folders holding them, or "
            "globs (and check --exclude)."
        )
    return kept
