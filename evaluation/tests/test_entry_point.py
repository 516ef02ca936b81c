"""The evaluation chunks as every entry point of the library does: its ``asesoria``
chunks of a Markdown law, a PDF, a web page and a text file are ``read_document`` +
``split_document``'s (the library's ``tests/reading/test_entry_points.py`` checks its own
entry points the same way), and it decides no document's structure itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from langchain_asesoria.tokenization import HuggingFaceTokenization
from langchain_asesoria_eval.chunkers import AsesoriaChunker
from langchain_asesoria_eval.corpus import load_corpus
from tests.reading.test_entry_points import CONFIG, TEXT_FILE, Key, engine_keys, inputs, key

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "evaluation" / "langchain_asesoria_eval"


def _evaluation(path: Path, tok: HuggingFaceTokenization) -> list[Key]:
    """The evaluation's chunks as the library's ``Key``s; they carry no section, no
    ``doc_id`` and no chunk id: those are taken from the library's chunk of the span."""
    (document,) = load_corpus([path])
    chunks = AsesoriaChunker().chunk(document, CONFIG, tok)
    library = {(k[2], k[3]): k for k in engine_keys(path, tok)}
    return [
        key(
            library[c.start, c.end][:2],
            c.start,
            c.end,
            c.token_count,
            library[c.start, c.end][5],
            c.indexed_text,
        )
        for c in chunks
    ]


@pytest.mark.parametrize("kind", ["markdown", "pdf", "text", "html"])
def test_the_evaluation_gives_the_library_s_chunks(
    kind: str, minilm: HuggingFaceTokenization, tmp_path: Path
) -> None:
    if kind == "pdf":
        pytest.importorskip("cryptography", reason="the example PDF is AES-encrypted")
    if kind == "html":
        pytest.importorskip("lxml", reason="the library's html extra")
    text_file = tmp_path / "guia.txt"
    text_file.write_text(TEXT_FILE, encoding="utf-8")
    path = inputs(text_file)[kind]
    expected = engine_keys(path, minilm)
    assert expected
    assert _evaluation(path, minilm) == expected


#: What only the library's reading side may mention (the library's test holds the rule).
_FORBIDDEN = re.compile(
    r"markdown_sections|detect_leads|detect_markdown_headings=(?:True|False)\b"
    r"|front_matter(?!_metadata)|\.sections\(|section_spans|page_separator"
)
#: The question spans of an evaluation are offsets in pages joined by one separator.
_ALLOWED = {("corpus.py", "page_separator"), ("chunkers.py", "page_separator")}


def test_the_evaluation_decides_no_structure() -> None:
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(PACKAGE.glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in _FORBIDDEN.finditer(line.split("#", 1)[0])
        if (path.name, match.group()) not in _ALLOWED
    ]
    assert found == []
