"""A law saved as the BOE gives it: ``ID.xml`` (``/texto``) and ``ID.metadatos.xml``.

``asesoria-fetch`` saves both so; a law read by its path takes its metadata from the
file beside it when there is one, and its identifier from the metadata, else from the
file's name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from langchain_asesoria.boe_xml.model import Law
from langchain_asesoria.boe_xml.parse import read_law
from langchain_asesoria.errors import DocumentReadError
from langchain_asesoria.records import BOE_ID

#: A BOE identifier: "BOE-A-2003-23514" (the diary, the section, the year, a number).
LAW_ID: Final = BOE_ID

#: What the metadata's file name adds to the law's identifier.
METADATA_SUFFIX: Final = ".metadatos.xml"


def metadata_path(path: Path) -> Path:
    """Where the metadata of the law saved at ``path`` is (``ID.xml`` ->
    ``ID.metadatos.xml``)."""
    return path.with_name(path.name.removesuffix(".xml") + METADATA_SUFFIX)


def law_id_of(path: Path) -> str | None:
    """The identifier a file's name gives ("BOE-A-2003-23514.xml"), or ``None``."""
    stem = path.name.removesuffix(METADATA_SUFFIX).removesuffix(".xml")
    return stem if LAW_ID.fullmatch(stem) else None


def file_bytes(path: Path) -> bytes:
    """The file's bytes.

    Raises:
        DocumentReadError: it cannot be read (its reason, and the path).
    """
    try:
        return path.read_bytes()
    except OSError as error:
        raise DocumentReadError(
            f"cannot be read ({error.strerror or error}): check the path and permissions.",
            source=str(path),
        ) from error


def read_law_file(path: str | Path, *, law_id: str | None = None) -> Law:
    """The law saved at ``path`` (a ``/texto`` answer), with ``ID.metadatos.xml``
    beside it when present; ``law_id`` when neither the metadata nor the name gives one.

    Raises:
        DocumentReadError: a file that cannot be read.
        LawXmlError: the answers cannot be read as a law (``read_law``).
    """
    path = Path(path)
    beside = metadata_path(path)
    metadatos = file_bytes(beside) if beside.is_file() else None
    return read_law(
        file_bytes(path),
        metadatos,
        law_id=law_id_of(path) or law_id,
        source=str(path),
        metadata_source=str(beside),
    )
