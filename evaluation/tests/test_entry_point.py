"""The evaluation chunks as every entry point of the library does: its ``asesoria``
chunks of a Markdown law, a PDF, a web page and a text file are ``read_document`` +
``split_document``'s (the library's ``tests/reading/test_entry_points.py`` checks its own
entry points the same way), and it decides no document's structure itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from langchain_asesoria import ChunkingConfig, ChunkMetadata
from langchain_asesoria.reading import read_document, split_document
from langchain_asesoria.records import SECTION_PATH_SEPARATOR
from langchain_asesoria.tokenization import HuggingFaceTokenization
from langchain_asesoria_eval.chunkers import AsesoriaChunker
from langchain_asesoria_eval.corpus import load_corpus

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "evaluation" / "langchain_asesoria_eval"
DATA = ROOT / "examples" / "data"
CONFIG = ChunkingConfig(max_tokens=256, overlap_tokens=32)
TEXT_FILE = (
    "# Esto no es un título: un archivo .txt no es Markdown.\n\n"
    "El impuesto grava la renta de las personas físicas, según sus circunstancias "
    "personales y familiares (año 2025, 1.500 € por hijo), como dice el artículo 1. 😀\n\n"
) * 12

#: (start, end, token_count, section path, embedding text) of one chunk.
Key = tuple[int, int, int, str, str]


def _inputs(tmp_path: Path) -> dict[str, Path]:
    text_file = tmp_path / "guia.txt"
    text_file.write_text(TEXT_FILE, encoding="utf-8")
    return {
        "markdown": DATA / "BOE-A-1991-14392.md",
        "pdf": DATA / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf",
        "text": text_file,
        "html": ROOT / "corpus" / "html" / "rd-1021-2015.html",
    }


def _path(section_path: object) -> str:
    if isinstance(section_path, tuple | list):
        return SECTION_PATH_SEPARATOR.join(section_path)
    return str(section_path or "")


def _engine(path: Path, tok: HuggingFaceTokenization) -> list[Key]:
    chunked = split_document(
        read_document(path), ChunkMetadata(doc_id=path.stem), config=CONFIG, tokenization=tok
    )
    return [
        (c.start, c.end, c.token_count, _path(c.metadata.section_path), c.embedding_text)
        for c in chunked.chunks
    ]


def _evaluation(path: Path, tok: HuggingFaceTokenization) -> list[Key]:
    (document,) = load_corpus([path])
    chunks = AsesoriaChunker().chunk(document, CONFIG, tok)
    sections = {  # the evaluation's chunks carry no section: take it from the engine's
        (c.start, c.end): _path(c.metadata.section_path)
        for c in split_document(
            document.read, ChunkMetadata(doc_id=path.stem), config=CONFIG, tokenization=tok
        ).chunks
    }
    return [
        (c.start, c.end, c.token_count, sections[c.start, c.end], c.indexed_text) for c in chunks
    ]


@pytest.mark.parametrize("kind", ["markdown", "pdf", "text", "html"])
def test_the_evaluation_gives_the_library_s_chunks(
    kind: str, minilm: HuggingFaceTokenization, tmp_path: Path
) -> None:
    if kind == "pdf":
        pytest.importorskip("cryptography", reason="the example PDF is AES-encrypted")
    if kind == "html":
        pytest.importorskip("lxml", reason="the library's html extra")
    path = _inputs(tmp_path)[kind]
    expected = _engine(path, minilm)
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
