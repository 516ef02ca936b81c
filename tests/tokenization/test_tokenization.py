"""Tokenization with the real offline all-MiniLM-L6-v2 tokenizer, profiles and loaders.

The E5 test at the end needs the Hugging Face Hub: set RUN_TOKENIZER_INTEGRATION=1.
"""

from __future__ import annotations

import itertools
import os
import pickle
from pathlib import Path

import huggingface_hub.constants
import pytest
import tokenizers
from tokenizers import Tokenizer

from langchain_asesoria import (
    Chunk,
    ChunkingConfig,
    ChunkMetadata,
    ConfigurationError,
    LoadedPage,
    MissingSettingError,
    ModelLimitError,
    Settings,
    Tokenization,
    TokenizerLoadError,
    chunk_document,
    join_pages,
    load_tokenization,
)
from langchain_asesoria.models import SIZE_CANDIDATES
from langchain_asesoria.tokenization import HuggingFaceTokenization, ModelProfile, profile_for

BOE = Path(__file__).resolve().parents[2] / "examples" / "data" / "BOE-A-1991-14392.md"
SPANISH = "El año 2025 el señor Muñoz pagó 1.000 € de cuota íntegra 😀; ¿deducción? Sí."


pytestmark = pytest.mark.usefixtures("clean_settings_env")


@pytest.fixture
def hub_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to reach the Hub fails at once instead of waiting for the network."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    # huggingface_hub reads the variable when imported (tokenizers imports it first).
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)


@pytest.fixture(scope="module")
def boe_pages() -> list[LoadedPage]:
    """The BOE law split into 8 pages at line boundaries, as a PDF loader would give them."""
    lines = BOE.read_text(encoding="utf-8").split("\n")
    size = len(lines) // 8 + 1
    return [
        LoadedPage("\n".join(lines[index * size : (index + 1) * size]), index + 1)
        for index in range(8)
    ]


def _raw_tokenizer(folder: Path) -> Tokenizer:
    return Tokenizer.from_file(str(folder / "tokenizer.json"))


# -- loading and real limits -----------------------------------------------------------------


def test_model_folder_gives_the_sentence_transformers_limit(minilm: HuggingFaceTokenization):
    # sentence_bert_config.json says 256; tokenizer_config.json says 512.
    assert minilm.max_input_tokens == 256
    assert isinstance(minilm, Tokenization)


def test_tokenizer_json_alone_declares_no_limit(minilm_folder: Path):
    with pytest.raises(MissingSettingError) as caught:
        load_tokenization(Settings(embedding_model=str(minilm_folder / "tokenizer.json")))
    assert "EMBEDDING_MAX_TOKENS" in str(caught.value)


def test_tokenizer_json_with_an_explicit_limit(minilm_512: HuggingFaceTokenization):
    assert minilm_512.max_input_tokens == 512


@pytest.mark.parametrize(
    ("source", "explicit", "expected"),
    [
        ("folder", None, 256),
        ("folder", 256, 256),
        ("folder", 128, 128),
        ("folder", 257, ModelLimitError),
        ("folder", 512, ModelLimitError),
        ("folder", 0, ModelLimitError),
        ("tokenizer.json", None, MissingSettingError),
        ("tokenizer.json", 512, 512),
        ("tokenizer.json", 0, ModelLimitError),
        ("name", None, 256),
        ("name", 128, 128),
        ("name", 384, ModelLimitError),
    ],
)
def test_limit_table(
    minilm_folder: Path,
    hub_offline: None,
    source: str,
    explicit: int | None,
    expected: int | type[Exception],
):
    model = {
        "folder": str(minilm_folder),
        "tokenizer.json": str(minilm_folder / "tokenizer.json"),
        "name": "sentence-transformers/all-MiniLM-L6-v2",
    }[source]
    settings = Settings(embedding_model=model)
    if isinstance(expected, int):
        tokenization = load_tokenization(settings, max_input_tokens=explicit)
        assert tokenization.max_input_tokens == expected
    else:
        with pytest.raises(expected):
            load_tokenization(settings, max_input_tokens=explicit)


def test_embedding_max_tokens_setting_is_the_explicit_limit(minilm_folder: Path):
    settings = Settings(embedding_model=str(minilm_folder), embedding_max_tokens=384)
    with pytest.raises(ModelLimitError) as caught:
        load_tokenization(settings)
    assert "384" in str(caught.value)
    assert "256" in str(caught.value)


@pytest.mark.parametrize(
    "name", ["sentence-transformers/all-MiniLM-L6-v2", "Sentence-Transformers/ALL-MiniLM-L6-v2"]
)
def test_known_name_loads_offline_from_the_installed_package(name: str, hub_offline: None):
    tokenization = load_tokenization(Settings(embedding_model=name))
    assert tokenization.max_input_tokens == 256
    assert tokenization.name == name
    assert tokenization.count("Hola mundo") == 5


def test_unknown_hub_name_fails_with_a_way_to_work_offline(hub_offline: None):
    with pytest.raises(TokenizerLoadError) as caught:
        load_tokenization(
            Settings(embedding_model="organizacion-inexistente/modelo-ñ-que-no-existe")
        )
    message = str(caught.value)
    assert "organizacion-inexistente/modelo-ñ-que-no-existe" in message
    assert "Offline" in message
    assert "EMBEDDING_MODEL" in message
    assert "tokenizer.json" in message


def test_unreadable_tokenizer_file_fails_to_load(tmp_path: Path):
    path = tmp_path / "tokenizer.json"
    path.write_text('{"version": "1.0", "roto": ', encoding="utf-8")
    with pytest.raises(TokenizerLoadError):
        load_tokenization(Settings(embedding_model=str(path), embedding_max_tokens=128))


# -- no padding, no truncation, exact counts ----------------------------------------------------


def test_the_shipped_tokenizer_pads_and_truncates_to_128(minilm_folder: Path):
    raw = _raw_tokenizer(minilm_folder)
    assert raw.truncation is not None
    assert raw.truncation["max_length"] == 128
    assert raw.padding is not None
    assert len(raw.encode("Hola mundo").ids) == 128


def test_long_text_is_counted_whole_not_truncated(
    minilm: HuggingFaceTokenization, minilm_folder: Path
):
    text = BOE.read_text(encoding="utf-8")[:6000]
    reference = _raw_tokenizer(minilm_folder)
    assert len(reference.encode(text).ids) == 128
    reference.no_truncation()
    reference.no_padding()
    expected = len(reference.encode(text).ids)
    assert 1500 < expected < 2500
    assert minilm.count(text) == expected


def test_short_text_is_not_padded(minilm: HuggingFaceTokenization):
    assert minilm.count("Hola mundo") == 5  # [CLS] ho ##la mundo [SEP], no [PAD] up to 128
    assert minilm.tokenizer.encode("Hola mundo").tokens == ["[CLS]", "ho", "##la", "mundo", "[SEP]"]


def test_adapter_owns_a_copy_without_truncation_or_padding(
    minilm_folder: Path, minilm_512: HuggingFaceTokenization
):
    raw = _raw_tokenizer(minilm_folder)
    text = BOE.read_text(encoding="utf-8")[:3000]
    wrapped = HuggingFaceTokenization(raw, ModelProfile(max_input_tokens=256), "minilm")
    assert wrapped.tokenizer is not raw
    assert wrapped.tokenizer.truncation is None
    assert wrapped.tokenizer.padding is None
    assert raw.truncation is not None
    assert raw.truncation["max_length"] == 128
    assert raw.padding is not None
    assert len(raw.encode(text).ids) == 128
    assert wrapped.count(text) == minilm_512.count(text) > 128


def test_the_model_cache_is_widened_here_and_in_every_unpickled_copy(
    unigram_folder: Path, monkeypatch: pytest.MonkeyPatch
):
    """Unigram and BPE models keep the words they have tokenized (10,000 by default in
    ``tokenizers``); the adapter widens that cache on its own copy, and again in a
    worker process's copy, which comes back from JSON with the default. Counts stay
    those of the user's tokenizer."""
    from langchain_asesoria.tokenization import _huggingface

    widened: list[Tokenizer] = []
    real = _huggingface._widen_cache

    def recorded(tokenizer: Tokenizer) -> None:
        widened.append(tokenizer)
        real(tokenizer)

    monkeypatch.setattr(_huggingface, "_widen_cache", recorded)
    raw = Tokenizer.from_file(str(unigram_folder / "tokenizer.json"))
    wrapped = HuggingFaceTokenization(raw, ModelProfile(max_input_tokens=512), "unigram")
    copy = pickle.loads(pickle.dumps(wrapped))
    assert widened == [wrapped.tokenizer, copy.tokenizer]
    # ``Model._resize_cache`` came in tokenizers 0.21; with 0.20 there is nothing to widen
    release = tuple(int(part) for part in tokenizers.__version__.split(".")[:2])
    assert callable(getattr(raw.model, "_resize_cache", None)) == (release >= (0, 21))
    assert _huggingface._MODEL_CACHE > 10_000
    text = BOE.read_text(encoding="utf-8")[:5000]
    assert wrapped.count(text) == copy.count(text) == len(raw.encode(text).ids)


def test_adapter_without_a_limit_asks_for_it(minilm_folder: Path):
    with pytest.raises(MissingSettingError) as caught:
        HuggingFaceTokenization(_raw_tokenizer(minilm_folder), ModelProfile(), "sin-límite")
    assert "EMBEDDING_MAX_TOKENS" in str(caught.value)


@pytest.mark.parametrize(
    "text",
    ["", "Hola", SPANISH, "Cañón\n\nÁrbol\tÑu €€€", "👨‍👩‍👧‍👦 e\u0301 🇪🇸"],
)
def test_count_content_excludes_the_two_special_tokens(minilm: HuggingFaceTokenization, text: str):
    assert minilm.count(text) == minilm.count_content(text) + 2
    assert minilm.count_content(text) == len(minilm.token_starts(text))


def test_count_many_matches_count(minilm: HuggingFaceTokenization):
    texts = ["", "Hola", SPANISH, SPANISH * 20] * 50  # several batches: counted ahead
    assert list(minilm.count_many(texts)) == [minilm.count(text) for text in texts]
    assert list(minilm.count_many(iter(texts), content=True)) == [
        minilm.count_content(text) for text in texts
    ]


@pytest.mark.parametrize("text", [SPANISH, BOE.read_text(encoding="utf-8")[:4000]])
def test_token_starts_are_ascending_offsets_inside_the_text(
    minilm: HuggingFaceTokenization, text: str
):
    starts = list(minilm.token_starts(text))
    assert starts
    assert all(a < b for a, b in itertools.pairwise(starts))
    assert starts[0] >= 0
    assert starts[-1] < len(text)
    assert all(not text[start].isspace() for start in starts)


@pytest.mark.parametrize(
    ("left", "right", "whole", "parts"), [("impuesto", "s", 3, 4), ("deduc", "ción", 4, 5)]
)
def test_counts_of_the_whole_differ_from_sums_of_parts(
    minilm: HuggingFaceTokenization, left: str, right: str, whole: int, parts: int
):
    assert minilm.count_content(left + right) == whole
    assert minilm.count_content(left) + minilm.count_content(right) == parts


# -- profiles, prepare and prepare_query ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("intfloat/multilingual-e5-base", ModelProfile("passage: ", "query: ", 512)),
        ("intfloat/multilingual-e5-large", ModelProfile("passage: ", "query: ", 512)),
        ("INTFLOAT/Multilingual-E5-Small", ModelProfile("passage: ", "query: ", 512)),
        ("intfloat/e5-base-v2", ModelProfile("passage: ", "query: ", 512)),
        ("sentence-transformers/all-MiniLM-L6-v2", ModelProfile("", "", 256)),
        ("BAAI/bge-m3", ModelProfile("", "", 8192)),
        ("organizacion/desconocido", None),
    ],
)
def test_profile_for(name: str, expected: ModelProfile | None):
    assert profile_for(name) == expected


@pytest.fixture
def e5_like(minilm_folder: Path) -> HuggingFaceTokenization:
    """The MiniLM vocabulary with the E5 profile: prefixes and limit are data."""
    profile = profile_for("intfloat/multilingual-e5-base")
    assert profile is not None
    return HuggingFaceTokenization(_raw_tokenizer(minilm_folder), profile, "e5-like")


@pytest.mark.parametrize(
    ("content", "context", "expected"),
    [
        ("Texto del artículo.", "", "passage: Texto del artículo."),
        (
            "Texto del artículo.",
            "Ley 19/1991 > Artículo 5",
            "passage: Ley 19/1991 > Artículo 5\n\nTexto del artículo.",
        ),
        ("", "", "passage: "),
    ],
)
def test_prepare_builds_prefix_context_and_content(
    e5_like: HuggingFaceTokenization, content: str, context: str, expected: str
):
    assert e5_like.max_input_tokens == 512
    assert e5_like.prepare(content, context) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("¿Cuánto es el mínimo exento?", "query: ¿Cuánto es el mínimo exento?"),
        ("query: ¿Cuánto es el mínimo exento?", "query: ¿Cuánto es el mínimo exento?"),
        ("passage: no es una consulta", "query: passage: no es una consulta"),
    ],
)
def test_prepare_query_adds_the_prefix_exactly_once(
    e5_like: HuggingFaceTokenization, query: str, expected: str
):
    assert e5_like.prepare_query(query) == expected
    assert e5_like.prepare_query(e5_like.prepare_query(query)) == expected


def test_prefix_tokens_are_counted(
    e5_like: HuggingFaceTokenization, minilm: HuggingFaceTokenization
):
    prepared = e5_like.prepare(SPANISH)
    assert e5_like.count(prepared) > minilm.count(SPANISH)
    assert e5_like.count(prepared) == minilm.count("passage: " + SPANISH)


def test_a_profile_without_prefix_leaves_text_unchanged(minilm: HuggingFaceTokenization):
    assert minilm.prepare(SPANISH) == SPANISH
    assert minilm.prepare_query(SPANISH) == SPANISH


# -- from_transformers with a duck-typed tokenizer ------------------------------------------------


class TransformersLike:
    """The three attributes of a transformers fast tokenizer that the adapter reads."""

    def __init__(self, backend: object, name_or_path: str, model_max_length: int) -> None:
        self.backend_tokenizer = backend
        self.name_or_path = name_or_path
        self.model_max_length = model_max_length


VERY_LARGE_INTEGER = int(1e30)  # what transformers declares when it knows no limit


@pytest.mark.parametrize(
    ("name", "declared", "explicit", "expected_limit", "expected_prefix"),
    [
        ("sentence-transformers/all-MiniLM-L6-v2", 512, None, 256, ""),
        ("intfloat/multilingual-e5-base", 512, None, 512, "passage: "),
        ("/modelos/propio", 300, None, 300, ""),
        ("/modelos/propio", 300, 128, 128, ""),
        ("/modelos/propio", VERY_LARGE_INTEGER, 200, 200, ""),
    ],
)
def test_from_transformers(
    minilm_folder: Path,
    name: str,
    declared: int,
    explicit: int | None,
    expected_limit: int,
    expected_prefix: str,
):
    backend = _raw_tokenizer(minilm_folder)
    tokenization = HuggingFaceTokenization.from_transformers(
        TransformersLike(backend, name, declared), max_input_tokens=explicit
    )
    assert tokenization.max_input_tokens == expected_limit
    assert tokenization.name == name
    assert tokenization.prepare("x") == expected_prefix + "x"
    assert tokenization.count("Hola mundo") == 5
    assert backend.truncation is not None, "the caller's backend keeps its configuration"


@pytest.mark.parametrize(
    ("name", "declared", "explicit"),
    [
        ("intfloat/multilingual-e5-base", 512, 1024),
        ("/modelos/propio", 300, 301),
    ],
)
def test_from_transformers_refuses_a_limit_above_the_real_one(
    minilm_folder: Path, name: str, declared: int, explicit: int
):
    # As load_tokenization does: an explicit limit may lower a known limit, never raise it.
    with pytest.raises(ModelLimitError):
        HuggingFaceTokenization.from_transformers(
            TransformersLike(_raw_tokenizer(minilm_folder), name, declared),
            max_input_tokens=explicit,
        )


def test_from_transformers_without_any_limit_asks_for_it(minilm_folder: Path):
    with pytest.raises(MissingSettingError):
        HuggingFaceTokenization.from_transformers(
            TransformersLike(_raw_tokenizer(minilm_folder), "/modelos/propio", VERY_LARGE_INTEGER)
        )


@pytest.mark.parametrize("backend", [None, "no es un tokenizer", object()])
def test_from_transformers_without_a_fast_backend(backend: object):
    with pytest.raises(TokenizerLoadError) as caught:
        HuggingFaceTokenization.from_transformers(TransformersLike(backend, "lento", 512))
    assert "use_fast=True" in str(caught.value)


def test_from_transformers_with_a_plain_object():
    with pytest.raises(TokenizerLoadError):
        HuggingFaceTokenization.from_transformers(object())


# -- the three candidate sizes on a real multi-page Spanish law -------------------


def _check_chunks(
    chunks: list[Chunk], pages: list[LoadedPage], config: ChunkingConfig, tokenization: Tokenization
) -> None:
    joined = join_pages(pages, config.page_separator)
    text = joined.text
    assert len(chunks) > 10
    covered = [False] * len(text)
    for index, chunk in enumerate(chunks):
        assert chunk.text == text[chunk.start : chunk.end]
        assert chunk.text == chunk.text.strip()
        assert chunk.token_count == tokenization.count(chunk.embedding_text) <= config.max_tokens
        assert 0 <= chunk.overlap_tokens <= config.overlap_tokens
        assert chunk.metadata.chunk_index == index
        assert chunk.metadata.page == joined.page_at(chunk.start)
        assert chunk.metadata.page_end == joined.page_at(chunk.end - 1)
        covered[chunk.start : chunk.end] = [True] * (chunk.end - chunk.start)
    assert all(covered[i] or char.isspace() for i, char in enumerate(text))
    assert {chunk.metadata.page for chunk in chunks} == {page.page for page in pages}
    assert any(chunk.metadata.page != chunk.metadata.page_end for chunk in chunks)


METADATA = ChunkMetadata(
    doc_id="BOE-A-1991-14392", doc_type="law", tax="IP", fiscal_year=2025, vigencia="vigente"
)


@pytest.mark.parametrize("detect", [False, True], ids=["plain", "markdown"])
@pytest.mark.parametrize(
    "config", SIZE_CANDIDATES, ids=[f"{c.max_tokens}/{c.overlap_tokens}" for c in SIZE_CANDIDATES]
)
def test_candidate_sizes_with_minilm_512(
    minilm_512: HuggingFaceTokenization,
    boe_pages: list[LoadedPage],
    config: ChunkingConfig,
    detect: bool,
):
    chunks = chunk_document(
        boe_pages,
        METADATA,
        config=config,
        tokenization=minilm_512,
        detect_markdown_headings=detect,
    )
    _check_chunks(chunks, boe_pages, config, minilm_512)
    assert any(chunk.overlap_tokens > 0 for chunk in chunks)


@pytest.mark.parametrize(
    ("config", "refused"), list(zip(SIZE_CANDIDATES, [False, True, True], strict=True))
)
def test_candidate_sizes_against_the_real_256_limit(
    minilm: HuggingFaceTokenization,
    boe_pages: list[LoadedPage],
    config: ChunkingConfig,
    refused: bool,
):
    if refused:
        with pytest.raises(ModelLimitError):
            chunk_document(boe_pages, METADATA, config=config, tokenization=minilm)
    else:
        chunks = chunk_document(boe_pages, METADATA, config=config, tokenization=minilm)
        _check_chunks(chunks, boe_pages, config, minilm)


@pytest.fixture(scope="module")
def e5() -> HuggingFaceTokenization:
    """The provisional model of the chunking specification, from the Hub (or its local cache)."""
    settings = Settings(embedding_model="intfloat/multilingual-e5-base", embedding_max_tokens=None)
    return load_tokenization(settings)


@pytest.mark.integration
@pytest.mark.skipif(
    os.environ.get("RUN_TOKENIZER_INTEGRATION") != "1",
    reason="set RUN_TOKENIZER_INTEGRATION=1 to download the multilingual-e5-base tokenizer",
)
@pytest.mark.parametrize(
    "config", SIZE_CANDIDATES, ids=[f"{c.max_tokens}/{c.overlap_tokens}" for c in SIZE_CANDIDATES]
)
def test_candidate_sizes_with_the_real_e5_tokenizer(
    e5: HuggingFaceTokenization, boe_pages: list[LoadedPage], config: ChunkingConfig
):
    assert e5.max_input_tokens == 512
    chunks = chunk_document(boe_pages, METADATA, config=config, tokenization=e5)
    _check_chunks(chunks, boe_pages, config, e5)
    for chunk in chunks:
        assert chunk.embedding_text.startswith("passage: ")
        assert chunk.token_count > e5.count(chunk.text)
    assert e5.prepare_query("¿Qué es el mínimo exento?") == "query: ¿Qué es el mínimo exento?"


def test_from_transformers_reads_the_folder_real_limit(minilm_folder: Path) -> None:
    """A tokenizer loaded from a sentence-transformers folder keeps its real limit (256)."""

    class FolderTokenizer:
        backend_tokenizer = Tokenizer.from_file(str(minilm_folder / "tokenizer.json"))
        name_or_path = str(minilm_folder)
        model_max_length = 512

    wrapped = HuggingFaceTokenization.from_transformers(FolderTokenizer())
    assert wrapped.max_input_tokens == 256
    with pytest.raises(ModelLimitError):
        HuggingFaceTokenization.from_transformers(FolderTokenizer(), max_input_tokens=400)


def test_load_tokenization_takes_the_model_itself(minilm_folder: Path) -> None:
    """The one-call start: a model name, a folder or a ``tokenizer.json`` path."""
    by_name = load_tokenization("sentence-transformers/all-MiniLM-L6-v2")
    assert by_name.max_input_tokens == 256
    assert load_tokenization(minilm_folder).count("Hola") == by_name.count("Hola")
    with pytest.raises(ConfigurationError, match="model twice"):
        load_tokenization("a", model="b")
