"""A toy tokenizer family, added the way tokenization/README.md says: this one module
(a ``TokenizationBase`` subclass and its ``claims``/``load``) plus one row of
``FAMILIES`` (``test_tokenization_families.py`` adds it).

Its tokens: each run of letters or digits, and each other visible character.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_asesoria.tokenization import ModelProfile, TokenizationBase, with_explicit_limit

_TOKEN = re.compile(r"\w+|[^\w\s]")
PREFIX = "toy:"


class ToyTokenization(TokenizationBase):
    """One token per word and per punctuation mark, ``[CLS]``/``[SEP]`` around."""

    __slots__ = ()

    def token_starts(self, text: str) -> Sequence[int]:
        return [match.start() for match in _TOKEN.finditer(text)]


def claims(source: str) -> bool:
    return source.startswith(PREFIX)


def load(source: str, explicit: int | None) -> ToyTokenization:
    profile = with_explicit_limit(ModelProfile(max_input_tokens=128), explicit, source)
    return ToyTokenization(profile, source, special_tokens=2)
