"""``asesoria-split inspect``: one chunked document as a self-contained HTML page.

Every chunk is shaded on the original text (alternating colours; overlaps in a third
colour), page breaks and section starts are marked (a PDF's running headers and
footers, removed before chunking, are shown struck through at each page break), and
hovering a chunk shows its metadata in a side panel (clicking pins it; ``#chunk=N`` in
the address pins chunk ``N`` on load). Non-whitespace text that no chunk covers would be
shown in red. The page has no external resources: styles, script and data are inline.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from itertools import pairwise
from string import Template

from langchain_asesoria.cli.summary import token_stats
from langchain_asesoria.engine import JoinedText
from langchain_asesoria.models import Chunk, SectionSpan
from langchain_asesoria.parents import DocumentParents, Parent
from langchain_asesoria.pdf.furniture import Furniture, FurnitureLine
from langchain_asesoria.pdf.outline import OutlineEntry
from langchain_asesoria.records import SECTION_PATH_SEPARATOR, chunk_metadata_record


@dataclass(frozen=True, slots=True)
class InspectDocument:
    """What the page shows.

    Attributes:
        title: The document's name (its file).
        joined: The joined text the chunk offsets refer to.
        chunks: The chunks, in order.
        sections: The sections the chunker followed (empty when none).
        model: The tokenizer's name.
        max_tokens: The budget.
        overlap_target: The overlap target.
        furniture: Running headers and footers removed before chunking (shown struck
            through at each page break, and listed in the header).
        unlocated: Outline entries that could not be located (listed in the header).
        chrome: What a web page's reading left out (listed in the header, one line per
            kind).
        contents: The table-of-contents lines among ``furniture`` (listed apart from
            the running headers and footers).
        parents: Each chunk's parent, shown with the chunk's metadata (``None``: none).
        parent_max_tokens: The parents' budget.
    """

    title: str
    joined: JoinedText
    chunks: Sequence[Chunk]
    sections: Sequence[SectionSpan]
    model: str
    max_tokens: int
    overlap_target: int
    furniture: Furniture = field(default_factory=Furniture)
    unlocated: Sequence[OutlineEntry] = ()
    chrome: Sequence[str] = ()
    contents: Sequence[FurnitureLine] = ()
    parents: DocumentParents | None = None
    parent_max_tokens: int | None = None


def _pages(chunk: Chunk) -> str:
    first, last = chunk.metadata.page, chunk.metadata.page_end
    return str(first) if first == last else f"{first}-{last}"


def parent_rows(parent: Parent, max_tokens: int | None) -> list[tuple[str, str]]:
    """What is shown of a chunk's parent, as (label, value) rows."""
    first, last = parent.page, parent.page_end
    return [
        ("parent", parent.parent_id),
        ("parent section", SECTION_PATH_SEPARATOR.join(parent.section_path) or "(none)"),
        ("parent pages", str(first) if first == last else f"{first}-{last}"),
        ("parent offsets", f"[{parent.start}, {parent.end})"),
        ("parent tokens", f"{parent.token_count} / {max_tokens}"),
    ]


def chunk_rows(chunk: Chunk, max_tokens: int, overlap_target: int) -> list[tuple[str, str]]:
    """The metadata shown for one chunk, as (label, value) rows."""
    record = chunk_metadata_record(chunk)
    context = chunk.embedding_text[: len(chunk.embedding_text) - len(chunk.text)]
    rows = [
        ("chunk", f"#{chunk.metadata.chunk_index}"),
        ("pages", _pages(chunk)),
        ("section", SECTION_PATH_SEPARATOR.join(chunk.metadata.section_path) or "(none)"),
        ("offsets", f"[{chunk.start}, {chunk.end})"),
        ("tokens", f"{chunk.token_count} / {max_tokens}"),
        ("overlap", f"{chunk.overlap_tokens} / {overlap_target}"),
        ("added before text", repr(context) if context else "(nothing)"),
    ]
    shown = {"chunk_index", "page", "page_end", "section_label", "section_path"}
    shown |= {"start_index", "end_index", "token_count", "overlap_tokens"}
    rows += [(key, str(value)) for key, value in record.items() if key not in shown]
    return rows


_HEADING_LINE = re.compile(r" {0,3}#{1,6}(?:[ \t].*)?")


def _heading_lines(text: str, sections: Sequence[SectionSpan]) -> dict[int, int]:
    """Start -> end of each heading line opening a section (folded headings included)."""
    lines: dict[int, int] = {}
    for span in sections:
        position = span.start
        while position < span.end:
            end = text.find("\n", position, span.end)
            end = span.end if end < 0 else end
            line = text[position:end].rstrip("\r")
            if line.strip() and not _HEADING_LINE.fullmatch(line):
                break
            if line.strip():
                lines[position] = position + len(line)
            position = end + 1
    return lines


@dataclass(frozen=True, slots=True)
class _Marks:
    """What to mark before a position: page breaks, section starts, chunk starts."""

    pages: dict[int, int]
    sections: dict[int, str]
    chunks: dict[int, list[Chunk]]
    furniture: Furniture

    @classmethod
    def of(cls, document: InspectDocument) -> _Marks:
        joined = document.joined
        chunks: dict[int, list[Chunk]] = {}
        for chunk in document.chunks:
            chunks.setdefault(chunk.start, []).append(chunk)
        return cls(
            # A single page needs no page break.
            pages=dict(zip(joined.page_starts, joined.page_numbers, strict=True))
            if len(joined.page_numbers) > 1
            else {},
            sections={
                span.start: SECTION_PATH_SEPARATOR.join(span.section_path)
                or span.section_label
                or ""
                for span in document.sections
            },
            chunks=chunks,
            furniture=document.furniture,
        )

    def before(self, position: int) -> str:
        parts = []
        if position in self.pages:
            number = self.pages[position]
            parts.append(f'<span class="pb">page {number}</span>')
            removed = self.furniture.on_page(number)
            if removed:
                lines = " · ".join(
                    f"<del>{html.escape(line.text.strip())}</del>" for line in removed
                )
                parts.append(f'<span class="furn" title="{_REMOVED}">{lines}</span>')
        if position in self.sections:
            parts.append(f'<span class="sec">§ {html.escape(self.sections[position])}</span>')
        for chunk in self.chunks.get(position, ()):
            index = chunk.metadata.chunk_index
            tip = f"chunk {index} · p. {_pages(chunk)} · {chunk.token_count} tokens"
            parts.append(f'<sup class="n" data-c="{index}" title="{tip}">{index}</sup>')
        return "".join(parts)


def _piece(text: str, covering: Sequence[Chunk], heading: bool) -> str:
    escaped = html.escape(text, quote=False)
    classes = ["h"] if heading else []
    if not covering:
        if text.strip():
            classes.append("gap")
        elif text.count("\n") > 2:  # blank lines between chunks (a blanked front matter)
            escaped = "\n\n"
        return f'<span class="{" ".join(classes)}">{escaped}</span>' if classes else escaped
    ids = [chunk.metadata.chunk_index or 0 for chunk in covering]
    classes.insert(0, "c ov" if len(ids) > 1 else f"c c{ids[0] % 2}")
    data = " ".join(map(str, ids))
    return f'<span class="{" ".join(classes)}" data-c="{data}">{escaped}</span>'


def _body(document: InspectDocument) -> str:
    """The text cut at every chunk, page and heading boundary, each piece marked up."""
    text = document.joined.text
    marks = _Marks.of(document)
    headings = _heading_lines(text, document.sections)
    cuts = {0, len(text), *marks.pages, *headings, *headings.values()}
    cuts.update(edge for chunk in document.chunks for edge in (chunk.start, chunk.end))
    bounds = sorted(cut for cut in cuts if 0 <= cut <= len(text))
    out: list[str] = []
    chunks = document.chunks  # sorted by start: the engine's order
    taken = 0
    covering: list[Chunk] = []
    heading_end = -1
    for start, end in pairwise(bounds):
        out.append(marks.before(start))
        while taken < len(chunks) and chunks[taken].start <= start:
            covering.append(chunks[taken])
            taken += 1
        covering = [chunk for chunk in covering if chunk.end > start]
        heading_end = headings.get(start, heading_end)
        out.append(_piece(text[start:end], covering, start < heading_end))
    return "".join(out)


def _data(document: InspectDocument) -> str:
    rows = {
        str(chunk.metadata.chunk_index): chunk_rows(
            chunk, document.max_tokens, document.overlap_target
        )
        for chunk in document.chunks
    }
    if document.parents is not None:
        by_id = document.parents.by_id()
        for chunk, owner in zip(document.chunks, document.parents.chunk_parents, strict=True):
            rows[str(chunk.metadata.chunk_index)] += parent_rows(
                by_id[owner], document.parent_max_tokens
            )
    # "</" would end the <script> element early.
    return json.dumps(rows, ensure_ascii=False).replace("</", "<\\/")


def counted(number: int, noun: str) -> str:
    """``"1 page"``, ``"17 pages"``: a count and its noun, plural when not one."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _stats(document: InspectDocument) -> str:
    counts = [chunk.token_count for chunk in document.chunks]
    stats = token_stats(counts)
    tokens = "-" if stats is None else f"{stats.minimum} / {stats.median:g} / {stats.maximum}"
    pages = counted(len(document.joined.page_numbers), "page")
    return (
        f"{pages} · {counted(len(counts), 'chunk')} · tokens "
        f"min/median/max {tokens} · budget {document.max_tokens}, overlap target "
        f"{document.overlap_target} · model {document.model}"
    )


_REMOVED = "running header or footer, removed before chunking"


#: How many characters of a first example the header shows.
_EXAMPLE = 70


def _first(text: str) -> str:
    return html.escape(text if len(text) <= _EXAMPLE else text[: _EXAMPLE - 1] + "…")


def _listed(summary: str, items: Sequence[str]) -> str:
    """One line, ``summary`` (a count and the first example), and every item under a
    ``<details>`` that opens on a click (the page needs no script for it)."""
    if len(items) <= 1:
        return summary
    every = "".join(f"<li>{item}</li>" for item in items)
    return f"{summary} <details><summary>all {len(items)}</summary><ul>{every}</ul></details>"


def _furniture_notes(document: InspectDocument) -> list[str]:
    contents = set(document.contents)
    running = Furniture(tuple(line for line in document.furniture.lines if line not in contents))
    notes = []
    removed = [
        f"{html.escape(repr(item.text))} ({len(item.pages)} p.)" for item in running.summary()
    ]
    if removed:
        notes.append(
            _listed(
                f"Removed running headers and footers: {counted(len(removed), 'line')}, "
                f"first {removed[0]}.",
                removed,
            )
        )
    if document.contents:
        pages = sorted({line.page for line in document.contents})
        where = f"p. {pages[0]}" if len(pages) == 1 else f"pp. {pages[0]}-{pages[-1]}"
        lines = [html.escape(line.text.strip()) for line in document.contents]
        notes.append(
            _listed(
                f"Removed the table of contents: {counted(len(lines), 'line')} ({where}), "
                f"first {_first(document.contents[0].text.strip())!s}.",
                lines,
            )
        )
    return notes


def _chrome_notes(document: InspectDocument) -> list[str]:
    """One line per kind of what a web page left out: a count and the first example."""
    kinds: dict[str, list[str]] = {}
    for line in document.chrome:
        kind, _, what = line.partition(": ")
        kinds.setdefault(kind, []).append(what)
    return [
        _listed(
            f"Left out of the web page before chunking, {html.escape(kind)}: "
            f"{counted(len(items), 'block')}, first {_first(items[0])}.",
            [_first(item) for item in items],
        )
        for kind, items in kinds.items()
    ]


def _outline_notes(document: InspectDocument) -> list[str]:
    missing = [
        html.escape(repr(entry.title)) + (f" (p. {entry.page})" if entry.page else " (no page)")
        for entry in document.unlocated
    ]
    if not missing:
        return []
    return [
        _listed(
            f"Outline entries not located ({len(missing)}), their text stays in the section "
            f"before them: first {missing[0]}.",
            missing,
        )
    ]


def _notes(document: InspectDocument) -> str:
    """Header paragraphs, one per kind of what reading removed or could not locate: a
    count and the first example, and all of them one click away."""
    notes = [*_furniture_notes(document), *_chrome_notes(document), *_outline_notes(document)]
    return "".join(f'<p class="notes">{note}</p>' for note in notes)


def render_inspect_html(document: InspectDocument) -> str:
    """The self-contained HTML page of one chunked document."""
    assets = files("langchain_asesoria.cli")
    template = Template(assets.joinpath("inspect.html").read_text(encoding="utf-8"))
    return template.substitute(
        title=html.escape(document.title),
        stats=html.escape(_stats(document)),
        notes=_notes(document),
        style=assets.joinpath("inspect.css").read_text(encoding="utf-8"),
        script=assets.joinpath("inspect.js").read_text(encoding="utf-8"),
        data=_data(document),
        body=_body(document),
    )
