"""Document fields per file: command-line defaults, a sidecar, a manifest.

For a file ``data/manual.pdf`` the fields are, from lowest to highest priority:
the command-line options (``--doc-type``, ``--tax``...), the sidecar
``data/manual.pdf.meta.json`` (one JSON object), and the line of the ``--manifest``
JSON Lines file whose ``"path"`` (relative to the manifest) names the file. ``doc_id``
defaults to the file's path relative to the input root (``inputs.doc_id_paths``), or
to its name when the resolver is given no such path.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from langchain_asesoria.errors import (
    ConfigurationError,
    FieldsError,
    PrivacyError,
    UsageError,
)
from langchain_asesoria.models import ChunkMetadata
from langchain_asesoria.records import DOC_ID, DOCUMENT_FIELD_TYPES

#: The document fields a sidecar or manifest may set, and their JSON types.
FIELD_TYPES: Final = DOCUMENT_FIELD_TYPES
SIDECAR_SUFFIX: Final = ".meta.json"
MANIFEST_PATH: Final = "path"

Fields = dict[str, Any]


def _real(path: Path) -> Path:
    """The path with every link followed; never raises, even on a loop of links (which
    ``Path.resolve`` refuses with a ``RuntimeError`` before Python 3.13)."""
    return Path(os.path.realpath(path))


def _checked(raw: object, origin: str) -> Fields:
    """``raw`` as document fields, or a ``FieldsError`` naming ``origin``."""
    if not isinstance(raw, dict):
        raise FieldsError(
            "expected a JSON object of document fields.",
            source=origin,
            expected="a JSON object of document fields",
        )
    fields: Fields = {}
    for key, value in raw.items():
        expected = FIELD_TYPES.get(key)
        if expected is None:
            known = ", ".join(FIELD_TYPES)
            raise FieldsError(
                f"unknown field {key!r}; known fields: {known}.",
                source=origin,
                expected=f"one of {known}",
            )
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, expected):
            raise FieldsError(
                f"field {key!r} must be a JSON {expected.__name__}, got {value!r}.",
                source=origin,
                expected=f"a JSON {expected.__name__}",
            )
        fields[key] = value
    return fields


def _read_json(path: Path) -> object:
    """The sidecar's JSON value; an error at a place carries its offset in ``position``."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        where = error.pos if isinstance(error, json.JSONDecodeError) else None
        raise FieldsError(
            f"cannot read this sidecar as JSON ({error}).",
            source=str(path),
            position=where,
            expected="a UTF-8 JSON object",
        ) from error


def load_manifest(path: Path) -> dict[Path, Fields]:
    """The fields per file of a JSON Lines manifest, keyed by resolved path.

    Each non-blank line is an object with ``"path"`` (relative to the manifest's
    folder, or absolute) and any of ``FIELD_TYPES``.

    Raises:
        UsageError: the manifest cannot be read, or a line is not a valid entry.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(
            f"cannot read this --manifest ({error}).",
            source=str(path),
            expected="a UTF-8 JSON Lines file",
        ) from error
    entries: dict[Path, Fields] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        origin = f"{path}:{number}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as error:
            raise UsageError(
                f"not a JSON object ({error.msg} at column {error.colno}).",
                source=origin,
                position=error.colno - 1,
                expected="a JSON object",
            ) from error
        target = raw.pop(MANIFEST_PATH, None) if isinstance(raw, dict) else None
        if not isinstance(target, str) or not target:
            raise UsageError(
                'each manifest line needs a "path" string.',
                source=origin,
                expected='a "path" string',
            )
        try:
            fields = _checked(raw, origin)
        except FieldsError as error:
            raise UsageError(error.detail, source=error.source, expected=error.expected) from error
        entries[_real(path.parent / target)] = fields
    return entries


@dataclass(frozen=True, slots=True)
class FieldResolver:
    """Merges the field sources for each file and builds its ``ChunkMetadata``.

    Attributes:
        defaults: Fields from the command line (``None`` values are ignored).
        manifest: Fields per resolved path, from ``load_manifest``.
        doc_ids: The default ``doc_id`` per path (``inputs.doc_id_paths``); a path not
            in it defaults to its file name.
    """

    defaults: Mapping[str, object]
    manifest: Mapping[Path, Fields] = field(default_factory=dict)
    doc_ids: Mapping[Path, str] = field(default_factory=dict)

    def fields_for(self, path: Path) -> Fields:
        """The merged fields of one file (``doc_id`` defaulted as ``doc_ids`` says).

        Raises:
            FieldsError: a sidecar that is not valid JSON or holds bad fields.
        """
        merged: Fields = {DOC_ID: self.doc_ids.get(path, path.name)}
        merged.update({key: value for key, value in self.defaults.items() if value is not None})
        sidecar = path.with_name(path.name + SIDECAR_SUFFIX)
        if sidecar.is_file():
            merged.update(_checked(_read_json(sidecar), str(sidecar)))
        merged.update(self.manifest.get(_real(path), {}))
        return merged

    def metadata_for(self, path: Path) -> ChunkMetadata:
        """The document metadata of one file.

        Raises:
            FieldsError: bad sidecar fields, or fields the metadata rejects (an unknown
                scope); the message names the file and where to set the field.
            PrivacyError: a private document without a ``session_id``.
        """
        fields = self.fields_for(path)
        try:
            return ChunkMetadata(**fields)
        except (ConfigurationError, PrivacyError) as error:
            kind = PrivacyError if isinstance(error, PrivacyError) else FieldsError
            raise kind(
                f"{error.detail} Set the field with its command-line option, in "
                f"{path.name}{SIDECAR_SUFFIX} beside the file, or in a --manifest line.",
                source=str(path),
                doc_id=error.doc_id,
                expected=error.expected,
            ) from error


def resolver_from_args(
    args: argparse.Namespace, doc_ids: Mapping[Path, str] | None = None
) -> FieldResolver:
    """The command line's field options as defaults, its ``--manifest`` if given, and
    the default ``doc_id`` of each input (``Inputs.doc_ids``).

    Raises:
        UsageError: the manifest cannot be read or holds a bad line.
    """
    defaults = {name: getattr(args, name) for name in FIELD_TYPES if name != DOC_ID}
    manifest = load_manifest(Path(args.manifest)) if args.manifest else {}
    return FieldResolver(defaults, manifest, doc_ids or {})
