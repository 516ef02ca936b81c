"""Chunks as LangChain ``Document``s, and the way back to citations.

The one convention of ``AsesoriaTextSplitter`` and ``AsesoriaDocumentTransformer``
(``docs/guides/conventions.md``): at the default level, for every document ``d`` of a
chunk ``c``, ``original_text(d) == c.text and d.page_content == c.embedding_text``; pages
are 1-based; ``Document.id`` is the stable ``chunk_id``; every metadata value is a
``str``, ``int``, ``float`` or ``bool`` (never ``None``, lists or dicts).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Final, Literal, cast, get_args

from langchain_core.documents import Document

from langchain_asesoria.engine import check_budget
from langchain_asesoria.errors import AsesoriaError, ConfigurationError
from langchain_asesoria.langchain.page_structure import REPORT_KEYS, STRUCTURE_KEYS, report_keys
from langchain_asesoria.langchain.sources import Source, SourceReader
from langchain_asesoria.models import Chunk, ChunkingConfig, ChunkMetadata
from langchain_asesoria.records import (
    CHUNK_ID,
    DOC_ID,
    EMBEDDING_TEXT,
    END_INDEX,
    PAGE,
    PAGE_END,
    SECTION_PATH,
    START_INDEX,
    TEXT,
    MetadataValue,
    chunk_metadata_record,
)
from langchain_asesoria.store_values import LeftOutTally, left_out_metadata, scalar_metadata
from langchain_asesoria.tokenization import Tokenization

if TYPE_CHECKING:  # the reading stage loads with the first source read (``sources``)
    from langchain_asesoria.reading import DocumentPages

#: Which chunk text becomes ``Document.page_content``: the original ``"text"`` (what a
#: LangChain splitter returns) or the ``"embedding_text"`` (what the embedder must get:
#: ``vector_store.add_documents`` embeds ``page_content``).
PageContent = Literal["text", "embedding_text"]

#: The default of both classes: what the AsesorIA chunking specification asks the
#: embedder to consume, so ``add_documents(split_documents(docs))`` keeps the promise.
DEFAULT_PAGE_CONTENT: Final[PageContent] = "embedding_text"

#: Which keys of ours a chunk ``Document`` gets, besides its input's metadata:
#: ``"lean"`` none (LangChain's own output: the splitter adds only ``start_index``, with
#: ``add_start_index=True``, and ``Document.id`` stays ``None``); ``"cite"`` the
#: provenance record (pages, offsets, section, chunk index and id, token counts,
#: document fields) and the other text only when it differs from ``page_content``;
#: ``"full"`` the record and both ``text`` and ``embedding_text`` always.
MetadataLevel = Literal["lean", "cite", "full"]

#: The default of both classes: enough to cite, no text stored twice.
DEFAULT_METADATA_LEVEL: Final[MetadataLevel] = "cite"

#: What to do with one document that cannot be chunked (its section context cannot fit,
#: a character cannot fit, private without a session id...): ``"raise"`` the error and
#: stop, or ``"skip"`` it: it gives no chunks and a warning naming it and the error is
#: logged on the ``langchain_asesoria`` logger, while the other documents are chunked.
OnError = Literal["raise", "skip"]

#: The label a PDF prints on the chunk's first and last page (PDF loaders' ``page_label``).
PAGE_LABEL: Final = "page_label"
PAGE_LABEL_END: Final = "page_label_end"

#: page_content mode -> (metadata key of the *other* text).
_OTHER_KEY: Final[dict[str, str]] = {"text": EMBEDDING_TEXT, "embedding_text": TEXT}

#: What a PDF loader copies from the file's document information about the software that
#: made it, not what the file says (PyPDFLoader's ``producer``, ``creator``, ``trapped``):
#: left out of a loader's PDF chunks except at ``"lean"`` (LangChain's own output).
PDF_SOFTWARE_KEYS: Final = frozenset({"producer", "creator", "trapped"})

#: The offsets ``add_start_index=False`` leaves out, as LangChain's splitters do.
OFFSET_KEYS: Final = frozenset({START_INDEX, END_INDEX})


_LOGGER: Final = logging.getLogger("langchain_asesoria")

#: The field names of ``ChunkingConfig``.
CONFIG_FIELDS: Final = frozenset(field.name for field in fields(ChunkingConfig))


def config_options(kwargs: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``kwargs`` split into ``ChunkingConfig`` fields and the other keywords."""
    options = {key: value for key, value in kwargs.items() if key in CONFIG_FIELDS}
    rest = {key: value for key, value in kwargs.items() if key not in CONFIG_FIELDS}
    return options, rest


class ChunkingComponent:
    """What the splitter and the transformer share: tokenizer, config, text mode, errors,
    and the one pipeline: documents -> ``Source`` -> read once (``SourceReader``) ->
    chunked (whole, or each page apart) -> chunk ``Document``s."""

    _tokenization: Tokenization
    _config: ChunkingConfig
    _page_content: PageContent
    _metadata_level: MetadataLevel
    _on_error: OnError
    _reader: SourceReader

    def _bind(
        self,
        tokenization: Tokenization,
        config: ChunkingConfig,
        page_content: str,
        on_error: str = "raise",
        metadata_level: str = DEFAULT_METADATA_LEVEL,
    ) -> None:
        """Checks and keeps the five (``check_budget``, ``check_page_content``...)."""
        if not isinstance(config, ChunkingConfig):
            raise ConfigurationError(
                f"config must be a ChunkingConfig, got {type(config).__name__} {config!r}: "
                "pass ChunkingConfig(max_tokens=..., overlap_tokens=...), or the keywords "
                "chunk_size=... and chunk_overlap=....",
                expected="a ChunkingConfig",
            )
        check_budget(config, tokenization)
        self._tokenization = tokenization
        self._config = config
        self._page_content = check_page_content(page_content)
        self._on_error = check_on_error(on_error)
        self._metadata_level = check_metadata_level(metadata_level)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(tokenization={self._tokenization.name!r}, "
            f"max_tokens={self._config.max_tokens}, overlap_tokens={self._config.overlap_tokens}, "
            f"page_content={self._page_content!r}, metadata_level={self._metadata_level!r}, "
            f"on_error={self._on_error!r})"
        )

    def _chunks(self, document: DocumentPages, metadata: ChunkMetadata) -> Iterator[Chunk]:
        """The chunks of a document as read, built one at a time."""
        from langchain_asesoria.reading import iter_document_chunks

        return iter_document_chunks(
            document, metadata, config=self._config, tokenization=self._tokenization
        )

    def _page_metadata(
        self, source: Source, document: DocumentPages, left_out: LeftOutTally
    ) -> tuple[Mapping[Any, Any], ...]:
        """Each page's input metadata, in page order; a loader's PDF pages with what their
        reading had (``page_structure.report_keys``). What no chunk keeps is counted in
        the run's ``left_out`` (``tally_left_out``), told when the run ends."""
        tally_left_out(source, document, left_out)
        if not source.loaded_pdf:
            return source.page_metadata
        report = report_keys(document)
        return tuple({**metadata, **report} for metadata in source.page_metadata)

    def _input_metadata(
        self, source: Source, first: Mapping[Any, Any], last: Mapping[Any, Any]
    ) -> dict[str, MetadataValue]:
        """The input metadata a chunk of ``source`` keeps (``input_metadata``), from the
        metadata of its first and last pages (``_page_metadata``)."""
        key = None if source.key is None else (self._reader.source_key, source.key)
        if source.loaded_pdf and self._metadata_level != "lean":
            first = {k: v for k, v in first.items() if k not in PDF_SOFTWARE_KEYS}
        return input_metadata(first, last, self._reader.page_key, self._metadata_level, key)

    def _skipped(self, name: str, error: AsesoriaError) -> None:
        """Raises ``error`` with ``on_error="raise"``; else logs that ``name`` was skipped."""
        if self._on_error == "raise":
            raise error
        _LOGGER.warning(
            "skipped document %r, which gives no chunks (on_error='skip'): %s", name, error
        )

    @property
    def tokenization(self) -> Tokenization:
        """The tokenizer that counts and prepares the model input."""
        return self._tokenization

    @property
    def config(self) -> ChunkingConfig:
        """The chunking configuration."""
        return self._config

    @property
    def page_content(self) -> PageContent:
        """Which chunk text ``page_content`` holds."""
        return self._page_content

    @property
    def metadata_level(self) -> MetadataLevel:
        """Which keys of ours chunk documents get (``MetadataLevel``)."""
        return self._metadata_level

    @property
    def on_error(self) -> OnError:
        """What happens to a document that cannot be chunked (``OnError``)."""
        return self._on_error


def _one_of(value: object, allowed: tuple[str, ...], name: str, hint: str) -> str:
    """``value`` when it is one of ``allowed``; else a ``ConfigurationError`` naming both."""
    if isinstance(value, str) and value in allowed:
        return value
    choices = " or ".join(repr(choice) for choice in allowed)
    raise ConfigurationError(f"{name} must be {choices}, got {value!r}: {hint}.", expected=choices)


def check_on_error(mode: str) -> OnError:
    """Returns ``mode`` when it is an ``OnError`` value.

    Raises:
        ConfigurationError: any other value.
    """
    hint = "'skip' leaves out a document that cannot be chunked, with a logged warning"
    return cast(OnError, _one_of(mode, get_args(OnError), "on_error", hint))


def check_page_content(mode: str) -> PageContent:
    """Returns ``mode`` when it is a ``PageContent`` value.

    Raises:
        ConfigurationError: any other value.
    """
    hint = (
        "'embedding_text' makes vector_store.add_documents embed exactly what the model "
        "must receive"
    )
    return cast(PageContent, _one_of(mode, get_args(PageContent), "page_content", hint))


def check_metadata_level(level: str) -> MetadataLevel:
    """Returns ``level`` when it is a ``MetadataLevel`` value.

    Raises:
        ConfigurationError: any other value.
    """
    hint = (
        "'cite' keeps what a citation needs, 'full' adds both texts, 'lean' only what "
        "LangChain's own splitters add"
    )
    return cast(MetadataLevel, _one_of(level, get_args(MetadataLevel), "metadata_level", hint))


def chunk_texts(
    chunk: Chunk, mode: PageContent, level: MetadataLevel = DEFAULT_METADATA_LEVEL
) -> tuple[str, dict[str, MetadataValue]]:
    """``(page_content, {key: text})``: the texts kept in metadata for a mode and level.

    ``"full"`` keeps both texts; ``"lean"`` none; ``"cite"`` the other text, except the
    original when it is the same string as the embedding text in ``page_content``
    (``original_text`` then reads ``page_content``): no text is stored twice. A
    consumer who chose ``"text"`` always finds the model input at ``embedding_text``.
    """
    content, other = (
        (chunk.text, chunk.embedding_text) if mode == "text" else (chunk.embedding_text, chunk.text)
    )
    if level == "full":
        return content, {TEXT: chunk.text, EMBEDDING_TEXT: chunk.embedding_text}
    if level == "lean" or (mode == "embedding_text" and other == content):
        return content, {}
    return content, {_OTHER_KEY[mode]: other}


def chunk_document_metadata(
    chunk: Chunk, mode: PageContent, level: MetadataLevel, *, offsets: bool = True
) -> dict[str, MetadataValue]:
    """The keys of ours a chunk's ``Document`` gets at ``level`` (none at ``"lean"``).

    ``"cite"`` and ``"full"``: ``chunk_metadata_record`` (document fields, pages,
    offsets unless ``offsets=False``, section, chunk index and id, token counts) and
    the other text as ``chunk_texts`` decides.
    """
    if level == "lean":
        return {}
    record = chunk_metadata_record(chunk)
    if not offsets:
        record = {key: value for key, value in record.items() if key not in OFFSET_KEYS}
    record.update(chunk_texts(chunk, mode, level)[1])
    return record


def document_id(metadata: Mapping[str, Any], level: MetadataLevel) -> str | None:
    """``Document.id``: the chunk id, except at ``"lean"`` (LangChain's ``None``)."""
    if level == "lean":
        return None
    return str(metadata[CHUNK_ID])


def loader_metadata(
    first: Mapping[Any, Any], last: Mapping[Any, Any], page_key: str
) -> dict[Any, Any]:
    """The first page's metadata with the loader's page number taken out.

    The loader's ``page_key`` gives way to the 1-based ``page``/``page_end`` of the
    record; its printed ``page_label`` stays, and ``page_label_end`` is the last
    page's label. Nothing is copied: the caller decides how deep.
    """
    metadata = {key: value for key, value in first.items() if key not in (page_key, PAGE_LABEL_END)}
    label_end = last.get(PAGE_LABEL)
    if label_end is not None and PAGE_LABEL in metadata:
        metadata[PAGE_LABEL_END] = label_end
    return metadata


def input_metadata(
    first: Mapping[Any, Any],
    last: Mapping[Any, Any],
    page_key: str,
    level: MetadataLevel,
    source: tuple[str, str] | None = None,
) -> dict[str, MetadataValue]:
    """The input metadata a chunk ``Document`` of either class keeps, vector-store safe.

    The scalar entries of the chunk's first page (``scalar_metadata``: no ``None``, no
    lists or dicts); at ``"lean"`` without our report keys, else with the loader's page
    number given way to ``page``/``page_end`` (``loader_metadata``) and ``source``, a
    ``(key, value)`` pair, set as a string.
    """
    kept = scalar_metadata(first)
    if level == "lean":
        return {key: value for key, value in kept.items() if key not in REPORT_KEYS}
    metadata: dict[str, MetadataValue] = loader_metadata(kept, scalar_metadata(last), page_key)
    if source is not None:
        metadata[source[0]] = source[1]
    return metadata


def tally_left_out(source: Source, document: DocumentPages, tally: LeftOutTally) -> None:
    """Counts in ``tally`` the metadata keys of ``source``'s pages that no chunk keeps,
    each with why, one document per page; and its front matter's (``fm_<key>``), with
    ``ReadOptions(front_matter_metadata=True)``. ``PdfPageLoader``'s structure keys
    (``page_structure.STRUCTURE_KEYS``), read into the chunks' sections, are not told."""
    for metadata in source.page_metadata:
        reasons = left_out_metadata(metadata)
        tally.add(((k, why) for k, why in reasons.items() if k not in STRUCTURE_KEYS), source.name)
    tally.add(document.report.fields_left_out, source.name)


def original_text(document: Document) -> str:
    """The chunk's original text, whichever ``PageContent`` mode produced ``document``.

    It is ``metadata["text"]`` when ``page_content`` holds an embedding text that
    differs from it, else ``page_content`` itself: the text to quote in a citation.
    (At ``metadata_level="lean"`` with a model prefix or section context, the original
    is not in the document: choose ``page_content="text"`` to quote lean documents.)
    """
    text = document.metadata.get(TEXT)
    return text if isinstance(text, str) else document.page_content


def citation(document: Document) -> str:
    """A short human-readable reference: ``doc_id, p. 3-4, § Title > Subtitle``.

    Parts that the metadata does not carry are left out.
    """
    metadata = document.metadata
    parts: list[str] = []
    if DOC_ID in metadata:
        parts.append(str(metadata[DOC_ID]))
    page, page_end = metadata.get(PAGE), metadata.get(PAGE_END, metadata.get(PAGE))
    if page is not None:
        parts.append(f"p. {page}" if page == page_end else f"pp. {page}-{page_end}")
    if metadata.get(SECTION_PATH):
        parts.append(f"§ {metadata[SECTION_PATH]}")
    return ", ".join(parts)
