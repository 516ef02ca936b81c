"""The question file: parsing, validation errors, and checks against the corpus."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from langchain_asesoria_eval.errors import QuestionFileError
from langchain_asesoria_eval.questions import (
    QUESTION_KINDS,
    RelevantPassage,
    load_questions,
    parse_questions,
    validate_against_corpus,
)

GOOD: dict[str, Any] = {
    "id": "q1",
    "question": "¿Cuál es el mínimo exento?",
    "relevant": [{"doc_id": "ley", "start": 4, "end": 18, "passage": "mínimo exento", "page": 1}],
}


def line(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def test_parses_answerable_and_no_source_questions() -> None:
    questions = parse_questions(
        [
            line(GOOD),
            "",
            "// a comment",
            line({"id": "n1", "question": "¿IVA?", "no_source": True, "relevant": []}),
            line(
                {
                    "id": "a1",
                    "question": "¿Cuánto?",
                    "relevant": [{"doc_id": "ley", "answer": "700.000"}],
                }
            ),
        ]
    )
    assert [q.id for q in questions] == ["q1", "n1", "a1"]
    assert questions[0].relevant == (RelevantPassage("ley", 4, 18, "mínimo exento", None, 1),)
    assert questions[1].no_source
    assert questions[1].relevant == ()
    assert questions[2].relevant[0].answer == "700.000"
    assert not questions[2].relevant[0].has_span


def cross_page(first: int, second: int, other_doc: str = "ley") -> dict[str, Any]:
    tail = {"doc_id": "ley", "start": 0, "end": 4, "page": first}
    head = {"doc_id": other_doc, "start": 6, "end": 9, "page": second}
    return {**GOOD, "kind": "cross_page", "relevant": [tail, head]}


def with_passage(**changes: Any) -> dict[str, Any]:
    passage = {**GOOD["relevant"][0], **changes}
    return {**GOOD, "relevant": [{k: v for k, v in passage.items() if v is not None}]}


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["{not json"], r"<questions>:1: not valid JSON"),
        (["[1, 2]"], "must be a JSON object"),
        ([line({**GOOD, "id": ""})], "'id' must be a non-empty string"),
        ([line({k: v for k, v in GOOD.items() if k != "question"})], "'question' must be"),
        ([line({**GOOD, "colour": "red"})], r"unknown field\(s\) \['colour'\]"),
        ([line(GOOD), line(GOOD)], r"<questions>:2: .*duplicated id 'q1' \(first on line 1\)"),
        ([line({**GOOD, "relevant": []})], 'mark the question "no_source": true'),
        ([line({**GOOD, "no_source": True})], "no_source must have no relevant passages"),
        ([line({**GOOD, "no_source": "yes"})], "'no_source' must be true or false"),
        ([line({**GOOD, "relevant": "ley"})], "'relevant' must be a list"),
        ([line({**GOOD, "relevant": ["ley"]})], "must be an object"),
        ([line(with_passage(end=None, passage=None))], "give both 'start' and 'end'"),
        ([line(with_passage(start=18, end=4))], r"reversed span \[18, 4\)"),
        ([line(with_passage(start=-1))], "'start' must be a non-negative integer"),
        ([line(with_passage(start=True))], "'start' must be a non-negative integer"),
        ([line(with_passage(page=0))], "'page' must be a positive integer"),
        ([line(with_passage(doc_id=""))], "'doc_id' must be a non-empty string"),
        ([line(with_passage(start=None, end=None, passage=None))], "needs a 'start'/'end' span"),
        ([line(with_passage(start=None, end=None, answer="x"))], "'passage' is the quoted text"),
        ([line(with_passage(extra=1))], r"relevant\[0\]: unknown field"),
        (["", "// nothing"], "no questions found"),
        ([line({**GOOD, "kind": "opinion"})], "'kind' must be one of .*'definition'"),
        ([line({**GOOD, "kind": "no_source"})], "'kind' 'no_source' and 'no_source' False"),
        (
            [line({**GOOD, "kind": "number", "no_source": True, "relevant": []})],
            "'kind' 'number' and 'no_source' True disagree",
        ),
        ([line({**GOOD, "kind": "two_passages"})], "needs at least two relevant passages"),
        ([line({**GOOD, "kind": "cross_page"})], "exactly two passages of one document"),
        ([line(cross_page(3, 5))], "consecutive pages, not 3 and 5"),
        ([line(cross_page(3, 4, other_doc="otra"))], "exactly two passages of one document"),
    ],
)
def test_invalid_files_say_where_and_what(lines: list[str], message: str) -> None:
    with pytest.raises(QuestionFileError, match=message):
        parse_questions(lines)


def test_kinds_are_parsed_and_optional() -> None:
    two = {"doc_id": "ley", "start": 20, "end": 27}
    questions = parse_questions(
        [
            line({**GOOD, "kind": "definition"}),
            line(
                {**GOOD, "id": "q2", "kind": "two_passages", "relevant": [*GOOD["relevant"], two]}
            ),
            line(cross_page(3, 4) | {"id": "q3"}),
            line({"id": "n1", "question": "?", "kind": "no_source", "no_source": True}),
            line({**GOOD, "id": "q4"}),
        ]
    )
    assert [q.kind for q in questions] == [
        "definition",
        "two_passages",
        "cross_page",
        "no_source",
        None,
    ]


def test_the_kinds_are_the_ones_the_question_sets_readme_documents() -> None:
    readme = Path(__file__).resolve().parents[2] / "examples" / "evaluation" / "README.md"
    table = readme.read_text(encoding="utf-8").split("| kind | what it asks | questions |")[1]
    documented = re.findall(r"^\| `(\w+)` \|", table.split("\n\n")[0], flags=re.MULTILINE)
    assert sorted(documented) == sorted(QUESTION_KINDS)
    assert {"list_item", "table_row"} <= set(documented)


def test_a_cross_page_question_without_pages_is_accepted() -> None:
    data = cross_page(1, 2)
    data["relevant"] = [{k: v for k, v in p.items() if k != "page"} for p in data["relevant"]]
    assert parse_questions([line(data)])[0].kind == "cross_page"


def test_errors_name_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(line(GOOD) + "\n" + line({**GOOD, "id": "q2", "relevant": []}) + "\n")
    with pytest.raises(QuestionFileError, match=rf"{path.name}:2 \(question 'q2'\)"):
        load_questions(path)


def test_an_unreadable_file_is_a_question_file_error(tmp_path: Path) -> None:
    with pytest.raises(QuestionFileError, match="cannot read"):
        load_questions(tmp_path / "missing.jsonl")
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(line(GOOD).encode("latin-1"))
    with pytest.raises(QuestionFileError, match="cannot read"):
        load_questions(latin)


def test_question_file_error_is_a_value_error() -> None:
    assert issubclass(QuestionFileError, ValueError)


TEXTS = {"ley": "El mínimo exento es de 700.000 euros.\n\nSegunda página."}


def test_validation_accepts_matching_annotations() -> None:
    questions = parse_questions(
        [
            line(with_passage(start=3, end=16, passage="mínimo exento")),
            line(
                {
                    "id": "a",
                    "question": "?",
                    "relevant": [{"doc_id": "ley", "answer": "700.000\neuros"}],
                }
            ),
        ]
    )
    validate_against_corpus(questions, TEXTS)


@pytest.mark.parametrize(
    ("passage", "message"),
    [
        (
            {"doc_id": "otra", "start": 0, "end": 2},
            r"unknown doc_id 'otra'; the corpus has \['ley'\]",
        ),
        ({"doc_id": "ley", "start": 0, "end": 999}, r"span \[0, 999\) is outside the document"),
        (
            {"doc_id": "ley", "start": 0, "end": 2, "passage": "XX"},
            r"holds 'El'..., not the stored passage 'XX'",
        ),
        ({"doc_id": "ley", "answer": "800.000"}, "answer '800.000' does not appear"),
    ],
)
def test_validation_names_each_mismatch(passage: dict[str, Any], message: str) -> None:
    questions = parse_questions([line({"id": "q", "question": "?", "relevant": [passage]})])
    with pytest.raises(QuestionFileError, match=message):
        validate_against_corpus(questions, TEXTS)


def test_validation_lists_every_problem() -> None:
    questions = parse_questions(
        [
            line({"id": f"q{i}", "question": "?", "relevant": [{"doc_id": "x", "answer": "y"}]})
            for i in range(25)
        ]
    )
    with pytest.raises(QuestionFileError, match=r"(?s)25 annotation\(s\).*and 5 more"):
        validate_against_corpus(questions, TEXTS)


def test_a_json_error_carries_its_line_in_the_source_and_its_column_in_position() -> None:
    with pytest.raises(QuestionFileError) as raised:
        parse_questions([line(GOOD), '{"id": "q2",, }'])
    assert (raised.value.source, raised.value.position) == ("<questions>:2", len('{"id": "q2",'))
    assert "at column 13" in str(raised.value)
