"""The question file: annotated retrieval questions in JSON Lines, loaded with clear errors.

More: ``docs/design/evaluation.md``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, get_args

from langchain_asesoria_eval.errors import QuestionFileError

__all__ = [
    "QUESTION_KINDS",
    "Question",
    "QuestionKind",
    "RelevantPassage",
    "load_questions",
    "normalize_space",
    "parse_questions",
    "validate_against_corpus",
]

QuestionKind = Literal[
    "definition",
    "number",
    "condition",
    "fact",
    "two_passages",
    "cross_page",
    "list_item",
    "table_row",
    "no_source",
]
"""What a question asks, for reading results per kind:

- ``definition``: what a term means, or what something is;
- ``number``: a figure, percentage, amount, date or time limit;
- ``condition``: a requirement, a limit, an exception or what happens when something holds;
- ``fact``: another who, what or how answered by one passage (a body, a procedure);
- ``two_passages``: the answer needs two (or more) separate passages;
- ``cross_page``: the answer runs from the end of one PDF page onto the next, annotated
  as two passages of one document, the tail on one page and the head on the next;
- ``list_item``: the answer is one item of a list (the passage is that item);
- ``table_row``: the answer is one row of a table (the passage is that row);
- ``no_source``: the corpus does not answer it (``no_source`` is then ``true``).
"""

#: Every kind a question may be marked with, in the order reports list them.
QUESTION_KINDS: Final[tuple[QuestionKind, ...]] = get_args(QuestionKind)

_QUESTION_KEYS: Final = frozenset({"id", "question", "relevant", "no_source", "kind"})
_PASSAGE_KEYS: Final = frozenset({"doc_id", "start", "end", "passage", "answer", "page"})
_SPACE: Final = re.compile(r"\s+")


def normalize_space(text: str) -> str:
    """``text`` with every run of whitespace turned into one space, stripped.

    Answer strings are matched after this normalization, so a line break that a PDF
    extractor put inside a sentence does not hide the answer.
    """
    return _SPACE.sub(" ", text).strip()


@dataclass(frozen=True, slots=True)
class RelevantPassage:
    """One annotated place in the corpus that answers a question.

    Invariants: ``start`` and ``end`` are both set or both ``None``; when set,
    ``0 <= start < end``; at least a span or an ``answer`` is given.

    Attributes:
        doc_id: The document holding the passage.
        start: First character of the span in the document's joined text (inclusive).
        end: End of the span (exclusive).
        passage: The quoted text of the span, ``joined[start:end]``, for re-validation.
        answer: A string that a relevant chunk must contain (whitespace-normalized).
        page: The page where the span starts, when known.
    """

    doc_id: str
    start: int | None = None
    end: int | None = None
    passage: str | None = None
    answer: str | None = None
    page: int | None = None

    @property
    def has_span(self) -> bool:
        """Whether the passage is given as a character span."""
        return self.start is not None and self.end is not None


@dataclass(frozen=True, slots=True)
class Question:
    """A retrieval question with its annotated relevant passages.

    Attributes:
        id: Unique identifier within the file.
        question: The question as a user would ask it.
        relevant: The passages that answer it; empty exactly when ``no_source``.
        no_source: The corpus does not answer it; it is reported apart.
        kind: What it asks (``QuestionKind``), when the file says.
    """

    id: str
    question: str
    relevant: tuple[RelevantPassage, ...]
    no_source: bool = False
    kind: QuestionKind | None = None


def _fail(
    where: str, message: str, expected: str | None = None, position: int | None = None
) -> QuestionFileError:
    return QuestionFileError(message, source=where, expected=expected, position=position)


def _text(value: Any, where: str, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(
            where, f"{key!r} must be a non-empty string, got {value!r}.", "a non-empty string"
        )
    return value


def _offset(value: Any, where: str, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _fail(
            where,
            f"{key!r} must be a non-negative integer offset, got {value!r}.",
            "a non-negative integer",
        )
    return value


def _unknown_keys(data: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise _fail(
            where,
            f"unknown field(s) {unknown}; allowed fields are {sorted(allowed)}.",
            f"fields among {sorted(allowed)}",
        )


def _parse_passage(data: Any, where: str) -> RelevantPassage:
    if not isinstance(data, dict):
        raise _fail(where, f"a relevant passage must be an object, got {data!r}.", "an object")
    _unknown_keys(data, _PASSAGE_KEYS, where)
    doc_id = _text(data.get("doc_id"), where, "doc_id")
    has_start, has_end = "start" in data, "end" in data
    if has_start != has_end:
        raise _fail(
            where,
            "give both 'start' and 'end' (a [start, end) span), or neither.",
            "both 'start' and 'end', or neither",
        )
    start = _offset(data["start"], where, "start") if has_start else None
    end = _offset(data["end"], where, "end") if has_end else None
    if start is not None and end is not None and start >= end:
        raise _fail(
            where,
            f"empty or reversed span [{start}, {end}): start must be < end.",
            "start < end",
        )
    answer = _text(data["answer"], where, "answer") if "answer" in data else None
    if start is None and answer is None:
        raise _fail(
            where,
            "a relevant passage needs a 'start'/'end' span or an 'answer'.",
            "a 'start'/'end' span or an 'answer'",
        )
    passage = data.get("passage")
    if passage is not None and (start is None or not isinstance(passage, str)):
        raise _fail(
            where,
            "'passage' is the quoted text of a span: give it with start/end.",
            "'passage' with 'start'/'end'",
        )
    page = data.get("page")
    if page is not None and (isinstance(page, bool) or not isinstance(page, int) or page < 1):
        raise _fail(
            where, f"'page' must be a positive integer, got {page!r}.", "a positive integer"
        )
    return RelevantPassage(doc_id, start, end, passage, answer, page)


def _kind(value: Any, where: str) -> QuestionKind | None:
    if value is None:
        return None
    for kind in QUESTION_KINDS:
        if value == kind:
            return kind
    raise _fail(
        where,
        f"'kind' must be one of {list(QUESTION_KINDS)}, got {value!r}.",
        f"one of {list(QUESTION_KINDS)}",
    )


def _kind_problem(
    kind: QuestionKind, no_source: bool, passages: tuple[RelevantPassage, ...]
) -> str | None:
    """Why ``kind`` contradicts the rest of the question, or ``None``."""
    if (kind == "no_source") != no_source:
        return f"'kind' {kind!r} and 'no_source' {no_source} disagree: mark both or neither."
    if kind == "two_passages" and len(passages) < 2:
        return "a 'two_passages' question needs at least two relevant passages."
    if kind != "cross_page":
        return None
    if len(passages) != 2 or passages[0].doc_id != passages[1].doc_id:
        return (
            "a 'cross_page' question needs exactly two passages of one document: the "
            "tail of one page and the head of the next."
        )
    first, second = passages[0].page, passages[1].page
    if first is not None and second is not None and second != first + 1:
        return (
            "a 'cross_page' question's passages must be on consecutive pages, "
            f"not {first} and {second}."
        )
    return None


def _parse_question(data: Any, where: str) -> Question:
    if not isinstance(data, dict):
        raise _fail(
            where, f"each line must be a JSON object, got {type(data).__name__}.", "a JSON object"
        )
    _unknown_keys(data, _QUESTION_KEYS, where)
    question_id = _text(data.get("id"), where, "id")
    where = f"{where} (question {question_id!r})"
    text = _text(data.get("question"), where, "question")
    no_source = data.get("no_source", False)
    if not isinstance(no_source, bool):
        raise _fail(
            where, f"'no_source' must be true or false, got {no_source!r}.", "true or false"
        )
    relevant = data.get("relevant", [])
    if not isinstance(relevant, list):
        raise _fail(
            where,
            f"'relevant' must be a list of passages, got {relevant!r}.",
            "a list of passages",
        )
    passages = tuple(
        _parse_passage(item, f"{where}, relevant[{index}]") for index, item in enumerate(relevant)
    )
    if no_source and passages:
        raise _fail(where, "a question marked no_source must have no relevant passages.")
    if not no_source and not passages:
        raise _fail(
            where,
            "no relevant passage: annotate at least one, or mark the question "
            '"no_source": true if the corpus does not answer it.',
        )
    kind = _kind(data.get("kind"), where)
    problem = None if kind is None else _kind_problem(kind, no_source, passages)
    if problem is not None:
        raise _fail(where, problem)
    return Question(question_id, text, passages, no_source, kind)


def parse_questions(lines: Iterable[str], source: str = "<questions>") -> tuple[Question, ...]:
    """Parses JSON Lines of questions (see the module docstring for the format).

    Raises:
        QuestionFileError: invalid JSON, a missing or wrongly typed field, an unknown
            field, a duplicated id, or no question at all; the message names
            ``source``, the line number and the field.
    """
    questions: list[Question] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("//"):
            continue
        where = f"{source}:{number}"
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise _fail(
                where,
                f"not valid JSON ({error.msg} at column {error.colno}).",
                "a JSON object",
                position=error.colno - 1,
            ) from error
        question = _parse_question(data, where)
        if question.id in seen:
            raise _fail(
                where, f"duplicated id {question.id!r} (first on line {seen[question.id]})."
            )
        seen[question.id] = number
        questions.append(question)
    if not questions:
        raise QuestionFileError(
            "no questions found; write one JSON object per line.",
            source=str(source),
            expected="one JSON object per line",
        )
    return tuple(questions)


def load_questions(path: str | Path) -> tuple[Question, ...]:
    """Reads a UTF-8 JSON Lines question file.

    Raises:
        QuestionFileError: the file cannot be read or is invalid (see ``parse_questions``).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise QuestionFileError(
            f"cannot read the question file ({error}).",
            source=str(path),
            expected="a UTF-8 JSON Lines file",
        ) from error
    return parse_questions(text.splitlines(), str(path))


def _passage_problem(passage: RelevantPassage, text: str) -> str | None:
    if passage.start is not None and passage.end is not None:
        if passage.end > len(text):
            return (
                f"span [{passage.start}, {passage.end}) is outside the document "
                f"({len(text)} characters)"
            )
        quoted = text[passage.start : passage.end]
        if passage.passage is not None and quoted != passage.passage:
            return (
                f"span [{passage.start}, {passage.end}) holds {quoted[:60]!r}..., not the "
                f"stored passage {passage.passage[:60]!r}...; re-annotate it"
            )
    if passage.answer is not None and normalize_space(passage.answer) not in normalize_space(text):
        return f"answer {passage.answer!r} does not appear in the document"
    return None


def validate_against_corpus(questions: Iterable[Question], texts: Mapping[str, str]) -> None:
    """Checks every passage against the joined texts of the corpus documents.

    Args:
        questions: The parsed questions.
        texts: Each document's joined text by ``doc_id``.

    Raises:
        QuestionFileError: a passage names an unknown document, its span lies outside
            the text or does not hold the stored ``passage``, or its ``answer`` does not
            appear in the document. Every problem is listed.
    """
    problems: list[str] = []
    for question in questions:
        for index, passage in enumerate(question.relevant):
            where = f"question {question.id!r}, relevant[{index}]"
            text = texts.get(passage.doc_id)
            if text is None:
                problems.append(
                    f"{where}: unknown doc_id {passage.doc_id!r}; the corpus has {sorted(texts)}"
                )
                continue
            problem = _passage_problem(passage, text)
            if problem is not None:
                problems.append(f"{where}: {problem}")
    if problems:
        shown = "\n  ".join(problems[:20])
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise QuestionFileError(
            f"{len(problems)} annotation(s) do not match the corpus:\n  {shown}{more}"
        )
