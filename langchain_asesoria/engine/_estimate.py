"""``TokenIndex``: where a document's content tokens start, the estimate behind every cut."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass


def offsets_typecode(size: int) -> str:
    """The ``array`` typecode for the offsets and token totals of a text of ``size``
    characters: 4 bytes each (a megabyte of prose has 170,000 words), 8 from 2**28
    characters on (a byte-level tokenizer may give four tokens per character)."""
    return "i" if size < 2**28 else "q"


@dataclass(frozen=True, slots=True)
class TokenIndex:
    """Where a text's content tokens start, in groups: the estimate behind every cut.

    ``totals[i + 1] - totals[i]`` tokens start at ``positions[i]`` (a word's tokens all
    at the word's start, say); ``totals[0] == 0``. One group per token is the exact
    index (``from_starts``). Counts between two positions are the tokens of the groups
    starting there: exact at whole-word boundaries, an estimate inside a word. The
    engine only plans with these numbers; every chunk is confirmed by an exact count.

    Attributes:
        positions: Ascending character offsets of the groups.
        totals: Cumulative token counts, one more than ``positions``.
    """

    positions: Sequence[int]
    totals: Sequence[int]

    @classmethod
    def from_starts(cls, starts: Sequence[int]) -> TokenIndex:
        """The exact index: one group per token start."""
        return cls(starts, range(len(starts) + 1))

    def __post_init__(self) -> None:
        if len(self.totals) != len(self.positions) + 1 or (self.totals and self.totals[0]):
            raise ValueError("totals must start at 0 and have one more entry than positions")

    @property
    def tokens(self) -> int:
        """All content tokens of the text."""
        return self.totals[-1]

    def count(self, start: int, end: int) -> int:
        """Tokens of the groups starting in ``[start, end)``."""
        positions, totals = self.positions, self.totals
        return totals[bisect_left(positions, end)] - totals[bisect_left(positions, start)]

    def reach(self, start: int, tokens: int) -> int | None:
        """The furthest position ``p`` with at most ``tokens`` tokens in ``[start, p)``,
        or None when the rest of the text holds no more than that."""
        index = bisect_right(self.totals, self.totals[bisect_left(self.positions, start)] + tokens)
        return self.positions[index - 1] if index <= len(self.positions) else None

    def reach_back(self, end: int, tokens: int) -> int | None:
        """The start of the group holding the ``tokens``-th token before ``end``, or
        None when fewer tokens precede ``end``."""
        before = self.totals[bisect_left(self.positions, end)] - tokens
        if before < 0:
            return None
        return self.positions[bisect_right(self.totals, before) - 1]

    def single_tokens(self, start: int, end: int, most: int) -> Sequence[int] | None:
        """The first ``most`` positions in ``[start, end)`` when each holds one token
        (the index lists every token there, as for a long word), else None."""
        positions, totals = self.positions, self.totals
        first = bisect_left(positions, start)
        last = min(bisect_left(positions, end), first + most)
        if totals[last] - totals[first] != last - first:
            return None
        return positions[first:last]
