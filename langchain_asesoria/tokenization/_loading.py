"""``load_tokenization``: the embedding model's tokenizer, from a file, a folder or a name.

Which family loads a source is a table, ``FAMILIES``: the first row whose ``claims``
accepts the source loads it. A new family is one module (a ``TokenizationBase``
subclass and its ``claims``/``load`` functions) and one row here; see ``README.md``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

from langchain_asesoria.errors import ConfigurationError
from langchain_asesoria.tokenization import _tiktoken

if TYPE_CHECKING:
    from langchain_asesoria.settings import Settings
    from langchain_asesoria.tokenization._base import LoadedTokenization


@dataclass(frozen=True, slots=True)
class Family:
    """One row of ``FAMILIES``: a kind of source and how its family loads it.

    Attributes:
        name: For messages and documentation.
        claims: Whether this row loads the source (cheap: no import of the family's
            library, no file read beyond a stat).
        load: ``(source, explicit limit or None)`` to the tokenization; it applies the
            explicit limit (``with_explicit_limit``) to the model's own.
    """

    name: str
    claims: Callable[[str], bool]
    load: Callable[[str, int | None], LoadedTokenization]


def _is_file(source: str) -> bool:
    return Path(source).expanduser().is_file()


def _is_dir(source: str) -> bool:
    return Path(source).expanduser().is_dir()


def _any(source: str) -> bool:
    del source
    return True


def _loader(module: str, name: str) -> Callable[[str, int | None], LoadedTokenization]:
    """The family's ``load`` function, its module (and its library) imported on first call."""

    def load(source: str, explicit: int | None) -> LoadedTokenization:
        function: Callable[[str, int | None], LoadedTokenization] = getattr(
            importlib.import_module(module), name
        )
        return function(source, explicit)

    load.__qualname__ = load.__name__ = name
    return load


_HUGGING_FACE = "langchain_asesoria.tokenization._huggingface"

#: In order: the first row that claims a source loads it.
FAMILIES: tuple[Family, ...] = (
    Family("tiktoken (OpenAI embedding models)", _tiktoken.claims, _tiktoken.load),
    Family("Hugging Face tokenizer.json", _is_file, _loader(_HUGGING_FACE, "load_file")),
    Family("Hugging Face model folder", _is_dir, _loader(_HUGGING_FACE, "load_folder")),
    Family("Hugging Face model name", _any, _loader(_HUGGING_FACE, "load_named")),
)


def load_tokenization(
    settings: Settings | str | PathLike[str] | None = None,
    *,
    model: str | None = None,
    max_input_tokens: int | None = None,
    reserved_tokens: int = 0,
) -> LoadedTokenization:
    """Loads only the tokenizer of the embedding model.

    ``settings`` may also be the model itself (``load_tokenization("sentence-transformers/
    all-MiniLM-L6-v2")``, a folder or a ``tokenizer.json`` path): the one-call start.
    ``model`` (default ``settings.embedding_model``) may be a ``tokenizer.json`` path,
    a local model folder, a Hugging Face model name (an offline package that ships
    it, the local cache, or the Hub), or an OpenAI embedding model
    (``text-embedding-3-small``; the ``tiktoken`` extra). The real input limit comes
    from the model's profile, its ``sentence_bert_config.json`` ``max_seq_length``, or
    its ``tokenizer_config.json``; ``EMBEDDING_MAX_TOKENS`` (or ``max_input_tokens``)
    is required when none declares one, and may lower a known limit but never raise it.
    ``reserved_tokens`` are what the embedding provider adds to every document on its
    side (an ``input_type``'s or a ``task``'s instruction, prepended server-side): every
    chunk's ``token_count`` counts them (``ModelProfile.reserved_tokens``).

    Raises:
        TokenizerLoadError: the tokenizer cannot be found or read.
        MissingDependencyError: the family's library is not installed.
        MissingSettingError: no real input limit is known.
        ModelLimitError: the configured limit exceeds the model's real limit, or the
            reserve leaves no room below it.
        ConfigurationError: ``reserved_tokens`` below 0.
    """
    if isinstance(settings, str | PathLike):
        if model is not None:
            raise ConfigurationError(
                f"got the model twice ({settings!r} and model={model!r}): give one.",
                expected="a model name or path, once",
            )
        settings, model = None, str(settings)
    if settings is None:
        from langchain_asesoria.settings import get_settings

        settings = get_settings()
    source = model or settings.embedding_model
    explicit = max_input_tokens if max_input_tokens is not None else settings.embedding_max_tokens
    family = next(row for row in FAMILIES if row.claims(source))
    loaded = family.load(source, explicit)
    return loaded.reserving(reserved_tokens) if reserved_tokens else loaded
