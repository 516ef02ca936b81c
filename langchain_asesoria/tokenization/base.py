"""What the engine needs from a tokenizer, and the one place that builds model input."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

__all__ = ["ModelProfile", "ProfiledTokenization", "Tokenization"]


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


@runtime_checkable
class Tokenization(Protocol):
    """A tokenizer as the engine uses it: exact counts, offsets and model input.

    ``count`` is exact for the whole text with the model's special tokens, with no
    padding and no truncation; it is the only number the budget guarantee trusts.
    ``token_starts`` only proposes boundaries and may be approximate.
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
        return f"{profile.document_prefix}{content}"

    def prepare_query(self, text: str) -> str:
        prefix = self._profile.query_prefix
        # Exactly once: a query that already carries the prefix is not prefixed again.
        return text if prefix and text.startswith(prefix) else f"{prefix}{text}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self._name!r})"
