"""Two candidates of two ``asesoria-eval`` runs, compared question by question.

``asesoria-eval`` compares the configurations of one run; a change of the engine itself
(another commit) needs two runs on the same documents and questions. Each run's
``results.json`` keeps every question's first relevant rank per candidate, so the
comparison is paired: at each ``k``, the questions only one of the two finds in its top
``k``, with the harness's exact sign test::

    python examples/evaluation/compare_runs.py --questions QUESTIONS.jsonl \\
        before/results.json "bm25:asesoria 256/32" after/results.json "bm25:asesoria 256/32"

A candidate is named ``RETRIEVER:LABEL`` (the retriever of its run, then its label as the
report prints it).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from langchain_asesoria_eval.metrics import sign_test
from langchain_asesoria_eval.questions import load_questions

KS = (1, 3, 5, 10)


def candidate(results: Mapping[str, Any], name: str) -> dict[str, int | None]:
    """``{question id: first relevant rank or None}`` of ``RETRIEVER:LABEL``."""
    retriever, _, label = name.partition(":")
    for run in results["runs"]:
        if run["retriever"] != retriever and run["setup"] != retriever:
            continue
        for found in run["candidates"]:
            if found["label"] == label:
                ranks: dict[str, int | None] = found["first_relevant_rank"]
                return ranks
    raise SystemExit(f"no candidate {name!r} in these results")


def _hit(rank: int | None, k: int) -> bool:
    return rank is not None and rank <= k


def _mrr(ranks: Mapping[str, int | None], questions: Sequence[str]) -> float:
    return sum(1 / ranks[q] for q in questions if ranks[q]) / len(questions)


def compare(
    first: Mapping[str, int | None], second: Mapping[str, int | None], answerable: set[str]
) -> str:
    """A Markdown table over the ``answerable`` questions: hit@k and MRR of each, and the
    paired sign test at each ``k``."""
    questions = sorted(set(first) & set(second) & answerable)
    lines = [
        "| | first | second | only first | only second | p (sign test) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for k in KS:
        hits = [(_hit(first[q], k), _hit(second[q], k)) for q in questions]
        only_first = sum(a and not b for a, b in hits)
        only_second = sum(b and not a for a, b in hits)
        lines.append(
            f"| hit@{k} | {sum(a for a, _ in hits) / len(hits):.1%} "
            f"| {sum(b for _, b in hits) / len(hits):.1%} | {only_first} | {only_second} "
            f"| {sign_test(only_first, only_second):.3f} |"
        )
    lines.append(f"| MRR | {_mrr(first, questions):.3f} | {_mrr(second, questions):.3f} | | | |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first_results", type=Path)
    parser.add_argument("first")
    parser.add_argument("second_results", type=Path)
    parser.add_argument("second")
    parser.add_argument("--questions", type=Path, required=True, help="the question file")
    args = parser.parse_args(argv)
    answerable = {q.id for q in load_questions(args.questions) if not q.no_source}
    first = candidate(json.loads(args.first_results.read_text(encoding="utf-8")), args.first)
    second = candidate(json.loads(args.second_results.read_text(encoding="utf-8")), args.second)
    print(compare(first, second, answerable))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
