"""The evaluation corpus's pages and offsets, and the documents a command names."""

from __future__ import annotations

from pathlib import Path

import pytest

from langchain_asesoria import LoadedPage, join_pages
from langchain_asesoria.errors import UsageError
from langchain_asesoria_eval.corpus import document_from_pages, find_documents

PAGES = (
    LoadedPage("uno", 1, "a.pdf"),
    LoadedPage("dos", 2, "a.pdf"),
    LoadedPage("tres", 5, "a.pdf"),
)
DOCUMENT = document_from_pages("a", PAGES)


@pytest.mark.parametrize(
    ("position", "page"),
    [(0, 1), (2, 1), (3, 1), (4, 1), (5, 2), (7, 2), (9, 2), (10, 5), (13, 5)],
)
def test_page_at_names_the_page_holding_a_position(position: int, page: int) -> None:
    assert DOCUMENT.page_at(position) == page
    assert DOCUMENT.page_at(position) == join_pages(PAGES).page_at(position)


def test_page_starts_are_where_each_page_starts() -> None:
    assert DOCUMENT.page_starts == (0, 5, 10)
    for page, start in zip(PAGES, DOCUMENT.page_starts, strict=True):
        assert DOCUMENT.text[start : start + len(page.text)] == page.text


def test_find_documents_takes_files_and_the_documents_of_folders(tmp_path: Path) -> None:
    (tmp_path / "b.md").write_text("# B\n")
    (tmp_path / "a.pdf").write_bytes(b"%PDF-1.4")
    (tmp_path / "notas.csv").write_text("x\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.txt").write_text("c\n")
    single = tmp_path / "sub" / "c.txt"
    assert find_documents([tmp_path, single]) == [tmp_path / "a.pdf", tmp_path / "b.md", single]


@pytest.mark.parametrize(
    ("name", "message"),
    [("missing.md", "missing.md: no such file or folder"), ("empty", "no .pdf, .md or .txt")],
)
def test_find_documents_refuses_what_holds_no_document(
    tmp_path: Path, name: str, message: str
) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(UsageError, match=message):
        find_documents([tmp_path / name])
