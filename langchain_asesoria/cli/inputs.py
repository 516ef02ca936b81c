"""Command-line inputs (files, folders, globs) expanded into the documents to split.

Each document's default ``doc_id`` is its path relative to the input root, the deepest
folder that holds every input (``doc_id_paths``): unique within a run, and the same on
every run of the same command, whatever other files a folder holds.

More: ``docs/design/cli.md``.
"""

from __future__ import annotations

import glob
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from langchain_asesoria.boe_xml.files import METADATA_SUFFIX
from langchain_asesoria.errors import (
    UsageError,
)
from langchain_asesoria.reading import FILE_KINDS
from langchain_asesoria.reading.files import link_loop

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
    (link_loop, "a symbolic link that loops back on itself"),
    (_dangling, "a symbolic link whose target does not exist"),
    (_not_a_file, "not a regular file"),
    (_unreadable, "not readable by this user"),
)


@dataclass(frozen=True, slots=True)
class Skipped:
    """A document name that was found but cannot be read, and why."""

    path: Path
    reason: str


#: How ``Inputs.unsupported`` names a file without an extension.
NO_EXTENSION = "(no extension)"


@dataclass(frozen=True, slots=True)
class Inputs:
    """The documents to split, the names found that cannot be read, and the files found
    that no reader takes.

    Attributes:
        paths: The documents, in argument order; a file named on the command line is
            kept even when it cannot be read (a dangling link, a folder named like a
            document), so that its run reports it like any bad file.
        unsupported: ``(extension, files)`` of the files a folder or a glob found with
            no reader (lower-cased, most files first, then by extension), excluded ones
            left out.
        doc_ids: Each path's default ``doc_id`` (``doc_id_paths``).
    """

    paths: tuple[Path, ...]
    skipped: tuple[Skipped, ...] = ()
    unsupported: tuple[tuple[str, int], ...] = ()
    doc_ids: Mapping[Path, str] = field(default_factory=dict)


def _skip_reason(path: Path) -> str | None:
    return next((reason for test, reason in SKIP_REASONS if test(path)), None)


def _is_law_metadata(path: Path) -> bool:
    """A BOE law's ``ID.metadatos.xml``: read with its ``ID.xml``, never a document."""
    return path.name.lower().endswith(METADATA_SUFFIX)


def _is_document_name(path: Path) -> bool:
    return path.suffix.lower() in FILE_KINDS and not path.is_dir() and not _is_law_metadata(path)


def _is_hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts)


_Found = tuple[list[Path], list[Skipped], list[Path]]


def _is_other_file(path: Path) -> bool:
    return path.suffix.lower() not in FILE_KINDS and path.is_file()


def _split(found: Iterable[Path]) -> _Found:
    """Names found split into readable documents, skipped ones and files no reader takes."""
    documents: list[Path] = []
    skipped: list[Skipped] = []
    others: list[Path] = []
    for path in found:
        if not _is_document_name(path):
            if _is_other_file(path):
                others.append(path)
            continue
        reason = _skip_reason(path)
        if reason is None:
            documents.append(path)
        else:
            skipped.append(Skipped(path, reason))
    return documents, skipped, others


def _scan_folder(folder: Path) -> _Found:
    return _split(sorted(path for path in folder.rglob("*") if not _is_hidden(path, folder)))


def _names_a_folder(argument: str, path: Path) -> bool:
    """A folder to scan; one named like a document (``x.md``) only with a trailing ``/``."""
    if not path.is_dir():
        return False
    return path.suffix.lower() not in FILE_KINDS or argument.endswith(("/", os.sep))


def _expand_one(argument: str) -> _Found:
    if _GLOB_CHARACTERS.intersection(argument):
        matches = sorted(Path(match) for match in glob.glob(argument, recursive=True))
        found, skipped, others = _split(matches)
        if not found and not skipped:
            raise UsageError(
                f"{argument!r} matches no .pdf, .md, .txt or .html file.", expected=_SUPPORTED
            )
        return found, skipped, others
    path = Path(argument)
    if _names_a_folder(argument, path):
        return _scan_folder(path)
    if not os.path.lexists(path):
        raise UsageError(
            "no such file or folder.", source=argument, expected="an existing file or folder"
        )
    return [path], [], []  # named, so split or reported as it is (a dangling link too)


def input_root(argument: str) -> str:
    """The folder an argument names documents under, as an absolute path: a folder
    itself, a glob's folder before its first wildcard, a file's folder."""
    if _GLOB_CHARACTERS.intersection(argument):
        parts = PurePath(argument).parts
        fixed = next(i for i, part in enumerate(parts) if _GLOB_CHARACTERS.intersection(part))
        return os.path.abspath(PurePath(*parts[:fixed]) if fixed else ".")
    path = Path(argument)
    return os.path.abspath(path if _names_a_folder(argument, path) else path.parent)


def doc_id_paths(paths: Iterable[Path], arguments: Sequence[str]) -> dict[Path, str]:
    """Each path's default ``doc_id``: its path relative to the deepest folder that holds
    every argument (``input_root``), with ``/`` between folders and its extension kept.

    ``asesoria-split corpus`` gives ``corpus/sub1/ley.md`` the id ``sub1/ley.md``, and so
    do ``corpus/sub1 corpus/sub2`` and ``'corpus/**/*.md'``; a single file named alone
    gets its name. Distinct paths give distinct ids (``ley.md``, ``ley.md.md`` and
    ``ley.txt`` stay three), and a file's id does not depend on which other files its
    folders hold.
    """
    root = os.path.commonpath([input_root(argument) for argument in arguments])
    return {
        path: PurePath(os.path.relpath(os.path.abspath(path), root)).as_posix() for path in paths
    }


def _by_extension(paths: Iterable[Path]) -> tuple[tuple[str, int], ...]:
    """``(extension, files)``, most files first, then by extension."""
    counts = Counter(path.suffix.lower() or NO_EXTENSION for path in paths)
    return tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _unique(paths: Iterable[Path]) -> list[Path]:
    seen: set[Path] = set()
    unique: list[Path] = []
    for path in paths:
        key = Path(os.path.realpath(path))  # never raises, even on a loop of links
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

    def included(path: Path) -> bool:
        return not any(path.match(pattern) for pattern in exclude)

    paths = _unique(path for found, _, _ in expanded for path in found)
    kept = [path for path in paths if included(path)]
    skipped = [item for _, items, _ in expanded for item in items if included(item.path)]
    others = [path for _, _, found in expanded for path in found if included(path)]
    if not kept:
        unreadable = f" ({len(skipped)} found cannot be read)" if skipped else ""
        raise UsageError(
            f"no document to split{unreadable}: give .pdf, .md, .txt, .html or .xml files,"
            " folders "
            "holding them, or globs (and check --exclude).",
            expected=_SUPPORTED,
        )
    return Inputs(
        tuple(kept),
        tuple(dict.fromkeys(skipped)),
        _by_extension(_unique(others)),
        doc_id_paths(kept, arguments),
    )


def expand_inputs(arguments: Sequence[str], exclude: Sequence[str] = ()) -> list[Path]:
    """The documents of ``scan_inputs``, without the skipped names.

    Raises:
        UsageError: as ``scan_inputs``.
    """
    return list(scan_inputs(arguments, exclude).paths)
