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

``UPSTREAM`` names every upstream base test of ``CharacterTextSplitter`` /
``RecursiveCharacterTextSplitter`` / ``TextSplitter``; ``EXCEPTIONS`` lists each one (or
case of one) that is not vendored, with the promise it would break;
``test_what_we_do_instead`` and ``test_a_separator_is_kept_and_the_budget_held`` check
our behaviour on their inputs.
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
    is_separator_regex: bool = False,
) -> AsesoriaTextSplitter:
    """Our splitter as LangChain's tests build theirs (``separator`` a literal unless
    ``is_separator_regex``, as in LangChain)."""
    options: dict[str, Any] = {}
    if separator is not None:
        pattern = separator if is_separator_regex else re.escape(separator)
        options["separators"] = (pattern,)
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
    "test_character_text_splitter_chunk_size_effect[1]": "'abcmid' (6 characters) is kept "
    "whole for chunk_size=5 upstream: a chunk above the budget; ours cuts it to fit.",
    "test_character_text_splitter_chunk_size_effect[3]": "the literal separator 'mid' is "
    "dropped upstream ('abc', 'def'); ours keeps it, verbatim ('abc', 'mid', 'def').",
}

#: Every base test of ``CharacterTextSplitter`` / ``RecursiveCharacterTextSplitter`` /
#: ``TextSplitter`` in the 1.1.3 sdist's ``tests/unit_tests/test_text_splitters.py``, in
#: its order (the language, Markdown, HTML, JSON and token splitters' tests are not
#: ``TextSplitter`` base tests). Each is vendored here or listed in ``EXCEPTIONS``; a
#: parametrized test may be both, case by case (``name[case]``, counted from 0).
UPSTREAM: Final = (
    "test_character_text_splitter",
    "test_character_text_splitter_empty_doc",
    "test_character_text_splitter_separtor_empty_doc",
    "test_character_text_splitter_long",
    "test_character_text_splitter_short_words_first",
    "test_character_text_splitter_longer_words",
    "test_character_text_splitter_no_separator_in_text",
    "test_character_text_splitter_handle_chunksize_equal_to_chunkoverlap",
    "test_character_text_splitter_empty_input",
    "test_character_text_splitter_whitespace_only",
    "test_character_text_splitter_keep_separator_regex",
    "test_character_text_splitter_keep_separator_regex_start",
    "test_character_text_splitter_keep_separator_regex_end",
    "test_character_text_splitter_discard_separator_regex",
    "test_recursive_character_text_splitter_keep_separators",
    "test_character_text_splitting_args",
    "test_merge_splits",
    "test_create_documents",
    "test_create_documents_with_metadata",
    "test_create_documents_with_start_index",
    "test_metadata_not_shallow",
    "test_iterative_text_splitter_keep_separator",
    "test_iterative_text_splitter_discard_separator",
    "test_iterative_text_splitter",
    "test_split_documents",
    "test_character_text_splitter_discard_regex_separator_on_merge",
    "test_character_text_splitter_chunk_size_effect",
)


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


def test_character_text_splitter_discard_regex_separator_on_merge() -> None:
    """Test that regex lookahead separator is not re-inserted when merging."""
    text = "SCE191 First chunk. SCE103 Second chunk."
    splitter = langchain_splitter(200, 0, r"(?=SCE\d{3})", is_separator_regex=True)
    output = splitter.split_text(text)
    assert output == ["SCE191 First chunk. SCE103 Second chunk."]


@pytest.mark.parametrize(
    ("separator", "is_regex", "text", "chunk_size", "expected"),
    [
        # (upstream cases 1 and 3 are in EXCEPTIONS)
        # 2) regex lookaround & no split
        #   chunk_size=100 merges back into ["abcmiddef"]
        (r"(?<=mid)", True, "abcmiddef", 100, ["abcmiddef"]),
        # 4) literal separator & no split
        #   chunk_size=100 merges back into ["abcmiddef"]
        ("mid", False, "abcmiddef", 100, ["abcmiddef"]),
    ],
)
def test_character_text_splitter_chunk_size_effect(
    separator: str,
    *,
    is_regex: bool,
    text: str,
    chunk_size: int,
    expected: list[str],
) -> None:
    splitter = langchain_splitter(chunk_size, 0, separator, is_separator_regex=is_regex)
    assert splitter.split_text(text) == expected


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


@pytest.mark.parametrize(
    ("separator", "is_regex", "expected"),
    [(r"(?<=mid)", True, ["abcmi", "ddef"]), ("mid", False, ["abc", "mid", "def"])],
)  # chunk_size_effect[1] and [3]
def test_a_separator_is_kept_and_the_budget_held(
    separator: str, *, is_regex: bool, expected: list[str]
) -> None:
    size = {True: 5, False: 3}[is_regex]
    splitter = langchain_splitter(size, 0, separator, is_separator_regex=is_regex)
    output = splitter.split_text("abcmiddef")
    assert output == expected
    assert "".join(output) == "abcmiddef"
    assert all(len(chunk) <= size for chunk in output)


def test_every_exception_names_a_reason() -> None:
    assert all(name.startswith("test_") and reason for name, reason in EXCEPTIONS.items())
    vendored = {name for name in globals() if name.startswith("test_")}
    assert vendored.isdisjoint(EXCEPTIONS)


def test_every_upstream_base_test_is_vendored_or_an_exception() -> None:
    vendored = {name for name in globals() if name.startswith("test_")}
    excepted = {name.partition("[")[0] for name in EXCEPTIONS}
    assert set(UPSTREAM) - vendored - excepted == set()
    assert excepted <= set(UPSTREAM)
    assert len(set(UPSTREAM)) == len(UPSTREAM)
