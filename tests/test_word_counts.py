"""Word counts kept from one document to the next (``WordCounts``): only for tokenizers
that encode each word alone, and then a document's index and chunks are the same
whatever was split before it."""

from __future__ import annotations

from pathlib import Path

import pytest
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
from langchain_asesoria.tokenization import HuggingFaceTokenization, WordCounts, word_index
from langchain_asesoria.tokenization._huggingface import measures_words_alone

ROOT = Path(__file__).resolve().parent.parent
LAWS = sorted((ROOT / "corpus" / "markdown").glob("*.md"))
FAMILIES = ["minilm", "unigram_standin", "bpe_standin"]


def _texts() -> list[str]:
    texts = [path.read_text(encoding="utf-8")[:60_000] for path in LAWS[:3]]
    blob = "x" * 70_000  # a word encoded in pieces: a long word of its own
    return [*texts, f"Anexo {blob} fin. Año 2024: 1.234,56 € 😀 ñandú\n\n" + texts[0][:5_000]]


def _tokenizer(
    pre: pre_tokenizers.PreTokenizer | None, normalizer: normalizers.Normalizer | None = None
) -> Tokenizer:
    tokenizer = Tokenizer(models.WordLevel({"[UNK]": 0}, unk_token="[UNK]"))
    if pre is not None:
        tokenizer.pre_tokenizer = pre
    if normalizer is not None:
        tokenizer.normalizer = normalizer
    return tokenizer


@pytest.mark.parametrize(
    ("tokenizer", "alone"),
    [
        (_tokenizer(pre_tokenizers.WhitespaceSplit()), True),
        (_tokenizer(pre_tokenizers.BertPreTokenizer()), True),
        (_tokenizer(pre_tokenizers.Metaspace()), True),
        (_tokenizer(pre_tokenizers.ByteLevel(add_prefix_space=False)), True),
        (_tokenizer(None), False),
        (_tokenizer(pre_tokenizers.Metaspace(split=False)), False),
        (_tokenizer(pre_tokenizers.ByteLevel(use_regex=False)), False),
        (_tokenizer(pre_tokenizers.Split("x", "removed")), False),
        (_tokenizer(pre_tokenizers.Metaspace(), normalizers.Replace(" ", "_")), False),
    ],
    ids=[
        "whitespace",
        "bert",
        "metaspace",
        "byte-level",
        "none",
        "metaspace-unsplit",
        "byte-level-no-regex",
        "split-elsewhere",
        "spaces-replaced",
    ],
)
def test_only_a_tokenizer_that_splits_at_spaces_keeps_word_counts(
    tokenizer: Tokenizer, alone: bool
) -> None:
    assert measures_words_alone(tokenizer) is alone


@pytest.mark.parametrize("family", FAMILIES)
def test_an_index_is_the_same_after_other_documents(
    family: str, request: pytest.FixtureRequest
) -> None:
    tokenization: HuggingFaceTokenization = request.getfixturevalue(family)
    assert measures_words_alone(tokenization.tokenizer)
    texts = _texts()
    alone = [word_index(tokenization.token_starts_many, text, helper=False) for text in texts]
    known = WordCounts()
    for text, expected in zip(texts, alone, strict=True):
        assert word_index(tokenization.token_starts_many, text, helper=False, known=known) == (
            expected
        )
    assert known.counts
    assert known.long_words  # the blob and some long words were kept
    again = [
        word_index(tokenization.token_starts_many, text, helper=False, known=known)
        for text in reversed(texts)
    ]
    assert again == alone[::-1]


@pytest.mark.parametrize("family", FAMILIES)
def test_chunks_do_not_depend_on_the_documents_split_before(
    family: str, request: pytest.FixtureRequest
) -> None:
    source: HuggingFaceTokenization = request.getfixturevalue(family)
    texts = _texts()
    config = ChunkingConfig(max_tokens=128, overlap_tokens=16)

    def chunks(tokenization: HuggingFaceTokenization, text: str) -> list[tuple[int, int, str]]:
        pages, metadata = [LoadedPage(text, 1)], ChunkMetadata(doc_id="d")
        found = chunk_document(pages, metadata, config=config, tokenization=tokenization)
        return [(chunk.start, chunk.end, chunk.embedding_text) for chunk in found]

    fresh = [chunks(HuggingFaceTokenization(source.tokenizer, source.profile), t) for t in texts]
    shared = HuggingFaceTokenization(source.tokenizer, source.profile)
    assert [chunks(shared, text) for text in reversed(texts)] == fresh[::-1]


def test_word_counts_start_again_past_their_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    known = WordCounts()
    monkeypatch.setattr(WordCounts, "LIMIT", 3)
    known.add({"a": 1, "b": 1}, {})
    known.add({"c": 2}, {})
    assert known.counts == {"a": 1, "b": 1, "c": 2}
    known.add({"d": 1}, {})
    assert known.counts == {"d": 1}
