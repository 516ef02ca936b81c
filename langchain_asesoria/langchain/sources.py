"""From LangChain ``Document``s to sources: pages grouped, ordered and numbered from 1.

A source is every input ``Document`` with the same ``metadata[source_key]``; its pages are
numbered ``metadata[page_key] - page_base + 1``, and a repeated or missing number is an
error, never a guess. A loader's PDF pages (a ``….pdf`` source, every page numbered) are
read once as their PDF (``SourcePages.document``). Document fields come from the pages'
metadata, else from defaults (``docs/guides/pdfs-with-any-loader.md``).
"""

from __future__ import annotations

import hashlib
import logging
import warnings
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from pathlib import Path
from typing import Any, Final, TypeAlias, TypeVar, Union

from langchain_core.documents import Document

from langchain_asesoria.errors import (
    AsesoriaError,
    ConfigurationError,
    InvalidPagesError,
    OutlineUnavailableWarning,
    PrivacyError,
)
from langchain_asesoria.langchain.page_structure import SECTION_STARTS, page_sections, report_keys
from langchain_asesoria.models import ChunkMetadata, LoadedPage
from langchain_asesoria.reading import DocumentPages, ReadOptions, kind_of_name, read_loaded_pages
from langchain_asesoria.records import (
    DOC_ID,
    DOCUMENT_FIELD_TYPES,
    DOCUMENT_FIELDS,
    SESSION_ID,
    SOURCE_SCOPE,
    default_doc_id,
)
from langchain_asesoria.structure.anchors import SectionStart

__all__ = [
    "DOCUMENT_FIELDS",
    "PdfFiles",
    "Source",
    "SourceGrouper",
    "SourcePages",
    "SourceReader",
    "group_sources",
    "read_pdf_page_texts",
]

#: The PDFs of a run given to read their outline: source -> its path, or its bytes.
PdfFiles: TypeAlias = Mapping[str, Union[str, Path, bytes]]  # noqa: UP007 - runtime

_LOGGER: Final = logging.getLogger("langchain_asesoria")


def _warn_outline_unavailable(name: str, problem: str) -> None:
    message = (
        f"{name}: the PDF's outline cannot be read ({problem}), so its chunks have no "
        "outline sections; pass the file with pdf_files={source: path or bytes} (and "
        "pdf_password= if it is encrypted)."
    )
    _LOGGER.warning(message)
    warnings.warn(message, OutlineUnavailableWarning, stacklevel=4)


def with_password(reading: ReadOptions, password: str | None) -> ReadOptions:
    """``reading`` with ``password`` for the PDFs it opens, when one is given.

    Raises:
        ConfigurationError: a password that is not a ``str``, or two that disagree.
    """
    if password is None:
        return reading
    if not isinstance(password, str):
        raise ConfigurationError(f"pdf_password must be a str, got {type(password).__name__}.")
    if reading.password not in (None, password):
        raise ConfigurationError("pdf_password and reading.password disagree: give one.")
    return replace(reading, password=password)


#: Fields whose disagreement between metadata and arguments could leak a document.
_PRIVACY_FIELDS: Final = frozenset({SOURCE_SCOPE, SESSION_ID})

_E = TypeVar("_E", bound=AsesoriaError)


@dataclass(frozen=True, slots=True)
class Source:
    """One source's documents as they arrived (any page order).

    Attributes:
        key: The ``metadata[source_key]`` value as a string, or ``None`` without one.
        documents: Its documents, at least one.
    """

    key: str | None
    documents: tuple[Document, ...]

    @property
    def name(self) -> str:
        """The source for messages: its key, else its ``doc_id``, else a text preview."""
        if self.key is not None:
            return self.key
        doc_id = self.documents[0].metadata.get(DOC_ID)
        if doc_id:
            return str(doc_id)
        return f"document without a source starting {self.documents[0].page_content[:30]!r}"


def _source_key(document: Document, source_key: str) -> str | None:
    value = document.metadata.get(source_key)
    return None if value is None or value == "" else str(value)


def _group_key(document: Document, source_key: str) -> Hashable:
    """Documents with the same key belong together; a document without one is alone."""
    key = _source_key(document, source_key)
    return key if key is not None else object()


def group_sources(documents: Iterable[Document], source_key: str = "source") -> list[Source]:
    """All sources, in order of first appearance; a source's documents may be interleaved.

    The documents are taken as they are: check them first (``SourceReader.checked``).
    """
    groups: dict[Hashable, list[Document]] = {}
    for document in documents:
        groups.setdefault(_group_key(document, source_key), []).append(document)
    return [Source(_source_key(group[0], source_key), tuple(group)) for group in groups.values()]


@dataclass(slots=True)
class SourceGrouper:
    """Groups a stream of documents into sources while holding only the current one.

    A source's documents must arrive together (pages in any order); a source that
    reappears after another one raises instead of being split into two documents.
    Only the keys of finished sources are remembered.
    """

    source_key: str = "source"
    _key: Hashable = None
    _current: list[Document] = field(default_factory=list)
    _finished: set[str] = field(default_factory=set)

    def add(self, document: Document) -> Source | None:
        """Adds one document; returns the previous source when this one starts another.

        Raises:
            InvalidPagesError: a source that already ended.
        """
        key = _group_key(document, self.source_key)
        if self._current and key == self._key:
            self._current.append(document)
            return None
        if isinstance(key, str) and key in self._finished:
            raise InvalidPagesError(
                "its documents arrive again after other sources; lazy "
                "transformation needs each source's documents together. Sort the input "
                "by source, or use transform_documents() on the whole list.",
                source=key,
            )
        finished = self.finish()
        self._key, self._current = key, [document]
        return finished

    def finish(self) -> Source | None:
        """The source in progress, if any; the grouper is then ready for the next."""
        if not self._current:
            return None
        source = Source(_source_key(self._current[0], self.source_key), tuple(self._current))
        if source.key is not None:
            self._finished.add(source.key)
        self._key, self._current = None, []
        return source


# -- reading one source -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SourcePages:
    """A source ready for the engine.

    Attributes:
        name: The source, for messages.
        pages: Its pages sorted by number (1-based), ``source`` set on each.
        page_metadata: The input metadata of each page, in the same order (a loader's
            PDF pages once read: with the scalar keys of what their reading had).
        metadata: The document fields of the source.
        document: The source as read, when ``SourceReader`` read it (a loader's PDF
            pages); ``None`` when the pages are still to be read as their kind.
    """

    name: str
    pages: tuple[LoadedPage, ...]
    page_metadata: tuple[Mapping[str, Any], ...]
    metadata: ChunkMetadata
    document: DocumentPages | None = None


@dataclass(frozen=True, slots=True)
class SourceReader:
    """Reads sources into numbered pages and document fields.

    Attributes:
        source_key: Metadata key naming the source (``"source"`` for LangChain loaders).
        page_key: Metadata key of the page number (``"page"`` for PDF loaders).
        page_base: The number the loader gives the first page (0 for LangChain's PDF
            loaders, 1 for loaders that count from 1).
        defaults: Document fields given as arguments; a page's metadata overrides
            them, except that ``source_scope`` and ``session_id`` must not disagree.
        reading: How a PDF's pages from a LangChain loader are read (see the module
            docstring); ``None``: their text is taken as it is.
        pdf_files: The file of a loader's PDF pages by source, read for its outline
            instead of the file the source names (an upload: its bytes, read once).
    """

    source_key: str = "source"
    page_key: str = "page"
    page_base: int = 0
    defaults: Mapping[str, Any] = field(default_factory=dict)
    reading: ReadOptions | None = None
    pdf_files: PdfFiles = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.defaults) - set(DOCUMENT_FIELDS))
        if unknown:
            raise ConfigurationError(
                f"unknown document field(s) {unknown!r}: use {', '.join(DOCUMENT_FIELDS)}."
            )
        if isinstance(self.page_base, bool) or not isinstance(self.page_base, int):
            raise ConfigurationError(f"page_base must be an integer, got {self.page_base!r}.")

    def read(self, source: Source) -> SourcePages:
        """Orders and numbers a source's pages and resolves its document fields.

        Raises:
            InvalidPagesError: a page number that is not an integer or falls below 1,
                a repeated page number, or several documents of which one has no page.
            ConfigurationError: a document field of the wrong type, or pages that
                disagree on it.
            PrivacyError: a private source without ``session_id``, or metadata and
                arguments that disagree on ``source_scope`` or ``session_id``.
        """
        name = source.name
        pages, page_metadata, document = self.pages_of(source)
        metadata = self._metadata(source, name)
        return SourcePages(name, pages, page_metadata, metadata, document)

    def pages_of(
        self, source: Source
    ) -> tuple[tuple[LoadedPage, ...], tuple[Mapping[str, Any], ...], DocumentPages | None]:
        """The source's pages sorted and numbered, with their metadata, and the document
        a loader's PDF pages make once read as one PDF, when ``reading`` is given (the
        module docstring; ``None`` otherwise).

        Raises:
            InvalidPagesError: as ``read``.
        """
        name = source.name
        numbered = sorted(
            ((self.page_number(document, name), document) for document in source.documents),
            key=lambda item: item[0],
        )
        _check_numbers([number for number, _ in numbered], name, self.page_key)
        if numbered[0][0] == 0:  # one document without a page number: a one-page source
            numbered = [(1, numbered[0][1])]
        pages = tuple(
            LoadedPage(document.page_content, number, name) for number, document in numbered
        )
        page_metadata = tuple(document.metadata for _, document in numbered)
        if self.reading is None or not self.is_loaded_pdf(source):
            return pages, page_metadata, None
        try:
            given = self.pdf_files.get(name)
            document = read_loaded_pages(pages, "pdf", self.reading, pdf_file=given)
        except AsesoriaError as error:
            raise error.with_context(source=name) from error
        pdf_file = document.report.pdf_file
        if pdf_file is not None and pdf_file.problem is not None:
            _warn_outline_unavailable(name, pdf_file.problem)
        report = report_keys(document)
        return document.pages, tuple({**meta, **report} for meta in page_metadata), document

    def is_loaded_pdf(self, source: Source) -> bool:
        """Whether the source is a PDF's pages from a loader, not read yet."""
        return (
            kind_of_name(source.key) == "pdf"
            and all(self.page_key in document.metadata for document in source.documents)
            and not any(SECTION_STARTS in document.metadata for document in source.documents)
        )

    def page_number(self, document: Document, name: str) -> int:
        """The 1-based page number of ``document`` (checked: ``check``); 0 without one."""
        number = self._page_number(document.metadata)
        return number if isinstance(number, int) else 0

    def _page_number(self, metadata: Mapping[Any, Any]) -> int | str | None:
        """The 1-based page number in ``metadata``, ``None`` without the key, else why
        the value is not one."""
        if self.page_key not in metadata:
            return None  # no page: valid only for a one-page source (checked after sorting)
        raw = _whole_number(metadata[self.page_key])
        if isinstance(raw, bool) or not isinstance(raw, int):
            return (
                f"{self.page_key}={raw!r} is not an integer page number; set page_key to "
                "the metadata key that holds it, or leave the key out of a one-page document."
            )
        number = raw - self.page_base + 1
        if number < 1:
            return (
                f"{self.page_key}={raw} is below page_base={self.page_base}; "
                "set page_base to the number the loader gives the first page (0 or 1)."
            )
        return number

    def check(self, content: object, metadata: Mapping[Any, Any], index: int, item: str) -> None:
        """Checks one input of either class: ``content`` a ``str`` without lone surrogates,
        its page number (if any) an integer from ``page_base``.

        Raises:
            InvalidPagesError: naming ``item`` (``documents[3]``), the source and page.
        """
        key = metadata.get(self.source_key)
        source = None if key is None or key == "" else str(key)
        number = self._page_number(metadata)
        page = number if isinstance(number, int) else None
        where = f"{item} ({self.page_key}={metadata[self.page_key]!r})" if page else item

        def invalid(detail: str, **context: Any) -> InvalidPagesError:
            return InvalidPagesError(
                f"{where}: {detail}", index=index, source=source, page=page, **context
            )

        if isinstance(number, str):
            raise invalid(number, expected=f"an integer from {self.page_base}")
        if not isinstance(content, str):
            raise invalid(
                f"page_content is {type(content).__name__}, not str; decode bytes "
                "(or convert the value) before splitting.",
                expected="a str page_content",
            )
        try:
            content.encode("utf-8")
        except UnicodeEncodeError as error:
            raise invalid(
                f"page_content holds a lone surrogate {content[error.start]!r} at position "
                f"{error.start}, which is not text; fix the extraction (or decode its bytes "
                "with errors='replace').",
                position=error.start,
                expected="text without lone surrogates",
            ) from error

    def checked(self, items: Iterable[object]) -> Iterator[Document]:
        """The items, each checked as it comes (``check``); the one check of both classes.

        Raises:
            InvalidPagesError: an item that is not a ``Document``, or one ``check``
                refuses.
        """
        for index, item in enumerate(items):
            yield self.checked_item(item, index)

    def checked_item(self, item: object, index: int) -> Document:
        """``item``, the input at ``index``, once checked (``checked``)."""
        name = f"documents[{index}]"
        if not isinstance(item, Document):
            raise InvalidPagesError(
                f"{name}: expected a LangChain Document, got {type(item).__name__}: pass "
                "the output of a document loader (one Document per page or per file).",
                index=index,
                expected="a Document",
            )
        self.check(item.page_content, item.metadata, index, name)
        return item

    def _metadata(self, source: Source, name: str) -> ChunkMetadata:
        values: dict[str, Any] = {}
        for key in DOCUMENT_FIELDS:
            value = _agreed(source.documents, key, name)
            default = self.defaults.get(key)
            if key in _PRIVACY_FIELDS and None not in (value, default) and value != default:
                raise PrivacyError(
                    f"its metadata has {key}={value!r} but {key}={default!r} "
                    "was given as an argument; remove one so that privacy is not guessed.",
                    source=name,
                )
            chosen = value if value is not None else default
            if chosen is not None:
                values[key] = _FIELD_TYPES[key](chosen, key, name)
        if source.key is not None:
            values.setdefault(DOC_ID, default_doc_id(source.key))
        values.setdefault(DOC_ID, _content_id(source.documents))
        try:
            return ChunkMetadata(**values)
        except AsesoriaError as error:
            raise error.with_context(source=name) from error


def _check_numbers(numbers: Sequence[int], name: str, page_key: str) -> None:
    if len(numbers) > 1 and numbers[0] == 0:
        raise InvalidPagesError(
            f"source {name!r} has {len(numbers)} documents but one has no {page_key!r}: give "
            "every page its number, or each document its own source."
        )
    for previous, number in pairwise(numbers):
        if number == previous:
            raise InvalidPagesError(
                f"page {number} appears twice; a source's pages must be "
                "distinct (give distinct documents distinct sources).",
                source=name,
            )


def _agreed(documents: Sequence[Document], key: str, name: str) -> Any:
    """The one value the documents give ``key`` (``None`` if none does)."""
    values = {repr(value): value for d in documents if (value := d.metadata.get(key)) is not None}
    if len(values) > 1:
        raise ConfigurationError(
            f"its pages disagree on {key} ({', '.join(sorted(values))}); one "
            "source is one document with one value.",
            source=name,
        )
    return next(iter(values.values()), None)


def _content_id(documents: Sequence[Document]) -> str:
    digest = hashlib.sha256()
    for document in documents:
        digest.update(document.page_content.encode("utf-8"))
        digest.update(b"\x00")
    return f"sha256-{digest.hexdigest()[:16]}"


def _as_text(value: Any, key: str, name: str) -> str:
    if not isinstance(value, str):
        raise ConfigurationError(
            f"{key} must be a string, got {type(value).__name__} {value!r}.",
            source=name,
        )
    return value


def _as_year(value: Any, key: str, name: str) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigurationError(f"{key} must be an integer year, got {value!r}.", source=name)
    return value


#: How a document field's value is read, by its type in ``DOCUMENT_FIELD_TYPES``.
_FIELD_TYPES: Final = {
    key: _as_year if kind is int else _as_text for key, kind in DOCUMENT_FIELD_TYPES.items()
}


def read_pdf_page_texts(
    texts: Sequence[str],
    metadatas: Sequence[Mapping[str, Any]],
    reader: SourceReader,
) -> tuple[list[str], list[dict[str, Any]], list[list[SectionStart] | None]]:
    """A splitter's texts, each run of consecutive pages of one PDF read as that PDF.

    A run is consecutive texts whose metadata name the same source, a PDF
    (``….pdf``), and give each a page number (``SourceReader.is_loaded_pdf``); its pages
    may come in any order. Each text of a run becomes its page's text once read (running
    headers and footers removed), its metadata gains the scalar keys of what the reading
    had (``page_structure.report_keys``), and its sections are the page's own
    (``page_structure.page_sections``): the splitter then chunks each page with them.
    Other texts and their metadata are returned as they are, with ``None`` sections.
    Texts and metadata keep their order and count.

    Raises:
        InvalidPagesError: a run whose page numbers repeat, or are not integers.
    """
    out_texts, out_metadatas = list(texts), [dict(metadata) for metadata in metadatas]
    out_sections: list[list[SectionStart] | None] = [None] * len(texts)
    for run in _pdf_runs(metadatas, reader):
        documents = tuple(Document(texts[i], metadata=dict(metadatas[i])) for i in run)
        source = Source(_source_key(documents[0], reader.source_key), documents)
        pages, page_metadata, document = reader.pages_of(source)
        sections = page_sections(document) if document is not None else [[] for _ in pages]
        by_number = {
            page.page: (page.text, item, own)
            for page, item, own in zip(pages, page_metadata, sections, strict=True)
        }
        for index, document_in in zip(run, documents, strict=True):
            text, metadata, own = by_number[reader.page_number(document_in, source.name)]
            out_texts[index], out_metadatas[index], out_sections[index] = text, dict(metadata), own
    return out_texts, out_metadatas, out_sections


def _pdf_runs(metadatas: Sequence[Mapping[str, Any]], reader: SourceReader) -> list[list[int]]:
    """The indices of each run of consecutive metadata of one PDF's loader pages."""
    runs: list[list[int]] = []
    previous: str | None = None
    for index, metadata in enumerate(metadatas):
        key = metadata.get(reader.source_key)
        name = None if key is None or key == "" else str(key)
        alone = Source(name, (Document("", metadata=dict(metadata)),))
        if name is None or not reader.is_loaded_pdf(alone):
            previous = None
            continue
        if name == previous:
            runs[-1].append(index)
        else:
            runs.append([index])
        previous = name
    return runs


def _whole_number(raw: object) -> object:
    """A page number as loaders write it, as an ``int`` when it is one: ``3``, ``"3"``
    and ``3.0`` alike (a loader that keeps its metadata as text or as floats); anything
    else as it is."""
    if isinstance(raw, str) and raw.strip().isdigit():
        return int(raw)
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    return raw
