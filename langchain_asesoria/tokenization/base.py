"""What the engine needs from a tokenizer, and the one place that builds model input."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

__all__ = [
    "ModelProfile",
    "ProfiledTokenization",
    "TokenIndex",
    "Tokenization",
    "offsets_typecode",
]


def offsets_typecode(size: int) -> str:
    """The ``array`` typecode for the offsets and token totals of a text of ``size``
    characters: 4 bytes each (a megabyte of prose has 170,000 words), 8 from 2**28
    characters on (a byte-level tokenizer may give four tokens per character)."""
    return "i" if size < 2**28 else "q"


@dataclass(frozen=True, slots=True)
class ModelProfile:
    """How a model wants its input: prefixes and real input limit (data, not code).

    Attributes:
        document_prefix: Added before every passage, for example E5's ``"passage: "``.
        query_prefix: Added before every query, for example E5's ``"query: "``.
        max_input_tokens: The model's real input limit, or ``None`` when unknown.
        context_separator: Between the section context and the content.
    """

    document_prefix: str = ""
    query_prefix: str = ""
    max_input_tokens: int | None = None
    context_separator: str = "\n\n"


@dataclass(frozen=True, slots=True)
class TokenIndex:
    """Where a text's content tokens start, in groups: the estimate behind every cut.

    ``totals[i + 1] - totals[i]`` tokens start at ``positions[i]`` (a word's tokens all
    at the word's start, say); ``totals[0] == 0``. One group per token is the exact
    index (``from_starts``). Counts between two positions are the tokens of the groups
    starting there: exact at whole-word boundaries, an estimate inside a word.

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

    def limit(self, start: int, tokens: int) -> int | None:
        """The furthest position ``p`` with at most ``tokens`` tokens in ``[start, p)``,
        or None when the rest of the text holds no more than that."""
        index = bisect_right(self.totals, self.totals[bisect_left(self.positions, start)] + tokens)
        return self.positions[index - 1] if index <= len(self.positions) else None

    def single_tokens(self, start: int, end: int, most: int) -> Sequence[int] | None:
        """The first ``most`` positions in ``[start, end)`` when each holds one token
        (the index lists every token there, as for a long word), else None."""
        positions, totals = self.positions, self.totals
        first = bisect_left(positions, start)
        last = min(bisect_left(positions, end), first + most)
        if totals[last] - totals[first] != last - first:
            return None
        return positions[first:last]

    def back(self, end: int, tokens: int) -> int | None:
        """The start of the group holding the ``tokens``-th token before ``end``, or
        None when fewer tokens precede ``end``."""
        before = self.totals[bisect_left(self.positions, end)] - tokens
        if before < 0:
            return None
        return self.positions[bisect_right(self.totals, before) - 1]


@runtime_checkable
class Tokenization(Protocol):
    """A tokenizer as the engine uses it: exact counts, offsets and model input.

    ``count`` is exact for the whole text with the model's special tokens, with no
    padding and no truncation; it is the only number the budget guarantee trusts.
    ``token_index`` and ``token_starts`` only propose boundaries and may be approximate.
    """

    @property
    def name(self) -> str:
        """A human-readable name of the tokenizer or model."""
        ...

    @property
    def max_input_tokens(self) -> int:
        """The model's real input limit, in tokens."""
        ...

    def count(self, text: str) -> int:
        """Exact tokens of ``text`` as the model receives it, special tokens included."""
        ...

    def count_batch(self, texts: Sequence[str]) -> list[int]:
        """``[count(t) for t in texts]``, possibly on several cores."""
        ...

    def count_content(self, text: str) -> int:
        """Exact tokens of ``text`` alone: no special tokens, prefix or context."""
        ...

    def count_content_batch(self, texts: Sequence[str]) -> list[int]:
        """``[count_content(t) for t in texts]``, possibly on several cores."""
        ...

    def token_starts(self, text: str) -> Sequence[int]:
        """Ascending start offsets (in characters of ``text``) of its content tokens."""
        ...

    def token_index(self, text: str) -> TokenIndex:
        """Where the tokens of a whole document start, grouped as is cheapest to find
        (``TokenIndex.from_starts(token_starts(text))`` is always a valid answer)."""
        ...

    def prepare(self, content: str, context: str = "") -> str:
        """The only builder of document input: prefix + context + content."""
        ...

    def prepare_query(self, text: str) -> str:
        """A query as the model expects it (E5: ``"query: " + text``)."""
        ...


class ProfiledTokenization:
    """Shared ``prepare``/``prepare_query`` for tokenizations driven by a profile."""

    __slots__ = ("_name", "_profile")

    def __init__(self, profile: ModelProfile, name: str) -> None:
        self._profile = profile
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    @property
    def profile(self) -> ModelProfile:
        return self._profile

    def prepare(self, content: str, context: str = "") -> str:
        profile = self._profile
        if context:
            return f"{profile.document_prefix}{context}{profile.context_separator}{content}"
        return f"{profile.document_prefix}{content}" if profile.document_prefix else content

    def prepare_query(self, text: str) -> str:
        prefix = self._profile.query_prefix
        # Exactly once: a query that already carries the prefix is not prefixed again.
        return text if prefix and text.startswith(prefix) else f"{prefix}{text}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self._name!r})"
