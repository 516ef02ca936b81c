"""Flat chunk records: document fields, the chunk's own fields, its id; default doc ids;
a section path as fields a level and a legal unit."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
from langchain_asesoria.records import (
    CHUNK_ID,
    DOCUMENT_FIELDS,
    LEGAL_UNIT_FIELDS,
    LEGAL_UNIT_TITLE_SUFFIX,
    MAX_SECTION_LEVELS,
    SECTION_FIELD_KEYS,
    SECTION_LABEL,
    SECTION_PATH,
    chunk_fields,
    chunk_id,
    chunk_metadata_record,
    chunk_record,
    file_doc_id,
    level_fields,
)
from langchain_asesoria.structure.legal_grammar import printed_label
from langchain_asesoria.testing import WordTokenization


@pytest.mark.parametrize(
    ("source", "doc_id"),
    [
        ("manual.pdf", "manual.pdf"),
        ("docs/2023/manual.pdf", "manual.pdf"),
        ("BOE-A-1991-14392.md", "BOE-A-1991-14392.md"),
        ("ley.tar.gz", "ley.tar.gz"),
        ("sin-extension", "sin-extension"),
        ("https://www.boe.es/buscar/act.php", "act.php"),
        ("carpeta/", "carpeta"),
        ("/", "/"),
    ],
)
def test_the_default_doc_id_is_the_file_name_with_its_extension(source: str, doc_id: str) -> None:
    assert file_doc_id(source) == doc_id


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


LAW = "Ley 49/2002, de 23 de diciembre, de régimen fiscal de las entidades sin fines lucrativos"


@pytest.mark.parametrize(
    ("path", "units"),
    [
        ((), {}),
        (("Introducción", "Ejemplo 3"), {}),
        (
            (LAW, "TÍTULO II. Régimen fiscal", "CAPÍTULO I. Entidades", "Artículo 20. Deducción"),
            {"titulo": "TÍTULO II", "capitulo": "CAPÍTULO I", "articulo": "Artículo 20"},
        ),
        (
            (LAW, "*Sección 1.ª* Infracciones", "Subsección 2.ª Rendimientos", "Art. 5. Objeto"),
            {"seccion": "Sección 1.ª", "subseccion": "Subsección 2.ª", "articulo": "Art. 5"},
        ),
        (
            (LAW, "[Disposiciones finales]", "Disposición final quinta. Entrada en vigor."),
            {"disposicion": "Disposición final quinta"},
        ),
        (
            ("Código Civil", "LIBRO PRIMERO. De las personas", "Disposición preliminar"),
            {
                "libro": "LIBRO PRIMERO",
                "disposicion": "Disposición preliminar",
            },
        ),
        ((LAW, "ANEXO. Normas de diligencia debida"), {"anexo": "ANEXO"}),
        ((LAW, "EXPOSICIÓN DE MOTIVOS"), {}),  # no unit field: section_2 holds it
        # a unit twice in one path: the innermost
        ((LAW, "ANEXO I", "ANEXO I.A. Tablas"), {"anexo": "ANEXO I.A"}),
    ],
)
def test_a_path_gives_a_field_a_level_and_a_field_a_legal_unit(
    path: tuple[str, ...], units: dict[str, str]
) -> None:
    fields = level_fields(path)
    assert [fields[f"section_{level}"] for level in range(1, len(path) + 1)] == list(path)
    assert {key: fields[key] for key in LEGAL_UNIT_FIELDS.values() if key in fields} == units
    titles = {key: value for key, value in fields.items() if key.endswith(LEGAL_UNIT_TITLE_SUFFIX)}
    assert set(titles) == {key + LEGAL_UNIT_TITLE_SUFFIX for key in units}
    for key, label in units.items():
        title = titles[key + LEGAL_UNIT_TITLE_SUFFIX]
        assert title in path
        assert printed_label(title) is not None
        assert title.replace("*", "").startswith(label)


#: Headings of every unit of ``LEGAL_UNIT_FIELDS``, and some that open no unit.
HEADINGS = (
    "LIBRO II",
    "TÍTULO II. Régimen fiscal",
    "CAPITULO V. Base liquidable",
    "Sección 2.ª",
    "Subsección 1.ª Rendimientos",
    "Artículo 20. Base liquidable.",
    "Art. 5 bis",
    "Disposición adicional primera",
    "Disposición preliminar",
    "ANEXO IV.a",
    "Anexo",
    "[Disposiciones finales]",
    "PREÁMBULO",
    "Títulos valores",
    "el artículo 5 de esta Ley",
)
ELEMENTS = st.one_of(st.text(min_size=1, max_size=30), st.sampled_from(HEADINGS))


@given(st.lists(ELEMENTS, max_size=MAX_SECTION_LEVELS + 4))
def test_the_section_fields_are_the_path_a_level_and_a_fixed_key_set(path: list[str]) -> None:
    fields = level_fields(path)
    assert set(fields) <= set(SECTION_FIELD_KEYS)
    levels = [fields.get(f"section_{level}") for level in range(1, MAX_SECTION_LEVELS + 1)]
    assert levels == path[:MAX_SECTION_LEVELS] + [None] * (MAX_SECTION_LEVELS - len(path))
    assert all(isinstance(value, str) for value in fields.values())
    innermost: dict[str, tuple[str, str]] = {}
    for element in path:
        found = printed_label(element)
        if found is not None and found[0].name in LEGAL_UNIT_FIELDS:
            innermost[LEGAL_UNIT_FIELDS[found[0].name]] = (found[1], element)
    assert {
        field: (fields[field], fields[field + LEGAL_UNIT_TITLE_SUFFIX])
        for field in set(LEGAL_UNIT_FIELDS.values()) & set(fields)
    } == innermost


def test_every_chunk_has_its_section_keys_empty_outside_any_section() -> None:
    pages = [LoadedPage("Texto antes de todo. " * 10 + "\n\n# Ley\n\n## TÍTULO I\n\nTexto.", 1)]
    chunks = chunk_document(
        pages,
        ChunkMetadata(doc_id="ley"),
        config=ChunkingConfig(24, 0),
        tokenization=WordTokenization(512),
        detect_markdown_headings=True,
    )
    records = [chunk_metadata_record(chunk) for chunk in chunks]
    assert (records[0][SECTION_LABEL], records[0][SECTION_PATH]) == ("", "")
    assert "section_1" not in records[0]
    assert records[-1][SECTION_PATH] == "Ley > TÍTULO I"
    assert (records[-1]["section_1"], records[-1]["titulo"]) == ("Ley", "TÍTULO I")
