"""PDFs laid out page by page with fpdf2, each line marked as body or furniture.

The test bed of the furniture rule (``tests/pdf/test_layouts.py``, a few hundred
layouts; ``benchmarks/furniture.py``, thousands). Hypothesis draws a ``Layout``:
pages with or without a running header (constant, two lines, alternating odd/even, or
a running title that changes with the section), a footer, a page number in each usual
form (``NUMBER_FORMS``) at the top or the bottom, article titles at a page's first
line, a table whose header repeats at the top or at the bottom of the pages it runs
on, rows of figures at the edges, one or two columns, rotated pages, a note turned up
the margin, blank pages, and furniture drawn before or after the body (pypdf gives
text in drawing order). Section headings and article titles are outline entries.
``laid_out`` places every line on its page (A4, millimetres from the top, as printed
documents place them: furniture in the margins, a paragraph gap now and then), and
``render`` writes the PDF.

Pages may also go without furniture: a page without its header, or without its
footer (``bare_top``, ``bare_bottom``), on one or two of which a body line stands at the
header's or the footer's height (a chapter's title, "Madrid, 5 de marzo de 2024. El
Ministro..."); a header may stand a step and a half above the body (``header_close``);
a table's header repeated at the top of pages may have a wide gap under it
(``table_gap``); page numbers may be roman ("iii").

Furniture is what a reader would call a running header or footer: drawn on every page
with text but a few (on every page of its parity for alternating headers) of a document
with at least ``MIN_PAGES`` such pages, and never more lines than the body. Every other
line is body; body lines are unique in the document but for the repeated table header.
What no rule can tell from furniture is not drawn: a body line at the header's height
where the header is a running title, or on ``MIN_PAGES`` pages without the header; a
table's header that ends pages and is printed nowhere else (its first page blank).
"""

from __future__ import annotations

import io
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from fpdf import FPDF
from hypothesis import strategies as st
from pypdf import PdfReader, PdfWriter

from langchain_asesoria import ChunkingConfig, ChunkMetadata, chunk_document
from langchain_asesoria.pdf import MIN_PAGES
from langchain_asesoria.reading import read_document
from langchain_asesoria.testing import ByteTokenization


def letters(number: int) -> str:
    """``number`` spelled in letters ("a", "b", ..., "ba"): a unique word without digits."""
    spelled = ""
    while True:
        number, rest = divmod(number, 26)
        spelled = "abcdefghijklmnopqrstuvwxyz"[rest] + spelled
        if not number:
            return spelled


__all__ = [
    "NUMBER_FORMS",
    "Layout",
    "Outcome",
    "Placed",
    "check_layout",
    "laid_out",
    "layouts",
    "render",
]

Kind = Literal["body", "furniture"]

#: Page numbers as documents print them (``n`` the printed number, ``total`` the last).
NUMBER_FORMS = (
    "Página {n}",
    "- {n} -",
    "{n} / {total}",
    "Pág. {n} de {total}",
    "{n}",
    "Hoja {n} de {total}",
    "{roman}",
    "- {roman} -",
)
_ALONE = ("{n}", "{roman}", "- {roman} -")  # forms never joined to another line

HEADERS = (
    "BOLETÍN OFICIAL DEL ESTADO",
    "Manual práctico de Renta 2023",
    "Ley 35/2006, del Impuesto sobre la Renta",
    "Agencia Tributaria",
)
SECOND_HEADERS = ("LEGISLACIÓN CONSOLIDADA", "Departamento de Gestión Tributaria")
FOOTERS = (
    "06/09/2024 - Manual práctico de Renta 2023.",
    "Este documento es de carácter informativo.",
    "www.agenciatributaria.es",
)
CHAPTER = "Integración y compensación de rentas"
AT_HEADER = "Capítulo {n}. Integración y compensación de rentas"  # a chapter's first page
AT_FOOTER = (
    "Madrid, {n} de marzo de 2024. El Ministro de Hacienda, {word}.",
    "Nota: importe expresado en euros, cuadro {word}.",
)
SECTIONS = (
    "Rentas del ahorro",
    "Rendimientos del trabajo",
    "Ganancias patrimoniales",
    "Caso práctico",
    "Glosario de abreviaturas",
)
TABLE_HEADER = "Base liquidable hasta euros   Cuota íntegra euros   Resto base   Tipo aplicable"
WORDS = [
    "renta",
    "contribuyente",
    "base",
    "liquidable",
    "cuota",
    "deducción",
    "ejercicio",
    "período",
    "impositivo",
    "rendimientos",
    "trabajo",
    "capital",
    "inmobiliario",
    "mobiliario",
    "ganancias",
    "pérdidas",
    "patrimoniales",
    "integración",
    "compensación",
    "saldo",
    "negativo",
    "positivo",
    "importe",
    "límite",
    "declaración",
    "conjunta",
    "individual",
    "vivienda",
    "habitual",
    "pensiones",
    "retenciones",
    "ingreso",
    "cuenta",
    "mínimo",
    "personal",
]

# Where lines stand, in millimetres from the top of an A4 page (210 x 297).
_TOP = (10.0, 15.0, 20.0)  # header lines, outermost first
_BOTTOM = (286.0, 281.0, 276.0)  # footer lines, outermost first
_BODY_TOP = 34.0
_BODY_BOTTOM = 264.0
_STEP = 6.0
_PARAGRAPH = 3.0  # the extra gap between paragraphs
_COLUMNS_X = (20.0, 110.0)


@dataclass(frozen=True)
class Placed:
    """One line drawn on a page: its text, where it stands, and what it is."""

    text: str
    x: float
    y: float
    kind: Kind
    turned: bool = False
    bookmark: bool = False  # an outline entry points to it (a section or an article)


@dataclass(frozen=True)
class Layout:
    """A document's layout, as Hypothesis draws it (see the module docstring)."""

    pages: int
    header: Literal["none", "constant", "two-lines", "alternate", "running"] = "none"
    footer: bool = False
    number_form: str | None = None
    number_at: Literal["top", "bottom"] = "bottom"
    number_joined: bool = False  # the number on the footer's (or header's) own line
    offset: int = 0  # printed page number minus the PDF's
    columns: int = 1
    table: Literal["none", "top", "bottom"] = "none"
    table_rows: int = 1  # rows under a repeated table header at a page's bottom
    figures: bool = False  # a row of figures as a page's last body line
    articles: bool = False  # an article title as a page's first body line
    blank: frozenset[int] = frozenset()
    rotated: frozenset[int] = frozenset()
    turned_note: frozenset[int] = frozenset()
    furniture_last: bool = False
    body_lines: tuple[int, ...] = field(default_factory=tuple)  # per page
    words: int = 0  # where in ``WORDS`` the body text starts
    bare_top: frozenset[int] = frozenset()  # pages without the header (or a top number)
    bare_bottom: frozenset[int] = frozenset()  # pages without the footer (or its number)
    at_top: frozenset[int] = frozenset()  # of ``bare_top``: a body line at the header's height
    at_bottom: frozenset[int] = frozenset()  # of ``bare_bottom``: one at the footer's height
    header_close: bool = False  # the header a step and a half above the body
    table_gap: float = 0.0  # millimetres more under a table's header repeated at the top


def _figures(page: int, row: int) -> str:
    base = 12_450 + 1_000 * (page * 10 + row)
    return f"{base:,}.00   {base // 7:,}.{row}5   {base // 3:,}.00   {9 + page + row},50".replace(
        ",", "."
    )


class _Body:
    """Unique body lines: sentences of words, some with figures."""

    def __init__(self, start: int) -> None:
        self.count = start

    def line(self, width: int) -> str:
        self.count += 1
        n = self.count
        words = [WORDS[(n * 7 + k * 3) % len(WORDS)] for k in range(width)]
        amount = f" de {n * 37 % 9000 + 100},{n % 100:02d} euros" if n % 3 == 0 else ""
        return f"Línea {letters(n)}: la {' '.join(words)}{amount}."


def _text_pages(layout: Layout) -> list[int]:
    return [n for n in range(1, layout.pages + 1) if n not in layout.blank]


def _header_lines(layout: Layout, number: int, section: str) -> list[str]:
    """The header lines of page ``number`` (outermost first)."""
    chosen = layout.header
    if chosen == "constant":
        return [HEADERS[layout.words % len(HEADERS)]]
    if chosen == "two-lines":
        return [HEADERS[0], SECOND_HEADERS[layout.words % len(SECOND_HEADERS)]]
    if chosen == "alternate":
        return [HEADERS[1] if number % 2 else CHAPTER]
    if chosen == "running":
        return [f"Capítulo 12. {CHAPTER}" if number % 2 else section]
    return []


def roman(number: int) -> str:
    """``number`` in lower-case roman numerals: ``roman(12) == "xii"``."""
    spelled = ""
    for value, letters_ in zip(
        (1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1),
        ("m", "cm", "d", "cd", "c", "xc", "l", "xl", "x", "ix", "v", "iv", "i"),
        strict=True,
    ):
        count, number = divmod(number, value)
        spelled += letters_ * count
    return spelled


def _furniture(layout: Layout, number: int, section: str) -> tuple[list[str], list[str]]:
    """The header lines (outermost first) and footer lines (outermost first) of a page."""
    top = _header_lines(layout, number, section)
    bottom = [FOOTERS[layout.words % len(FOOTERS)]] if layout.footer else []
    if layout.number_form is not None:
        total = layout.pages + layout.offset
        printed = layout.number_form.format(
            n=number + layout.offset, total=total, roman=roman(number + layout.offset)
        )
        lines = top if layout.number_at == "top" else bottom
        if layout.number_joined and lines and layout.number_form not in _ALONE:
            lines[-1] = f"{lines[-1]} {printed}"
        elif layout.number_at == "top":
            top.append(printed)
        else:
            bottom.insert(0, printed)
    return (
        [] if number in layout.bare_top else top,
        [] if number in layout.bare_bottom else bottom,
    )


def _at_edges(layout: Layout, number: int) -> list[Placed]:
    """The body lines of a page without furniture that stand at its height."""
    word = letters(number + layout.words)
    top, bottom = _edges(layout)
    placed = []
    if number in layout.at_top:
        placed.append(Placed(AT_HEADER.format(n=12 + number), 20.0, top[0], "body"))
    if number in layout.at_bottom:
        footer = AT_FOOTER[number % len(AT_FOOTER)].format(n=number, word=word)
        placed.append(Placed(footer, 20.0, bottom[0], "body"))
    return placed


def _edges(layout: Layout, top_lines: int = 1) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Where ``top_lines`` header lines and the footer lines stand, outermost first: a
    close header's innermost line a step and a half above the body."""
    if not layout.header_close:
        return _TOP, _BOTTOM
    innermost = _BODY_TOP - _STEP * 1.5
    gap = _TOP[1] - _TOP[0]
    return tuple(innermost - gap * (top_lines - 1 - index) for index in range(top_lines)), _BOTTOM


def _body_of(layout: Layout, number: int, body: _Body, state: dict[str, int]) -> list[str]:
    """The body lines of page ``number``, top to bottom (per column for two columns)."""
    count = layout.body_lines[number - 1]
    width = 4 if layout.columns == 2 else 8
    lines: list[str] = []
    if layout.articles:
        state["article"] += 1
        lines.append(f"Artículo {40 + state['article']}. Escala parte {number}.")
    section = state["section"]
    if number % 3 == 0 and layout.header == "running":
        state["section"] = section + 1
        lines.append(SECTIONS[(section + 1) % len(SECTIONS)])
    table_starts = layout.table != "none" and number == 1
    table_on = layout.table != "none" and number > 1
    if table_on and layout.table == "top":
        lines.append(TABLE_HEADER)
        lines.append(_figures(number, 0))
    while len(lines) < count:
        lines.append(body.line(width))
    if table_starts:
        lines.append(TABLE_HEADER)
        lines.append(_figures(number, 9))
    if table_on and layout.table == "bottom":
        lines.append(TABLE_HEADER)
        lines += [_figures(number, row + 1) for row in range(layout.table_rows)]
    if layout.figures:
        lines.append(_figures(number, 5))
    return lines


def laid_out(layout: Layout) -> list[list[Placed]]:
    """Every line of every page, where it stands, in drawing order."""
    body = _Body(layout.words * 101)
    state = {"article": 0, "section": 0}
    pages: list[list[Placed]] = []
    for number in range(1, layout.pages + 1):
        if number in layout.blank:
            pages.append([])
            continue
        texts = _body_of(layout, number, body, state)
        top, bottom = _furniture(layout, number, SECTIONS[state["section"] % len(SECTIONS)])
        placed = _place_body(texts, layout.columns, layout.table_gap) + _at_edges(layout, number)
        top_at, bottom_at = _edges(layout, len(top))
        furniture = [
            Placed(text, 20.0, y, "furniture") for text, y in zip(top, top_at, strict=False)
        ]
        furniture += [
            Placed(text, 20.0, y, "furniture") for text, y in zip(bottom, bottom_at, strict=False)
        ]
        if number in layout.turned_note:
            placed.append(Placed(f"Nota al margen {letters(number)}.", 8.0, 200.0, "body", True))
        pages.append(placed + furniture if layout.furniture_last else furniture + placed)
    return pages


def _place_body(texts: Sequence[str], columns: int, table_gap: float = 0.0) -> list[Placed]:
    """Lines down the page, a paragraph gap after the second line and every fourth one
    after it, and ``table_gap`` more after a table's header that opens a column; two
    columns fill the left one first."""
    placed: list[Placed] = []
    per_column = -(-len(texts) // columns)
    for column in range(columns):
        y = _BODY_TOP
        for index, text in enumerate(texts[column * per_column : (column + 1) * per_column]):
            titled = text in SECTIONS or text.startswith("Artículo ")
            placed.append(Placed(text, _COLUMNS_X[column], y, "body", bookmark=titled))
            y += _STEP + (_PARAGRAPH if index % 4 == 1 else 0.0)
            y += table_gap if index == 0 and text == TABLE_HEADER else 0.0
    return placed


def render(layout: Layout, pages: Sequence[Sequence[Placed]]) -> bytes:
    """The PDF of ``pages`` (Helvetica, one ``text`` call per line)."""
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=9)
    for lines in pages:
        pdf.add_page()
        for line in lines:
            if line.bookmark:
                pdf.start_section(line.text)
            if line.turned:
                with pdf.rotation(90, line.x, line.y):
                    pdf.text(line.x, line.y, line.text)
            else:
                pdf.text(line.x, line.y, line.text)
    data = bytes(pdf.output())
    if not layout.rotated:
        return data
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    for number in layout.rotated:
        writer.pages[number - 1].rotate(90)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _detectable(layout: Layout) -> Layout:
    """The layout less the furniture no rule could tell from body on so few pages, and
    less the pages without furniture that would leave it on too few."""
    text = _text_pages(layout)
    if len(text) < MIN_PAGES:
        return replace(layout, header="none", footer=False, number_form=None)
    if layout.header in ("alternate", "running") and min(_parities(text)) < MIN_PAGES:
        layout = replace(layout, header="constant")
    furnished = [n for n in text if n not in layout.bare_top]
    parities = _parities(furnished) if layout.header in ("alternate", "running") else ()
    if len(furnished) < MIN_PAGES or min(parities, default=MIN_PAGES) < MIN_PAGES:
        layout = replace(layout, bare_top=frozenset())
    if len([n for n in text if n not in layout.bare_bottom]) < MIN_PAGES:
        layout = replace(layout, bare_bottom=frozenset())
    if 1 in layout.blank and layout.table == "bottom":
        # A table's header ending every page, printed nowhere else, is a running footer.
        layout = replace(layout, table_rows=max(1, layout.table_rows))
    # A line at a running title's height, or at the header's on MIN_PAGES pages without
    # it, is what a running title looks like: not drawn.
    at_top = set() if layout.header == "running" else set(layout.at_top & layout.bare_top)
    at_bottom = layout.at_bottom & layout.bare_bottom
    return replace(
        layout,
        at_top=frozenset(sorted(at_top)[: MIN_PAGES - 1]),
        at_bottom=frozenset(sorted(at_bottom)[: MIN_PAGES - 1]),
    )


def _parities(numbers: Sequence[int]) -> tuple[int, int]:
    """How many of ``numbers`` are even, and how many odd."""
    return sum(1 for n in numbers if n % 2 == 0), sum(1 for n in numbers if n % 2)


def _some_of(draw: st.DrawFn, pages: frozenset[int], one: bool) -> frozenset[int]:
    """Some of ``pages``, at least one of them with ``one``."""
    if not pages:
        return pages
    return frozenset(draw(st.sets(st.sampled_from(sorted(pages)), min_size=1 if one else 0)))


@st.composite
def layouts(draw: st.DrawFn, max_pages: int = 10, bare: bool = False) -> Layout:
    """A document's layout (see the module docstring); with ``bare``, every layout has
    pages without furniture, body lines at its heights, a close header, a wide gap under
    a repeated table header or roman page numbers."""
    pages = draw(st.integers(1, max_pages))
    columns = draw(st.sampled_from((1, 1, 2)))
    numbers = list(range(1, pages + 1))
    some = st.sets(st.sampled_from(numbers), min_size=1 if bare else 0, max_size=pages // 4 or 1)
    blank = frozenset(draw(st.sets(st.sampled_from(numbers), max_size=pages // 4)))
    table = draw(st.sampled_from(("none", "top", "bottom")))
    gaps = (0.0, 9.0) if table == "top" and 1 not in blank else (0.0,)
    bare_top = frozenset(draw(some) - blank)
    bare_bottom = frozenset(draw(some) - blank)
    layout = Layout(
        pages=pages,
        header=draw(st.sampled_from(("none", "constant", "two-lines", "alternate", "running"))),
        footer=draw(st.booleans()),
        number_form=draw(
            st.sampled_from(NUMBER_FORMS[-2:])
            if bare
            else st.none() | st.sampled_from(NUMBER_FORMS)
        ),
        number_at=draw(st.sampled_from(("top", "bottom"))),
        number_joined=draw(st.booleans()),
        offset=draw(st.sampled_from((0, 0, 2, 452))),
        columns=columns,
        table=table,
        table_rows=draw(st.integers(0, 2)),
        figures=draw(st.booleans()),
        articles=draw(st.booleans()),
        blank=blank,
        rotated=frozenset(draw(st.sets(st.sampled_from(numbers), max_size=2))),
        turned_note=frozenset(draw(st.sets(st.sampled_from(numbers), max_size=2))),
        furniture_last=draw(st.booleans()),
        body_lines=tuple(draw(st.lists(st.integers(6, 26), min_size=pages, max_size=pages))),
        words=draw(st.integers(0, 1000)),
        bare_top=bare_top,
        bare_bottom=bare_bottom,
        at_top=frozenset(draw(st.sets(st.sampled_from(sorted(bare_top)))))
        if bare_top
        else bare_top,
        at_bottom=(
            frozenset(draw(st.sets(st.sampled_from(sorted(bare_bottom)))))
            if bare_bottom
            else bare_bottom
        ),
        header_close=draw(st.just(True) if bare else st.booleans()),
        table_gap=draw(st.sampled_from(gaps[1:] if bare and len(gaps) > 1 else gaps)),
    )
    return _detectable(layout)


@dataclass(frozen=True)
class Outcome:
    """What reading and chunking one generated PDF did with its lines.

    Attributes:
        body: Body lines drawn.
        furniture: Furniture lines drawn.
        body_lost: Body lines removed as furniture, or in no chunk.
        furniture_kept: Furniture lines not removed.
    """

    body: int
    furniture: int
    body_lost: tuple[str, ...]
    furniture_kept: tuple[str, ...]


def _same(text: str) -> str:
    return " ".join(text.split())


def check_layout(layout: Layout) -> Outcome:
    """Renders ``layout``, reads it as ``asesoria-split`` does and chunks it (one token a
    byte, 512/64): every body line must be in some chunk, verbatim, and every furniture
    line removed from its page."""
    pages = laid_out(layout)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generado.pdf"
        path.write_bytes(render(layout, pages))
        document = read_document(path)
    chunks = chunk_document(
        document.pages,
        ChunkMetadata(doc_id="generado"),
        config=ChunkingConfig(max_tokens=512, overlap_tokens=64),
        tokenization=ByteTokenization(512),
        sections=document.sections,
    )
    texts = [_same(chunk.text) for chunk in chunks]
    lost: list[str] = []
    kept: list[str] = []
    for number, lines in enumerate(pages, start=1):
        removed = Counter(_same(line.text) for line in document.report.furniture.on_page(number))
        drawn = Counter(_same(line.text) for line in lines if line.kind == "furniture")
        kept += list((drawn - removed).elements())
        lost += list((removed - drawn).elements())
        lost += [
            line.text
            for line in lines
            if line.kind == "body" and not any(_same(line.text) in text for text in texts)
        ]
    body = sum(1 for lines in pages for line in lines if line.kind == "body")
    return Outcome(body, sum(len(lines) for lines in pages) - body, tuple(lost), tuple(kept))
