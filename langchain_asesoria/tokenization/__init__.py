"""Tokenizers behind one protocol: exact counts, offsets, and the model's input format."""

from langchain_asesoria.tokenization.base import (
    ModelProfile,
    ProfiledTokenization,
    TokenIndex,
    Tokenization,
)
from langchain_asesoria.tokenization.huggingface import HuggingFaceTokenization, load_tokenization
from langchain_asesoria.tokenization.profiles import PROFILES, profile_for

__all__ = [
    "PROFILES",
    "HuggingFaceTokenization",
    "ModelProfile",
    "ProfiledTokenization",
    "TokenIndex",
    "Tokenization",
    "load_tokenization",
    "profile_for",
]
