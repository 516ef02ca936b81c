"""Generated PDFs read as paragraphs: the paragraphs known in advance come back one a
line, a hyphen that split a word goes, bullets start their own line, a paragraph runs
on across a page break, and every chunk's offsets and pages hold."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("pypdf", reason="the pdf extra: pip install '.[pdf]'")
pytest.importorskip("fpdf", reason="the dev extra: pip install '.[dev]' (fpdf2)")

from fpdf import FPDF
from strategies import PROFILE, examples

from langchain_asesoria import ChunkingConfig, ChunkMetadata
from langchain_asesoria.pages import join_pages
from langchain_asesoria.reading import ReadOptions, read_document, split_document
from langchain_asesoria.testing import ByteTokenization

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
if not FONT.exists():
    pytest.skip("DejaVu Sans draws the bullets", allow_module_level=True)

#: Lower-case words, none a sentence end: a paragraph's lines can only run on.
WORDS = (
    "renta",
    "base",
    "cuota",
    "tipo",
    "saldo",
    "gastos",
    "ingresos",
    "rendimientos",
    "imputación",
    "período",
    "contribuyente",
    "ejercicio",
    "ganancias",
    "pérdidas",
    "compensación",
    "integración",
    "límite",
)
#: The body's size and line step, a paragraph's gap, the page's lines (points).
SIZE, STEP, GAP, LINES_PER_PAGE = 10, 12, 10, 40


@dataclass(frozen=True)
class Paragraph:
    text: str  # as the reader reads it: one line
    lines: tuple[str, ...]  # as printed
    bullet: bool = False


def _wrap(words: list[str], width: int) -> list[str]:
    lines: list[str] = []
    current: list[str] = []
    for word in words:
        if current and len(" ".join([*current, word])) > width:
            lines.append(" ".join(current))
            current = []
        current.append(word)
    lines.append(" ".join(current))
    return lines


@st.composite
def paragraphs(draw: st.DrawFn) -> list[Paragraph]:
    drawn: list[Paragraph] = []
    for _ in range(draw(st.integers(2, 7))):
        words = draw(st.lists(st.sampled_from(WORDS), min_size=3, max_size=60))
        words[0] = words[0].capitalize()
        words[-1] += "."
        bullet = draw(st.booleans())
        if bullet:
            words[0] = "• " + words[0]
        lines = _wrap(words, 70)
        drawn.append(Paragraph(" ".join(words), tuple(lines), bullet))
    return drawn


def _render(parts: list[Paragraph], path: Path) -> list[str]:
    """Writes ``parts`` one printed line at a time; returns the lines a reader reads:
    each paragraph one line, or two where a page break cuts it."""
    read: list[str] = []
    pdf = FPDF(format="A4", unit="pt")
    pdf.set_auto_page_break(False)
    pdf.add_font("DejaVu", fname=str(FONT))
    pdf.set_font("DejaVu", size=SIZE)
    lines_here = LINES_PER_PAGE
    y = 0.0
    for part in parts:
        piece: list[str] = []
        for line in part.lines:
            if lines_here == LINES_PER_PAGE:
                pdf.add_page()
                y, lines_here = 60.0, 0
                read += [" ".join(piece)] if piece else []
                piece = []
            pdf.text(60, y, line)
            piece.append(line)
            y += STEP
            lines_here += 1
        read.append(" ".join(piece))
        y += GAP
    pdf.output(str(path))
    return read


def _read(path: Path) -> tuple[str, list[int]]:
    document = read_document(path, ReadOptions(outline_sections=False))
    joined = join_pages(document.pages, "\n\n")
    return joined.text, list(joined.page_starts)


@settings(
    PROFILE, max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(parts=paragraphs())
def test_paragraphs_come_back_one_a_line(
    parts: list[Paragraph], tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("pdf") / "paragraphs.pdf"
    read = _render(parts, path)
    text, _ = _read(path)
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    # Within a page every paragraph is one line; one cut by the page break is its two
    # halves, each one line, the first ending where the page ends.
    assert lines == read
    for part in parts:
        if part.bullet:
            assert any(line.startswith(part.text[:20]) for line in lines)


@settings(
    PROFILE, max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(parts=paragraphs(), budget=st.integers(40, 300))
def test_chunks_hold_their_offsets_and_pages(
    parts: list[Paragraph], budget: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("pdf") / "paragraphs.pdf"
    _render(parts, path)
    document = read_document(path, ReadOptions(outline_sections=False))
    config = ChunkingConfig(max_tokens=budget, overlap_tokens=0)
    chunked = split_document(
        document, ChunkMetadata(doc_id="p"), config=config, tokenization=ByteTokenization()
    )
    joined = chunked.joined
    covered = 0
    for chunk in chunked.chunks:
        assert joined.text[chunk.start : chunk.end] == chunk.text
        pages = {joined.page_at(chunk.start), joined.page_at(chunk.end - 1)}
        assert chunk.metadata.page == min(pages)
        assert chunk.metadata.page_end == max(pages)
        assert not joined.text[covered : chunk.start].strip()  # nothing between chunks
        covered = max(covered, chunk.end)
    assert not joined.text[covered:].strip()  # nothing lost


def test_a_paragraph_runs_on_across_a_page_break(tmp_path: Path) -> None:
    words = ["renta"] * 5 + ["base"] * 5
    long = " ".join(["Las", *(words * 50), "cuota."])
    parts = [Paragraph(long, tuple(_wrap(long.split(), 70)))]
    path = tmp_path / "long.pdf"
    _render(parts, path)
    document = read_document(path, ReadOptions(outline_sections=False))
    assert len(document.pages) > 1
    first = document.pages[0].text
    assert "\n" not in first.strip()
    assert first.endswith(" ")  # the page break is a wrapped line, not a paragraph break
    assert " ".join(page.text.strip() for page in document.pages) == long
    assert document.report.paragraphs is not None
    assert document.report.paragraphs.continued == tuple(page.page for page in document.pages[:-1])


def test_a_hyphen_that_splits_a_word_goes_and_a_compound_keeps_it(tmp_path: Path) -> None:
    lines = (
        "Los gastos conside-",
        "rados deducibles se restan del real decreto-",
        "ley y de los gastos considerados antes.",
    )
    path = tmp_path / "hyphen.pdf"
    _render([Paragraph("", lines)], path)
    document = read_document(path, ReadOptions(outline_sections=False))
    assert document.pages[0].text.strip() == (
        "Los gastos considerados deducibles se restan del real decreto-ley y de los "
        "gastos considerados antes."
    )
    assert [(r.kind, r.text) for r in document.report.removals] == [("hyphen", "conside-rados")]


def test_a_line_in_lower_case_runs_on_though_it_opens_an_outline_title(tmp_path: Path) -> None:
    # "rendimientos del capital." opens the outline's title "Rendimientos del capital
    # inmobiliario" (folded, case aside), but a line in lower case after one that closes
    # no sentence runs on in its paragraph: the reader sees no title there.
    lines = (
        "Las rentas derivadas de la transmisión tributan como ganancias, salvo que",
        "por la propia ley se califiquen como",
        "rendimientos del capital.",
    )
    path = tmp_path / "titled.pdf"
    pdf = FPDF(format="A4", unit="pt")
    pdf.add_font("DejaVu", fname=str(FONT))
    pdf.add_font("DejaVu", style="B", fname=str(FONT.with_name("DejaVuSans-Bold.ttf")))
    pdf.add_page()
    pdf.set_font("DejaVu", style="B", size=16)
    pdf.start_section("Rendimientos del capital inmobiliario")
    pdf.text(60, 60, "Rendimientos del capital inmobiliario")
    pdf.set_font("DejaVu", size=SIZE)
    for number, line in enumerate(lines):
        pdf.text(60, 90 + number * STEP, line)
    pdf.output(str(path))
    document = read_document(path)
    assert " ".join(lines) in document.pages[0].text.split("\n")
