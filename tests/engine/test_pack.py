"""Packing one section (``engine/_pack.py``): plans confirmed or corrected, in order."""

from __future__ import annotations

from collections.abc import Iterator

from engine_cases import Underestimating, section_of
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, examples, spanish_text

from langchain_asesoria import IndivisibleCharacterError
from langchain_asesoria.engine._pack import measure, pack_section
from langchain_asesoria.engine._plan import InnerCuts, plan_run
from langchain_asesoria.engine._search import Measured
from langchain_asesoria.testing import ByteTokenization, WordTokenization


def _first_plans(section: object, tokenization: object) -> Iterator[Measured]:
    plans = plan_run(section, None, InnerCuts(), None)  # type: ignore[arg-type]
    return measure(((section, plan) for plan in plans), tokenization)  # type: ignore[arg-type]


@settings(PROFILE, max_examples=examples(60))
@given(
    text=spanish_text().filter(str.strip),
    budget=st.integers(24, 128),
    overlap=st.integers(0, 16),
    wrong=st.booleans(),
)
def test_a_section_is_packed_exactly_whatever_the_estimate(
    text: str, budget: int, overlap: int, wrong: bool
) -> None:
    """With a right or a badly wrong estimate: chunks in order, trimmed, each exactly
    within the budget, overlapping the previous one by at most the target (its exact
    count), and together covering every visible character of the section."""
    tokenization = Underestimating() if wrong else WordTokenization(512)
    section = section_of(text, tokenization, budget=budget, overlap=min(overlap, budget - 1))
    try:
        chunks = list(pack_section(section, _first_plans(section, tokenization), tokenization))
    except IndivisibleCharacterError:
        return
    assert chunks
    assert chunks[0].start == section.start
    assert chunks[-1].end == section.end
    covered = section.start
    for previous, chunk in zip([None, *chunks], chunks, strict=False):
        assert chunk.text == text[chunk.start : chunk.end] == chunk.text.strip()
        assert chunk.token_count == tokenization.count(chunk.embedding_text) <= budget
        assert chunk.embedding_text == tokenization.prepare(chunk.text)
        assert text[covered : chunk.start].strip() == ""
        covered = max(covered, chunk.end)
        if previous is None:
            assert chunk.overlap_tokens == 0
            continue
        assert previous.start < chunk.start
        assert previous.end < chunk.end
        shared = text[chunk.start : previous.end]
        assert chunk.overlap_tokens == tokenization.count_content(shared) <= section.overlap_target


def test_the_same_chunks_from_good_plans_as_from_corrections_alone() -> None:
    """Plans only save exact counts: packing with no first plans at all (every chunk
    found by correction, then planned runs) gives the same chunks as packing from them,
    when the estimate is exact (bytes)."""
    tokenization = ByteTokenization(512)
    text = " ".join(f"Artículo {n}. La base imponible del año {n}." for n in range(60))
    section = section_of(text, tokenization, budget=48, overlap=8)
    planned = list(pack_section(section, _first_plans(section, tokenization), tokenization))
    corrected = list(pack_section(section, iter(()), tokenization))
    assert [(c.start, c.end) for c in corrected] == [(c.start, c.end) for c in planned]


def test_plans_are_read_only_as_far_as_they_are_accepted() -> None:
    """A rejected plan ends the reading of the first plans: the rest are never used."""
    tokenization = Underestimating(every=4)
    text = " ".join(f"Frase {n} con palabras suficientes." for n in range(100))
    section = section_of(text, tokenization, budget=32, overlap=4)
    read: list[Measured] = []

    def recording() -> Iterator[Measured]:
        for item in _first_plans(section, tokenization):
            read.append(item)
            yield item

    chunks = pack_section(section, recording(), tokenization)
    first = next(chunks)
    rejected = [item for item in read if item.tokens > 32]
    assert len(rejected) == 1
    assert read[-1] is rejected[0]
    assert first.token_count <= 32
    assert sum(1 for _ in chunks) > 10
    assert read[-1] is rejected[0]  # nothing more was read from the first plans


def test_a_section_builds_its_chunks_as_they_are_read() -> None:
    """A one-section document (a long paragraph) yields its first chunk before the rest
    are planned: nothing holds all of a section's chunks."""
    tokenization = ByteTokenization(512)
    text = "El contribuyente declara la renta del ejercicio y paga la cuota. " * 600
    section = section_of(text, tokenization, budget=64, overlap=8)
    read = 0

    def counted() -> Iterator[Measured]:
        nonlocal read
        for item in _first_plans(section, tokenization):
            read += 1
            yield item

    chunks = pack_section(section, counted(), tokenization)
    next(chunks)
    assert read == 1
    assert sum(1 for _ in chunks) > 100
