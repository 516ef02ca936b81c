"""LangChain's own ``TextSplitter`` base tests, run against ``AsesoriaTextSplitter``.

Vendored from the langchain-text-splitters 1.1.3 sdist, ``tests/unit_tests/
test_text_splitters.py`` (MIT, Copyright (c) LangChain, Inc.; the licence is
``tests/standards/langchain-text-splitters-1.1.3-LICENSE``, the provenance in
``tests/standards/README.md``). Each test keeps its upstream name, input and expected
output; only the splitter's construction is adapted: ``CharacterTextSplitter(
separator=s, chunk_size=n, chunk_overlap=k)`` becomes ``langchain_splitter(n, k, s)``,
our splitter over a tokenizer that counts one token per character (ASCII bytes, no
special tokens) at ``metadata_level="lean"``, so a chunk size in tokens is LangChain's
size in characters and the documents carry only what LangChain's carry.

``EXCEPTIONS`` lists every upstream base test of ``CharacterTextSplitter`` /
``RecursiveCharacterTextSplitter`` / ``TextSplitter`` that is not vendored, with the
promise it would break; ``test_what_we_do_instead`` checks our behaviour on their inputs.
"""

from __future__ import annotations

import re
from typing import Any, Final

import pytest
from langchain_core.documents import Document

from langchain_asesoria.langchain import AsesoriaTextSplitter
from langchain_asesoria.testing import ByteTokenization

#: One token per ASCII character, no ``[CLS]``/``[SEP]``: LangChain's ``len``.
CHARACTERS: Final = ByteTokenization(512, special_tokens=0)


def langchain_splitter(
    chunk_size: int,
    chunk_overlap: int = 0,
    separator: str | None = None,
    *,
    add_start_index: bool = False,
) -> AsesoriaTextSplitter:
    """Our splitter as LangChain's tests build theirs (``separator`` a literal)."""
    options: dict[str, Any] = {} if separator is None else {"separators": (re.escape(separator),)}
    return AsesoriaTextSplitter(
        CHARACTERS,
        chunk_size=chunk_size,
        chunk_overlap=chunk_overlap,
        add_start_index=add_start_index,
        metadata_level="lean",
        **options,
    )


#: Upstream tests left out, and the promise of ours each would break.
EXCEPTIONS: Final = {
    "test_character_text_splitter_empty_doc": "LangChain returns 'foo' for chunk_size=2: "
    "a chunk above the budget. Ours never exceeds chunk_size (the embedder would "
    "truncate it): 'foo' is cut into character intervals that fit.",
    "test_character_text_splitter_longer_words": "the same: chunk_size=1 keeps 3-character "
    "words whole upstream; ours cuts them to fit.",
    "test_character_text_splitter_handle_chunksize_equal_to_chunkoverlap": "an overlap "
    "equal to the budget leaves no room for new content: ChunkingConfig refuses "
    "overlap_tokens >= max_tokens with a ConfigurationError.",
    "test_character_text_splitter_keep_separator_regex": "keep_separator is refused: a "
    "chunk is always the verbatim text between its offsets, separators included.",
    "test_character_text_splitter_keep_separator_regex_start": "the same (keep_separator).",
    "test_character_text_splitter_keep_separator_regex_end": "the same (keep_separator).",
    "test_character_text_splitter_discard_separator_regex": "the same (keep_separator).",
    "test_recursive_character_text_splitter_keep_separators": "the same (keep_separator).",
    "test_iterative_text_splitter_keep_separator": "the same (keep_separator).",
    "test_iterative_text_splitter_discard_separator": "the same (keep_separator).",
    "test_iterative_text_splitter": "RecursiveCharacterTextSplitter drops the separators "
    "between merged pieces ('Hi.' and \"I'm\" become two chunks); ours keeps the verbatim "
    "text ('Hi.\\n\\nI\\'m' fits in 10) and merges greedily to the budget.",
    "test_merge_splits": "_merge_splits is a private helper of LangChain's character "
    "splitters; the engine merges units by exact counts of each candidate.",
}


# -- vendored, adapted construction -----------------------------------------------------------


def test_character_text_splitter() -> None:
    """Test splitting by character count."""
    text = "foo bar baz 123"
    splitter = langchain_splitter(7, 3, " ")
    output = splitter.split_text(text)
    expected_output = ["foo bar", "bar baz", "baz 123"]
    assert output == expected_output


def test_character_text_splitter_separtor_empty_doc() -> None:
    """Test edge cases are separators."""
    text = "f b"
    splitter = langchain_splitter(2, 0, " ")
    output = splitter.split_text(text)
    expected_output = ["f", "b"]
    assert output == expected_output


def test_character_text_splitter_long() -> None:
    """Test splitting by character count on long words."""
    text = "foo bar baz a a"
    splitter = langchain_splitter(3, 1, " ")
    output = splitter.split_text(text)
    expected_output = ["foo", "bar", "baz", "a a"]
    assert output == expected_output


def test_character_text_splitter_short_words_first() -> None:
    """Test splitting by character count when shorter words are first."""
    text = "a a foo bar baz"
    splitter = langchain_splitter(3, 1, " ")
    output = splitter.split_text(text)
    expected_output = ["a a", "foo", "bar", "baz"]
    assert output == expected_output


def test_character_text_splitter_no_separator_in_text() -> None:
    """Text splitting where there is no separator but a single word."""
    text = "singleword"
    splitter = langchain_splitter(10, 0, " ")
    output = splitter.split_text(text)
    expected_output = ["singleword"]
    assert output == expected_output


def test_character_text_splitter_empty_input() -> None:
    """Test splitting safely where there is no input to process."""
    text = ""
    splitter = langchain_splitter(5, 0, " ")
    output = splitter.split_text(text)
    expected_output: list[str] = []
    assert output == expected_output


def test_character_text_splitter_whitespace_only() -> None:
    """Test splitting safely where there is white space."""
    text = " "
    splitter = langchain_splitter(5, 0, " ")
    output = splitter.split_text(text)
    expected_output: list[str] = []
    assert output == expected_output


def test_character_text_splitting_args() -> None:
    """Test invalid arguments (adapted: the same ``ValueError``, our own wording)."""
    with pytest.raises(ValueError, match=r"overlap_tokens must be in \[0, max_tokens=2\)"):
        langchain_splitter(2, 4)
    for invalid_size in (0, -1):
        with pytest.raises(ValueError, match="max_tokens must be at least 1"):
            langchain_splitter(invalid_size)
    with pytest.raises(ValueError, match=r"overlap_tokens must be in \[0, max_tokens=2\)"):
        langchain_splitter(2, -1)


def test_create_documents() -> None:
    """Test create documents method."""
    texts = ["foo bar", "baz"]
    splitter = langchain_splitter(3, 0, " ")
    docs = splitter.create_documents(texts)
    expected_docs = [
        Document(page_content="foo"),
        Document(page_content="bar"),
        Document(page_content="baz"),
    ]
    assert docs == expected_docs


def test_create_documents_with_metadata() -> None:
    """Test create documents with metadata method."""
    texts = ["foo bar", "baz"]
    splitter = langchain_splitter(3, 0, " ")
    docs = splitter.create_documents(texts, [{"source": "1"}, {"source": "2"}])
    expected_docs = [
        Document(page_content="foo", metadata={"source": "1"}),
        Document(page_content="bar", metadata={"source": "1"}),
        Document(page_content="baz", metadata={"source": "2"}),
    ]
    assert docs == expected_docs


@pytest.mark.parametrize(
    ("splitter", "text", "expected_docs"),
    [
        (
            langchain_splitter(7, 3, " ", add_start_index=True),
            "foo bar baz 123",
            [
                Document(page_content="foo bar", metadata={"start_index": 0}),
                Document(page_content="bar baz", metadata={"start_index": 4}),
                Document(page_content="baz 123", metadata={"start_index": 8}),
            ],
        ),
        (
            # RecursiveCharacterTextSplitter(separators=["\n\n", "\n", " ", ""]): our
            # default separators, paragraphs to spaces, then character intervals.
            langchain_splitter(6, 0, add_start_index=True),
            "w1 w1 w1 w1 w1 w1 w1 w1 w1",
            [
                Document(page_content="w1 w1", metadata={"start_index": 0}),
                Document(page_content="w1 w1", metadata={"start_index": 6}),
                Document(page_content="w1 w1", metadata={"start_index": 12}),
                Document(page_content="w1 w1", metadata={"start_index": 18}),
                Document(page_content="w1", metadata={"start_index": 24}),
            ],
        ),
    ],
)
def test_create_documents_with_start_index(
    splitter: AsesoriaTextSplitter, text: str, expected_docs: list[Document]
) -> None:
    """Test create documents method."""
    docs = splitter.create_documents([text])
    assert docs == expected_docs
    for doc in docs:
        s_i = doc.metadata["start_index"]
        assert text[s_i : s_i + len(doc.page_content)] == doc.page_content


def test_metadata_not_shallow() -> None:
    """Test that metadatas are not shallow."""
    texts = ["foo bar"]
    splitter = langchain_splitter(3, 0, " ")
    docs = splitter.create_documents(texts, [{"source": "1"}])
    expected_docs = [
        Document(page_content="foo", metadata={"source": "1"}),
        Document(page_content="bar", metadata={"source": "1"}),
    ]
    assert docs == expected_docs
    docs[0].metadata["foo"] = 1
    assert docs[0].metadata == {"source": "1", "foo": 1}
    assert docs[1].metadata == {"source": "1"}


def test_split_documents() -> None:
    """Test split_documents."""
    splitter = langchain_splitter(1, 0, "")
    docs = [
        Document(page_content="foo", metadata={"source": "1"}),
        Document(page_content="bar", metadata={"source": "2"}),
        Document(page_content="baz", metadata={"source": "1"}),
    ]
    expected_output = [
        Document(page_content="f", metadata={"source": "1"}),
        Document(page_content="o", metadata={"source": "1"}),
        Document(page_content="o", metadata={"source": "1"}),
        Document(page_content="b", metadata={"source": "2"}),
        Document(page_content="a", metadata={"source": "2"}),
        Document(page_content="r", metadata={"source": "2"}),
        Document(page_content="b", metadata={"source": "1"}),
        Document(page_content="a", metadata={"source": "1"}),
        Document(page_content="z", metadata={"source": "1"}),
    ]
    assert splitter.split_documents(docs) == expected_output


# -- the exceptions: what we do instead --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "chunk_size", "chunk_overlap"),
    [("foo  bar", 2, 0), ("foo bar baz 123", 1, 0)],  # empty_doc, longer_words
)
def test_what_we_do_instead(text: str, chunk_size: int, chunk_overlap: int) -> None:
    """Upstream keeps an over-long word whole; every chunk of ours fits, verbatim."""
    documents = langchain_splitter(chunk_size, chunk_overlap, " ", add_start_index=True)
    chunks = documents.create_documents([text])
    assert all(len(chunk.page_content) <= chunk_size for chunk in chunks)
    for chunk in chunks:
        start = chunk.metadata["start_index"]
        assert text[start : start + len(chunk.page_content)] == chunk.page_content
    assert "".join(chunk.page_content for chunk in chunks) == text.replace(" ", "")


def test_an_overlap_equal_to_the_size_is_refused() -> None:
    with pytest.raises(ValueError, match="overlap_tokens must be in"):
        langchain_splitter(5, 5, " ")


def test_keep_separator_is_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="separators are never removed"):
        AsesoriaTextSplitter(CHARACTERS, chunk_size=5, keep_separator=True)


def test_the_default_level_adds_our_keys_so_exact_equality_needs_lean() -> None:
    """At ``metadata_level="cite"`` a chunk carries its citation: LangChain's equality fails."""
    splitter = AsesoriaTextSplitter(CHARACTERS, chunk_size=3, separators=(" ",))
    (first, *_) = splitter.create_documents(["foo bar"], [{"source": "1"}])
    assert first != Document(page_content="foo", metadata={"source": "1"})
    assert first.id == first.metadata["chunk_id"]
    assert (first.metadata["page"], first.metadata["chunk_index"]) == (1, 0)


def test_every_exception_names_a_reason() -> None:
    assert all(name.startswith("test_") and reason for name, reason in EXCEPTIONS.items())
    vendored = {name for name in globals() if name.startswith("test_")}
    assert vendored.isdisjoint(EXCEPTIONS)
