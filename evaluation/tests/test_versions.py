"""The versions a report names: what its runs used, installed, each once, in order."""

from __future__ import annotations

from importlib import metadata

import pytest

from langchain_asesoria_eval.chunkers import PEER_CHUNKERS
from langchain_asesoria_eval.runner import CandidateResult, Evaluation, RunResult
from langchain_asesoria_eval.versions import (
    DISTRIBUTIONS,
    installed_versions,
    versions_for,
)


def evaluation(retriever: str, chunkers: tuple[str, ...]) -> Evaluation:
    """One run under ``retriever`` with one candidate per chunker (no questions)."""
    candidates = tuple(
        CandidateResult(f"{name} 128/16", name, 128, 16, 1, 10, 0.0, 0, ()) for name in chunkers
    )
    run = RunResult("setup", retriever, "model", "revision", 256, candidates)
    return Evaluation((), (), (1,), 1, 0.5, (run,))


def test_installed_versions_skip_what_is_not_installed() -> None:
    assert installed_versions(("tokenizers", "no-such-distribution-here")) == (
        ("tokenizers", metadata.version("tokenizers")),
    )


@pytest.mark.parametrize(
    ("retriever", "chunkers", "expected"),
    [
        ("keywords", ("asesoria",), ("pypdf", "tokenizers")),
        ("bm25", ("asesoria", "semchunk"), ("pypdf", "tokenizers", "bm25s", "semchunk")),
        (
            "dense",
            ("langchain-recursive", "asesoria", "langchain-recursive"),
            ("pypdf", "tokenizers", "sentence-transformers", "torch", "langchain-text-splitters"),
        ),
    ],
)
def test_versions_for_names_what_the_runs_used(
    retriever: str, chunkers: tuple[str, ...], expected: tuple[str, ...]
) -> None:
    assert versions_for(evaluation(retriever, chunkers)) == installed_versions(expected)


def test_every_peer_and_retriever_names_its_distributions() -> None:
    assert {chunker().name for chunker in PEER_CHUNKERS.values()} <= set(DISTRIBUTIONS)
    assert {"asesoria", "bm25", "dense"} <= set(DISTRIBUTIONS)
