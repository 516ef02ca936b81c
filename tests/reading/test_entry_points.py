"""The same input and options give the same chunks through every entry point.

Every entry point reads through the reading stage (``langchain_asesoria.reading``) and
chunks through ``split_document``/``iter_document_chunks``, so a Markdown law (with its
YAML front matter), a PDF (with its outline and running headers), a web page (its
markup, site navigation included) and a text file give
the same chunks from the command line, the transformer, the splitter and the Ray helper
as from ``read_document`` + ``split_document`` (the retrieval evaluation, a distribution
of its own, checks its chunks the same way: ``evaluation/tests/test_entry_point.py``).
A file's default ``doc_id`` is its name with its extension everywhere
(``records.file_doc_id``), so its chunk ids are the same too.

The splitter is left out for the PDF on purpose: a ``TextSplitter`` chunks each input
text on its own (one page at a time), so its PDF chunks never cross a page.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from langchain_asesoria import ChunkingConfig, ChunkMetadata, chunk_document
from langchain_asesoria.cli.main import main
from langchain_asesoria.langchain import (
    AsesoriaDocumentTransformer,
    AsesoriaTextSplitter,
    PdfPageLoader,
    TextFileLoader,
)
from langchain_asesoria.ray import document_chunk_rows
from langchain_asesoria.reading import ReadOptions, read_document, read_pages, split_document
from langchain_asesoria.records import (
    CHUNK_ID,
    DOC_ID,
    EMBEDDING_TEXT,
    END_INDEX,
    SECTION_PATH,
    SECTION_PATH_SEPARATOR,
    START_INDEX,
    TOKEN_COUNT,
    chunk_id,
)
from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL
from langchain_asesoria.tokenization import HuggingFaceTokenization

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "langchain_asesoria"
DATA = ROOT / "examples" / "data"
LAW = DATA / "BOE-A-1991-14392.md"
PDF = DATA / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"
WEB_PAGE = ROOT / "corpus" / "html" / "rd-1021-2015.html"
CONFIG = ChunkingConfig(max_tokens=256, overlap_tokens=32)

TEXT_FILE = (
    "# Esto no es un título: un archivo .txt no es Markdown.\n\n"
    "El impuesto grava la renta de las personas físicas, según sus circunstancias "
    "personales y familiares (año 2025, 1.500 € por hijo), como dice el artículo 1. 😀\n\n"
) * 12

#: (doc_id, chunk id, start, end, token_count, section path, embedding text) of one chunk.
Key = tuple[str, str, int, int, int, str, str]


def key(ids: tuple[Any, Any], start: Any, end: Any, tokens: Any, path: Any, embedding: Any) -> Key:
    """One chunk's ``Key`` from its parts as any entry point gives them."""
    if isinstance(path, tuple | list):
        path = SECTION_PATH_SEPARATOR.join(path)
    return (
        str(ids[0]),
        str(ids[1]),
        int(start),
        int(end),
        int(tokens),
        str(path or ""),
        str(embedding),
    )


def _from_metadata(metadata: dict[str, Any], embedding: str, chunk: Any = None) -> Key:
    return key(
        (metadata[DOC_ID], metadata[CHUNK_ID] if chunk is None else chunk),
        metadata[START_INDEX],
        metadata[END_INDEX],
        metadata[TOKEN_COUNT],
        metadata.get(SECTION_PATH),
        embedding,
    )


@pytest.fixture(scope="module")
def text_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("inputs") / "guia.txt"
    path.write_text(TEXT_FILE, encoding="utf-8")
    return path


def inputs(text_file: Path) -> dict[str, Path]:
    """One input of each kind (the text file written by the caller)."""
    return {"markdown": LAW, "pdf": PDF, "text": text_file, "html": WEB_PAGE}


def engine_keys(path: Path, tok: HuggingFaceTokenization) -> list[Key]:
    """The chunks the reading stage and the engine give ``path``, as ``Key``s."""
    chunked = split_document(
        read_document(path), ChunkMetadata(doc_id=path.name), config=CONFIG, tokenization=tok
    )
    return [
        key(
            (c.metadata.doc_id, chunk_id(c)),
            c.start,
            c.end,
            c.token_count,
            c.metadata.section_path,
            c.embedding_text,
        )
        for c in chunked.chunks
    ]


def _cli(path: Path, tok: HuggingFaceTokenization, tmp_path: Path) -> list[Key]:
    output = tmp_path / f"{path.stem}.jsonl"
    argv = [str(path), "--model", OFFLINE_EMBEDDING_MODEL, "--preset", "256/32", "-o"]
    assert main([*argv, str(output), "--quiet"]) == 0
    records = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    return [_from_metadata(record, record[EMBEDDING_TEXT]) for record in records]


def _loaded(path: Path) -> list[Any]:
    loader = PdfPageLoader(path) if path.suffix == ".pdf" else TextFileLoader(path)
    return loader.load()


def _transformer(path: Path, tok: HuggingFaceTokenization, _: Path) -> list[Key]:
    documents = AsesoriaDocumentTransformer(tok, CONFIG).transform_documents(_loaded(path))
    return [_from_metadata(d.metadata, d.page_content, d.id) for d in documents]


def _splitter(path: Path, tok: HuggingFaceTokenization, _: Path) -> list[Key]:
    if path.suffix == ".pdf":
        pytest.skip("a TextSplitter chunks each page on its own (see the module docstring)")
    documents = AsesoriaTextSplitter(tok, CONFIG).split_documents(_loaded(path))
    return [_from_metadata(d.metadata, d.page_content, d.id) for d in documents]


def _ray(path: Path, tok: HuggingFaceTokenization, _: Path) -> list[Key]:
    rows = document_chunk_rows({"path": str(path)}, config=CONFIG, tokenization=tok)
    return [_from_metadata(row, str(row[EMBEDDING_TEXT])) for row in rows]


ENTRY_POINTS: dict[str, Callable[[Path, HuggingFaceTokenization, Path], list[Key]]] = {
    "command line": _cli,
    "transformer": _transformer,
    "splitter": _splitter,
    "ray": _ray,
}


@pytest.mark.parametrize("kind", ["markdown", "pdf", "text", "html"])
@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_every_entry_point_gives_the_same_chunks(
    entry: str, kind: str, text_file: Path, minilm: HuggingFaceTokenization, tmp_path: Path
) -> None:
    if kind == "pdf":
        pytest.importorskip("cryptography", reason="the example PDF is AES-encrypted")
    if kind == "html":
        pytest.importorskip("lxml", reason="the html extra: pip install '.[html]'")
    path = inputs(text_file)[kind]
    expected = engine_keys(path, minilm)
    assert expected
    assert ENTRY_POINTS[entry](path, minilm, tmp_path) == expected


def test_the_reading_stage_keeps_the_engine_chunks_of_every_input(
    text_file: Path, minilm: HuggingFaceTokenization
) -> None:
    """``split_document`` gives the chunks the engine gave before the reading stage
    existed: a Markdown file's pages with its front matter blanked and the engine's own
    heading detection; a PDF's cleaned pages with its outline spans; a text file plain."""
    markdown = read_document(LAW, ReadOptions(legal_structure="off"))
    assert markdown.structure == "markdown headings"
    assert markdown.report.front_matter > 0
    old = chunk_document(
        markdown.pages,
        ChunkMetadata(doc_id=LAW.stem),
        config=ChunkingConfig(256, 32),
        tokenization=minilm,
        detect_markdown_headings=True,
    )
    new = split_document(
        markdown, ChunkMetadata(doc_id=LAW.stem), config=CONFIG, tokenization=minilm
    ).chunks
    # the law's front matter gives every chunk its provenance, and nothing else changes
    assert {c.metadata.extra for c in new} == {markdown.report.fields}
    assert dict(markdown.report.fields)["norm_id"] == "BOE-A-1991-14392"
    assert [replace(c, metadata=replace(c.metadata, extra=())) for c in new] == old
    assert all(c.metadata.section_path for c in new)
    assert not any("title:" in c.text for c in new)  # the front matter is never chunked
    plain = read_document(text_file)
    assert plain.sections is None
    assert split_document(
        plain, ChunkMetadata(doc_id="guia"), config=CONFIG, tokenization=minilm
    ).chunks == tuple(
        chunk_document(
            read_pages(text_file), ChunkMetadata(doc_id="guia"), config=CONFIG, tokenization=minilm
        )
    )


def test_split_document_returns_what_the_inspector_shows(minilm: HuggingFaceTokenization) -> None:
    chunked = split_document(
        read_document(LAW), ChunkMetadata(doc_id="ley"), config=CONFIG, tokenization=minilm
    )
    assert chunked.sections
    assert all(chunked.joined.text[c.start : c.end] == c.text for c in chunked.chunks)
    assert chunked.sections == tuple(chunked.document.in_join(CONFIG.page_separator).sections or ())


# -- no adapter re-decides the structure ----------------------------------------------------

#: Where a document's kind, structure and page join may be decided: the reading stage,
#: the structure sources and the engine (and the configuration value that names them).
_READING_SIDE = ("reading/", "structure/", "engine/", "models.py", "pdf/")

#: The package's own face re-exports the structure's names (``detect_markdown_sections``).
_PUBLIC_FACE = "__init__.py"

#: What only the reading side may mention: heading and lead detection, the heading switch
#: set by the adapter itself (a caller's ``detect_markdown_headings`` keyword may only be
#: passed on, to ``reading``), front matter, and a page separator passed to get sections
#: (``DocumentPages.in_join``).
_FORBIDDEN = re.compile(
    r"markdown_sections|detect_leads|detect_markdown_headings=(?:True|False)\b|front_matter(?!_metadata)"
    r"|\.in_join\(|section_spans|page_separator"
)

#: Mentions outside the reading side that are not about a document's structure, and why.
_ALLOWED = {
    # ``--section-context`` and friends: the command line's own option names.
    ("cli/parser.py", "page_separator"),
    # A parent's offsets are in the text its chunks' offsets are in: the same joined pages.
    ("parents.py", "page_separator"),
    ("parents.py", ".in_join("),
}


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of ``path`` that are code: docstrings and comments left out."""
    source = path.read_text(encoding="utf-8")
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                docstrings.update(range(value.lineno, (value.end_lineno or value.lineno) + 1))
    return [
        (number, line.split("#", 1)[0])
        for number, line in enumerate(source.splitlines(), 1)
        if number not in docstrings
    ]


def test_no_adapter_decides_markdown_front_matter_or_section_joins() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith(_READING_SIDE) or relative == _PUBLIC_FACE:
            continue
        for number, line in _code_lines(path):
            for match in _FORBIDDEN.finditer(line):
                if (relative, match.group()) not in _ALLOWED:
                    found.append(f"{relative}:{number}: {line.strip()}")
    assert found == [], "decide structure in langchain_asesoria/reading, not here:\n" + "\n".join(
        found
    )


def test_the_grep_sees_what_it_forbids() -> None:
    assert _FORBIDDEN.search("replace(config, detect_markdown_headings=False)")
    assert _FORBIDDEN.search("chunk_document(pages, meta, detect_markdown_headings=True)")
    assert _FORBIDDEN.search("spans = detect_markdown_sections(joined.text)")
    assert _FORBIDDEN.search("leads = detect_leads(joined.text, breaks)")
    assert _FORBIDDEN.search("document.in_join(config.page_separator).sections")
    # mapping a flag onto ReadOptions is the reading side's switch, not a decision
    assert not _FORBIDDEN.search("front_matter_metadata=args.front_matter_metadata,")
    assert _FORBIDDEN.search("blank_front_matter(text)")
    assert _FORBIDDEN.search("blank_front_matter(text)")
    assert not _FORBIDDEN.search("split_document(document, metadata, config=config)")
    # The caller's keyword, taken and passed on to the reading side, decides nothing here.
    assert not _FORBIDDEN.search("detect_markdown_headings: bool = False,")
    assert not _FORBIDDEN.search("kind_for_text(source.key, self._markdown)")
    assert not _FORBIDDEN.search("detect_markdown_headings=document.detect_markdown_headings")


def test_a_text_file_is_never_read_as_markdown(
    text_file: Path, minilm: HuggingFaceTokenization
) -> None:
    """Its ``# `` lines stay text: no entry point gives its chunks a section."""
    assert TEXT_FILE.startswith("# ")
    assert all(key[5] == "" for key in engine_keys(text_file, minilm))
    assert all(key[5] == "" for key in _transformer(text_file, minilm, text_file.parent))
