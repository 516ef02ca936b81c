"""Outline titles located in page text: tolerant matching, never a guess, valid sections."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, WORDS, examples

from langchain_asesoria import (
    ChunkingConfig,
    ChunkMetadata,
    InvalidSectionsError,
    LoadedPage,
    SectionSpan,
    chunk_document,
    join_pages,
)
from langchain_asesoria.pdf import (
    OutlineEntry,
    SectionStart,
    fold,
    locate_sections,
    locate_titles,
    section_spans,
)
from langchain_asesoria.testing import ByteTokenization

BODY = "El contribuyente integrará las rentas según su origen.\n"


def pages(*texts: str) -> list[LoadedPage]:
    return [LoadedPage(text, number) for number, text in enumerate(texts, start=1)]


def entry(title: str, page: int | None, *parents: str) -> OutlineEntry:
    return OutlineEntry(title, (*parents, title), page)


def test_fold_keeps_letters_and_digits_without_accents_or_case() -> None:
    folded, where = fold("Sección 1.ª  Ñandú-\nÉ")
    assert folded == "seccion1anandue"
    assert [("Sección 1.ª  Ñandú-\nÉ")[i] for i in where] == list("Sección1ªÑandúÉ")


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("Artículo 1. Objeto\n", "Artículo 1. Objeto"),
        ("Integración y renta en la \nbase general\n", "Integración y renta en la base general"),
        ("Integración y compen-\nsación de rentas\n", "Integración y compensación de rentas"),
        ("Cuadro-\nresumen de integración\n", "Cuadro-resumen de integración"),
        ("Artículo 1.  Indemnizaciones   por cese.\n", "Artículo 1. Indemnizaciones por cese."),
        ("TÍTULO PRELIMINAR\n", "Título preliminar"),
        ("Articulo 5 Exencion\n", "Artículo 5. Exención"),
        ("Sección 1.\u00aa Rendimientos\n", "Sección 1.ª Rendimientos"),
        ("\u00a0 Caso práctico\n", "Caso práctico"),
    ],
)  # fmt: skip
def test_a_title_is_found_whatever_the_extraction_did_to_it(text: str, title: str) -> None:
    located = locate_titles(pages(BODY + text + BODY), [entry(title, 1)])
    assert located.unlocated == ()
    # The titles end with their line (its punctuation too): no chunk ends inside it.
    title_end = (1, len(BODY + text) - 1)
    assert located.starts == (SectionStart(1, len(BODY), title, (title,), title_end),)


@pytest.mark.parametrize(
    ("line", "offset"),
    [("1. Introducción\n", 0), ("a) Introducción\n", 0), ("IV. Introducción\n", 0),
     ("• Introducción\n", 0)],
)  # fmt: skip
def test_a_numbered_heading_starts_with_its_number(line: str, offset: int) -> None:
    located = locate_titles(pages(BODY + line), [entry("Introducción", 1)])
    assert [start.offset for start in located.starts] == [len(BODY) + offset]


@pytest.mark.parametrize(
    ("text", "title", "page"),
    [
        ("Según el Artículo 1. Objeto de la ley\n", "Artículo 1. Objeto", 1),  # inside a line
        ("Rentas exentas\n", "Renta", 1),  # inside a word
        ("Artículo 10. Objeto\n", "Artículo 1", 1),  # another number
        ("Artículo 1. Objeto\n", "Artículo 1. Objeto", 2),  # not on its page
        ("Artículo 1. Objeto\n", "Artículo 1. Objeto", None),  # no page (a web link)
        ("Artículo 1. Objeto\n", "", 1),  # no title
        ("Artículo 1. Objeto\n", "[Preámbulo]", 1),  # a title the text does not print
    ],
)
def test_what_is_not_there_is_never_guessed(text: str, title: str, page: int | None) -> None:
    missing = entry(title, page)
    located = locate_titles(pages(BODY + text, BODY), [missing])
    assert located.starts == ()
    assert located.unlocated == (missing,)
    assert (located.entries, located.located) == (1, 0)


def test_a_title_starting_at_a_page_end_runs_onto_the_next_page() -> None:
    doc = pages(BODY + "Disposición adicional primera. Remisiones", "normativas.\n" + BODY)
    title = "Disposición adicional primera. Remisiones normativas."
    located = locate_titles(doc, [entry(title, 1)])
    assert located.starts == (SectionStart(1, len(BODY), title, (title,), (2, len("normativas."))),)
    # A title wholly on the next page is not located on this one.
    assert locate_titles(pages(BODY, title + "\n" + BODY), [entry(title, 1)]).starts == ()


def test_entries_out_of_order_on_one_page_or_across_pages_are_all_located() -> None:
    doc = pages(BODY + "Artículo 1\n" + BODY + "Artículo 2\n" + BODY, "Artículo 3\n" + BODY)
    entries = [entry("Artículo 3", 2), entry("Artículo 2", 1), entry("Artículo 1", 1)]
    located = locate_titles(doc, entries)
    assert located.unlocated == ()
    assert [start.label for start in located.starts] == ["Artículo 1", "Artículo 2", "Artículo 3"]


def test_a_repeated_title_is_found_once_per_occurrence() -> None:
    twice = pages(BODY + "Disposición\n" + BODY + "Disposición\n" + BODY)
    located = locate_titles(twice, [entry("Disposición", 1), entry("Disposición", 1)])
    assert [start.offset for start in located.starts] == [
        len(BODY),
        2 * len(BODY) + len("Disposición\n"),
    ]
    once = pages(BODY + "Disposición\n" + BODY)
    duplicate = entry("Disposición", 1)
    assert locate_titles(once, [duplicate, duplicate]).unlocated == (duplicate,)


def test_several_entries_on_one_page_search_forward_from_the_previous_one() -> None:
    # "Normas" also heads the first paragraph; the second entry is the later heading.
    doc = pages("Normas\n" + BODY + "Rentas\n" + BODY + "Normas\n" + BODY)
    entries = [entry("Normas", 1), entry("Rentas", 1), entry("Normas", 1)]
    located = locate_titles(doc, entries)
    assert [start.offset for start in located.starts] == [0, 62, 124]


def test_a_bare_title_travels_with_what_follows_it_and_the_path_names_it() -> None:
    doc = pages(
        "Capítulo 12\nIntroducción\n" + BODY + "TÍTULO I\nTÍTULO II\n" + BODY,
    )
    entries = [
        entry("Capítulo 12", 1),
        entry("Introducción", 1, "Capítulo 12"),
        entry("TÍTULO I", 1),
        entry("TÍTULO II", 1),
    ]
    located = locate_titles(doc, entries)
    assert located.located == 4
    assert [(start.offset, start.label, start.path) for start in located.starts] == [
        (0, "Introducción", ("Capítulo 12", "Introducción")),  # its parent, named already
        (len("Capítulo 12\nIntroducción\n" + BODY), "TÍTULO II", ("TÍTULO I", "TÍTULO II")),
    ]


def test_a_flat_outline_chain_of_bare_titles_opens_the_first_article() -> None:
    # BOE consolidated PDFs list TÍTULO, CAPÍTULO and their articles as siblings; a
    # title whose text is only punctuation after the match is bare too.
    text = "REGLAMENTO\nTÍTULO I\nSujeción.\nCAPÍTULO I\nRentas exentas\nArtículo 1. Cese.\n"
    doc = pages(BODY + text + BODY)
    entries = [
        entry("REGLAMENTO", 1, "Real Decreto"),
        entry("TÍTULO I. Sujeción", 1, "Real Decreto"),
        entry("CAPÍTULO I. Rentas exentas", 1, "Real Decreto"),
        entry("Artículo 1. Cese.", 1, "Real Decreto", "CAPÍTULO I. Rentas exentas"),
    ]
    located = locate_titles(doc, entries)
    assert located.unlocated == ()
    assert [(start.offset, start.label, start.path) for start in located.starts] == [
        (
            len(BODY),
            "Artículo 1. Cese.",
            (
                "Real Decreto",
                "REGLAMENTO",
                "TÍTULO I. Sujeción",
                "CAPÍTULO I. Rentas exentas",
                "Artículo 1. Cese.",
            ),
        )
    ]


def test_a_bare_title_before_a_shallower_one_stays_at_the_end_of_its_section() -> None:
    # "Anexo" (an image in the PDF) holds no text before the next title, which is
    # shallower, nor before the end: it stays in the section before, with no start.
    doc = pages("Artículo 1\n" + BODY + "Cuadro-resumen\n" + "Artículo 2\n" + BODY + "Anexo\n")
    entries = [
        entry("Artículo 1", 1, "Ley"),
        entry("Cuadro-resumen", 1, "Ley", "Artículo 1"),
        entry("Artículo 2", 1, "Ley"),
        entry("Anexo", 1, "Ley", "Artículo 2"),
    ]
    located = locate_titles(doc, entries)
    assert located.located == 4
    assert [(start.offset, start.path) for start in located.starts] == [
        (0, ("Ley", "Artículo 1")),
        (len("Artículo 1\n" + BODY + "Cuadro-resumen\n"), ("Ley", "Artículo 2")),
    ]


def test_spans_cover_from_each_start_to_the_next_in_the_joined_text() -> None:
    doc = pages(BODY + "Artículo 1\n" + BODY, "Artículo 2\n" + BODY)
    spans, unlocated = locate_sections(
        doc, [entry("Artículo 1", 1, "Ley"), entry("Artículo 2", 2, "Ley")], "\n\n"
    )
    joined = join_pages(doc, "\n\n").text
    assert unlocated == ()
    first, second = len(BODY), len(doc[0].text) + 2
    assert spans == [
        SectionSpan(first, second, "Artículo 1", ("Ley", "Artículo 1"), first + len("Artículo 1")),
        SectionSpan(second, len(joined), "Artículo 2", ("Ley", "Artículo 2"), second + 10),
    ]
    # Text before the first title is in no section.
    assert joined[: spans[0].start] == BODY


def test_starts_on_missing_pages_are_refused() -> None:
    with pytest.raises(InvalidSectionsError, match=r"page\(s\) \[7\]"):
        section_spans(pages("a"), [SectionStart(7, 0, "X", ("X",))])


# -- properties --------------------------------------------------------------------------


@dataclass(frozen=True)
class Outlined:
    pages: list[LoadedPage]
    entries: list[OutlineEntry]
    findable: set[int]  # entries (by position) that must be located


def _variant(title: str, how: int) -> str:
    """The title as an extractor might give it."""
    if how == 1:
        return title.upper()
    if how == 2:
        decomposed = unicodedata.normalize("NFKD", title)
        return "".join(c for c in decomposed if not unicodedata.combining(c))
    if how == 3:
        return title.replace(" ", "\n", 1)
    if how == 4:
        first, _, rest = title.partition(" ")
        return f"{first[:3]}-\n{first[3:]} {rest}" if len(first) > 4 else title
    if how == 5:
        return title.replace(" ", "   ")
    return title


@st.composite
def outlined_documents(draw: st.DrawFn) -> Outlined:
    """Sections with titles (varied as extracted), cut into pages; an imperfect outline."""
    count = draw(st.integers(min_value=0, max_value=10))
    lines: list[tuple[str, int | None]] = []  # (line, section it heads)
    titles = []
    for index in range(count):
        title = f"Artículo {index + 1}. {draw(st.sampled_from(WORDS)).capitalize()}"
        titles.append(title)
        printed = draw(st.booleans()) or index == 0
        if printed:
            for number, part in enumerate(_variant(title, draw(st.integers(0, 5))).split("\n")):
                lines.append((part, index if number == 0 else None))
        for _ in range(draw(st.integers(0, 4))):
            words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8))
            lines.append((" ".join(words).lower(), None))
    cuts = sorted(draw(st.sets(st.integers(1, max(len(lines) - 1, 1)), max_size=4)))
    page_of_line: list[int] = []
    texts: list[list[str]] = [[]]
    for position, (line, _) in enumerate(lines):
        if position in cuts:
            texts.append([])
        texts[-1].append(line)
        page_of_line.append(len(texts))
    doc = pages(*("\n".join(text) for text in texts))
    entries: list[OutlineEntry] = []
    findable: set[int] = set()
    for index in range(count):
        title = titles[index]
        heading = next((i for i, (_, s) in enumerate(lines) if s == index), None)
        page = page_of_line[heading] if heading is not None else draw(st.integers(1, len(doc)))
        mistake = draw(st.sampled_from(["none", "none", "none", "no page", "wrong page"]))
        if mistake == "no page":
            page = None
        elif mistake == "wrong page" and page is not None:
            page = page % len(doc) + 1
        if heading is not None and page == page_of_line[heading]:
            findable.add(len(entries))
        entries.append(OutlineEntry(title, ("Ley", title), page))
    if entries and draw(st.booleans()):
        entries.append(draw(st.sampled_from(entries)))  # a duplicate
    order = draw(st.permutations(range(len(entries))))
    return Outlined(
        doc,
        [entries[i] for i in order],
        {order.index(i) for i in findable},
    )


@settings(PROFILE, max_examples=examples(150))
@given(outlined_documents())
def test_sections_are_valid_and_every_printed_title_on_its_page_is_located(
    document: Outlined,
) -> None:
    located = locate_titles(document.pages, document.entries)
    assert located.entries == len(document.entries)
    # Out of order, duplicated, missing or on the wrong page: the located ones are right.
    for index in document.findable:
        assert (
            document.entries[index] not in located.unlocated
            or document.entries.count(document.entries[index]) > 1
        )
    text = join_pages(document.pages, "\n").text
    starts = [
        sum(len(p.text) + 1 for p in document.pages[: start.page - 1]) + start.offset
        for start in located.starts
    ]
    assert starts == sorted(set(starts))
    ends = [*starts[1:], len(text)][: len(starts)]
    for position, end, start in zip(starts, ends, located.starts, strict=True):
        assert position == 0 or text[position - 1] == "\n"  # a heading line
        # Never a guess: the section opens with one of its path's titles (its own, or a
        # bare one it carries), and its own title is inside it.
        here = fold(text[position:end])[0]
        assert any(here.startswith(fold(title)[0]) for title in start.path)
        assert fold(start.path[-1])[0] in here
        assert start.label == start.path[-1]
    spans = section_spans(document.pages, located.starts, "\n\n")
    joined = join_pages(document.pages, "\n\n").text
    assert all(0 <= s.start < s.end <= len(joined) for s in spans)
    assert all(a.end <= b.start for a, b in pairwise(spans))
    chunks = chunk_document(  # the engine accepts them
        document.pages,
        ChunkMetadata(doc_id="ley"),
        config=ChunkingConfig(max_tokens=64, overlap_tokens=8),
        tokenization=ByteTokenization(64),
        sections=spans,
    )
    for chunk in chunks:
        inside = [s for s in spans if s.start <= chunk.start < s.end]
        assert chunk.metadata.section_path == (inside[0].section_path if inside else ())
