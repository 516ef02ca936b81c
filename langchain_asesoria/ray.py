"""Corpus-scale chunking on Ray Data: a ``Dataset`` of documents to a ``Dataset`` of chunks.

More: ``docs/design/package.md``.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from langchain_asesoria import records
from langchain_asesoria.engine import Tokenization
from langchain_asesoria.errors import (
    AsesoriaError,
    ConfigurationError,
    DocumentChunkingError,
    MissingDependencyError,
)
from langchain_asesoria.models import ChunkingConfig, ChunkMetadata, LoadedPage
from langchain_asesoria.parallel import (
    default_workers,
)
from langchain_asesoria.reading import (
    DocumentPages,
    ReadOptions,
    kind_for_text,
    read_document,
    read_loaded_pages,
    split_document,
)
from langchain_asesoria.records import (
    CHUNK_ID,
    CHUNK_INDEX,
    DOC_ID,
    EMBEDDING_TEXT,
    END_INDEX,
    OVERLAP_TOKENS,
    PAGE,
    PAGE_END,
    SECTION_LABEL,
    SECTION_PATH,
    START_INDEX,
    TEXT,
    TOKEN_COUNT,
    MetadataValue,
    chunk_record,
    file_doc_id,
)

if TYPE_CHECKING:
    import pyarrow
    from ray.data import Dataset


_RAY_EXTRA: Final = "pip install 'langchain-asesoria[ray]'"

_ARROW_TYPES: Final[Mapping[type, str]] = {str: "string", int: "int64"}

#: Output columns and their Arrow types (all nullable), in order: the document's
#: fields (``records.DOCUMENT_FIELD_TYPES``), then the chunk's.
CHUNK_COLUMNS: Final[tuple[tuple[str, str], ...]] = (
    *((name, _ARROW_TYPES[kind]) for name, kind in records.DOCUMENT_FIELD_TYPES.items()),
    *((name, _ARROW_TYPES[kind]) for name, kind in records.LAW_FIELD_TYPES.items()),
    (PAGE, "int64"),
    (PAGE_END, "int64"),
    (CHUNK_INDEX, "int64"),
    (SECTION_LABEL, "string"),
    (SECTION_PATH, "string"),
    *((key, "string") for key in records.SECTION_FIELD_KEYS),
    (START_INDEX, "int64"),
    (END_INDEX, "int64"),
    (TOKEN_COUNT, "int64"),
    (OVERLAP_TOKENS, "int64"),
    (CHUNK_ID, "string"),
    (TEXT, "string"),
    (EMBEDDING_TEXT, "string"),
)


def _import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise MissingDependencyError(
            f"chunk_dataset needs Ray Data ({name!r} is not installed): {_RAY_EXTRA}."
        ) from error


def _document(
    row: Mapping[str, Any], name: str, reading: ReadOptions, markdown: bool
) -> DocumentPages:
    """The document of ``text``, ``pages`` or ``path`` (a file read whole: a PDF with its
    outline sections and without its running headers and footers), read as everywhere."""
    given = [key for key in ("text", "pages", "path") if row.get(key) is not None]
    if len(given) != 1:
        raise ConfigurationError(
            f"a row needs exactly one of 'text', 'pages' or 'path', got {given or 'none'}.",
            doc_id=name,
        )
    if given[0] == "path":
        return read_document(Path(str(row["path"])), reading)
    texts = [row["text"]] if given[0] == "text" else row["pages"]
    pages = [LoadedPage(str(text), number) for number, text in enumerate(texts, 1)]
    return read_loaded_pages(pages, kind_for_text(None, markdown), reading)


def _metadata(row: Mapping[str, Any]) -> ChunkMetadata:
    doc_id = row.get(DOC_ID)
    if doc_id is None and row.get("path") is not None:
        doc_id = file_doc_id(str(row["path"]))
    if not isinstance(doc_id, str):
        raise ConfigurationError(
            f"a document row needs a string 'doc_id' (or a 'path'), got {doc_id!r}; "
            f"its columns are {sorted(row)}."
        )
    optional = (key for key in records.DOCUMENT_FIELDS if key != DOC_ID)
    fields = {key: row[key] for key in optional if row.get(key) is not None}
    return ChunkMetadata(doc_id=doc_id, **fields)


def document_chunk_rows(
    row: Mapping[str, Any],
    *,
    config: ChunkingConfig,
    tokenization: Tokenization,
    reading: ReadOptions | None = None,
    markdown: bool = False,
) -> list[dict[str, MetadataValue]]:
    """The chunk rows of one document row: ``chunk_metadata_record`` + both texts.

    This is what each Ray worker runs; it is also the single-process reference. A
    ``path`` is read with ``read_document(path, reading)``: a PDF's chunks follow its
    outline sections, without running headers and footers, unless ``reading`` says
    otherwise.

    Raises:
        ConfigurationError: a row without ``doc_id``, or without exactly one of
            ``text``, ``pages`` and ``path``.
        AsesoriaError: as ``chunk_document`` and ``reading.read_document``.
        DocumentChunkingError: any other failure, naming the document.
    """
    metadata = _metadata(row)
    try:
        document = _document(row, metadata.doc_id, reading or ReadOptions(), markdown)
        chunks = split_document(document, metadata, config=config, tokenization=tokenization).chunks
    except AsesoriaError:
        raise
    except Exception as error:
        raise DocumentChunkingError(
            f"could not be chunked: {type(error).__name__}: {error}", doc_id=metadata.doc_id
        ) from error
    return [chunk_record(chunk) for chunk in chunks]


def _schema() -> pyarrow.Schema:
    pyarrow = _import("pyarrow")
    types = {"string": pyarrow.string(), "int64": pyarrow.int64()}
    return pyarrow.schema([(name, types[kind]) for name, kind in CHUNK_COLUMNS])


class _ChunkBatches:
    """A Ray actor's callable: the tokenization is loaded in ``__init__``, once."""

    def __init__(
        self,
        config: ChunkingConfig,
        tokenization: Tokenization | None,
        model: str | None,
        max_input_tokens: int | None,
        reading: ReadOptions | None = None,
        markdown: bool = False,
    ) -> None:
        if tokenization is None:
            from langchain_asesoria.tokenization import load_tokenization

            tokenization = load_tokenization(model=model, max_input_tokens=max_input_tokens)
        self._tokenization = tokenization
        self._config = config
        self._reading = reading
        self._markdown = markdown
        self._schema = _schema()

    def __call__(self, batch: pyarrow.Table) -> pyarrow.Table:
        rows: list[dict[str, MetadataValue]] = []
        for row in batch.to_pylist():
            rows += document_chunk_rows(
                row,
                config=self._config,
                tokenization=self._tokenization,
                reading=self._reading,
                markdown=self._markdown,
            )
        columns = {name: [row.get(name) for row in rows] for name, _ in CHUNK_COLUMNS}
        return _import("pyarrow").Table.from_pydict(columns, schema=self._schema)


def chunk_dataset(
    dataset: Dataset,
    *,
    config: ChunkingConfig,
    model: str | None = None,
    max_input_tokens: int | None = None,
    tokenization: Tokenization | None = None,
    concurrency: int | None = None,
    batch_size: int = 4,
    num_cpus: float = 1,
    reading: ReadOptions | None = None,
    markdown: bool = False,
) -> Dataset:
    """Maps a Ray ``Dataset`` of documents to a ``Dataset`` of chunks (lazily, as Ray does).

    Each worker loads the tokenizer once: from ``model`` (as ``load_tokenization``: a
    model name, folder or ``tokenizer.json`` that every worker can reach) or from a
    picklable ``tokenization`` sent to it. Every output row equals the single-process
    ``document_chunk_rows`` of its document. Workers scale from one to ``concurrency``
    and are not restarted: a worker that dies fails the run (chunking would fail the
    same way again).

    Args:
        dataset: One row per document (see the module docstring for the columns).
        config: The chunking configuration.
        model: Where each worker loads the tokenizer from; default ``EMBEDDING_MODEL``.
        max_input_tokens: The model's limit, when its files declare none.
        tokenization: An already loaded tokenization instead of ``model``.
        concurrency: At most this many workers (Ray actors); default: the cluster's
            CPUs.
        batch_size: Documents per call of a worker.
        num_cpus: CPUs reserved per worker.
        reading: How ``path`` rows are read (default ``ReadOptions()``: a PDF's outline
            sections on, its running headers and footers removed).
        markdown: Read ``text`` and ``pages`` rows as Markdown (default: plain text).

    Raises:
        MissingDependencyError: Ray Data is not installed (the ``ray`` extra).
        ConfigurationError: both ``model`` and ``tokenization``, a bad ``batch_size``, or
            ``reading.front_matter_metadata`` (the columns are fixed: no ``fm_<key>``).
        TokenizerLoadError: ``model`` is only on the Hugging Face Hub and the Hub cannot
            be reached (checked here, before any worker starts).
    """
    if reading is not None and reading.front_matter_metadata:
        # Never left out in silence: every fm_<key> would be, kept or not.
        raise ConfigurationError(
            "chunk_dataset's columns are fixed (ray.CHUNK_COLUMNS) and hold no front "
            "matter fields: ReadOptions(front_matter_metadata=True) would lose every one. "
            "Use parallel.read_and_chunk or asesoria-split --front-matter-metadata, or "
            "leave front_matter_metadata off.",
            expected="ReadOptions(front_matter_metadata=False)",
        )
    ray = _import("ray")
    _import("ray.data")
    if model is not None and tokenization is not None:
        raise ConfigurationError("pass model or tokenization to chunk_dataset, not both.")
    if tokenization is None:
        from langchain_asesoria.settings import get_settings
        from langchain_asesoria.tokenization import check_model_available

        check_model_available(model or get_settings().embedding_model)
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ConfigurationError(f"batch_size must be a positive integer, got {batch_size!r}.")
    if concurrency is None:
        cpus = ray.cluster_resources().get("CPU", 1) if ray.is_initialized() else default_workers()
        concurrency = max(int(cpus // max(num_cpus, 1e-9)), 1)
    with warnings.catch_warnings():
        # Ray 2.60 deprecates passing actor options such as max_restarts this way, names
        # no replacement for it, and removes the way in 2.64 (the ray extra stops below).
        warnings.filterwarnings("ignore", "`ray_remote_args` is deprecated", DeprecationWarning)
        result: Dataset = dataset.map_batches(
            _ChunkBatches,
            batch_format="pyarrow",
            batch_size=batch_size,
            fn_constructor_kwargs={
                "config": config,
                "tokenization": tokenization,
                "model": model,
                "max_input_tokens": max_input_tokens,
                "reading": reading,
                "markdown": markdown,
            },
            compute=ray.data.ActorPoolStrategy(min_size=1, max_size=concurrency),
            num_cpus=num_cpus,
            # Chunking is deterministic: a worker that died would die again. Actors that
            # may restart also make Ray log an error-level line on every successful run.
            max_restarts=0,
        )
    return result
