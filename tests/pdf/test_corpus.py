"""The real PDFs: outline sections located, chunks in sections, no running header left.

Every PDF of ``corpus/pdf/`` and ``examples/data/`` (an AEAT manual chapter and a BOE
consolidated regulation) is read as ``asesoria-split`` reads it and chunked at 256/32
with the real MiniLM tokenizer.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from langchain_asesoria import Chunk, ChunkingConfig, ChunkMetadata, chunk_document, join_pages
from langchain_asesoria.pdf import fold, outline_entries
from langchain_asesoria.pdf.open import open_pdf
from langchain_asesoria.reading import DocumentPages, ReadOptions, read_document
from langchain_asesoria.tokenization import HuggingFaceTokenization

pytest.importorskip("pypdf", reason="the pdf extra: pip install '.[pdf]'")
pytest.importorskip("cryptography", reason="the AEAT chapter is AES-encrypted: [pdf] extra")

ROOT = Path(__file__).resolve().parents[2]
PDFS = sorted(
    {*(ROOT / "corpus" / "pdf").glob("*.pdf"), *(ROOT / "examples" / "data").glob("*.pdf")}
)
AEAT = "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"
BOE = "boe_consolidado_BOE-A-2007-6820_rd_439_2007_reglamento_irpf.pdf"

#: Running headers and footers of these PDFs, as lines of their extracted text.
FURNITURE = (
    re.compile(r"^BOLETÍN OFICIAL DEL ESTADO\s*$", re.MULTILINE),
    re.compile(r"^LEGISLACIÓN CONSOLIDADA\s*$", re.MULTILINE),
    re.compile(r"^Página \d+\s*$", re.MULTILINE),
    re.compile(r"\d\d/\d\d/\d{4} - Manual práctico de Renta \d{4}\. Página \d+"),
    re.compile(r"^Capítulo 12\. Integración y compensación de rentas\s*$", re.MULTILINE),
)


#: Pages whose body prints a running line's text: the AEAT chapter's contents list its
#: own title ("Capítulo 12. Integración y compensación de rentas") as their first entry,
#: and its first page of text opens with that title as its heading, read as one paragraph.
CONTENTS = {AEAT: (1, 2)}


@cache
def read(path: Path, options: ReadOptions = ReadOptions()) -> DocumentPages:  # noqa: B008
    return read_document(path, options)


def chunks_of(document: DocumentPages, tokenization: HuggingFaceTokenization) -> list[Chunk]:
    return chunk_document(
        document.pages,
        ChunkMetadata(doc_id="pdf"),
        config=ChunkingConfig(max_tokens=256, overlap_tokens=32),
        tokenization=tokenization,
        sections=document.sections,
    )


def test_both_kinds_of_pdf_are_here() -> None:
    assert {path.name for path in PDFS} == {AEAT, BOE}
    assert len(PDFS) == 3  # the AEAT chapter is in both folders


@pytest.mark.parametrize("path", PDFS, ids=lambda path: f"{path.parent.name}/{path.name[:20]}")
def test_outline_entries_are_located(path: Path) -> None:
    located = read(path).report.outline.located  # type: ignore[union-attr]
    assert located.entries >= 12
    assert located.located / located.entries >= 0.95
    # What is not located is a title the text does not print ("[Preámbulo]"), reported.
    assert all(entry.title.startswith("[") for entry in located.unlocated)


@pytest.mark.parametrize("path", PDFS, ids=lambda path: f"{path.parent.name}/{path.name[:20]}")
def test_chunks_carry_sections_within_their_pages_and_no_furniture(
    path: Path, minilm: HuggingFaceTokenization
) -> None:
    document = read(path)
    chunks = chunks_of(document, minilm)
    spans = document.sections
    assert spans is not None
    joined = join_pages(document.pages)
    with_section = [chunk for chunk in chunks if chunk.metadata.section_path]
    assert len(with_section) / len(chunks) >= 0.95
    for chunk in chunks:
        for pattern in FURNITURE:
            for match in pattern.finditer(chunk.text):
                page = joined.page_at(chunk.start + match.start())
                assert page in CONTENTS.get(path.name, ()), chunk.text
        inside = [span for span in spans if span.start <= chunk.start < span.end]
        if not inside:
            assert not chunk.metadata.section_path
            continue
        [span] = inside
        assert chunk.metadata.section_path == span.section_path
        first, last = joined.page_at(span.start), joined.page_at(span.end - 1)
        assert first <= (chunk.metadata.page or 0) <= (chunk.metadata.page_end or 0) <= last


@pytest.mark.parametrize("path", PDFS[:2], ids=lambda path: path.name[:20])
def test_kept_furniture_is_in_the_chunks(path: Path, minilm: HuggingFaceTokenization) -> None:
    """The check above can fail: without removal the running lines are chunked."""
    kept = read(path, ReadOptions(remove_page_furniture=False))
    chunks = chunks_of(kept, minilm)
    found = sum(any(pattern.search(chunk.text) for pattern in FURNITURE) for chunk in chunks)
    assert found >= len(kept.pages) // 3


@pytest.mark.parametrize("path", PDFS, ids=lambda path: f"{path.parent.name}/{path.name[:20]}")
def test_every_removed_line_is_listed(path: Path) -> None:
    report = read(path).report
    furniture = report.running_furniture
    listed = {(item.text, page) for item in furniture.summary() for page in item.pages}
    assert len(listed) == len(furniture.lines)
    assert len(furniture.lines) + len(report.contents) == len(report.furniture.lines)
    as_extracted = read(
        path, ReadOptions(remove_page_furniture=False, remove_contents=False, pdf_paragraphs=False)
    )
    for line in report.furniture.lines:
        page = as_extracted.pages[line.page - 1].text
        assert page[line.start : line.end].rstrip("\n") == line.text


def test_the_contents_page_keeps_its_entries() -> None:
    # Before, the contents' first entry, the chapter's title, went with the running one.
    # Its bullet, drawn after the entries below it, is back before it, as printed.
    first = read(ROOT / "corpus" / "pdf" / AEAT).pages[0].text
    assert "Índice\n• Capítulo 12. Integración y compensación de rentas\n" in first


def test_the_aeat_running_titles_are_removed_and_listed() -> None:
    summary = {
        item.text: len(item.pages)
        for item in read(ROOT / "corpus" / "pdf" / AEAT).report.furniture.summary()
    }
    assert summary == {
        "06/09/2024 - Manual práctico de Renta 2023. Página N": 17,
        "Capítulo 12. Integración y compensación de rentas": 9,
        "Reglas de integración y compensación de rentas": 3,
        "Introducción": 2,
        "Reglas de integración y compensación en tributación conjunta": 1,
        "Caso práctico": 1,
        "Glosario de abreviaturas": 1,
    }


def test_the_boe_index_pages_give_no_chunk_and_are_listed() -> None:
    document = read(ROOT / "corpus" / "pdf" / BOE)
    assert {line.page for line in document.report.contents} == {1, 2, 3}
    assert document.report.contents[0].text == "ÍNDICE"
    assert all("......" not in page.text for page in document.pages)
    assert "Real Decreto 439/2007, de 30 de marzo" in document.pages[0].text  # its title stays
    kept = read(ROOT / "corpus" / "pdf" / BOE, ReadOptions(remove_contents=False))
    assert kept.report.contents == ()
    assert "Preámbulo ......" in kept.pages[0].text


def test_the_boe_furniture_is_removed_from_every_page() -> None:
    document = read(ROOT / "corpus" / "pdf" / BOE)
    furniture = document.report.running_furniture
    summary = {item.text: len(item.pages) for item in furniture.summary()}
    assert summary == {
        "LEGISLACIÓN CONSOLIDADA": 108,
        "Página N": 108,
        "BOLETÍN OFICIAL DEL ESTADO": 107,
    }
    assert [page.page for page in document.pages] == list(range(1, 109))


def test_an_article_gets_its_path_by_legal_rank() -> None:
    spans = read(ROOT / "corpus" / "pdf" / BOE).sections or ()
    paths = {span.section_path[1:] for span in spans}
    # The BOE outline lists TÍTULO, CAPÍTULO and Sección beside their articles: their
    # legal ranks nest them, so every article carries its TÍTULO and CAPÍTULO.
    assert (
        "REGLAMENTO DEL IMPUESTO SOBRE LA RENTA DE LAS PERSONAS FÍSICAS",
        "TÍTULO II. Determinación de la capacidad económica sometida a gravamen",
        "CAPÍTULO II. Definición y determinación de la renta gravable",
        "Sección 1.ª Rendimientos del trabajo",
        "Artículo 9. Dietas y asignaciones para gastos de locomoción y gastos normales de "
        "manutención y estancia.",
    ) in paths
    assert (
        "REGLAMENTO DEL IMPUESTO SOBRE LA RENTA DE LAS PERSONAS FÍSICAS",
        "TÍTULO I. Sujeción al Impuesto: aspectos materiales, personales y temporales",
        "CAPÍTULO I. Rentas exentas",
        "Artículo 1. Indemnizaciones por despido o cese del trabajador.",
    ) in paths


@pytest.mark.parametrize("path", PDFS, ids=lambda path: f"{path.parent.name}/{path.name[:20]}")
def test_each_section_starts_on_the_page_of_a_title_in_its_path(path: Path) -> None:
    document = read(path)
    pages_of: dict[str, set[int]] = {}
    for entry in outline_entries(open_pdf(path)):
        if entry.page is not None:
            pages_of.setdefault(entry.title, set()).add(entry.page)
    joined = join_pages(document.pages)
    for span in document.sections or ():
        # Its own title's page, or that of a bare title it carries, never later than its own.
        carried = set().union(*(pages_of.get(title, set()) for title in span.section_path))
        if span.section_path[-1] not in pages_of:  # a heading set apart by typography
            start = joined.text[span.start :]
            assert (
                fold(start[: len(span.section_path[-1]) * 2])[0].startswith(
                    fold(span.section_path[-1])[0]
                )
                or fold(start[:2000])[0].find(fold(span.section_path[-1])[0]) >= 0
            )
            continue
        assert joined.page_at(span.start) in carried
        assert joined.page_at(span.start) <= max(pages_of[span.section_path[-1]])


@pytest.mark.parametrize("path", PDFS, ids=lambda path: f"{path.parent.name}/{path.name[:20]}")
def test_no_chunk_is_only_outline_titles(path: Path, minilm: HuggingFaceTokenization) -> None:
    titles = sorted(
        {fold(entry.title)[0] for entry in outline_entries(open_pdf(path))} - {""},
        key=len,
        reverse=True,
    )
    document = read(path)
    spans = document.sections or ()
    joined = join_pages(document.pages).text
    only_titles = []
    for chunk in chunks_of(document, minilm):
        rest = fold(chunk.text)[0]
        while rest:
            title = next((title for title in titles if rest.startswith(title)), None)
            if title is None:
                break
            rest = rest[len(title) :]
        if not rest:
            only_titles.append(chunk)
    # What is left: a bare caption (its table is an image) right before a shallower
    # title stays at the end of its section, as a bare Markdown heading does, and is
    # alone there when the section's text before it filled the chunk before (AEAT p. 8).
    # A bare title before a sibling or a subsection never is (14 such chunks before).
    assert len(only_titles) <= 1, [chunk.text for chunk in only_titles]
    for chunk in only_titles:
        [span] = [span for span in spans if span.start <= chunk.start < span.end]
        assert not joined[chunk.end : span.end].strip()


#: A chunk that starts inside a sentence: a lower-case word that is no list marker.
MID_SENTENCE = re.compile(r"[a-záéíóúñü](?![.)] )")
DANGLING_BULLET = re.compile(r"[\r\n][•·▪◦●‣∙]\s*$")


@pytest.mark.parametrize("path", PDFS, ids=lambda path: f"{path.parent.name}/{path.name[:20]}")
def test_chunks_start_where_sentences_start_not_where_printed_lines_wrap(
    path: Path, minilm: HuggingFaceTokenization
) -> None:
    # pypdf ends a printed line that wraps inside a sentence with " \n": no line there.
    chunks = chunks_of(read(path), minilm)
    inside = [chunk.text[:40] for chunk in chunks if MID_SENTENCE.match(chunk.text)]
    assert len(inside) <= 0.1 * len(chunks), inside  # 52% before (clauses and pages: ~5%)
    # A bullet on a line of its own opens the item below it: no chunk ends with one
    # (10 of the AEAT chapter's 46 did).
    dangling = [chunk.text[-40:] for chunk in chunks if DANGLING_BULLET.search(chunk.text)]
    assert not dangling


def test_the_boe_articles_carry_their_titulo_by_legal_rank() -> None:
    """The BOE outline lists TÍTULO, CAPÍTULO and Artículo as siblings; by rank, every
    article of the Reglamento sits under its TÍTULO (the Real Decreto's own Artículo
    único has none)."""
    spans = read(ROOT / "corpus" / "pdf" / BOE).sections or ()
    articles = [s for s in spans if (s.section_label or "").startswith("Artículo")]
    with_titulo = [s for s in articles if any(t.startswith("TÍTULO") for t in s.section_path)]
    assert len(articles) > 100
    assert len(with_titulo) >= 0.95 * len(articles)
    assert [s.section_label for s in articles if s not in with_titulo] == [
        "Artículo único. Aprobación del Reglamento del Impuesto sobre la Renta de las Personas "
        "Físicas."
    ]


def test_the_aeat_worked_example_keeps_each_item_with_its_marker_and_its_lead(
    minilm: HuggingFaceTokenization,
) -> None:
    """Page 14 of the AEAT chapter, as printed (checked with ``pdftoppm``): "1. … general:"
    then items "a." to "f.", with bullets inside them, then "2. … del ahorro:" and its
    "a.", "b.". pypdf prints a bullet after its line's text ("Trabajo: 50.000•") and "f."
    after its item's ("… = 39.600f. "): read as paragraphs, each marker opens its item's
    own line again, and the chunks that continue a list carry its lead-in."""
    document = read(ROOT / "corpus" / "pdf" / AEAT)
    page = document.pages[13].text
    assert "\n• Trabajo: 50.000\n" in page
    assert re.search(r"\nf\. Base imponible general \(45\.300 . 5\.700\) =\s39\.600\n2\. ", page)
    joined = join_pages(document.pages, ChunkingConfig(256, 32).page_separator).text
    on_page = [c for c in chunks_of(document, minilm) if c.metadata.page == 14]
    continuing = [c for c in on_page if re.match(r"[b-e]\. ", c.text)]
    assert len(continuing) >= 3
    for chunk in continuing:
        head = chunk.embedding_text[: len(chunk.embedding_text) - len(chunk.text)]
        general = chunk.start < joined.index("\n2. Integración")  # before "2. … del ahorro:"
        lead = "en la base imponible general:" if general else "en la base del ahorro:"
        assert f"Integración y compensación de rentas {lead}" in head, (head, chunk.text[:40])
