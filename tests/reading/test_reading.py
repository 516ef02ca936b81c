"""``read_document``: a PDF's pages with furniture removed and outline sections located."""

from __future__ import annotations

from pathlib import Path

import pytest

from langchain_asesoria import LoadedPage, NoTextLayerError, join_pages
from langchain_asesoria.pdf.open import open_pdf
from langchain_asesoria.reading import ReadOptions, iter_pages, read_document, read_pages, read_pdf
from langchain_asesoria.structure.legal_grammar import SIGNATURE
from langchain_asesoria.structure.markdown import detect_markdown_sections

pytest.importorskip("pypdf", reason="the pdf extra: pip install '.[pdf]'")

from pdfs import Bookmark, outlined_pdf

ROOT = Path(__file__).resolve().parents[2]
WHAT = ["del trabajo", "del capital", "de actividades", "patrimoniales", "imputadas"]


def title(number: int) -> str:
    return f"Artículo {number}. Rentas {WHAT[number % 5]}"


def body(number: int) -> list[str]:
    """Lines no other page repeats, digits aside."""
    verbs = ("se integran", "se compensan", "se declaran")
    return [f"Las rentas {WHAT[number % 5]} {verb}." for verb in verbs]


def law_pdf(tmp_path: Path, pages: int = 4) -> Path:
    texts = [
        ["BOLETÍN OFICIAL DEL ESTADO", title(n), *body(n), f"Página {n}"]
        for n in range(1, pages + 1)
    ]
    outline = [
        Bookmark(
            "Ley 1/2024",
            0,
            (
                *(Bookmark(title(n), n - 1) for n in range(1, pages + 1)),
                Bookmark("[Firma]", pages - 1),
                Bookmark("En el BOE", None),
            ),
        )
    ]
    path = tmp_path / "ley.pdf"
    path.write_bytes(outlined_pdf(texts, outline))
    return path


def test_a_pdf_is_read_without_furniture_and_with_its_sections(tmp_path: Path) -> None:
    path = law_pdf(tmp_path)
    seen: list[int] = []
    document = read_document(path, on_page=lambda page: seen.append(page.page))
    assert seen == [1, 2, 3, 4]
    assert document.kind == "pdf"
    assert [page.page for page in document.pages] == [1, 2, 3, 4]
    # Read as paragraphs: the title stays its own line (the outline names it), the blank
    # line the footer left goes.
    assert document.pages[0] == LoadedPage("\n".join([title(1), *body(1)]), 1, str(path))
    assert [item.text for item in document.report.furniture.summary()] == [
        "BOLETÍN OFICIAL DEL ESTADO",
        "Página N",
    ]
    assert document.report.outline is not None
    located = document.report.outline.located
    assert (located.entries, located.located) == (7, 4)
    assert [entry.title for entry in located.unlocated] == ["Ley 1/2024", "[Firma]", "En el BOE"]
    spans = document.sections
    joined = join_pages(document.pages, "\n\n").text
    assert spans is not None
    assert [joined[span.start : span.end].split("\n")[0] for span in spans] == [
        title(n) for n in range(1, 5)
    ]
    assert spans[0].section_path == ("Ley 1/2024", title(1))
    assert spans[-1].end == len(joined)


@pytest.mark.parametrize(
    ("options", "sections", "furniture"),
    [
        (ReadOptions(), True, True),
        (ReadOptions(outline_sections=False), False, True),
        (ReadOptions(remove_page_furniture=False), True, False),
        (ReadOptions(outline_sections=False, remove_page_furniture=False), False, False),
    ],
)
def test_each_part_can_be_switched_off(
    tmp_path: Path, options: ReadOptions, sections: bool, furniture: bool
) -> None:
    path = law_pdf(tmp_path)
    document = read_document(path, options)
    assert (document.sections is not None) == sections
    assert bool(document.report.furniture.lines) == furniture
    if not furniture:
        assert document.pages == tuple(read_pages(path))


@pytest.mark.parametrize("name", ["BOE-A-1991-14392.md", "SOURCES.md"])
def test_markdown_is_read_with_its_headings_and_without_its_front_matter(name: str) -> None:
    path = ROOT / "examples" / "data" / name
    document = read_document(path)
    (extracted,) = iter_pages(path)
    (page,) = document.pages
    assert len(page.text) == len(extracted.text)
    front = document.report.front_matter
    assert page.text[front:] == extracted.text[front:]
    assert not page.text[:front].strip()
    assert document.kind == "markdown"
    assert document.report.outline is None
    assert document.structure == "markdown headings"
    by_level = read_document(path, ReadOptions(legal_structure="off"))
    assert list(by_level.sections or ()) == detect_markdown_sections(page.text)
    # Legal ranks change paths, and where a section starts only at the law's signature
    # ("Dado en Madrid, …", which ends its last disposición).
    legal = {s.start for s in document.sections or ()}
    marked = {s.start for s in by_level.sections or ()}
    assert marked <= legal
    assert all(SIGNATURE.match(page.text, start) for start in legal - marked)
    assert document.report.furniture.lines == ()
    off = read_document(path, ReadOptions(markdown_headings=False, front_matter=False))
    assert off.pages == (extracted,)
    assert off.sections is None


def test_a_pdf_without_text_is_an_error_to_read_but_not_to_load(tmp_path: Path) -> None:
    path = tmp_path / "escaneado.pdf"
    path.write_bytes(outlined_pdf([[], [], []], [Bookmark("Capítulo", 0)]))
    with pytest.raises(NoTextLayerError, match="OCR"):
        read_document(path)
    document = read_pdf(open_pdf(path), path)
    assert [page.text for page in document.pages] == ["", "", ""]
    assert document.report.outline is not None
    assert document.report.outline.located.located == 0
