"""The BOE's consolidated pages (``act.php``): the law's title is the root of every path;
the disclaimer, the version shown, the version and jump menus, "Subir" and the block
markers are in no chunk and no path, and listed once per kind; a TÍTULO's number and
name are one title; a quoted amended provision is text of the article quoting it."""

from __future__ import annotations

from pathlib import Path

import pytest
from boe_pages import CHROME_WORDS, BoeLaw, boe_laws, consolidated_page
from hypothesis import given, settings
from strategies import PROFILE, examples

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage
from langchain_asesoria.reading import read_document, read_loaded_pages, split_document
from langchain_asesoria.structure.legal import legal_unit
from langchain_asesoria.testing import ByteTokenization

pytest.importorskip("lxml", reason="the html extra: pip install '.[html]'")

DATA = Path(__file__).resolve().parents[1] / "data" / "boe"
CONFIG = ChunkingConfig(max_tokens=96, overlap_tokens=8)
#: What the report lists of a consolidated page's chrome, one line each.
BOE_KINDS = (
    "disclaimer",
    "version menu",
    "jump menu",
    "back-to-top link",
    "block marker",
)


def _unit_paths(paths: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The paths whose last title is an article or a disposición, quoted or not."""
    return [p for p in paths if legal_unit(p[-1].lstrip("«")) is not None and len(p) > 1]


@settings(PROFILE, max_examples=examples(40), deadline=None)
@given(boe_laws())
def test_a_generated_consolidated_page_gets_the_laws_paths_and_no_chrome(law: BoeLaw) -> None:
    document = read_loaded_pages([LoadedPage(consolidated_page(law), 1)], "html")
    (page,) = document.pages
    for word in CHROME_WORDS:
        assert word not in page.text
    sections = document.sections or ()
    paths = list(dict.fromkeys(s.section_path for s in sections))
    assert _unit_paths(paths) == law.expected_paths()
    assert not any(title.startswith("«") for path in paths for title in path)
    assert {s.section_path[0] for s in sections} == {law.title}
    labels = [line.split(":")[0] for line in document.report.chrome]
    for kind in BOE_KINDS:
        assert labels.count(kind) == 1, kind  # one line per kind, never one per block


def _chunks(path: Path) -> tuple[list[tuple[str, ...]], list[str], tuple[str, ...]]:
    document = read_document(path)
    chunked = split_document(
        document, ChunkMetadata(doc_id=path.stem), config=CONFIG, tokenization=ByteTokenization()
    )
    for chunk in chunked.chunks:
        assert chunked.joined.text[chunk.start : chunk.end] == chunk.text
    paths = [c.metadata.section_path for c in chunked.chunks]
    return paths, [c.embedding_text for c in chunked.chunks], document.report.chrome


@pytest.mark.parametrize("name", ["ley-37-1992-trimmed.html", "rdl-4-2024-trimmed.html"])
def test_a_real_consolidated_page_has_no_chrome_in_any_chunk_or_path(name: str) -> None:
    paths, texts, chrome = _chunks(DATA / name)
    root = paths[0][0]
    assert root.startswith(("Ley 37/1992", "Real Decreto-ley 4/2024"))
    assert all(path[0] == root for path in paths if path)
    for word in CHROME_WORDS:
        assert not any(word in text for text in texts), word
        assert not any(word in title for path in paths for title in path), word
    labels = [line.split(":")[0] for line in chrome]
    for kind in BOE_KINDS:
        assert labels.count(kind) == 1, kind


def test_the_vat_laws_titulos_are_one_title_each() -> None:
    paths, _, _ = _chunks(DATA / "ley-37-1992-trimmed.html")
    assert (
        "Ley 37/1992, de 28 de diciembre, del Impuesto sobre el Valor Añadido.",
        "TÍTULO I. Delimitación del hecho imponible",
        "Capítulo I. Entregas de bienes y prestaciones de servicios",
        "Artículo 4. Hecho imponible.",
    ) in paths
    assert not any(title == "Delimitación del hecho imponible" for p in paths for title in p)


def test_a_quoted_article_stays_inside_the_article_amending_it() -> None:
    """The amended «Artículo 20.» is text of the Artículo 3 quoting it: its chunks are
    under that article, and no quoted heading is a section (issue 49)."""
    paths, texts, _ = _chunks(DATA / "rdl-4-2024-trimmed.html")
    quoting = [p for p, text in zip(paths, texts, strict=True) if "«Artículo 20." in text]
    assert quoting
    for path in quoting:
        assert path[-1].startswith("Artículo 3. Modificación de la Ley 35/2006")
    assert not any(title.startswith("«") for path in paths if path for title in path)
    own = [p for p in paths if p and p[-1].startswith("Artículo 4.")]
    assert own
    assert all(not any(t.startswith("Artículo 3.") for t in p) for p in own)
