"""Retrievers: BM25 analysis and ranking, the dense path over LangChain, the query prefix."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import langchain_asesoria_eval
from langchain_asesoria import ChunkingConfig
from langchain_asesoria.errors import MissingDependencyError
from langchain_asesoria.langchain.embeddings import AsesoriaEmbeddings
from langchain_asesoria.models import LoadedPage
from langchain_asesoria.testing import ByteTokenization, RecordingEmbeddings
from langchain_asesoria_eval import (
    AsesoriaChunker,
    BM25Retriever,
    Candidate,
    DenseRetriever,
    RetrievalSetup,
    Run,
    document_from_pages,
    evaluate,
    parse_questions,
    summarize,
)
from langchain_asesoria_eval.retrievers import SentenceTransformerEmbeddings, analyze

TEXTS = [
    "La vivienda habitual está exenta hasta un importe máximo de 300.000 euros.",
    "El impuesto se devenga el 31 de diciembre de cada año.",
    "Las pérdidas patrimoniales se compensan durante los cuatro años siguientes.",
    "Los seguros de vida se computan por su valor de rescate.",
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Los bienes inmuebles están exentos", ["bien", "inmuebl", "estan", "exento"]),
        ("el inmueble", ["inmuebl"]),
        ("VALORES y valor", ["valor", "valor"]),
        ("¿Cuándo se devenga el Impuesto?", ["devenga", "impuesto"]),
        ("cónyuges, cónyuge", ["conyug", "conyug"]),
        ("300.000 euros", ["300", "000", "euro"]),
        ("de la que por", []),
    ],
)
def test_analyze(text: str, expected: list[str]) -> None:
    assert analyze(text) == expected


def test_bm25_ranks_the_matching_text_first() -> None:
    pytest.importorskip("bm25s")
    index = BM25Retriever().index(TEXTS)
    cases = {
        "¿Está exenta la vivienda habitual?": 0,
        "¿Cuándo se devenga el impuesto?": 1,
        "compensación de pérdidas patrimoniales en años siguientes": 2,
        "valor de rescate de un seguro de vida": 3,
    }
    for query, expected in cases.items():
        hits = index.search(query, 2)
        assert len(hits) == 2
        assert hits[0].position == expected, query
        assert hits[0].score > hits[1].score


def test_bm25_depth_and_unknown_words() -> None:
    pytest.importorskip("bm25s")
    index = BM25Retriever().index(TEXTS)
    assert len(index.search("vivienda", 10)) == len(TEXTS)  # k above the corpus size
    assert all(hit.score == 0.0 for hit in index.search("zzzz de la", 3))
    assert BM25Retriever().index([]).search("vivienda", 3) == []


def test_bm25_end_to_end_on_a_tiny_corpus() -> None:
    pytest.importorskip("bm25s")
    text = "\n\n".join(TEXTS)
    document = document_from_pages("guia", [LoadedPage(text, 1)])
    quote = TEXTS[2]
    start = text.index(quote)
    questions = parse_questions(
        [
            '{"id": "q", "question": "¿Durante cuántos años compenso pérdidas patrimoniales?", '
            f'"relevant": [{{"doc_id": "guia", "start": {start}, "end": {start + len(quote)}}}]}}',
            '{"id": "n", "question": "tipo general del IVA", "no_source": true}',
        ]
    )
    tokenization = ByteTokenization(512)
    run = Run(
        RetrievalSetup("bm25", BM25Retriever(), tokenization, "bytes", "rev"),
        (Candidate(AsesoriaChunker(), ChunkingConfig(max_tokens=90, overlap_tokens=10)),),
    )
    evaluation = evaluate([document], questions, [run], ks=(1, 2))
    (result,) = evaluation.runs[0].candidates
    assert result.chunks >= 4
    scores = summarize(result, evaluation.depth)
    assert scores.hit_at[1] == 1.0
    assert scores.separation == 1.0


class RecordingSetup:
    def __init__(self) -> None:
        self.base = RecordingEmbeddings()
        self.tokenization = ByteTokenization(
            512, document_prefix="passage: ", query_prefix="query: "
        )
        self.embeddings = AsesoriaEmbeddings(self.base, self.tokenization)


def test_documents_are_embedded_unchanged_and_queries_prefixed_once() -> None:
    recording = RecordingSetup()
    text = "\n\n".join(TEXTS)
    document = document_from_pages("guia", [LoadedPage(text, 1)])
    chunks = AsesoriaChunker().chunk(
        document, ChunkingConfig(max_tokens=120, overlap_tokens=0), recording.tokenization
    )
    index = DenseRetriever(recording.embeddings).index([c.indexed_text for c in chunks])
    assert recording.base.documents == [c.indexed_text for c in chunks]
    assert all(
        d.startswith("passage: ") and not d.startswith("passage: passage: ")
        for d in recording.base.documents
    )
    hits = index.search("vivienda habitual exenta", 2)
    assert recording.base.queries == ["query: vivienda habitual exenta"]
    assert "vivienda" in chunks[hits[0].position].text
    index.search("query: seguros de vida", 1)
    assert recording.base.queries[-1] == "query: seguros de vida"  # never "query: query: "


def test_dense_retriever_positions_and_depth() -> None:
    index = DenseRetriever(RecordingEmbeddings()).index(TEXTS)
    hits = index.search("valor de rescate de los seguros de vida", 10)
    assert len(hits) == len(TEXTS)
    assert hits[0].position == 3
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert DenseRetriever(RecordingEmbeddings()).index([]).search("x", 3) == []


def test_sentence_transformers_missing_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "sentence_transformers" else real(name, *a),
    )
    with pytest.raises(MissingDependencyError, match=r"\./evaluation\[dense\]"):
        SentenceTransformerEmbeddings("any-model")


def test_importing_the_evaluation_imports_no_heavy_dependency() -> None:
    code = (
        "import sys, langchain_asesoria_eval, langchain_asesoria_eval.cli\n"
        "heavy = ['bm25s', 'matplotlib', 'semchunk', 'sentence_transformers', 'torch',\n"
        "         'transformers']\n"
        "print([m for m in heavy if m in sys.modules])"
    )
    # where it is importable only through pytest's pythonpath (not installed: CI's
    # lowest-versions stage), the child process gets that path too
    package_root = str(Path(langchain_asesoria_eval.__file__).resolve().parent.parent)
    path = os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))
    output = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": path},
    ).stdout
    assert output.strip() == "[]"


def test_dense_smoke_with_the_offline_minilm(minilm_folder: object) -> None:
    pytest.importorskip("sentence_transformers")
    from pathlib import Path

    from langchain_asesoria import load_tokenization

    folder = Path(str(minilm_folder))
    tokenization = load_tokenization(model=str(folder))
    embeddings = AsesoriaEmbeddings(SentenceTransformerEmbeddings(str(folder)), tokenization)
    index = DenseRetriever(embeddings).index(TEXTS)
    hits = index.search("life insurance surrender value: seguros de vida", 1)
    assert hits[0].position == 3
