"""``load_tokenization``: the embedding model's tokenizer, from a file, a folder or a name."""

from __future__ import annotations

import importlib
from pathlib import Path

from tokenizers import Tokenizer

from langchain_asesoria.errors import MissingDependencyError, TokenizerLoadError
from langchain_asesoria.settings import Settings, get_settings
from langchain_asesoria.tokenization._hub import check_model_available
from langchain_asesoria.tokenization._huggingface import HuggingFaceTokenization, read_tokenizer
from langchain_asesoria.tokenization._profile import ModelProfile
from langchain_asesoria.tokenization._profiles import (
    OFFLINE_PACKAGES,
    folder_profile,
    profile_for,
    with_explicit_limit,
)

__all__ = ["load_tokenization"]


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
        tokenizer, profile = read_tokenizer(path), ModelProfile()
    elif path.is_dir():
        tokenizer, profile = _load_folder(path, profile_for(source))
    else:
        tokenizer, profile = _load_named(source)
    profile = with_explicit_limit(profile, explicit, source)
    return HuggingFaceTokenization(tokenizer, profile, source)


def _load_folder(folder: Path, known: ModelProfile | None) -> tuple[Tokenizer, ModelProfile]:
    tokenizer_file = folder / "tokenizer.json"
    if tokenizer_file.is_file():
        tokenizer = read_tokenizer(tokenizer_file)
    else:
        tokenizer = _convert_with_transformers(str(folder))
    return tokenizer, folder_profile(folder, known)


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
    check_model_available(name)  # at once, not after the Hub client's retries
    try:
        from huggingface_hub import hf_hub_download
    except ImportError as error:  # pragma: no cover - tokenizers depends on it
        raise MissingDependencyError(
            "huggingface_hub is needed to load a model by name", expected="huggingface_hub"
        ) from error
    try:
        tokenizer_file = Path(hf_hub_download(name, "tokenizer.json"))
    except Exception as error:
        raise TokenizerLoadError(
            f"cannot load the tokenizer of {name!r} from the Hugging Face Hub or its cache "
            f"({type(error).__name__}: {error}). Offline, set EMBEDDING_MODEL to a local "
            "model folder or a tokenizer.json path.",
            expected="a local model folder or a tokenizer.json path",
        ) from error
    folder = tokenizer_file.parent
    for extra in _HUB_FILES:
        try:
            hf_hub_download(name, extra)
        except Exception:  # optional files: absent for many models
            continue
    return read_tokenizer(tokenizer_file), folder_profile(folder, known)


def _convert_with_transformers(source: str) -> Tokenizer:
    """A fast tokenizer for folders without ``tokenizer.json`` (the ``transformers`` extra)."""
    try:
        transformers = importlib.import_module("transformers")
    except ImportError as error:
        raise MissingDependencyError(
            f"{source!r} has no tokenizer.json; converting its tokenizer needs the "
            "'transformers' extra: pip install 'langchain-asesoria[transformers]'.",
            expected="langchain-asesoria[transformers]",
        ) from error
    try:
        loaded = transformers.AutoTokenizer.from_pretrained(source, use_fast=True)
    except Exception as error:
        raise TokenizerLoadError(f"cannot load a tokenizer from {source!r}: {error}") from error
    backend = getattr(loaded, "backend_tokenizer", None)
    if not isinstance(backend, Tokenizer):
        raise TokenizerLoadError(
            f"{source!r} has no fast tokenizer to count with.", expected="a fast tokenizer"
        )
    return backend
