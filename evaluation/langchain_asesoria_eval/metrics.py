"""Retrieval metrics as pure functions over ranked results and annotated passages.

More: ``docs/design/evaluation.md``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Protocol

from langchain_asesoria_eval.questions import RelevantPassage, normalize_space

__all__ = [
    "DEFAULT_MIN_OVERLAP",
    "Located",
    "Spanned",
    "hit_at_k",
    "is_relevant",
    "judge",
    "mean",
    "near_duplicate_share",
    "overlap_length",
    "recall_at_k",
    "reciprocal_rank",
    "separation_auc",
    "sign_test",
    "wilson_interval",
]

#: The documented default of the relevance criterion.
DEFAULT_MIN_OVERLAP = 0.5

Judgements = Sequence[frozenset[int]]


class Spanned(Protocol):
    """Where a retrieved piece lies: its document and ``[start, end)`` in the joined text."""

    @property
    def doc_id(self) -> str: ...

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


class Located(Spanned, Protocol):
    """A retrieved piece of text and where it lies in its document's joined text."""

    @property
    def text(self) -> str: ...


def overlap_length(a_start: int, a_end: int, b_start: int, b_end: int) -> int:
    """Characters shared by ``[a_start, a_end)`` and ``[b_start, b_end)`` (0 if disjoint)."""
    return max(0, min(a_end, b_end) - max(a_start, b_start))


def is_relevant(
    chunk: Located, passage: RelevantPassage, min_overlap: float = DEFAULT_MIN_OVERLAP
) -> bool:
    """Whether ``chunk`` answers ``passage`` (see the module docstring).

    Raises:
        ValueError: ``min_overlap`` outside ``(0, 1]``.
    """
    if not 0 < min_overlap <= 1:
        raise ValueError(f"min_overlap must be in (0, 1], got {min_overlap}.")
    if chunk.doc_id != passage.doc_id:
        return False
    if passage.start is not None and passage.end is not None:
        shared = overlap_length(chunk.start, chunk.end, passage.start, passage.end)
        shorter = min(chunk.end - chunk.start, passage.end - passage.start)
        if shared > 0 and shared >= min_overlap * shorter:
            return True
    if passage.answer is not None:
        return normalize_space(passage.answer) in normalize_space(chunk.text)
    return False


def judge(
    results: Sequence[Located],
    passages: Sequence[RelevantPassage],
    min_overlap: float = DEFAULT_MIN_OVERLAP,
) -> tuple[frozenset[int], ...]:
    """For each ranked result, the indices of the passages it is relevant to."""
    return tuple(
        frozenset(
            index
            for index, passage in enumerate(passages)
            if is_relevant(result, passage, min_overlap)
        )
        for result in results
    )


def _check_k(k: int) -> None:
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}.")


def hit_at_k(judgements: Judgements, k: int) -> float:
    """1.0 when one of the first ``k`` results is relevant, else 0.0."""
    _check_k(k)
    return 1.0 if any(judgements[:k]) else 0.0


def recall_at_k(judgements: Judgements, k: int, relevant_count: int) -> float:
    """Share of the ``relevant_count`` passages matched by the first ``k`` results.

    Raises:
        ValueError: ``k < 1`` or ``relevant_count < 1`` (no-source questions have no recall).
    """
    _check_k(k)
    if relevant_count < 1:
        raise ValueError("recall needs at least one relevant passage.")
    found: set[int] = set()
    for matched in judgements[:k]:
        found.update(matched)
    return len(found) / relevant_count


def reciprocal_rank(judgements: Judgements) -> float:
    """``1 / rank`` of the first relevant result, 0.0 when none is relevant."""
    for rank, matched in enumerate(judgements, start=1):
        if matched:
            return 1.0 / rank
    return 0.0


def near_duplicate_share(results: Sequence[Spanned], k: int) -> float:
    """Share of the first ``k`` results overlapping an earlier result of the same document.

    0.0 when nothing was retrieved; the first result is never a duplicate.
    """
    _check_k(k)
    top = results[:k]
    if not top:
        return 0.0
    duplicates = sum(
        1
        for index, result in enumerate(top)
        if any(
            earlier.doc_id == result.doc_id
            and overlap_length(earlier.start, earlier.end, result.start, result.end) > 0
            for earlier in top[:index]
        )
    )
    return duplicates / len(top)


def mean(values: Iterable[float]) -> float:
    """The arithmetic mean; 0.0 for no values (an empty table shows 0, not an error)."""
    items = list(values)
    return math.fsum(items) / len(items) if items else 0.0


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default): how sure a hit rate is.

    Raises:
        ValueError: ``trials < 1`` or ``successes`` outside ``[0, trials]``.
    """
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError(
            f"need 0 <= successes <= trials and trials >= 1, got {successes}/{trials}."
        )
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test p-value for paired outcomes (ties already dropped).

    ``wins`` are questions only the first configuration answers, ``losses`` those only
    the second does; under "no difference" each is a fair coin. 1.0 when both are 0.

    Raises:
        ValueError: a negative count.
    """
    if wins < 0 or losses < 0:
        raise ValueError(f"counts must be non-negative, got {wins} and {losses}.")
    n = wins + losses
    if n == 0:
        return 1.0
    tail = math.fsum(math.comb(n, i) for i in range(min(wins, losses) + 1)) / 2.0**n
    return min(1.0, 2 * tail)


def separation_auc(positive: Sequence[float], negative: Sequence[float]) -> float:
    """Probability that a random ``positive`` score beats a random ``negative`` one.

    Used with the best score of answerable (positive) and no-source (negative)
    questions: 1.0 means a threshold could tell them apart, 0.5 means it cannot.
    Ties count one half.

    Raises:
        ValueError: either sequence is empty.
    """
    if not positive or not negative:
        raise ValueError("separation needs at least one score on each side.")
    wins = math.fsum(1.0 if p > n else 0.5 if p == n else 0.0 for p in positive for n in negative)
    return wins / (len(positive) * len(negative))
