"""The runner with a fake retriever and fake tokenizers: what is indexed, judged, refused."""

from __future__ import annotations

import pytest

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
from langchain_asesoria.errors import (
    ConfigurationError,
    ModelLimitError,
)
from langchain_asesoria.testing import WordTokenization
from langchain_asesoria.tokenization import HuggingFaceTokenization
from langchain_asesoria_eval import (
    AsesoriaChunker,
    Candidate,
    CorpusDocument,
    LangChainRecursiveChunker,
    RetrievalSetup,
    Run,
    check_runs,
    document_from_pages,
    evaluate,
    parse_questions,
    summarize,
)
from langchain_asesoria_eval.chunkers import locate_pieces
from langchain_asesoria_eval.errors import QuestionFileError
from langchain_asesoria_eval.runner import CandidateResult, QuestionOutcome, ResultRef
from langchain_asesoria_eval.testing import KeywordRetriever

LEY = (
    "# Ley de prueba\n\n"
    "## Artículo 1. Vivienda\n\n"
    "La vivienda habitual está exenta hasta 300.000 euros.\n\n"
    "## Artículo 2. Devengo\n\n"
    "El impuesto se devenga el 31 de diciembre de cada año.\n"
)
GUIA_PAGES = (
    LoadedPage("Las pérdidas patrimoniales se compensan con ganancias del mismo año.", 1),
    LoadedPage("El saldo negativo se compensa durante cuatro años siguientes.", 2),
)


def corpus() -> tuple[CorpusDocument, ...]:
    return (
        document_from_pages("ley", [LoadedPage(LEY, 1)], markdown=True),
        document_from_pages("guia", GUIA_PAGES),
    )


def span(doc: CorpusDocument, quote: str) -> dict[str, object]:
    start = doc.text.index(quote)
    return {"doc_id": doc.doc_id, "start": start, "end": start + len(quote), "passage": quote}


def questions_jsonl() -> list[str]:
    import json

    ley, guia = corpus()
    rows = [
        {
            "id": "vivienda",
            "question": "vivienda habitual exenta",
            "relevant": [span(ley, "La vivienda habitual está exenta hasta 300.000 euros.")],
        },
        {
            "id": "devengo",
            "question": "diciembre devenga",
            "relevant": [span(ley, "El impuesto se devenga el 31 de diciembre de cada año.")],
        },
        {
            "id": "saldo",
            "question": "saldo negativo cuatro",
            "relevant": [
                span(guia, "El saldo negativo se compensa durante cuatro años siguientes.")
            ],
        },
        {"id": "iva", "question": "tipo IVA reducido", "no_source": True, "relevant": []},
    ]
    return [json.dumps(row, ensure_ascii=False) for row in rows]


def setup(retriever: KeywordRetriever, limit: int = 512) -> RetrievalSetup:
    return RetrievalSetup("fake", retriever, WordTokenization(limit), "fake-words", "rev")


CONFIG = ChunkingConfig(max_tokens=64, overlap_tokens=8)


def test_engine_chunks_are_indexed_as_embedding_text_with_exact_offsets() -> None:
    ley, guia = corpus()
    tokenization = WordTokenization(512)
    chunks = AsesoriaChunker().chunk(ley, CONFIG, tokenization)
    expected = chunk_document(
        ley.pages,
        ChunkMetadata(doc_id="ley"),
        config=ChunkingConfig(64, 8),
        tokenization=tokenization,
        detect_markdown_headings=True,
    )
    assert [c.indexed_text for c in chunks] == [c.embedding_text for c in expected]
    assert all(ley.text[c.start : c.end] == c.text for c in chunks)
    # Markdown headings become the section context of the indexed text.
    assert any("Artículo 2. Devengo" in c.indexed_text for c in chunks)
    pdf_like = AsesoriaChunker().chunk(guia, CONFIG, tokenization)
    assert all(guia.text[c.start : c.end] == c.text for c in pdf_like)
    # The section path costs tokens (but in a section's first chunk, which opens with the
    # titles: only those its text does not show); without headings or context, none.
    assert all(c.context_tokens == c.token_count - tokenization.count(c.text) for c in chunks)
    assert all(c.context_tokens > 0 for c in chunks if not c.text.startswith("#"))
    assert all(c.context_tokens == 0 for c in pdf_like)
    bare = AsesoriaChunker().chunk(ley, ChunkingConfig(64, 8, section_context="none"), tokenization)
    assert all(c.context_tokens == 0 for c in bare)


def test_evaluate_scores_each_question_with_the_fake_retriever() -> None:
    retriever = KeywordRetriever()
    questions = parse_questions(questions_jsonl())
    run = Run(setup(retriever), (Candidate(AsesoriaChunker(), CONFIG),))
    evaluation = evaluate(corpus(), questions, [run], ks=(1, 3))
    assert evaluation.depth == 3
    (result,) = evaluation.runs[0].candidates
    assert result.label == "asesoria 64/8"
    assert retriever.indexed, "the candidate was indexed"
    assert result.chunks == len(retriever.indexed[0])
    scores = summarize(result, evaluation.depth)
    assert scores.answerable == 3
    assert scores.no_source == 1
    assert scores.hit_at[1] == 1.0
    assert scores.mrr == 1.0
    assert scores.recall_at[3] == 1.0
    # "tipo IVA reducido" shares no word with any chunk: every answerable question beats it.
    assert scores.best_score_no_source == 0.0
    assert scores.separation == 1.0


def test_a_budget_above_the_model_limit_is_refused_before_any_indexing() -> None:
    retriever = KeywordRetriever()
    candidates = tuple(
        Candidate(AsesoriaChunker(), ChunkingConfig(size, overlap))
        for size, overlap in ((128, 16), (384, 48), (480, 64))
    )
    run = Run(setup(retriever, limit=256), candidates)
    with pytest.raises(ModelLimitError, match=r"384/48, 480/64 exceed the real input limit 256"):
        evaluate(corpus(), parse_questions(questions_jsonl()), [run])
    assert retriever.indexed == []


def test_the_candidate_sizes_are_refused_with_the_real_minilm_limit(
    minilm: HuggingFaceTokenization,
) -> None:
    from langchain_asesoria.models import SIZE_CANDIDATES

    run = Run(
        RetrievalSetup("minilm", KeywordRetriever(), minilm, "all-MiniLM-L6-v2", "rev"),
        tuple(Candidate(AsesoriaChunker(), config) for config in SIZE_CANDIDATES),
    )
    with pytest.raises(ModelLimitError) as raised:
        check_runs([run])
    message = str(raised.value)
    assert "384/48, 480/64" in message
    assert "256/32" not in message.split("exceed")[0]
    assert "truncate" in message


def test_annotations_are_checked_before_any_indexing() -> None:
    retriever = KeywordRetriever()
    bad = parse_questions(
        [
            '{"id": "q", "question": "?", "relevant": '
            '[{"doc_id": "ley", "start": 0, "end": 5, "passage": "nope"}]}'
        ]
    )
    with pytest.raises(QuestionFileError, match="not the stored passage"):
        evaluate(corpus(), bad, [Run(setup(retriever), (Candidate(AsesoriaChunker(), CONFIG),))])
    assert retriever.indexed == []


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"ks": ()}, "k values"), ({"ks": (0, 3)}, "k values"), ({"min_overlap": 0.0}, "min_overlap")],
)
def test_bad_evaluation_parameters(kwargs: dict[str, object], message: str) -> None:
    run = Run(setup(KeywordRetriever()), (Candidate(AsesoriaChunker(), CONFIG),))
    with pytest.raises(ConfigurationError, match=message):
        evaluate(corpus(), parse_questions(questions_jsonl()), [run], **kwargs)  # type: ignore[arg-type]


def test_a_run_needs_candidates() -> None:
    with pytest.raises(ConfigurationError, match="no configuration"):
        check_runs([Run(setup(KeywordRetriever()), ())])


def test_peer_offsets_are_exact_and_over_budget_chunks_are_counted() -> None:
    ley, guia = corpus()
    tokenization = WordTokenization(512)
    config = ChunkingConfig(max_tokens=12, overlap_tokens=4)
    for document in (ley, guia):
        chunks = LangChainRecursiveChunker().chunk(document, config, tokenization)
        assert chunks
        assert all(document.text[c.start : c.end] == c.text for c in chunks)
        assert all(c.token_count == tokenization.count(c.indexed_text) for c in chunks)
        assert chunks[0].overlap_tokens == 0


def test_semchunk_peer_offsets_are_exact() -> None:
    pytest.importorskip("semchunk")
    from langchain_asesoria_eval import SemchunkChunker

    _, guia = corpus()
    chunks = SemchunkChunker().chunk(guia, ChunkingConfig(12, 4), WordTokenization(512))
    assert chunks
    assert all(guia.text[c.start : c.end] == c.text for c in chunks)


@pytest.mark.parametrize(
    ("text", "pieces", "hints", "expected"),
    [
        ("ab ab ab", ["ab", "ab", "ab"], None, [(0, 2), (3, 5), (6, 8)]),
        ("ab ab ab", [" ab ", "ab"], None, [(0, 2), (3, 5)]),  # outer whitespace trimmed
        ("x ab y ab", ["ab", "ab"], [5, None], [(2, 4), (7, 9)]),  # a wrong hint is ignored
        ("uno dos tres", ["uno dos", "dos tres"], [0, 4], [(0, 7), (4, 12)]),
        ("uno dos", ["uno", "   "], None, [(0, 3)]),  # blank pieces are dropped
    ],
)
def test_locate_pieces(
    text: str, pieces: list[str], hints: list[int | None] | None, expected: list[tuple[int, int]]
) -> None:
    assert locate_pieces(text, pieces, hints) == expected


def test_locate_pieces_refuses_rewritten_text() -> None:
    with pytest.raises(ConfigurationError, match="not a substring"):
        locate_pieces("uno dos", ["uno  dos"])


def outcome(
    qid: str,
    judgements: list[frozenset[int]],
    spans: list[tuple[int, int]],
    *,
    relevant: int = 1,
    no_source: bool = False,
    score: float = 1.0,
) -> QuestionOutcome:
    return QuestionOutcome(
        qid,
        no_source,
        relevant,
        tuple(judgements),
        tuple(ResultRef("d", start, end, score - i) for i, (start, end) in enumerate(spans)),
    )


def test_summarize_by_hand() -> None:
    a, b, n = frozenset({0}), frozenset({1}), frozenset[int]()
    result = CandidateResult(
        label="x 1/0",
        chunker="x",
        max_tokens=1,
        overlap_target=0,
        chunks=10,
        tokens_stored=100,
        mean_overlap=0.0,
        over_budget=0,
        outcomes=(
            outcome("q1", [a, n], [(0, 10), (5, 15)], score=3.0),  # rank 1; 2nd duplicates 1st
            outcome("q2", [n, b], [(0, 10), (20, 30)], relevant=2, score=2.0),  # rank 2, 1 of 2
            outcome("q3", [n, n], [(0, 10), (20, 30)], score=0.5),  # missed
            outcome("n1", [n, n], [(0, 10), (20, 30)], relevant=0, no_source=True, score=1.0),
        ),
    )
    scores = summarize(result, depth=2)
    assert scores.answerable == 3
    assert scores.no_source == 1
    assert scores.hit_at[1] == pytest.approx(1 / 3)
    assert scores.hit_at[2] == pytest.approx(2 / 3)
    assert scores.recall_at[2] == pytest.approx((1 + 0.5 + 0) / 3)
    assert scores.mrr == pytest.approx((1 + 0.5 + 0) / 3)
    assert scores.near_duplicates_at[2] == pytest.approx((0.5 + 0 + 0 + 0) / 4)
    assert scores.best_score_answerable == pytest.approx((3.0 + 2.0 + 0.5) / 3)
    assert scores.best_score_no_source == 1.0
    assert scores.separation == pytest.approx(2 / 3)  # 3.0 and 2.0 beat 1.0; 0.5 does not
