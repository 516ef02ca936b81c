"""``AsesoriaTextSplitter``: a drop-in LangChain ``TextSplitter`` over the exact engine.

Each input text is one document of one page. For every produced ``Document`` ``d`` of
an input text ``t`` (with ``page_content="text"``, the default)::

    t[d.metadata["start_index"]:d.metadata["end_index"]] == d.page_content
    d.metadata["token_count"] <= config.max_tokens

The offsets come from the engine; they are never searched with ``str.find``, so they
stay right on repeated paragraphs and with overlap, where LangChain's own
``add_start_index`` finds the first occurrence instead.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import fields, replace
from typing import Any, Final, Literal

from langchain_core.documents import Document
from langchain_text_splitters import TextSplitter
from tokenizers import Tokenizer
from typing_extensions import Self

from langchain_asesoria.engine import chunk_document
from langchain_asesoria.errors import AsesoriaError, ConfigurationError
from langchain_asesoria.langchain.documents import ChunkingComponent, PageContent, chunk_texts
from langchain_asesoria.langchain.page_structure import STRUCTURE_KEYS, page_sections
from langchain_asesoria.langchain.sources import with_source
from langchain_asesoria.models import Chunk, ChunkingConfig, ChunkMetadata, LoadedPage, SectionSpan
from langchain_asesoria.records import (
    CHUNK_INDEX,
    END_INDEX,
    OVERLAP_TOKENS,
    SECTION_LABEL,
    SECTION_PATH,
    START_INDEX,
    TOKEN_COUNT,
    MetadataValue,
    chunk_metadata_record,
)
from langchain_asesoria.settings import Settings, get_settings
from langchain_asesoria.tokenization import (
    HuggingFaceTokenization,
    ModelProfile,
    Tokenization,
    load_tokenization,
)

__all__ = ["SPLITTER_KEYS", "AsesoriaTextSplitter"]

#: The record keys the splitter adds to a copy of each input's metadata. Document
#: fields and pages are the transformer's business: a splitter sees bare texts.
SPLITTER_KEYS: Final = (
    START_INDEX,
    END_INDEX,
    TOKEN_COUNT,
    OVERLAP_TOKENS,
    CHUNK_INDEX,
    SECTION_LABEL,
    SECTION_PATH,
)

_CONFIG_FIELDS: Final = frozenset(field.name for field in fields(ChunkingConfig))


class AsesoriaTextSplitter(ChunkingComponent, TextSplitter):
    """Splits texts into chunks that fit the embedding model exactly, with exact offsets.

    ``chunk_size`` is ``config.max_tokens`` and ``length_function`` is
    ``tokenization.count``: the budget is of the whole model input (prefix, section
    context, content and special tokens), not of the content alone.

    A page loaded by ``PdfPageLoader`` is split along its outline sections (the
    ``page_structure`` keys, which are not copied into chunks).

    Every chunk's metadata is a deep copy of its input's metadata plus ``start_index``
    (LangChain's meaning: offset of the chunk in its input text), ``end_index``
    (exclusive), ``token_count``, ``overlap_tokens`` (achieved, not targeted),
    ``chunk_index``, the section label and path when headings are detected, and the
    text that ``page_content`` does not hold (``embedding_text`` or ``text``).
    Documents keep the input order, and chunks their order within each input.

    Args:
        tokenization: The embedding model's tokenizer (``load_tokenization()``).
        config: Budget, overlap target and structure.
        page_content: ``"text"`` (default, the original text, as LangChain splitters
            do) or ``"embedding_text"`` (what the embedder must consume).

    Raises:
        ConfigurationError: wrong argument types or an unknown ``page_content``.
        ModelLimitError: ``config.max_tokens`` above the model's real limit.
    """

    def __init__(
        self,
        tokenization: Tokenization,
        config: ChunkingConfig,
        *,
        page_content: PageContent = "text",
    ) -> None:
        self._bind(tokenization, config, page_content)
        super().__init__(
            chunk_size=config.max_tokens,
            chunk_overlap=config.overlap_tokens,
            length_function=tokenization.count,
            add_start_index=True,
            strip_whitespace=True,
        )

    # -- constructors ---------------------------------------------------------------

    @classmethod
    def from_settings(
        cls,
        settings: Settings | None = None,
        *,
        page_content: PageContent = "text",
        **options: Any,
    ) -> Self:
        """Loads the tokenizer of ``EMBEDDING_MODEL`` and the budget of ``CHUNK_*``.

        Args:
            settings: Defaults to ``get_settings()`` (environment and ``.env``).
            page_content: As in the constructor.
            **options: Other ``ChunkingConfig`` fields (``detect_markdown_headings``...).

        Raises:
            MissingSettingError: ``CHUNK_SIZE_TOKENS`` or ``CHUNK_OVERLAP_TOKENS`` unset,
                or no real input limit known for the model.
            TokenizerLoadError: the tokenizer cannot be loaded.
        """
        settings = settings or get_settings()
        config = ChunkingConfig.from_settings(settings, **options)
        return cls(load_tokenization(settings), config, page_content=page_content)

    @classmethod
    def from_huggingface_tokenizer(
        cls,
        tokenizer: Any,
        *,
        chunk_size: int | None = None,
        chunk_overlap: int = 0,
        max_input_tokens: int | None = None,
        profile: ModelProfile | None = None,
        page_content: PageContent = "text",
        **kwargs: Any,
    ) -> AsesoriaTextSplitter:
        """Mirrors LangChain's constructor: a Hugging Face tokenizer counts the tokens.

        Args:
            tokenizer: A ``transformers`` fast tokenizer or a ``tokenizers.Tokenizer``.
            chunk_size: ``max_tokens``, the budget of the whole model input (required:
                there is no default size).
            chunk_overlap: ``overlap_tokens``, the overlap target.
            max_input_tokens: The model's real limit, when the tokenizer declares none.
            profile: Prefixes and limit of the model (E5: ``passage: ``/``query: ``).
            page_content: As in the constructor.
            **kwargs: Other ``ChunkingConfig`` fields (``detect_markdown_headings``...).

        Raises:
            ConfigurationError: no ``chunk_size``, or an unknown keyword argument.
            MissingSettingError: no real input limit is known.
            TokenizerLoadError: a slow ``transformers`` tokenizer.
        """
        unknown = sorted(set(kwargs) - _CONFIG_FIELDS)
        if unknown:
            raise ConfigurationError(
                f"unknown argument(s) {', '.join(unknown)}: pass chunk_size, chunk_overlap, "
                f"or ChunkingConfig fields ({', '.join(sorted(_CONFIG_FIELDS))})."
            )
        if chunk_size is None:
            raise ConfigurationError(
                "chunk_size is required (tokens of the whole model input): there is no "
                "default size; the seed's candidates are 256/32, 384/48 and 480/64."
            )
        config = ChunkingConfig(max_tokens=chunk_size, overlap_tokens=chunk_overlap, **kwargs)
        tokenization = _huggingface_tokenization(tokenizer, profile, max_input_tokens)
        return cls(tokenization, config, page_content=page_content)

    @classmethod
    def from_tiktoken_encoder(
        cls,
        encoding_name: str = "gpt2",
        model_name: str | None = None,
        allowed_special: Literal["all"] | AbstractSet[str] | None = None,
        disallowed_special: Literal["all"] | Collection[str] = "all",
        **kwargs: Any,
    ) -> Self:
        """Not supported: tiktoken counts are not the embedding model's tokens.

        Raises:
            ConfigurationError: always; use ``from_huggingface_tokenizer`` or pass a
                ``Tokenization``.
        """
        raise ConfigurationError(
            f"AsesoriaTextSplitter counts with the embedding model's own tokenizer, not "
            f"tiktoken ({model_name or encoding_name!r}): use from_huggingface_tokenizer(), "
            "from_settings() or AsesoriaTextSplitter(load_tokenization(...), config)."
        )

    # -- splitting ------------------------------------------------------------------

    def split_text(self, text: str) -> list[str]:
        """The chunks' ``page_content`` values, in order (original texts by default)."""
        return [chunk_texts(chunk, self._page_content)[0] for chunk in self.split_chunks(text)]

    def split_chunks(
        self, text: str, name: str = "text", sections: Sequence[SectionSpan] | None = None
    ) -> list[Chunk]:
        """The engine's chunks of one text, offsets relative to ``text``.

        ``sections`` (spans of ``text``) replace Markdown heading detection when given.

        Raises:
            AsesoriaError: any engine error, its message naming ``name``.
        """
        config = self._config
        if sections is not None:
            config = replace(config, detect_markdown_headings=False)
        try:
            return chunk_document(
                [LoadedPage(text, 1)],
                ChunkMetadata(doc_id=name),
                config=config,
                tokenization=self._tokenization,
                sections=sections,
            )
        except AsesoriaError as error:
            raise with_source(error, name) from error

    def create_documents(
        self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
    ) -> list[Document]:
        """One ``Document`` per chunk, input order kept, metadata deep-copied per chunk.

        Raises:
            ConfigurationError: ``metadatas`` not of the same length as ``texts``.
            AsesoriaError: a text that cannot be chunked (the message names its
                ``source``, or its position).
        """
        if metadatas is not None and len(metadatas) != len(texts):
            raise ConfigurationError(
                f"got {len(texts)} texts but {len(metadatas)} metadatas: pass one metadata "
                "dict per text, or none."
            )
        documents: list[Document] = []
        for index, text in enumerate(texts):
            base = metadatas[index] if metadatas is not None else {}
            name = _name_of(base, index)
            try:
                sections = page_sections(base, text, name)
            except AsesoriaError as error:
                raise with_source(error, name) from error
            base = {key: value for key, value in base.items() if key not in STRUCTURE_KEYS}
            for chunk in self.split_chunks(text, name, sections):
                metadata = copy.deepcopy(base)
                metadata.update(self.chunk_metadata(chunk))
                content = chunk_texts(chunk, self._page_content)[0]
                documents.append(Document(page_content=content, metadata=metadata))
        return documents

    def chunk_metadata(self, chunk: Chunk) -> dict[str, MetadataValue]:
        """The keys the splitter adds: ``SPLITTER_KEYS`` that are set, and the other text."""
        record = chunk_metadata_record(chunk)
        added: dict[str, MetadataValue] = {}
        added.update((key, record[key]) for key in SPLITTER_KEYS if key in record)
        added.update(chunk_texts(chunk, self._page_content)[1])
        return added


def _name_of(metadata: Mapping[Any, Any], index: int) -> str:
    """The input's ``source`` for messages, or its position."""
    source = metadata.get("source")
    return str(source) if source not in (None, "") else f"texts[{index}]"


def _huggingface_tokenization(
    tokenizer: Any, profile: ModelProfile | None, max_input_tokens: int | None
) -> HuggingFaceTokenization:
    if isinstance(tokenizer, Tokenizer):
        base = profile or ModelProfile()
        if max_input_tokens is not None:
            base = replace(base, max_input_tokens=max_input_tokens)
        return HuggingFaceTokenization(tokenizer, base)
    return HuggingFaceTokenization.from_transformers(
        tokenizer, profile=profile, max_input_tokens=max_input_tokens
    )
