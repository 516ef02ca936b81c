"""Parents: every chunk has one, inside its unit, within the parent budget, exact slices
of the joined text, with ids stable across runs."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_asesoria import engine
from langchain_asesoria.engine import (
    TokenIndex,
    Tokenization,
    content_segments,
    is_safe_cut,
)
from langchain_asesoria.errors import ConfigurationError, IndivisibleCharacterError
from langchain_asesoria.models import Chunk, ChunkingConfig, ChunkMetadata, LoadedPage, SectionSpan
from langchain_asesoria.pages import JoinedText, join_pages
from langchain_asesoria.parents import (
    DocumentParents,
    build_parents,
    check_parent_budget,
    load_parent_tokenizer,
    parent_id,
)
from langchain_asesoria.testing import ByteTokenization, WordTokenization
from langchain_asesoria.tokenization import HuggingFaceTokenization
from tests.strategies import PROFILE, ChunkingCase, TokenizationFactory, chunking_cases, examples
from tests.test_properties import run


@pytest.fixture(scope="module", params=["bytes", "words", "minilm"])
def factory(request: pytest.FixtureRequest) -> TokenizationFactory:
    """The fakes of the suite and the real MiniLM (module-scoped, for Hypothesis)."""
    if request.param == "minilm":
        minilm: HuggingFaceTokenization = request.getfixturevalue("minilm_512")
        return TokenizationFactory("minilm", 512, lambda _prefix, _special: minilm)
    fake = ByteTokenization if request.param == "bytes" else WordTokenization
    return TokenizationFactory(
        request.param,
        512,
        lambda prefix, special: fake(512, special_tokens=special, document_prefix=prefix),
    )


def _drawn(
    factory: TokenizationFactory, data: st.DataObject, most: int, least: int = 1
) -> tuple[ChunkingCase, list[Chunk], int] | None:
    """A case, its chunks and a parent budget from ``least`` to ``most`` times the
    chunks' (None where the engine refused the case: its own properties check that)."""
    case = data.draw(chunking_cases(factory), label="case")
    chunks = run(case)
    if chunks is None:
        return None
    low = max(case.config.max_tokens, least)
    budget = data.draw(st.integers(low, max(low, most * case.config.max_tokens)), label="budget")
    return case, chunks, budget


def _parents(
    case: ChunkingCase, chunks: Sequence[Chunk], tokenizer: Tokenization, budget: int
) -> tuple[JoinedText, DocumentParents]:
    joined = join_pages(case.pages, case.config.page_separator)
    built = build_parents(
        joined,
        chunks,
        sections=case.sections,
        config=case.config,
        tokenizer=tokenizer,
        parent_max_tokens=budget,
    )
    return joined, built


def _check_invariants(
    joined: JoinedText,
    chunks: Sequence[Chunk],
    built: DocumentParents,
    tokenizer: Tokenization,
    budget: int,
    sections: Sequence[SectionSpan] | None,
) -> None:
    by_id = built.by_id()
    assert len(by_id) == len(built.parents), "two parents share an id"
    assert len(built.chunk_parents) == len(chunks)
    edges = {
        edge
        for segment in content_segments(joined.text, sections)
        for edge in (segment.start, segment.end)
    }
    for parent in built.parents:
        assert joined.text[parent.start : parent.end] == parent.text
        assert parent.token_count == tokenizer.count_content(parent.text) <= budget
        assert parent.page == joined.page_at(parent.start)
        assert parent.page_end == joined.page_at(parent.end - 1)
        assert not any(parent.start < edge < parent.end for edge in edges), "crosses a unit"
        assert parent.parent_id == parent_id(
            parent.doc_id, parent.start, parent.end, parent.section_path, parent.text
        )
    for chunk, owner in zip(chunks, built.chunk_parents, strict=True):
        parent = by_id[owner]
        assert parent.start <= chunk.start < parent.end
        if tokenizer.count_content(chunk.text) <= budget:
            assert chunk.end <= parent.end, "a chunk that fits lies inside its parent"


_EXAMPLES = examples(20)


@settings(PROFILE, max_examples=_EXAMPLES, deadline=None)
@given(data=st.data())
def test_every_chunk_has_a_parent_that_holds_it(
    factory: TokenizationFactory, data: st.DataObject
) -> None:
    if (drawn := _drawn(factory, data, 4)) is None:
        return
    case, chunks, budget = drawn
    joined, built = _parents(case, chunks, case.tokenization, budget)
    _check_invariants(joined, chunks, built, case.tokenization, budget, case.sections)
    # with the embedding model's own tokenizer, every chunk fits: containment always
    for chunk, owner in zip(chunks, built.chunk_parents, strict=True):
        assert built.by_id()[owner].end >= chunk.end


@settings(PROFILE, max_examples=_EXAMPLES, deadline=None)
@given(data=st.data())
def test_another_tokenizer_keeps_the_budget_and_never_truncates(
    factory: TokenizationFactory, data: st.DataObject
) -> None:
    """Parents counted in bytes (more tokens than any chunk tokenizer gives), so some
    chunks alone exceed the parent budget and are cut: still nothing is lost."""
    if (drawn := _drawn(factory, data, 2, least=30)) is None:
        return
    case, chunks, budget = drawn
    tokenizer = ByteTokenization(special_tokens=0)
    try:
        joined, built = _parents(case, chunks, tokenizer, budget)
    except IndivisibleCharacterError as error:  # justified only by one character alone
        text = join_pages(case.pages, case.config.page_separator).text
        start = end = error.position or 0
        end += 1
        while end < len(text) and not is_safe_cut(text, end):  # the engine's character
            end += 1
        assert tokenizer.count(tokenizer.prepare(text[start:end])) > budget
        return
    _check_invariants(joined, chunks, built, tokenizer, budget, case.sections)
    covered = {i for p in built.parents for i in range(p.start, p.end)}
    for chunk in chunks:
        visible = {chunk.start + i for i, ch in enumerate(chunk.text) if not ch.isspace()}
        assert visible <= covered, "a chunk's text is missing from every parent"


@settings(PROFILE, max_examples=_EXAMPLES, deadline=None)
@given(data=st.data())
def test_parents_are_the_same_on_every_run(
    factory: TokenizationFactory, data: st.DataObject
) -> None:
    if (drawn := _drawn(factory, data, 3)) is None:
        return
    case, chunks, budget = drawn
    first = _parents(case, chunks, case.tokenization, budget)[1]
    again = _parents(case, run(case) or [], case.tokenization, budget)[1]
    assert first == again


@settings(PROFILE, max_examples=_EXAMPLES, deadline=None)
@given(data=st.data())
def test_a_unit_that_fits_is_one_parent(factory: TokenizationFactory, data: st.DataObject) -> None:
    """Windows only where the whole unit does not fit."""
    if (drawn := _drawn(factory, data, 4)) is None:
        return
    case, chunks, budget = drawn
    joined, built = _parents(case, chunks, case.tokenization, budget)
    for segment in content_segments(joined.text, case.sections):
        inside = [c for c in chunks if segment.start <= c.start < segment.end]
        if not inside:
            continue
        start, end = inside[0].start, max(c.end for c in inside)
        fits = case.tokenization.count_content(joined.text[start:end]) <= budget
        mine = [p for p in built.parents if segment.start <= p.start < segment.end]
        assert fits == (len(mine) == 1 and (mine[0].start, mine[0].end) == (start, end))


_ARTICLES = (
    "# Ley 1/2024, de la niñería\n\n"
    "## Artículo 1. Objeto\n\n"
    "La presente ley regula la cuantía de 1.500 € para los niños de Logroño. 😀\n\n"
    "## Artículo 2. Ámbito\n\n"
    + "\n\n".join(
        f"{n}. El contribuyente podrá deducir el {n} % de la cuota íntegra, según el "
        "artículo 1, salvo que la comunidad autónoma disponga otra cosa."
        for n in range(1, 40)
    )
)


def _article_spans(text: str) -> list[SectionSpan]:
    first = text.index("## Artículo 1")
    second = text.index("## Artículo 2")
    return [
        SectionSpan(0, first, "Ley 1/2024", ("Ley 1/2024",)),
        SectionSpan(first, second, "Artículo 1. Objeto", ("Ley 1/2024", "Artículo 1. Objeto")),
        SectionSpan(second, len(text), "Artículo 2. Ámbito", ("Ley 1/2024", "Artículo 2. Ámbito")),
    ]


def test_a_short_article_is_its_own_parent_and_a_long_one_is_windowed(
    minilm_512: HuggingFaceTokenization,
) -> None:
    config = ChunkingConfig(64, 8)
    spans = _article_spans(_ARTICLES)
    pages = [LoadedPage(_ARTICLES, 1)]
    found = list(
        engine.chunks(
            pages, ChunkMetadata("ley"), config=config, tokenization=minilm_512, sections=spans
        )
    )
    joined = join_pages(pages, config.page_separator)
    built = build_parents(
        joined, found, sections=spans, config=config, tokenizer=minilm_512, parent_max_tokens=256
    )
    first = [p for p in built.parents if p.section_label == "Artículo 1. Objeto"]
    assert [p.text for p in first] == [_ARTICLES[spans[1].start : spans[1].end].strip()]
    second = [p for p in built.parents if p.section_label == "Artículo 2. Ámbito"]
    assert len(second) > 1
    assert all(spans[2].start <= p.start and p.end <= spans[2].end for p in second)
    # each window ends where a chunk ends: at a numbered item
    assert all(p.text.endswith("otra cosa.") for p in second)


def test_one_over_long_sentence_is_cut_never_truncated() -> None:
    """No punctuation at all: the parents of a chunk that alone exceeds the budget are
    cut at words, and together hold all of its text."""
    text = " ".join(f"añadidura{n}" for n in range(300))
    pages = [LoadedPage(text, 1)]
    config = ChunkingConfig(100, 0)
    chunks = list(
        engine.chunks(pages, ChunkMetadata("frase"), config=config, tokenization=WordTokenization())
    )
    tokenizer = ByteTokenization(special_tokens=0)
    built = build_parents(
        join_pages(pages, "\n\n"),
        chunks,
        sections=None,
        config=config,
        tokenizer=tokenizer,
        parent_max_tokens=100,
    )
    assert all(p.token_count == len(p.text.encode()) <= 100 for p in built.parents)
    assert " ".join(p.text for p in built.parents).split() == text.split()


@pytest.mark.parametrize(("parent_max_tokens", "max_tokens"), [(255, 256), (1, 64), (383, 384)])
def test_a_parent_budget_below_a_chunk_names_both_numbers(
    parent_max_tokens: int, max_tokens: int
) -> None:
    with pytest.raises(ConfigurationError) as caught:
        check_parent_budget(parent_max_tokens, ChunkingConfig(max_tokens, 0))
    assert f"parent_max_tokens={parent_max_tokens}" in str(caught.value)
    assert f"max_tokens={max_tokens}" in str(caught.value)
    assert caught.value.expected == f"at least {max_tokens}"


@pytest.mark.parametrize("value", [True, 1.5, "1024"])
def test_a_parent_budget_that_is_no_integer_is_refused(value: object) -> None:
    with pytest.raises(ConfigurationError):
        check_parent_budget(value, ChunkingConfig(64, 0))  # type: ignore[arg-type]


def test_no_chunks_no_parents() -> None:
    built = build_parents(
        join_pages([LoadedPage("  ", 1)], "\n\n"),
        [],
        sections=None,
        config=ChunkingConfig(64, 0),
        tokenizer=ByteTokenization(),
    )
    assert built == DocumentParents((), ())


def test_the_parent_tokenizer_loads_a_tokenizer_file_without_a_limit(
    minilm_folder: object,
) -> None:
    """A bare ``tokenizer.json`` declares no limit: the parent budget stands in."""
    tokenizer = load_parent_tokenizer(f"{minilm_folder}/tokenizer.json", 1024)
    assert tokenizer.count_content("El niño pagó 5 €.") > 0


def test_a_parent_id_changes_with_its_path_and_its_text() -> None:
    ids = {
        parent_id("ley", 0, 10, ("Artículo 1",), "texto"),
        parent_id("ley", 0, 10, ("Artículo 2",), "texto"),
        parent_id("ley", 0, 10, ("Artículo 1",), "texta"),
        parent_id("otra", 0, 10, ("Artículo 1",), "texto"),
    }
    assert len(ids) == 4


class _LongestText(WordTokenization):
    """The fake word pieces, recording the longest text and all the characters that
    parents hand it (counted or indexed)."""

    __slots__ = ("characters", "longest")

    def __init__(self) -> None:
        super().__init__(special_tokens=0)
        self.longest = self.characters = 0

    def _seen(self, text: str) -> None:
        self.longest = max(self.longest, len(text))
        self.characters += len(text)

    def count_content(self, text: str) -> int:
        self._seen(text)
        return super().count_content(text)

    def token_index(self, text: str) -> TokenIndex:
        self._seen(text)
        return super().token_index(text)


_PARAGRAPH = (
    "El contribuyente podrá deducir el quince por ciento de la cuota íntegra, "
    "según el artículo primero, salvo que la comunidad autónoma disponga otra cosa."
)


def _long_text_parents(
    paragraphs: int, tokenizer: Tokenization, budget: int
) -> tuple[JoinedText, list[Chunk], DocumentParents]:
    """A text without sections of ``paragraphs`` numbered paragraphs, its chunks (fake
    word pieces, 64/8) and their parents; the parents' invariants checked."""
    text = "\n\n".join(f"{_PARAGRAPH} {n}." for n in range(paragraphs))
    pages = [LoadedPage(text, 1)]
    config = ChunkingConfig(64, 8)
    chunks = list(
        engine.chunks(pages, ChunkMetadata("larga"), config=config, tokenization=WordTokenization())
    )
    joined = join_pages(pages, config.page_separator)
    built = build_parents(
        joined, chunks, sections=None, config=config, tokenizer=tokenizer, parent_max_tokens=budget
    )
    return joined, chunks, built


def _check_windows_are_as_long_as_fit(
    joined: JoinedText,
    chunks: Sequence[Chunk],
    built: DocumentParents,
    count: Tokenization,
    budget: int,
) -> None:
    """The window that ends before each chunk of another window would not fit it too."""
    owners = list(built.chunk_parents)
    for index in range(len(chunks) - 1):
        if owners[index] != owners[index + 1]:  # the last chunk of a window
            parent = built.by_id()[owners[index]]
            wider = joined.text[parent.start : chunks[index + 1].end]
            assert count.count_content(wider) > budget, "a window stopped short"


def test_a_long_text_without_sections_is_never_counted_whole() -> None:
    """One unit of 600,000 characters: its parents are windows as long as fit, found
    with texts of bounded length (a window, a piece of the estimate) and about one
    pass of counting, never the whole unit at once."""
    tokenizer = _LongestText()
    joined, chunks, built = _long_text_parents(3600, tokenizer, 512)
    assert len(joined.text) > 500_000
    assert tokenizer.longest < 100_000, "the unit was handed over whole"
    assert tokenizer.characters < 4 * len(joined.text), "counted more than a few passes"
    assert len(built.parents) > 100
    _check_invariants(joined, chunks, built, tokenizer, 512, None)
    _check_windows_are_as_long_as_fit(joined, chunks, built, WordTokenization(), 512)


class _Underestimated(ByteTokenization):
    """Bytes counted, word pieces estimated: every estimate about four times too low,
    so every window the estimates place is too long and must shrink."""

    __slots__ = ("characters",)

    def __init__(self) -> None:
        super().__init__(special_tokens=0)
        self.characters = 0

    def count_content(self, text: str) -> int:
        self.characters += len(text)
        return super().count_content(text)

    def token_index(self, text: str) -> TokenIndex:
        return WordTokenization().token_index(text)


def test_estimates_far_off_still_give_the_longest_windows_in_linear_counts() -> None:
    tokenizer = _Underestimated()
    joined, chunks, built = _long_text_parents(1200, tokenizer, 1024)
    assert tokenizer.characters < 20 * len(joined.text), "counts grew with the estimates' error"
    _check_invariants(joined, chunks, built, tokenizer, 1024, None)
    _check_windows_are_as_long_as_fit(joined, chunks, built, ByteTokenization(), 1024)
