"""Metadata values as every vector store takes them, and what one run left out.

One rule for every entry point (a loader's metadata in both LangChain classes, a
Markdown file's front matter everywhere): a value is kept (``bool``, an ``int`` within
64 bits, a finite ``float``, a ``str`` of at most ``MAX_METADATA_CHARS`` characters),
converted (a ``datetime``, ``date`` or ``time`` to its ISO 8601 text) or left out with
why (``None``, lists, tuples, sets, dicts, bytes, any other object, NaN and infinities,
larger integers, longer texts).

What is left out is told once per run, not once per document: a ``LeftOutTally``
counts the documents of one run by key and reason, and its ``message`` names each key,
why and how many documents (``'authors' (a list) from 10,000 documents``).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any, Final

#: A metadata value every vector store takes (``records`` gives no other).
MetadataValue = str | int | float | bool

#: The longest text a metadata value may be and be kept, in characters: a longer one (a
#: page's text kept as metadata) would be copied into every chunk of its pages.
MAX_METADATA_CHARS: Final = 8192

_INT64: Final = range(-(2**63), 2**63)

_LOGGER = logging.getLogger("langchain_asesoria")

#: Why a key that is not a ``str`` is left out.
NOT_A_STR_KEY: Final = "a key that is not a str"


class LeftOut(str):
    """Why a value is left out (a ``str`` subclass, so that one table returns either)."""

    __slots__ = ()


def _text(value: str) -> MetadataValue | LeftOut:
    if len(value) <= MAX_METADATA_CHARS:
        return value
    return LeftOut(f"a text over {MAX_METADATA_CHARS:,} characters")


def _integer(value: int) -> MetadataValue | LeftOut:
    return value if value in _INT64 else LeftOut("an integer beyond 64 bits")


def _number(value: float) -> MetadataValue | LeftOut:
    return value if math.isfinite(value) else LeftOut(f"{value}, not a finite number")


def _iso(value: date | time) -> MetadataValue | LeftOut:
    return value.isoformat()


#: How each type of value becomes one a vector store takes, in order (``bool`` before
#: ``int``, ``datetime`` before ``date``): kept, converted (a date or time to its ISO
#: 8601 text) or left out with the reason.
_RULES: Final[tuple[tuple[type, Callable[[Any], MetadataValue | LeftOut]], ...]] = (
    (bool, lambda value: value),
    (int, _integer),
    (float, _number),
    (str, _text),
    (datetime, _iso),
    (date, _iso),
    (time, _iso),
)


def stored_or_reason(value: Any) -> MetadataValue | LeftOut:
    """``value`` as a vector store takes it, or a ``LeftOut`` saying why it is left out
    (``"a list"``, ``"None"``, ``"nan, not a finite number"``...)."""
    rule = next((rule for kind, rule in _RULES if isinstance(value, kind)), None)
    if rule is None:
        return LeftOut("None" if value is None else f"a {type(value).__name__}")
    return rule(value)


def store_value(value: Any) -> MetadataValue | None:
    """``value`` as a vector store takes it, or ``None`` when it is left out.

    Kept: ``bool``, an ``int`` within 64 bits, a finite ``float``, a ``str`` of at most
    ``MAX_METADATA_CHARS`` characters. Converted: a ``datetime``, ``date`` or ``time`` to
    its ISO 8601 text. Left out: ``None``, lists, tuples, sets, dicts, bytes, any other
    object, NaN and infinities, larger integers and longer texts (``left_out_metadata``
    says why).
    """
    stored = stored_or_reason(value)
    return None if isinstance(stored, LeftOut) else stored


def scalar_metadata(metadata: Mapping[Any, Any]) -> dict[str, MetadataValue]:
    """The entries of ``metadata`` a vector store accepts, each as ``store_value`` keeps
    or converts it; ``str`` keys only. Values are immutable, so the copy is deep."""
    kept: dict[str, MetadataValue] = {}
    for key, value in metadata.items():
        stored = stored_or_reason(value)
        if isinstance(key, str) and not isinstance(stored, LeftOut):
            kept[key] = stored
    return kept


def left_out_metadata(metadata: Mapping[Any, Any]) -> dict[str, str]:
    """The keys ``scalar_metadata`` leaves out, each with why (``"a list"``, ``"None"``,
    ``"nan, not a finite number"``, ``"a key that is not a str"``)."""
    reasons: dict[str, str] = {}
    for key, value in metadata.items():
        stored = stored_or_reason(value)
        if not isinstance(key, str):
            reasons[repr(key)] = NOT_A_STR_KEY
        elif isinstance(stored, LeftOut):
            reasons[key] = str(stored)
    return reasons


@dataclass(slots=True)
class LeftOutTally:
    """The metadata one run left out: how many documents left out each key for each
    reason, and the first document that did, in first-seen order.

    A run is one call (``split_documents``, ``transform_documents``, one iteration of
    ``lazy_transform_documents``...) or one command line; its tally is told once, when
    it ends (``message``), so 10,000 documents with the same key left out give one line.
    """

    counts: dict[tuple[str, str], int] = field(default_factory=dict)
    first: dict[tuple[str, str], str] = field(default_factory=dict)

    def add(self, reasons: Iterable[tuple[str, str]], document: str, times: int = 1) -> None:
        """Counts ``times`` documents, the first named ``document``, that left out each
        ``(key, reason)`` of ``reasons``."""
        for pair in reasons:
            self.counts[pair] = self.counts.get(pair, 0) + times
            self.first.setdefault(pair, document)

    def keys(self) -> frozenset[str]:
        """Every key left out, whatever the reason."""
        return frozenset(key for key, _ in self.counts)

    def message(self, noun: str = "document") -> str | None:
        """Each key left out, why and from how many documents (``None`` when none):
        ``'authors' (a list) from 10,000 documents, first 'a.pdf'; ...``."""
        if not self.counts:
            return None
        return "; ".join(
            f"{key!r} ({reason}) from {count:,} {noun}{'' if count == 1 else 's'}, "
            f"first {self.first[(key, reason)]!r}"
            for (key, reason), count in self.counts.items()
        )

    def tell(self, run: str) -> None:
        """Logs, once, on the ``langchain_asesoria`` logger, what the run (``"this
        call"``, ``"this run"``) left out of its chunks; nothing when it left nothing out."""
        told = self.message()
        if told is not None:
            _LOGGER.warning(
                "metadata left out of the chunks of %s, as no vector store takes it: %s",
                run,
                told,
            )
