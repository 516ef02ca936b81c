"""Index each configuration, retrieve the top k for every question, and score it.

A ``Run`` pairs one retrieval setup (retriever + the tokenizer that counts its model's
input, with the model's real limit) with the configurations to compare. ``evaluate``
checks every run's budgets and every annotation first, so nothing is computed for a
plan that cannot be run as asked: a configuration above the model's limit is refused
(``ModelLimitError``), never truncated.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from langchain_asesoria.engine import Tokenization
from langchain_asesoria.errors import ConfigurationError, ModelLimitError
from langchain_asesoria.models import DEFAULT_SECTION_CONTEXT, ChunkingConfig, SectionContext
from langchain_asesoria_eval.chunkers import Chunker, IndexedChunk
from langchain_asesoria_eval.corpus import CorpusDocument, questions_in_text
from langchain_asesoria_eval.metrics import (
    DEFAULT_MIN_OVERLAP,
    hit_at_k,
    judge,
    mean,
    near_duplicate_share,
    recall_at_k,
    reciprocal_rank,
    separation_auc,
)
from langchain_asesoria_eval.questions import Question, validate_against_corpus
from langchain_asesoria_eval.retrievers import Retriever

__all__ = [
    "DEFAULT_KS",
    "Candidate",
    "CandidateResult",
    "Evaluation",
    "QuestionOutcome",
    "RetrievalSetup",
    "Run",
    "RunResult",
    "Scores",
    "budget_problem",
    "check_runs",
    "evaluate",
    "refuse",
    "summarize",
]

DEFAULT_KS: tuple[int, ...] = (1, 3, 5, 10)

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One chunker with one configuration."""

    chunker: Chunker
    config: ChunkingConfig

    @property
    def label(self) -> str:
        """For example ``"asesoria 256/32"``, or ``"asesoria 128/16:label"``."""
        config = self.config
        context = (
            ""
            if config.section_context == DEFAULT_SECTION_CONTEXT
            else f":{config.section_context}"
        )
        return f"{self.chunker.name} {config.max_tokens}/{config.overlap_tokens}{context}"


@dataclass(frozen=True, slots=True)
class RetrievalSetup:
    """A retriever and the tokenizer that counts its model's input.

    Attributes:
        name: Short name for tables (``"bm25"``, ``"minilm"``).
        retriever: Builds the search indexes.
        tokenization: Counts chunks and prepares queries; its ``max_input_tokens`` is
            the limit no configuration may exceed.
        model: The model or tokenizer name, as reported.
        revision: Content hashes identifying the tokenizer (and the model weights).
        description: One line for the report (what the model is and is not).
    """

    name: str
    retriever: Retriever
    tokenization: Tokenization
    model: str
    revision: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class Run:
    """A retrieval setup with the candidates to compare under it."""

    setup: RetrievalSetup
    candidates: tuple[Candidate, ...]


@dataclass(frozen=True, slots=True)
class ResultRef:
    """Where a retrieved chunk lies, and its score."""

    doc_id: str
    start: int
    end: int
    score: float


@dataclass(frozen=True, slots=True)
class QuestionOutcome:
    """The ranked results of one question under one candidate.

    Attributes:
        question_id: The question's id.
        no_source: Whether the corpus does not answer it.
        relevant_count: Its annotated passages (0 for no-source questions).
        judgements: For each result, the passages it is relevant to.
        results: The results, best first.
    """

    question_id: str
    no_source: bool
    relevant_count: int
    judgements: tuple[frozenset[int], ...]
    results: tuple[ResultRef, ...]

    @property
    def best_score(self) -> float:
        """The top result's score (0.0 when nothing was retrieved)."""
        return self.results[0].score if self.results else 0.0


@dataclass(frozen=True, slots=True)
class CandidateResult:
    """What one candidate stored and retrieved under one setup.

    Attributes:
        label: The candidate's label, e.g. ``"asesoria 256/32"``.
        chunker: The chunker's name.
        max_tokens: The configured budget.
        overlap_target: The configured overlap target.
        chunks: Chunks indexed over the whole corpus.
        tokens_stored: Sum of the exact token counts of what was indexed.
        mean_overlap: Mean effective overlap (content tokens shared with the previous
            chunk of the same document), over every chunk but each document's first.
        over_budget: Chunks whose indexed text exceeds ``max_tokens`` (peers only: the
            model would truncate them).
        mean_context: Mean tokens the section context adds to a chunk.
        section_context: The configuration's section context mode.
        outcomes: One per question, in file order.
    """

    label: str
    chunker: str
    max_tokens: int
    overlap_target: int
    chunks: int
    tokens_stored: int
    mean_overlap: float
    over_budget: int
    outcomes: tuple[QuestionOutcome, ...]
    mean_context: float = 0.0
    section_context: SectionContext = DEFAULT_SECTION_CONTEXT


@dataclass(frozen=True, slots=True)
class Scores:
    """A candidate's retrieval quality, from its outcomes.

    Attributes:
        answerable: Questions with annotated passages (the metrics' denominator).
        no_source: Questions the corpus does not answer (reported apart).
        hit_at: hit@k averaged over answerable questions, for every ``k`` from 1 to the
            retrieval depth.
        recall_at: recall@k likewise.
        near_duplicates_at: Near-duplicate share@k over all questions.
        mrr: Mean reciprocal rank over answerable questions (cut at the depth).
        best_score_answerable: Mean top score of answerable questions.
        best_score_no_source: Mean top score of no-source questions (0 if none).
        separation: Probability that an answerable question's top score beats a
            no-source one's (``None`` without both kinds).
    """

    answerable: int
    no_source: int
    hit_at: Mapping[int, float]
    recall_at: Mapping[int, float]
    near_duplicates_at: Mapping[int, float]
    mrr: float
    best_score_answerable: float
    best_score_no_source: float
    separation: float | None


@dataclass(frozen=True, slots=True)
class RunResult:
    """Every candidate's result under one setup."""

    setup: str
    retriever: str
    model: str
    revision: str
    max_input_tokens: int
    candidates: tuple[CandidateResult, ...]
    description: str = ""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A whole evaluation: what was compared, on what, and the results.

    Attributes:
        documents: ``(doc_id, characters, pages)`` of each corpus document.
        questions: The questions, in file order.
        ks: The ``k`` values reported in tables.
        depth: Results retrieved per question (``max(ks)``).
        min_overlap: The relevance criterion's overlap fraction.
        runs: One per setup that ran.
        skipped: ``(setup, reason)`` for setups that could not run (no network).
    """

    documents: tuple[tuple[str, int, int], ...]
    questions: tuple[Question, ...]
    ks: tuple[int, ...]
    depth: int
    min_overlap: float
    runs: tuple[RunResult, ...]
    skipped: tuple[tuple[str, str], ...] = field(default=())


def budget_problem(
    setup: str, model: str, limit: int, configs: Sequence[ChunkingConfig]
) -> str | None:
    """Why some of ``configs`` cannot run under a model whose real limit is ``limit``.

    Returns:
        ``None`` when every ``max_tokens <= limit``, else a message naming each
        offending configuration and what to use instead.
    """
    over = sorted(
        {f"{c.max_tokens}/{c.overlap_tokens}" for c in configs if c.max_tokens > limit},
        key=lambda label: int(label.split("/")[0]),
    )
    if not over:
        return None
    return (
        f"{setup}: {', '.join(over)} exceed the real input limit {limit} of {model!r}; the "
        f"model would truncate those chunks. Use max_tokens <= {limit} with this model "
        f"(for example {limit // 2}/{limit // 16}, {limit * 3 // 4}/{limit * 3 // 32}, "
        f"{limit}/{limit // 8})."
    )


def refuse(problems: Sequence[str]) -> None:
    """Raises one ``ModelLimitError`` naming every problem (nothing when there is none)."""
    if problems:
        raise ModelLimitError("refused configurations:\n  " + "\n  ".join(problems))


def check_runs(runs: Sequence[Run]) -> None:
    """Refuses configurations above their model's real input limit, before any work.

    Raises:
        ModelLimitError: some ``max_tokens`` exceeds its setup's
            ``tokenization.max_input_tokens``; every offending configuration is named.
        ConfigurationError: a run without candidates.
    """
    problems: list[str] = []
    for run in runs:
        if not run.candidates:
            raise ConfigurationError(
                f"run {run.setup.name!r} has no configuration to compare.",
                expected="at least one configuration",
            )
        problem = budget_problem(
            run.setup.name,
            run.setup.model,
            run.setup.tokenization.max_input_tokens,
            [candidate.config for candidate in run.candidates],
        )
        if problem is not None:
            problems.append(problem)
    refuse(problems)


def _check_ks(ks: Sequence[int]) -> tuple[int, ...]:
    if not ks or any(k < 1 for k in ks):
        raise ConfigurationError(
            f"k values must be positive integers, got {list(ks)!r}.", expected="positive integers"
        )
    return tuple(sorted(set(ks)))


def _chunk_corpus(
    corpus: Sequence[CorpusDocument], candidate: Candidate, tokenization: Tokenization
) -> list[IndexedChunk]:
    return [
        chunk
        for document in corpus
        for chunk in candidate.chunker.chunk(document, candidate.config, tokenization)
    ]


def _mean_overlap(chunks: Sequence[IndexedChunk]) -> float:
    followers = [
        chunk.overlap_tokens
        for previous, chunk in itertools.pairwise(chunks)
        if previous.doc_id == chunk.doc_id
    ]
    return mean(followers)


def _run_candidate(
    corpus: Sequence[CorpusDocument],
    questions: Sequence[Question],
    setup: RetrievalSetup,
    candidate: Candidate,
    depth: int,
    min_overlap: float,
) -> CandidateResult:
    chunks = _chunk_corpus(corpus, candidate, setup.tokenization)
    index = setup.retriever.index([chunk.indexed_text for chunk in chunks])
    outcomes = []
    for question in questions:
        found = index.search(question.question, depth)[:depth]
        results = [chunks[hit.position] for hit in found]
        outcomes.append(
            QuestionOutcome(
                question.id,
                question.no_source,
                len(question.relevant),
                judge(results, question.relevant, min_overlap),
                tuple(
                    ResultRef(chunk.doc_id, chunk.start, chunk.end, hit.score)
                    for chunk, hit in zip(results, found, strict=True)
                ),
            )
        )
    return CandidateResult(
        label=candidate.label,
        chunker=candidate.chunker.name,
        max_tokens=candidate.config.max_tokens,
        overlap_target=candidate.config.overlap_tokens,
        chunks=len(chunks),
        tokens_stored=sum(chunk.token_count for chunk in chunks),
        mean_overlap=_mean_overlap(chunks),
        over_budget=sum(1 for chunk in chunks if chunk.token_count > candidate.config.max_tokens),
        outcomes=tuple(outcomes),
        mean_context=mean(chunk.context_tokens for chunk in chunks),
        section_context=candidate.config.section_context,
    )


def evaluate(
    corpus: Sequence[CorpusDocument],
    questions: Sequence[Question],
    runs: Sequence[Run],
    *,
    ks: Sequence[int] = DEFAULT_KS,
    min_overlap: float = DEFAULT_MIN_OVERLAP,
    skipped: Sequence[tuple[str, str]] = (),
    progress: Progress | None = None,
) -> Evaluation:
    """Evaluates every candidate of every run on the same corpus, questions and ``k``.

    Args:
        corpus: The documents, indexed whole for every candidate.
        questions: Annotated questions; their spans are checked against ``corpus``.
        runs: The setups and the candidates to compare under each.
        ks: The ``k`` values of the tables; ``max(ks)`` results are retrieved.
        min_overlap: The relevance criterion (see ``metrics``).
        skipped: Setups that could not run, with the reason, to be reported.
        progress: Called with the work ahead, then one line as each candidate starts
            and one as it ends.

    Raises:
        ModelLimitError: a configuration above its model's limit (nothing is run).
        QuestionFileError: an annotation that does not match the corpus.
        ConfigurationError: bad ``ks`` or ``min_overlap``, or a run without candidates.
    """
    kept_ks = _check_ks(ks)
    if not 0 < min_overlap <= 1:
        raise ConfigurationError(
            f"min_overlap must be in (0, 1], got {min_overlap}.", expected="(0, 1]"
        )
    check_runs(runs)
    validate_against_corpus(
        questions, {document.doc_id: document.extracted_text for document in corpus}
    )
    questions = questions_in_text(questions, corpus)
    depth = kept_ks[-1]
    report = progress or _silent
    total = sum(len(run.candidates) for run in runs)
    names = ", ".join(run.setup.name for run in runs)
    report(
        f"{total} configuration{'' if total == 1 else 's'} to evaluate ({names}) on "
        f"{len(corpus)} documents and {len(questions)} questions; each indexes the whole "
        "corpus (a dense run embeds every chunk on the CPU: minutes per configuration)"
    )
    results = []
    done = 0
    for run in runs:
        candidates = []
        for candidate in run.candidates:
            done += 1
            report(f"[{done}/{total}] [{run.setup.name}] {candidate.label}: chunking, indexing...")
            started = time.perf_counter()
            result = _run_candidate(corpus, questions, run.setup, candidate, depth, min_overlap)
            report(
                f"[{done}/{total}] [{run.setup.name}] {result.label}: {result.chunks} chunks, "
                f"{result.tokens_stored} tokens, {len(questions)} questions "
                f"({time.perf_counter() - started:.1f} s)"
            )
            candidates.append(result)
        results.append(
            RunResult(
                setup=run.setup.name,
                retriever=run.setup.retriever.name,
                model=run.setup.model,
                revision=run.setup.revision,
                max_input_tokens=run.setup.tokenization.max_input_tokens,
                candidates=tuple(candidates),
                description=run.setup.description,
            )
        )
    return Evaluation(
        documents=tuple(
            (document.doc_id, len(document.text), len(document.pages)) for document in corpus
        ),
        questions=tuple(questions),
        ks=kept_ks,
        depth=depth,
        min_overlap=min_overlap,
        runs=tuple(results),
        skipped=tuple(skipped),
    )


def _silent(line: str) -> None:
    """The progress of a caller that asked for none."""


def summarize(result: CandidateResult, depth: int) -> Scores:
    """The metrics of one candidate for every ``k`` from 1 to ``depth``."""
    answerable = [o for o in result.outcomes if not o.no_source]
    no_source = [o for o in result.outcomes if o.no_source]
    ks = range(1, depth + 1)
    hit = {k: mean(hit_at_k(o.judgements, k) for o in answerable) for k in ks}
    recall = {
        k: mean(recall_at_k(o.judgements, k, o.relevant_count) for o in answerable) for k in ks
    }
    duplicates = {k: mean(near_duplicate_share(o.results, k) for o in result.outcomes) for k in ks}
    positive = [o.best_score for o in answerable]
    negative = [o.best_score for o in no_source]
    return Scores(
        answerable=len(answerable),
        no_source=len(no_source),
        hit_at=MappingProxyType(hit),
        recall_at=MappingProxyType(recall),
        near_duplicates_at=MappingProxyType(duplicates),
        mrr=mean(reciprocal_rank(o.judgements) for o in answerable),
        best_score_answerable=mean(positive),
        best_score_no_source=mean(negative),
        separation=separation_auc(positive, negative) if positive and negative else None,
    )
