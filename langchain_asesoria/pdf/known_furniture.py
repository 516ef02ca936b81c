"""A few of a PDF's pages, as another extractor gave them, cleaned of the PDF's furniture.

``pdf.furniture`` tells running headers and footers by comparing pages: one or two pages
give nothing to compare. When the PDF itself is at hand, its own pages were compared
(``find_furniture`` on our extraction, with line heights): a line of the few pages is
furniture when it has the running key of a line removed there (``running_keys``: its
text, or its text with its page number as a distance to the page's own, so "Página 31"
on page 31 matches "Página 40" on page 40). Lines are peeled from each edge of a page
inwards (its first and last ``EDGE_LINES`` non-blank lines) up to the first line
without such a key, as ``find_furniture`` peels them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from langchain_asesoria.models import LoadedPage
from langchain_asesoria.pdf.folios import running_keys
from langchain_asesoria.pdf.furniture import EDGE_LINES, Furniture, FurnitureLine


def _lines(page: LoadedPage) -> list[FurnitureLine]:
    """The non-blank lines of ``page``, each with its line break."""
    found: list[FurnitureLine] = []
    start = 0
    for line in page.text.split("\n"):
        end = start + len(line)
        if line.strip():
            found.append(FurnitureLine(page.page, start, min(end + 1, len(page.text)), line))
        start = end + 1
    return found


def _peeled(lines: Sequence[FurnitureLine], keys: frozenset[str]) -> Iterator[FurnitureLine]:
    for line in lines[:EDGE_LINES]:
        if keys.isdisjoint(running_keys(line.text, line.page)):
            return
        yield line


def furniture_as_in(pages: Sequence[LoadedPage], known: Furniture) -> Furniture:
    """The lines of ``pages`` that are furniture by the lines ``known`` removed from the
    PDF's own pages (see the module docstring); ordered by page, then position."""
    keys = frozenset(key for line in known.lines for key in running_keys(line.text, line.page))
    removed: set[FurnitureLine] = set()
    for page in pages:
        lines = _lines(page)
        removed.update(_peeled(lines, keys))
        removed.update(_peeled(lines[::-1], keys))
    return Furniture(tuple(sorted(removed, key=lambda line: (line.page, line.start))))
