"""``count_ahead``: exact counts of a lazy stream, one batch counted while the next is made.

The engine hands ``count_many`` a lazy iterable (its planning runs as texts are read);
the adapter counts on a helper thread a bounded number of batches ahead. None of this
may change a count or its order, and a document's texts must never all be read ahead.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, examples, spanish_text

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
from langchain_asesoria.tokenization import HuggingFaceTokenization
from langchain_asesoria.tokenization._count_ahead import (
    AHEAD,
    BATCH,
    COUNT_HERE,
    SOLO_BATCH,
    count_ahead,
)

ROOT = Path(__file__).resolve().parents[2]


class _Recorder:
    """A batch counter (length of each text) noting the thread and size of each batch."""

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.gate = gate
        self.batches: list[tuple[str, int, int]] = []  # thread, texts, longest

    def __call__(self, texts: list[str]) -> list[int]:
        if self.gate is not None and not self.batches:
            self.gate.wait(timeout=30)
        name = threading.current_thread().name
        self.batches.append((name, len(texts), max(map(len, texts))))
        return [len(text) for text in texts]


def _texts(count: int, read: list[int]) -> Iterator[str]:
    """``count`` texts; ``read[0]`` says how many were taken so far."""
    for index in range(count):
        read[0] += 1
        yield "x" * (index % 7)


@settings(PROFILE, max_examples=examples(50))
@given(sizes=st.lists(st.integers(0, 50), max_size=5 * BATCH))
def test_counts_come_in_order(sizes: list[int]) -> None:
    texts = ["y" * size for size in sizes]
    assert list(count_ahead(_Recorder(), iter(texts))) == sizes


def test_one_batch_is_counted_on_the_calling_thread() -> None:
    recorder = _Recorder()
    assert list(count_ahead(recorder, ["ab", "c"])) == [2, 1]
    assert recorder.batches == [("MainThread", 2, 2)]


def test_later_batches_are_counted_on_a_helper_while_texts_are_read() -> None:
    """The first batch's count waits until the stream has been read past it: without a
    helper thread counting while the caller reads, the wait could never end in time."""
    gate = threading.Event()
    read = [0]

    def opening() -> Iterator[str]:
        for text in _texts(6 * BATCH, read):
            if read[0] > BATCH:
                gate.set()
            yield text

    recorder = _Recorder(gate)
    counts = list(count_ahead(recorder, opening()))
    assert len(counts) == 6 * BATCH
    assert gate.is_set()
    assert all(name.startswith("counts") for name, _, _ in recorder.batches)
    assert max(size for _, size, _ in recorder.batches) == BATCH


def test_reading_stops_when_batches_wait() -> None:
    """With the first count stuck, at most ``AHEAD`` more batches are read: a document's
    prepared texts are never all queued."""
    gate = threading.Event()
    read = [0]
    recorder = _Recorder(gate)
    counts = count_ahead(recorder, _texts(10 * BATCH, read))
    waiter = threading.Thread(target=lambda: next(counts))
    waiter.start()
    waiter.join(timeout=0.5)  # the first count is stuck: the reader has stopped by now
    assert read[0] == (AHEAD + 1) * BATCH
    gate.set()
    waiter.join(timeout=30)
    assert len(list(counts)) == 10 * BATCH - 1


def test_a_batch_with_a_huge_text_is_counted_on_the_calling_thread() -> None:
    """Its encoding's memory stays on the thread that chunks the document."""
    texts = ["a"] * BATCH + ["b" * (COUNT_HERE + 1)] + ["c"] * BATCH
    recorder = _Recorder()
    assert list(count_ahead(recorder, texts)) == [len(text) for text in texts]
    huge = [name for name, _, longest in recorder.batches if longest > COUNT_HERE]
    others = [name for name, _, longest in recorder.batches if longest <= COUNT_HERE]
    assert huge == ["MainThread"]
    assert others
    assert all(name.startswith("counts") for name in others)


@settings(PROFILE, max_examples=examples(20))
@given(text=spanish_text())
def test_counting_ahead_changes_no_chunk(minilm: HuggingFaceTokenization, text: str) -> None:
    """The real tokenizer counting ahead gives the chunks of a tokenizer counting each
    text on demand."""

    class OnDemand(HuggingFaceTokenization):
        def count_many(self, texts: Iterable[str], *, content: bool = False) -> Iterator[int]:
            return map(self.count_content if content else self.count, texts)

    on_demand = OnDemand(minilm.tokenizer, minilm.profile, "minilm-on-demand")
    config = ChunkingConfig(max_tokens=48, overlap_tokens=8)
    pages = [LoadedPage(text * 5, 1)]
    metadata = ChunkMetadata(doc_id="d")
    ahead = chunk_document(pages, metadata, config=config, tokenization=minilm)
    plain = chunk_document(pages, metadata, config=config, tokenization=on_demand)
    assert ahead == plain


@pytest.mark.parametrize("content", [False, True])
def test_count_many_equals_count(minilm: HuggingFaceTokenization, content: bool) -> None:
    texts = ["", " ", "Hola", "señor, ¿qué tal? 👩‍💻", "x" * 500] * (BATCH // 2)
    count = minilm.count_content if content else minilm.count
    assert list(minilm.count_many(iter(texts), content=content)) == list(map(count, texts))


def test_without_a_helper_every_batch_is_counted_on_the_calling_thread() -> None:
    """On one CPU a batch is ``SOLO_BATCH`` texts, read when its first count is asked
    for: a correction throws away at most the rest of one small batch."""
    recorder, read = _Recorder(), [0]
    counts = count_ahead(recorder, _texts(3 * BATCH + 5, read), helper=False)
    assert next(counts) == 0
    assert read[0] == SOLO_BATCH < BATCH  # one small batch at a time
    assert list(counts) == [index % 7 for index in range(1, 3 * BATCH + 5)]
    assert {name for name, _, _ in recorder.batches} == {"MainThread"}
    assert max(size for _, size, _ in recorder.batches) == SOLO_BATCH


def _threads_started(work: Callable[[], object]) -> list[str]:
    """The names of the threads started while ``work`` runs."""
    started: list[str] = []
    original = threading.Thread.start

    def spy(thread: threading.Thread) -> None:
        started.append(thread.name)
        original(thread)

    threading.Thread.start = spy  # type: ignore[method-assign]
    try:
        work()
    finally:
        threading.Thread.start = original  # type: ignore[method-assign]
    return started


def test_a_single_threaded_copy_starts_no_thread(minilm: HuggingFaceTokenization) -> None:
    """Chunking a law starts helper threads (counts ahead, the word index); the
    ``single_threaded()`` copy starts none, and the original keeps its helpers."""
    law = (ROOT / "corpus" / "markdown" / "BOE-A-1991-14392.md").read_text(encoding="utf-8")
    # Words no earlier test can have taught the shared tokenization's word counts: with
    # every word known, the word index has nothing to encode and starts no helper.
    unseen = " ".join(uuid.uuid4().hex for _ in range(200))
    pages, metadata = [LoadedPage(f"{law}\n\nAnexo. {unseen}.", 1)], ChunkMetadata(doc_id="ley")
    config = ChunkingConfig(max_tokens=128, overlap_tokens=16)
    single = minilm.single_threaded()

    def chunks_with(tokenization: HuggingFaceTokenization) -> Callable[[], object]:
        return lambda: chunk_document(pages, metadata, config=config, tokenization=tokenization)

    helpers = _threads_started(chunks_with(minilm))
    assert any(name.startswith("counts") for name in helpers)
    assert any(name.startswith("word-index") for name in helpers)
    assert _threads_started(chunks_with(single)) == []
    assert single.fingerprint == minilm.fingerprint
    assert any(name.startswith("counts") for name in _threads_started(chunks_with(minilm)))


@settings(PROFILE, max_examples=examples(20))
@given(text=spanish_text())
def test_a_single_threaded_copy_changes_no_index_and_no_chunk(
    minilm: HuggingFaceTokenization, text: str
) -> None:
    single = minilm.single_threaded()
    config = ChunkingConfig(max_tokens=48, overlap_tokens=8)
    pages = [LoadedPage(text * 20, 1)]
    metadata = ChunkMetadata(doc_id="d")
    chunks = chunk_document(pages, metadata, config=config, tokenization=single)
    assert chunks == chunk_document(pages, metadata, config=config, tokenization=minilm)
    index, expected = single.token_index(pages[0].text), minilm.token_index(pages[0].text)
    assert (list(index.positions), list(index.totals)) == (
        list(expected.positions),
        list(expected.totals),
    )


def test_a_process_on_one_cpu_counts_on_the_calling_thread(
    minilm: HuggingFaceTokenization, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pinned to one CPU (``taskset -c 0``) a helper thread overlaps nothing: the adapter
    counts and builds the word index on the calling thread, with the same numbers."""
    from langchain_asesoria.tokenization import _count_ahead

    texts = [f"El contribuyente {n} declara la renta. " * (n % 7 + 1) for n in range(300)]
    text = " ".join(texts)
    expected_counts, expected_index = list(minilm.count_many(texts)), minilm.token_index(text)
    monkeypatch.setattr(_count_ahead.os, "sched_getaffinity", lambda _pid: {0})
    started = threading.active_count()
    seen: set[str] = set()
    wholes = HuggingFaceTokenization._wholes

    def spy(self: HuggingFaceTokenization, batch: list[str]) -> list[int]:
        seen.add(threading.current_thread().name)
        return wholes(self, batch)

    monkeypatch.setattr(HuggingFaceTokenization, "_wholes", spy)
    assert list(minilm.count_many(texts)) == expected_counts
    assert minilm.token_index(text) == expected_index
    assert seen == {threading.current_thread().name}
    assert threading.active_count() == started
