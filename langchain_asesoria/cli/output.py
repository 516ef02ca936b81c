"""JSON Lines records of chunks, written so that partial output never looks complete.

Records go to a spool: a ``*.partial`` file next to the destination (or an anonymous
temporary file for stdout). ``publish`` renames it over the destination, or copies it
to stdout; leaving the ``with`` block without publishing deletes it.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import TextIO

from langchain_asesoria.errors import (
    OutputError,
)
from langchain_asesoria.records import MetadataValue

Record = dict[str, MetadataValue]


def jsonl_lines(records: Iterable[Record]) -> bytes:
    """The records as JSON Lines, the bytes ``JsonlSpool.write`` spools (UTF-8, not
    ASCII-escaped, one object and ``\\n`` a line): what a worker process sends back.

    Bytes, not text: pickle copies them as they are, where it re-encodes text on each
    side (8x slower on Spanish text), and the spool writes them without encoding."""
    return "".join(_line(record) for record in records).encode("utf-8")


def _line(record: Record) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"


def partial_path(destination: Path) -> Path:
    """A fresh, clearly unfinished name next to ``destination`` (``x.<random>.jsonl.partial``)."""
    token = f"{os.getpid()}-{secrets.token_hex(4)}"
    return destination.with_name(f"{destination.stem}.{token}{destination.suffix}.partial")


def _create_partial(destination: Path) -> tuple[Path, TextIO]:
    path = partial_path(destination)
    try:
        # 0o666 less the umask, as a plain open() would give the final file.
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as error:
        raise OutputError(
            f"cannot write next to {destination} ({error.strerror or error}): check that "
            "its folder exists and is writable."
        ) from error
    return path, os.fdopen(descriptor, "w", encoding="utf-8", newline="\n")


class JsonlSpool:
    """Chunks spooled as JSON Lines, published whole or not at all.

    Args:
        destination: The final file, or ``None`` for ``stdout``.
        stdout: Where to copy the records when ``destination`` is ``None``.

    Raises:
        OutputError: the destination's folder cannot be written.
    """

    def __init__(self, destination: Path | None, stdout: TextIO) -> None:
        self._destination = destination
        self._stdout = stdout
        self._partial: Path | None = None
        self.records = 0
        if destination is None:
            # Closed by discard(), when the with block ends.
            self._file: TextIO = tempfile.TemporaryFile(  # noqa: SIM115
                "w+", encoding="utf-8", newline="\n"
            )
        else:
            self._partial, self._file = _create_partial(destination)

    def write(self, records: Iterable[Record]) -> None:
        """Appends records, one JSON object a line (UTF-8, not ASCII-escaped)."""
        try:
            for record in records:
                self._file.write(_line(record))
                self.records += 1
        except OSError as error:
            raise OutputError(f"cannot spool the chunks: {error}.") from error

    def write_lines(self, lines: bytes, records: int) -> None:
        """Appends ``records`` records already made into JSON Lines by ``jsonl_lines``."""
        try:
            self._file.flush()  # what write() left in the text layer goes first
            self._file.buffer.write(lines)
        except OSError as error:
            raise OutputError(f"cannot spool the chunks: {error}.") from error
        self.records += records

    def publish(self) -> None:
        """Makes the records visible: rename over the destination, or copy to stdout.

        Raises:
            OutputError: the copy or the rename failed (``discard`` removes the
                partial file).
        """
        try:
            if self._partial is None:
                self._file.seek(0)
                shutil.copyfileobj(self._file, self._stdout)
                self._stdout.flush()
            else:
                self._file.close()
                assert self._destination is not None
                os.replace(self._partial, self._destination)
                self._partial = None
        except OSError as error:
            where = self._destination or "stdout"
            raise OutputError(f"cannot write {where}: {error}.") from error

    def discard(self) -> None:
        """Drops the records: nothing is published and the partial file is deleted."""
        self._file.close()
        if self._partial is not None:
            self._partial.unlink(missing_ok=True)
            self._partial = None

    def __enter__(self) -> JsonlSpool:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.discard()


def write_text_atomically(destination: Path, text: str) -> None:
    """Writes ``text`` to a partial file, then renames it over ``destination``.

    Raises:
        OutputError: the folder cannot be written.
    """
    partial, handle = _create_partial(destination)
    try:
        with handle:
            handle.write(text)
        os.replace(partial, destination)
    except OSError as error:
        raise OutputError(f"cannot write {destination}: {error}.") from error
    finally:
        partial.unlink(missing_ok=True)
