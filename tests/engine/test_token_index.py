"""``TokenIndex``: the grouped token offsets behind every estimate, against brute force,
and the word-grouped index of the real MiniLM tokenizer against its exact counts."""

from __future__ import annotations

import re
from itertools import accumulate

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies import PROFILE, examples, spanish_text

from langchain_asesoria.engine import TokenIndex
from langchain_asesoria.testing import ByteTokenization, WordTokenization
from langchain_asesoria.tokenization import HuggingFaceTokenization


@st.composite
def indexes(draw: st.DrawFn) -> tuple[TokenIndex, list[int]]:
    """A random index and, for brute force, each token's position (a group's repeated)."""
    gaps = draw(st.lists(st.integers(1, 6), max_size=40))
    positions = list(accumulate(gaps, initial=draw(st.integers(0, 3))))[:-1] if gaps else []
    counts = draw(st.lists(st.integers(0, 5), min_size=len(positions), max_size=len(positions)))
    flat = [p for p, n in zip(positions, counts, strict=True) for _ in range(n)]
    return TokenIndex(positions, list(accumulate(counts, initial=0))), flat


positions_in = st.integers(0, 260)


@settings(PROFILE, max_examples=examples(200))
@given(indexed=indexes(), a=positions_in, b=positions_in)
def test_count_is_the_tokens_of_the_groups_starting_in_the_range(
    indexed: tuple[TokenIndex, list[int]], a: int, b: int
) -> None:
    index, flat = indexed
    assume(a <= b)
    assert index.count(a, b) == sum(1 for p in flat if a <= p < b)
    assert index.tokens == len(flat)


@settings(PROFILE, max_examples=examples(200))
@given(indexed=indexes(), start=positions_in, tokens=st.integers(0, 30))
def test_reach_is_the_furthest_group_start_within_the_tokens(
    indexed: tuple[TokenIndex, list[int]], start: int, tokens: int
) -> None:
    index, flat = indexed
    reach = index.reach(start, tokens)
    if reach is None:
        assert sum(1 for p in flat if p >= start) <= tokens
        return
    assert reach in index.positions
    later = [p for p in index.positions if p >= start]
    for position in later:
        within = index.count(start, position) <= tokens
        assert within == (position <= reach), (position, reach)


@settings(PROFILE, max_examples=examples(200))
@given(indexed=indexes(), end=positions_in, tokens=st.integers(1, 30))
def test_reach_back_is_the_group_of_the_nth_token_before_the_end(
    indexed: tuple[TokenIndex, list[int]], end: int, tokens: int
) -> None:
    index, flat = indexed
    before = [p for p in flat if p < end]
    expected = before[-tokens] if len(before) >= tokens else None
    assert index.reach_back(end, tokens) == expected


@settings(PROFILE, max_examples=examples(200))
@given(indexed=indexes(), a=positions_in, b=positions_in, most=st.integers(0, 40))
def test_single_tokens_lists_positions_only_where_each_holds_one_token(
    indexed: tuple[TokenIndex, list[int]], a: int, b: int, most: int
) -> None:
    index, flat = indexed
    assume(a <= b)
    inside = [p for p in index.positions if a <= p < b][:most]
    listed = index.single_tokens(a, b, most)
    if all(flat.count(p) == 1 for p in inside):
        assert listed is not None
        assert list(listed) == inside
    elif listed is not None:  # a group of 0 and one of 2 tokens add up like two of 1
        assert sum(flat.count(p) for p in inside) == len(inside)


def test_from_starts_is_one_group_per_token() -> None:
    index = TokenIndex.from_starts([0, 2, 2, 5])
    assert (index.count(0, 3), index.count(2, 3), index.count(3, 6), index.tokens) == (3, 2, 1, 4)
    assert index.reach(0, 3) == 5
    assert index.reach(3, 3) is None
    assert index.reach_back(5, 1) == 2
    assert index.reach_back(1, 2) is None


@pytest.mark.parametrize("totals", [[], [0, 1], [1, 2, 3]])
def test_totals_must_start_at_zero_and_match_the_positions(totals: list[int]) -> None:
    with pytest.raises(ValueError, match="totals"):
        TokenIndex([3, 4], totals)


@pytest.mark.parametrize("fake", [ByteTokenization(512), WordTokenization(512)])
def test_fakes_index_their_own_token_starts(fake: ByteTokenization | WordTokenization) -> None:
    text = "El señor Muñoz pagó 1.000 € 😀; ¿deducción?"
    index = fake.token_index(text)
    assert list(index.positions) == list(fake.token_starts(text))
    assert index.tokens == fake.count_content(text)


_WORD_STARTS = re.compile(r"(?<!\S)\S")
_UNUSUAL_SPACE = re.compile(r"[^\S \t\n\r]")


@settings(PROFILE, max_examples=examples(60))
@given(text=spanish_text(), data=st.data())
def test_minilm_word_index_is_exact_between_word_starts(
    minilm: HuggingFaceTokenization, text: str, data: st.DataObject
) -> None:
    """WordPiece pre-splits at whitespace: the distinct-word counts add up exactly.

    (Where Python and BERT disagree on whitespace, as for ``\\x1f`` that BERT deletes,
    the index is an estimate; the property is stated for ordinary whitespace.)
    """
    text = _UNUSUAL_SPACE.sub(" ", text)
    index = minilm.token_index(text)
    assert index.tokens == minilm.count_content(text)
    bounds = [0, *(m.start() for m in _WORD_STARTS.finditer(text)), len(text)]
    a = data.draw(st.sampled_from(bounds))
    b = data.draw(st.sampled_from([x for x in bounds if x >= a]))
    assert index.count(a, b) == minilm.count_content(text[a:b]), text[a:b]


def test_minilm_long_words_keep_every_token_start(minilm: HuggingFaceTokenization) -> None:
    """A run without spaces of more than a few tokens is indexed token by token, so that
    it can be cut inside; short words are one group."""
    long_word = "-".join(["deducción", "cuota", "íntegra", "1.000€"] * 50)
    text = f"La {long_word} es   muy larga."
    index = minilm.token_index(text)
    starts = list(minilm.token_starts(text))
    first, last = text.index(long_word), text.index(long_word) + len(long_word)
    inside = [s for s in starts if first <= s < last]
    assert len(inside) > 100
    tail = [text.index(word) for word in ("es", "muy", "larga.")]
    assert list(index.positions) == [0, *inside, *tail]
    assert index.count(tail[2], len(text)) == minilm.count_content("larga.") > 1  # one group
    assert index.tokens == len(starts)
