"""join_pages and page_at: one document's pages, joined by a separator of no page."""

from __future__ import annotations

import pytest

from langchain_asesoria import (
    ChunkingConfig,
    ChunkMetadata,
    InvalidPagesError,
    LoadedPage,
    chunk_document,
    join_pages,
)
from langchain_asesoria.testing import ByteTokenization

PAGES = (
    LoadedPage("Artículo 1. El impuesto grava el patrimonio.", 1),
    LoadedPage("Mínimo exento: 700.000 € 💶.", 2),
    LoadedPage("Año 2025, señor Muñoz.", 3),
)


@pytest.mark.parametrize("separator", ["\n\n", "\n", "\f", " \n "])
def test_pages_are_joined_by_the_separator(separator: str):
    joined = join_pages(PAGES, separator)
    assert joined.text == separator.join(page.text for page in PAGES)
    assert joined.page_numbers == (1, 2, 3)


@pytest.mark.parametrize("separator", ["\n\n", "\f"])
def test_each_page_text_sits_exactly_at_its_start(separator: str):
    joined = join_pages(PAGES, separator)
    for page, start in zip(PAGES, joined.page_starts, strict=True):
        assert joined.text[start : start + len(page.text)] == page.text


def test_separators_belong_to_no_page():
    separator = "\n\n"
    joined = join_pages(PAGES, separator)
    owned = set()
    for page, start in zip(PAGES, joined.page_starts, strict=True):
        owned.update(range(start, start + len(page.text)))
    unowned = [i for i in range(len(joined.text)) if i not in owned]
    assert "".join(joined.text[i] for i in unowned) == separator * (len(PAGES) - 1)


def test_page_at_maps_every_character_of_a_page_to_it():
    joined = join_pages(PAGES)
    for page, start in zip(PAGES, joined.page_starts, strict=True):
        for position in range(start, start + len(page.text)):
            assert joined.page_at(position) == page.page


@pytest.mark.parametrize(
    ("pages", "expected_starts", "expected"),
    [
        pytest.param(
            [LoadedPage("uno", 1)],
            (0,),
            {0: 1, 2: 1},
            id="one-page",
        ),
        pytest.param(
            [LoadedPage("Página uno", 1), LoadedPage("", 2), LoadedPage("Tres €", 5)],
            (0, 12, 14),
            {0: 1, 9: 1, 14: 5, 19: 5},
            id="empty-page-and-gap-in-numbers",
        ),
        pytest.param(
            [LoadedPage("ñ", 7), LoadedPage("😀", 8)],
            (0, 3),
            {0: 7, 3: 8},
            id="offsets-in-characters-not-bytes",
        ),
    ],
)
def test_page_at_table(
    pages: list[LoadedPage], expected_starts: tuple[int, ...], expected: dict[int, int]
):
    joined = join_pages(pages)
    assert joined.page_starts == expected_starts
    assert {position: joined.page_at(position) for position in expected} == expected


@pytest.mark.parametrize(
    "make", [iter, lambda pages: (page for page in pages)], ids=["iterator", "generator"]
)
def test_pages_given_as_an_iterable_are_not_silently_dropped(make):
    # A loader's lazy_load() yields pages; nothing may be lost (or the input must be refused).
    joined = join_pages(make(PAGES))
    assert joined.text == join_pages(PAGES).text
    assert joined.page_numbers == (1, 2, 3)


def test_no_pages_join_to_empty_text():
    joined = join_pages([])
    assert joined.text == ""
    assert joined.page_starts == ()


def test_pages_may_start_above_one_and_skip_numbers():
    joined = join_pages([LoadedPage("Página 7.", 7), LoadedPage("Página 9.", 9)])
    assert joined.page_numbers == (7, 9)


@pytest.mark.parametrize(
    "pages",
    [
        pytest.param([LoadedPage("b", 2), LoadedPage("a", 1)], id="out-of-order"),
        pytest.param([LoadedPage("a", 1), LoadedPage("a bis", 1)], id="duplicated"),
        pytest.param(
            [LoadedPage("a", 3), LoadedPage("b", 4), LoadedPage("c", 2)], id="late-out-of-order"
        ),
        pytest.param([LoadedPage("cero", 0)], id="zero"),
        pytest.param([LoadedPage("negativa", -1)], id="negative"),
        pytest.param([LoadedPage("booleana", True)], id="bool"),
        pytest.param([LoadedPage("decimal", 1.0)], id="float"),  # type: ignore[arg-type]
        pytest.param([LoadedPage("texto", "1")], id="str-number"),  # type: ignore[arg-type]
        pytest.param([LoadedPage(b"bytes", 1)], id="bytes-text"),  # type: ignore[arg-type]
        pytest.param(["una cadena, no una página"], id="not-a-page"),
        pytest.param(
            [LoadedPage("a", 1, "renta.pdf"), LoadedPage("b", 2, "patrimonio.pdf")],
            id="mixed-sources",
        ),
    ],
)
def test_invalid_pages_are_refused(pages: list[LoadedPage]):
    with pytest.raises(InvalidPagesError):
        join_pages(pages)


def test_invalid_pages_are_refused_by_chunk_document_too():
    with pytest.raises(InvalidPagesError):
        chunk_document(
            [LoadedPage("segunda", 2), LoadedPage("primera", 1)],
            ChunkMetadata(doc_id="desordenado"),
            config=ChunkingConfig(max_tokens=64, overlap_tokens=0),
            tokenization=ByteTokenization(),
        )


def test_pages_of_one_source_are_accepted():
    joined = join_pages([LoadedPage("a", 1, "renta.pdf"), LoadedPage("b", 2, "renta.pdf")])
    assert joined.text == "a\n\nb"


@pytest.mark.parametrize(
    ("pages", "doc_id", "fragments"),
    [
        (
            [LoadedPage("b", 2), LoadedPage("a", 1)],
            "modelo-100",
            ["'modelo-100'", "page 1", "out of order"],
        ),
        (
            [LoadedPage("a", 4), LoadedPage("b", 4)],
            "modelo-714",
            ["'modelo-714'", "page 4", "duplicated"],
        ),
        ([LoadedPage("a", 0)], "guía", ["'guía'", "0", "numbered from 1"]),
    ],
)
def test_messages_name_the_document_the_page_and_the_fix(
    pages: list[LoadedPage], doc_id: str, fragments: list[str]
):
    with pytest.raises(InvalidPagesError) as caught:
        join_pages(pages, "\n\n", doc_id)
    for fragment in fragments:
        assert fragment in str(caught.value)
