"""The engine's invariants with other tokenizer families than WordPiece.

Two stand-ins, trained offline on the repository's corpus by ``tests/standins.py``
(session fixtures in ``conftest.py``):

- a SentencePiece **Unigram** with a **Metaspace** pre-tokenizer, shaped like the
  XLM-RoBERTa tokenizer of multilingual-e5: the space belongs to the next token ("▁"),
  and its normaliser changes the text (NFKC, control characters dropped, whitespace
  and zero-width characters read as one space);
- a **byte-level BPE** shaped like RoBERTa's: tokens of bytes, merged across spaces
  and punctuation, offsets trimmed.

Here: their shape, their deterministic build, and estimates right for each family.
Every invariant of the contract runs with both in ``test_properties`` (its ``factory``
fixture), on Hypothesis cases of Spanish text, with and without E5's ``passage: ``
prefix; the hostile-input catalogue (``test_bad_input.py``) has rows for both too.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import STANDIN_FAMILIES, standins_module

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
from langchain_asesoria.testing import CountingTokenization
from langchain_asesoria.tokenization import HuggingFaceTokenization

ROOT = Path(__file__).resolve().parents[2]

# -- the stand-ins' shape ----------------------------------------------------------------


def _definition(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))
    return data


def _types(component: dict[str, Any]) -> list[str]:
    """The component's type, or its parts' types for a ``Sequence``."""
    parts = component.get("normalizers") or component.get("pretokenizers")
    return [part["type"] for part in parts] if parts else [component["type"]]


def test_unigram_is_shaped_like_xlm_roberta(
    unigram_folder: Path, unigram_standin: HuggingFaceTokenization
) -> None:
    definition = _definition(unigram_folder)
    model = definition["model"]
    assert model["type"] == "Unigram"
    assert [piece for piece, _ in model["vocab"][:4]] == ["<s>", "<pad>", "</s>", "<unk>"]
    assert model["unk_id"] == 3
    assert 5_000 < len(model["vocab"]) <= 16_000
    assert _types(definition["normalizer"]) == ["NFKC", "Replace", "Replace", "Strip", "Replace"]
    pre = definition["pre_tokenizer"]
    assert (pre["type"], pre["replacement"], pre["prepend_scheme"]) == ("Metaspace", "▁", "always")
    assert definition["decoder"]["type"] == "Metaspace"
    single = definition["post_processor"]["single"]
    assert [next(iter(part.values()))["id"] for part in single] == ["<s>", "A", "</s>"]
    assert unigram_standin.max_input_tokens == 512

    encoding = unigram_standin.tokenizer.encode("El cónyuge\n\tdeclara  la renta.")
    assert encoding.tokens[0] == "<s>"
    assert encoding.tokens[-1] == "</s>"
    assert all(token.startswith("▁") for token in encoding.tokens if token in {"▁la", "▁renta"})
    assert "▁renta" in encoding.tokens  # the space is part of the next token
    # SentencePiece's nmt_nfkc rules: whitespace, a zero-width space included, is one
    # space; control characters are dropped.
    count = unigram_standin.count
    assert count("El cónyuge\n\tdeclara") == count("El cónyuge declara")
    assert count("renta\u200bíntegra") == count("renta íntegra")
    assert count("\x01\x02\x1f") == count("") == 2


def test_bpe_is_shaped_like_roberta(bpe_folder: Path, bpe_standin: HuggingFaceTokenization) -> None:
    definition = _definition(bpe_folder)
    model = definition["model"]
    assert model["type"] == "BPE"
    assert 10_000 < len(model["merges"]) <= 16_000
    assert definition["normalizer"] is None
    pre = definition["pre_tokenizer"]
    assert (pre["type"], pre["add_prefix_space"]) == ("ByteLevel", False)
    assert definition["decoder"]["type"] == "ByteLevel"
    post = definition["post_processor"]
    assert (post["type"], post["cls"][0], post["sep"][0]) == ("RobertaProcessing", "<s>", "</s>")
    assert bpe_standin.max_input_tokens == 512

    tokenizer = bpe_standin.tokenizer
    encoding = tokenizer.encode("El cónyuge declara la renta.")
    assert (encoding.tokens[0], encoding.tokens[-1]) == ("<s>", "</s>")
    assert "Ġrenta" in encoding.tokens  # the space merged into the next word
    text = "Íñigo paga 1.000 € 👩‍💻 ¿sí?\r\n\u00a0fin"
    assert tokenizer.decode(tokenizer.encode(text).ids) == text  # bytes: nothing unknown


def test_standins_are_built_deterministically(unigram_folder: Path, bpe_folder: Path) -> None:
    """Trained again, each stand-in has the very bytes of its cached folder, whose name
    is the key of what it was built from."""
    standins = standins_module()
    texts = standins.training_texts()
    for name, folder in zip(STANDIN_FAMILIES, (unigram_folder, bpe_folder), strict=True):
        assert folder.name == f"{name}-{standins.recipe_key(name, texts)}"
        cached = (folder / "tokenizer.json").read_bytes()
        again = standins.tokenizer_json(name, texts).encode("utf-8")
        assert hashlib.sha256(again).digest() == hashlib.sha256(cached).digest(), name
        limit = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
        assert limit["max_seq_length"] == 512


def test_training_texts_are_read_once_and_cached_unchanged(tmp_path: Path) -> None:
    """The training text is each Markdown law, then each PDF page in name order; read
    again from its cache, it is the same list, and a changed file is read afresh."""
    standins = standins_module()
    source, cache = tmp_path / "corpus", tmp_path / "cache"
    (source / "markdown").mkdir(parents=True)
    (source / "pdf").mkdir()
    law = (ROOT / "examples" / "data" / "BOE-A-1991-14392.md").read_text(encoding="utf-8")
    (source / "markdown" / "b.md").write_text("Ley B.\r\n", encoding="utf-8")
    (source / "markdown" / "a.md").write_text(law, encoding="utf-8")
    pdf = (
        ROOT
        / "examples"
        / "data"
        / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"
    )
    (source / "pdf" / "manual.pdf").write_bytes(pdf.read_bytes())
    read = standins.training_texts(source, cache)
    assert read[:2] == [law, "Ley B.\n"]
    assert len(read) > 10  # the manual's pages
    [written] = cache.glob("texts-*.json")
    assert json.loads(written.read_text(encoding="utf-8")) == read
    assert standins.training_texts(source, cache) == read
    (source / "markdown" / "b.md").write_text("Ley C.", encoding="utf-8")
    assert standins.training_texts(source, cache) == [law, "Ley C.", *read[2:]]
    assert len(list(cache.glob("texts-*.json"))) == 2


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        pytest.param(
            [("a", -1.0), ("bc", -5.0), ("x", -5.0001), ("y", -5.0002)],
            [("a", -1.0), ("bc", -5.0), ("x", -5.0), ("y", -5.0)],
            id="added-characters-share-one-score",
        ),
        pytest.param(
            [("a", -1.0), ("bc", -5.0), ("y", -5.0001), ("x", -5.0002)],
            [("a", -1.0), ("bc", -5.0), ("y", -5.0), ("x", -5.0)],
            id="in-whatever-order-they-were-added",
        ),
        pytest.param(
            [("a", -1.0), ("b", -3.0), ("cd", -5.0)],
            [("a", -1.0), ("b", -3.0), ("cd", -5.0)],
            id="pieces-far-apart-untouched",
        ),
    ],
)
def test_unigram_scores_do_not_depend_on_the_training_run(
    scores: list[tuple[str, float]], expected: list[tuple[str, float]]
) -> None:
    """The trainer adds the characters it pruned 1e-4 apart in a run-dependent order."""
    assert standins_module().flatten_added_characters(scores) == expected


# -- the estimate is right for each family ----------------------------------------------------

_TABLE = "\n".join(
    f"| Artículo {n} | {1000 + 37 * n:,} € | {n % 45}% | {'exento' if n % 7 else 'sujeto'} |"
    for n in range(400)
)
_LAW = (ROOT / "corpus" / "markdown" / "BOE-A-1991-14392.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("family", ["unigram", "bpe"])
@pytest.mark.parametrize(("text", "within"), [(_LAW, 0.02), (_TABLE, 0.05)], ids=["law", "table"])
def test_the_word_index_counts_what_the_tokenizer_counts(
    family: str, text: str, within: float, request: pytest.FixtureRequest
) -> None:
    """Whitespace that costs tokens (a line break in byte-level BPE) and words measured
    after a space, as in running text: the index's total is the tokenizer's, nearly."""
    tokenization: HuggingFaceTokenization = request.getfixturevalue(f"{family}_standin")
    exact = tokenization.count_content(text)
    assert abs(tokenization.token_index(text).tokens - exact) <= within * exact


@pytest.mark.parametrize("family", ["unigram", "bpe"])
@pytest.mark.parametrize("text", [_LAW, _TABLE], ids=["law", "table"])
def test_plans_are_rarely_corrected(family: str, text: str, request: pytest.FixtureRequest) -> None:
    """Plans from the estimate are confirmed by their batched exact counts: a law or a
    table needs only a few single counts of corrections, not one per chunk."""
    from langchain_asesoria.structure.leads import detect_leads

    inner: HuggingFaceTokenization = request.getfixturevalue(f"{family}_standin")
    counting = CountingTokenization(inner)
    chunks = chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="ley"),
        config=ChunkingConfig(max_tokens=256, overlap_tokens=32),
        tokenization=counting,  # type: ignore[arg-type]
    )
    assert len(chunks) > 20
    assert counting.single <= 12, counting.single
    # besides the chunks, each list's or table's lead context is counted once or twice
    # (``engine._context.lead_contexts``), like a section's context
    leads = len(detect_leads(text))
    assert counting.exact <= 1.25 * len(chunks) + 2 + 2 * leads, (counting.exact, len(chunks))


@pytest.mark.parametrize("family", ["unigram", "bpe"])
def test_whitespace_that_costs_tokens_is_a_group_where_it_starts(
    family: str, request: pytest.FixtureRequest
) -> None:
    """Every word is a group at its start, and so is every whitespace run that costs a
    token of its own (a line break for byte-level BPE; none for Metaspace), at the run's
    start, first and last runs of the text included."""
    from langchain_asesoria.tokenization._word_index import _separator_costs

    tokenization: HuggingFaceTokenization = request.getfixturevalue(f"{family}_standin")
    text = "\nuno dos\ntres\n\n  cuatro  cinco €\r\nseis\n"
    runs = {match.start(): match.group() for match in re.finditer(r"\s+", text)}
    costs = _separator_costs(tokenization.token_starts_many, list(set(runs.values())))
    words = [match.start() for match in re.finditer(r"\S+", text)]
    costly = [start for start, run in runs.items() if costs[run] > 0]
    index = tokenization.token_index(text)
    assert list(index.positions) == sorted(words + costly)
    assert (family == "bpe") == bool(costly)
