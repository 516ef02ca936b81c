"""Planning and counting overlap: exact counts run on a helper thread while planning goes
on, and the word index encodes one block's new words while it reads the next. Neither
may change a single chunk or index entry."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from unittest import mock

from hypothesis import given, settings
from strategies import PROFILE, examples, spanish_text

from langchain_asesoria import (
    ChunkingConfig,
    ChunkMetadata,
    HuggingFaceTokenization,
    LoadedPage,
    chunk_document,
    iter_chunks,
)
from langchain_asesoria.engine import chunker
from langchain_asesoria.engine.packer import Packer
from langchain_asesoria.testing import ByteTokenization
from langchain_asesoria.tokenization import word_index

_PROSE = "El contribuyente declara la renta del ejercicio y paga la cuota. " * 600


class _GatedTokenization(ByteTokenization):
    """Its first batched count of planned chunks waits until planning has gone ``ahead``
    chunks further: without a helper thread the wait could never end."""

    def __init__(self, ahead: int) -> None:
        super().__init__(512)
        self.ahead = ahead
        self.planned = 0
        self.gate = threading.Event()
        self.batches: list[tuple[str, int]] = []
        self.opened_in_time: bool | None = None

    def count_batch(self, texts: Sequence[str]) -> list[int]:
        name = threading.current_thread().name
        if self.opened_in_time is None and name != "MainThread":
            self.opened_in_time = self.gate.wait(timeout=30)
        self.batches.append((name, len(texts)))
        return super().count_batch(texts)


def test_counts_run_on_a_helper_while_planning_goes_on() -> None:
    tokenization = _GatedTokenization(ahead=chunker._COUNT_AHEAD + 10)
    original_plan = Packer.plan

    def plan(packer: Packer) -> Iterator[tuple[int, int, int]]:
        for chunk in original_plan(packer):
            tokenization.planned += 1
            if tokenization.planned >= tokenization.ahead:
                tokenization.gate.set()
            yield chunk

    config = ChunkingConfig(max_tokens=64, overlap_tokens=8)
    with mock.patch.object(Packer, "plan", plan):
        chunks = chunk_document(
            [LoadedPage(_PROSE, 1)],
            ChunkMetadata(doc_id="prosa"),
            config=config,
            tokenization=tokenization,
        )
    assert tokenization.opened_in_time is True
    assert len(chunks) > 2 * chunker._COUNT_AHEAD
    fixed_costs, *plan_batches = tokenization.batches  # one context: one fixed cost
    assert fixed_costs == ("MainThread", 1)
    assert all(name.startswith("counts") for name, _ in plan_batches)
    assert max(size for _, size in plan_batches) <= chunker._COUNT_AHEAD
    # And the very same chunks as the plain byte tokenizer gives.
    plain = chunk_document(
        [LoadedPage(_PROSE, 1)],
        ChunkMetadata(doc_id="prosa"),
        config=config,
        tokenization=ByteTokenization(512),
    )
    assert [(c.start, c.end, c.token_count) for c in chunks] == [
        (c.start, c.end, c.token_count) for c in plain
    ]


@settings(PROFILE, max_examples=examples(40))
@given(text=spanish_text())
def test_word_index_is_the_same_in_many_small_blocks(
    minilm: HuggingFaceTokenization, text: str
) -> None:
    """Blocks of 40 characters and groups of 24 force the pipeline through many blocks,
    with words first seen in a block still being encoded when the next is read; words
    longer than a block stay whole."""
    whole = minilm.token_index(text)
    with mock.patch.multiple(word_index, _BLOCK=40, _GROUP=24, _GROUPS_PER_CALL=2):
        blocked = minilm.token_index(text)
    assert list(blocked.positions) == list(whole.positions)
    assert list(blocked.totals) == list(whole.totals)


class _StuckTokenization(ByteTokenization):
    """Its first batched count of planned chunks, on the helper, waits ``seconds`` and
    notes how far planning had gone by then."""

    def __init__(self, seconds: float) -> None:
        super().__init__(512)
        self.seconds = seconds
        self.planned = 0
        self.planned_while_stuck: int | None = None

    def count_batch(self, texts: Sequence[str]) -> list[int]:
        if self.planned_while_stuck is None and threading.current_thread().name != "MainThread":
            threading.Event().wait(self.seconds)
            self.planned_while_stuck = self.planned
        return super().count_batch(texts)


def test_planning_waits_when_counting_falls_behind() -> None:
    """With the first count stuck, planning stops once ``_PENDING`` more batches wait:
    a document's prepared texts are never all queued."""
    tokenization = _StuckTokenization(seconds=0.5)
    original_plan = Packer.plan

    def plan(packer: Packer) -> Iterator[tuple[int, int, int]]:
        for chunk in original_plan(packer):
            tokenization.planned += 1
            yield chunk

    config = ChunkingConfig(max_tokens=64, overlap_tokens=8)
    with mock.patch.object(Packer, "plan", plan):
        chunks = chunk_document(
            [LoadedPage(_PROSE * 2, 1)],
            ChunkMetadata(doc_id="prosa"),
            config=config,
            tokenization=tokenization,
        )
    ahead = (chunker._PENDING + 1) * chunker._COUNT_AHEAD
    assert tokenization.planned > 2 * ahead  # the document plans far more than that
    assert tokenization.planned_while_stuck == ahead
    assert len(chunks) >= tokenization.planned


def test_a_section_builds_its_chunks_as_they_are_read() -> None:
    """A document of one section (a 1 MB paragraph) does not hold all its chunks before
    the first is read."""
    built = 0
    original_packed = Packer._packed

    def packed(packer: Packer, start: int, end: int, overlap: int) -> object:
        nonlocal built
        built += 1
        return original_packed(packer, start, end, overlap)

    with mock.patch.object(Packer, "_packed", packed):
        chunks = iter_chunks(
            [LoadedPage(_PROSE, 1)],
            ChunkMetadata(doc_id="prosa"),
            config=ChunkingConfig(max_tokens=64, overlap_tokens=8),
            tokenization=ByteTokenization(512),
        )
        assert built == 0
        next(chunks)
        assert built == 1
        assert sum(1 for _ in chunks) > 100


class _ThreadNotingTokenization(HuggingFaceTokenization):
    """MiniLM, noting the thread and the longest text of each batched count."""

    def __init__(self, base: HuggingFaceTokenization) -> None:
        super().__init__(base.tokenizer, base.profile, "minilm-noting-threads")
        self.batches: list[tuple[str, int]] = []

    def count_batch(self, texts: Sequence[str]) -> list[int]:
        longest = max(map(len, texts), default=0)
        self.batches.append((threading.current_thread().name, longest))
        return super().count_batch(texts)


def test_a_huge_chunk_is_counted_on_the_calling_thread(minilm: HuggingFaceTokenization) -> None:
    """A 70,000-letter word is one WordPiece token, so it fits in a chunk: its batch is counted
    where the document is chunked, the others on the helper; the chunks are the same."""
    word = "a" * (chunker._COUNT_HERE + 4_464)
    text = f"{_PROSE[:20_000]} {word} {_PROSE[:20_000]}"
    noting = _ThreadNotingTokenization(minilm)
    config = ChunkingConfig(max_tokens=64, overlap_tokens=8)
    chunks = chunk_document(
        [LoadedPage(text, 1)], ChunkMetadata(doc_id="palabra"), config=config, tokenization=noting
    )
    assert any(word in chunk.text for chunk in chunks)
    huge = [name for name, longest in noting.batches if longest > chunker._COUNT_HERE]
    assert huge == ["MainThread"]
    others = {name for name, longest in noting.batches[1:] if longest <= chunker._COUNT_HERE}
    assert others
    assert all(name.startswith("counts") for name in others)
    plain = chunk_document(
        [LoadedPage(text, 1)], ChunkMetadata(doc_id="palabra"), config=config, tokenization=minilm
    )
    assert [(c.start, c.end, c.token_count) for c in chunks] == [
        (c.start, c.end, c.token_count) for c in plain
    ]
