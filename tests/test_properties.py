"""Property tests of ``chunk_document``: every invariant of the contract, on every output.

Each property runs with five tokenizations: one token per UTF-8 byte, word pieces
(both from ``langchain_asesoria.testing``), the real all-MiniLM-L6-v2 tokenizer
(WordPiece) and the stand-ins of two more families (SentencePiece Unigram + Metaspace,
byte-level BPE: ``test_tokenizer_families``), the real ones with a 512-token limit.
Inputs come from ``tests/strategies.py``. Expectations are computed independently of
the engine: pages from the page texts and the separator length, segments from the
given spans.

Budget errors are part of the contract: a property test accepts
``ContextTooLongError`` and ``IndivisibleCharacterError`` only when the budget really
cannot hold the context or the character; any other exception fails the test.
"""

from __future__ import annotations

import ast
import base64
import functools
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from itertools import pairwise

import pytest
from conftest import STANDIN_FAMILIES
from engine_cases import check_compact_context, titles_left
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import (
    PROFILE,
    ChunkingCase,
    TokenizationFactory,
    chunking_cases,
    configs,
    document_metadata,
    examples,
    markdown_documents,
    spanish_corpus,
)

from langchain_asesoria import (
    Chunk,
    ChunkingConfig,
    ChunkMetadata,
    ContextTooLongError,
    IndivisibleCharacterError,
    LoadedPage,
    SectionSpan,
    Tokenization,
    chunk_document,
    join_pages,
)
from langchain_asesoria.models import LeadSpan
from langchain_asesoria.structure.leads import detect_leads
from langchain_asesoria.structure.markdown import detect_markdown_sections
from langchain_asesoria.testing import ByteTokenization, CountingTokenization, WordTokenization
from langchain_asesoria.tokenization import (
    HuggingFaceTokenization,
    ModelProfile,
    TiktokenTokenization,
)

# -- tokenizations -------------------------------------------------------------------------


def _real_factory(
    name: str, tokenization: HuggingFaceTokenization | TiktokenTokenization
) -> TokenizationFactory:
    """A real tokenizer, plain or with an E5-like ``passage: `` prefix (built once; its
    special tokens are its own: the requested number is ignored)."""
    profile = ModelProfile("passage: ", "query: ", 512)
    prefixed: Tokenization = (
        HuggingFaceTokenization(tokenization.tokenizer, profile, f"{name}-passage")
        if isinstance(tokenization, HuggingFaceTokenization)
        else TiktokenTokenization(tokenization.encoding, profile, f"{name}-passage")
    )
    by_prefix = {"": tokenization, "passage: ": prefixed}
    return TokenizationFactory(name, 512, lambda prefix, _special: by_prefix[prefix])


#: The fixture behind each real tokenizer: MiniLM (WordPiece) and the stand-ins of the
#: other families (``test_tokenizer_families``: Unigram + Metaspace, byte-level BPE), and
#: OpenAI's cl100k_base through tiktoken.
_REAL = {
    "minilm": "minilm_512",
    **{name: f"{name}_standin" for name in STANDIN_FAMILIES},
    "tiktoken": "tiktoken_512",
}


@pytest.fixture(scope="module", params=["bytes", "words", *_REAL])
def factory(request: pytest.FixtureRequest) -> TokenizationFactory:
    """Module-scoped, so Hypothesis never sees a function-scoped fixture."""
    if request.param in _REAL:
        return _real_factory(request.param, request.getfixturevalue(_REAL[request.param]))
    if request.param == "bytes":
        return TokenizationFactory(
            "bytes",
            512,
            lambda prefix, special: ByteTokenization(
                512, special_tokens=special, document_prefix=prefix
            ),
        )
    return TokenizationFactory(
        "words",
        512,
        lambda prefix, special: WordTokenization(
            512, special_tokens=special, document_prefix=prefix
        ),
    )


# -- independent expectations ------------------------------------------------------------


@dataclass(frozen=True)
class Segment:
    start: int
    end: int
    label: str | None
    path: tuple[str, ...]
    title_end: int | None = None


def segments(spans: Sequence[SectionSpan], length: int) -> list[Segment]:
    """The spans and the gaps between them, covering ``[0, length)``."""
    out: list[Segment] = []
    position = 0
    for span in spans:
        if span.start > position:
            out.append(Segment(position, span.start, None, ()))
        path = tuple(span.section_path)
        out.append(Segment(span.start, span.end, span.section_label, path, span.title_end))
        position = span.end
    if position < length:
        out.append(Segment(position, length, None, ()))
    return out


def context_of(segment: Segment, mode: str) -> str:
    """``" > ".join(path)`` (or the label when that is blank) by default, ``""`` for a gap."""
    if mode == "none":
        return ""
    if mode == "label":
        return segment.label or (segment.path[-1] if segment.path else "")
    return " > ".join(segment.path) or segment.label or ""


def segment_at(segs: Sequence[Segment], position: int) -> Segment:
    found = [s for s in segs if s.start <= position < s.end]
    assert len(found) == 1, (position, segs)
    return found[0]


def page_holding(pages: Sequence[LoadedPage], separator: str, position: int) -> int:
    """The number of the page whose own text holds ``position`` (never a separator)."""
    offset = 0
    for page in pages:
        if offset <= position < offset + len(page.text):
            return page.page
        offset += len(page.text) + len(separator)
    raise AssertionError(f"position {position} lies in no page (a separator?)")


def case_segments(case: ChunkingCase) -> list[Segment]:
    if case.detect_markdown_headings:
        spans: Sequence[SectionSpan] = detect_markdown_sections(case.joined)
    else:
        spans = case.sections or ()
    return segments(spans, len(case.joined))


# -- running, with documented errors only ------------------------------------------------

_CHARACTER = re.compile(r"the character (.+) at position (\d+) needs \d+ tokens", re.DOTALL)


def run(case: ChunkingCase) -> list[Chunk] | None:
    """Chunks, or None after checking that a budget error is justified."""
    try:
        return chunk_document(
            case.pages,
            case.metadata,
            config=case.config,
            tokenization=case.tokenization,
            sections=case.sections,
            detect_markdown_headings=case.detect_markdown_headings,
        )
    except IndivisibleCharacterError as error:
        check_indivisible(case, error)
    except ContextTooLongError as error:
        check_context_too_long(case, error)
    return None


def check_indivisible(case: ChunkingCase, error: IndivisibleCharacterError) -> None:
    match = _CHARACTER.search(str(error))
    assert match, f"the message names no position and character: {error}"
    position, char = error.position, ast.literal_eval(match.group(1))
    assert position is not None, error
    assert int(match.group(2)) == position, error  # the message is built from the attribute
    assert error.doc_id == case.metadata.doc_id, error
    assert char, error
    assert case.joined[position : position + len(char)] == char, (position, char)
    tok = case.tokenization
    if case.config.section_context == "compact":  # the context is the engine's choice
        needed = int(re.search(r"needs (\d+) tokens", str(error)).group(1))  # type: ignore[union-attr]
        assert needed >= tok.count(tok.prepare(char)), error
        assert needed > case.config.max_tokens, error
        return
    context = context_of(segment_at(case_segments(case), position), case.config.section_context)
    needed = tok.count(tok.prepare(char, context))
    assert needed > case.config.max_tokens, (
        f"{char!r} fits alone ({needed} <= {case.config.max_tokens}) with context {context!r}"
    )


def check_context_too_long(case: ChunkingCase, error: ContextTooLongError) -> None:
    start = error.position
    assert start is not None, f"the error names no section: {error}"
    assert f"section at {start}:" in str(error), error
    assert error.doc_id == case.metadata.doc_id, error
    found = [s for s in case_segments(case) if s.start == start]
    assert len(found) == 1, (start, error)
    tok = case.tokenization
    compact = case.config.section_context == "compact"  # only the prefix can fill it
    context = "" if compact else context_of(found[0], case.config.section_context)
    fixed = tok.count(tok.prepare("", context))
    assert fixed >= case.config.max_tokens, (
        f"context {context!r} takes {fixed} < {case.config.max_tokens} tokens"
    )


# -- the properties, one checker each ----------------------------------------------------


def check_offsets(case: ChunkingCase, chunks: list[Chunk]) -> None:
    """1. ``text == joined[start:end]``, non-empty, no outer whitespace."""
    for chunk in chunks:
        assert 0 <= chunk.start < chunk.end <= len(case.joined), chunk
        assert chunk.text == case.joined[chunk.start : chunk.end], chunk
        assert chunk.text, chunk
        assert chunk.text == chunk.text.strip(), chunk


def check_budget(case: ChunkingCase, chunks: list[Chunk]) -> None:
    """2. Exact count of the prepared text with its context, within the budget."""
    tok, segs = case.tokenization, case_segments(case)
    compact = case.config.section_context == "compact"
    for chunk in chunks:
        segment = segment_at(segs, chunk.start)
        if compact:
            context = _checked_compact_context(case, segment, chunk)
        else:
            context = context_of(segment, case.config.section_context)
        assert chunk.embedding_text == tok.prepare(chunk.text, context), chunk
        assert chunk.token_count == tok.count(chunk.embedding_text), chunk
        assert chunk.token_count <= case.config.max_tokens, chunk


def _checked_compact_context(case: ChunkingCase, segment: Segment, chunk: Chunk) -> str:
    """The context the engine chose for ``chunk``, checked to be a compact one."""
    tok, config = case.tokenization, case.config
    prefix = tok.prepare("")
    head = chunk.embedding_text[len(prefix) : len(chunk.embedding_text) - len(chunk.text)]
    context = head.removesuffix("\n\n")
    base = tok.count(tok.prepare(""))
    added = tok.count(tok.prepare("", context)) - base
    label, path = segment.label, list(segment.path)
    first = chunk.start == len(case.joined[: segment.end]) - len(
        case.joined[segment.start : segment.end].lstrip()
    )
    if first and segment.title_end is not None:  # its text opens with its titles
        left = titles_left(path, case.joined[segment.start : segment.title_end])
        if left != [title for title in path if title.strip()]:
            label, path = None, left
    titles = _without_lead(case, segment, chunk, context)
    check_compact_context(
        titles,
        label,
        path,
        added=added,
        allowance=int(config.max_tokens * config.context_share),
    )
    return context


@functools.lru_cache(maxsize=8)
def _leads_of(joined: str, breaks: tuple[int, ...]) -> tuple[LeadSpan, ...]:
    """``detect_leads`` once per text, not once per chunk (a 5 MB text has thousands),
    with the sections' starts the engine gives it."""
    return tuple(detect_leads(joined, breaks))


def _without_lead(case: ChunkingCase, segment: Segment, chunk: Chunk, context: str) -> str:
    """The titles of a compact context, once the lead of the list or table the chunk
    starts in (``structure.leads``), whole or shortened at words, is checked and
    taken off its end."""
    if not case.config.carry_leads:
        return context
    holding = [
        lead
        for lead in _leads_of(case.joined, tuple(s.start for s in case_segments(case)))
        if lead.start <= chunk.start < lead.end and segment.start < lead.start < segment.end
    ]
    if not holding:
        return context
    parts = holding[-1].lead.split("\n")
    lines = context.split("\n")
    titles, lead = "\n".join(lines[: -len(parts)]), lines[-len(parts) :]
    if len(lines) >= len(parts) and all(map(_elides, lead, parts)):
        return titles
    return context  # the lead did not fit: the section's own context


def _elides(form: str, lead: str) -> bool:
    """``form`` is ``lead``, or its first words, an ellipsis and its last words, or an
    ellipsis and its last words, or its first words and an ellipsis (a table's header)."""
    if form == lead:
        return True
    if form.startswith("… ") and lead.endswith(form.removeprefix("… ")):
        return True
    if form.endswith(" …") and lead.startswith(form.removesuffix(" …")):
        return True
    head, marker, tail = form.partition(" … ")
    return bool(marker) and lead.startswith(head) and lead.endswith(tail)


def check_coverage(case: ChunkingCase, chunks: list[Chunk]) -> None:
    """3. Every non-whitespace character lies in some chunk."""
    covered_to = 0
    for start, end in sorted((c.start, c.end) for c in chunks):
        hole = case.joined[covered_to:start]
        assert not hole.strip(), f"[{covered_to}, {start}) not covered: {hole!r}"
        covered_to = max(covered_to, end)
    tail = case.joined[covered_to:]
    assert not tail.strip(), f"[{covered_to}, end) not covered: {tail!r}"


def check_overlap(case: ChunkingCase, chunks: list[Chunk]) -> None:
    """4. Ordered, overlapping only within a section, by the exact shared content."""
    segs = case_segments(case)
    tok, target = case.tokenization, case.config.overlap_tokens
    for previous, chunk in zip([None, *chunks], chunks, strict=False):
        assert 0 <= chunk.overlap_tokens <= target, chunk
        if previous is None:
            assert chunk.overlap_tokens == 0, chunk
            continue
        assert previous.start <= chunk.start, (previous, chunk)
        assert previous.end < chunk.end, (previous, chunk)
        if chunk.start < previous.end:
            assert segment_at(segs, chunk.start) == segment_at(segs, previous.start), (
                "overlap across sections",
                previous,
                chunk,
            )
            shared = tok.count_content(case.joined[chunk.start : previous.end])
            assert chunk.overlap_tokens == shared, (previous, chunk, shared)
        else:
            assert chunk.overlap_tokens == 0, (previous, chunk)


def check_pages(case: ChunkingCase, chunks: list[Chunk]) -> None:
    """5. ``page``/``page_end`` of the chunk body, from the page texts."""
    separator = case.config.page_separator
    for chunk in chunks:
        first = page_holding(case.pages, separator, chunk.start)
        last = page_holding(case.pages, separator, chunk.end - 1)
        assert (chunk.metadata.page, chunk.metadata.page_end) == (first, last), chunk
        assert first <= last


def check_sections(case: ChunkingCase, chunks: list[Chunk]) -> None:
    """6. Within exactly one segment, whose label and path the chunk carries."""
    segs = case_segments(case)
    for chunk in chunks:
        holding = [s for s in segs if s.start <= chunk.start and chunk.end <= s.end]
        assert len(holding) == 1, (chunk, segs)
        assert chunk.metadata.section_label == holding[0].label, chunk
        assert chunk.metadata.section_path == holding[0].path, chunk


Check = Callable[[ChunkingCase, list[Chunk]], None]

_PER_CHUNK = {"page", "page_end", "chunk_index", "section_label", "section_path"}


def check_metadata(case: ChunkingCase, chunks: list[Chunk]) -> None:
    """7. Global 0-based index, document fields copied, one instance per chunk."""
    assert len({id(c.metadata) for c in chunks}) == len(chunks)
    for index, chunk in enumerate(chunks):
        assert chunk.metadata is not case.metadata
        assert chunk.metadata.chunk_index == index, chunk
        for field in fields(ChunkMetadata):
            if field.name not in _PER_CHUNK:
                expected = getattr(case.metadata, field.name)
                assert getattr(chunk.metadata, field.name) == expected, field.name


def check_all(case: ChunkingCase, chunks: list[Chunk]) -> None:
    for check in (
        check_offsets,
        check_budget,
        check_coverage,
        check_overlap,
        check_pages,
        check_sections,
        check_metadata,
    ):
        check(case, chunks)


# -- tests ---------------------------------------------------------------------------------


def _check_generated(factory: TokenizationFactory, data: st.DataObject, check: Check) -> None:
    case = data.draw(chunking_cases(factory), label="case")
    chunks = run(case)
    if chunks is not None:
        check(case, chunks)


_EXAMPLES = examples(20)


@settings(PROFILE, max_examples=_EXAMPLES, deadline=None)
@given(data=st.data())
def test_offsets_round_trip(factory: TokenizationFactory, data: st.DataObject) -> None:
    _check_generated(factory, data, check_offsets)


@settings(PROFILE, max_examples=_EXAMPLES, deadline=None)
@given(data=st.data())
def test_budget_is_exact_and_held(factory: TokenizationFactory, data: st.DataObject) -> None:
    _check_generated(factory, data, check_budget)


@settings(PROFILE, max_examples=_EXAMPLES, deadline=None)
@given(data=st.data())
def test_every_visible_character_is_covered(
    factory: TokenizationFactory, data: st.DataObject
) -> None:
    _check_generated(factory, data, check_coverage)


@settings(PROFILE, max_examples=_EXAMPLES, deadline=None)
@given(data=st.data())
def test_overlap_is_exact_and_within_sections(
    factory: TokenizationFactory, data: st.DataObject
) -> None:
    _check_generated(factory, data, check_overlap)


@settings(PROFILE, max_examples=_EXAMPLES, deadline=None)
@given(data=st.data())
def test_pages_of_the_chunk_body(factory: TokenizationFactory, data: st.DataObject) -> None:
    _check_generated(factory, data, check_pages)


@settings(PROFILE, max_examples=_EXAMPLES, deadline=None)
@given(data=st.data())
def test_sections_are_never_crossed(factory: TokenizationFactory, data: st.DataObject) -> None:
    _check_generated(factory, data, check_sections)


@settings(PROFILE, max_examples=_EXAMPLES, deadline=None)
@given(data=st.data())
def test_metadata_per_chunk(factory: TokenizationFactory, data: st.DataObject) -> None:
    _check_generated(factory, data, check_metadata)


@settings(PROFILE, max_examples=examples(10), deadline=None)
@given(data=st.data())
def test_deterministic(factory: TokenizationFactory, data: st.DataObject) -> None:
    """8. Two runs on the same input give equal outputs."""
    case = data.draw(chunking_cases(factory), label="case")
    first = run(case)
    assert run(case) == first


@settings(PROFILE, max_examples=examples(25), deadline=None)
@given(data=st.data())
def test_budget_errors_only_when_justified(
    factory: TokenizationFactory, data: st.DataObject
) -> None:
    """Tiny budgets: either every invariant holds, or a justified budget error."""
    case = data.draw(chunking_cases(factory, small=True), label="case")
    chunks = run(case)
    if chunks is not None:
        check_all(case, chunks)


@settings(PROFILE, max_examples=examples(20), deadline=None)
@given(data=st.data())
def test_markdown_headings(factory: TokenizationFactory, data: st.DataObject) -> None:
    """Detected ATX headings: real ones found, fenced ones ignored, invariants held."""
    document = data.draw(markdown_documents(), label="markdown")
    config = data.draw(configs(factory.limit), label="config")
    separator = config.page_separator
    splits = data.draw(
        st.lists(st.integers(0, len(document.text)), max_size=3).map(sorted), label="splits"
    )
    bounds = [0, *splits, len(document.text)]
    pages = [
        LoadedPage(document.text[a:b], number) for number, (a, b) in enumerate(pairwise(bounds), 1)
    ]
    joined = join_pages(pages, separator).text
    tokenization = factory.make(data.draw(st.sampled_from(["", "passage: "])), 2)
    metadata = data.draw(document_metadata())
    case = ChunkingCase(
        pages, metadata, config, tokenization, None, joined, detect_markdown_headings=True
    )

    spans = detect_markdown_sections(joined)
    if len(pages) == 1:
        _check_headings(document.text, spans, document.headings, document.fake_titles)
    chunks = run(case)
    if chunks is not None:
        check_all(case, chunks)


def _check_headings(
    text: str,
    spans: Sequence[SectionSpan],
    headings: Sequence[tuple[int, str]],
    fake_titles: frozenset[str],
) -> None:
    offsets = {offset for offset, _ in headings}
    for span in spans:
        assert not fake_titles & set(span.section_path), span
        assert span.start in offsets, span
        assert span.section_path, span
        assert span.section_label == span.section_path[-1], span
    if not headings:
        assert spans == []
        return
    assert spans, headings
    assert spans[0].start == headings[0][0]
    assert spans[-1].end == len(text)
    for before, after in pairwise(spans):
        assert before.end == after.start, (before, after)
    starts = [offset for offset, _ in headings]
    for index, (offset, title) in enumerate(headings):
        holding = [s for s in spans if s.start <= offset < s.end]
        assert len(holding) == 1, (offset, title, spans)
        if title not in holding[0].section_path:
            # Only a heading without body of its own stays behind, in the section before.
            following = starts[index + 1] if index + 1 < len(starts) else len(text)
            body = text[offset:following].split("\n", 1)[1:] or [""]
            assert not body[0].strip(), (offset, title, spans)


@pytest.mark.parametrize("mode", ["path", "label", "none"])
@pytest.mark.parametrize(
    ("label", "path"), [("", ()), (None, ("",)), ("  ", ()), (None, ()), ("", ("", ""))]
)
def test_sections_with_blank_titles(label: str | None, path: tuple[str, ...], mode: str) -> None:
    """A section whose label or path is blank is still chunked (found by the properties)."""
    pages = [LoadedPage("Hola, señor. ¿Qué tal?", 1)]
    tokenization = ByteTokenization(512)
    config = ChunkingConfig(max_tokens=64, overlap_tokens=8, section_context=mode)  # type: ignore[arg-type]
    joined = join_pages(pages, config.page_separator).text
    span = SectionSpan(0, len(joined), label, path)
    case = ChunkingCase(pages, ChunkMetadata(doc_id="d"), config, tokenization, [span], joined)
    chunks = run(case)
    assert chunks is not None
    check_all(case, chunks)


# -- not quadratic: exact counts per chunk ---------------------------------------------------


def test_exact_counts_per_chunk_stay_few(minilm: HuggingFaceTokenization) -> None:
    """300 KB with the real tokenizer at 256: about one estimate pass, few exact counts."""
    text = spanish_corpus(300_000)
    counting = CountingTokenization(minilm)
    assert isinstance(counting, Tokenization)
    chunks = chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="corpus"),
        config=ChunkingConfig(max_tokens=256, overlap_tokens=32),
        tokenization=counting,  # type: ignore[arg-type]
    )
    assert len(chunks) > 100
    assert counting.exact <= 4 * len(chunks), (counting.exact, len(chunks))
    assert counting.offsets == 1, counting.offsets
    assert counting.characters <= 10 * len(text), (counting.characters, len(text))


@pytest.mark.parametrize(("kind", "size"), [("bytes", 100_000), ("minilm", 40_000)])
def test_text_without_whitespace_is_not_quadratic(
    kind: str, size: int, request: pytest.FixtureRequest
) -> None:
    """No spaces (a URL, a table row, CJK text): still about one estimate and one exact pass.

    Every chunk is confirmed by an exact count, so the characters tokenized in all must
    stay a small multiple of the text, not grow with the square of its length.
    """
    inner = request.getfixturevalue("minilm") if kind == "minilm" else ByteTokenization(512)
    text = "-".join(spanish_corpus(2 * size).split())[:size]
    counting = CountingTokenization(inner)
    chunks = chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="sin-espacios"),
        config=ChunkingConfig(max_tokens=256, overlap_tokens=32),
        tokenization=counting,  # type: ignore[arg-type]
    )
    assert len(chunks) > 50
    assert counting.exact <= 4 * len(chunks), (counting.exact, len(chunks))
    assert counting.characters <= 10 * len(text), (counting.characters, len(text))


@pytest.mark.parametrize("kind", ["bytes", "minilm"])
def test_a_blob_is_planned_and_counted_in_batches(
    kind: str, request: pytest.FixtureRequest
) -> None:
    """A 60 KB base64 blob (no whitespace, many tokens) is cut at token starts planned
    from the index and confirmed in batches: about one exact count per chunk, almost
    none of them single. Where counts inside a word are exact (bytes), chunks are full."""
    inner = request.getfixturevalue("minilm") if kind == "minilm" else ByteTokenization(512)
    blob = base64.b64encode(random.Random(7).randbytes(45_000))
    text = f"Anexo: {blob.decode()} fin."
    counting = CountingTokenization(inner)
    chunks = chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="blob"),
        config=ChunkingConfig(max_tokens=256, overlap_tokens=32),
        tokenization=counting,  # type: ignore[arg-type]
    )
    assert "".join(chunk.text for chunk in chunks).replace(" ", "") == text.replace(" ", "")
    assert len(chunks) > 100
    assert counting.exact <= 1.2 * len(chunks), (counting.exact, len(chunks))
    assert counting.single <= 12, counting.single
    if kind == "bytes":
        assert all(chunk.token_count == 256 for chunk in chunks[1:-2])


# -- the strategies themselves ---------------------------------------------------------------


def test_most_draws_reach_the_invariants(factory: TokenizationFactory) -> None:
    """Budget errors and empty documents have their own tests: at least 80% of the
    general draws must give chunks whose invariants the properties above check."""
    outcomes: Counter[str] = Counter()

    @settings(PROFILE, max_examples=100, derandomize=True, database=None, deadline=None)
    @given(case=chunking_cases(factory))
    def draw(case: ChunkingCase) -> None:
        chunks = run(case)
        outcomes["error" if chunks is None else "chunks" if chunks else "empty"] += 1

    draw()
    assert outcomes["chunks"] >= 0.8 * sum(outcomes.values()), outcomes
