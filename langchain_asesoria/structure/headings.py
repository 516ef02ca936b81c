"""Headings in text order -> nested sections: the one nesting rule of every structure source.

A structure source (Markdown's ATX headings, a text's legal heading lines, a web page's
``<hN>``) finds its headings, each with a *level*; ``sections_of`` nests them: a heading
closes the open headings of its level or deeper, and its path is the headings still open.
Re-ranking (Spanish legal structure) only changes the levels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from langchain_asesoria.models import SectionSpan


@dataclass(frozen=True, slots=True)
class Heading:
    """One heading of a text.

    Attributes:
        start: Where its line starts.
        end: Where its title ends (the end of the heading line, without its line ending).
        level: Its depth: 1 the outermost; a heading closes those of its level or deeper.
        title: Its title; ``""`` for an empty heading.
        body_is_empty: No body follows it before the next heading.
    """

    start: int
    end: int
    level: int
    title: str
    body_is_empty: bool = True


def _folds_back(heading: Heading, following: Heading | None, opened: bool) -> bool:
    """A heading without body, right after a section's body, stays in that section
    when nothing of its own level or deeper follows it (a bare article before a new
    title, a heading at the end)."""
    return opened and (following is None or following.level < heading.level)


#: A section as it opens: its heading, the open headings (its path), and the headings
#: without body it carries before its own.
_Opened = tuple[Heading, list[Heading], list[Heading]]


def _nest(stack: list[Heading], heading: Heading) -> None:
    """Closes the open headings of ``heading``'s level or deeper; a titled one opens."""
    while stack and stack[-1].level >= heading.level:
        stack.pop()
    if heading.title:
        stack.append(heading)


def _opened(headings: Sequence[Heading]) -> list[_Opened]:
    """The sections the headings open, in order (see ``sections_of``)."""
    opened: list[_Opened] = []
    stack: list[Heading] = []
    carried: list[Heading] = []  # headings without body, opening the next section
    for heading, following in zip(headings, [*headings[1:], None], strict=False):
        if heading.body_is_empty and not carried and _folds_back(heading, following, bool(opened)):
            continue
        _nest(stack, heading)
        if heading.body_is_empty and following is not None:
            carried.append(heading)
            continue
        opened.append((heading, list(stack), carried))
        carried = []
    return opened


def sections_of(headings: Sequence[Heading], length: int) -> list[SectionSpan]:
    """The sections that ``headings`` (in text order) open in a text of ``length``.

    Each heading opens a section that runs to the next heading and keeps the heading
    line in its content; its path holds the titles of the open headings that enclose it
    (a heading closes those of its level or deeper), in text order. No section is only
    headings: a heading with no body of its own travels with what follows it (``##
    TÍTULO I`` right before ``### CAPÍTULO I``, or ``### JUAN CARLOS I`` right before
    ``### REY DE ESPAÑA``) and opens the next section's text; it is in that section's path
    only when it encloses it (TÍTULO I, not a sibling such as JUAN CARLOS I). Right after
    a section's body with only shallower headings (or none) after it, it stays at the
    end of that section. ``title_end`` marks where a section's heading lines end, so that
    a chunk never ends right after them. An empty heading (no title) closes the sections
    of its level and below, and opens one with no title of its own.
    """
    opened = _opened(headings)
    starts = [(carried or [heading])[0].start for heading, _, carried in opened]
    ends = [*starts[1:], length][: len(starts)]
    return [
        _span(heading, stack, start, end)
        for (heading, stack, carried), start, end in zip(opened, starts, ends, strict=True)
    ]


def _span(heading: Heading, stack: Sequence[Heading], start: int, end: int) -> SectionSpan:
    """The section of ``heading`` over ``[start, end)``: its path is the open headings
    (its ancestors, then itself), in text order."""
    path = tuple(h.title for h in stack)
    return SectionSpan(start, end, heading.title or None, path, title_end=heading.end)
