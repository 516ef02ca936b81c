"""The shipped question set: its spans re-validated against the example documents."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from langchain_asesoria import join_pages
from langchain_asesoria_eval import load_corpus, load_questions, validate_against_corpus
from langchain_asesoria_eval.corpus import questions_in_text

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = ROOT / "examples" / "evaluation" / "questions.jsonl"
DOCUMENTS = (
    ROOT / "examples" / "data" / "BOE-A-1991-14392.md",
    ROOT / "examples" / "data" / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf",
)


@pytest.fixture(scope="module")
def corpus():  # type: ignore[no-untyped-def]
    pytest.importorskip("pypdf")
    pytest.importorskip("cryptography")
    return load_corpus(DOCUMENTS)


def test_the_question_set_has_enough_answerable_and_no_source_questions() -> None:
    questions = load_questions(QUESTIONS)
    answerable = [q for q in questions if not q.no_source]
    assert len(answerable) >= 40
    assert 3 <= sum(q.no_source for q in questions) <= 10
    docs = Counter(p.doc_id for q in answerable for p in q.relevant)
    assert set(docs) == {path.stem for path in DOCUMENTS}
    assert all(p.passage is not None and p.has_span for q in answerable for p in q.relevant)


def test_every_span_holds_its_stored_passage(corpus) -> None:  # type: ignore[no-untyped-def]
    questions = load_questions(QUESTIONS)
    texts = {document.doc_id: document.extracted_text for document in corpus}
    validate_against_corpus(questions, texts)  # raises on any mismatch
    for question in questions:
        for passage in question.relevant:
            assert passage.start is not None
            assert passage.end is not None
            assert texts[passage.doc_id][passage.start : passage.end] == passage.passage


def test_spans_move_to_the_text_without_furniture(corpus) -> None:  # type: ignore[no-untyped-def]
    documents = {document.doc_id: document for document in corpus}
    questions = load_questions(QUESTIONS)
    moved = questions_in_text(questions, corpus)
    assert any(document.furniture.lines for document in corpus)
    for question, translated in zip(questions, moved, strict=True):
        for passage, span in zip(question.relevant, translated.relevant, strict=True):
            text = documents[passage.doc_id].text
            assert span.start is not None
            assert span.end is not None
            assert passage.passage is not None
            # The same words, without the running header and footer lines; read as
            # paragraphs, a PDF's lines are joined, a hyphen that split a word goes and
            # a list marker drawn after its item ("económico1.") goes before it.
            assert _letters(text[span.start : span.end]) == _letters(
                _without_furniture(passage.passage, documents[passage.doc_id])
            ), question.id


#: A list marker, alone or glued after a word: where reading puts it may change.
_MARKER = re.compile(r"(?:(?<!\S)|(?<=\w))\d+\.(?!\S)|•")


def _letters(text: str) -> str:
    return "".join(_MARKER.sub("", text).split()).replace("-", "")


def _without_furniture(passage: str, document) -> str:  # type: ignore[no-untyped-def]
    lines = {line.text for line in document.furniture.lines}
    return "\n".join(line for line in passage.split("\n") if line not in lines)


def test_every_page_is_the_page_where_the_span_starts(corpus) -> None:  # type: ignore[no-untyped-def]
    joined = {d.doc_id: join_pages(d.furniture.restore(d.pages), "\n\n") for d in corpus}
    for question in load_questions(QUESTIONS):
        for passage in question.relevant:
            assert passage.page == joined[passage.doc_id].page_at(passage.start or 0), question.id
