"""``--parents``: each chunk's parent (``langchain_asesoria.parents``) on the command line.

``asesoria-split --parents FILE.jsonl`` writes one parent a line and gives every chunk
line its ``parent_id``; ``--parent-max-tokens`` and ``--parent-model`` choose the budget
and the tokenizer that counts it (both commands: ``inspect`` shows each chunk's parent).
The adapter of ``langchain_asesoria.parents``: options in, the core's parents and
records (``records.chunk_records``, ``parent_records``) out.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path

from langchain_asesoria.cli.output import JsonlSpool
from langchain_asesoria.engine import Tokenization
from langchain_asesoria.models import Chunk, ChunkingConfig
from langchain_asesoria.parents import (
    DEFAULT_PARENT_MAX_TOKENS,
    DocumentParents,
    check_parent_budget,
    load_parent_tokenizer,
    read_document_parents,
)
from langchain_asesoria.reading import DocumentPages


def add_parent_arguments(parser: argparse.ArgumentParser, *, output: bool) -> None:
    """The parent options; ``output`` adds ``--parents FILE.jsonl`` (the split command)."""
    group = parser.add_argument_group("parents (the larger block each chunk belongs to)")
    if output:
        group.add_argument(
            "--parents",
            metavar="FILE.jsonl",
            help="write each chunk's parent (its article or section, or a window of it "
            "that fits --parent-max-tokens) to FILE, one a line, and give every chunk "
            "line its parent_id (default: no parents)",
        )
    group.add_argument(
        "--parent-max-tokens",
        type=int,
        metavar="N",
        help=f"a parent's budget, in the parent model's tokens (default "
        f"{DEFAULT_PARENT_MAX_TOKENS}; at least the chunks' --max-tokens)",
    )
    group.add_argument(
        "--parent-model",
        metavar="NAME",
        help="the tokenizer that counts parents: the generator's (a Hugging Face name or "
        "folder, a tokenizer.json, a tiktoken encoding; default: the embedding model's)",
    )


@dataclass(frozen=True, slots=True)
class ParentOptions:
    """How a run builds parents.

    Attributes:
        max_tokens: A parent's budget.
        tokenizer: What counts it.
        destination: Where the split command writes them (``None`` for ``inspect``).
    """

    max_tokens: int
    tokenizer: Tokenization
    destination: Path | None = None


def parent_options(
    args: argparse.Namespace, config: ChunkingConfig, tokenization: Tokenization
) -> ParentOptions | None:
    """The run's parent options, checked before any file is read; ``None`` when the
    split command was given no ``--parents``, or ``inspect``'s default budget is below
    the chunks' (no parents to show; an explicit one is checked).

    Raises:
        ConfigurationError: ``--parent-max-tokens`` below ``--max-tokens`` (both named).
        TokenizerLoadError: ``--parent-model`` cannot be loaded.
    """
    destination = getattr(args, "parents", None)
    if "parents" in args and destination is None:
        return None
    budget = args.parent_max_tokens
    if budget is None:
        budget = DEFAULT_PARENT_MAX_TOKENS
        if destination is None and budget < config.max_tokens:
            return None
    check_parent_budget(budget, config)
    tokenizer = _parent_tokenizer(args.parent_model, budget) if args.parent_model else tokenization
    return ParentOptions(budget, tokenizer, None if destination is None else Path(destination))


def _parent_tokenizer(name: str, budget: int) -> Tokenization:
    """``--parent-model``'s tokenizer; a name only the unreachable Hub could serve is
    refused at once, the advice naming ``--parent-model`` (not the embedding model's)."""
    from langchain_asesoria.tokenization import check_model_available

    check_model_available(name, setting="--parent-model")
    return load_parent_tokenizer(name, budget)


def file_parents(
    document: DocumentPages,
    chunks: Sequence[Chunk],
    config: ChunkingConfig,
    options: ParentOptions,
) -> DocumentParents:
    """The parents of one file's chunks, as the reading stage chunked it."""
    return read_document_parents(
        document,
        chunks,
        config=config,
        tokenizer=options.tokenizer,
        parent_max_tokens=options.max_tokens,
    )


def parent_spool(options: ParentOptions | None) -> AbstractContextManager[JsonlSpool | None]:
    """The spool of the parents' lines (published with the chunks'), or none."""
    if options is None or options.destination is None:
        return nullcontext(None)
    return JsonlSpool(options.destination, sys.stdout)
