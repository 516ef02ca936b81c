"""Spans of a question file recomputed from their quoted passages.

More: ``docs/design/evaluation.md``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_asesoria.errors import AsesoriaError, UsageError
from langchain_asesoria.reading import ReadOptions
from langchain_asesoria_eval.corpus import CorpusDocument, find_documents, load_corpus
from langchain_asesoria_eval.errors import QuestionFileError
from langchain_asesoria_eval.questions import (
    parse_questions,
)

__all__ = ["Relocation", "locate_passage", "main", "relocate_lines"]

#: Question spans are positions in the text as extracted, printed lines and running
#: headers and footers included (``asesoria-eval`` maps them into the text it chunks).
_AS_EXTRACTED = ReadOptions(
    outline_sections=False,
    remove_page_furniture=False,
    remove_contents=False,
    pdf_paragraphs=False,
)

#: How many offsets an ambiguity message lists.
_SHOWN_MATCHES = 5


def _exact_starts(passage: str, text: str) -> list[int]:
    starts: list[int] = []
    position = text.find(passage)
    while position != -1:
        starts.append(position)
        position = text.find(passage, position + 1)
    return starts


def _spaced_spans(passage: str, text: str) -> list[tuple[int, int]]:
    pattern = r"\s+".join(re.escape(word) for word in passage.split())
    return [match.span() for match in re.finditer(pattern, text)]


def locate_passage(passage: str, text: str) -> tuple[int, int]:
    """The ``[start, end)`` of the one place in ``text`` where ``passage`` occurs.

    Verbatim first; when there is no verbatim occurrence, with every run of whitespace
    matching any run of whitespace. ``text[start:end]`` is the matched text, which
    equals ``passage`` up to whitespace.

    Raises:
        QuestionFileError: the passage is blank, does not occur, or occurs more than
            once (the message lists where).
    """
    if not passage.strip():
        raise QuestionFileError(
            "the passage is blank: quote the text that answers.", expected="a quoted passage"
        )
    spans = [(start, start + len(passage)) for start in _exact_starts(passage, text)]
    if not spans:
        spans = _spaced_spans(passage, text)
    if not spans:
        raise QuestionFileError(
            f"passage {passage[:60]!r}... does not occur in the document, even with "
            "whitespace ignored: quote it again from the document's joined text.",
            expected="a passage of the document's joined text",
        )
    if len(spans) > 1:
        where = ", ".join(str(start) for start, _ in spans[:_SHOWN_MATCHES])
        raise QuestionFileError(
            f"passage {passage[:60]!r}... occurs {len(spans)} times (at {where}): quote a "
            "longer passage so that it occurs once.",
            position=spans[0][0],
            expected="a passage that occurs once",
        )
    return spans[0]


@dataclass(frozen=True, slots=True)
class Relocation:
    """A question file with its spans recomputed.

    Invariant: every quoted passage ``p`` of ``lines`` satisfies
    ``documents[p.doc_id].text[p.start:p.end] == p.passage`` and ``p.page`` is the page
    holding ``p.start``.

    Attributes:
        lines: The rewritten lines (comments and blank lines kept, without newlines).
        passages: How many quoted passages were located.
        changed: How many of them got a different span, page or quoted text.
    """

    lines: tuple[str, ...]
    passages: int
    changed: int


def _relocate_passage(item: dict[str, Any], document: CorpusDocument) -> bool:
    """Sets ``item``'s span, page and quoted text; returns whether any of them changed."""
    start, end = locate_passage(item["passage"], document.text)
    new = {
        "start": start,
        "end": end,
        "page": document.page_at(start),
        "passage": document.text[start:end],
    }
    changed = any(item.get(key) != value for key, value in new.items())
    item.update(new)
    return changed


def _quoted_passages(data: Any) -> list[dict[str, Any]]:
    relevant = data.get("relevant") if isinstance(data, dict) else None
    if not isinstance(relevant, list):
        return []
    return [
        item for item in relevant if isinstance(item, dict) and isinstance(item.get("passage"), str)
    ]


def _relocate_question(
    data: Any, documents: Mapping[str, CorpusDocument], where: str, problems: list[str]
) -> tuple[int, int]:
    """Relocates one question's quoted passages in place; returns (located, changed)."""
    located = changed = 0
    for index, item in enumerate(_quoted_passages(data)):
        here = f"{where}, relevant[{index}]"
        document = documents.get(str(item.get("doc_id")))
        if document is None:
            problems.append(
                f"{here}: unknown doc_id {item.get('doc_id')!r}; the documents are "
                f"{sorted(documents)}"
            )
            continue
        try:
            changed += _relocate_passage(item, document)
        except QuestionFileError as error:
            problems.append(f"{here} in {item['doc_id']!r}: {error}")
            continue
        located += 1
    return located, changed


def relocate_lines(
    lines: Iterable[str], documents: Mapping[str, CorpusDocument], source: str = "<questions>"
) -> Relocation:
    """Recomputes every quoted passage's span and page in a question file's lines.

    A passage without a quoted ``passage`` (an ``answer`` only, or a bare span) is left
    as it is. Offsets may be missing or stale on input; the output is a valid question
    file (checked with ``parse_questions``).

    Args:
        lines: The question file's lines.
        documents: The corpus documents by ``doc_id`` (their joined text and pages).
        source: The file name for messages.

    Raises:
        QuestionFileError: a line that is not JSON, an unknown ``doc_id``, a passage that
            is missing or not unique (every problem is listed), or an output that is not a
            valid question file.
    """
    output: list[str] = []
    problems: list[str] = []
    located = changed = 0
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("//"):
            output.append(line.rstrip("\r\n"))
            continue
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise QuestionFileError(
                f"not valid JSON ({error.msg} at column {error.colno}).",
                source=f"{source}:{number}",
                position=error.colno - 1,
                expected="a JSON object",
            ) from error
        where = f"{source}:{number}"
        if isinstance(data, dict) and "id" in data:
            where = f"{where} (question {data['id']!r})"
        counts = _relocate_question(data, documents, where, problems)
        located, changed = located + counts[0], changed + counts[1]
        output.append(json.dumps(data, ensure_ascii=False))
    if problems:
        shown = "\n  ".join(problems)
        raise QuestionFileError(f"{len(problems)} passage(s) cannot be located:\n  {shown}")
    parse_questions(output, source)
    return Relocation(tuple(output), located, changed)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m langchain_asesoria_eval.relocate",
        description=(
            "Recompute the start, end and page of every quoted passage of a question "
            "file from the documents as they are read now, and rewrite the file."
        ),
    )
    parser.add_argument("questions", type=Path, help="question file (JSON Lines)")
    parser.add_argument("documents", nargs="+", help="corpus files or folders")
    parser.add_argument(
        "--check",
        action="store_true",
        help="only report; exit 1 if any span would change",
    )
    return parser


def _run(args: argparse.Namespace) -> int:
    documents = {
        document.doc_id: document
        for document in load_corpus(find_documents(args.documents), _AS_EXTRACTED)
    }
    try:
        lines = args.questions.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise QuestionFileError(
            f"cannot read the question file ({error}).",
            source=str(args.questions),
            expected="a UTF-8 JSON Lines file",
        ) from error
    relocation = relocate_lines(lines, documents, str(args.questions))
    summary = f"{args.questions}: {relocation.passages} passages, {relocation.changed} moved"
    if args.check:
        print(summary + (" (run without --check to rewrite)" if relocation.changed else ""))
        return 1 if relocation.changed else 0
    if relocation.changed:
        args.questions.write_text("\n".join(relocation.lines) + "\n", encoding="utf-8")
    print(summary + (", rewritten" if relocation.changed else ""))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command; returns the exit code (see the module docstring)."""
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except (UsageError, QuestionFileError) as error:
        print(f"relocate: {error}", file=sys.stderr)
        return 2
    except AsesoriaError as error:
        print(f"relocate: {type(error).__name__}: {error}", file=sys.stderr)
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
