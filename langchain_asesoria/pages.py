"""Pages joined into one text, and positions mapped back to pages."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass

from langchain_asesoria.errors import InvalidPagesError
from langchain_asesoria.models import LoadedPage


@dataclass(frozen=True, slots=True)
class JoinedText:
    """A document's pages joined by a separator that belongs to no page.

    Attributes:
        text: The joined text; every offset of the library is a position in it.
        page_starts: Offset where each page's text starts, ascending.
        page_numbers: The page number of each page, in the same order.
    """

    text: str
    page_starts: tuple[int, ...]
    page_numbers: tuple[int, ...]

    def page_at(self, position: int) -> int:
        """The number of the page holding ``text[position]``.

        A position inside a separator maps to the page before it; the engine only
        asks for non-whitespace positions, which always lie inside a page.
        """
        index = bisect_right(self.page_starts, position) - 1
        return self.page_numbers[max(index, 0)]


def _check_encodable(text: str, number: int, doc_id: str) -> None:
    """Rejects lone surrogates (text no tokenizer can read) with the page and position."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidPagesError(
            f"page {number} holds a lone surrogate "
            f"{text[error.start]!r} at position {error.start}, which is not text; fix the "
            "extraction (or decode its bytes with errors='replace').",
            doc_id=doc_id,
            page=number,
            position=error.start,
            expected="text without lone surrogates",
        ) from error


def _check_page(page: object, index: int, previous: int, doc_id: str) -> LoadedPage:
    """``page`` when it is a ``LoadedPage`` with ``str`` text, numbered after ``previous``.

    Raises:
        InvalidPagesError: anything else.
    """
    if not isinstance(page, LoadedPage) or not isinstance(page.text, str):
        found = (
            f"a LoadedPage whose text is {type(page.text).__name__}"
            if isinstance(page, LoadedPage)
            else type(page).__name__
        )
        raise InvalidPagesError(
            f"item {index} is {found}, not a LoadedPage(text: str, page: int).",
            doc_id=doc_id,
            expected="a LoadedPage(text: str, page: int)",
        )
    number = page.page
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise InvalidPagesError(
            f"page number {number!r} at position {index} is not a "
            "positive integer; pages are numbered from 1.",
            doc_id=doc_id,
            expected="a positive integer",
        )
    if number <= previous:
        kind = "duplicated" if number == previous else "out of order"
        raise InvalidPagesError(
            f"page {number} at position {index} is {kind} (after "
            f"page {previous}); pass one document's pages sorted by page number.",
            doc_id=doc_id,
            page=number,
            expected=f"a page number above {previous}",
        )
    _check_encodable(page.text, number, doc_id)
    return page


def join_pages(
    pages: Iterable[LoadedPage], separator: str = "\n\n", doc_id: str = "?"
) -> JoinedText:
    """Joins one document's pages, after checking that they are one document's, in order.

    Raises:
        InvalidPagesError: a page that is not a ``LoadedPage`` with ``str`` text, a page
            number that is not a positive integer, pages out of order or duplicated,
            or pages whose ``source`` differ.
    """
    pages = list(pages)  # a loader's lazy_load() yields: read it once, keep every page
    previous = 0
    for index, page in enumerate(pages):
        previous = _check_page(page, index, previous, doc_id).page
    sources = {page.source for page in pages if page.source is not None}
    if len(sources) > 1:
        raise InvalidPagesError(
            f"pages of several sources are mixed ({sorted(sources)!r}); "
            "chunk each document on its own.",
            doc_id=doc_id,
            expected="pages of one source",
        )
    starts: list[int] = []
    offset = 0
    for page in pages:
        starts.append(offset)
        offset += len(page.text) + len(separator)
    return JoinedText(
        text=separator.join(page.text for page in pages),
        page_starts=tuple(starts),
        page_numbers=tuple(page.page for page in pages),
    )
