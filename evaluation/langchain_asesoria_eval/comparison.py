"""Which candidate wins under a setup, and how sure the evidence allows us to be.

The ranking rule is fixed in advance: MRR (cut at the retrieval depth), then the mean
of hit@k over the reported ``k``, then fewer tokens stored. The confidence is stated
three ways, none of them a proof of universality:

- the number of answerable questions and a 95% Wilson interval of the winner's hit@k;
- a paired comparison with the runner-up at each reported ``k`` (questions only one
  of the two finds) with an exact sign-test p-value;
- the spread across ``k``: at which ``k`` the winner has the best hit@k and at which
  another candidate does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from langchain_asesoria_eval.metrics import hit_at_k, mean, sign_test, wilson_interval
from langchain_asesoria_eval.runner import CandidateResult, RunResult, Scores, summarize

__all__ = ["PairedComparison", "Ranked", "Verdict", "paired", "rank", "verdict"]


@dataclass(frozen=True, slots=True)
class Ranked:
    """A candidate with its scores, in ranking order."""

    result: CandidateResult
    scores: Scores

    def mean_hit(self, ks: Sequence[int]) -> float:
        """Mean of hit@k over ``ks``."""
        return mean(self.scores.hit_at[k] for k in ks)


def rank(run: RunResult, ks: Sequence[int], depth: int) -> list[Ranked]:
    """The run's candidates, best first (MRR, then mean hit@k, then fewer tokens)."""
    ranked = [Ranked(result, summarize(result, depth)) for result in run.candidates]
    return sorted(
        ranked,
        key=lambda r: (-r.scores.mrr, -r.mean_hit(ks), r.result.tokens_stored),
    )


@dataclass(frozen=True, slots=True)
class PairedComparison:
    """Answerable questions only one of two candidates finds in its top ``k``."""

    k: int
    only_first: int
    only_second: int
    p_value: float


def paired(first: CandidateResult, second: CandidateResult, k: int) -> PairedComparison:
    """Paired hit@k comparison over the answerable questions both answered."""
    only_first = only_second = 0
    for a, b in zip(first.outcomes, second.outcomes, strict=True):
        if a.no_source:
            continue
        hit_a, hit_b = hit_at_k(a.judgements, k), hit_at_k(b.judgements, k)
        only_first += int(hit_a > hit_b)
        only_second += int(hit_b > hit_a)
    return PairedComparison(k, only_first, only_second, sign_test(only_first, only_second))


@dataclass(frozen=True, slots=True)
class Verdict:
    """The winner of a run and the evidence behind it.

    Attributes:
        winner: The best ranked candidate.
        runner_up: The second, when there is one.
        questions: Answerable questions the metrics average over.
        intervals: 95% Wilson interval of the winner's hit@k, per reported ``k``.
        versus_runner_up: Paired comparisons with the runner-up, per reported ``k``.
        leads_at: Reported ``k`` where the winner's hit@k is the best (ties included).
        trails_at: Reported ``k`` where another candidate's hit@k is higher, with it.
    """

    winner: Ranked
    runner_up: Ranked | None
    questions: int
    intervals: tuple[tuple[int, float, float], ...]
    versus_runner_up: tuple[PairedComparison, ...]
    leads_at: tuple[int, ...]
    trails_at: tuple[tuple[int, str], ...]


def verdict(ranked: Sequence[Ranked], ks: Sequence[int]) -> Verdict:
    """The verdict for candidates already ranked by ``rank``.

    Raises:
        ValueError: no candidates, or no answerable question.
    """
    if not ranked:
        raise ValueError("no candidate to judge.")
    winner = ranked[0]
    questions = winner.scores.answerable
    if questions < 1:
        raise ValueError("no answerable question: nothing to compare.")
    runner_up = ranked[1] if len(ranked) > 1 else None
    intervals = tuple(
        (k, *wilson_interval(round(winner.scores.hit_at[k] * questions), questions)) for k in ks
    )
    versus = (
        tuple(paired(winner.result, runner_up.result, k) for k in ks)
        if runner_up is not None
        else ()
    )
    leads: list[int] = []
    trails: list[tuple[int, str]] = []
    for k in ks:
        best = max(ranked, key=lambda r: r.scores.hit_at[k])
        if best.scores.hit_at[k] > winner.scores.hit_at[k]:
            trails.append((k, best.result.label))
        else:
            leads.append(k)
    return Verdict(winner, runner_up, questions, intervals, versus, tuple(leads), tuple(trails))
