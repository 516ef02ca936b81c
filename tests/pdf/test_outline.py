"""A PDF's outline as flat entries: paths from the nesting, pages from the destinations."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from langchain_asesoria import DamagedDocumentError
from langchain_asesoria.pdf import OutlineEntry, outline_entries

pypdf = pytest.importorskip("pypdf", reason="the pdf extra: pip install '.[pdf]'")

from pdfs import Bookmark, outlined_pdf  # noqa: E402


def read(outline: Sequence[Bookmark], pages: int = 3) -> tuple[OutlineEntry, ...]:
    data = outlined_pdf([[f"Página {n}"] for n in range(pages)], outline)
    return outline_entries(pypdf.PdfReader(io.BytesIO(data)))


def test_nesting_gives_paths_and_destinations_give_pages() -> None:
    entries = read(
        [
            Bookmark(
                "Ley 35/2006",
                0,
                (
                    Bookmark("TÍTULO I", 1, (Bookmark("Artículo 1.  Objeto", 1),)),
                    Bookmark("TÍTULO II", 2),
                ),
            ),
            Bookmark("Anexo", 2),
        ]
    )
    assert entries == (
        OutlineEntry("Ley 35/2006", ("Ley 35/2006",), 1),
        OutlineEntry("TÍTULO I", ("Ley 35/2006", "TÍTULO I"), 2),
        OutlineEntry("Artículo 1. Objeto", ("Ley 35/2006", "TÍTULO I", "Artículo 1. Objeto"), 2),
        OutlineEntry("TÍTULO II", ("Ley 35/2006", "TÍTULO II"), 3),
        OutlineEntry("Anexo", ("Anexo",), 3),
    )


def test_an_external_link_has_no_page() -> None:
    entries = read([Bookmark("Ley", 0, (Bookmark("En el BOE", None),))])
    assert entries[1] == OutlineEntry("En el BOE", ("Ley", "En el BOE"), None)


def test_a_pdf_without_outline_has_no_entries() -> None:
    assert read([]) == ()


@dataclass
class Item:
    """An outline item as pypdf gives it: a title and a destination."""

    title: str | None
    page: Any = None


@dataclass
class FakeReader:
    """What ``outline_entries`` reads of a ``PdfReader``."""

    outline: list[Any]
    pages: list[int] = field(default_factory=lambda: [0, 1, 2])

    def get_destination_page_number(self, item: Item) -> int | None:
        if item.page == "broken":
            raise KeyError("/Page")
        return item.page  # type: ignore[no-any-return]


def test_a_list_of_children_without_an_item_before_it_belongs_to_the_enclosing_entry() -> None:
    a, b, c, d = Item("A", 0), Item("B", 1), Item("C", 2), Item("D", 2)
    entries = outline_entries(FakeReader([[b], a, [[c], d]]))  # type: ignore[arg-type]
    assert [entry.path for entry in entries] == [("B",), ("A",), ("A", "C"), ("A", "D")]


def test_a_list_after_a_list_is_not_nested_in_it() -> None:
    a, b, c = Item("A", 0), Item("B", 1), Item("C", 2)
    entries = outline_entries(FakeReader([a, [b], [c]]))  # type: ignore[arg-type]
    assert [entry.path for entry in entries] == [("A",), ("A", "B"), ("A", "C")]


@pytest.mark.parametrize(
    ("page", "expected"),
    [(0, 1), (2, 3), (3, None), (-1, None), (None, None), ("broken", None)],
)
def test_a_destination_outside_the_document_has_no_page(page: Any, expected: int | None) -> None:
    [entry] = outline_entries(FakeReader([Item("A", page)]))  # type: ignore[arg-type]
    assert entry.page == expected


def test_untitled_entries_keep_their_children_s_paths_short() -> None:
    entries = outline_entries(  # type: ignore[arg-type]
        FakeReader([Item(None, 0), [Item("  Artículo\n 1  ", 1)]])
    )
    assert entries == (OutlineEntry("", (), 1), OutlineEntry("Artículo 1", ("Artículo 1",), 2))


def test_a_very_deep_outline_is_read_without_recursion() -> None:
    outline: list[Any] = []
    level = outline
    for depth in range(3000):
        level.append(Item(f"n{depth}", 0))
        level.append([])
        level = level[-1]
    entries = outline_entries(FakeReader(outline))  # type: ignore[arg-type]
    assert len(entries) == 3000
    assert len(entries[-1].path) == 3000


class BrokenOutline:
    pages = (0,)

    @property
    def outline(self) -> list[Any]:
        raise RecursionError("outline loops")


def test_an_unreadable_outline_is_a_damaged_document() -> None:
    with pytest.raises(DamagedDocumentError, match=r"outline cannot be read.*RecursionError"):
        outline_entries(BrokenOutline())  # type: ignore[arg-type]
