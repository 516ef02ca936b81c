"""Sections anchored in pages: where each starts, as (page, offset in that page).

A structure source (Markdown headings, a PDF's outline) says where sections *start*;
anchoring a start to its page keeps it independent of how the pages are joined later,
so no caller passes a page separator to get sections: ``section_spans`` turns the
starts into ``SectionSpan``s of whatever joined text the chunker builds.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from langchain_asesoria.engine._pages import join_pages
from langchain_asesoria.errors import InvalidSectionsError
from langchain_asesoria.models import LoadedPage, SectionSpan

__all__ = ["SectionStart", "anchor_spans", "section_spans"]


@dataclass(frozen=True, slots=True)
class SectionStart:
    """Where a located section starts.

    Attributes:
        page: The number of the page where its title starts.
        offset: The title's offset in that page's text.
        label: The section's own title.
        path: Titles from the outermost section down to this one.
        title_end: ``(page number, offset in that page)`` where the titles that open
            the section (its own, and the bare ones it carries) end, when known: no
            chunk ends between them and what follows.
    """

    page: int
    offset: int
    label: str
    path: tuple[str, ...]
    title_end: tuple[int, int] | None = None


def section_spans(
    pages: Sequence[LoadedPage], starts: Sequence[SectionStart], separator: str = "\n\n"
) -> list[SectionSpan]:
    """The sections as spans of ``join_pages(pages, separator).text``.

    Each section runs from its start to the next one's, the last to the end of the
    text: ordered, non-overlapping, never empty.

    Raises:
        InvalidPagesError: pages that are not one document's, in order.
        InvalidSectionsError: a start on a page that ``pages`` does not hold.
    """
    joined = join_pages(pages, separator)
    index = dict(zip(joined.page_numbers, joined.page_starts, strict=True))
    missing = sorted({start.page for start in starts} - set(index))
    if missing:
        raise InvalidSectionsError(
            f"sections start on page(s) {missing} that the {len(index)} pages given do not "
            "hold: pass the pages the sections were located in."
        )
    if not starts:
        return []
    positions = [index[start.page] + start.offset for start in starts]
    ends = [*positions[1:], len(joined.text)]
    return [
        SectionSpan(
            position, end, start.label or None, start.path, _title_end(start, index, position, end)
        )
        for position, end, start in zip(positions, ends, starts, strict=True)
        if position < end
    ]


def _title_end(start: SectionStart, index: dict[int, int], position: int, end: int) -> int | None:
    """Where the section's titles end in the joined text, when known and inside it."""
    if start.title_end is None or start.title_end[0] not in index:
        return None
    title_end = index[start.title_end[0]] + start.title_end[1]
    return title_end if position <= title_end <= end else None


def anchor_spans(
    pages: Sequence[LoadedPage], spans: Sequence[SectionSpan], separator: str
) -> tuple[SectionStart, ...]:
    """``spans`` of ``join_pages(pages, separator).text`` as starts anchored in pages.

    The inverse of ``section_spans`` for spans that each run to the next one's start
    (the last to the end): ``section_spans(pages, anchor_spans(pages, spans, s), t)``
    gives the same sections in the text joined by any ``t``. A start that falls inside a
    separator is anchored at the start of the next page.
    """
    joined = join_pages(pages, separator)
    starts = joined.page_starts
    return tuple(
        SectionStart(
            *_anchor(joined.page_numbers, starts, pages, span.start),
            span.section_label or "",
            tuple(span.section_path),
            None
            if span.title_end is None
            else _anchor(joined.page_numbers, starts, pages, span.title_end),
        )
        for span in spans
    )


def _anchor(
    numbers: Sequence[int], starts: Sequence[int], pages: Sequence[LoadedPage], position: int
) -> tuple[int, int]:
    """``(page number, offset in that page)`` of a position of the joined text."""
    index = max(bisect_right(starts, position) - 1, 0)
    offset = position - starts[index]
    if offset > len(pages[index].text) and index + 1 < len(pages):
        return numbers[index + 1], 0
    return numbers[index], min(offset, len(pages[index].text))
