"""Parents: the larger block of a document each chunk belongs to, within a token budget.

Small chunks are what an index searches; the generator is better served by the unit they
come from (an article with its conditions and exceptions). Every chunk gets one parent:

- its smallest unit (the section it lies in: an article, a disposición, an ANEXO's part;
  a section of any other document; the text outside every section) when that unit fits
  ``parent_max_tokens``;
- otherwise a window of the unit: consecutive whole chunks, as many as fit, never
  crossing the unit's edge (chunks already end at paragraphs, items or sentences);
- a chunk that alone does not fit (possible only with a parent tokenizer other than the
  embedding model's) is cut as the engine cuts (paragraphs, sentences, words, never
  truncated); the chunk's parent is then the piece where it starts.

Invariants, for ``parents = build_parents(...)`` over the ``joined`` text::

    joined.text[p.start:p.end] == p.text
    p.token_count == tokenizer.count_content(p.text) <= parent_max_tokens
    parent.start <= c.start and c.end <= parent.end   (whenever the chunk alone fits)

and a parent's ``parent_id`` depends only on its document, path, span and text.

Memory and time stay within a constant of the chunks' own, whatever the document: a
unit longer than ``_PIECE`` characters is counted whole only when its estimate (the
parent tokenizer's ``token_index``, made piece by piece) is near the budget, and its
windows are placed by the estimates and confirmed by one exact count each, counted 64
at a time (``count_many``); every text handed to the tokenizer is a window or a piece,
a span of the one joined text, never the whole unit. Estimates only save counts: every
window is confirmed: one the estimate made too long shrinks to the longest that fits.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_right
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice, takewhile
from typing import Any, Literal, TypeAlias

from langchain_asesoria.engine import (
    TokenCounter,
    TokenIndex,
    Tokenization,
    chunks,
    content_segments,
)
from langchain_asesoria.errors import (
    ConfigurationError,
    IndivisibleCharacterError,
    MissingSettingError,
)
from langchain_asesoria.models import Chunk, ChunkingConfig, ChunkMetadata, LoadedPage, SectionSpan
from langchain_asesoria.pages import JoinedText, join_pages
from langchain_asesoria.reading.document import DocumentPages
from langchain_asesoria.records import (
    DOC_ID,
    END_INDEX,
    PAGE,
    PAGE_END,
    PARENT_ID,
    SECTION_PATH,
    SECTION_PATH_SEPARATOR,
    SOURCE,
    START_INDEX,
    TEXT,
    TOKEN_COUNT,
    MetadataValue,
)
from langchain_asesoria.tokenization import load_tokenization

#: The default budget of one parent, in the parent tokenizer's content tokens.
DEFAULT_PARENT_MAX_TOKENS = 1024


@dataclass(frozen=True, slots=True)
class Parent:
    """A block of a document handed to the generator in place of its chunks.

    Attributes:
        parent_id: Stable id: the same document, path, span and text give the same id.
        doc_id: The document's ``doc_id``.
        start: Offset of the first character in the joined text (inclusive).
        end: Offset after the last character (exclusive).
        text: ``joined.text[start:end]``, verbatim.
        token_count: Exact content tokens of ``text`` in the parent tokenizer.
        page: The page holding ``start``.
        page_end: The page holding the last character.
        section_label: The unit's own title, when it has one.
        section_path: Titles from the outermost section down to the unit.
    """

    parent_id: str
    doc_id: str
    start: int
    end: int
    text: str
    token_count: int
    page: int
    page_end: int
    section_label: str | None
    section_path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DocumentParents:
    """A document's parents in document order, and each chunk's parent.

    Invariant: ``chunk_parents[i]`` is the ``parent_id`` of ``chunks[i]`` (the chunks as
    given), and names one of ``parents``.
    """

    parents: tuple[Parent, ...]
    chunk_parents: tuple[str, ...]

    def by_id(self) -> dict[str, Parent]:
        """The parents by id."""
        return {parent.parent_id: parent for parent in self.parents}


def parent_id(doc_id: str, start: int, end: int, section_path: Sequence[str], text: str) -> str:
    """A parent's stable id (32 hex digits), from its document, span, path and text."""
    digest = hashlib.sha256()
    for part in (doc_id, str(start), str(end), SECTION_PATH_SEPARATOR.join(section_path), text):
        digest.update(part.encode("utf-8"))
        digest.update(b"\x00")
    return digest.hexdigest()[:32]


def check_parent_budget(parent_max_tokens: int, config: ChunkingConfig) -> None:
    """Fails unless ``parent_max_tokens`` holds what a chunk and its context may take.

    Raises:
        ConfigurationError: not an integer, or below ``config.max_tokens``.
    """
    if isinstance(parent_max_tokens, bool) or not isinstance(parent_max_tokens, int):
        raise ConfigurationError(
            f"parent_max_tokens must be an integer, got {parent_max_tokens!r}.",
            expected="an integer",
        )
    if parent_max_tokens < config.max_tokens:
        raise ConfigurationError(
            f"parent_max_tokens={parent_max_tokens} is below max_tokens={config.max_tokens}, "
            "what one chunk and its context may take: a parent must hold its chunks; raise "
            f"parent_max_tokens to at least {config.max_tokens}.",
            expected=f"at least {config.max_tokens}",
        )


def load_parent_tokenizer(model: str, parent_max_tokens: int) -> Tokenization:
    """The tokenizer that counts parents: anything ``load_tokenization`` loads (a Hugging
    Face name or folder, a ``tokenizer.json``, a tiktoken encoding or model).

    A tokenizer that declares no input limit gets ``parent_max_tokens`` as its limit:
    parents are counted, never fed to that model whole.
    """
    try:
        return load_tokenization(model)
    except MissingSettingError:
        return load_tokenization(model, max_input_tokens=parent_max_tokens)


class _ContentTokens:
    """A tokenization that counts content only, adds nothing and has no input limit: how
    the engine cuts a unit too large for one parent, counted as parents are."""

    __slots__ = ("_inner",)

    def __init__(self, inner: Tokenization) -> None:
        self._inner = inner

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def max_input_tokens(self) -> int:
        return 2**62

    def count(self, text: str) -> int:
        return self._inner.count_content(text)

    def count_content(self, text: str) -> int:
        return self._inner.count_content(text)

    def count_many(self, texts: Iterable[str], *, content: bool = False) -> Iterator[int]:
        return self._inner.count_many(texts, content=True)

    def token_index(self, text: str) -> TokenIndex:
        return self._inner.token_index(text)

    def token_starts(self, text: str) -> Sequence[int]:
        return self._inner.token_starts(text)

    def prepare(self, content: str, context: str = "") -> str:
        return content

    def prepare_query(self, text: str) -> str:
        return text


_SPACE = re.compile(r"\s")

#: Windows planned and counted at once.
_BATCH = 64

#: Units of up to this many characters are counted exactly whole; a longer one is
#: estimated first, from token indexes of pieces about this long (``_Estimates``).
_PIECE = 1 << 16


@dataclass(frozen=True, slots=True)
class _Unit:
    """A unit of the document (a section or a gap between sections) and its chunks."""

    label: str | None
    path: tuple[str, ...]
    chunks: tuple[int, ...]


class _Estimates:
    """Estimated content tokens of spans of one unit of the joined text (state of one
    unit only), from the parent tokenizer's ``token_index`` of pieces of about
    ``_PIECE`` characters cut at whitespace: made as the windows reach them, dropped
    once the windows are past them. Memory holds a piece and a window, however long
    the unit; the text is never copied whole."""

    __slots__ = ("_end", "_next", "_pieces", "_text", "_tokenizer")

    def __init__(self, text: str, start: int, end: int, tokenizer: Tokenization) -> None:
        self._text, self._end, self._tokenizer = text, end, tokenizer
        self._next = start
        self._pieces: deque[tuple[int, int, TokenIndex]] = deque()

    def _grow(self) -> None:
        start = self._next
        space = _SPACE.search(self._text, start + _PIECE, self._end)
        end = space.start() if space is not None else self._end
        self._pieces.append((start, end, self._tokenizer.token_index(self._text[start:end])))
        self._next = end

    def drop_before(self, position: int) -> None:
        """Forgets the pieces that end at or before ``position``."""
        while self._pieces and self._pieces[0][1] <= position:
            self._pieces.popleft()

    def count(self, start: int, end: int) -> int:
        """Estimated content tokens of ``[start, end)`` (``start`` not before a dropped
        piece): exact between words for tokenizers that split at whitespace."""
        while self._next < end:
            self._grow()
        return sum(
            index.count(max(start, first) - first, min(end, last) - first)
            for first, last, index in self._pieces
            if first < end and start < last
        )

    def above(self, start: int, end: int, tokens: int) -> bool:
        """Whether the estimate of ``[start, end)`` is above ``tokens``, reading only as
        many pieces as it takes to pass them."""
        while self._next < end and self.count(start, self._next) <= tokens:
            self._grow()
        return self.count(start, min(end, self._next)) > tokens


class _Builder:
    """One document's parents, built unit by unit (state of one call only)."""

    def __init__(
        self, joined: JoinedText, doc_id: str, tokenizer: Tokenization, budget: int
    ) -> None:
        self.joined = joined
        self.doc_id = doc_id
        self.tokenizer = tokenizer
        self.budget = budget
        self.parents: dict[str, Parent] = {}

    def count(self, start: int, end: int) -> int:
        return self.tokenizer.count_content(self.joined.text[start:end])

    def add(self, start: int, end: int, unit: _Unit, tokens: int) -> str:
        text = self.joined.text[start:end]
        built = Parent(
            parent_id=parent_id(self.doc_id, start, end, unit.path, text),
            doc_id=self.doc_id,
            start=start,
            end=end,
            text=text,
            token_count=tokens,
            page=self.joined.page_at(start),
            page_end=self.joined.page_at(end - 1),
            section_label=unit.label,
            section_path=unit.path,
        )
        # Pieces cut from two overlapping chunks may coincide: one parent.
        self.parents.setdefault(built.parent_id, built)
        return built.parent_id

    def windows(self, unit: _Unit, chunks: Sequence[Chunk]) -> Iterator[tuple[int, str]]:
        """Each of the unit's chunks with its parent: the whole unit when it fits, else
        windows of whole consecutive chunks, each as long as fits.

        A unit is counted exactly whole unless it is longer than ``_PIECE`` and its
        estimate is above twice the budget: a unit of a million tokens (a long text
        without sections) is never encoded whole."""
        members = [chunks[i] for i in unit.chunks]
        start, end = members[0].start, max(c.end for c in members)
        estimates = _Estimates(self.joined.text, start, end, self.tokenizer)
        if end - start <= _PIECE or not estimates.above(start, end, 2 * self.budget):
            tokens = self.count(start, end)
            if tokens <= self.budget:
                whole = self.add(start, end, unit, tokens)
                yield from ((i, whole) for i in unit.chunks)
                return
        yield from self.tiles(unit, members, estimates)

    def tiles(
        self, unit: _Unit, members: Sequence[Chunk], estimates: _Estimates
    ) -> Iterator[tuple[int, str]]:
        """The windows of a unit that does not fit, each chunk with its own.

        Windows are settled ``_BATCH`` at a time while the estimates hold; after a plan
        they got wrong, the next batch is twice the windows the last one kept (one
        after a miss), so a tokenizer whose estimates are often off spends a few counts
        per window, never a batch."""
        first, size = 0, _BATCH
        while first < len(members):
            settled, missed = self.settle(members, first, estimates, size)
            size = min(_BATCH, max(1, 2 * len(settled)))
            found = settled or self.window(members, first, estimates, missed)
            if found is None:
                start, end = members[first].start, members[first].end
                yield unit.chunks[first], self.cut(start, end, unit)
                first += 1
                continue
            for last, end, tokens in found:
                owner = self.add(members[first].start, end, unit, tokens)
                yield from ((unit.chunks[i], owner) for i in range(first, last + 1))
                first = last + 1

    def settle(
        self, members: Sequence[Chunk], first: int, estimates: _Estimates, size: int
    ) -> tuple[list[tuple[int, int, int]], int | None]:
        """The next windows from ``members[first]`` on, up to ``size`` of them, each
        planned from the estimates alone, all counted at once (``count_many``: on every
        core) and kept while the counts confirm them: the window fits, and the next
        chunk does not. That is taken from the estimates where they were right about
        the window (a tokenizer that splits at whitespace), else counted when the next
        chunk's estimate is within ``_edge`` of the budget. Empty when the first plan is
        not confirmed: ``window`` decides it, one count at a time (given the first
        plan's count when that was over the budget)."""
        estimates.drop_before(members[first].start)
        plans = list(islice(_plans(members, first, estimates, self.budget), size))
        counts = self.count_many(members, [(plan.first, plan.end) for plan in plans])
        confirmed = list(
            takewhile(lambda pair: pair[1] <= self.budget, zip(plans, counts, strict=True))
        )
        doubtful = [p for p, tokens in confirmed if p.wider is not None and tokens != p.estimate]
        wider = dict(
            zip(
                doubtful,
                self.count_many(members, [(p.first, p.wider or 0) for p in doubtful]),
                strict=True,
            )
        )
        settled: list[tuple[int, int, int]] = []
        for plan, tokens in confirmed:
            if wider.get(plan, self.budget + 1) <= self.budget:
                break
            settled.append((plan.last, plan.end, tokens))
        over = counts[0] if counts and counts[0] > self.budget else None
        return settled, over

    def count_many(self, members: Sequence[Chunk], spans: list[tuple[int, int]]) -> list[int]:
        """Exact content tokens of each ``(first, end)``: from ``members[first]``'s start
        to ``end``, counted together."""
        text = self.joined.text
        return list(
            self.tokenizer.count_many(
                (text[members[first].start : end] for first, end in spans), content=True
            )
        )

    def window(
        self, members: Sequence[Chunk], first: int, estimates: _Estimates, over: int | None
    ) -> list[tuple[int, int, int]] | None:
        """``[(last, end, tokens)]`` of the window of whole chunks from ``members[first]``
        on, as long as fits; ``None`` when that chunk alone does not fit. ``over``: the
        count of the window the estimates place, when already counted (over budget).

        The estimates place the last chunk; exact counts confirm it (a window they made
        too long shrinks to the longest that fits), and the window grows by the next
        chunk as long as its estimate is within ``budget // 64`` tokens of the budget
        and its exact count fits: one exact count per window, two or three near the
        budget's edge, never a count per chunk of a long window."""
        start, last = members[first].start, _plan(members, first, estimates, self.budget).last
        tokens = self.count(start, _end(members, first, last)) if over is None else over
        if tokens > self.budget:
            fitting = self.fitting(members, first, last)
            if fitting is None:
                return None
            last, tokens = fitting
        while last + 1 < len(members):
            wider = _end(members, first, last + 1)
            if estimates.count(start, wider) > _edge(self.budget):
                break
            wider_tokens = self.count(start, wider)
            if wider_tokens > self.budget:
                break
            last, tokens = last + 1, wider_tokens
        return [(last, _end(members, first, last), tokens)]

    def fitting(self, members: Sequence[Chunk], first: int, over: int) -> tuple[int, int] | None:
        """``(last, tokens)`` of the longest window from ``members[first]`` that fits,
        shorter than the one to ``members[over]`` (which does not): found by bisection,
        a few counts however far the estimate overshot. ``None``: not even one chunk."""
        start, low, high, tokens = members[first].start, first - 1, over, 0
        while high - low > 1:
            middle = (low + high) // 2
            counted = self.count(start, _end(members, first, middle))
            if counted <= self.budget:
                low, tokens = middle, counted
            else:
                high = middle
        return None if low < first else (low, tokens)

    def cut(self, start: int, end: int, unit: _Unit) -> str:
        """Cuts ``[start, end)`` as the engine cuts a section (no context, no overlap),
        each piece a parent; returns the id of the first piece."""
        pieces = chunks(
            join_pages([LoadedPage(self.joined.text[start:end], 1)], "\n"),
            ChunkMetadata(self.doc_id),
            config=ChunkingConfig(self.budget, 0, section_context="none", carry_leads=False),
            tokenization=_ContentTokens(self.tokenizer),
        )
        try:
            ids = [
                self.add(start + piece.start, start + piece.end, unit, piece.token_count)
                for piece in pieces
            ]
        except IndivisibleCharacterError as error:
            # One character (a grapheme cluster) the parent tokenizer counts above the
            # whole parent budget: no parent can hold it whole, and none is cut inside it.
            at = start + (error.position or 0)
            raise IndivisibleCharacterError(
                f"a character at position {at} needs more parent tokens alone than "
                f"parent_max_tokens={self.budget}: raise parent_max_tokens.",
                doc_id=self.doc_id,
                position=at,
                expected=f"at most {self.budget} parent tokens",
            ) from error
        return ids[0]


@dataclass(frozen=True, slots=True)
class _Plan:
    """A window as the estimates place it: ``members[first..last]``, ending at ``end``,
    of ``estimate`` tokens; ``wider``: the end with the next chunk too, when its
    estimate is within ``_edge`` of the budget (it may fit once counted)."""

    first: int
    last: int
    end: int
    estimate: int
    wider: int | None


def _edge(budget: int) -> int:
    """Tokens above the budget within which an estimate may still fit, once counted."""
    return budget + max(budget // 64, 4)


def _plan(members: Sequence[Chunk], first: int, estimates: _Estimates, budget: int) -> _Plan:
    """The window from ``members[first]`` as the estimates alone place it: as many
    whole chunks as the estimate fits, at least one."""
    start, last, end = members[first].start, first, members[first].end
    wider: int | None = None
    while last + 1 < len(members):
        wider = max(end, members[last + 1].end)
        if estimates.count(start, wider) > budget:
            break
        last, end, wider = last + 1, wider, None
    if wider is not None and estimates.count(start, wider) > _edge(budget):
        wider = None
    return _Plan(first, last, end, estimates.count(start, end), wider)


def _plans(
    members: Sequence[Chunk], first: int, estimates: _Estimates, budget: int
) -> Iterator[_Plan]:
    """The windows from ``members[first]`` on, each where the previous one ends, as the
    estimates alone place them."""
    while first < len(members):
        plan = _plan(members, first, estimates, budget)
        yield plan
        first = plan.last + 1


def _end(members: Sequence[Chunk], first: int, last: int) -> int:
    """The end of the window ``members[first..last]``: the furthest of their ends."""
    return max(chunk.end for chunk in members[first : last + 1])


def _units(
    joined: JoinedText, chunks: Sequence[Chunk], sections: Iterable[SectionSpan] | None, doc_id: str
) -> list[_Unit]:
    segments = content_segments(joined.text, sections, doc_id)
    starts = [segment.start for segment in segments]
    members: list[list[int]] = [[] for _ in segments]
    for index, chunk in enumerate(chunks):
        members[max(bisect_right(starts, chunk.start) - 1, 0)].append(index)
    return [
        _Unit(segment.label, segment.path, tuple(found))
        for segment, found in zip(segments, members, strict=True)
        if found
    ]


def build_parents(
    joined: JoinedText,
    chunks: Sequence[Chunk],
    *,
    sections: Iterable[SectionSpan] | None,
    config: ChunkingConfig,
    tokenizer: Tokenization,
    parent_max_tokens: int = DEFAULT_PARENT_MAX_TOKENS,
) -> DocumentParents:
    """The parents of one document's ``chunks`` (as the engine built them from ``joined``
    and ``sections`` with ``config``), counted with ``tokenizer``'s content tokens.

    Raises:
        ConfigurationError: ``parent_max_tokens`` below ``config.max_tokens``.
    """
    check_parent_budget(parent_max_tokens, config)
    if not chunks:
        return DocumentParents((), ())
    doc_id = chunks[0].metadata.doc_id
    builder = _Builder(joined, doc_id, tokenizer, parent_max_tokens)
    owners: dict[int, str] = {}
    for unit in _units(joined, chunks, sections, doc_id):
        owners.update(builder.windows(unit, chunks))
    parents = sorted(builder.parents.values(), key=lambda p: (p.start, p.end))
    return DocumentParents(tuple(parents), tuple(owners[i] for i in range(len(chunks))))


def read_document_parents(
    document: DocumentPages,
    chunks: Sequence[Chunk],
    *,
    config: ChunkingConfig,
    tokenizer: Tokenization,
    parent_max_tokens: int = DEFAULT_PARENT_MAX_TOKENS,
) -> DocumentParents:
    """``build_parents`` for the chunks ``iter_document_chunks`` gave for ``document``.

    Raises:
        ConfigurationError: ``parent_max_tokens`` below ``config.max_tokens``.
    """
    check_parent_budget(parent_max_tokens, config)
    if not chunks:
        return DocumentParents((), ())
    text = document.in_join(config.page_separator, chunks[0].metadata.doc_id)
    return build_parents(
        text.joined,
        chunks,
        sections=text.sections,
        config=config,
        tokenizer=tokenizer,
        parent_max_tokens=parent_max_tokens,
    )


def parent_record(parent: Parent, source: str | None = None) -> dict[str, MetadataValue]:
    """A parent as a flat record: ``parent_id``, ``doc_id``, ``source`` (when given),
    ``section_path`` (joined by ``SECTION_PATH_SEPARATOR``; empty outside every section),
    ``page``, ``page_end``, ``start_index``, ``end_index``, ``token_count`` and ``text``."""
    record: dict[str, MetadataValue] = {PARENT_ID: parent.parent_id, DOC_ID: parent.doc_id}
    if source is not None:
        record[SOURCE] = source
    record |= {
        SECTION_PATH: SECTION_PATH_SEPARATOR.join(parent.section_path),
        PAGE: parent.page,
        PAGE_END: parent.page_end,
        START_INDEX: parent.start,
        END_INDEX: parent.end,
        TOKEN_COUNT: parent.token_count,
        TEXT: parent.text,
    }
    return record


def parent_records(parents: DocumentParents, source: str) -> Iterator[dict[str, MetadataValue]]:
    """The parents as flat records (``parent_record``), in document order."""
    return (parent_record(parent, source) for parent in parents.parents)


# -- a context filled with parents ---------------------------------------------------

#: What is handed over per parent when a context is filled (``fill_context``).
Delivery = Literal["windows", "parents", "parents_or_windows"]
DELIVERIES: tuple[Delivery, ...] = ("windows", "parents", "parents_or_windows")

#: A span ``(start, end)`` of the joined text, or ``None`` where it is not known.
Span: TypeAlias = "tuple[int, int] | None"


@dataclass(frozen=True, slots=True)
class Delivered:
    """What is handed over of one parent.

    Attributes:
        index: The parent's position among those offered.
        window: The ``(start, end)`` handed over, a stretch of the parent; ``None``: the
            whole parent.
        tokens: Exact content tokens of what is handed over.
    """

    index: int
    window: tuple[int, int] | None
    tokens: int


def window_within(
    start: int | None,
    text: str,
    children: Sequence[Span],
    counter: TokenCounter,
    budget: int,
) -> tuple[int, int, int] | None:
    """``(start, end, tokens)``: the stretch of a parent (``text``, at ``start`` in its
    document) around its ``children``'s spans that fits ``budget``, counted exactly.

    The children are taken in rank order: each is taken when the stretch from the first
    taken child's start to the last one's end still fits. Chunks tile their unit, so
    the stretch is whole consecutive chunks, inside the parent. A child without a span
    or not inside the parent is not taken; ``None`` when no child fits (or the parent's
    ``start`` is unknown).
    """
    if start is None:
        return None
    last = start + len(text)
    best: tuple[int, int, int] | None = None
    for span in children:
        if span is None or span[0] < start or span[1] > last:
            continue
        first, end = span if best is None else (min(best[0], span[0]), max(best[1], span[1]))
        tokens = counter.count_content(text[first - start : end - start])
        if tokens <= budget:
            best = (first, end, tokens)
    return best


def _delivered(
    parent: tuple[int | None, str],
    children: Sequence[Span],
    counter: TokenCounter,
    left: int,
    deliver: Delivery,
) -> tuple[tuple[int, int] | None, int] | None:
    """What ``deliver`` hands over of ``parent`` within ``left`` tokens, and its count."""
    start, text = parent
    if deliver != "windows":
        tokens = counter.count_content(text)
        if tokens <= left:
            return None, tokens
        if deliver == "parents":
            return None
    found = window_within(start, text, children, counter, left)
    return None if found is None else ((found[0], found[1]), found[2])


def fill_context(
    parents: Sequence[tuple[int | None, str] | None],
    children: Sequence[Sequence[Span]],
    counter: TokenCounter,
    budget: int,
    deliver: Delivery = "windows",
) -> list[Delivered]:
    """What fits of each parent in a context of ``budget`` tokens, in the order given.

    ``parents[i]`` is ``(start, text)`` of a parent (``None``: not found, passed over)
    and ``children[i]`` the spans of its chunks found, in rank order. Per parent,
    ``deliver`` says what is handed over: ``"windows"``, its window around those
    chunks (``window_within``) within what is left; ``"parents"``, the whole parent,
    passed over when it does not fit what is left; ``"parents_or_windows"``, the whole
    parent when it fits, else its window.

    Invariant: the ``tokens`` of the result add up to at most ``budget``, each the exact
    ``counter.count_content`` of what is handed over.
    """
    left = budget
    found: list[Delivered] = []
    for index, (parent, spans) in enumerate(zip(parents, children, strict=True)):
        piece = None if parent is None else _delivered(parent, spans, counter, left, deliver)
        if piece is not None:
            found.append(Delivered(index, *piece))
            left -= piece[1]
    return found


def parent_token_counter(tokenizer: Any, budget: int) -> TokenCounter:
    """A context's ``tokenizer`` checked: a name ``load_tokenization`` knows (a Hugging
    Face name or folder, a ``tokenizer.json``, a tiktoken encoding such as
    ``"cl100k_base"``) is loaded (``load_parent_tokenizer``); anything else must count
    content tokens.

    Raises:
        ConfigurationError: neither.
    """
    if isinstance(tokenizer, str):
        return load_parent_tokenizer(tokenizer, budget)
    if not callable(getattr(tokenizer, "count_content", None)):
        raise ConfigurationError(
            f"tokenizer must count tokens (a Tokenization from load_tokenization, or a "
            f"name it loads such as 'cl100k_base'), got {type(tokenizer).__name__} "
            f"{tokenizer!r:.60}.",
            expected="a TokenCounter or a tokenizer name",
        )
    counter: TokenCounter = tokenizer
    return counter
