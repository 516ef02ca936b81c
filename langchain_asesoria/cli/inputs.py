"""Command-line inputs (files, folders, globs) expanded into the documents to split.

- A file is taken as given, whatever its extension (an unsupported one fails on its own).
- A folder is scanned recursively for ``.pdf``, ``.md``/``.markdown``, ``.txt`` and
  ``.html``/``.htm`` files, hidden files and folders skipped.
- A glob (``*``, ``?``, ``[``; ``**`` for any depth) keeps the supported files it
  matches, so a shell that does not expand globs (Windows) works too.

``--exclude`` patterns match from the right of the path (``SOURCES.md``,
``drafts/*.md``). Results keep the order of the arguments, sorted within a folder or a
glob, without duplicates.

A ``.pdf``, ``.md`` or ``.txt`` name that a folder or a glob finds but that cannot be
read is *skipped*, with its reason (``SKIP_REASONS``): a symbolic link whose target is
gone, something that is not a regular file (a pipe would block the run), a file this
user may not read. The command's summary lists each one.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from langchain_asesoria.errors import (
    UsageError,
)
from langchain_asesoria.reading import FILE_KINDS

__all__ = ["SKIP_REASONS", "Inputs", "Skipped", "expand_inputs", "scan_inputs"]

_GLOB_CHARACTERS = frozenset("*?[")
_SUPPORTED = ", ".join(FILE_KINDS)  # what a glob or the inputs must give (``expected``)


def _dangling(path: Path) -> bool:
    return path.is_symlink() and not path.exists()


def _not_a_file(path: Path) -> bool:
    return path.exists() and not path.is_file() and not path.is_dir()


def _unreadable(path: Path) -> bool:
    return path.is_file() and not os.access(path, os.R_OK)


#: Why a document name found in a folder or by a glob is skipped; the first match wins.
SKIP_REASONS: tuple[tuple[Callable[[Path], bool], str], ...] = (
    (_dangling, "a symbolic link whose target does not exist"),
    (_not_a_file, "not a regular file"),
    (_unreadable, "not readable by this user"),
)


@dataclass(frozen=True, slots=True)
class Skipped:
    """A document name that was found but cannot be read, and why."""

    path: Path
    reason: str


@dataclass(frozen=True, slots=True)
class Inputs:
    """The documents to split, and the names found that cannot be read."""

    paths: tuple[Path, ...]
    skipped: tuple[Skipped, ...] = ()


def _skip_reason(path: Path) -> str | None:
    return next((reason for test, reason in SKIP_REASONS if test(path)), None)


def _is_document_name(path: Path) -> bool:
    return path.suffix.lower() in FILE_KINDS and not path.is_dir()


def _is_hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts)


def _split(found: Iterable[Path]) -> tuple[list[Path], list[Skipped]]:
    """Document names split into readable documents and skipped ones."""
    documents: list[Path] = []
    skipped: list[Skipped] = []
    for path in found:
        if not _is_document_name(path):
            continue
        reason = _skip_reason(path)
        if reason is None:
            documents.append(path)
        else:
            skipped.append(Skipped(path, reason))
    return documents, skipped


def _scan_folder(folder: Path) -> tuple[list[Path], list[Skipped]]:
    return _split(sorted(path for path in folder.rglob("*") if not _is_hidden(path, folder)))


def _expand_one(argument: str) -> tuple[list[Path], list[Skipped]]:
    if _GLOB_CHARACTERS.intersection(argument):
        matches = sorted(Path(match) for match in glob.glob(argument, recursive=True))
        found, skipped = _split(matches)
        if not found and not skipped:
            raise UsageError(
                f"{argument!r} matches no .pdf, .md, .txt or .html file.", expected=_SUPPORTED
            )
        return found, skipped
    path = Path(argument)
    if path.is_dir():
        return _scan_folder(path)
    if not path.exists():
        raise UsageError(
            "no such file or folder.", source=argument, expected="an existing file or folder"
        )
    return [path], []


def _unique(paths: Iterable[Path]) -> list[Path]:
    seen: set[Path] = set()
    unique: list[Path] = []
    for path in paths:
        key = path.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(path)
    return unique


def scan_inputs(arguments: Sequence[str], exclude: Sequence[str] = ()) -> Inputs:
    """The documents named by files, folders and globs, less the excluded ones, and the
    document names found that cannot be read (module docstring).

    Raises:
        UsageError: a path that does not exist, a glob that matches nothing, or no
            document left to split.
    """
    expanded = [_expand_one(argument) for argument in arguments]
    paths = _unique(path for found, _ in expanded for path in found)
    kept = [path for path in paths if not any(path.match(pattern) for pattern in exclude)]
    skipped = [
        item
        for _, items in expanded
        for item in items
        if not any(item.path.match(pattern) for pattern in exclude)
    ]
    if not kept:
        unreadable = f" ({len(skipped)} found cannot be read)" if skipped else ""
        raise UsageError(
            f"no document to split{unreadable}: give .pdf, .md, .txt or .html files,"
            " folders "
            "holding them, or globs (and check --exclude).",
            expected=_SUPPORTED,
        )
    return Inputs(tuple(kept), tuple(dict.fromkeys(skipped)))


def expand_inputs(arguments: Sequence[str], exclude: Sequence[str] = ()) -> list[Path]:
    """The documents of ``scan_inputs``, without the skipped names.

    Raises:
        UsageError: as ``scan_inputs``.
    """
    return list(scan_inputs(arguments, exclude).paths)
