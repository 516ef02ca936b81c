"""Candidate contexts left uncounted (``engine._context._reachable``): with a
``WordEstimator``, a candidate whose words' tokens already exceed the share of the
budget is not counted exactly. The choice is the first candidate that fits, as before,
whenever the estimate is exact; whatever the estimate, what is kept is counted, so
every context stays within its share and every chunk within the budget."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
from langchain_asesoria.engine import WordEstimator
from langchain_asesoria.engine._context import _ESTIMATE_SLACK, contexts, lead_contexts
from langchain_asesoria.engine._segments import Segment
from langchain_asesoria.models import Chunk, LeadSpan
from langchain_asesoria.testing import CountingTokenization, WordTokenization
from langchain_asesoria.tokenization import HuggingFaceTokenization

ROOT = Path(__file__).resolve().parents[2]
LAW = (ROOT / "corpus" / "markdown" / "BOE-A-1991-14392.md").read_text(encoding="utf-8")[:60_000]


class _Estimating(WordTokenization):
    """The word-piece fake with an exact estimate: its pieces never cross a space, so
    a text's tokens are the sum of its words'."""

    __slots__ = ()

    def estimate_content(self, text: str) -> int | None:
        return sum(self.count_content(word) for word in text.split())


class _Off(WordTokenization):
    """An estimate ``by`` tokens off, whatever the text (None: no estimate of it)."""

    __slots__ = ("by",)

    def __init__(self, by: int | None) -> None:
        super().__init__(512)
        self.by = by

    def estimate_content(self, text: str) -> int | None:
        if self.by is None:
            return None
        return max(0, sum(self.count_content(word) for word in text.split()) + self.by)


class _CountingEstimating(CountingTokenization):
    """Records the counts of a tokenization that estimates, and passes its estimate on."""

    def estimate_content(self, text: str) -> int | None:
        estimate: int | None = self.inner.estimate_content(text)  # type: ignore[attr-defined]
        return estimate


def _chunks(tokenization: object, config: ChunkingConfig, text: str = LAW) -> list[Chunk]:
    return chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata("ley"),
        config=config,
        tokenization=tokenization,  # type: ignore[arg-type]
        detect_markdown_headings=True,
    )


def test_the_fakes_and_the_loaded_tokenizers_estimate_words(
    minilm: HuggingFaceTokenization,
) -> None:
    assert isinstance(_Estimating(512), WordEstimator)
    assert isinstance(minilm, WordEstimator)
    assert not isinstance(WordTokenization(512), WordEstimator)
    assert not isinstance(CountingTokenization(_Estimating(512)), WordEstimator)


@pytest.mark.parametrize("budget", [64, 128, 256])
def test_an_exact_estimate_gives_the_same_chunks_with_fewer_counts(budget: int) -> None:
    config = ChunkingConfig(budget, budget // 8)
    estimating = _CountingEstimating(_Estimating(512))
    counting = CountingTokenization(WordTokenization(512))
    assert _chunks(estimating, config) == _chunks(counting, config)
    assert estimating.exact < counting.exact
    assert estimating.characters < counting.characters


def test_the_loaded_tokenizer_gives_the_same_chunks_with_fewer_counts(
    minilm: HuggingFaceTokenization,
) -> None:
    """MiniLM's estimate is exact: the chunks of the tokenizer as loaded are those of
    the same tokenizer with its estimate hidden (``CountingTokenization``)."""
    config = ChunkingConfig(128, 16)
    hidden = CountingTokenization(minilm)
    shown = _CountingEstimating(minilm)
    assert _chunks(shown, config) == _chunks(hidden, config)
    assert shown.exact < hidden.exact


@pytest.mark.parametrize("by", [-1_000, None])
def test_an_estimate_below_every_count_counts_every_candidate(by: int | None) -> None:
    """An estimate of 0 (or none) rules nothing out: every candidate is counted."""
    config = ChunkingConfig(96, 12)
    off = _CountingEstimating(_Off(by))
    counting = CountingTokenization(WordTokenization(512))
    assert _chunks(off, config) == _chunks(counting, config)
    assert off.exact == counting.exact


@pytest.mark.parametrize("by", [8, 40])
def test_an_estimate_far_over_still_keeps_every_context_within_its_share(by: int) -> None:
    """A wrong estimate can only leave out candidates that would have fitted: the
    contexts get shorter (or none), never over the share, and the chunks stay exact."""
    config = ChunkingConfig(96, 12)
    tokenization = _Off(by)
    chunks = _chunks(tokenization, config)
    allowed = tokenization.count(tokenization.prepare("")) + int(96 * config.context_share)
    shorter = 0
    for chunk, fair in zip(chunks, _chunks(WordTokenization(512), config), strict=False):
        assert chunk.token_count == tokenization.count(chunk.embedding_text) <= 96
        assert LAW[chunk.start : chunk.end] == chunk.text
        assert chunk.embedding_text.endswith(chunk.text)
        context = chunk.embedding_text[: len(chunk.embedding_text) - len(chunk.text)]
        if context:
            separator = tokenization.profile.context_separator
            assert tokenization.count(tokenization.prepare("", context[: -len(separator)])) <= (
                allowed
            )
        shorter += len(chunk.embedding_text) - len(chunk.text) < len(fair.embedding_text) - len(
            fair.text
        )
    assert shorter  # contexts that fitted were left out
    covered = {i for chunk in chunks for i in range(chunk.start, chunk.end)}
    assert all(i in covered for i, char in enumerate(LAW) if not char.isspace())


_WORDS = st.text(
    alphabet=st.sampled_from("abcdeñáéíóúüÑÁ€😀0123456789.,;:()-"), min_size=1, max_size=14
)
_TITLES = st.lists(_WORDS, min_size=1, max_size=12).map(" ".join)
_PATHS = st.lists(_TITLES, min_size=1, max_size=5).map(tuple)


@settings(max_examples=60, deadline=None)
@given(
    paths=st.lists(_PATHS, min_size=1, max_size=6),
    budget=st.integers(min_value=24, max_value=200),
    per_token=st.sampled_from([None, 2.0, 3.5]),
)
def test_an_exact_estimate_chooses_as_counting_every_candidate(
    paths: Sequence[tuple[str, ...]], budget: int, per_token: float | None
) -> None:
    """Paths of Spanish-like titles (accents, ñ, €, emoji): the compact contexts and
    the lead contexts chosen with an exact estimate are those chosen counting every
    candidate, and no candidate over the share is counted."""
    config = ChunkingConfig(budget, budget // 8)
    segments = [Segment(0, 1, path[-1], path) for path in paths]
    plain = WordTokenization(512)
    estimating = _CountingEstimating(_Estimating(512))
    expected = contexts(segments, config, plain, {}, per_token)
    costs: dict[str, int] = {}
    estimate = estimating.estimate_content
    chosen = contexts(segments, config, estimating, costs, per_token, estimate)  # type: ignore[arg-type]
    assert chosen == expected
    allowed = costs[""] + int(budget * config.context_share)
    room = allowed - costs[""]
    assert all(plain.count_content(c) <= room + _ESTIMATE_SLACK for c in costs if c)

    lead = LeadSpan(0, 1, " ".join(paths[0]) + ":")
    requests = [(s, context, lead) for s, context in zip(segments, expected, strict=True)]
    plain_leads = lead_contexts(requests, config, plain, {}, per_token)
    estimated_leads = lead_contexts(requests, config, estimating, {}, per_token, estimate)  # type: ignore[arg-type]
    assert estimated_leads == plain_leads
