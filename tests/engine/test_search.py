"""Correction by exact counts (``engine/_search.py``): one chunk, always fitting."""

from __future__ import annotations

import pytest
from engine_cases import Underestimating, section_of
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, examples, spanish_text

from langchain_asesoria import IndivisibleCharacterError
from langchain_asesoria.engine._cuts import is_safe_cut
from langchain_asesoria.engine._plan import InnerCuts, Span, plan_run
from langchain_asesoria.engine._search import Measured, correct
from langchain_asesoria.testing import ByteTokenization, CountingTokenization


def _fits(tokenization: Underestimating, text: str, start: int, end: int, budget: int) -> bool:
    return tokenization.count(tokenization.prepare(text[start:end])) <= budget


@settings(PROFILE, max_examples=examples(60))
@given(text=spanish_text(long_words_too=False).filter(str.strip), budget=st.integers(16, 96))
def test_the_first_chunk_ends_at_the_furthest_unit_end_that_fits(text: str, budget: int) -> None:
    """Whatever the estimate says (here a third of the truth), the exact search finds the
    furthest unit end whose prepared text fits, when one does."""
    tokenization = Underestimating()
    section = section_of(text, tokenization, budget=budget)
    fitting = [end for end in section.ends if _fits(tokenization, text, section.start, end, budget)]
    try:
        chunk = correct(section, tokenization, None, None)
    except IndivisibleCharacterError:
        assert not fitting
        return
    assert chunk.plan.start == section.start
    assert chunk.tokens == tokenization.count(chunk.prepared) <= budget
    assert chunk.text == text[chunk.plan.start : chunk.plan.end]
    if fitting and section.ends_past_headings(section.start, max(fitting)):
        # headings alone up to there: the chunk goes on inside their text, as far as fits
        assert chunk.plan.end >= max(fitting)
    elif fitting:
        assert chunk.plan.end == max(fitting)


@settings(PROFILE, max_examples=examples(60))
@given(
    text=spanish_text(long_words_too=False).filter(str.strip),
    budget=st.integers(24, 96),
    overlap=st.integers(1, 12),
)
def test_the_next_chunk_overlaps_within_the_target_and_goes_further(
    text: str, budget: int, overlap: int
) -> None:
    tokenization = Underestimating()
    section = section_of(text, tokenization, budget=budget, overlap=overlap)
    try:
        first = correct(section, tokenization, None, None)
        if first.plan.end >= section.end:
            return
        chunk = correct(section, tokenization, first.plan.span, None)
    except IndivisibleCharacterError:
        return
    plan = chunk.plan
    assert plan.after == first.plan.end < plan.end
    assert first.plan.start < plan.start
    assert chunk.tokens <= budget
    assert chunk.shared <= overlap
    if plan.start < plan.after:
        assert chunk.shared == tokenization.count_content(text[plan.start : plan.after])


def test_a_word_longer_than_the_budget_is_cut_at_safe_characters() -> None:
    tokenization = ByteTokenization(512)
    text = "Añoñoño" * 30
    section = section_of(text, tokenization, budget=20)
    chunk = correct(section, tokenization, None, None)
    assert chunk.tokens <= 20
    assert chunk.plan.end < len(text)
    assert is_safe_cut(text, chunk.plan.end)


@pytest.mark.parametrize(
    ("text", "budget"),
    [("👨‍👩‍👧‍👦", 20), ("a" + "\u0301" * 30, 16)],
)
def test_a_grapheme_that_cannot_fit_is_an_error(text: str, budget: int) -> None:
    tokenization = ByteTokenization(512)
    section = section_of(text, tokenization, budget=budget)
    with pytest.raises(IndivisibleCharacterError, match=r"the character .* at position 0 ") as e:
        correct(section, tokenization, None, None)
    assert (e.value.position, e.value.expected) == (0, f"at most {budget} tokens")


def test_the_failed_plans_counts_are_reused() -> None:
    """The plan that exact counts rejected was already counted: the search, which the
    same estimate leads to that candidate first, starts from its count."""
    inner = Underestimating()
    text = " ".join(f"Frase número {n} del texto." for n in range(40))
    section = section_of(text, inner, budget=40)
    plan = next(iter(plan_run(section, None, InnerCuts(), None)))
    prepared = inner.prepare(text[plan.start : plan.end])
    failed = Measured(plan, text[plan.start : plan.end], prepared, inner.count(prepared), 0)
    assert failed.tokens > 40
    seeded, unseeded = CountingTokenization(inner), CountingTokenization(inner)
    chunk = correct(section, seeded, None, failed)  # type: ignore[arg-type]
    assert chunk == correct(section, unseeded, None, None)  # type: ignore[arg-type]
    assert seeded.single == unseeded.single - 1


def test_the_search_memoises_each_candidate_once() -> None:
    inner = Underestimating()
    text = " ".join(f"Oración {n} con varias palabras." for n in range(80))
    section = section_of(text, inner, budget=48, overlap=8)
    counting = CountingTokenization(inner)
    chunk = correct(section, counting, Span(0, 40), None)  # type: ignore[arg-type]
    assert chunk.tokens <= 48
    assert counting.single <= 12
