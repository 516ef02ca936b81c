"""Running headers and footers: found at the pages' edges, removed, reported, undone."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, WORDS, examples

from langchain_asesoria import LoadedPage
from langchain_asesoria.pdf import Furniture, FurnitureSummary, find_furniture, furniture_key

HEADER = "BOLETÍN OFICIAL DEL ESTADO"
TABLE_HEADER = "Concepto   Importe   Porcentaje"


def body(number: int, lines: int = 8) -> list[str]:
    """Lines that never repeat from page to page."""
    return [
        f"Línea {index} de la página {number}: {WORDS[(number * 7 + index) % 50]}."
        for index in range(lines)
    ]


def page(number: int, lines: list[str]) -> LoadedPage:
    return LoadedPage("\n".join(lines), number, "ley.pdf")


def law(pages: int = 6) -> list[LoadedPage]:
    return [
        page(n, [HEADER, *body(n), "LEGISLACIÓN CONSOLIDADA", f"Página {n}"])
        for n in range(1, pages + 1)
    ]


def removed(pages: list[LoadedPage], furniture: Furniture) -> set[str]:
    return {line.text for line in furniture.lines}


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("Página 12", "Página #"),
        ("  Página   13 ", "Página #"),
        (
            "06/09/2024 - Manual práctico de Renta 2023. Página 16",
            "#/#/# - Manual práctico de Renta #. Página #",
        ),
        ("BOLETÍN OFICIAL DEL ESTADO", "BOLETÍN OFICIAL DEL ESTADO"),
    ],
)
def test_the_key_ignores_numbers_and_spacing(line: str, key: str) -> None:
    assert furniture_key(line) == key


def test_running_headers_and_footers_are_removed_and_nothing_else() -> None:
    pages = law()
    furniture = find_furniture(pages)
    assert {line.text for line in furniture.lines} == {
        HEADER,
        "LEGISLACIÓN CONSOLIDADA",
        *(f"Página {n}" for n in range(1, 7)),
    }
    cleaned = furniture.remove(pages)
    assert [p.page for p in cleaned] == [1, 2, 3, 4, 5, 6]
    assert [p.source for p in cleaned] == ["ley.pdf"] * 6
    for original, clean in zip(pages, cleaned, strict=True):
        assert clean.text == "\n".join(body(original.page)) + "\n"
    assert furniture.summary() == (
        FurnitureSummary(HEADER, (1, 2, 3, 4, 5, 6)),
        FurnitureSummary("LEGISLACIÓN CONSOLIDADA", (1, 2, 3, 4, 5, 6)),
        FurnitureSummary("Página N", (1, 2, 3, 4, 5, 6)),
    )


def test_a_line_repeated_inside_the_body_is_kept() -> None:
    pages = [page(n, [HEADER, *body(n, 4), TABLE_HEADER, *body(n + 50, 4)]) for n in range(1, 6)]
    furniture = find_furniture(pages)
    assert {line.text for line in furniture.lines} == {HEADER}


def test_too_few_pages_keep_everything() -> None:
    assert find_furniture(law(2)).lines == ()


def test_a_line_on_fewer_than_half_of_the_pages_is_kept() -> None:
    pages = law(10)
    pages = [
        page(p.page, ["Nota al pie", *p.text.split("\n")]) if p.page in (1, 2, 5) else p
        for p in pages
    ]
    found = {line.text for line in find_furniture(pages).lines}
    assert "Nota al pie" not in found
    assert HEADER in found


def test_headers_of_alternate_pages_are_found_on_their_parity() -> None:
    # Even pages print the chapter, odd pages the law: each on half of all pages or less.
    pages = [
        page(n, ["Capítulo 3. Rentas" if n % 2 == 0 else "Ley del Impuesto", *body(n)])
        for n in range(1, 10)
    ]
    assert {line.text for line in find_furniture(pages).lines} == {
        "Capítulo 3. Rentas",
        "Ley del Impuesto",
    }


def heights(pages: list[LoadedPage], edges: dict[str, float]) -> list[list[float | None]]:
    """Body lines from 700 down by 12 points; named lines at their own height."""
    result = []
    for p in pages:
        lines = p.text.split("\n")
        result.append([edges.get(line, 700.0 - 12 * index) for index, line in enumerate(lines)])
    return result


def test_a_running_title_that_changes_is_found_where_the_repeated_ones_stand() -> None:
    titles = [
        "Capítulo 12",
        "Introducción",
        "Capítulo 12",
        "Caso práctico",
        "Capítulo 12",
        "Glosario",
    ]
    pages = [page(n, [*body(n), titles[n - 1], f"Manual. Página {n}"]) for n in range(1, 7)]
    edges = {title: 803.7 for title in titles} | {f"Manual. Página {n}": 28.5 for n in range(1, 7)}
    with_heights = find_furniture(pages, heights(pages, edges))
    assert {line.text for line in with_heights.lines} == set(titles) | set(edges) - set(titles)
    # Without heights only the repeated title is found.
    without = find_furniture(pages)
    assert {line.text for line in without.lines} == {
        "Capítulo 12",
        *(f"Manual. Página {n}" for n in range(1, 7)),
    }


def test_a_height_inside_the_body_is_never_a_band() -> None:
    # The repeated line stands where body lines also stand: only it is removed.
    pages = [
        page(n, ["Ley del Impuesto" if n < 5 else f"Otro título {n}", *body(n, 16)])
        for n in range(1, 7)
    ]
    edges = {"Ley del Impuesto": 600.0} | {f"Otro título {n}": 600.0 for n in range(1, 7)}
    found = find_furniture(pages, heights(pages, edges))
    assert {line.text for line in found.lines} == {"Ley del Impuesto"}


def test_a_form_repeated_on_every_page_is_not_furniture() -> None:
    pages = [
        page(n, ["ACME S.L.", f"Factura {n}", f"Fecha: 0{n}/02/2024", f"Total: {n}0,00 €"])
        for n in range(1, 6)
    ]
    assert find_furniture(pages).lines == ()


def test_offsets_move_to_the_cleaned_text() -> None:
    pages = law(4)
    furniture = find_furniture(pages)
    second = pages[1].text
    position = second.index("Línea 3")
    cleaned = furniture.remove(pages)[1].text
    assert cleaned[furniture.cleaned_offset(2, position) :].startswith("Línea 3")
    assert furniture.cleaned_offset(2, 0) == 0  # inside the removed header
    assert furniture.cleaned_offset(2, len(second)) == len(cleaned)


# -- properties --------------------------------------------------------------------------


def _letters(number: int) -> str:
    """A number spelled in letters ("b", "ba"...): body lines never share a key."""
    digits = ""
    while True:
        number, rest = divmod(number, 26)
        digits = "abcdefghijklmnopqrstuvwxyz"[rest] + digits
        if not number:
            return "x" + digits


@dataclass(frozen=True)
class Generated:
    pages: list[LoadedPage]
    furniture: set[str]
    body: set[str]


@st.composite
def furnished_documents(draw: st.DrawFn) -> Generated:
    """Pages of unique body lines, with running lines at some edges of most pages."""
    count = draw(st.integers(min_value=1, max_value=12))
    top = draw(
        st.lists(
            st.sampled_from([HEADER, "Ley 35/2006", "Manual práctico"]), max_size=2, unique=True
        )
    )
    bottom = draw(
        st.lists(st.sampled_from(["Página {n}", "{n}", "Hoja {n} de 99"]), max_size=2, unique=True)
    )
    skip = draw(st.sets(st.integers(1, count), max_size=max(0, count // 2 - 1)))
    pages, furniture, lines_in_body = [], set(), set()
    for number in range(1, count + 1):
        words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))
        lines = [
            f"{_letters(number)} {_letters(index)} {' '.join(words)}"
            for index in range(draw(st.integers(0, 6)))
        ]
        lines_in_body.update(lines)
        blanks = draw(st.booleans())
        if number not in skip:
            head = list(top)
            foot = [line.format(n=number) for line in bottom]
            furniture.update(head + foot)
            lines = head + ([""] if blanks else []) + lines + foot
        pages.append(page(number, lines))
    running = sum(len(top) + len(bottom) for number in range(1, count + 1) if number not in skip)
    found = count - len(skip) >= 3 and running <= (running + len(lines_in_body)) / 2
    return Generated(pages, furniture if found else set(), lines_in_body)


@settings(PROFILE, max_examples=examples(100))
@given(furnished_documents())
def test_only_furniture_is_removed_and_pages_keep_their_numbers(document: Generated) -> None:
    furniture = find_furniture(document.pages)
    cleaned = furniture.remove(document.pages)
    assert [p.page for p in cleaned] == [p.page for p in document.pages]
    assert furniture.restore(cleaned) == tuple(document.pages)  # nothing else changed
    found = {line.text for line in furniture.lines}
    assert not found & document.body
    for line in furniture.lines:
        text = document.pages[line.page - 1].text
        assert text[line.start : line.end].rstrip("\n") == line.text
        assert line.start == 0 or text[line.start - 1] == "\n"


@settings(PROFILE, max_examples=examples(100))
@given(furnished_documents())
def test_furniture_on_most_pages_is_found(document: Generated) -> None:
    found = {line.text for line in find_furniture(document.pages).lines}
    assert document.furniture <= found
