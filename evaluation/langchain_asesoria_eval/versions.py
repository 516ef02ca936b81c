"""The versions of the libraries an evaluation's numbers depend on.

The same command gives the same report only with the same libraries: PDF text comes
from ``pypdf``, every count from ``tokenizers``, BM25 scores from ``bm25s``, dense scores
from ``sentence-transformers`` and ``torch``, and each peer's chunks from its own
release. The report and ``results.json`` name the versions that produced them, so a
re-run that differs can be told apart from a change of the code.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import metadata
from typing import Final

from langchain_asesoria_eval.runner import Evaluation

__all__ = ["DISTRIBUTIONS", "installed_versions", "versions_for"]

#: Distributions behind every evaluation (PDF text, exact counts).
_ALWAYS: Final = ("pypdf", "tokenizers")

#: The distributions behind each chunker and retriever, by the name reports give it.
DISTRIBUTIONS: Final[Mapping[str, tuple[str, ...]]] = {
    "asesoria": (),
    "langchain-recursive": ("langchain-text-splitters",),
    "semchunk": ("semchunk",),
    "semantic-text-splitter": ("semantic-text-splitter",),
    "chonkie": ("chonkie",),
    "bm25": ("bm25s",),
    "dense": ("sentence-transformers", "torch"),
}


def installed_versions(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """``(distribution, version)`` for each of ``names`` that is installed, in order."""
    found = []
    for name in names:
        try:
            found.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            continue
    return tuple(found)


def versions_for(evaluation: Evaluation) -> tuple[tuple[str, str], ...]:
    """The installed versions of what ``evaluation`` used: always PDF text and counts,
    then each retriever and chunker that ran, each distribution once, in that order."""
    used = [
        name
        for run in evaluation.runs
        for name in (run.retriever, *(c.chunker for c in run.candidates))
    ]
    names = dict.fromkeys(
        [*_ALWAYS, *(dist for name in used for dist in DISTRIBUTIONS.get(name, ()))]
    )
    return installed_versions(tuple(names))
