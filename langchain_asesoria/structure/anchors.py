"""Structure anchored in pages: section starts and lists' leads as (page, offset).

Anchored positions do not depend on how the pages are joined later, so no caller passes
a page separator to get sections: ``spans_in`` and ``leads_in`` turn them into spans of
whatever joined text the chunker builds.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from langchain_asesoria.errors import InvalidSectionsError
from langchain_asesoria.models import LeadSpan, LoadedPage, SectionSpan
from langchain_asesoria.pages import JoinedText, join_pages


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
        fields: The section's own metadata for its chunks (``SectionSpan.fields``).
    """

    page: int
    offset: int
    label: str
    path: tuple[str, ...]
    title_end: tuple[int, int] | None = None
    fields: tuple[tuple[str, str | int | float | bool], ...] = ()


def section_spans(
    pages: Sequence[LoadedPage], starts: Sequence[SectionStart], separator: str = "\n\n"
) -> list[SectionSpan]:
    """The sections as spans of ``join_pages(pages, separator).text`` (``spans_in``).

    Raises:
        InvalidPagesError: pages that are not one document's, in order.
        InvalidSectionsError: a start on a page that ``pages`` does not hold.
    """
    return spans_in(join_pages(pages, separator), starts)


def spans_in(joined: JoinedText, starts: Sequence[SectionStart]) -> list[SectionSpan]:
    """The sections as spans of ``joined.text``.

    Each section runs from its start to the next one's, the last to the end of the
    text: ordered, non-overlapping, never empty.

    Raises:
        InvalidSectionsError: a start on a page that ``joined`` does not hold.
    """
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
            position,
            end,
            start.label or None,
            start.path,
            _title_end(start, index, position, end),
            start.fields,
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
    pages: Sequence[LoadedPage],
    spans: Sequence[SectionSpan],
    separator: str,
    joined: JoinedText | None = None,
) -> tuple[SectionStart, ...]:
    """``spans`` of ``join_pages(pages, separator).text`` (``joined``, when the caller
    has it) as starts anchored in pages.

    The inverse of ``spans_in`` for spans that each run to the next one's start (the
    last to the end): ``spans_in(join_pages(pages, t), anchor_spans(pages, spans, s))``
    gives the same sections in the text joined by any ``t``. A start that falls inside a
    separator is anchored at the start of the next page.
    """
    joined = joined or join_pages(pages, separator)
    numbers, starts = joined.page_numbers, joined.page_starts
    return tuple(
        SectionStart(
            *_anchor(numbers, starts, pages, span.start),
            span.section_label or "",
            tuple(span.section_path),
            None if span.title_end is None else _anchor(numbers, starts, pages, span.title_end),
            tuple(span.fields),
        )
        for span in spans
    )


@dataclass(frozen=True, slots=True)
class AnchoredLead:
    """A ``LeadSpan`` anchored in pages: ``(page number, offset in that page)`` each end."""

    start: tuple[int, int]
    end: tuple[int, int]
    lead: str
    table: bool = False


def anchor_leads(
    pages: Sequence[LoadedPage], joined: JoinedText, leads: Sequence[LeadSpan]
) -> tuple[AnchoredLead, ...]:
    """``leads`` of ``joined.text`` (``pages`` joined) anchored in pages.

    A start inside a separator is anchored at the next page's start, an end inside one
    at the previous page's end: no chunk starts in a separator, so the same chunks
    carry the lead in any join (``leads_in``).
    """
    numbers, starts = joined.page_numbers, joined.page_starts
    return tuple(
        AnchoredLead(
            _anchor(numbers, starts, pages, lead.start),
            _anchor_end(numbers, starts, pages, lead.end),
            lead.lead,
            lead.table,
        )
        for lead in leads
    )


def leads_in(joined: JoinedText, leads: Sequence[AnchoredLead]) -> list[LeadSpan]:
    """The anchored ``leads`` as ``LeadSpan``s of ``joined.text``, in their order."""
    index = dict(zip(joined.page_numbers, joined.page_starts, strict=True))
    return [
        LeadSpan(
            index[lead.start[0]] + lead.start[1],
            index[lead.end[0]] + lead.end[1],
            lead.lead,
            lead.table,
        )
        for lead in leads
        if lead.start[0] in index and lead.end[0] in index
    ]


def _anchor_end(
    numbers: Sequence[int], starts: Sequence[int], pages: Sequence[LoadedPage], position: int
) -> tuple[int, int]:
    """``(page number, offset)`` of an exclusive end: a page's end, never the next start."""
    index = max(bisect_right(starts, position - 1) - 1, 0) if position else 0
    return numbers[index], min(position - starts[index], len(pages[index].text))


def _anchor(
    numbers: Sequence[int], starts: Sequence[int], pages: Sequence[LoadedPage], position: int
) -> tuple[int, int]:
    """``(page number, offset in that page)`` of a position of the joined text."""
    index = max(bisect_right(starts, position) - 1, 0)
    offset = position - starts[index]
    if offset > len(pages[index].text) and index + 1 < len(pages):
        return numbers[index + 1], 0
    return numbers[index], min(offset, len(pages[index].text))
