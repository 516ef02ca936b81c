"""Hugging Face ``tokenizers`` behind the ``Tokenization`` protocol, and its loader."""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from tokenizers import Tokenizer

from langchain_asesoria.errors import (
    MissingDependencyError,
    MissingSettingError,
    ModelLimitError,
    TokenizerLoadError,
)
from langchain_asesoria.settings import Settings, get_settings
from langchain_asesoria.tokenization.base import ModelProfile, ProfiledTokenization, TokenIndex
from langchain_asesoria.tokenization.profiles import OFFLINE_PACKAGES, profile_for
from langchain_asesoria.tokenization.word_index import token_starts_of, word_index

__all__ = ["HuggingFaceTokenization", "load_tokenization"]

#: ``tokenizer_config.json`` uses a huge sentinel when it knows no limit.
_NO_LIMIT_SENTINEL = 1_000_000


class HuggingFaceTokenization(ProfiledTokenization):
    """A ``tokenizers.Tokenizer`` with truncation and padding switched off.

    The tokenizer is copied, so the caller's object keeps its own configuration.

    Args:
        tokenizer: The fast tokenizer.
        profile: Prefixes and the real input limit; the limit must be known.
        name: For messages and reports.

    Raises:
        MissingSettingError: the profile has no input limit.
    """

    __slots__ = ("_fingerprint", "_limit", "_tokenizer")

    def __init__(
        self, tokenizer: Tokenizer, profile: ModelProfile, name: str = "tokenizer"
    ) -> None:
        if profile.max_input_tokens is None:
            raise MissingSettingError(
                f"the tokenizer {name!r} declares no real input limit: set "
                "EMBEDDING_MAX_TOKENS (or pass max_input_tokens) to the model's limit."
            )
        super().__init__(profile, name)
        serialized = tokenizer.to_str()
        own = Tokenizer.from_str(serialized)
        own.no_truncation()
        own.no_padding()
        self._tokenizer = own
        self._limit = profile.max_input_tokens
        self._fingerprint = hashlib.sha256(serialized.encode("utf-8")).hexdigest()[:16]

    @property
    def max_input_tokens(self) -> int:
        return self._limit

    @property
    def fingerprint(self) -> str:
        """A content hash of the tokenizer definition (its revision, for reports)."""
        return self._fingerprint

    @property
    def tokenizer(self) -> Tokenizer:
        """The library's own copy (no truncation, no padding)."""
        return self._tokenizer

    def count(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=True).ids)

    def count_batch(self, texts: Sequence[str]) -> list[int]:
        return self._lengths(texts, special_tokens=True)

    def count_content(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids) if text else 0

    def count_content_batch(self, texts: Sequence[str]) -> list[int]:
        return self._lengths(texts, special_tokens=False)

    def _lengths(self, texts: Sequence[str], *, special_tokens: bool) -> list[int]:
        """Token counts, encoded ``_BATCH`` texts at a time (on all cores unless
        ``TOKENIZERS_PARALLELISM=false``): the encodings of a whole document's chunks
        are never held at once."""
        encode = self._tokenizer.encode_batch_fast
        lengths: list[int] = []
        for first in range(0, len(texts), _BATCH):
            batch = list(texts[first : first + _BATCH])
            lengths += map(len, encode(batch, add_special_tokens=special_tokens))
        return lengths

    def token_starts(self, text: str) -> Sequence[int]:
        """Start offsets of the text's content tokens, from its own encoding."""
        return token_starts_of(self._tokenizer, text)

    def token_index(self, text: str) -> TokenIndex:
        """Tokens per whitespace-delimited word, each distinct word tokenized once
        (``word_index``): exact counts between word boundaries for tokenizers that
        pre-split at whitespace, estimates for the others."""
        return word_index(self._tokenizer, text)

    @classmethod
    def from_file(
        cls, path: str | Path, *, profile: ModelProfile | None = None, name: str | None = None
    ) -> HuggingFaceTokenization:
        """Loads a ``tokenizer.json`` file."""
        return cls(_read_tokenizer(Path(path)), profile or ModelProfile(), name or str(path))

    @classmethod
    def from_transformers(
        cls,
        tokenizer: Any,
        *,
        profile: ModelProfile | None = None,
        max_input_tokens: int | None = None,
    ) -> HuggingFaceTokenization:
        """Wraps a ``transformers`` fast tokenizer (its Rust backend, copied).

        The real limit is the profile's (for a tokenizer loaded from a local folder,
        the folder's ``sentence_bert_config.json`` as in ``load_tokenization``), else
        the tokenizer's ``model_max_length`` when
        it is a real number; ``max_input_tokens`` may lower it, never raise it, and is
        required when no limit is known.

        Raises:
            TokenizerLoadError: a slow tokenizer (load it with ``use_fast=True``).
            MissingSettingError: no limit is known and none was given.
            ModelLimitError: ``max_input_tokens`` above the real limit.
        """
        backend = getattr(tokenizer, "backend_tokenizer", None)
        if not isinstance(backend, Tokenizer):
            raise TokenizerLoadError(
                f"{type(tokenizer).__name__} has no fast backend: load it with "
                "AutoTokenizer.from_pretrained(..., use_fast=True)."
            )
        name = str(getattr(tokenizer, "name_or_path", "") or "transformers-tokenizer")
        base = profile or profile_for(name) or ModelProfile()
        if profile is None and Path(name).is_dir():  # its sentence_bert_config.json wins
            base = _folder_profile(Path(name), profile_for(name))
        declared = getattr(tokenizer, "model_max_length", None)
        if isinstance(declared, int) and declared < _NO_LIMIT_SENTINEL:
            base = replace(base, max_input_tokens=base.max_input_tokens or declared)
        return cls(backend, _apply_explicit_limit(base, max_input_tokens, name), name)


def load_tokenization(
    settings: Settings | None = None,
    *,
    model: str | None = None,
    max_input_tokens: int | None = None,
) -> HuggingFaceTokenization:
    """Loads only the tokenizer of the embedding model.

    ``model`` (default ``settings.embedding_model``) may be a ``tokenizer.json`` path,
    a local model folder, or a Hugging Face model name (an offline package that ships
    it, the local cache, or the Hub). The real input limit comes from the model's
    profile, its ``sentence_bert_config.json`` ``max_seq_length``, or its
    ``tokenizer_config.json``; ``EMBEDDING_MAX_TOKENS`` (or ``max_input_tokens``) is
    required when none declares one, and may lower a known limit but never raise it.

    Raises:
        TokenizerLoadError: the tokenizer cannot be found or read.
        MissingSettingError: no real input limit is known.
        ModelLimitError: the configured limit exceeds the model's real limit.
    """
    settings = settings or get_settings()
    source = model or settings.embedding_model
    explicit = max_input_tokens if max_input_tokens is not None else settings.embedding_max_tokens
    path = Path(source).expanduser()
    if path.is_file():
        tokenizer, profile = _read_tokenizer(path), ModelProfile()
    elif path.is_dir():
        tokenizer, profile = _load_folder(path, profile_for(source))
    else:
        tokenizer, profile = _load_named(source)
    profile = _apply_explicit_limit(profile, explicit, source)
    return HuggingFaceTokenization(tokenizer, profile, source)


def _apply_explicit_limit(profile: ModelProfile, explicit: int | None, source: str) -> ModelProfile:
    real = profile.max_input_tokens
    if explicit is None:
        if real is None:
            raise MissingSettingError(
                f"the tokenizer {source!r} declares no real input limit: set "
                "EMBEDDING_MAX_TOKENS to the embedding model's limit."
            )
        return profile
    if explicit < 1:
        raise ModelLimitError(f"EMBEDDING_MAX_TOKENS must be at least 1, got {explicit}.")
    if real is not None and explicit > real:
        raise ModelLimitError(
            f"EMBEDDING_MAX_TOKENS={explicit} exceeds the real input limit {real} of "
            f"{source!r}: the model would truncate. Use at most {real}."
        )
    return replace(profile, max_input_tokens=explicit)


def _read_tokenizer(path: Path) -> Tokenizer:
    try:
        return Tokenizer.from_file(str(path))
    except Exception as error:  # tokenizers raises bare Exception subclasses
        raise TokenizerLoadError(f"cannot read tokenizer file {str(path)!r}: {error}") from error


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _folder_profile(folder: Path, known: ModelProfile | None) -> ModelProfile:
    """Limit and prefixes from a model folder's own configuration files."""
    profile = known or ModelProfile()
    st_limit = _read_json(folder / "sentence_bert_config.json").get("max_seq_length")
    declared = _read_json(folder / "tokenizer_config.json").get("model_max_length")
    if isinstance(st_limit, int) and st_limit > 0:
        profile = replace(profile, max_input_tokens=st_limit)
    elif (
        profile.max_input_tokens is None
        and isinstance(declared, int)
        and 0 < declared < _NO_LIMIT_SENTINEL
    ):
        profile = replace(profile, max_input_tokens=declared)
    if known is None:
        prompts = _read_json(folder / "config_sentence_transformers.json").get("prompts") or {}
        if isinstance(prompts, dict):
            document = prompts.get("passage", prompts.get("document", ""))
            query = prompts.get("query", "")
            if isinstance(document, str) and isinstance(query, str):
                profile = replace(profile, document_prefix=document, query_prefix=query)
    return profile


def _load_folder(folder: Path, known: ModelProfile | None) -> tuple[Tokenizer, ModelProfile]:
    tokenizer_file = folder / "tokenizer.json"
    if tokenizer_file.is_file():
        tokenizer = _read_tokenizer(tokenizer_file)
    else:
        tokenizer = _convert_with_transformers(str(folder))
    return tokenizer, _folder_profile(folder, known)


def _offline_folder(name: str) -> Path | None:
    entry = OFFLINE_PACKAGES.get(name.strip().lower())
    if entry is None:
        return None
    module_name, function_name = entry
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    folder = Path(getattr(module, function_name)())
    return folder if (folder / "tokenizer.json").is_file() else None


#: Texts per ``encode_batch_fast`` call: enough for every core, few encodings alive
#: (64 counts as fast as 128 on the benchmark corpus and holds half the encodings).
_BATCH = 64

_HUB_FILES = (
    "sentence_bert_config.json",
    "tokenizer_config.json",
    "config_sentence_transformers.json",
)


def _load_named(name: str) -> tuple[Tokenizer, ModelProfile]:
    known = profile_for(name)
    offline = _offline_folder(name)
    if offline is not None:
        return _load_folder(offline, known)
    try:
        from huggingface_hub import hf_hub_download
    except ImportError as error:  # pragma: no cover - tokenizers depends on it
        raise MissingDependencyError("huggingface_hub is needed to load a model by name") from error
    try:
        tokenizer_file = Path(hf_hub_download(name, "tokenizer.json"))
    except Exception as error:
        raise TokenizerLoadError(
            f"cannot load the tokenizer of {name!r} from the Hugging Face Hub or its cache "
            f"({type(error).__name__}: {error}). Offline, set EMBEDDING_MODEL to a local "
            "model folder or a tokenizer.json path."
        ) from error
    folder = tokenizer_file.parent
    for extra in _HUB_FILES:
        try:
            hf_hub_download(name, extra)
        except Exception:  # optional files: absent for many models
            continue
    return _read_tokenizer(tokenizer_file), _folder_profile(folder, known)


def _convert_with_transformers(source: str) -> Tokenizer:
    """A fast tokenizer for folders without ``tokenizer.json`` (the ``transformers`` extra)."""
    try:
        transformers = importlib.import_module("transformers")
    except ImportError as error:
        raise MissingDependencyError(
            f"{source!r} has no tokenizer.json; converting its tokenizer needs the "
            "'transformers' extra: pip install 'langchain-asesoria[transformers]'."
        ) from error
    try:
        loaded = transformers.AutoTokenizer.from_pretrained(source, use_fast=True)
    except Exception as error:
        raise TokenizerLoadError(f"cannot load a tokenizer from {source!r}: {error}") from error
    backend = getattr(loaded, "backend_tokenizer", None)
    if not isinstance(backend, Tokenizer):
        raise TokenizerLoadError(f"{source!r} has no fast tokenizer to count with.")
    return backend
