"""The Hugging Face family: a ``tokenizers.Tokenizer`` (``tokenizer.json``) behind the
engine's ``Tokenization`` protocol; its rows of the loading table are ``SOURCES``."""

from __future__ import annotations

import copy
import hashlib
import importlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from tokenizers import Tokenizer

from langchain_asesoria.engine import TokenIndex
from langchain_asesoria.errors import MissingDependencyError, TokenizerLoadError
from langchain_asesoria.tokenization._base import TokenizationBase
from langchain_asesoria.tokenization._count_ahead import count_ahead, many_cpus
from langchain_asesoria.tokenization._hub import check_model_available
from langchain_asesoria.tokenization._profile import ModelProfile
from langchain_asesoria.tokenization._profiles import (
    NO_LIMIT_SENTINEL,
    OFFLINE_PACKAGES,
    folder_profile,
    profile_for,
    with_explicit_limit,
)
from langchain_asesoria.tokenization._word_index import WordCounts, estimate, word_index

#: Words of every kind a law holds, joined by single spaces as ``word_index`` joins them.
_PROBE = "Ab cd, ef.gh 12,5 % ñú € x-y (z) «q» art. 3.º"

#: Words the model's own cache holds (Unigram's and BPE's; ``tokenizers`` keeps 10,000
#: and then stops adding). Every distinct word is tokenized first by the word index
#: and then again in the exact counts of the chunks that hold it: past 10,000 words
#: (a long law, or the documents after the first few) those counts would miss.
_MODEL_CACHE = 1 << 16


def _widen_cache(tokenizer: Tokenizer) -> None:
    """Lets the model cache ``_MODEL_CACHE`` words, where ``tokenizers`` offers it
    (``Model._resize_cache``, since 0.21; WordPiece has no cache): the same tokens,
    found again instead of searched for again."""
    resize = getattr(tokenizer.model, "_resize_cache", None)
    if callable(resize):
        resize(_MODEL_CACHE)


def read_tokenizer(path: Path) -> Tokenizer:
    """A ``tokenizer.json`` file.

    Raises:
        TokenizerLoadError: the file cannot be read as a tokenizer.
    """
    try:
        return Tokenizer.from_file(str(path))
    except Exception as error:  # tokenizers raises bare Exception subclasses
        raise TokenizerLoadError(
            f"cannot read tokenizer file {str(path)!r}: {error}", expected="a tokenizer.json file"
        ) from error


def measures_words_alone(tokenizer: Tokenizer) -> bool:
    """Whether the tokenizer encodes each space-separated word on its own: its
    normalizer keeps the spaces and its pre-tokenizer splits there (WordPiece's,
    Metaspace's, byte-level BPE's with its regex), so that no token spans two words and
    a word's tokens do not depend on its neighbours. Then a word's count can be kept
    from one document to the next (``WordCounts``)."""
    pre = tokenizer.pre_tokenizer
    if pre is None:
        return False
    normalizer = tokenizer.normalizer
    normalized = normalizer.normalize_str(_PROBE) if normalizer is not None else _PROBE
    if normalized.count(" ") != _PROBE.count(" "):
        return False
    pieces = pre.pre_tokenize_str(normalized)
    return bool(pieces) and all(" " not in normalized[a:b].strip() for _, (a, b) in pieces)


class HuggingFaceTokenization(TokenizationBase):
    """A ``tokenizers.Tokenizer`` with truncation and padding switched off.

    The tokenizer is copied, so the caller's object keeps its own configuration.

    Args:
        tokenizer: The fast tokenizer.
        profile: Prefixes and the real input limit; the limit must be known.
        name: For messages and reports.

    Raises:
        MissingSettingError: the profile has no input limit.
    """

    __slots__ = ("_fingerprint", "_helpers", "_tokenizer", "_words")

    def __init__(
        self, tokenizer: Tokenizer, profile: ModelProfile, name: str = "tokenizer"
    ) -> None:
        super().__init__(profile, name)
        serialized = tokenizer.to_str()
        own = Tokenizer.from_str(serialized)
        own.no_truncation()
        own.no_padding()
        _widen_cache(own)
        self._tokenizer = own
        self._fingerprint = hashlib.sha256(serialized.encode("utf-8")).hexdigest()[:16]
        self._helpers = True
        self._words = WordCounts() if measures_words_alone(own) else None

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        """Unpickled (a worker process's copy): the tokenizer comes back from its JSON
        definition, so its cache is widened again."""
        for slot, value in state[1].items():
            object.__setattr__(self, slot, value)
        _widen_cache(self._tokenizer)

    def single_threaded(self) -> HuggingFaceTokenization:
        """The same tokenization without helper threads: counts and the word index are
        made on the calling thread (the same numbers, in the same order).

        For a process that shares the cores with others doing the same work, as each
        worker of ``parallel.chunk_documents`` does: there a helper thread only competes
        for a core that is already busy. (The tokenizer's own Rust threads follow the
        process's ``TOKENIZERS_PARALLELISM``, which those workers set to false.)
        """
        other = copy.copy(self)
        other._helpers = False
        return other

    @property
    def fingerprint(self) -> str:
        """A content hash of the tokenizer definition (its revision, for reports)."""
        return self._fingerprint

    @property
    def tokenizer(self) -> Tokenizer:
        """The library's own copy (no truncation, no padding)."""
        return self._tokenizer

    # -- exact counts (TokenCounter) ------------------------------------------------

    def count(self, text: str) -> int:
        whole = len(self._tokenizer.encode(text, add_special_tokens=True).ids)
        return whole + self.reserved_tokens

    def count_content(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids) if text else 0

    def count_many(self, texts: Iterable[str], *, content: bool = False) -> Iterator[int]:
        """Exact counts in order, texts encoded 64 at a time on all cores (unless
        ``TOKENIZERS_PARALLELISM=false``), one batch while the caller makes the next
        on a helper thread; a process that may use one CPU only counts 4 at a time on
        the calling thread (``SOLO_BATCH``)."""
        counter = self._contents if content else self._wholes
        return count_ahead(counter, texts, helper=self._helpers and many_cpus())

    def _wholes(self, texts: list[str]) -> list[int]:
        reserved = self.reserved_tokens
        encodings = self._tokenizer.encode_batch_fast(texts, add_special_tokens=True)
        return [len(encoding) + reserved for encoding in encodings]

    def _contents(self, texts: list[str]) -> list[int]:
        """Content counts; empty texts (chunks without overlap) are not encoded."""
        filled = [text for text in texts if text]
        counts = iter(
            map(len, self._tokenizer.encode_batch_fast(filled, add_special_tokens=False))
            if filled
            else ()
        )
        return [next(counts) if text else 0 for text in texts]

    # -- estimates (Estimator) ------------------------------------------------------

    def token_starts(self, text: str) -> Sequence[int]:
        """Start offsets of the text's content tokens, from its own encoding."""
        return [
            start for start, _ in self._tokenizer.encode(text, add_special_tokens=False).offsets
        ]

    def token_starts_many(self, texts: list[str]) -> list[Sequence[int]]:
        """``token_starts`` of each text, encoded together on all cores."""
        encodings = self._tokenizer.encode_batch(texts, add_special_tokens=False)
        return [[start for start, _ in encoding.offsets] for encoding in encodings]

    def estimate_content(self, text: str) -> int | None:
        """Content tokens of ``text`` as the sum of its words' tokens (``WordEstimator``),
        each measured once as the word index measures it: exact for WordPiece and most
        Metaspace tokenizers, a token or two off where whitespace is a token; None when
        the tokenizer does not measure words alone."""
        if self._words is None:
            return None
        return estimate(self._words, self.token_starts_many, text)

    def token_index(self, text: str) -> TokenIndex:
        """Tokens per whitespace-delimited word, each distinct word tokenized once
        (``word_index``): exact counts between word boundaries for tokenizers that
        pre-split at whitespace, estimates for the others."""
        return word_index(
            self.token_starts_many,
            text,
            helper=self._helpers and many_cpus(),
            known=self._words,
        )

    # -- constructors ---------------------------------------------------------------

    @classmethod
    def from_file(
        cls, path: str | Path, *, profile: ModelProfile | None = None, name: str | None = None
    ) -> HuggingFaceTokenization:
        """Loads a ``tokenizer.json`` file."""
        return cls(read_tokenizer(Path(path)), profile or ModelProfile(), name or str(path))

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
        the tokenizer's ``model_max_length`` when it is a real number;
        ``max_input_tokens`` may lower it, never raise it, and is required when no
        limit is known.

        Raises:
            TokenizerLoadError: a slow tokenizer (load it with ``use_fast=True``).
            MissingSettingError: no limit is known and none was given.
            ModelLimitError: ``max_input_tokens`` above the real limit.
        """
        backend = getattr(tokenizer, "backend_tokenizer", None)
        if not isinstance(backend, Tokenizer):
            raise TokenizerLoadError(
                f"{type(tokenizer).__name__} has no fast backend: load it with "
                "AutoTokenizer.from_pretrained(..., use_fast=True).",
                expected="a fast tokenizer",
            )
        name = str(getattr(tokenizer, "name_or_path", "") or "transformers-tokenizer")
        base = profile or profile_for(name) or ModelProfile()
        if profile is None and Path(name).is_dir():  # its sentence_bert_config.json wins
            base = folder_profile(Path(name), profile_for(name))
        declared = getattr(tokenizer, "model_max_length", None)
        if isinstance(declared, int) and declared < NO_LIMIT_SENTINEL:
            base = replace(base, max_input_tokens=base.max_input_tokens or declared)
        return cls(backend, with_explicit_limit(base, max_input_tokens, name), name)


# -- loading: the family's rows of ``_loading.FAMILIES`` ---------------------------------


def load_file(source: str, explicit: int | None) -> HuggingFaceTokenization:
    """A ``tokenizer.json`` file; ``explicit`` (``EMBEDDING_MAX_TOKENS``) is its limit."""
    tokenizer = read_tokenizer(Path(source).expanduser())
    return _with_limit(tokenizer, ModelProfile(), explicit, source)


def load_folder(source: str, explicit: int | None) -> HuggingFaceTokenization:
    """A local model folder (``tokenizer.json``, else converted by ``transformers``)."""
    tokenizer, profile = _folder(Path(source).expanduser(), profile_for(source))
    return _with_limit(tokenizer, profile, explicit, source)


def load_named(source: str, explicit: int | None) -> HuggingFaceTokenization:
    """A Hugging Face model name: an offline package that ships it, the cache, the Hub."""
    tokenizer, profile = _named(source)
    return _with_limit(tokenizer, profile, explicit, source)


def _with_limit(
    tokenizer: Tokenizer, profile: ModelProfile, explicit: int | None, source: str
) -> HuggingFaceTokenization:
    limited = with_explicit_limit(profile, explicit, source)
    return HuggingFaceTokenization(tokenizer, limited, source)


def _folder(folder: Path, known: ModelProfile | None) -> tuple[Tokenizer, ModelProfile]:
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


def _named(name: str) -> tuple[Tokenizer, ModelProfile]:
    known = profile_for(name)
    offline = _offline_folder(name)
    if offline is not None:
        return _folder(offline, known)
    check_model_available(name)  # at once, not after the Hub client's retries
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
    return read_tokenizer(tokenizer_file), folder_profile(folder, known)


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
