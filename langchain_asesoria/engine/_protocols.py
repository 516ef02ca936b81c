"""What the engine needs from a tokenizer, split by concern.

- ``TokenCounter``: exact counts, the only numbers the budget guarantee trusts.
- ``ModelInput``: the model's input format (``prepare``) and its real limit.
- ``Estimator``: where tokens start, to propose cuts; it may be approximate.
- ``WordEstimator`` (optional): tokens of any text from its words' known counts, to
  leave uncounted the candidate contexts that cannot fit.

``Tokenization`` is the first three: what ``chunk_document`` takes. A fake implements only
what it fakes (``langchain_asesoria.testing`` derives everything from token starts).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol, runtime_checkable

from langchain_asesoria.engine._estimate import TokenIndex


@runtime_checkable
class TokenCounter(Protocol):
    """Exact counts: the whole text, special tokens included, no padding, no truncation."""

    def count(self, text: str) -> int:
        """Exact tokens of ``text`` as the model receives it, special tokens included."""
        ...

    def count_content(self, text: str) -> int:
        """Exact tokens of ``text`` alone: no special tokens, prefix or context."""
        ...

    def count_many(self, texts: Iterable[str], *, content: bool = False) -> Iterator[int]:
        """``count`` (``count_content`` with ``content=True``) of each text, in order.

        The one batch call: texts are read as the counts are consumed, a few batches
        ahead, so an implementation may count one batch (on other cores, or another
        thread) while the caller produces the next. The caller's code stays
        single-threaded.
        """
        ...


@runtime_checkable
class ModelInput(Protocol):
    """How the model wants its input, and how much of it it reads."""

    @property
    def name(self) -> str:
        """A human-readable name of the tokenizer or model."""
        ...

    @property
    def max_input_tokens(self) -> int:
        """The model's real input limit, in tokens."""
        ...

    def prepare(self, content: str, context: str = "") -> str:
        """The only builder of document input: model prefix + section context + content."""
        ...

    def prepare_query(self, text: str) -> str:
        """A query as the model expects it (E5: ``"query: " + text``), prefixed once."""
        ...


@runtime_checkable
class Estimator(Protocol):
    """Where tokens start: it proposes cuts and may be approximate."""

    def token_index(self, text: str) -> TokenIndex:
        """Where the content tokens of a whole document start, grouped as is cheapest
        to find (``TokenIndex.from_starts(token_starts(text))`` is always valid)."""
        ...

    def token_starts(self, text: str) -> Sequence[int]:
        """Ascending start offsets (in characters of ``text``) of its content tokens."""
        ...


@runtime_checkable
class Tokenization(TokenCounter, ModelInput, Estimator, Protocol):
    """A tokenizer as the engine uses it: exact counts, model input and estimates.

    ``count`` is exact for the whole text with the model's special tokens, with no
    padding and no truncation; it is the only number the budget guarantee trusts.
    ``token_index`` and ``token_starts`` only propose boundaries.
    """


@runtime_checkable
class WordEstimator(Protocol):
    """Optional, beside ``Tokenization``: an estimate of any text, not only of a
    document's spans, from the tokens of its words met so far.

    The engine uses it only to leave a candidate context uncounted when it is
    estimated well over the share of the budget (``engine._context``); what it keeps
    is counted exactly, like everything else.
    """

    def estimate_content(self, text: str) -> int | None:
        """Content tokens of ``text`` as the sum of its whitespace-separated words'
        tokens, or None when a word was never met (or nothing is known of words)."""
        ...
