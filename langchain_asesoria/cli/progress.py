"""A progress bar on stderr (``tqdm``): pages and chunks per second, quiet off a terminal."""

from __future__ import annotations

from typing import TextIO

from tqdm import tqdm

_FORMAT = (
    "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} pages "
    "[{elapsed}<{remaining}, {rate_fmt}]{postfix}"
)
_NAME_WIDTH = 32


def _short(name: str) -> str:
    return name if len(name) <= _NAME_WIDTH else "…" + name[-(_NAME_WIDTH - 1) :]


class Progress:
    """Pages read and chunks made, shown only when ``stream`` is a terminal.

    Args:
        total_pages: Pages expected in the whole run (0 when unknown).
        stream: Where to draw (stderr).
        enabled: ``False`` draws nothing (not a terminal, or ``--quiet``).
    """

    def __init__(self, total_pages: int, stream: TextIO, *, enabled: bool) -> None:
        self._stream = stream
        self._chunks = 0
        self._bar = tqdm(
            total=total_pages or None,
            unit="page",
            file=stream,
            disable=not enabled,
            leave=False,
            dynamic_ncols=True,
            bar_format=_FORMAT,
        )

    @property
    def enabled(self) -> bool:
        """Whether anything is drawn."""
        return not self._bar.disable

    def start_file(self, name: str) -> None:
        """Shows the file being read."""
        self._bar.set_description_str(_short(name), refresh=False)
        self._postfix()

    def page_read(self) -> None:
        """One more page read."""
        self._bar.update(1)

    def pages_read(self, count: int) -> None:
        """``count`` more pages read (a whole file, read by a worker process)."""
        if count:
            self._bar.update(count)

    def chunks_made(self, count: int) -> None:
        """``count`` more chunks made."""
        self._chunks += count
        self._postfix()

    def message(self, text: str) -> None:
        """Prints a line above the bar (or plainly when there is no bar)."""
        if self.enabled:
            self._bar.write(text, file=self._stream)
        else:
            print(text, file=self._stream)

    def close(self) -> None:
        """Removes the bar."""
        self._bar.close()

    def _postfix(self) -> None:
        elapsed = self._bar.format_dict["elapsed"] or 0.0
        rate = self._chunks / elapsed if elapsed > 0 else 0.0
        self._bar.set_postfix_str(f"{self._chunks} chunks, {rate:.0f} chunks/s")
