"""The model and the chunk size of a run, from options and environment settings.

The model is ``--model``, else ``EMBEDDING_MODEL``, whose default is the library's one
default (``settings.DEFAULT_EMBEDDING_MODEL``; offline, name a local model or the
offline all-MiniLM-L6-v2). The size is ``--preset``, else ``--max-tokens`` with
``--overlap``, else ``CHUNK_SIZE_TOKENS`` with ``CHUNK_OVERLAP_TOKENS``: there is no
default size.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from typing import Final

from langchain_asesoria.engine import ModelInput, Tokenization
from langchain_asesoria.errors import (
    ConfigurationError,
    ModelLimitError,
    UsageError,
)
from langchain_asesoria.models import SIZE_CANDIDATES, ChunkingConfig
from langchain_asesoria.reading import ReadOptions
from langchain_asesoria.settings import Settings, get_settings
from langchain_asesoria.tokenization import load_tokenization

#: The candidate sizes by name ("256/32", "384/48", "480/64").
PRESETS: Final[dict[str, ChunkingConfig]] = {
    f"{config.max_tokens}/{config.overlap_tokens}": config for config in SIZE_CANDIDATES
}


def load_settings() -> Settings:
    """The environment settings.

    Raises:
        ConfigurationError: an environment value of the wrong type.
    """
    try:
        return get_settings()
    except ValueError as error:  # pydantic's ValidationError
        raise ConfigurationError(f"invalid environment setting: {error}") from error


def load_run_tokenization(args: argparse.Namespace, settings: Settings) -> Tokenization:
    """The tokenization of the run's model: ``--model``, else ``EMBEDDING_MODEL``.

    Raises:
        TokenizerLoadError: the model cannot be loaded (at once when only the Hugging
            Face Hub has it and the Hub cannot be reached).
        MissingSettingError: the tokenizer declares no limit and none was given.
        ModelLimitError: ``--embedding-max-tokens`` above the model's real limit.
    """
    return load_tokenization(
        settings, model=args.model or None, max_input_tokens=args.embedding_max_tokens
    )


@dataclass(frozen=True, slots=True)
class SizeChoice:
    """The run's chunking config and the options that chose it (for messages)."""

    config: ChunkingConfig
    origin: str


def choose_size(args: argparse.Namespace, settings: Settings) -> SizeChoice:
    """The chunking config of ``--preset``, ``--max-tokens``/``--overlap`` or the settings.

    Raises:
        UsageError: no size, or contradictory size options.
        ConfigurationError: an impossible size (overlap not below the budget).
    """
    config, origin = _size(args, settings)
    return SizeChoice(replace(config, section_context=args.section_context), origin)


def _size(args: argparse.Namespace, settings: Settings) -> tuple[ChunkingConfig, str]:
    if args.preset is not None:
        if args.max_tokens is not None or args.overlap is not None:
            raise UsageError(
                "give --preset or --max-tokens/--overlap, not both.",
                expected="--preset or --max-tokens/--overlap",
            )
        return PRESETS[args.preset], f"--preset {args.preset}"
    given = (args.max_tokens, args.overlap)
    if given != (None, None):
        if None in given:
            raise UsageError(
                "--max-tokens and --overlap go together: give both.",
                expected="--max-tokens and --overlap",
            )
        return ChunkingConfig(args.max_tokens, args.overlap), "--max-tokens/--overlap"
    if settings.chunk_size_tokens is not None and settings.chunk_overlap_tokens is not None:
        return ChunkingConfig.from_settings(settings), "CHUNK_SIZE_TOKENS/CHUNK_OVERLAP_TOKENS"
    raise UsageError(
        "choose a chunk size: --preset 256/32, 384/48 or 480/64 (the candidate sizes), "
        "or --max-tokens N --overlap M, or set CHUNK_SIZE_TOKENS and CHUNK_OVERLAP_TOKENS.",
        expected="--preset, --max-tokens/--overlap or CHUNK_SIZE_TOKENS/CHUNK_OVERLAP_TOKENS",
    )


def check_model_limit(size: SizeChoice, tokenization: ModelInput) -> ChunkingConfig:
    """``size.config``, once checked against the model's real input limit.

    Raises:
        ModelLimitError: a budget above the limit (the message names presets that fit).
    """
    config, origin = size.config, size.origin
    limit = tokenization.max_input_tokens
    if config.max_tokens > limit:
        fitting = [name for name, preset in PRESETS.items() if preset.max_tokens <= limit]
        raise ModelLimitError(
            f"{origin}: {config.max_tokens} tokens exceed the real input limit {limit} of "
            f"{tokenization.name!r}, which would truncate. Use "
            f"{'--preset ' + fitting[-1] if fitting else f'--max-tokens {limit} or less'}, "
            "or a model with a larger limit (for a tokenizer.json that declares none: "
            "--model tokenizer.json --embedding-max-tokens N).",
            expected=f"max_tokens <= {limit}",
        )
    return config


def read_options(args: argparse.Namespace) -> ReadOptions:
    """How to read documents: ``--no-pdf-outline``, ``--keep-page-furniture``,
    ``--no-markdown-headings``, ``--front-matter-metadata``, ``--keep-site-chrome``,
    ``--as-of`` and ``--versions`` (the defaults of ``ReadOptions`` otherwise).

    Raises:
        UsageError: ``--as-of`` with ``--versions all``.
    """
    if args.as_of is not None and args.law_versions == "all":
        raise UsageError(
            f"--as-of {args.as_of.isoformat()} reads each law on one day, --versions all "
            "every wording of it: give one of them."
        )
    return ReadOptions(
        outline_sections=args.pdf_outline,
        remove_page_furniture=args.remove_page_furniture,
        markdown_headings=args.markdown_headings,
        front_matter_metadata=args.front_matter_metadata,
        remove_contents=args.remove_contents,
        legal_structure=args.legal_structure,
        html_main_content=args.html_main_content,
        as_of=args.as_of,
        law_versions=args.law_versions,
    )
