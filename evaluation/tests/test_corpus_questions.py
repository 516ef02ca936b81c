"""The question set over the whole corpus: exact spans, pages, kinds, spread and robustness.

Every passage of ``examples/evaluation/corpus_questions.jsonl`` is checked against the
documents of ``corpus/`` as ``read_pages`` reads them now; the last test also reads them
with the PDFs' running headers and footers dropped, as a cleaner reader would, and
requires every quoted passage to be found again exactly once.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Final

import pytest

from langchain_asesoria import LoadedPage
from langchain_asesoria.reading import ReadOptions
from langchain_asesoria_eval import (
    PAGE_SEPARATOR,
    CorpusDocument,
    Question,
    document_from_pages,
    find_documents,
    load_corpus,
    load_questions,
    validate_against_corpus,
)
from langchain_asesoria_eval.relocate import relocate_lines

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = ROOT / "examples" / "evaluation" / "corpus_questions.jsonl"
CORPUS = (ROOT / "corpus" / "markdown", ROOT / "corpus" / "pdf")

#: The least each kind of question must count (answerable ones at least 300 in all).
MINIMUM_PER_KIND: Final = {
    "definition": 25,
    "number": 100,
    "condition": 100,
    "fact": 25,
    "two_passages": 30,
    "cross_page": 30,
    "list_item": 10,
    "table_row": 10,
    "no_source": 30,
}

#: A line that a PDF repeats on every page (BOE header/footer, AEAT footer): never part
#: of an answer.
PAGE_EDGE: Final = re.compile(
    r"^(BOLETÍN OFICIAL DEL ESTADO|LEGISLACIÓN CONSOLIDADA|Página \d+"
    r"|\d\d/\d\d/\d{4} - Manual práctico de Renta 2023\. Página \d+"
    r"|Capítulo 12\. Integración y compensación de rentas)$"
)

#: At most this many characters of a page may follow the tail of a cross-page answer
#: (the page's footer lines), so the tail really ends its page.
PAGE_END_SLACK: Final = 200


@pytest.fixture(scope="module")
def corpus() -> dict[str, CorpusDocument]:
    pytest.importorskip("pypdf")
    pytest.importorskip("cryptography")
    # Question spans are positions in the text as extracted (asesoria-eval maps them).
    as_extracted = ReadOptions(
        outline_sections=False,
        remove_page_furniture=False,
        remove_contents=False,
        pdf_paragraphs=False,
    )
    documents = load_corpus(find_documents(CORPUS), as_extracted)
    return {document.doc_id: document for document in documents}


@pytest.fixture(scope="module")
def questions() -> tuple[Question, ...]:
    return load_questions(QUESTIONS)


def test_enough_questions_of_every_kind(questions: tuple[Question, ...]) -> None:
    kinds = Counter(question.kind for question in questions)
    assert None not in kinds
    assert sum(not question.no_source for question in questions) >= 300
    for kind, minimum in MINIMUM_PER_KIND.items():
        assert kinds[kind] >= minimum, kind


def test_every_document_is_asked_about_over_its_whole_length(
    questions: tuple[Question, ...], corpus: dict[str, CorpusDocument]
) -> None:
    tenths: dict[str, set[int]] = {doc_id: set() for doc_id in corpus}
    per_document = Counter(
        question.relevant[0].doc_id for question in questions if question.relevant
    )
    for question in questions:
        for passage in question.relevant:
            assert passage.start is not None
            tenths[passage.doc_id].add(passage.start * 10 // len(corpus[passage.doc_id].text))
    assert set(per_document) == set(corpus)
    assert min(per_document.values()) >= 20
    assert all(found == set(range(10)) for found in tenths.values()), tenths


def test_every_span_holds_its_passage_on_one_page(
    questions: tuple[Question, ...], corpus: dict[str, CorpusDocument]
) -> None:
    validate_against_corpus(questions, {doc_id: text.text for doc_id, text in corpus.items()})
    for question in questions:
        for passage in question.relevant:
            assert passage.passage is not None, question.id
            assert passage.start is not None
            assert passage.end is not None
            document = corpus[passage.doc_id]
            assert document.text[passage.start : passage.end] == passage.passage
            assert passage.page == document.page_at(passage.start), question.id
            assert passage.page == document.page_at(passage.end - 1), question.id
            assert document.text.count(passage.passage) == 1, question.id


def test_no_passage_holds_a_running_header_or_footer(questions: tuple[Question, ...]) -> None:
    for question in questions:
        for passage in question.relevant:
            assert passage.passage is not None
            lines = [line.strip() for line in passage.passage.splitlines()]
            assert not any(PAGE_EDGE.match(line) for line in lines), question.id


def test_a_cross_page_answer_runs_from_the_end_of_a_page_into_the_next(
    questions: tuple[Question, ...], corpus: dict[str, CorpusDocument]
) -> None:
    for question in (q for q in questions if q.kind == "cross_page"):
        tail, head = question.relevant
        assert tail.end is not None
        assert head.start is not None
        assert tail.page is not None
        document = corpus[tail.doc_id]
        index = [page.page for page in document.pages].index(tail.page)
        next_start = document.page_starts[index + 1]
        page_end = next_start - len(PAGE_SEPARATOR)
        assert len(document.text[tail.end : page_end].strip()) <= PAGE_END_SLACK, question.id
        assert document.text[next_start : head.start].strip() == "", question.id


def test_the_file_is_up_to_date_with_the_reader(corpus: dict[str, CorpusDocument]) -> None:
    lines = QUESTIONS.read_text(encoding="utf-8").splitlines()
    assert relocate_lines(lines, corpus, str(QUESTIONS)).changed == 0


def test_every_passage_is_found_again_without_the_pdf_page_edges(
    corpus: dict[str, CorpusDocument],
) -> None:
    def without_edges(page_text: str) -> str:
        return "\n".join(
            line for line in page_text.split("\n") if not PAGE_EDGE.match(line.strip())
        )

    cleaner: dict[str, CorpusDocument] = {}
    for document in corpus.values():
        pages = [LoadedPage(without_edges(p.text), p.page, p.source) for p in document.pages]
        cleaner[document.doc_id] = document_from_pages(document.doc_id, pages)
    lines = QUESTIONS.read_text(encoding="utf-8").splitlines()
    relocation = relocate_lines(lines, cleaner, str(QUESTIONS))
    assert relocation.passages == sum(
        len(question.relevant) for question in load_questions(QUESTIONS)
    )
