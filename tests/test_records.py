"""Flat chunk records: document fields, the chunk's own fields, its id; default doc ids."""

from __future__ import annotations

import pytest

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
from langchain_asesoria.records import (
    CHUNK_ID,
    DOCUMENT_FIELDS,
    chunk_fields,
    chunk_id,
    chunk_metadata_record,
    chunk_record,
    default_doc_id,
)
from langchain_asesoria.testing import WordTokenization


@pytest.mark.parametrize(
    ("source", "doc_id"),
    [
        ("manual.pdf", "manual"),
        ("docs/2023/manual.pdf", "manual"),
        ("BOE-A-1991-14392.md", "BOE-A-1991-14392"),
        ("ley.tar.gz", "ley.tar"),
        ("sin-extension", "sin-extension"),
        ("https://www.boe.es/buscar/act.php", "act"),
        ("carpeta/", "carpeta"),
        ("/", "/"),
    ],
)
def test_the_default_doc_id_is_the_file_name_without_extension(source: str, doc_id: str) -> None:
    assert default_doc_id(source) == doc_id


def test_a_record_is_the_document_fields_then_the_chunk_fields_then_the_id() -> None:
    metadata = ChunkMetadata(doc_id="ley", tax="IP", fiscal_year=2023)
    pages = [LoadedPage("# Ley\n\n" + "Texto del artículo. " * 20, 1)]
    config = ChunkingConfig(24, 4)
    chunks = chunk_document(
        pages,
        metadata,
        config=config,
        tokenization=WordTokenization(512),
        detect_markdown_headings=True,
    )
    assert len(chunks) > 1
    for chunk in chunks:
        fields = chunk_fields(chunk)
        record = chunk_metadata_record(chunk)
        assert not set(fields) & {*DOCUMENT_FIELDS, CHUNK_ID}
        assert list(record) == [
            *(key for key in record if key in DOCUMENT_FIELDS),
            *fields,
            CHUNK_ID,
        ]
        assert {key: record[key] for key in fields} == fields
        assert record[CHUNK_ID] == chunk_id(chunk)
        assert chunk_record(chunk, "ley.md")["source"] == "ley.md"
