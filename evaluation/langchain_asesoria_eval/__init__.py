"""Retrieval evaluation: choose chunk size and overlap by measured hit@k, not by taste.

The distribution ``langchain-asesoria-eval`` (``evaluation/`` in the repository,
``pip install . ./evaluation``), beside the library it measures; ``asesoria-eval`` is
its command. More: ``docs/design/evaluation.md``.
"""

from langchain_asesoria.errors import OutputError, UsageError
from langchain_asesoria_eval.chunkers import (
    AsesoriaChunker,
    Chunker,
    IndexedChunk,
    LangChainRecursiveChunker,
    SemchunkChunker,
)
from langchain_asesoria_eval.comparison import Verdict, rank, verdict
from langchain_asesoria_eval.corpus import (
    PAGE_SEPARATOR,
    CorpusDocument,
    document_from_pages,
    find_documents,
    load_corpus,
)
from langchain_asesoria_eval.errors import QuestionFileError, SetupUnavailableError
from langchain_asesoria_eval.metrics import (
    DEFAULT_MIN_OVERLAP,
    hit_at_k,
    is_relevant,
    judge,
    near_duplicate_share,
    recall_at_k,
    reciprocal_rank,
    separation_auc,
    sign_test,
    wilson_interval,
)
from langchain_asesoria_eval.questions import (
    QUESTION_KINDS,
    Question,
    QuestionKind,
    RelevantPassage,
    load_questions,
    parse_questions,
    validate_against_corpus,
)
from langchain_asesoria_eval.report import render_markdown, write_plot, write_report
from langchain_asesoria_eval.retrievers import (
    BM25Retriever,
    DenseRetriever,
    Retriever,
    ScoredPosition,
    SearchIndex,
    SentenceTransformerEmbeddings,
)
from langchain_asesoria_eval.runner import (
    DEFAULT_KS,
    Candidate,
    CandidateResult,
    Evaluation,
    RetrievalSetup,
    Run,
    Scores,
    check_runs,
    evaluate,
    summarize,
)

__all__ = [
    "DEFAULT_KS",
    "DEFAULT_MIN_OVERLAP",
    "PAGE_SEPARATOR",
    "QUESTION_KINDS",
    "AsesoriaChunker",
    "BM25Retriever",
    "Candidate",
    "CandidateResult",
    "Chunker",
    "CorpusDocument",
    "DenseRetriever",
    "Evaluation",
    "IndexedChunk",
    "LangChainRecursiveChunker",
    "OutputError",
    "Question",
    "QuestionFileError",
    "QuestionKind",
    "RelevantPassage",
    "RetrievalSetup",
    "Retriever",
    "Run",
    "ScoredPosition",
    "Scores",
    "SearchIndex",
    "SemchunkChunker",
    "SentenceTransformerEmbeddings",
    "SetupUnavailableError",
    "UsageError",
    "Verdict",
    "check_runs",
    "document_from_pages",
    "evaluate",
    "find_documents",
    "hit_at_k",
    "is_relevant",
    "judge",
    "load_corpus",
    "load_questions",
    "near_duplicate_share",
    "parse_questions",
    "rank",
    "recall_at_k",
    "reciprocal_rank",
    "render_markdown",
    "separation_auc",
    "sign_test",
    "summarize",
    "validate_against_corpus",
    "verdict",
    "wilson_interval",
    "write_plot",
    "write_report",
]
