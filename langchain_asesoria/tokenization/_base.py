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

import copy
import hashlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from langchain_asesoria.engine import TokenIndex, Tokenization
from langchain_asesoria.errors import MissingSettingError, ModelLimitError
from langchain_asesoria.tokenization._profile import ModelProfile, ProfiledTokenization

if TYPE_CHECKING:
    from typing_extensions import Self


def _check_reserve(reserved: int, limit: int, name: str) -> None:
    """Raises ``ModelLimitError`` when the provider's reserve fills the whole input."""
    if reserved >= limit:
        raise ModelLimitError(
            f"reserved_tokens={reserved} leaves no room in the {limit}-token input of "
            f"{name!r}: the provider's own tokens must leave some for the text.",
            expected=f"below {limit}",
        )


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

    def reserving(self, tokens: int) -> LoadedTokenization:
        """The same tokenization counting ``tokens`` more in every document input, the
        tokens an embedding provider adds on its side (``ModelProfile.reserved_tokens``)."""
        ...


class TokenizationBase(ProfiledTokenization, ABC):
    """Everything from ``token_starts``: exact counts (plus ``special_tokens`` for the
    model's fixed tokens), the exact index and batches.

    Invariants a subclass keeps: ``count_content(t) == len(token_starts(t))``, ``count(t)``
    is the exact count of ``t`` as the model receives it, and every override gives the
    same numbers as these definitions.

    ``count`` adds the profile's ``reserved_tokens`` (what the embedding provider adds on
    its side) to the exact count: a family that overrides ``count`` or ``count_many``
    adds ``self.reserved_tokens`` to every whole-input count, never to content counts.

    Args:
        profile: Prefixes, the real input limit (which must be known) and the
            provider's reserve.
        name: For messages and reports.
        special_tokens: Tokens the model adds to every input (``[CLS]``/``[SEP]``: 2).

    Raises:
        MissingSettingError: the profile has no input limit.
        ValueError: a negative ``special_tokens`` or a limit below 1.
        ModelLimitError: the provider's reserve leaves no room below the limit.
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
        _check_reserve(profile.reserved_tokens, profile.max_input_tokens, name)
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

    @property
    def reserved_tokens(self) -> int:
        """Tokens the embedding provider adds to every document (``ModelProfile``)."""
        return self.profile.reserved_tokens

    def reserving(self, tokens: int) -> Self:
        """The same tokenization counting ``tokens`` more in every document input: what
        an embedding provider adds on its side (``ModelProfile.reserved_tokens``).

        Raises:
            ConfigurationError: ``tokens`` below 0.
            ModelLimitError: ``tokens`` leave no room below the input limit.
        """
        profile = replace(self.profile, reserved_tokens=tokens)
        _check_reserve(tokens, self._limit, self.name)
        other = copy.copy(self)
        other._profile = profile
        return other

    def count(self, text: str) -> int:
        return self.count_content(text) + self._special + self.profile.reserved_tokens

    def count_content(self, text: str) -> int:
        return len(self.token_starts(text))

    def count_many(self, texts: Iterable[str], *, content: bool = False) -> Iterator[int]:
        return map(self.count_content if content else self.count, texts)

    def token_starts_many(self, texts: list[str]) -> list[Sequence[int]]:
        """``token_starts`` of each text, in order (what ``word_index`` encodes with)."""
        return list(map(self.token_starts, texts))

    def token_index(self, text: str) -> TokenIndex:
        return TokenIndex.from_starts(self.token_starts(text))
