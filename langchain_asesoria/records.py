"""Chunks as flat, vector-store-safe records with stable ids (shared by every adapter).

Values are ``str``, ``int``, ``float`` or ``bool`` only: no ``None`` (Chroma drops it
silently), no lists or dicts (Chroma rejects them). A missing optional field is left
out of the record, except ``section_label`` and ``section_path`` (``""`` outside any
section); a section path is joined with ``SECTION_PATH_SEPARATOR`` and also written one
field a level (``section_1``...) and one a legal unit (``titulo``, ``articulo``...), so
that a vector store filters by any ancestor with equality (``level_fields``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import PurePath
from typing import Final

from langchain_asesoria.models import Chunk
from langchain_asesoria.store_values import MetadataValue

__all__ = [
    "AMENDED_BY",
    "AMENDMENT_PUBLISHED",
    "BLOCK_ID",
    "BLOCK_TYPE",
    "BOE_ID",
    "CHUNK_ID",
    "CHUNK_INDEX",
    "DOCUMENT_FIELDS",
    "DOCUMENT_FIELD_TYPES",
    "DOC_ID",
    "DOC_TYPE",
    "ELI",
    "EMBEDDING_TEXT",
    "END_INDEX",
    "FISCAL_YEAR",
    "LAST_UPDATED",
    "LAW_FIELD_TYPES",
    "LEGAL_UNIT_FIELDS",
    "LEGAL_UNIT_TITLE_SUFFIX",
    "MAX_SECTION_LEVELS",
    "NORM_ID",
    "OPEN_END_DAY",
    "OVERLAP_TOKENS",
    "PAGE",
    "PAGE_END",
    "PARENT_ID",
    "SECTION_FIELD_KEYS",
    "SECTION_LABEL",
    "SECTION_LEVEL_PREFIX",
    "SECTION_PATH",
    "SECTION_PATH_SEPARATOR",
    "SESSION_ID",
    "SOURCE",
    "SOURCE_SCOPE",
    "START_INDEX",
    "STATUS",
    "TAX",
    "TEXT",
    "TOKEN_COUNT",
    "URL",
    "VALID_FROM",
    "VALID_FROM_DAY",
    "VALID_TO",
    "VALID_TO_DAY",
    "VERSION_ID",
    "VIGENCIA",
    "MetadataValue",
    "chunk_fields",
    "chunk_id",
    "chunk_metadata_record",
    "chunk_record",
    "chunk_records",
    "file_doc_id",
    "level_fields",
    "section_level_key",
]


DOC_ID: Final = "doc_id"
DOC_TYPE: Final = "doc_type"
TAX: Final = "tax"
FISCAL_YEAR: Final = "fiscal_year"
SOURCE_SCOPE: Final = "source_scope"
SESSION_ID: Final = "session_id"
VIGENCIA: Final = "vigencia"
PAGE: Final = "page"
PAGE_END: Final = "page_end"
CHUNK_INDEX: Final = "chunk_index"
SECTION_LABEL: Final = "section_label"
SECTION_PATH: Final = "section_path"
START_INDEX: Final = "start_index"
END_INDEX: Final = "end_index"
TOKEN_COUNT: Final = "token_count"
OVERLAP_TOKENS: Final = "overlap_tokens"
CHUNK_ID: Final = "chunk_id"
#: The id of the parent a chunk belongs to (``langchain_asesoria.parents``).
PARENT_ID: Final = "parent_id"
TEXT: Final = "text"
EMBEDDING_TEXT: Final = "embedding_text"
SOURCE: Final = "source"

#: ``ChunkMetadata``'s document-level fields (set once per document, copied into every
#: chunk) and their types: what loaders, sidecars and dataset rows may set.
DOCUMENT_FIELD_TYPES: Final[Mapping[str, type]] = {
    DOC_ID: str,
    DOC_TYPE: str,
    TAX: str,
    FISCAL_YEAR: int,
    SOURCE_SCOPE: str,
    SESSION_ID: str,
    VIGENCIA: str,
}
DOCUMENT_FIELDS: Final = tuple(DOCUMENT_FIELD_TYPES)

SECTION_PATH_SEPARATOR: Final = " > "

#: A section path one field a level, as LangChain's ``MarkdownHeaderTextSplitter`` writes
#: one key a heading level: ``section_1`` the outermost element (a law's title), then
#: ``section_2``... down to the chunk's own section, each the path element as it is.
SECTION_LEVEL_PREFIX: Final = "section_"
#: The deepest level written as a field of its own (shared corpus: 7 at most); deeper
#: elements are in ``section_path`` only, so that the fields are a fixed set (Ray's
#: columns).
MAX_SECTION_LEVELS: Final = 12
#: The legal units written as fields of their own: the grammar's unit name
#: (``structure.legal_grammar.UNITS``) -> the field, which holds the unit's label as the
#: law prints it ("TÍTULO II", "Artículo 20", "Disposición final quinta"); the field
#: with ``LEGAL_UNIT_TITLE_SUFFIX`` holds the whole path element ("TÍTULO II. De las
#: rentas exentas"). A unit twice in one path: the innermost.
LEGAL_UNIT_FIELDS: Final[Mapping[str, str]] = {
    "libro": "libro",
    "título": "titulo",
    "capítulo": "capitulo",
    "sección": "seccion",
    "subsección": "subseccion",
    "artículo": "articulo",
    "disposición": "disposicion",
    "disposición preliminar": "disposicion",
    "anexo": "anexo",
}
LEGAL_UNIT_TITLE_SUFFIX: Final = "_title"

# A law's provenance (a BOE consolidated law read from its XML: ``boe_xml``; a Markdown
# law's front matter: ``structure.front_matter.law_fields``). The law's:
#: Its BOE identifier ("BOE-A-2003-23514").
NORM_ID: Final = "norm_id"
#: What a BOE identifier looks like: the diary, the section, the year, a number.
BOE_ID: Final = re.compile(r"[A-Z]+-[A-Z]-\d{4}-\d+")
#: ``"in_force"`` or ``"repealed"``, as the law's metadata says.
STATUS: Final = "status"
#: The day the BOE last updated its consolidated text (ISO date).
LAST_UPDATED: Final = "last_updated"
#: Its European Legislation Identifier ("https://www.boe.es/eli/es/rd/2003/11/21/1428").
ELI: Final = "eli"
# Each wording's (a chunk holds one wording of one block):
#: The BOE page of the law anchored at the chunk's block (``act.php?id=...#a48``).
URL: Final = "url"
#: The block's id in the BOE's XML and the anchor of its page ("a48").
BLOCK_ID: Final = "block_id"
#: The block's type as the XML names it ("precepto", "encabezado", "preambulo"...).
BLOCK_TYPE: Final = "block_type"
#: The wording's own id, stable across runs, other for every wording ("a48@20190129").
VERSION_ID: Final = "version_id"
#: The first day the wording applies (ISO date; the BOE's ``fecha_vigencia``).
VALID_FROM: Final = "valid_from"
#: The first day it no longer applies (ISO date, exclusive); absent while it has no end.
VALID_TO: Final = "valid_to"
#: ``VALID_FROM`` as a number, YYYYMMDD (vector stores compare numbers: ``$lte``).
VALID_FROM_DAY: Final = "valid_from_day"
#: ``VALID_TO`` as a number, YYYYMMDD, and ``OPEN_END_DAY`` while the wording has no end,
#: so that ``valid_from_day <= D < valid_to_day`` selects the wordings in force on day D.
VALID_TO_DAY: Final = "valid_to_day"
#: The ``VALID_TO_DAY`` of a wording with no end yet: 31 December 9999.
OPEN_END_DAY: Final = 99991231
#: The act that gave the wording (the version's ``id_norma``, "BOE-A-2018-18002").
AMENDED_BY: Final = "amended_by"
#: The day that act was published in the BOE (ISO date; ``fecha_publicacion``).
AMENDMENT_PUBLISHED: Final = "amendment_published"

#: A law's provenance keys and their value types, as a chunk carries them when its law
#: gives them (a BOE law's XML, a consolidated web page, a Markdown law's front matter).
LAW_FIELD_TYPES: Final[Mapping[str, type]] = {
    NORM_ID: str,
    STATUS: str,
    LAST_UPDATED: str,
    ELI: str,
    URL: str,
    BLOCK_ID: str,
    BLOCK_TYPE: str,
    VERSION_ID: str,
    VALID_FROM: str,
    VALID_TO: str,
    VALID_FROM_DAY: int,
    VALID_TO_DAY: int,
    AMENDED_BY: str,
    AMENDMENT_PUBLISHED: str,
}


def file_doc_id(path: str) -> str:
    """The ``doc_id`` of a file when none is given: its name, extension kept
    (``docs/manual.pdf`` gives ``manual.pdf``), as ``asesoria-split`` names a file given
    alone (``cli.inputs.doc_id_paths``). Every entry point uses it: the LangChain classes
    for a loader's ``source``, ``parallel.read_and_chunk`` and ``ray.chunk_dataset``'s
    path rows, so that one file gives the same chunk ids everywhere. A name with no file
    name part is kept as it is."""
    return PurePath(path).name or path


def section_level_key(level: int) -> str:
    """The field of a section path's ``level``-th element, from 1: ``section_1``..."""
    return f"{SECTION_LEVEL_PREFIX}{level}"


#: Every key ``level_fields`` may write (all ``str``): the levels, then each legal
#: unit's label and title fields (``libro``, ``libro_title``, ``titulo``...).
SECTION_FIELD_KEYS: Final = (
    *(section_level_key(level) for level in range(1, MAX_SECTION_LEVELS + 1)),
    *(
        key
        for field in dict.fromkeys(LEGAL_UNIT_FIELDS.values())
        for key in (field, field + LEGAL_UNIT_TITLE_SUFFIX)
    ),
)


def _unit_fields(element: str) -> tuple[tuple[str, str], ...]:
    """The legal unit fields of one path element: none, or its label and its title."""
    # The grammar loads with the first record (its patterns take a third of a second to
    # compile), not with ``import langchain_asesoria``; reading a law has loaded it, and
    # its ``label_of`` keeps the titles it has read.
    from langchain_asesoria.structure.legal_grammar import printed_label

    found = printed_label(element)
    field = None if found is None else LEGAL_UNIT_FIELDS.get(found[0].name)
    if found is None or field is None:
        return ()
    return (field, found[1]), (field + LEGAL_UNIT_TITLE_SUFFIX, element)


def level_fields(path: Sequence[str]) -> dict[str, str]:
    """A section path as fields a vector store filters by equality.

    ``section_1`` ... ``section_n`` (``section_level_key``; at most
    ``MAX_SECTION_LEVELS``) hold the path's elements from the outermost; then, for each
    element the legal grammar reads as a unit of ``LEGAL_UNIT_FIELDS``, its label and its
    title (``titulo``: ``"TÍTULO II"``, ``titulo_title``: ``"TÍTULO II. De las
    rentas"``), in path order, so that a unit twice in a path keeps the innermost.
    """
    fields = {
        section_level_key(level): element
        for level, element in enumerate(path[:MAX_SECTION_LEVELS], 1)
    }
    for element in path:
        fields.update(_unit_fields(element))
    return fields


def chunk_id(chunk: Chunk) -> str:
    """A stable id: the same document, span and model input give the same id.

    Re-indexing unchanged input is therefore an upsert, never a duplicate; a changed
    chunk (other text, model prefix or context) gets a new id.
    """
    digest = hashlib.sha256()
    for part in (chunk.metadata.doc_id, str(chunk.start), str(chunk.end), chunk.embedding_text):
        digest.update(part.encode("utf-8"))
        digest.update(b"\x00")
    return digest.hexdigest()[:32]


def chunk_fields(chunk: Chunk) -> dict[str, MetadataValue]:
    """The chunk's own provenance, without the document fields and the chunk id.

    Keys: ``page``, ``page_end`` and ``chunk_index`` (when set), ``section_label`` and
    ``section_path`` (always; ``""`` outside any section), the path's ``level_fields``
    (``section_1``..., ``titulo``...), ``start_index``/``end_index`` (offsets in the
    joined text), ``token_count`` and ``overlap_tokens``.
    """
    meta = chunk.metadata
    optional: dict[str, MetadataValue | None] = {
        PAGE: meta.page,
        PAGE_END: meta.page_end,
        CHUNK_INDEX: meta.chunk_index,
    }
    fields: dict[str, MetadataValue] = {
        key: value for key, value in optional.items() if value is not None
    }
    fields[SECTION_LABEL] = meta.section_label or ""
    fields[SECTION_PATH] = SECTION_PATH_SEPARATOR.join(meta.section_path)
    fields.update(level_fields(meta.section_path))
    fields.update(
        {
            START_INDEX: chunk.start,
            END_INDEX: chunk.end,
            TOKEN_COUNT: chunk.token_count,
            OVERLAP_TOKENS: chunk.overlap_tokens,
        }
    )
    return fields


def chunk_metadata_record(chunk: Chunk) -> dict[str, MetadataValue]:
    """The chunk's provenance and document fields as a flat, vector-store-safe dict.

    Keys: the document fields that are set, the ``extra`` ones (``fm_status``...), the
    section's own (``section_fields``: they win over a document field of the same key),
    then ``chunk_fields`` and ``chunk_id``. The texts themselves are not included.
    """
    meta = chunk.metadata
    record: dict[str, MetadataValue] = {DOC_ID: meta.doc_id, DOC_TYPE: meta.doc_type}
    optional: dict[str, MetadataValue | None] = {
        TAX: meta.tax,
        FISCAL_YEAR: meta.fiscal_year,
        SOURCE_SCOPE: meta.source_scope,
        SESSION_ID: meta.session_id,
        VIGENCIA: meta.vigencia,
    }
    record.update({key: value for key, value in optional.items() if value is not None})
    record.update({key: value for key, value in meta.extra if key not in record})
    record.update(meta.section_fields)
    record.update(chunk_fields(chunk))
    record[CHUNK_ID] = chunk_id(chunk)
    return record


def chunk_record(chunk: Chunk, source: str | None = None) -> dict[str, MetadataValue]:
    """``chunk_metadata_record`` plus the ``source`` (when given) and both texts."""
    record = chunk_metadata_record(chunk)
    if source is not None:
        record[SOURCE] = source
    record[TEXT] = chunk.text
    record[EMBEDDING_TEXT] = chunk.embedding_text
    return record


def chunk_records(
    chunks: Sequence[Chunk], parent_ids: Sequence[str] | None, source: str
) -> Iterator[dict[str, MetadataValue]]:
    """The chunks as flat records (``chunk_record``), each with its ``parent_id`` when
    there are parents (``parent_ids[i]`` is ``chunks[i]``'s)."""
    if parent_ids is None:
        yield from (chunk_record(chunk, source) for chunk in chunks)
        return
    for chunk, owner in zip(chunks, parent_ids, strict=True):
        yield chunk_record(chunk, source) | {PARENT_ID: owner}
