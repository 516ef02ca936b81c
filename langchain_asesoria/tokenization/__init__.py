"""Tokenizers behind the engine's protocols: exact counts, estimates and model input.

::

    from langchain_asesoria.tokenization import load_tokenization
    tokenization = load_tokenization(model="sentence-transformers/all-MiniLM-L6-v2")

``HuggingFaceTokenization`` wraps a ``tokenizers.Tokenizer`` (padding and truncation
off); ``ModelProfile`` rows (``PROFILES``) give a model's prefixes and real limit.
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
from langchain_asesoria.tokenization._huggingface import HuggingFaceTokenization
from langchain_asesoria.tokenization._loading import load_tokenization
from langchain_asesoria.tokenization._profile import ModelProfile, ProfiledTokenization
from langchain_asesoria.tokenization._profiles import PROFILES, profile_for

__all__ = [
    "PROFILES",
    "Estimator",
    "HuggingFaceTokenization",
    "ModelInput",
    "ModelProfile",
    "ProfiledTokenization",
    "TokenCounter",
    "TokenIndex",
    "Tokenization",
    "load_tokenization",
    "profile_for",
]
