"""LangChain's ``TextSplitter`` arguments mapped onto the engine's: sizes and options to a
``ChunkingConfig``, a Hugging Face tokenizer object or tiktoken's names to a tokenization.

``AsesoriaTextSplitter`` and ``AsesoriaDocumentTransformer`` both take LangChain's keywords
(``chunk_size`` is ``max_tokens``, ``chunk_overlap`` is ``overlap_tokens``) or a
``ChunkingConfig``, never both, through this one function, so that they refuse the same
combinations with the same ``ConfigurationError``; the arguments an exact-token splitter
cannot honour are refused with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from os import PathLike
from typing import TYPE_CHECKING, Any, Final

from langchain_asesoria.errors import ConfigurationError
from langchain_asesoria.langchain.documents import CONFIG_FIELDS
from langchain_asesoria.models import ChunkingConfig
from langchain_asesoria.tokenization import (
    TIKTOKEN_MODELS,
    ModelProfile,
    Tokenization,
    load_tokenization,
)

if TYPE_CHECKING:
    from langchain_asesoria.tokenization import HuggingFaceTokenization

#: LangChain's ``TextSplitter`` arguments an exact-token splitter cannot honour, and why.
_REFUSED: Final[Mapping[str, str]] = {
    "length_function": "the length is always the embedding model's exact token count of "
    "the whole model input (prefix, section context, content, special tokens): pass the "
    "model's tokenizer instead (AsesoriaTextSplitter(load_tokenization(...), ...) or "
    "from_huggingface_tokenizer())",
    "keep_separator": "separators are never removed: a chunk is always the verbatim text "
    "between its offsets, so there is nothing to keep or drop",
}


def named_tokenization(tokenization: Tokenization | str | PathLike[str]) -> Tokenization:
    """``tokenization``, or the one ``load_tokenization`` loads when it is a name or a path
    (a Hugging Face model, a folder, a ``tokenizer.json``, an OpenAI embedding model, a
    tiktoken encoding such as ``"cl100k_base"``): loaded when a class is built, as
    ``ParentContextRetriever`` loads its ``tokenizer``, so a bad name fails there.

    Anything else is returned as it is, for the class to check (``check_budget``).

    Raises:
        TokenizerLoadError: a name or path that cannot be loaded.
        MissingSettingError: a tokenizer that declares no input limit (a tiktoken
            encoding, a bare ``tokenizer.json``) without ``EMBEDDING_MAX_TOKENS``.
        MissingDependencyError: the tokenizer's library is not installed.
    """
    if isinstance(tokenization, str | PathLike):
        return load_tokenization(tokenization)
    return tokenization


def splitter_config(
    config: ChunkingConfig | None,
    sizes: Mapping[str, int | None],
    options: Mapping[str, Any],
    owner: str = "AsesoriaTextSplitter",
) -> ChunkingConfig:
    """The ``ChunkingConfig`` of a config or of LangChain's keywords (never both).

    ``owner`` names the class in the messages (the splitter or the transformer).

    Raises:
        ConfigurationError: both, neither a config nor ``chunk_size``, a refused
            LangChain argument, or an unknown keyword.
    """
    for name, reason in _REFUSED.items():
        if name in options:
            raise ConfigurationError(f"{name}={options[name]!r} cannot apply to {owner}: {reason}.")
    unknown = sorted(set(options) - CONFIG_FIELDS)
    if unknown:
        raise ConfigurationError(
            f"unknown argument(s) {', '.join(unknown)} for {owner}: pass chunk_size, "
            "chunk_overlap, the constructor's keywords (help(" + owner + ")), or "
            f"ChunkingConfig fields ({', '.join(sorted(CONFIG_FIELDS))})."
        )
    given = {key: value for key, value in sizes.items() if value is not None}
    if config is None:
        return ChunkingConfig(**_merged(given, options))
    if given or options:
        raise ConfigurationError(
            f"got a ChunkingConfig and the keywords {sorted({*given, *options})}: give one "
            "of them (dataclasses.replace(config, ...) changes a config)."
        )
    return config


def _merged(given: Mapping[str, int], options: Mapping[str, Any]) -> dict[str, Any]:
    """``ChunkingConfig`` keywords: sizes by LangChain's names or the config's own."""
    for langchain, name in (("chunk_size", "max_tokens"), ("chunk_overlap", "overlap_tokens")):
        if name in given and name in options:
            raise ConfigurationError(f"give {langchain} or {name}, not both.")
    merged = {**given, **options}
    if "max_tokens" not in merged:
        raise ConfigurationError(
            "chunk_size is required (tokens of the whole model input): there is no "
            "default size; the candidate sizes are 256/32, 384/48 and 480/64 "
            "(SIZE_CANDIDATES), to be chosen by measured retrieval."
        )
    merged.setdefault("overlap_tokens", 0)
    return merged


def huggingface_tokenization(
    tokenizer: Any, profile: ModelProfile | None, max_input_tokens: int | None
) -> HuggingFaceTokenization:
    """The tokenization of a ``tokenizers.Tokenizer`` or a ``transformers`` fast tokenizer
    (``tokenizers`` imported here, on first use).

    Raises:
        ConfigurationError: anything else (a model name points to ``from_model``).
    """
    from tokenizers import Tokenizer

    from langchain_asesoria.tokenization import HuggingFaceTokenization

    if isinstance(tokenizer, Tokenizer):
        base = profile or ModelProfile()
        if max_input_tokens is not None:
            base = replace(base, max_input_tokens=max_input_tokens)
        return HuggingFaceTokenization(tokenizer, base)
    if not isinstance(getattr(tokenizer, "backend_tokenizer", None), Tokenizer):
        hint = (
            "a model name is not a tokenizer: use AsesoriaTextSplitter.from_model(name, "
            "chunk_size=...)"
            if isinstance(tokenizer, str | bytes)
            else "load it with AutoTokenizer.from_pretrained(..., use_fast=True)"
        )
        raise ConfigurationError(
            f"from_huggingface_tokenizer needs a tokenizers.Tokenizer or a transformers fast "
            f"tokenizer, got {type(tokenizer).__name__} {tokenizer!r:.60}: {hint}."
        )
    return HuggingFaceTokenization.from_transformers(
        tokenizer, profile=profile, max_input_tokens=max_input_tokens
    )


#: The call that works, for the messages of ``tiktoken_source``.
_TIKTOKEN_CALLS: Final = (
    "from_tiktoken_encoder(model_name='text-embedding-3-small', chunk_size=...) for "
    "OpenAI's embedding models, from_tiktoken_encoder(encoding_name='cl100k_base', "
    "max_input_tokens=<the model's limit>, chunk_size=...) for another model that reads "
    "a tiktoken encoding, or from_model('<Hugging Face model>', chunk_size=...)"
)


def tiktoken_source(
    encoding_name: str,
    model_name: str | None,
    allowed_special: object,
    max_input_tokens: int | None,
) -> str:
    """The ``load_tokenization`` source of LangChain's ``from_tiktoken_encoder`` arguments.

    A model name must be an OpenAI embedding model (its encoding and real limit are
    known); an encoding name alone needs the embedding model's ``max_input_tokens``.

    Raises:
        ConfigurationError: a model that is not an embedding model, an encoding other
            than the model's, an encoding without a limit, or special tokens allowed.
    """
    if allowed_special:
        raise ConfigurationError(
            f"allowed_special={allowed_special!r} cannot apply to AsesoriaTextSplitter: a "
            "document's text is always encoded as ordinary text (the embedding model reads "
            "'<|endoftext|>' in a document as text), so leave allowed_special empty."
        )
    if model_name is not None:
        known = TIKTOKEN_MODELS.get(model_name.strip().lower().removeprefix("openai/"))
        if known is None:
            raise ConfigurationError(
                f"{model_name!r} is not an embedding model whose tokenizer is known "
                f"(OpenAI's are {', '.join(sorted(TIKTOKEN_MODELS))}): use {_TIKTOKEN_CALLS}.",
                expected="an OpenAI embedding model",
            )
        if encoding_name not in ("gpt2", known[0]):
            raise ConfigurationError(
                f"{model_name!r} reads the {known[0]} encoding, not {encoding_name!r}: "
                f"leave encoding_name out.",
                expected=known[0],
            )
        return model_name
    if max_input_tokens is None:
        raise ConfigurationError(
            f"the tiktoken encoding {encoding_name!r} is not an embedding model: its input "
            f"limit is unknown, and chunks must fit the model. Use {_TIKTOKEN_CALLS}.",
            expected="model_name or max_input_tokens",
        )
    return f"tiktoken:{encoding_name}"
