"""Model profiles: the known models' table, a model folder's own files winning over it,
and the tokens a provider adds, counted in every chunk.

Model folders are built here from the offline MiniLM ``tokenizer.json`` and the
configuration files a sentence-transformers model ships (``config_sentence_transformers.json``
with ``prompts`` and ``default_prompt_name``, ``sentence_bert_config.json`` with
``max_seq_length``), either as a plain folder or inside a Hugging Face cache under a
known model's name, as ``load_tokenization`` meets them offline.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import huggingface_hub.constants
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, TokenizationFactory, chunking_cases, examples
from tokenizers import Tokenizer

from langchain_asesoria import (
    BudgetError,
    ChunkingConfig,
    ChunkMetadata,
    ConfigurationError,
    LoadedPage,
    ModelLimitError,
    chunk_document,
    load_tokenization,
)
from langchain_asesoria.testing import ByteTokenization, WordTokenization
from langchain_asesoria.tokenization import (
    PROFILES,
    HuggingFaceTokenization,
    LoadedTokenization,
    ModelProfile,
    _profiles,
    profile_for,
)

pytestmark = pytest.mark.usefixtures("clean_settings_env")

BOE = Path(__file__).resolve().parents[2] / "examples" / "data" / "BOE-A-1991-14392.md"
WEB = "Given a web search query, retrieve relevant passages that answer the query"
E5 = ModelProfile("passage: ", "query: ", 512)
E5_INSTRUCT = ModelProfile("", f"Instruct: {WEB}\nQuery: ", 512)
QWEN3 = ModelProfile("", f"Instruct: {WEB}\nQuery:", 32768)
BGE_EN = ModelProfile("", "Represent this sentence for searching relevant passages: ", 512)
JINA = ModelProfile(
    "Represent the document for retrieval: ",
    "Represent the query for retrieving evidence documents: ",
    8192,
)


# -- the table -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("intfloat/multilingual-e5-large-instruct", E5_INSTRUCT),
        ("intfloat/multilingual-e5-base", E5),
        ("intfloat/multilingual-e5-small", E5),
        ("intfloat/multilingual-e5-large", E5),
        ("intfloat/e5-base-v2", E5),
        ("intfloat/e5-mistral-7b-instruct", None),  # other prompts: not guessed
        ("Qwen/Qwen3-Embedding-0.6B", QWEN3),
        ("Qwen/Qwen3-Embedding-4B", QWEN3),
        ("Qwen/Qwen3-Embedding-8B", QWEN3),
        (
            "google/embeddinggemma-300m",
            ModelProfile("title: none | text: ", "task: search result | query: ", 2048),
        ),
        ("Alibaba-NLP/gte-multilingual-base", ModelProfile("", "", 8192)),
        ("jinaai/jina-embeddings-v3", JINA),
        ("Snowflake/snowflake-arctic-embed-l-v2.0", ModelProfile("", "query: ", 8192)),
        ("BAAI/bge-large-en-v1.5", BGE_EN),
        ("BAAI/bge-small-en-v1.5", BGE_EN),
        ("BAAI/bge-base-zh-v1.5", ModelProfile("", "为这个句子生成表示以用于检索相关文章：", 512)),  # noqa: RUF001
        ("BAAI/bge-m3", ModelProfile("", "", 8192)),
        ("sentence-transformers/all-MiniLM-L6-v2", ModelProfile("", "", 256)),
    ],
)
def test_the_table_knows_the_models_users_pick(name: str, expected: ModelProfile | None) -> None:
    assert profile_for(name) == expected


def test_every_row_names_its_source() -> None:
    """Each row of ``PROFILES`` follows a comment citing the model's card (or the README
    that stands for it): prefixes and limits are quoted, never remembered."""
    source = Path(_profiles.__file__).read_text(encoding="utf-8")
    table = source[source.index("PROFILES: tuple") :]
    lines = table.splitlines()
    for pattern, _ in PROFILES:
        row = next(index for index, line in enumerate(lines) if f'"{pattern}"' in line)
        comment = next(index for index in range(row, -1, -1) if lines[index].lstrip()[:1] == "#")
        block: list[str] = []
        for line in reversed(lines[: comment + 1]):
            if not line.lstrip().startswith("#"):
                break
            block.insert(0, line.strip())
        assert re.search(r"card|README", " ".join(block)), f"{pattern}: {block}"


# -- a model folder's own files -----------------------------------------------------------------


def _model_folder(
    folder: Path,
    minilm_folder: Path,
    st_config: Mapping[str, Any] | None = None,
    max_seq_length: int | None = None,
) -> Path:
    """A model folder: MiniLM's tokenizer, and the given sentence-transformers files."""
    folder.mkdir(parents=True)
    shutil.copy(minilm_folder / "tokenizer.json", folder / "tokenizer.json")
    shutil.copy(minilm_folder / "tokenizer_config.json", folder / "tokenizer_config.json")
    if st_config is not None:
        (folder / "config_sentence_transformers.json").write_text(json.dumps(st_config))
    if max_seq_length is not None:
        bert = {"max_seq_length": max_seq_length, "do_lower_case": False}
        (folder / "sentence_bert_config.json").write_text(json.dumps(bert))
    return folder


@pytest.mark.parametrize(
    ("st_config", "document", "query"),
    [
        ({"prompts": {"query": "q: ", "document": "d: "}}, "d: ", "q: "),
        ({"prompts": {"query": "q: ", "passage": "p: "}}, "p: ", "q: "),
        ({"prompts": {"corpus": "c: ", "passage": "p: ", "document": "d: "}}, "d: ", ""),
        (
            {"prompts": {"retrieval.query": "rq: ", "retrieval.passage": "rp: "}},
            "rp: ",
            "rq: ",
        ),
        ({"prompts": {"query": "q: ", "document": ""}}, "", "q: "),  # no prefix, said so
        ({"prompts": {"clasificar": "k: "}, "default_prompt_name": "clasificar"}, "k: ", "k: "),
        (
            {"prompts": {"query": "q: ", "clasificar": "k: "}, "default_prompt_name": "clasificar"},
            "k: ",
            "q: ",
        ),
        ({"prompts": {}, "default_prompt_name": None}, "", ""),
        ({"prompts": {"query": 3, "document": None}}, "", ""),  # not text: ignored
        ({"prompts": ["query: "]}, "", ""),
        (None, "", ""),
    ],
)
def test_a_folders_prompts_are_its_prefixes(
    tmp_path: Path,
    minilm_folder: Path,
    st_config: Mapping[str, Any] | None,
    document: str,
    query: str,
) -> None:
    """As sentence-transformers' ``encode_document``/``encode_query`` choose them."""
    folder = _model_folder(tmp_path / "modelo", minilm_folder, st_config, max_seq_length=300)
    tokenization = load_tokenization(folder)
    assert tokenization.prepare("Texto.") == f"{document}Texto."
    assert tokenization.prepare_query("¿Qué?") == f"{query}¿Qué?"
    assert tokenization.max_input_tokens == 300


@pytest.fixture
def hub_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty Hugging Face cache, offline: what a model name loads from without a network."""
    cache = tmp_path / "hub-cache"
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(cache))
    return cache


def _cached(cache: Path, name: str, minilm_folder: Path, **files: Any) -> None:
    """``name`` in the cache (the Hub's layout): MiniLM's tokenizer and ``files``."""
    repository = cache / f"models--{name.replace('/', '--')}"
    commit = "0" * 40
    (repository / "refs").mkdir(parents=True)
    (repository / "refs" / "main").write_text(commit)
    _model_folder(repository / "snapshots" / commit, minilm_folder, **files)


def test_e5_instruct_gives_documents_no_prefix(hub_cache: Path, minilm_folder: Path) -> None:
    name = "intfloat/multilingual-e5-large-instruct"
    _cached(hub_cache, name, minilm_folder)
    tokenization = load_tokenization(name)
    assert tokenization.prepare("Artículo 4.") == "Artículo 4."
    assert tokenization.prepare_query("¿Qué está exento?") == (
        f"Instruct: {WEB}\nQuery: ¿Qué está exento?"
    )
    assert tokenization.max_input_tokens == 512


def test_a_folders_own_files_win_over_the_table(hub_cache: Path, minilm_folder: Path) -> None:
    """A known model whose folder says otherwise (a fine-tuned copy saved under the same
    name, a newer revision): its prompts and its max_seq_length are what it reads."""
    name = "intfloat/multilingual-e5-base"
    prompts = {"prompts": {"query": "consulta: ", "document": "pasaje: "}}
    _cached(hub_cache, name, minilm_folder, st_config=prompts, max_seq_length=256)
    tokenization = load_tokenization(name)
    assert tokenization.prepare("Texto.") == "pasaje: Texto."
    assert tokenization.prepare_query("¿Qué?") == "consulta: ¿Qué?"
    assert tokenization.max_input_tokens == 256


def test_what_a_folder_leaves_unsaid_comes_from_the_table(
    hub_cache: Path, minilm_folder: Path
) -> None:
    """Only a query prompt in the folder: the document prefix and limit stay the table's."""
    name = "jinaai/jina-embeddings-v3"
    _cached(hub_cache, name, minilm_folder, st_config={"prompts": {"query": "pregunta: "}})
    tokenization = load_tokenization(name)
    assert tokenization.prepare("Texto.") == f"{JINA.document_prefix}Texto."
    assert tokenization.prepare_query("¿Qué?") == "pregunta: ¿Qué?"
    assert tokenization.max_input_tokens == 8192


def test_from_transformers_reads_the_folders_prompts(tmp_path: Path, minilm_folder: Path) -> None:
    folder = _model_folder(
        tmp_path / "modelo", minilm_folder, {"prompts": {"document": "d: "}}, max_seq_length=200
    )
    raw = Tokenizer.from_file(str(folder / "tokenizer.json"))

    class FolderTokenizer:  # what the adapter reads of a transformers fast tokenizer
        backend_tokenizer = raw
        name_or_path = str(folder)
        model_max_length = 512

    wrapped = HuggingFaceTokenization.from_transformers(FolderTokenizer())
    assert wrapped.prepare("x") == "d: x"
    assert wrapped.max_input_tokens == 200


# -- the tokens a provider adds -----------------------------------------------------------------


SPANISH = "El año 2025 el señor Muñoz pagó 1.000 € de cuota íntegra; ¿deducción? Sí."


@pytest.fixture(params=["bytes", "minilm", "tiktoken"])
def plain(request: pytest.FixtureRequest) -> LoadedTokenization:
    """A tokenization of each family, without a reserve."""
    if request.param == "bytes":
        return ByteTokenization(512)
    fixture = {"minilm": "minilm_512", "tiktoken": "tiktoken_512"}[request.param]
    loaded: LoadedTokenization = request.getfixturevalue(fixture)
    return loaded


def test_the_reserve_counts_in_every_whole_input_and_never_in_content(
    plain: LoadedTokenization,
) -> None:
    reserved = plain.reserving(9)
    texts = ["", "Hola", SPANISH, SPANISH * 30] * 40  # several batches of count_many
    assert [reserved.count(text) for text in texts] == [plain.count(text) + 9 for text in texts]
    assert list(reserved.count_many(texts)) == [plain.count(text) + 9 for text in texts]
    assert list(reserved.count_many(texts, content=True)) == list(
        plain.count_many(texts, content=True)
    )
    assert reserved.count_content(SPANISH) == plain.count_content(SPANISH)
    assert reserved.single_threaded().count(SPANISH) == plain.count(SPANISH) + 9
    assert plain.count(SPANISH) == plain.reserving(0).count(SPANISH)


def test_load_tokenization_takes_the_providers_reserve(minilm_folder: Path) -> None:
    plain = load_tokenization(minilm_folder)
    reserved = load_tokenization(minilm_folder, reserved_tokens=12)
    assert reserved.count(SPANISH) == plain.count(SPANISH) + 12
    assert reserved.max_input_tokens == plain.max_input_tokens


@pytest.mark.parametrize(
    ("reserve", "error"),
    [(-1, ConfigurationError), (512, ModelLimitError), (600, ModelLimitError)],
)
def test_a_reserve_that_cannot_work_is_refused(reserve: int, error: type[Exception]) -> None:
    with pytest.raises(error):
        ByteTokenization(512).reserving(reserve)
    if reserve < 0:
        with pytest.raises(ConfigurationError, match="reserved_tokens"):
            ModelProfile(max_input_tokens=512, reserved_tokens=reserve)


@pytest.mark.parametrize("reserve", [0, 1, 40, 200])
def test_every_chunk_fits_with_the_providers_tokens(
    minilm_512: HuggingFaceTokenization, reserve: int
) -> None:
    """What the model reads, the text plus the provider's tokens, is at most
    ``max_tokens``: ``token_count`` counts both, exactly."""
    tokenization = minilm_512.reserving(reserve)
    pages = [LoadedPage(BOE.read_text(encoding="utf-8")[:20_000], 1)]
    config = ChunkingConfig(max_tokens=256, overlap_tokens=32)
    metadata = ChunkMetadata(doc_id="ley", doc_type="law")
    chunks = chunk_document(pages, metadata, config=config, tokenization=tokenization)
    plain = chunk_document(pages, metadata, config=config, tokenization=minilm_512)
    for chunk in chunks:
        assert chunk.token_count == tokenization.count(chunk.embedding_text) <= 256
        assert chunk.token_count == minilm_512.count(chunk.embedding_text) + reserve
        assert chunk.overlap_tokens <= 32
    assert len(chunks) >= len(plain)
    if reserve == 0:
        assert chunks == plain
    if reserve >= 40:
        assert len(chunks) > len(plain)


_RESERVED = {
    name: TokenizationFactory(
        name,
        512,
        lambda prefix, special, fake=fake: fake(
            512, special_tokens=special, document_prefix=prefix
        ).reserving(13),
    )
    for name, fake in (("bytes", ByteTokenization), ("words", WordTokenization))
}


@settings(PROFILE, max_examples=examples(20), deadline=None)
@given(data=st.data())
@pytest.mark.parametrize("family", sorted(_RESERVED))
def test_budget_is_exact_and_held_with_a_reserve(family: str, data: st.DataObject) -> None:
    case = data.draw(chunking_cases(_RESERVED[family]), label="case")
    try:
        chunks = chunk_document(
            case.pages,
            case.metadata,
            sections=case.sections,
            config=case.config,
            tokenization=case.tokenization,
        )
    except BudgetError:
        return  # a budget the reserve leaves too small (the budget errors' own tests)
    for chunk in chunks:
        assert chunk.token_count == case.tokenization.count(chunk.embedding_text)
        assert chunk.token_count <= case.config.max_tokens
