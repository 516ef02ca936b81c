"""From LangChain ``Document``s to one ``Source`` each, and a source to its document.

A source is every input ``Document`` with the same ``metadata[source_key]``; its pages are
numbered ``metadata[page_key] - page_base + 1``, and a repeated or missing number is an
error, never a guess. ``SourceReader`` is the one way in of both classes: it checks each
input, makes a source's documents one ``Source`` (name, kind, pages, document fields,
the PDF file given, the sections a loader located) and reads it (``SourceReader.document``:
a loader's PDF pages, a ``….pdf`` source with every page numbered, as their PDF; a
``….xml`` source as a BOE law's XML, on the day its ``as_of`` key says, else the
reading options'). Document fields come from the pages' metadata, else from defaults
(``docs/guides/pdfs-with-any-loader.md``).
"""

from __future__ import annotations

import hashlib
import logging
import warnings
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeAlias, Union

from langchain_core.documents import Document

from langchain_asesoria.errors import (
    AsesoriaError,
    ConfigurationError,
    InvalidPagesError,
    OutlineUnavailableWarning,
    PrivacyError,
)
from langchain_asesoria.langchain.page_structure import SECTION_STARTS, source_starts
from langchain_asesoria.models import ChunkMetadata, LoadedPage
from langchain_asesoria.records import (
    DOC_ID,
    DOCUMENT_FIELD_TYPES,
    DOCUMENT_FIELDS,
    SESSION_ID,
    SOURCE_SCOPE,
    file_doc_id,
)
from langchain_asesoria.structure.anchors import SectionStart

if TYPE_CHECKING:  # the reading stage loads with the first source read, not with a class
    from langchain_asesoria.reading import DocumentKind, DocumentPages, ReadOptions
    from langchain_asesoria.reading.loaded_pdf import PdfFile

#: The PDFs of a run given to read their outline: source -> its path, or its bytes.
PdfFiles: TypeAlias = Mapping[str, Union[str, Path, bytes]]  # noqa: UP007 - runtime

_LOGGER: Final = logging.getLogger("langchain_asesoria")

#: A BOE law's XML source: the day to read it as of (``"2023-12-31"``, or a ``date``),
#: over the reading options' ``as_of`` (``BoeLawLoader`` writes it).
AS_OF: Final = "as_of"
#: A BOE law's XML source: ``"all"`` reads every wording (``ReadOptions.law_versions``).
LAW_VERSIONS: Final = "law_versions"


def _warn_outline_unavailable(name: str, problem: str) -> None:
    message = (
        f"{name}: the PDF's outline cannot be read ({problem}), so its chunks have no "
        "outline sections; pass the file with pdf_files={source: path or bytes} (and "
        "pdf_password= if it is encrypted)."
    )
    _LOGGER.warning(message)
    warnings.warn(message, OutlineUnavailableWarning, stacklevel=4)


def with_password(reading: ReadOptions | None, password: str | None) -> ReadOptions:
    """``reading`` (default: ``ReadOptions()``) with ``password`` for the PDFs it opens,
    when one is given. The reading stage loads here, with a class's first instance.

    Raises:
        ConfigurationError: a password that is not a ``str``, or two that disagree.
    """
    from langchain_asesoria.reading import ReadOptions

    reading = reading or ReadOptions()
    if password is None:
        return reading
    if not isinstance(password, str):
        raise ConfigurationError(f"pdf_password must be a str, got {type(password).__name__}.")
    if reading.password not in (None, password):
        raise ConfigurationError("pdf_password and reading.password disagree: give one.")
    return replace(reading, password=password)


#: Fields whose disagreement between metadata and arguments could leak a document.
_PRIVACY_FIELDS: Final = frozenset({SOURCE_SCOPE, SESSION_ID})

#: One source's documents as they arrived (any page order), at least one.
Documents: TypeAlias = tuple[Document, ...]


def _group_key(document: Document, reader: SourceReader) -> Hashable:
    """Documents with the same key belong together; a document without one is alone."""
    key = reader.key(document.metadata)
    return key if key is not None else object()


def group_sources(documents: Iterable[Document], reader: SourceReader) -> list[Documents]:
    """Each source's documents, sources in order of first appearance; a source's
    documents may be interleaved.

    The documents are taken as they are: check them first (``SourceReader.checked``).
    """
    groups: dict[Hashable, list[Document]] = {}
    for document in documents:
        groups.setdefault(_group_key(document, reader), []).append(document)
    return [tuple(group) for group in groups.values()]


@dataclass(slots=True)
class SourceGrouper:
    """Groups a stream of documents into sources while holding only the current one.

    A source's documents must arrive together (pages in any order); a source that
    reappears after another one raises instead of being split into two documents.
    Only the keys of finished sources are remembered.
    """

    reader: SourceReader
    _key: Hashable = None
    _current: list[Document] = field(default_factory=list)
    _finished: set[str] = field(default_factory=set)

    def add(self, document: Document) -> Documents | None:
        """Adds one document; returns the previous source's documents when this one
        starts another.

        Raises:
            InvalidPagesError: a source that already ended.
        """
        key = _group_key(document, self.reader)
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

    def finish(self) -> Documents | None:
        """The documents of the source in progress, if any; the grouper is then ready
        for the next."""
        if not self._current:
            return None
        if isinstance(self._key, str):
            self._finished.add(self._key)
        documents = tuple(self._current)
        self._key, self._current = None, []
        return documents


# -- one source ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Source:
    """One source: a loader's documents of one ``metadata[source_key]``, as one document.

    Attributes:
        name: The source for messages: its key, else its ``doc_id``, else a text preview.
        key: The ``metadata[source_key]`` value as a string, ``None`` without one.
        kind: How its text is read (``reading.kind_for_text`` of its key).
        pages: Its pages sorted by number (1-based), ``name`` set on each.
        page_metadata: The input metadata of each page, in the same order.
        metadata: Its document fields (``doc_id``, ``tax``...).
        file: The PDF file given for it (``pdf_files``), read for its outline.
        starts: Where a loader located its sections (``PdfPageLoader``'s page keys,
            ``page_structure``), anchored in its pages; ``None`` when none did.
        loaded_pdf: A PDF's pages from a LangChain loader (a ``….pdf`` source, every
            page numbered, no sections located): read as their PDF.
    """

    name: str
    key: str | None
    kind: DocumentKind
    pages: tuple[LoadedPage, ...]
    page_metadata: tuple[Mapping[str, Any], ...]
    metadata: ChunkMetadata
    file: PdfFile | None = None
    starts: tuple[SectionStart, ...] | None = None
    loaded_pdf: bool = False


def source_name(documents: Sequence[Document], reader: SourceReader) -> str:
    """A source for messages: its key, else its ``doc_id``, else a text preview."""
    key = reader.key(documents[0].metadata)
    if key is not None:
        return key
    doc_id = documents[0].metadata.get(DOC_ID)
    if doc_id:
        return str(doc_id)
    return f"document without a source starting {documents[0].page_content[:30]!r}"


@dataclass(frozen=True, slots=True)
class SourceReader:
    """Makes a loader's documents one ``Source`` and reads it: both classes' one way in.

    Attributes:
        source_key: Metadata key naming the source (``"source"`` for LangChain loaders).
        page_key: Metadata key of the page number (``"page"`` for PDF loaders).
        page_base: The number the loader gives the first page (0 for LangChain's PDF
            loaders, 1 for loaders that count from 1).
        defaults: Document fields given as arguments; a page's metadata overrides
            them, except that ``source_scope`` and ``session_id`` must not disagree.
        reading: How sources are read (``ReadOptions``).
        pdf_files: The file of a loader's PDF pages by source, read for its outline
            instead of the file the source names (an upload: its bytes, read once).
        markdown: Read a source whose name says no kind as Markdown.
        markdown_suffixes: Source-name endings that mark Markdown (``None``:
            ``reading.DEFAULT_MARKDOWN_SUFFIXES``).
    """

    source_key: str = "source"
    page_key: str = "page"
    page_base: int = 0
    defaults: Mapping[str, Any] = field(default_factory=dict)
    reading: ReadOptions = field(default_factory=lambda: with_password(None, None))
    pdf_files: PdfFiles = field(default_factory=dict)
    markdown: bool = False
    markdown_suffixes: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        unknown = sorted(set(self.defaults) - set(DOCUMENT_FIELDS))
        if unknown:
            raise ConfigurationError(
                f"unknown document field(s) {unknown!r}: use {', '.join(DOCUMENT_FIELDS)}."
            )
        if isinstance(self.page_base, bool) or not isinstance(self.page_base, int):
            raise ConfigurationError(f"page_base must be an integer, got {self.page_base!r}.")
        if not isinstance(self.markdown, bool):
            raise ConfigurationError(
                f"detect_markdown_headings must be True or False, got {self.markdown!r}."
            )

    def key(self, metadata: Mapping[Any, Any]) -> str | None:
        """The source ``metadata`` names (``metadata[source_key]`` as a string), or
        ``None`` without one: the one reading of the source key."""
        value = metadata.get(self.source_key)
        return None if value is None or value == "" else str(value)

    def source(self, documents: Sequence[Document]) -> Source:
        """The documents (at least one, of one source) as one ``Source``: pages ordered
        and numbered, document fields resolved, kind and located sections read.

        Raises:
            InvalidPagesError: a page number that is not an integer or falls below 1,
                a repeated page number, or several documents of which one has no page.
            InvalidSectionsError: located sections outside their page's text, or out of
                order.
            ConfigurationError: a document field of the wrong type, or pages that
                disagree on it.
            PrivacyError: a private source without ``session_id``, or metadata and
                arguments that disagree on ``source_scope`` or ``session_id``.
        """
        key = self.key(documents[0].metadata)
        name = source_name(documents, self)
        numbered = sorted(
            ((self.page_number(document.metadata), document) for document in documents),
            key=lambda item: item[0],
        )
        _check_numbers([number for number, _ in numbered], name, self.page_key)
        if numbered[0][0] == 0:  # one document without a page number: a one-page source
            numbered = [(1, numbered[0][1])]
        pages = tuple(
            LoadedPage(document.page_content, number, name) for number, document in numbered
        )
        page_metadata = tuple(document.metadata for _, document in numbered)
        kind = self.kind(key)
        located = source_starts(pages, page_metadata, name)
        starts = None if located is None else tuple(located)
        loaded_pdf = all(self._loaded_pdf_page(key, metadata) for metadata in page_metadata)
        fields = self._metadata(key, documents, name)
        file = self.pdf_files.get(name)
        return Source(name, key, kind, pages, page_metadata, fields, file, starts, loaded_pdf)

    def document(self, source: Source) -> DocumentPages:
        """The source read (``reading.read_loaded_pages``): the one place where a
        source's structure is decided, for either class.

        A loader's PDF pages are read as their PDF (its outline from ``source.file``,
        else from the file the source names; a warning when none can be read); sections
        a loader located win over the kind's own.

        Raises:
            AsesoriaError: what reading raises, naming the source.
        """
        from langchain_asesoria.reading import read_loaded_pages

        try:
            if source.kind == "xml":
                reading = law_reading(self.reading, source.page_metadata[0], source.name)
                return read_loaded_pages(source.pages, "xml", reading)
            if not source.loaded_pdf:
                return read_loaded_pages(
                    source.pages, source.kind, self.reading, starts=source.starts
                )
            document = read_loaded_pages(source.pages, "pdf", self.reading, pdf_file=source.file)
        except AsesoriaError as error:
            raise error.with_context(source=source.name) from error
        pdf_file = document.report.pdf_file
        if pdf_file is not None and pdf_file.problem is not None:
            _warn_outline_unavailable(source.name, pdf_file.problem)
        return document

    def kind(self, key: str | None) -> DocumentKind:
        """The kind a source named ``key`` is read as (``reading.kind_for_text``)."""
        from langchain_asesoria.reading import DEFAULT_MARKDOWN_SUFFIXES, kind_for_text

        suffixes = self.markdown_suffixes
        if suffixes is None:
            suffixes = DEFAULT_MARKDOWN_SUFFIXES
        return kind_for_text(key, self.markdown, suffixes)

    def runs(self, documents: Sequence[Document]) -> list[list[int]]:
        """The splitter's sources, as positions in ``documents``: each run of consecutive
        pages of one PDF from a loader (``Source.loaded_pdf``: read together), every
        other document alone."""
        runs: list[list[int]] = []
        previous: str | None = None
        for index, document in enumerate(documents):
            key = self.key(document.metadata)
            if key is None or not self._loaded_pdf_page(key, document.metadata):
                runs.append([index])
                previous = None
                continue
            if key == previous:
                runs[-1].append(index)
            else:
                runs.append([index])
            previous = key
        return runs

    def _loaded_pdf_page(self, key: str | None, metadata: Mapping[Any, Any]) -> bool:
        """Whether ``metadata`` is of a PDF's page from a LangChain loader (``Source``)."""
        return (
            self.kind(key) == "pdf" and self.page_key in metadata and SECTION_STARTS not in metadata
        )

    def page_number(self, metadata: Mapping[Any, Any]) -> int:
        """The 1-based page number in ``metadata`` (checked: ``check``); 0 without one."""
        number = self._page_number(metadata)
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
        source = self.key(metadata)
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

    def _metadata(
        self, source_key: str | None, documents: Sequence[Document], name: str
    ) -> ChunkMetadata:
        values: dict[str, Any] = {}
        for key in DOCUMENT_FIELDS:
            value = _agreed(documents, key, name)
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
        if source_key is not None:
            values.setdefault(DOC_ID, file_doc_id(source_key))
        values.setdefault(DOC_ID, _content_id(documents))
        try:
            return ChunkMetadata(**values)
        except AsesoriaError as error:
            raise error.with_context(source=name) from error


def law_reading(reading: ReadOptions, metadata: Mapping[Any, Any], name: str) -> ReadOptions:
    """``reading`` with the day (``AS_OF``) and the wordings (``LAW_VERSIONS``) a law's
    XML source names in its metadata, when it names them.

    Raises:
        ConfigurationError: a day that is not a date or an ISO ``YYYY-MM-DD`` text, or
            wordings other than ``"as-of"`` and ``"all"``.
    """
    changes: dict[str, Any] = {}
    if metadata.get(LAW_VERSIONS) is not None:
        changes["law_versions"] = metadata[LAW_VERSIONS]
        if metadata[LAW_VERSIONS] == "all":
            changes["as_of"] = None
    raw = metadata.get(AS_OF)
    if raw is not None and changes.get("law_versions") != "all":
        changes["as_of"] = _day(raw, name)
    try:
        return replace(reading, **changes) if changes else reading
    except AsesoriaError as error:
        raise error.with_context(source=name) from error


def _day(raw: object, name: str) -> date:
    if isinstance(raw, date):  # a datetime too: ``ReadOptions`` keeps its day
        return raw
    try:
        return datetime.strptime(str(raw), "%Y-%m-%d").date()
    except ValueError:
        raise ConfigurationError(
            f"metadata[{AS_OF!r}] is {raw!r}, not a day: write it YYYY-MM-DD (2023-12-31), "
            "or give a datetime.date.",
            source=name,
            expected="a day, YYYY-MM-DD",
        ) from None


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


def _whole_number(raw: object) -> object:
    """A page number as loaders write it, as an ``int`` when it is one: ``3``, ``"3"``
    and ``3.0`` alike (a loader that keeps its metadata as text or as floats); anything
    else as it is."""
    if isinstance(raw, str) and raw.strip().isdigit():
        return int(raw)
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    return raw
