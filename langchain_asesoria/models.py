"""Domain values: pages in, chunks out, and the configuration between them.

All values are immutable. Offsets are global positions in the *joined* text of a
document (its pages joined by ``ChunkingConfig.page_separator``), ``start``
inclusive and ``end`` exclusive, so that for every chunk ``c`` of a document::

    joined_text[c.start:c.end] == c.text
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal, get_args

from langchain_asesoria.errors import ConfigurationError, MissingSettingError, PrivacyError

if TYPE_CHECKING:
    from langchain_asesoria.settings import Settings

SourceScope = Literal["public", "private"]
SectionContext = Literal["compact", "path", "label", "none"]

#: Every ``SectionContext`` value, as options and messages list them.
SECTION_CONTEXTS: tuple[SectionContext, ...] = get_args(SectionContext)

#: The default context: cheap, and always within ``ChunkingConfig.context_share``.
DEFAULT_SECTION_CONTEXT: SectionContext = "compact"

#: The numerals a law writes as words to label its apartados ("Uno.", "Dos."), in order.
WORD_NUMERALS: tuple[str, ...] = (
    *("Uno", "Dos", "Tres", "Cuatro", "Cinco", "Seis", "Siete", "Ocho", "Nueve", "Diez"),
    *("Once", "Doce", "Trece", "Catorce", "Quince", "Dieciséis", "Diecisiete", "Dieciocho"),
    *("Diecinueve", "Veinte"),
)

#: Item labels that open a line of law and end with a period ("2.", "IV.", "Ocho."):
#: they belong to the text after them, so a period right after one ends no sentence.
ITEM_LABELS: tuple[str, ...] = (
    r"\d\.",
    r"\d\d\.",
    r"\d\d\d\.",
    r"[IVXL]\.",
    r"[IVXL]{2}\.",
    r"[IVXL]{3}\.",
    r"[IVXL]{4}\.",
    *(rf"{word}\." for word in WORD_NUMERALS[:15]),
)

#: Spanish abbreviations whose period ends no sentence ("art. 5", "núm. 3", "S.A. de").
ABBREVIATIONS: tuple[str, ...] = (
    "art",
    "arts",
    "núm",
    "núms",
    "apdo",
    "apdos",
    "aptdo",
    "pág",
    "págs",
    "Sr",
    "Sra",
    "Sres",
    "Srs",
    "Dña",
    "Excmo",
    "Excma",
    "Ilmo",
    "Ilma",
    "etc",
    "S.A",
    "S.L",
    "S.L.U",
    "EE.UU",
    "vid",
    "cfr",
    "ss",
    "op",
    "cit",
)


#: Before the lookbehinds of a line or paragraph end: only at a line break are they
#: tried (``re`` tries a pattern's parts in order at every position; dozens of
#: lookbehinds first made these two separators 20 times slower than the others).
_AT_BREAK = r"(?=[\r\n])"


#: Lookbehinds: no space or tab before the line break, nor before the one or two line
#: breaks before it (a page joined after a wrapped line: "planes \n" + "\n\n" + "de
#: pensiones" is one sentence across a page).
_NOT_WRAPPED = "".join(
    rf"(?<![^\S\r\n]{breaks})" for breaks in ("", "\r", "\n", "\n\n", "\r\n", "\r\n\r", "\r\n\r\n")
)


def _after_no_label() -> str:
    """Lookbehinds: the text before is no item label alone at a line's start."""
    return "".join(rf"(?<![\r\n]{label})(?<!^{label})" for label in ITEM_LABELS)


#: The words a BOE editorial note opens with: legalize-es sets it as a quoted line of
#: small print ("> <small>Se modifica el apartado 2 por…"), or a quoted line in the BOE's
#: wording ("> Se añade por…", "> Téngase en cuenta…", "> Redacción anterior:"); the BOE's
#: web pages as a paragraph ("Texto añadido, publicado el…").
BOE_NOTE = (
    r"(?:<small>|[Ss]e\s+(?:modific|añad|derog|suprim|renumer|declar|dej|sustitu|actualiz)"
    r"|Téngase en cuenta|Redacci[óo]n (?:anterior|hasta)|Redactad|Texto añadido)"
)
#: The words of the enacting formula that closes a decree's preamble ("DISPONGO:",
#: "D I S P O N G O :", "Resuelvo:"), the grammar's too (``structure.legal_grammar``).
ENACTING_WORDS = r"d\s?i\s?s\s?p\s?o\s?n\s?g\s?o|dispone|decreto|resuelvo|acuerdo|ordeno"
#: No separator cuts right before a quoted note, nor before the enacting formula on a
#: line of its own (each separator takes the whitespace before it whole, then looks
#: ahead): a note stays with the text it annotates and the formula with the sentence it
#: ends ("En su virtud, …, previa deliberación del Consejo de Ministros…, ⏎ DISPONGO:"),
#: and no chunk is notes or the formula alone unless those alone exceed the budget.
_NOT_BEFORE_GLUED = (
    rf"(?!>[^\S\r\n]*{BOE_NOTE}"
    # at a line's start only: one character looked back, so the spaces between words
    # never try the formula's words
    rf"|(?<=[\r\n])[*_]*(?i:{ENACTING_WORDS})[^\S\r\n]*:[*_]*[^\S\r\n]*(?:\r\n?|\n))"
)


def _line_end() -> str:
    """Line ends, but not after a space (a wrapped PDF line), a lone bullet or a lone
    item label: those open the text below them."""
    return (
        rf"{_AT_BREAK}{_NOT_WRAPPED}(?<![\r\n][•·▪◦●‣∙]){_after_no_label()}"
        rf"(?:\r\n?|\n)\s*+{_NOT_BEFORE_GLUED}"
    )


def _sentence_end() -> str:
    """Sentence ends: a period, ``!``, ``?`` or ``…`` then space, closing quotes and
    brackets kept with their sentence, but not after a line's item label or an
    abbreviation (fixed-width lookbehinds, one per form), nor before a cell's ``|``."""
    labels = _after_no_label()
    abbreviations = "".join(rf"(?<!\b{re.escape(word)}\.)" for word in ABBREVIATIONS)
    return rf"(?<=[.!?…]){labels}{abbreviations}[\"'»”’)\]]*\s+(?![\s|]){_NOT_BEFORE_GLUED}"  # noqa: RUF001


#: Separators tried from the coarsest to the finest: paragraphs (a blank line; a lone
#: item label, "Ocho.", opens the paragraph after it), lines
#: (``\n``, ``\r\n`` or a lone ``\r`` right after text), sentence ends (closing quotes
#: and brackets stay with their sentence; not after an item label that opens a line,
#: "2. Las personas", nor after an abbreviation, ``ITEM_LABELS``, ``ABBREVIATIONS``,
#: nor before a table's cell separator: "ALBACETE. | 02" is a cell of a row), clause
#: ends (``;`` and ``:``, which also join the rows of a table inside a web page's cell,
#: then ``,``), spaces. A
#: line break after a space or tab is no line: PDF text extraction (pypdf) leaves one
#: where a printed line wraps inside a sentence ("del \ncontribuyente"), and a chunk
#: should not start there. Nor is one after a line holding only a bullet ("•\nEl
#: saldo"): the bullet opens the item below it, and a chunk should not end with it.
#: Each is a regular expression; a text is cut at the *end* of
#: each match, so a separator's characters stay with the unit before it, and outer
#: whitespace is then trimmed. Overlap starts at the coarsest of them that fits. No
#: separator cuts right before a BOE editorial note or the enacting formula
#: (``_NOT_BEFORE_GLUED``).
DEFAULT_SEPARATORS: tuple[str, ...] = (
    _AT_BREAK
    + _NOT_WRAPPED
    + _after_no_label()
    + r"(?:\r\n?|\n)[^\S\r\n]*(?:\r\n?|\n)\s*+"
    + _NOT_BEFORE_GLUED,
    _line_end(),
    _sentence_end(),
    r"(?<=[;:])\s++" + _NOT_BEFORE_GLUED,
    r"(?<=,)\s++" + _NOT_BEFORE_GLUED,
    r"\s++" + _NOT_BEFORE_GLUED,
)


@dataclass(frozen=True, slots=True)
class LoadedPage:
    """The text of one page, as a loader extracted it.

    Attributes:
        text: The page's text, already cleaned: offsets are computed on it as given.
        page: The page number, a positive integer (1-based).
        source: Optional name of the document the page belongs to; when given, every
            page passed to one ``chunk_document`` call must carry the same source.
    """

    text: str
    page: int
    source: str | None = None


@dataclass(frozen=True, slots=True)
class SectionSpan:
    """A reliable section of a document in global offsets of the joined text.

    Attributes:
        start: First character of the section (inclusive).
        end: End of the section (exclusive); ``start < end``.
        section_label: The section's own title, for example ``"Artículo 5"``.
        section_path: Titles from the outermost section down to this one.
        title_end: Where the title that opens the section (its heading lines) ends,
            when known: no chunk ends between the title and what follows it, so no
            chunk is only a heading when the budget allows more. ``None``: unknown.
        fields: Metadata of the section's own that each of its chunks carries
            (``ChunkMetadata.section_fields``): a BOE block's id and its wording's
            dates, ``(key, value)`` with a str, int, float or bool value.
    """

    start: int
    end: int
    section_label: str | None = None
    section_path: tuple[str, ...] = ()
    title_end: int | None = None
    fields: tuple[tuple[str, str | int | float | bool], ...] = ()


@dataclass(frozen=True, slots=True)
class LeadSpan:
    """A stretch of a list or a table whose chunks need what precedes it to be read.

    A chunk that starts in ``[start, end)`` (global offsets of the joined text) carries
    ``lead`` (a list's lead-in, "La exención no comprenderá:", or a table's header row)
    in its ``embedding_text``, inside the section context's share and counted like it;
    its ``text`` stays verbatim. Spans nest or are disjoint: the innermost applies.

    Attributes:
        start: The first item or row after the lead (inclusive).
        end: The list's or table's end (exclusive); ``start < end``.
        lead: What the chunks starting inside carry (lines: a list's lead-in, then a
            table's header row when the table is in a list's item).
        table: Whether ``lead`` ends with a table's header: shortened, a header keeps
            its first words (the first columns), a lead-in its last ones (what its
            colon announces).
    """

    start: int
    end: int
    lead: str
    table: bool = False


@dataclass(frozen=True, slots=True)
class ChunkMetadata:
    """Document fields, and the per-chunk fields the chunker fills in.

    Every chunk receives its own instance: the document fields are copied and
    ``page``, ``page_end``, ``chunk_index``, ``section_label``, ``section_path`` and
    ``section_fields`` are set per chunk. ``extra`` holds more document fields,
    ``(key, value)`` with a str, int, float or bool value (a Markdown file's front
    matter as ``fm_<key>``, when asked), copied into every chunk's record after the
    fields above; ``section_fields`` are the chunk's section's own (``SectionSpan.fields``:
    a BOE block's id, its wording's dates), copied last, so they win over a document
    field of the same key (a wording's ``vigencia`` over the document's).

    Raises:
        PrivacyError: ``source_scope="private"`` without a ``session_id``.
        ConfigurationError: an unknown ``source_scope`` or an empty ``doc_id``.
    """

    doc_id: str
    doc_type: str = "document"
    tax: str | None = None
    fiscal_year: int | None = None
    source_scope: SourceScope = "public"
    session_id: str | None = None
    vigencia: str | None = None
    page: int | None = None
    page_end: int | None = None
    chunk_index: int | None = None
    section_label: str | None = None
    section_path: tuple[str, ...] = ()
    extra: tuple[tuple[str, str | int | float | bool], ...] = ()
    section_fields: tuple[tuple[str, str | int | float | bool], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.doc_id, str) or not self.doc_id.strip():
            raise ConfigurationError(
                f"doc_id must be a non-empty string, got {self.doc_id!r}: give each document "
                "a stable identifier.",
                expected="a non-empty string",
            )
        if self.source_scope not in ("public", "private"):
            raise ConfigurationError(
                f"source_scope must be 'public' or 'private', got {self.source_scope!r}.",
                doc_id=self.doc_id,
                expected="'public' or 'private'",
            )
        if self.source_scope == "private" and not self.session_id:
            raise PrivacyError(
                "source_scope is 'private' but there is no session_id: private documents "
                "must carry the session_id that isolates them at retrieval.",
                doc_id=self.doc_id,
                expected="a session_id",
            )

    def for_chunk(
        self,
        *,
        page: int,
        page_end: int,
        chunk_index: int,
        section_label: str | None,
        section_path: tuple[str, ...],
        section_fields: tuple[tuple[str, str | int | float | bool], ...] = (),
    ) -> ChunkMetadata:
        """Returns an independent copy with the per-chunk fields set."""
        return replace(
            self,
            page=page,
            page_end=page_end,
            chunk_index=chunk_index,
            section_label=section_label,
            section_path=section_path,
            section_fields=section_fields,
        )


@dataclass(frozen=True, slots=True)
class Chunk:
    """One piece of a document, ready to embed and to cite.

    Invariants (for the ``joined`` text of its document and its configuration):
        ``joined[start:end] == text``; ``text`` has no outer whitespace;
        ``token_count == tokenization.count(embedding_text) <= max_tokens``;
        ``0 <= overlap_tokens <= overlap target``.

    Attributes:
        text: The original text, for citations.
        embedding_text: What the embedder must consume unchanged: model prefix,
            section context and ``text``, as built by ``Tokenization.prepare``.
        start: Global offset of the first character (inclusive).
        end: Global offset after the last character (exclusive).
        token_count: Exact tokens of ``embedding_text``, special tokens included.
        overlap_tokens: Exact tokens of the content shared with the previous chunk
            (no prefix, context or special tokens); 0 for a section's first chunk.
        metadata: This chunk's own metadata.
    """

    text: str
    embedding_text: str
    start: int
    end: int
    token_count: int
    overlap_tokens: int
    metadata: ChunkMetadata


@dataclass(frozen=True, slots=True)
class ChunkingConfig:
    """How to chunk: the token budget, the overlap target, the cuts and the context.

    Structure (sections, Markdown headings, lists' leads) is not chunking's to find:
    the reading stage finds it (``ReadOptions``), or the caller gives it.

    There is deliberately no default size: the candidate sizes of the AsesorIA chunking
    specification (256/32, 384/48, 480/64, ``SIZE_CANDIDATES``) are experiments to be
    chosen by measured retrieval.

    Attributes:
        max_tokens: Budget of the whole prepared input (prefix, section context,
            content and special tokens). Never above the model's real limit.
        overlap_tokens: Target of content tokens re-used from the previous chunk;
            the effective overlap may be smaller, or zero.
        separators: Regular expressions from the coarsest to the finest. The first is
            searched in the whole section; each finer one only inside a unit that the
            coarser ones leave too large to fit (the recursive split), so a pattern's
            lookbehinds see the text before that unit and it matches within it.
        page_separator: Whitespace joining pages; it belongs to no page.
        section_context: What of a section is added before the content: by default
            ``"compact"`` (the innermost title and the ancestors that fit in
            ``context_share`` of the budget, the middle elided, the title shortened
            only as the last step: it always fits; a section's first chunk leaves out
            the titles its own text opens with), or as the AsesorIA chunking
            specification defines them, its whole ``"path"``, its ``"label"`` only, or
            ``"none"`` (a context that fills the budget is then an error).
        context_share: The share of ``max_tokens`` a ``"compact"`` context may take.
        carry_leads: With the ``"compact"`` context, a chunk that starts inside a list
            or a table carries the list's lead-in ("La exención no comprenderá:") or the
            table's header row in its context, within ``context_share`` and counted
            like it (``LeadSpan``, ``structure.leads``); ``text`` stays verbatim.

    Raises:
        ConfigurationError: a budget below 1, an overlap outside ``[0, max_tokens)``,
            a separator that is not a valid regular expression, or a page separator
            that is empty or not whitespace.
    """

    max_tokens: int
    overlap_tokens: int
    separators: tuple[str, ...] = field(default=DEFAULT_SEPARATORS)
    page_separator: str = "\n\n"
    section_context: SectionContext = DEFAULT_SECTION_CONTEXT
    context_share: float = 0.125
    carry_leads: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.max_tokens, bool) or not isinstance(self.max_tokens, int):
            raise ConfigurationError(
                f"max_tokens must be an integer, got {self.max_tokens!r}.", expected="an integer"
            )
        if isinstance(self.overlap_tokens, bool) or not isinstance(self.overlap_tokens, int):
            raise ConfigurationError(
                f"overlap_tokens must be an integer, got {self.overlap_tokens!r}.",
                expected="an integer",
            )
        if self.max_tokens < 1:
            raise ConfigurationError(
                f"max_tokens must be at least 1, got {self.max_tokens}.", expected="at least 1"
            )
        if not 0 <= self.overlap_tokens < self.max_tokens:
            raise ConfigurationError(
                f"overlap_tokens must be in [0, max_tokens={self.max_tokens}), got "
                f"{self.overlap_tokens}: lower the overlap (the candidate sizes use 12.5%).",
                expected=f"[0, {self.max_tokens})",
            )
        for pattern in self.separators:
            try:
                re.compile(pattern)
            except re.error as error:
                raise ConfigurationError(
                    f"separator {pattern!r} is not a valid regular expression: {error}.",
                    expected="a regular expression",
                ) from error
        if not self.page_separator or not self.page_separator.isspace():
            raise ConfigurationError(
                f"page_separator must be non-empty whitespace, got {self.page_separator!r}: "
                "it belongs to no page and must never join two words.",
                expected="non-empty whitespace",
            )
        if isinstance(self.context_share, bool) or not (
            isinstance(self.context_share, int | float) and 0 < self.context_share <= 1
        ):
            raise ConfigurationError(
                f"context_share must be a number in (0, 1], got {self.context_share!r}: the "
                "share of max_tokens a compact section context may take (default 0.125).",
                expected="(0, 1]",
            )
        if not isinstance(self.carry_leads, bool):
            raise ConfigurationError(
                f"carry_leads must be True or False, got {self.carry_leads!r}.",
                expected="a bool",
            )
        if self.section_context not in SECTION_CONTEXTS:
            choices = ", ".join(map(repr, SECTION_CONTEXTS))
            raise ConfigurationError(
                f"section_context must be one of {choices}, got {self.section_context!r}.",
                expected=choices,
            )

    @classmethod
    def from_settings(cls, settings: Settings, **options: object) -> ChunkingConfig:
        """Builds a config from ``CHUNK_SIZE_TOKENS`` and ``CHUNK_OVERLAP_TOKENS``.

        Raises:
            MissingSettingError: either setting is missing; there is no default to guess.
        """
        missing = [
            name
            for name, value in (
                ("CHUNK_SIZE_TOKENS", settings.chunk_size_tokens),
                ("CHUNK_OVERLAP_TOKENS", settings.chunk_overlap_tokens),
            )
            if value is None
        ]
        if missing:
            raise MissingSettingError(
                f"set {' and '.join(missing)}: there is no default chunk size; the candidate "
                "sizes are 256/32, 384/48 and 480/64 (choose by measured retrieval).",
                expected=" and ".join(missing),
            )
        assert settings.chunk_size_tokens is not None
        assert settings.chunk_overlap_tokens is not None
        return cls(
            max_tokens=settings.chunk_size_tokens,
            overlap_tokens=settings.chunk_overlap_tokens,
            **options,  # type: ignore[arg-type]
        )


#: The candidate sizes of the AsesorIA chunking specification: three experimental
#: configurations, none declared the best (choose by measured retrieval).
SIZE_CANDIDATES: tuple[ChunkingConfig, ...] = (
    ChunkingConfig(max_tokens=256, overlap_tokens=32),
    ChunkingConfig(max_tokens=384, overlap_tokens=48),
    ChunkingConfig(max_tokens=480, overlap_tokens=64),
)
