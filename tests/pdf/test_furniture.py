"""Running headers and footers: found at the pages' edges, removed, reported, undone."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, WORDS, examples

from langchain_asesoria import LoadedPage
from langchain_asesoria.pdf import (
    Furniture,
    FurnitureSummary,
    OutlineEntry,
    find_furniture,
    furniture_key,
    is_legal_heading,
)
from tests.pdf_layouts import letters

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


def test_a_line_drawn_inside_the_body_is_body_whatever_its_text_order() -> None:
    # First in the extracted text, but drawn where body lines stand: neither the
    # repeated line nor the titles beside it are removed.
    pages = [
        page(n, ["Ley del Impuesto" if n < 5 else f"Otro título {n}", *body(n, 16)])
        for n in range(1, 7)
    ]
    edges = {"Ley del Impuesto": 600.0} | {f"Otro título {n}": 600.0 for n in range(1, 7)}
    assert find_furniture(pages, heights(pages, edges)).lines == ()


def test_a_form_repeated_on_every_page_is_not_furniture() -> None:
    pages = [page(n, ["ACME S.L.", "Factura", f"Número {n}0{n}", "Total"]) for n in range(1, 6)]
    assert find_furniture(pages).lines == ()


def test_a_letterhead_goes_and_the_numbered_lines_stay() -> None:
    # Invoice numbers, dates and totals change from page to page: only the letterhead
    # repeats, and they are body even where their numbers follow the pages.
    pages = [
        page(
            n,
            ["ACME S.L.", f"Factura {n}", *body(n, 4), f"Fecha: 0{n}/02/2024", f"Total: {n}0,00"],
        )
        for n in range(1, 6)
    ]
    assert {line.text for line in find_furniture(pages).lines} == {"ACME S.L."}


@pytest.mark.parametrize(
    ("form", "furniture"),
    [
        ("Página {n}", True),
        ("- {n} -", True),
        ("{n} / 179", True),
        ("Pág. {n} de 179", True),
        ("{n}", True),
        ("Hoja {n} de 9", True),
        ("Manual práctico de Renta 2023. Página {n}", True),
        ("BOLETÍN OFICIAL DEL ESTADO - {n} -", True),
        ("Ley 35/2006 {n} / 179", True),
        ("Artículo {n}. Escala", False),  # a legal heading, even numbered as the pages
        ("Escala parte {n}.", False),  # a number that follows the pages, not a page number
        ("Ejercicio 20{n}", False),
        ("Fecha: 0{n}/02/2024", False),
    ],
)
def test_what_may_change_is_a_page_number(form: str, furniture: bool) -> None:
    # At the foot of 6 pages, printed numbers 452 ahead of the PDF's.
    pages = [page(n, [*body(n), form.format(n=n + 452)]) for n in range(1, 7)]
    found = {line.text for line in find_furniture(pages).lines}
    assert bool(found) is furniture
    assert found <= {form.format(n=n + 452) for n in range(1, 7)}


def test_numbers_that_do_not_follow_the_pages_are_body() -> None:
    pages = [page(n, [*body(n), f"Página {n * 7 % 5}"]) for n in range(1, 7)]
    assert find_furniture(pages).lines == ()


@pytest.mark.parametrize(
    ("line", "heading"),
    [
        ("Artículo 41. Escala parte 2.", True),
        ("Articulo 41. Escala.", True),
        ("TÍTULO II. De la renta", True),
        ("CAPÍTULO III", True),
        ("Sección 2.ª Rendimientos del trabajo", True),
        ("Disposición adicional primera.", True),
        ("ANEXO I", True),
        ("Capítulo 12. Integración y compensación de rentas", False),  # AEAT's running title
        ("BOLETÍN OFICIAL DEL ESTADO", False),
        ("Según el artículo 41, la escala", False),
    ],
)
def test_legal_headings(line: str, heading: bool) -> None:
    assert is_legal_heading(line) is heading


def test_a_legal_heading_at_a_page_s_first_line_is_never_furniture() -> None:
    pages = [page(n, ["Artículo 7. Rentas exentas.", *body(n)]) for n in range(1, 7)]
    assert find_furniture(pages).lines == ()


def margined(lines: list[str], top: int, bottom: int) -> list[float | None]:
    """Heights: ``top`` lines from 800 down by 12, a 40-point margin, body lines down by
    12 (a paragraph gap after the second), a 40-point margin, ``bottom`` lines."""
    body_count = len(lines) - top - bottom
    heights = [800.0 - 12 * index for index in range(top)]
    y = 800.0 - 12 * (top - 1) - 40 if top else 760.0
    for index in range(body_count):
        heights.append(y)
        y -= 12 + (8 if index == 1 else 0)
    y = y + 12 - 40
    heights += [y - 12 * index for index in range(bottom)][::-1]
    return list(heights)


def test_a_table_header_under_the_running_header_or_over_the_footer_stays() -> None:
    pages = []
    for n in range(1, 7):
        rows = [f"{n}{index}.450,00   {n}.87{index},05" for index in range(3)]
        pages.append(page(n, [HEADER, TABLE_HEADER, *rows, *body(n, 6), TABLE_HEADER, f"- {n} -"]))
    line_heights = [margined(p.text.split("\n"), 1, 1) for p in pages]
    found = find_furniture(pages, line_heights)
    assert {line.text for line in found.lines} == {HEADER, *(f"- {n} -" for n in range(1, 7))}


def test_without_heights_a_text_also_inside_a_page_is_body() -> None:
    pages = [page(n, [HEADER, TABLE_HEADER, *body(n), f"Página {n}"]) for n in range(1, 7)]
    pages[2] = page(3, [HEADER, *body(3, 5), TABLE_HEADER, *body(33, 5), "Página 3"])
    found = {line.text for line in find_furniture(pages).lines}
    assert TABLE_HEADER not in found
    assert HEADER in found


def test_an_outline_title_found_nowhere_else_is_kept() -> None:
    # "Glosario" repeats at the top of most pages, and the outline's entry for page 5
    # is only found there: that line stays, the others go.
    pages = [page(n, ["Glosario", *body(n)]) for n in range(1, 7)]
    titles = [OutlineEntry("Glosario", ("Glosario",), 5)]
    found = find_furniture(pages, titles=titles)
    assert sorted(line.page for line in found.lines) == [1, 2, 3, 4, 6]


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
    """A number spelled in letters ("xb", "xba"...): body lines never share a key."""
    return "x" + letters(number)


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


# -- pages with and without furniture, by heights -----------------------------------------

CHAPTER = "Capítulo 12. Integración y compensación de rentas"
FOOTER = "www.agenciatributaria.es"


def stacked(top: float, lines: int, gap: float = 12.0) -> list[float | None]:
    """A header at ``top``, ``gap`` points over ``lines`` body lines down by 12 (a
    paragraph gap after the second), and a footer at 30."""
    heights: list[float | None] = [top]
    y = top - gap
    for index in range(lines):
        heights.append(y)
        y -= 12 + (6 if index == 1 else 0)
    return [*heights, 30.0]


def test_a_line_at_the_header_s_height_on_a_page_without_header_is_body() -> None:
    # The chapter's first page has no running header: its title stands where the
    # header stands on the other pages, a margin above the body.
    pages = [page(n, [HEADER if n > 1 else CHAPTER, *body(n), FOOTER]) for n in range(1, 9)]
    found = find_furniture(pages, [stacked(800.0, 8, 40.0) for _ in pages])
    assert CHAPTER not in {line.text for line in found.lines}
    assert {(line.page, line.text) for line in found.lines} == {
        *((n, HEADER) for n in range(2, 9)),
        *((n, FOOTER) for n in range(1, 9)),
    }


@pytest.mark.parametrize(
    "last", ["Madrid, 5 de marzo de 2024. El Ministro de Hacienda.", "Nota: importe en euros."]
)
def test_a_line_at_the_footer_s_height_on_a_page_without_footer_is_body(last: str) -> None:
    pages = [page(n, [HEADER, *body(n), last if n == 5 else f"Página {n}"]) for n in range(1, 9)]
    found = find_furniture(pages, [stacked(800.0, 8, 40.0) for _ in pages])
    assert (5, last) not in {(line.page, line.text) for line in found.lines}
    assert len(found.lines) == 8 + 7


def test_running_titles_on_the_pages_the_header_leaves_are_furniture() -> None:
    # The repeated header on odd pages; on the even ones, the section's title there.
    sections = ["Introducción", "Rentas del ahorro", "Caso práctico", "Glosario"]
    tops = [CHAPTER if n % 2 else sections[n // 2 - 1] for n in range(1, 9)]
    pages = [page(n, [tops[n - 1], *body(n), f"Página {n}"]) for n in range(1, 9)]
    found = find_furniture(pages, [stacked(800.0, 8, 40.0) for _ in pages])
    assert {line.text for line in found.lines} >= set(tops)


@pytest.mark.parametrize("gap", [18.0, 22.0, 40.0])
def test_a_running_header_close_to_the_body_is_removed(gap: float) -> None:
    # A step and a half (18 points over 12-point lines) is already the page's margin.
    pages = [page(n, [HEADER, *body(n), f"Página {n}"]) for n in range(1, 7)]
    found = find_furniture(pages, [stacked(800.0, 8, gap) for _ in pages])
    assert HEADER in {line.text for line in found.lines}


@pytest.mark.parametrize("gap", [12.0, 18.0, 30.0])
def test_a_table_header_opening_every_page_where_the_body_starts_is_body(gap: float) -> None:
    # No running header: the table's header opens pages 2 to 8, where the first page's
    # body starts, and stands inside the first page where its table starts.
    first = [*body(1, 4), TABLE_HEADER, *body(101, 3)]
    pages = [page(1, [*first, "Página 1"])]
    pages += [page(n, [TABLE_HEADER, *body(n), f"Página {n}"]) for n in range(2, 9)]
    line_heights = [stacked(800.0, 7, 12.0)] + [stacked(800.0, 8, gap) for _ in pages[1:]]
    found = find_furniture(pages, line_heights)
    assert {line.text for line in found.lines} == {f"Página {n}" for n in range(1, 9)}


def test_a_header_also_printed_lower_on_the_cover_is_still_chrome() -> None:
    # As the BOE prints "LEGISLACIÓN CONSOLIDADA": lower on its first page, and at the
    # top of every other page, above all of the body.
    pages = [page(1, [*body(1, 2), "LEGISLACIÓN CONSOLIDADA", *body(51, 5), "Página 1"])]
    pages += [page(n, ["LEGISLACIÓN CONSOLIDADA", *body(n), f"Página {n}"]) for n in range(2, 7)]
    line_heights = [stacked(760.0, 8, 12.0)] + [stacked(800.0, 8, 40.0) for _ in pages[1:]]
    found = {(line.page, line.text) for line in find_furniture(pages, line_heights).lines}
    assert {(n, "LEGISLACIÓN CONSOLIDADA") for n in range(2, 7)} <= found


@pytest.mark.parametrize(
    ("folios", "furniture"),
    [
        (["i", "ii", "iii", "iv", "v", "vi"], True),
        (["- iii -", "- iv -", "- v -", "- vi -", "- vii -", "- viii -"], True),
        (["IX", "X", "XI", "XII", "XIII", "XIV"], True),
        (["v", "i", "iii", "ii", "vi", "iv"], False),  # roman, not following the pages
        (["iiii", "iiii", "vv", "ic", "vx", "mmmm"], False),  # no roman numerals
    ],
)
def test_roman_page_numbers_are_folios(folios: list[str], furniture: bool) -> None:
    pages = [page(n, [*body(n), folios[n - 1]]) for n in range(1, 7)]
    found = find_furniture(pages)
    assert [line.text for line in found.lines] == (folios if furniture else [])
    if furniture:
        [summary] = found.summary()
        assert summary.pages == (1, 2, 3, 4, 5, 6)
        assert furniture_key(folios[0]) == furniture_key(folios[1])
