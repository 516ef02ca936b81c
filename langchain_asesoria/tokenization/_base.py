"""``TokenizationBase``: a whole ``Tokenization`` derived from a tokenizer's token starts.

A tokenizer family (Hugging Face ``tokenizers``, tiktoken, the fakes of
``langchain_asesoria.testing``) subclasses it and defines one method, ``token_starts``;
counts, the estimate index and batches follow from it. A family overrides what its
library does faster (batched counts, a word-grouped index from ``word_index``) and
must keep the numbers the same.

``LoadedTokenization`` is what ``load_tokenization`` returns, whatever the family:
the engine's ``Tokenization`` plus a fingerprint for reports and ``single_threaded``
for process pools.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol, runtime_checkable

from langchain_asesoria.engine import TokenIndex, Tokenization
from langchain_asesoria.errors import MissingSettingError
from langchain_asesoria.tokenization._profile import ModelProfile, ProfiledTokenization

__all__ = ["LoadedTokenization", "TokenizationBase"]


@runtime_checkable
class LoadedTokenization(Tokenization, Protocol):
    """A tokenization as ``load_tokenization`` returns it, of any family."""

    @property
    def fingerprint(self) -> str:
        """A content hash of the tokenizer's definition (its revision, for reports)."""
        ...

    def single_threaded(self) -> LoadedTokenization:
        """The same numbers, all work on the calling thread (for a process of a pool,
        whose cores the other workers already use)."""
        ...


class TokenizationBase(ProfiledTokenization, ABC):
    """Everything from ``token_starts``: exact counts (plus ``special_tokens`` for the
    model's fixed tokens), the exact index and batches.

    Invariants a subclass keeps: ``count_content(t) == len(token_starts(t))``, ``count(t)``
    is the exact count of ``t`` as the model receives it, and every override gives the
    same numbers as these definitions.

    Args:
        profile: Prefixes and the real input limit, which must be known.
        name: For messages and reports.
        special_tokens: Tokens the model adds to every input (``[CLS]``/``[SEP]``: 2).

    Raises:
        MissingSettingError: the profile has no input limit.
        ValueError: a negative ``special_tokens`` or a limit below 1.
    """

    __slots__ = ("_limit", "_special")

    def __init__(self, profile: ModelProfile, name: str, *, special_tokens: int = 0) -> None:
        if profile.max_input_tokens is None:
            raise MissingSettingError(
                f"the tokenizer {name!r} declares no real input limit: set "
                "EMBEDDING_MAX_TOKENS (or pass max_input_tokens) to the model's limit."
            )
        if profile.max_input_tokens < 1 or special_tokens < 0:
            raise ValueError("max_input_tokens must be >= 1 and special_tokens >= 0")
        super().__init__(profile, name)
        self._limit = profile.max_input_tokens
        self._special = special_tokens

    @abstractmethod
    def token_starts(self, text: str) -> Sequence[int]:
        """Ascending start offsets (in characters of ``text``) of its content tokens."""

    @property
    def max_input_tokens(self) -> int:
        return self._limit

    @property
    def fingerprint(self) -> str:
        """A hash of the class and name; families with a definition file hash that."""
        kind = f"{type(self).__module__}.{type(self).__qualname__}:{self.name}"
        return hashlib.sha256(kind.encode("utf-8")).hexdigest()[:16]

    def single_threaded(self) -> TokenizationBase:
        """This tokenization: the base starts no thread."""
        return self

    def count(self, text: str) -> int:
        return self.count_content(text) + self._special

    def count_content(self, text: str) -> int:
        return len(self.token_starts(text))

    def count_many(self, texts: Iterable[str], *, content: bool = False) -> Iterator[int]:
        return map(self.count_content if content else self.count, texts)

    def token_starts_many(self, texts: list[str]) -> list[Sequence[int]]:
        """``token_starts`` of each text, in order (what ``word_index`` encodes with)."""
        return list(map(self.token_starts, texts))

    def token_index(self, text: str) -> TokenIndex:
        return TokenIndex.from_starts(self.token_starts(text))
