"""Metrics of ``langchain_asesoria_eval.metrics`` against hand-computed values."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from langchain_asesoria_eval.metrics import (
    hit_at_k,
    is_relevant,
    judge,
    mean,
    near_duplicate_share,
    overlap_length,
    recall_at_k,
    reciprocal_rank,
    separation_auc,
    sign_test,
    wilson_interval,
)
from langchain_asesoria_eval.questions import RelevantPassage


@dataclass(frozen=True)
class Result:
    doc_id: str
    start: int
    end: int
    text: str = ""


NONE: frozenset[int] = frozenset()
A = frozenset({0})
B = frozenset({1})
AB = frozenset({0, 1})


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((0, 10), (5, 15), 5),
        ((0, 10), (10, 20), 0),  # touching, [start, end) share nothing
        ((0, 10), (2, 4), 2),
        ((5, 6), (0, 100), 1),
        ((0, 10), (20, 30), 0),
    ],
)
def test_overlap_length(a: tuple[int, int], b: tuple[int, int], expected: int) -> None:
    assert overlap_length(*a, *b) == expected
    assert overlap_length(*b, *a) == expected


SPAN = RelevantPassage("doc", 100, 200)  # 100 characters


@pytest.mark.parametrize(
    ("chunk", "passage", "min_overlap", "expected"),
    [
        (Result("doc", 0, 1000), SPAN, 0.5, True),  # holds the whole passage
        (Result("other", 0, 1000), SPAN, 0.5, False),  # another document
        (Result("doc", 150, 400), SPAN, 0.5, True),  # 50 of 100: exactly half
        (Result("doc", 151, 400), SPAN, 0.5, False),  # 49 of 100
        (Result("doc", 151, 400), SPAN, 0.4, True),
        (Result("doc", 120, 140), SPAN, 0.5, True),  # 20 of a 20-char chunk
        (Result("doc", 190, 230), SPAN, 0.5, False),  # 10 of the 40-char chunk
        (Result("doc", 200, 300), SPAN, 0.1, False),  # touching only
        (
            Result("doc", 0, 10, "el mínimo\nexento   es de 700.000 euros"),
            RelevantPassage("doc", answer="exento es de 700.000"),
            0.5,
            True,
        ),
        (
            Result("doc", 0, 10, "mínimo exento"),
            RelevantPassage("doc", answer="700.000 euros"),
            0.5,
            False,
        ),
        (  # span missed, answer found
            Result("doc", 0, 50, "la respuesta: 300.000 euros"),
            RelevantPassage("doc", 100, 200, answer="300.000 euros"),
            0.5,
            True,
        ),
        (
            Result("other", 0, 50, "300.000 euros"),
            RelevantPassage("doc", answer="300.000 euros"),
            0.5,
            False,
        ),
    ],
)
def test_is_relevant(
    chunk: Result, passage: RelevantPassage, min_overlap: float, expected: bool
) -> None:
    assert is_relevant(chunk, passage, min_overlap) is expected


@pytest.mark.parametrize("bad", [0.0, -0.1, 1.5])
def test_is_relevant_rejects_a_bad_fraction(bad: float) -> None:
    with pytest.raises(ValueError, match="min_overlap"):
        is_relevant(Result("doc", 0, 1), SPAN, bad)


def test_judge_lists_the_passages_each_result_matches() -> None:
    passages = [RelevantPassage("doc", 0, 100), RelevantPassage("doc", 500, 600)]
    results = [Result("doc", 700, 800), Result("doc", 0, 600), Result("doc", 520, 590)]
    assert judge(results, passages) == (NONE, AB, B)


JUDGEMENTS = [NONE, NONE, A, NONE, B]


@pytest.mark.parametrize(
    ("judgements", "k", "expected"),
    [
        (JUDGEMENTS, 1, 0.0),
        (JUDGEMENTS, 2, 0.0),
        (JUDGEMENTS, 3, 1.0),
        (JUDGEMENTS, 10, 1.0),
        ([], 5, 0.0),
        ([A], 1, 1.0),
    ],
)
def test_hit_at_k(judgements: list[frozenset[int]], k: int, expected: float) -> None:
    assert hit_at_k(judgements, k) == expected


@pytest.mark.parametrize(
    ("judgements", "k", "relevant", "expected"),
    [
        (JUDGEMENTS, 2, 2, 0.0),
        (JUDGEMENTS, 3, 2, 0.5),
        (JUDGEMENTS, 5, 2, 1.0),
        (JUDGEMENTS, 5, 4, 0.5),  # two of four passages found
        ([AB], 1, 2, 1.0),
        ([A, A, A], 3, 3, 1 / 3),  # the same passage three times counts once
    ],
)
def test_recall_at_k(
    judgements: list[frozenset[int]], k: int, relevant: int, expected: float
) -> None:
    assert recall_at_k(judgements, k, relevant) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("judgements", "expected"),
    [([A], 1.0), ([NONE, A], 0.5), (JUDGEMENTS, 1 / 3), ([NONE] * 10, 0.0), ([], 0.0)],
)
def test_reciprocal_rank(judgements: list[frozenset[int]], expected: float) -> None:
    assert reciprocal_rank(judgements) == pytest.approx(expected)


def test_mrr_by_hand() -> None:
    # Ranks 1, 3 and none: (1 + 1/3 + 0) / 3 = 4/9.
    ranks = [[A], [NONE, NONE, A], [NONE, NONE]]
    assert mean(reciprocal_rank(j) for j in ranks) == pytest.approx(4 / 9)


RESULTS = [
    Result("d", 0, 100),
    Result("d", 90, 200),  # overlaps the first
    Result("e", 0, 100),  # same span, other document
    Result("d", 300, 400),
    Result("d", 350, 360),  # inside the fourth
]


@pytest.mark.parametrize(
    ("results", "k", "expected"),
    [
        (RESULTS, 1, 0.0),
        (RESULTS, 2, 0.5),
        (RESULTS, 3, 1 / 3),
        (RESULTS, 5, 2 / 5),
        (RESULTS, 10, 2 / 5),  # fewer results than k: share of those returned
        ([], 5, 0.0),
        ([Result("d", 0, 10), Result("d", 10, 20)], 2, 0.0),  # adjacent, not overlapping
    ],
)
def test_near_duplicate_share(results: list[Result], k: int, expected: float) -> None:
    assert near_duplicate_share(results, k) == pytest.approx(expected)


@pytest.mark.parametrize("function", [hit_at_k, lambda j, k: recall_at_k(j, k, 1)])
def test_k_must_be_positive(function: object) -> None:
    with pytest.raises(ValueError, match="k must be at least 1"):
        function([A], 0)  # type: ignore[operator]


def test_recall_needs_a_relevant_passage() -> None:
    with pytest.raises(ValueError, match="relevant passage"):
        recall_at_k([A], 1, 0)


@pytest.mark.parametrize(
    ("values", "expected"), [([], 0.0), ([1.0], 1.0), ([0.0, 1.0, 1.0, 0.0], 0.5)]
)
def test_mean(values: list[float], expected: float) -> None:
    assert mean(values) == expected


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Wilson 95% intervals, worked out by hand with z = 1.96.
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (40, 63, 0.5115, 0.7428),
    ],
)
def test_wilson_interval(successes: int, trials: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(successes, trials)
    assert lo == pytest.approx(low, abs=5e-4)
    assert hi == pytest.approx(high, abs=5e-4)


@pytest.mark.parametrize(("successes", "trials"), [(1, 0), (-1, 5), (6, 5)])
def test_wilson_interval_rejects_impossible_counts(successes: int, trials: int) -> None:
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(successes, trials)


@pytest.mark.parametrize(
    ("wins", "losses", "expected"),
    [
        (0, 0, 1.0),
        (1, 0, 1.0),
        (3, 3, 1.0),
        (5, 0, 0.0625),  # 2 * (1/2)^5
        (0, 5, 0.0625),
        (6, 1, 0.125),  # 2 * (1 + 7) / 128
        (10, 2, 0.0386),  # 2 * (1 + 12 + 66) / 4096
    ],
)
def test_sign_test(wins: int, losses: int, expected: float) -> None:
    assert sign_test(wins, losses) == pytest.approx(expected, abs=5e-4)


@pytest.mark.parametrize(
    ("positive", "negative", "expected"),
    [
        ([3.0, 2.0], [1.0], 1.0),
        ([1.0], [1.0], 0.5),
        ([1.0, 3.0], [2.0], 0.5),
        ([2.0, 2.0], [2.0, 1.0], 0.75),  # (0.5 + 1 + 0.5 + 1) / 4
        ([0.0], [5.0, 6.0], 0.0),
    ],
)
def test_separation_auc(positive: list[float], negative: list[float], expected: float) -> None:
    assert separation_auc(positive, negative) == pytest.approx(expected)


def test_separation_needs_both_sides() -> None:
    with pytest.raises(ValueError, match="each side"):
        separation_auc([1.0], [])
