"""Tokenizers behind the engine's protocols: exact counts, estimates and model input.

::

    from langchain_asesoria.tokenization import load_tokenization
    tokenization = load_tokenization(model="sentence-transformers/all-MiniLM-L6-v2")

A tokenizer family is one module: a ``TokenizationBase`` subclass that defines where
tokens start (counts and estimates follow), and a row of ``FAMILIES``, the table
``load_tokenization`` picks the family from (``README.md`` in this folder says how to
add one). ``HuggingFaceTokenization`` wraps a ``tokenizers.Tokenizer`` (padding and
truncation off), ``TiktokenTokenization`` an OpenAI encoding (the ``tiktoken``
extra); ``ModelProfile`` rows (``PROFILES``) give a model's prefixes and real limit.
The protocols themselves (``Tokenization`` and its parts) belong to the engine and are
re-exported here.
"""

from langchain_asesoria.engine import (
    Estimator,
    ModelInput,
    TokenCounter,
    TokenIndex,
    Tokenization,
)
from langchain_asesoria.tokenization._base import LoadedTokenization, TokenizationBase
from langchain_asesoria.tokenization._hub import check_model_available, hub_unreachable
from langchain_asesoria.tokenization._huggingface import HuggingFaceTokenization
from langchain_asesoria.tokenization._loading import FAMILIES, Family, load_tokenization
from langchain_asesoria.tokenization._profile import ModelProfile, ProfiledTokenization
from langchain_asesoria.tokenization._profiles import PROFILES, profile_for, with_explicit_limit
from langchain_asesoria.tokenization._tiktoken import TiktokenTokenization
from langchain_asesoria.tokenization._word_index import WordCounts, word_index

__all__ = [
    "FAMILIES",
    "PROFILES",
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
