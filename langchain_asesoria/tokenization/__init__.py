"""Tokenizers behind the engine's protocols: exact counts, estimates and model input.

More: ``docs/design/tokenization.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from langchain_asesoria._lazy import lazy_exports as _lazy_exports
from langchain_asesoria.engine import (
    Estimator,
    ModelInput,
    TokenCounter,
    TokenIndex,
    Tokenization,
)
from langchain_asesoria.tokenization._base import LoadedTokenization, TokenizationBase
from langchain_asesoria.tokenization._loading import FAMILIES, Family, load_tokenization
from langchain_asesoria.tokenization._profile import ModelProfile, ProfiledTokenization
from langchain_asesoria.tokenization._profiles import PROFILES, profile_for, with_explicit_limit
from langchain_asesoria.tokenization._tiktoken import MODELS as TIKTOKEN_MODELS
from langchain_asesoria.tokenization._tiktoken import TiktokenTokenization
from langchain_asesoria.tokenization._word_index import WordCounts, word_index

if TYPE_CHECKING:
    from langchain_asesoria.tokenization._hub import check_model_available, hub_unreachable
    from langchain_asesoria.tokenization._huggingface import HuggingFaceTokenization

#: Names loaded on first use (with ``tokenizers``, or with settings) -> their module.
_LAZY = {
    "HuggingFaceTokenization": "langchain_asesoria.tokenization._huggingface",
    "check_model_available": "langchain_asesoria.tokenization._hub",
    "hub_unreachable": "langchain_asesoria.tokenization._hub",
}


__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)


__all__ = [
    "FAMILIES",
    "PROFILES",
    "TIKTOKEN_MODELS",
    "Estimator",
    "Family",
    "HuggingFaceTokenization",
    "LoadedTokenization",
    "ModelInput",
    "ModelProfile",
    "ProfiledTokenization",
    "TiktokenTokenization",
    "TokenCounter",
    "TokenIndex",
    "Tokenization",
    "TokenizationBase",
    "WordCounts",
    "check_model_available",
    "hub_unreachable",
    "load_tokenization",
    "profile_for",
    "with_explicit_limit",
    "word_index",
]
