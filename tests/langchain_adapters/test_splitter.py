"""AsesoriaTextSplitter: a drop-in LangChain TextSplitter with exact engine offsets."""

from __future__ import annotations

import asyncio
import logging
import math
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import BaseDocumentTransformer, Document
from langchain_text_splitters import RecursiveCharacterTextSplitter, TextSplitter
from tokenizers import Tokenizer

from langchain_asesoria import (
    BudgetError,
    ChunkingConfig,
    ConfigurationError,
    ContextTooLongError,
    IndivisibleCharacterError,
    MissingSettingError,
    ModelLimitError,
    Settings,
    TokenizerLoadError,
)
from langchain_asesoria.langchain import (
    SPLITTER_KEYS,
    AsesoriaDocumentTransformer,
    AsesoriaTextSplitter,
)
from langchain_asesoria.langchain.documents import original_text
from langchain_asesoria.records import (
    CHUNK_ID,
    CHUNK_INDEX,
    DOC_ID,
    DOCUMENT_FIELDS,
    EMBEDDING_TEXT,
    END_INDEX,
    OVERLAP_TOKENS,
    PAGE,
    PAGE_END,
    SECTION_LABEL,
    SECTION_PATH,
    START_INDEX,
    TEXT,
    TOKEN_COUNT,
)
from langchain_asesoria.store_values import MAX_METADATA_CHARS, store_value
from langchain_asesoria.testing import ByteTokenization, WordTokenization

REPEATED = "\n\n".join(["La compensación se aplica.", "Saldo negativo del año."] * 6)


def splitter(
    max_tokens: int = 30,
    overlap: int = 15,
    *,
    tokenization: Any = None,
    **options: Any,
) -> AsesoriaTextSplitter:
    return AsesoriaTextSplitter(
        tokenization or WordTokenization(512),
        ChunkingConfig(max_tokens=max_tokens, overlap_tokens=overlap),
        **options,
    )


def assert_exact(text: str, documents: list[Document]) -> None:
    previous = -1
    for document in documents:
        start, end = document.metadata[START_INDEX], document.metadata[END_INDEX]
        assert text[start:end] == original_text(document)
        assert start > previous
        previous = start


def test_is_a_langchain_text_splitter_and_document_transformer() -> None:
    instance = splitter()
    assert isinstance(instance, TextSplitter)
    assert isinstance(instance, BaseDocumentTransformer)
    assert instance._chunk_size == 30
    assert instance._chunk_overlap == 15


def test_offsets_are_exact_on_repeated_paragraphs_where_langchain_goes_wrong() -> None:
    """LangChain's add_start_index searches with str.find, mixing token and character
    units: on repeated paragraphs with overlap it reports -1 and jumps back."""
    tokenization = WordTokenization(512)
    langchain = RecursiveCharacterTextSplitter(
        chunk_size=30, chunk_overlap=15, length_function=tokenization.count, add_start_index=True
    )
    theirs = [d.metadata[START_INDEX] for d in langchain.create_documents([REPEATED])]
    assert -1 in theirs or theirs != sorted(theirs)

    ours = splitter(30, 15, tokenization=tokenization).create_documents([REPEATED])
    assert len(ours) > 3
    assert_exact(REPEATED, ours)
    assert any(d.metadata[OVERLAP_TOKENS] > 0 for d in ours)
    assert len({d.page_content for d in ours}) < len(ours)  # identical chunks, distinct offsets


def test_split_text_returns_the_original_texts_in_order() -> None:
    texts = splitter().split_text(REPEATED)
    documents = splitter().create_documents([REPEATED])
    assert texts == [d.page_content for d in documents]
    assert all(text == text.strip() and text in REPEATED for text in texts)


def test_metadata_keeps_only_what_a_vector_store_takes_and_the_input_unchanged() -> None:
    """Nested values and ``None`` are left out, as the transformer leaves them out; each
    chunk has its own dict, and the input is not touched."""
    metadata = {"source": "guia.txt", "tags": {"tax": "IRPF"}, "authors": ["AEAT"], "x": None}
    documents = splitter().create_documents([REPEATED], [metadata])
    assert len(documents) > 1
    for document in documents:
        assert document.metadata["source"] == "guia.txt"
        assert all(isinstance(v, str | int | float | bool) for v in document.metadata.values())
    documents[0].metadata["source"] = "otra.txt"
    assert documents[1].metadata["source"] == "guia.txt"
    assert metadata == {
        "source": "guia.txt",
        "tags": {"tax": "IRPF"},
        "authors": ["AEAT"],
        "x": None,
    }


#: A loader's values -> what every chunk keeps (``None``: left out, and told).
LOADER_VALUES: dict[str, tuple[Any, Any]] = {
    "title": ("Guía", "Guía"),
    "total_pages": (17, 17),
    "ratio": (0.5, 0.5),
    "draft": (False, False),
    "creationdate": (datetime(2024, 9, 6, 10, 30), "2024-09-06T10:30:00"),
    "day": (date(2024, 9, 6), "2024-09-06"),
    "at": (time(10, 30), "10:30:00"),
    "missing": (None, None),
    "authors": (["AEAT"], None),
    "tags": ({"tax": "IRPF"}, None),
    "set": ({"a"}, None),
    "raw": (b"%PDF", None),
    "nan": (float("nan"), None),
    "infinite": (float("inf"), None),
    "huge": (10**30, None),
    "int64": (2**63 - 1, 2**63 - 1),
    "page_text": ("x" * (MAX_METADATA_CHARS + 1), None),
    "long_text": ("x" * MAX_METADATA_CHARS, "x" * MAX_METADATA_CHARS),
}


@pytest.mark.parametrize("make", ["splitter", "transformer"])
def test_loader_metadata_is_kept_converted_or_told(
    make: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Both classes: every value a vector store takes as it is, dates and times as ISO
    text, and the others left out with one line per call naming each key, why and from
    how many documents."""
    metadata = {"source": "guia.txt", **{key: given for key, (given, _) in LOADER_VALUES.items()}}
    kept = {key: value for key, (_, value) in LOADER_VALUES.items() if value is not None}
    dropped = {key for key, (_, value) in LOADER_VALUES.items() if value is None}
    with caplog.at_level(logging.WARNING, logger="langchain_asesoria"):
        if make == "splitter":
            documents = splitter().create_documents([REPEATED], [metadata])
        else:
            documents = AsesoriaDocumentTransformer(WordTokenization(512), chunk_size=24).invoke(
                [Document(REPEATED, metadata=metadata)]
            )
    assert len(documents) > 1
    for document in documents:
        assert {key: document.metadata.get(key) for key in kept} == kept
        assert not dropped & set(document.metadata)
    told = [record.getMessage() for record in caplog.records]
    assert len(told) == 1, told
    assert told[0].startswith("metadata left out of the chunks of this call")
    for key in dropped:
        assert f"{key!r} (" in told[0]
    for reason in (
        "'authors' (a list) from 1 document, first 'guia.txt'",
        "'missing' (None) from 1 document",
        "'nan' (nan, not a finite number) from 1 document",
        "'huge' (an integer beyond 64 bits) from 1 document",
        "'page_text' (a text over 8,192 characters) from 1 document",
    ):
        assert reason in told[0]


@given(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.text(max_size=5),
        st.lists(st.integers(), max_size=2),
        st.binary(max_size=2),
    )
)
def test_a_stored_value_is_one_every_vector_store_takes(value: Any) -> None:
    stored = store_value(value)
    if stored is not None:
        assert isinstance(stored, str | int | float | bool)
        assert not isinstance(stored, float) or math.isfinite(stored)
        assert not isinstance(stored, int) or -(2**63) <= stored < 2**63
        assert stored == value
    else:
        assert (
            value is None
            or isinstance(value, list | bytes)
            or (isinstance(value, float) and not math.isfinite(value))
            or (isinstance(value, int) and not -(2**63) <= value < 2**63)
        )


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        (START_INDEX, int),
        (END_INDEX, int),
        (TOKEN_COUNT, int),
        (OVERLAP_TOKENS, int),
        (CHUNK_INDEX, int),
        (PAGE, int),
        (PAGE_END, int),
        (DOC_ID, str),
        (CHUNK_ID, str),
    ],
)
def test_added_metadata_keys_and_types(key: str, expected: type) -> None:
    for document in splitter().create_documents([REPEATED]):
        assert isinstance(document.metadata[key], expected)


def test_only_splitter_keys_are_added() -> None:
    document = splitter().create_documents(["Un texto corto."], [{"source": "a"}])[0]
    added = set(document.metadata) - {"source"}
    assert added <= {*SPLITTER_KEYS, *DOCUMENT_FIELDS}
    law = "# Ley 1/2024\n\n## TÍTULO I. Objeto\n\n### Artículo 1. Objeto\n\nTexto."
    last = splitter().create_documents([law], [{"source": "ley.md"}])[-1]
    added = set(last.metadata) - {"source"}
    assert {"section_1", "section_3", "titulo", "articulo_title"} <= added
    assert added <= {*SPLITTER_KEYS, *DOCUMENT_FIELDS}
    assert document.metadata[DOC_ID] == "a"
    assert (document.metadata[PAGE], document.metadata[PAGE_END]) == (1, 1)
    assert document.id == document.metadata[CHUNK_ID]


def test_split_documents_keeps_input_order_and_restarts_chunk_index() -> None:
    inputs = [
        Document(page_content=REPEATED, metadata={"source": "a"}),
        Document(page_content="Otro documento breve.", metadata={"source": "b"}),
        Document(page_content=REPEATED, metadata={"source": "c"}),
    ]
    documents = splitter().split_documents(inputs)
    sources = [d.metadata["source"] for d in documents]
    assert sources == sorted(sources)
    for name in "abc":
        own = [d for d in documents if d.metadata["source"] == name]
        assert [d.metadata[CHUNK_INDEX] for d in own] == list(range(len(own)))
    assert splitter().transform_documents(inputs) == documents


def test_atransform_documents_matches_transform_documents() -> None:
    inputs = [Document(page_content=REPEATED, metadata={"source": "a"})]
    instance = splitter()
    result = asyncio.run(instance.atransform_documents(inputs))
    assert result == instance.transform_documents(inputs)


def test_budget_counts_the_whole_model_input() -> None:
    tokenization = ByteTokenization(128, document_prefix="passage: ")
    documents = splitter(40, 8, tokenization=tokenization).create_documents([REPEATED])
    for document in documents:
        embedding_text = document.page_content
        assert embedding_text == "passage: " + original_text(document)
        assert document.metadata[TOKEN_COUNT] == tokenization.count(embedding_text) <= 40


def test_page_content_embedding_text_mode_keeps_the_original_in_metadata() -> None:
    tokenization = ByteTokenization(128, document_prefix="passage: ")
    instance = splitter(40, 8, tokenization=tokenization, page_content="embedding_text")
    documents = instance.create_documents([REPEATED])
    assert instance.split_text(REPEATED) == [d.page_content for d in documents]
    for document in documents:
        assert document.page_content.startswith("passage: ")
        start, end = document.metadata[START_INDEX], document.metadata[END_INDEX]
        assert REPEATED[start:end] == document.metadata[TEXT]
        assert EMBEDDING_TEXT not in document.metadata


def test_markdown_headings_give_sections_when_asked() -> None:
    text = "# Título\n\nPrimer cuerpo.\n\n## Sub\n\nSegundo cuerpo."
    config = ChunkingConfig(max_tokens=60, overlap_tokens=0)
    instance = AsesoriaTextSplitter(WordTokenization(), config, detect_markdown_headings=True)
    documents = instance.create_documents([text])
    assert [(d.metadata[SECTION_LABEL], d.metadata[SECTION_PATH]) for d in documents] == [
        ("Título", "Título"),
        ("Sub", "Título > Sub"),
    ]
    # A section's first chunk opens with its own heading: the context does not repeat it.
    assert documents[1].page_content.startswith("Título\n\n## Sub")


def test_empty_and_blank_texts_give_no_chunks() -> None:
    assert splitter().create_documents(["", "  \n\n "]) == []


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({"page_content": "content"}, ConfigurationError),
        ({"tokenization": 42}, ConfigurationError),
        ({"tokenization": "not a tokenizer"}, TokenizerLoadError),
    ],
)
def test_bad_arguments_are_refused(arguments: dict[str, Any], error: type[Exception]) -> None:
    tokenization = arguments.pop("tokenization", WordTokenization())
    config = ChunkingConfig(max_tokens=30, overlap_tokens=0)
    with pytest.raises(error):
        AsesoriaTextSplitter(tokenization, config, **arguments)


@pytest.mark.parametrize("component", [AsesoriaTextSplitter, AsesoriaDocumentTransformer])
def test_a_tokenizer_name_is_loaded_when_built(component: Any) -> None:
    """A name ``load_tokenization`` knows is loaded, not kept as a string that fails on
    the first document; one it cannot load, or one with no input limit of its own (a
    tiktoken encoding alone), fails when the class is built, with a typed error."""
    pytest.importorskip("tiktoken", reason="the tiktoken extra")
    built = component("text-embedding-3-small", chunk_size=64)
    assert built.tokenization.name == "text-embedding-3-small"
    chunks = built.transform_documents([Document("El impuesto grava la renta. " * 40)])
    assert len(chunks) > 1
    assert all(0 < chunk.metadata[TOKEN_COUNT] <= 64 for chunk in chunks)
    with pytest.raises(MissingSettingError, match="cl100k_base"):
        component("cl100k_base", chunk_size=64)
    with pytest.raises(TokenizerLoadError, match="no-such-model"):
        component("no-such-model", chunk_size=64)


def test_budget_above_the_model_limit_fails_at_construction() -> None:
    with pytest.raises(ModelLimitError, match="max_tokens=600 exceeds the real input limit 512"):
        AsesoriaTextSplitter(ByteTokenization(512), ChunkingConfig(600, 0))


def test_metadatas_of_another_length_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="2 texts but 1 metadatas"):
        splitter().create_documents(["a", "b"], [{}])


def test_errors_name_the_source() -> None:
    instance = AsesoriaTextSplitter(ByteTokenization(8), ChunkingConfig(5, 0))
    with pytest.raises(IndivisibleCharacterError, match=r"manual\.txt"):
        instance.create_documents(["ok 🎉"], [{"source": "manual.txt"}])
    with pytest.raises(BudgetError, match=r"texts\[1\]"):
        instance.create_documents(["ok", "🎉"])


def test_from_settings_reads_the_model_and_the_budget(minilm_folder: Path) -> None:
    settings = Settings(
        embedding_model=str(minilm_folder), chunk_size_tokens=64, chunk_overlap_tokens=8
    )
    instance = AsesoriaTextSplitter.from_settings(settings, detect_markdown_headings=True)
    assert instance.config == ChunkingConfig(64, 8)
    (titled,) = instance.create_documents(["# Título\n\nCuerpo."])
    assert titled.metadata[SECTION_LABEL] == "Título"  # the keyword reached the splitter
    assert instance.tokenization.max_input_tokens == 256
    assert_exact(REPEATED, instance.create_documents([REPEATED]))
    with pytest.raises(MissingSettingError, match="CHUNK_SIZE_TOKENS"):
        AsesoriaTextSplitter.from_settings(Settings(embedding_model=str(minilm_folder)))


def test_from_huggingface_tokenizer_with_a_tokenizers_tokenizer(minilm_folder: Path) -> None:
    tokenizer = Tokenizer.from_file(str(minilm_folder / "tokenizer.json"))
    truncation = tokenizer.truncation  # this file truncates at 128 tokens
    instance = AsesoriaTextSplitter.from_huggingface_tokenizer(
        tokenizer, chunk_size=48, chunk_overlap=8, max_input_tokens=256
    )
    documents = instance.create_documents([REPEATED])
    assert_exact(REPEATED, documents)
    assert all(d.metadata[TOKEN_COUNT] <= 48 for d in documents)
    assert tokenizer.truncation == truncation  # the caller's tokenizer is left alone


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"chunk_size": 48}, MissingSettingError, "EMBEDDING_MAX_TOKENS"),
        ({"max_input_tokens": 256}, ConfigurationError, "chunk_size is required"),
        (
            {"chunk_size": 48, "max_input_tokens": 256, "length_function": len},
            ConfigurationError,
            "length_function",
        ),
    ],
)
def test_from_huggingface_tokenizer_refuses_what_it_cannot_honour(
    minilm_folder: Path, kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    tokenizer = Tokenizer.from_file(str(minilm_folder / "tokenizer.json"))
    with pytest.raises(error, match=match):
        AsesoriaTextSplitter.from_huggingface_tokenizer(tokenizer, **kwargs)


def test_from_huggingface_tokenizer_with_transformers(minilm_folder: Path) -> None:
    transformers = pytest.importorskip(
        "transformers", reason="pip install 'langchain-asesoria[transformers]'"
    )
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(minilm_folder), use_fast=True)
    instance = AsesoriaTextSplitter.from_huggingface_tokenizer(tokenizer, chunk_size=48)
    documents = instance.create_documents([REPEATED])
    assert_exact(REPEATED, documents)
    for document in documents:
        ids = tokenizer(document.page_content, truncation=False)["input_ids"]
        assert len(ids) == document.metadata[TOKEN_COUNT] <= 48


_WORDS = st.sampled_from(["año", "renta", "pérdida", "€", "IRPF.", "art. 49", "compensación"])
_PARAGRAPHS = st.lists(_WORDS, min_size=1, max_size=12).map(" ".join)
_TEXTS = st.lists(st.one_of(_PARAGRAPHS, st.just("Saldo negativo.")), min_size=1, max_size=12).map(
    "\n\n".join
)


@settings(max_examples=60, deadline=None)
@given(text=_TEXTS, size=st.integers(12, 60), overlap_share=st.sampled_from([0, 4, 2]))
def test_property_offsets_budget_order_and_coverage(
    text: str, size: int, overlap_share: int
) -> None:
    tokenization = ByteTokenization(64)
    overlap = size // overlap_share if overlap_share else 0
    instance = AsesoriaTextSplitter(tokenization, ChunkingConfig(size, overlap))
    documents = instance.create_documents([text], [{"source": "x"}])
    assert_exact(text, documents)
    covered = [False] * len(text)
    for index, document in enumerate(documents):
        metadata = document.metadata
        assert metadata[CHUNK_INDEX] == index
        assert metadata[TOKEN_COUNT] == tokenization.count(document.page_content) <= size
        assert 0 <= metadata[OVERLAP_TOKENS] <= overlap
        for position in range(metadata[START_INDEX], metadata[END_INDEX]):
            covered[position] = True
    assert all(covered[i] for i, char in enumerate(text) if not char.isspace())


# -- LangChain's conventions ----------------------------------------------------------------


def test_langchain_base_arguments_map_onto_the_config() -> None:
    tokenization = WordTokenization(512)
    langchain_style = AsesoriaTextSplitter(
        tokenization, chunk_size=30, chunk_overlap=15, add_start_index=True, strip_whitespace=True
    )
    assert langchain_style.config == ChunkingConfig(max_tokens=30, overlap_tokens=15)
    assert (langchain_style._chunk_size, langchain_style._chunk_overlap) == (30, 15)
    expected = splitter(30, 15, tokenization=tokenization).create_documents([REPEATED])
    assert langchain_style.create_documents([REPEATED]) == expected


@pytest.mark.parametrize(
    ("kwargs", "config"),
    [
        ({"chunk_size": 30}, ChunkingConfig(30, 0)),
        ({"max_tokens": 30, "overlap_tokens": 4}, ChunkingConfig(30, 4)),
        (
            {"chunk_size": 30, "detect_markdown_headings": True, "section_context": "label"},
            ChunkingConfig(30, 0, section_context="label"),  # the heading switch is not a field
        ),
    ],
)
def test_chunking_config_fields_are_keywords_too(
    kwargs: dict[str, Any], config: ChunkingConfig
) -> None:
    assert AsesoriaTextSplitter(WordTokenization(512), **kwargs).config == config


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((), {"chunk_size": 30, "length_function": len}, "length_function=<built-in function"),
        ((), {"chunk_size": 30, "keep_separator": True}, "keep_separator=True cannot apply"),
        ((), {"chunk_size": 30, "strip_whitespace": False}, "strip_whitespace=False cannot"),
        ((), {"chunk_overlap": 4}, "chunk_size is required"),
        ((), {}, "chunk_size is required"),
        ((), {"chunk_size": 30, "max_tokens": 30}, "give chunk_size or max_tokens, not both"),
        ((), {"chunk_size": 30, "separator": "\n"}, "unknown argument"),
        ((ChunkingConfig(30, 0),), {"chunk_size": 30}, "a ChunkingConfig and the keywords"),
        ((256,), {}, "config must be a ChunkingConfig, got int"),
        ((), {"chunk_size": 30, "on_error": "ignore"}, "on_error must be 'raise' or 'skip'"),
    ],
)
def test_what_an_exact_token_splitter_cannot_honour_is_a_value_error(
    args: tuple[Any, ...], kwargs: dict[str, Any], match: str
) -> None:
    with pytest.raises(ConfigurationError, match=match) as caught:
        AsesoriaTextSplitter(WordTokenization(512), *args, **kwargs)
    assert isinstance(caught.value, ValueError)


def test_add_start_index_false_leaves_the_offsets_out() -> None:
    instance = AsesoriaTextSplitter(WordTokenization(512), chunk_size=30, add_start_index=False)
    documents = instance.create_documents([REPEATED])
    assert documents
    for document in documents:
        assert START_INDEX not in document.metadata
        assert END_INDEX not in document.metadata
        assert TOKEN_COUNT in document.metadata


def test_from_huggingface_tokenizer_takes_the_base_keywords(minilm_folder: Path) -> None:
    tokenizer = Tokenizer.from_file(str(minilm_folder / "tokenizer.json"))
    instance = AsesoriaTextSplitter.from_huggingface_tokenizer(
        tokenizer,
        chunk_size=48,
        chunk_overlap=8,
        max_input_tokens=256,
        add_start_index=True,
        strip_whitespace=True,
    )
    assert instance.config == ChunkingConfig(48, 8)
    assert_exact(REPEATED, instance.create_documents([REPEATED]))


@pytest.mark.parametrize("tokenizer", ["foo", b"foo", 42, object()])
def test_from_huggingface_tokenizer_refuses_what_is_not_a_tokenizer_with_a_value_error(
    tokenizer: object,
) -> None:
    with pytest.raises(ValueError, match=r"needs a tokenizers\.Tokenizer or a transformers"):
        AsesoriaTextSplitter.from_huggingface_tokenizer(tokenizer, chunk_size=48)


def test_a_model_name_is_pointed_to_the_constructors_that_take_one() -> None:
    with pytest.raises(ConfigurationError, match=r"from_model\(name, chunk_size=\.\.\.\)"):
        AsesoriaTextSplitter.from_huggingface_tokenizer("foo", chunk_size=48)


def test_an_empty_metadatas_list_means_no_metadata() -> None:
    instance = splitter()
    assert instance.create_documents(["Un texto.", "Otro."], []) == instance.create_documents(
        ["Un texto.", "Otro."]
    )


def test_repr_names_the_model_and_the_budget() -> None:
    instance = AsesoriaTextSplitter(ByteTokenization(512), chunk_size=30, chunk_overlap=4)
    assert repr(instance) == (
        "AsesoriaTextSplitter(tokenization='fake-bytes', max_tokens=30, overlap_tokens=4, "
        "page_content='embedding_text', metadata_level='cite', on_error='raise')"
    )


# -- on_error ---------------------------------------------------------------------------------

TITLE_TOO_LONG = "# " + "Título muy largo " * 20 + "\n\nCuerpo del texto."


def _headings_splitter(**options: Any) -> AsesoriaTextSplitter:
    """The whole heading path as context: a long title cannot fit (compact would shorten it)."""
    return AsesoriaTextSplitter(
        WordTokenization(512),
        chunk_size=24,
        detect_markdown_headings=True,
        section_context="path",
        **options,
    )


def test_one_text_whose_context_cannot_fit_stops_the_batch_by_default() -> None:
    inputs = [
        Document(page_content="Primer texto breve.", metadata={"source": "a.md"}),
        Document(page_content=TITLE_TOO_LONG, metadata={"source": "b.md"}),
    ]
    with pytest.raises(ContextTooLongError, match=r"b\.md"):
        _headings_splitter().split_documents(inputs)


def test_on_error_skip_leaves_it_out_with_a_warning_naming_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    inputs = [
        Document(page_content="Primer texto breve.", metadata={"source": "a.md"}),
        Document(page_content=TITLE_TOO_LONG, metadata={"source": "b.md"}),
        Document(page_content="Tercer texto breve.", metadata={"source": "c.md"}),
    ]
    with caplog.at_level(logging.WARNING, logger="langchain_asesoria"):
        documents = _headings_splitter(on_error="skip").split_documents(inputs)
    assert [d.metadata["source"] for d in documents] == ["a.md", "c.md"]
    (record,) = caplog.records
    assert record.levelno == logging.WARNING
    assert "skipped document 'b.md'" in record.getMessage()
    assert "ContextTooLong" in type(record.args[1]).__name__  # type: ignore[index]
    assert _headings_splitter(on_error="skip").split_text(TITLE_TOO_LONG) == []
