"""Spans recomputed from quoted passages: lookup, file rewriting and the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria import LoadedPage
from langchain_asesoria_eval.corpus import document_from_pages
from langchain_asesoria_eval.errors import QuestionFileError
from langchain_asesoria_eval.questions import (
    load_questions,
    normalize_space,
)
from langchain_asesoria_eval.relocate import locate_passage, main, relocate_lines

#: A two-page document: the pages are joined by "\n\n", so page 2 starts at offset 39.
PAGES = (
    LoadedPage("El mínimo exento es de\n700.000 euros.", 1, "ley.pdf"),
    LoadedPage("La cuota no excede del 60 por 100.\nFin.", 2, "ley.pdf"),
)
JOINED = document_from_pages("ley", PAGES)
DOCUMENTS = {"ley": JOINED}


def line(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def question(*passages: dict[str, Any], qid: str = "q1") -> dict[str, Any]:
    return {"id": qid, "question": "¿Cuánto?", "relevant": list(passages)}


@pytest.mark.parametrize(
    ("passage", "expected"),
    [
        ("700.000 euros.", "700.000 euros."),
        ("es de 700.000", "es de\n700.000"),
        ("  exento   es\tde  ", "exento es de"),
        ("60 por 100.\nFin", "60 por 100.\nFin"),
    ],
)
def test_a_passage_is_found_verbatim_or_up_to_whitespace(passage: str, expected: str) -> None:
    start, end = locate_passage(passage, JOINED.text)
    assert JOINED.text[start:end] == expected
    assert normalize_space(expected) == normalize_space(passage)


@pytest.mark.parametrize(
    ("passage", "message"),
    [
        ("800.000 euros", "does not occur in the document"),
        ("e", r"occurs 9 times \(at 10, 12, 17, 21, 31\): quote a longer passage"),
        (" \n ", "the passage is blank"),
    ],
)
def test_a_missing_ambiguous_or_blank_passage_is_refused(passage: str, message: str) -> None:
    with pytest.raises(QuestionFileError, match=message):
        locate_passage(passage, JOINED.text)


@given(
    before=st.lists(st.text("xyz", min_size=1, max_size=4), max_size=5),
    words=st.lists(st.text("abc", min_size=1, max_size=4), min_size=1, max_size=6),
    after=st.lists(st.text("xyz", min_size=1, max_size=4), max_size=5),
    gaps=st.lists(st.sampled_from([" ", "\n", "  ", " \n", "\t"]), min_size=6, max_size=6),
)
def test_the_span_found_is_the_one_place_the_words_occur(
    before: list[str], words: list[str], after: list[str], gaps: list[str]
) -> None:
    prefix = "".join(word + " " for word in before)
    region = "".join(word + gap for word, gap in zip(words, gaps, strict=False)).rstrip()
    text = prefix + region + "".join(" " + word for word in after)
    start, end = locate_passage(" ".join(words), text)
    assert (start, end) == (len(prefix), len(prefix) + len(region))


def test_stale_spans_and_pages_are_rewritten_with_the_exact_text() -> None:
    lines = [
        "// a comment",
        "",
        line(question({"doc_id": "ley", "start": 0, "end": 1, "passage": "es de 700.000"})),
        line(
            question(
                {"doc_id": "ley", "passage": "del 60 por 100."},
                {"doc_id": "ley", "answer": "700.000"},
                qid="q2",
            )
        ),
    ]
    relocation = relocate_lines(lines, DOCUMENTS)
    assert relocation.lines[:2] == ("// a comment", "")
    first = json.loads(relocation.lines[2])["relevant"][0]
    assert first == {
        "doc_id": "ley",
        "start": 17,
        "end": 30,
        "passage": "es de\n700.000",
        "page": 1,
    }
    second, answer = json.loads(relocation.lines[3])["relevant"]
    assert (second["start"], second["end"], second["page"]) == (58, 73, 2)
    assert JOINED.text[second["start"] : second["end"]] == second["passage"]
    assert answer == {"doc_id": "ley", "answer": "700.000"}
    assert (relocation.passages, relocation.changed) == (2, 2)
    assert relocate_lines(relocation.lines, DOCUMENTS).changed == 0


def test_every_passage_that_cannot_be_located_is_listed() -> None:
    lines = [
        line(question({"doc_id": "ley", "passage": "nada de esto"})),
        line(question({"doc_id": "otra", "passage": "700.000"}, qid="q2")),
    ]
    with pytest.raises(QuestionFileError) as raised:
        relocate_lines(lines, DOCUMENTS, "q.jsonl")
    message = str(raised.value)
    assert "2 passage(s) cannot be located" in message
    assert "q.jsonl:1 (question 'q1'), relevant[0] in 'ley': passage 'nada de esto'" in message
    assert "q.jsonl:2 (question 'q2'), relevant[0]: unknown doc_id 'otra'" in message


def test_the_output_must_be_a_valid_question_file() -> None:
    with pytest.raises(QuestionFileError, match=r"q.jsonl:1: not valid JSON"):
        relocate_lines(["{oops"], DOCUMENTS, "q.jsonl")
    with pytest.raises(QuestionFileError, match="'question' must be a non-empty string"):
        relocate_lines(
            [line({"id": "q", "relevant": [{"doc_id": "ley", "passage": "Fin"}]})], DOCUMENTS
        )


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    document = tmp_path / "ley.md"
    document.write_text("---\ntitle: Ley\n---\n# Ley\n\nEl mínimo exento es de 700.000 euros.\n")
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        line(question({"doc_id": "ley", "start": 0, "end": 3, "passage": "700.000 euros"})) + "\n"
    )
    return document, questions


def test_the_command_rewrites_the_file_and_check_reports_stale_spans(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    document, questions = files
    assert main([str(questions), str(document), "--check"]) == 1
    assert "1 passages, 1 moved (run without --check to rewrite)" in capsys.readouterr().out
    assert main([str(questions), str(document.parent)]) == 0
    assert "1 passages, 1 moved, rewritten" in capsys.readouterr().out
    (passage,) = load_questions(questions)[0].relevant
    text = document.read_text()
    assert (passage.start, passage.end) == (text.index("700.000"), text.index(" euros.") + 6)
    assert main([str(questions), str(document), "--check"]) == 0


@pytest.mark.parametrize(
    ("arguments", "code", "message"),
    [
        (["{questions}", "{missing}"], 2, "no such file or folder"),
        (["{missing}", "{document}"], 2, "cannot read the question file"),
        (["{questions}", "{empty_pdf}"], 3, "DamagedDocumentError"),
    ],
)
def test_the_command_maps_errors_to_exit_codes(
    files: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    code: int,
    message: str,
) -> None:
    pytest.importorskip("pypdf")
    document, questions = files
    empty_pdf = document.parent / "roto.pdf"
    empty_pdf.write_bytes(b"%PDF-1.4 nothing else")
    names = {
        "questions": questions,
        "document": document,
        "missing": document.parent / "missing.md",
        "empty_pdf": empty_pdf,
    }
    assert main([argument.format(**names) for argument in arguments]) == code
    assert message in capsys.readouterr().err
