"""``AsesoriaDocumentTransformer``: loader ``Document``s in, citable chunk ``Document``s out.

It groups the incoming documents by source (``sources``), reads each source as
``asesoria-split`` reads the file, and chunks it across page boundaries; it is a
LangChain ``Runnable`` and a ``BaseDocumentTransformer``, lazy one source at a time.
What every chunk ``Document`` holds: ``docs/guides/conventions.md``.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from typing import Any, TypeAlias, Union

from langchain_core.documents import BaseDocumentTransformer, Document
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import run_in_executor
from typing_extensions import Self

from langchain_asesoria.errors import AsesoriaError, ConfigurationError
from langchain_asesoria.langchain.arguments import named_tokenization, splitter_config
from langchain_asesoria.langchain.documents import (
    DEFAULT_METADATA_LEVEL,
    DEFAULT_PAGE_CONTENT,
    ChunkingComponent,
    MetadataLevel,
    OnError,
    PageContent,
    chunk_document_metadata,
    chunk_texts,
    config_options,
    document_id,
)
from langchain_asesoria.langchain.sources import (
    Documents,
    PdfFiles,
    Source,
    SourceGrouper,
    SourceReader,
    group_sources,
    source_name,
    with_password,
)
from langchain_asesoria.models import Chunk, ChunkingConfig, SourceScope
from langchain_asesoria.parents import (
    DEFAULT_PARENT_MAX_TOKENS,
    check_parent_budget,
    read_document_parents,
)
from langchain_asesoria.reading import DEFAULT_MARKDOWN_SUFFIXES, DocumentPages, ReadOptions
from langchain_asesoria.records import PARENT_ID
from langchain_asesoria.settings import Settings, get_settings
from langchain_asesoria.store_values import LeftOutTally
from langchain_asesoria.tokenization import Tokenization, load_tokenization

#: What the transformer accepts: one document, or any iterable of documents.
DocumentsInput: TypeAlias = Union[Document, Iterable[Document]]  # noqa: UP007 - runtime type


@dataclass(frozen=True, slots=True)
class ChunksAndParents:
    """``transform_with_parents``' result: chunk Documents, each naming its parent in
    ``metadata["parent_id"]``, and the parent Documents (``id``: their ``parent_id``)."""

    chunks: list[Document]
    parents: list[Document]


@dataclass(slots=True)
class _Run:
    """One call (``transform_documents``, one iteration of ``lazy_transform_documents``
    or of a stream, ``transform_with_parents``): fails when two of its sources resolve to
    the same ``doc_id``, and counts the metadata its chunks leave out, told once when it
    ends, however it ends (a context manager: ``LeftOutTally.tell``)."""

    seen: dict[str, str] = field(default_factory=dict)
    left_out: LeftOutTally = field(default_factory=LeftOutTally)

    def __enter__(self) -> _Run:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.left_out.tell("this call")

    def claim(self, source: Source) -> None:
        doc_id = source.metadata.doc_id
        owner = self.seen.setdefault(doc_id, source.name)
        if owner != source.name:
            raise ConfigurationError(
                f"sources {owner!r} and {source.name!r} both have doc_id {doc_id!r}: chunk ids "
                "would collide. Give each source its own doc_id (metadata or argument)."
            )


def _documents_of(item: DocumentsInput) -> Iterable[Document]:
    """The documents of one input item (an item that is neither is kept, to be refused
    by ``SourceReader.checked``)."""
    if isinstance(item, Document) or not isinstance(item, Iterable) or isinstance(item, str):
        return (item,)
    return item


def _as_lists(items: Iterable[DocumentsInput]) -> Iterator[list[Document]]:
    """Each input item as a list: lists add up, so a trace shows every input document."""
    return (list(_documents_of(item)) for item in items)


async def _aas_lists(items: AsyncIterable[DocumentsInput]) -> AsyncIterator[list[Document]]:
    async for item in items:
        yield list(_documents_of(item))


class AsesoriaDocumentTransformer(
    ChunkingComponent, BaseDocumentTransformer, Runnable[DocumentsInput, list[Document]]
):
    """Chunks whole sources across page boundaries; a ``Runnable`` for LCEL pipelines.

    A loader's metadata values no vector store takes (``store_values.store_value``:
    lists, ``None``, NaN...) are left out and told once per run: one call of
    ``transform_documents``, ``invoke`` or ``transform_with_parents``, or one whole
    iteration of a lazy or streaming method, gives one warning on the
    ``langchain_asesoria`` logger naming each key, why and from how many documents.

    Args:
        tokenization: The embedding model's tokenizer (``load_tokenization()``), or a
            name or path ``load_tokenization`` loads when the transformer is built, as
            the splitter takes it.
        config: Budget, overlap target and section context; or give the keywords below,
            as to ``AsesoriaTextSplitter`` (never both).
        chunk_size: ``max_tokens`` when no ``config`` is given (required then: there is
            no default size).
        chunk_overlap: ``overlap_tokens`` when no ``config`` is given (default 0).
        reading: How sources are read (``ReadOptions``: by default a Markdown source's
            front matter is blanked and its headings followed, as on the command line;
            ``ReadOptions(markdown_headings=False)`` switches headings off).
        page_content: ``"embedding_text"`` (default: ``add_documents`` then embeds
            exactly the model input; the original is in ``metadata["text"]`` when it
            differs) or ``"text"`` (the original; the model input is in
            ``metadata["embedding_text"]``).
        metadata_level: ``"cite"`` (default), ``"full"`` or ``"lean"``
            (``MetadataLevel``).
        source_key: Metadata key naming the source.
        page_key: Metadata key of the page number; it is replaced in the output by
            ``page``/``page_end`` (1-based).
        page_base: The number the loader gives the first page (0 for LangChain's PDF
            loaders).
        markdown_suffixes: Source-name endings that mark Markdown (case-insensitive).
        pdf_files: The file of a loader's PDF pages, by source (``{"/tmp/up.pdf": path
            or bytes}``), read for its outline instead of reopening ``metadata["source"]``:
            an upload read once, or a temporary file already deleted. A PDF whose outline
            cannot be read warns (``OutlineUnavailableWarning`` and the
            ``langchain_asesoria`` logger) and is chunked without it.
        pdf_password: Decrypts the PDF read for its outline (as ``PyPDFLoader``'s
            ``password``); the same as ``reading=ReadOptions(password=...)``.
        detect_markdown_headings: Read a source whose name does not say its kind as
            Markdown (its headings followed as ``reading`` says).
        on_error: ``"raise"`` (default) or ``"skip"`` a source that cannot be chunked
            (``OnError``: it gives no chunks and a warning naming it is logged).
        doc_id: Default ``doc_id`` (for a single source; defaults to the source's file
            name with its extension, ``manual.pdf``, as on the command line).
        doc_type: Default document type, for example ``"official_guide"``.
        tax: Default tax, for example ``"IRPF"``.
        fiscal_year: Default fiscal year.
        source_scope: Default ``"public"`` or ``"private"``.
        session_id: Default session id (required for private sources).
        vigencia: Default validity, for example ``"2023"``.
        **options: Other ``ChunkingConfig`` fields (``section_context``...) when no
            ``config`` is given.

    Raises:
        ConfigurationError: a config and keywords together, no size, LangChain's
            ``length_function`` or ``keep_separator``, an unknown keyword (as the
            splitter refuses them), wrong argument types, an unknown ``page_content``
            or ``metadata_level``.
        ModelLimitError: ``config.max_tokens`` above the model's real limit.
        TokenizerLoadError: a tokenizer name or path that cannot be loaded.
        MissingSettingError: a named tokenizer with no input limit of its own.
    """

    def __init__(
        self,
        tokenization: Tokenization | str | PathLike[str],
        config: ChunkingConfig | None = None,
        *,
        chunk_size: int | None = None,
        chunk_overlap: int | None = None,
        page_content: PageContent = DEFAULT_PAGE_CONTENT,
        metadata_level: MetadataLevel = DEFAULT_METADATA_LEVEL,
        reading: ReadOptions | None = None,
        source_key: str = "source",
        page_key: str = "page",
        page_base: int = 0,
        markdown_suffixes: Sequence[str] = DEFAULT_MARKDOWN_SUFFIXES,
        detect_markdown_headings: bool = False,
        on_error: OnError = "raise",
        doc_id: str | None = None,
        doc_type: str | None = None,
        tax: str | None = None,
        fiscal_year: int | None = None,
        source_scope: SourceScope | None = None,
        session_id: str | None = None,
        vigencia: str | None = None,
        pdf_files: PdfFiles | None = None,
        pdf_password: str | None = None,
        **options: Any,
    ) -> None:
        sizes = {"max_tokens": chunk_size, "overlap_tokens": chunk_overlap}
        chosen = splitter_config(config, sizes, options, "AsesoriaDocumentTransformer")
        self._bind(named_tokenization(tokenization), chosen, page_content, on_error, metadata_level)
        defaults = {
            "doc_id": doc_id,
            "doc_type": doc_type,
            "tax": tax,
            "fiscal_year": fiscal_year,
            "source_scope": source_scope,
            "session_id": session_id,
            "vigencia": vigencia,
        }
        self._reader = SourceReader(
            source_key=source_key,
            page_key=page_key,
            page_base=page_base,
            defaults={key: value for key, value in defaults.items() if value is not None},
            reading=with_password(reading, pdf_password),
            pdf_files=dict(pdf_files or {}),
            markdown=detect_markdown_headings,
            markdown_suffixes=tuple(suffix.lower() for suffix in markdown_suffixes),
        )

    @classmethod
    def from_settings(cls, settings: Settings | None = None, **kwargs: Any) -> Self:
        """Tokenizer from ``EMBEDDING_MODEL``, budget from ``CHUNK_*`` settings.

        Args:
            settings: Defaults to ``get_settings()``.
            **kwargs: ``ChunkingConfig`` fields (``section_context``...) and the
                constructor's keyword arguments (``detect_markdown_headings``...).

        Raises:
            MissingSettingError: a ``CHUNK_*`` setting or the model's limit is unknown.
        """
        settings = settings or get_settings()
        options, rest = config_options(kwargs)
        config = ChunkingConfig.from_settings(settings, **options)
        return cls(load_tokenization(settings), config, **rest)

    @classmethod
    def from_model(
        cls,
        model: str,
        *,
        chunk_size: int,
        chunk_overlap: int = 0,
        max_input_tokens: int | None = None,
        **kwargs: Any,
    ) -> Self:
        """The one-call start: a model's name or path, and the budget in its tokens.

        ``AsesoriaDocumentTransformer.from_model("sentence-transformers/all-MiniLM-L6-v2",
        chunk_size=256, chunk_overlap=32)`` loads the tokenizer with
        ``load_tokenization(model)`` (a Hugging Face name, a local folder, a
        ``tokenizer.json``, or an OpenAI embedding model with the ``tiktoken`` extra).

        Args:
            model: The embedding model's name or path.
            chunk_size: ``max_tokens``: tokens of the whole model input (required: there
                is no default size).
            chunk_overlap: ``overlap_tokens`` (default 0).
            max_input_tokens: The model's input limit, for a tokenizer that declares
                none (a bare ``tokenizer.json``); it may lower a known limit, never
                raise it (``EMBEDDING_MAX_TOKENS`` otherwise).
            **kwargs: Other ``ChunkingConfig`` fields and the constructor's keywords.

        Raises:
            TokenizerLoadError: the tokenizer cannot be found or read.
            MissingSettingError: no real input limit is known for the model.
            ModelLimitError: ``chunk_size`` or ``max_input_tokens`` above the model's
                real limit.
        """
        tokenization = load_tokenization(model, max_input_tokens=max_input_tokens)
        return cls(tokenization, chunk_size=chunk_size, chunk_overlap=chunk_overlap, **kwargs)

    # -- one source -----------------------------------------------------------------

    def _chunk_source(self, documents: Documents, run: _Run) -> list[Document]:
        """The chunk documents of one source, in ``chunk_index`` order.

        Raises:
            AsesoriaError: pages, fields or budget that do not work, the message naming
                the source; with ``on_error="skip"``, ``[]`` and a logged warning.
        """
        try:
            return list(self._built_documents(documents, run))
        except AsesoriaError as error:
            self._skipped(source_name(documents, self._reader), error)
            return []

    def _source_documents(self, documents: Documents, run: _Run) -> Iterator[Document]:
        """The chunk documents of one source: built one at a time (``iter_chunks``), or
        all before the first with ``on_error="skip"`` (a source fails whole)."""
        if self._on_error == "skip":
            return iter(self._chunk_source(documents, run))
        return self._built_documents(documents, run)

    def _read(self, documents: Documents, run: _Run) -> tuple[Source, DocumentPages]:
        source = self._reader.source(documents)
        run.claim(source)
        return source, self._reader.document(source)

    def _built_documents(self, documents: Documents, run: _Run) -> Iterator[Document]:
        source, document = self._read(documents, run)
        pages = self._pages(source, document, run)
        try:
            for chunk in self._chunks(document, source.metadata):
                yield self._document(chunk, source, pages)
        except AsesoriaError as error:
            raise error.with_context(source=source.name) from error

    def transform_with_parents(
        self,
        documents: Iterable[Document],
        *,
        parent_max_tokens: int = DEFAULT_PARENT_MAX_TOKENS,
        parent_tokenizer: Tokenization | None = None,
    ) -> ChunksAndParents:
        """The chunk documents of every source, each naming its parent in
        ``metadata["parent_id"]``, and the parents (``langchain_asesoria.parents``) as
        Documents (``parent_document``: ``id`` is the ``parent_id``), in source order.

        Args:
            documents: As ``transform_documents``.
            parent_max_tokens: A parent's budget (default 1024), in content tokens of
                ``parent_tokenizer`` (default: the embedding model's tokenizer).
            parent_tokenizer: The generator's tokenizer (``load_parent_tokenizer``).

        Raises:
            ConfigurationError: ``parent_max_tokens`` below ``config.max_tokens``.
            AsesoriaError: a source that cannot be chunked, whatever ``on_error`` says
                (a source's parents need all its chunks).
        """
        check_parent_budget(parent_max_tokens, self._config)
        tokenizer = parent_tokenizer or self._tokenization
        result = ChunksAndParents([], [])
        with _Run() as run:
            for group in group_sources(documents, self._reader):
                self._add_with_parents(group, run, result, tokenizer, parent_max_tokens)
        return result

    def _add_with_parents(
        self,
        group: Documents,
        run: _Run,
        result: ChunksAndParents,
        tokenizer: Tokenization,
        parent_max_tokens: int,
    ) -> None:
        """One source's chunk documents and parents, added to ``result``."""
        # The retriever's module (LangChain's callbacks) loads only when parents are asked.
        from langchain_asesoria.langchain.parents import parent_document

        source, document = self._read(group, run)
        pages = self._pages(source, document, run)
        try:
            chunks = list(self._chunks(document, source.metadata))
        except AsesoriaError as error:
            raise error.with_context(source=source.name) from error
        built = read_document_parents(
            document,
            chunks,
            config=self._config,
            tokenizer=tokenizer,
            parent_max_tokens=parent_max_tokens,
        )
        for chunk, owner in zip(chunks, built.chunk_parents, strict=True):
            made = self._document(chunk, source, pages)
            made.metadata[PARENT_ID] = owner
            result.chunks.append(made)
        result.parents.extend(parent_document(p, source.key) for p in built.parents)

    def _pages(
        self, source: Source, document: DocumentPages, run: _Run
    ) -> dict[int, Mapping[Any, Any]]:
        """Each page's input metadata (``_page_metadata``) by its number."""
        metadata = self._page_metadata(source, document, run.left_out)
        return {page.page: meta for page, meta in zip(source.pages, metadata, strict=True)}

    def _document(
        self, chunk: Chunk, source: Source, pages: Mapping[int, Mapping[Any, Any]]
    ) -> Document:
        meta = chunk.metadata
        assert meta.page is not None  # the engine sets both
        assert meta.page_end is not None
        level = self._metadata_level
        metadata = self._input_metadata(source, pages[meta.page], pages[meta.page_end])
        content, _ = chunk_texts(chunk, self._page_content, level)
        if level == "lean":
            return Document(page_content=content, metadata=metadata)
        metadata.update(chunk_document_metadata(chunk, self._page_content, level))
        return Document(page_content=content, metadata=metadata, id=document_id(metadata, level))

    # -- document transformer API ---------------------------------------------------

    def transform_documents(self, documents: Sequence[Document], **kwargs: Any) -> list[Document]:
        """Chunks every source of ``documents``; sources in order of first appearance.

        A source's documents may be interleaved with other sources' and its pages may
        come in any order: all of them are held, grouped and ordered.
        """
        with _Run() as run:
            return [
                document
                for group in group_sources(self._reader.checked(documents), self._reader)
                for document in self._chunk_source(group, run)
            ]

    def lazy_transform_documents(self, documents: Iterable[Document]) -> Iterator[Document]:
        """Chunks a stream of documents holding one source at a time.

        Each source's documents must arrive together (pages in any order); its
        chunks are built and yielded one at a time once the next source starts or the
        stream ends.

        Raises:
            InvalidPagesError: a source whose documents arrive again after another's.
        """
        with _Run() as run:
            for group in self._sources(documents):
                yield from self._source_documents(group, run)

    async def alazy_transform_documents(
        self, documents: AsyncIterable[Document]
    ) -> AsyncIterator[Document]:
        """The asynchronous ``lazy_transform_documents``; chunking runs in an executor."""
        async for source_documents in self._aper_source(documents):
            for document in source_documents:
                yield document

    def _per_source(self, items: Iterable[DocumentsInput]) -> Iterator[list[Document]]:
        with _Run() as run:
            for group in self._sources(items):
                yield self._chunk_source(group, run)

    def _sources(self, items: Iterable[DocumentsInput]) -> Iterator[Documents]:
        """Each source's documents once they are all in."""
        grouper = SourceGrouper(self._reader)
        documents = (document for item in items for document in _documents_of(item))
        for document in self._reader.checked(documents):
            finished = grouper.add(document)
            if finished is not None:
                yield finished
        last = grouper.finish()
        if last is not None:
            yield last

    async def _aper_source(
        self, items: AsyncIterable[DocumentsInput], config: RunnableConfig | None = None
    ) -> AsyncIterator[list[Document]]:
        with _Run() as run:
            grouper, index = SourceGrouper(self._reader), 0
            async for item in items:
                for document in _documents_of(item):
                    finished = grouper.add(self._reader.checked_item(document, index))
                    index += 1
                    if finished is not None:
                        yield await run_in_executor(config, self._chunk_source, finished, run)
            last = grouper.finish()
            if last is not None:
                yield await run_in_executor(config, self._chunk_source, last, run)

    # -- Runnable API -----------------------------------------------------------------

    def invoke(
        self, input: DocumentsInput, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[Document]:
        """All chunk documents of the input's sources (see ``transform_documents``)."""
        return self._call_with_config(self._invoke, input, config)

    def _invoke(self, input: DocumentsInput) -> list[Document]:
        return self.transform_documents(list(_documents_of(input)))

    def transform(
        self,
        input: Iterator[DocumentsInput],
        config: RunnableConfig | None = None,
        **kwargs: Any | None,
    ) -> Iterator[list[Document]]:
        """Streams one list of chunk documents per source, chunking one source at a time.

        Traced as LangChain's own ``Runnable``s: the run's input is the documents, its
        output the chunk documents, and each source's list is an ``on_chain_stream``.
        """
        yield from self._transform_stream_with_config(_as_lists(input), self._per_source, config)

    async def atransform(
        self,
        input: AsyncIterator[DocumentsInput],
        config: RunnableConfig | None = None,
        **kwargs: Any | None,
    ) -> AsyncIterator[list[Document]]:
        """The asynchronous ``transform``; chunking runs in an executor."""
        async for documents in self._atransform_stream_with_config(
            _aas_lists(input), self._aper_source, config
        ):
            yield documents

    def stream(
        self, input: DocumentsInput, config: RunnableConfig | None = None, **kwargs: Any | None
    ) -> Iterator[list[Document]]:
        """One list of chunk documents per source, as each source is done."""
        yield from self.transform(iter([input]), config, **kwargs)

    async def astream(
        self, input: DocumentsInput, config: RunnableConfig | None = None, **kwargs: Any | None
    ) -> AsyncIterator[list[Document]]:
        """The asynchronous ``stream``."""

        async def once() -> AsyncIterator[DocumentsInput]:
            yield input

        async for documents in self.atransform(once(), config, **kwargs):
            yield documents
