"""The closing summary: per-file and total pages, chunks, sections, tokens, budget use,
overlap and time, then what PDF reading removed or could not locate, and every file
found but skipped, with why.
overlap and time, then what reading removed (a PDF's running headers and footers, a web
page's site chrome) or could not locate.

The statistics are pure functions of the chunks, checked against hand-computed values.
"""

from __future__ import annotations

import re
import statistics
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Final, Literal

from langchain_asesoria.boe_xml.law_text import LawReport
from langchain_asesoria.cli.inputs import Skipped
from langchain_asesoria.models import Chunk
from langchain_asesoria.pdf.furniture import FurnitureSummary
from langchain_asesoria.pdf.outline import OutlineEntry
from langchain_asesoria.reading import DocumentPages
from langchain_asesoria.store_values import LeftOutTally

_MAX_FILE_ROWS = 20
_NAME_WIDTH = 44
_DASH = "-"


@dataclass(frozen=True, slots=True)
class TokenStats:
    """Minimum, median and maximum token counts of some chunks."""

    minimum: int
    median: float
    maximum: int


def token_stats(counts: Sequence[int]) -> TokenStats | None:
    """``None`` for no chunks."""
    if not counts:
        return None
    return TokenStats(min(counts), statistics.median(counts), max(counts))


def mean_or_none(values: Sequence[int]) -> float | None:
    """The mean, or ``None`` for no values."""
    return statistics.fmean(values) if values else None


def budget_use(counts: Sequence[int], max_tokens: int) -> float | None:
    """Mean share of the budget the chunks fill (``mean(token_count) / max_tokens``)."""
    mean = mean_or_none(counts)
    return None if mean is None else mean / max_tokens


def continuation_overlaps(chunks: Sequence[Chunk]) -> tuple[int, ...]:
    """The effective overlap of each chunk that continues its predecessor's section.

    A section's first chunk has nothing to overlap with, so it is left out: the mean
    of these values is the overlap the run really achieved against its target.
    """
    return tuple(
        current.overlap_tokens
        for previous, current in pairwise(chunks)
        if (previous.metadata.section_label, previous.metadata.section_path)
        == (current.metadata.section_label, current.metadata.section_path)
    )


def distinct_sections(chunks: Sequence[Chunk]) -> int:
    """How many different sections the chunks carry (chunks without one left out)."""
    return len(
        {
            (chunk.metadata.section_label, chunk.metadata.section_path)
            for chunk in chunks
            if chunk.metadata.section_path or chunk.metadata.section_label
        }
    )


#: One kind of thing a law's XML left out or showed otherwise: ``(kind, count, items)``.
LawItems = tuple[str, int, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class FileReport:
    """What one file gave, or why it failed.

    Attributes:
        name: The file as given.
        pages: Pages read.
        token_counts: ``token_count`` of each chunk, in order.
        overlaps: ``continuation_overlaps`` of the chunks.
        failure: A short reason when the file failed, else ``None``.
        sections: ``distinct_sections`` of the chunks.
        outline_entries: Entries of a PDF's outline; ``None`` when it was not read.
        unlocated: The outline entries that could not be located.
        outline_problem: Why a PDF's outline could not be read, when it could not.
        furniture: The running headers and footers removed.
        contents: The pages of the table-of-contents lines removed, one item a line.
        structure: The structure source that gave the sections (``None``: none), with
            ``legal ranks`` when they gave the hierarchy, and how many headings it found.
        chrome: What a web page's reading left out (``ReadReport.chrome``).
        empty: The file held no text to split (0 bytes, or only whitespace once read):
            its status is ``empty``, not ``ok``.
        law: What a BOE law's XML left out or showed otherwise (``law_items``): each
            ``(kind, count, items)``, every item named.
        metadata_left_out: The metadata no chunk of the file keeps, as no vector store
            takes it, each ``(key, why)``: its front matter's lists, mappings, nulls...
            (``--front-matter-metadata``; ``store_values.stored_or_reason``).
    """

    name: str
    pages: int = 0
    token_counts: tuple[int, ...] = ()
    overlaps: tuple[int, ...] = ()
    failure: str | None = None
    sections: int = 0
    outline_entries: int | None = None
    unlocated: tuple[OutlineEntry, ...] = ()
    outline_problem: str | None = None
    furniture: tuple[FurnitureSummary, ...] = ()
    contents: tuple[int, ...] = ()
    structure: str | None = None
    chrome: tuple[str, ...] = ()
    empty: bool = False
    law: tuple[LawItems, ...] = ()
    metadata_left_out: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of_chunks(cls, name: str, pages: int, chunks: Sequence[Chunk]) -> FileReport:
        """The report of a file split into ``chunks``."""
        counts = tuple(chunk.token_count for chunk in chunks)
        return cls(
            name, pages, counts, continuation_overlaps(chunks), sections=distinct_sections(chunks)
        )

    @classmethod
    def of_document(cls, name: str, document: DocumentPages, chunks: Sequence[Chunk]) -> FileReport:
        """The report of a document read with ``read_document`` and split into ``chunks``."""
        report = cls.of_chunks(name, len(document.pages), chunks)
        outline = document.report.outline
        return replace(
            report,
            outline_entries=None if outline is None else outline.located.entries,
            unlocated=() if outline is None else outline.located.unlocated,
            outline_problem=None if outline is None else outline.problem,
            furniture=document.report.running_furniture.summary(),
            contents=tuple(line.page for line in document.report.contents),
            structure=_structure(document),
            chrome=document.report.chrome,
            empty=all(not page.text.strip() for page in document.pages),
            law=law_items(document.report.law),
            metadata_left_out=document.report.fields_left_out,
        )


#: How a left-out block's reason reads in the summary.
_LEFT_OUT: Final = {"not_yet_in_force": "not yet in force", "expired": "no longer in force"}


def law_items(law: LawReport | None) -> tuple[LawItems, ...]:
    """What a law's XML left out of its text, or shows otherwise, by kind: the blocks
    with no wording in force on the day (by reason, each with the day that decides
    it), its images (shown as ``[imagen]``) and blocks of an unknown type (kept)."""
    if law is None:
        return ()
    day = "" if law.as_of is None else f" on {law.as_of.isoformat()}"
    kinds: dict[str, list[str]] = {}
    for block in law.left_out:
        title = f" {block.titulo}" if block.titulo else ""
        kind = f"blocks left out{day}, {_LEFT_OUT.get(block.reason, block.reason)}"
        kinds.setdefault(kind, []).append(f"{block.block_id}{title} ({block.day.isoformat()})")
    unknown = [f"{block_id} (tipo {tipo!r})" for block_id, tipo in law.unknown_types]
    if unknown:
        kinds["blocks of an unknown type, kept as text"] = unknown
    items = [(kind, len(named), tuple(named)) for kind, named in kinds.items()]
    if law.images:
        items.append(("images", law.images, ()))
    return tuple(items)


def _structure(document: DocumentPages) -> str | None:
    """What gave the document its sections: ``"markdown headings, legal ranks (211)"``."""
    if document.structure is None:
        return None
    ranks = ", legal ranks" if document.report.legal else ""
    return f"{document.structure}{ranks} ({document.report.headings} headings)"


@dataclass(frozen=True, slots=True)
class RunReport:
    """A whole run, for the summary table.

    Attributes:
        skipped: Document names found in folders or by globs that cannot be read.
        unsupported: ``(extension, files)`` found in folders or by globs that no reader
            takes (``Inputs.unsupported``).
    """

    files: tuple[FileReport, ...]
    max_tokens: int
    overlap_target: int
    seconds: float
    model: str
    skipped: tuple[Skipped, ...] = ()
    unsupported: tuple[tuple[str, int], ...] = ()

    def left_out(self) -> LeftOutTally:
        """The metadata left out of the run's chunks, one count a file, over every file
        (listed in the table or not): told in one line, however many files."""
        tally = LeftOutTally()
        for report in self.files:
            tally.add(report.metadata_left_out, report.name)
        return tally

    @property
    def failed(self) -> tuple[FileReport, ...]:
        """The files that failed."""
        return tuple(report for report in self.files if report.failure is not None)

    def total(self) -> FileReport:
        """All successful files as one row."""
        done = [report for report in self.files if report.failure is None]
        empty = sum(report.empty for report in done)
        status = f"{len(done) - empty} ok" + (f", {empty} empty" if empty else "")
        status += f", {len(self.failed)} failed" if self.failed else ""
        status += f", {len(self.skipped)} skipped" if self.skipped else ""
        entries = [report.outline_entries for report in done if report.outline_entries is not None]
        return FileReport(
            name=f"total: {len(self.files)} file{'s' if len(self.files) != 1 else ''}",
            pages=sum(report.pages for report in done),
            token_counts=tuple(count for report in done for count in report.token_counts),
            overlaps=tuple(overlap for report in done for overlap in report.overlaps),
            failure=status,
            sections=sum(report.sections for report in done),
            outline_entries=sum(entries) if entries else None,
            unlocated=tuple(entry for report in done for entry in report.unlocated),
        )


def _number(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def _short(name: str) -> str:
    """``name`` within ``_NAME_WIDTH`` characters, never cut in the middle of a path: the
    folders nearest the file kept whole after ``…`` (``…/2023/manual.pdf``); a file name
    too long alone keeps its end (``…cap12.pdf``), extension included."""
    if len(name) <= _NAME_WIDTH:
        return name
    tail = ""
    for part in reversed(re.split(r"(?=[/\\])", name)):  # parts open with their separator
        if len(tail) + len(part) + 1 > _NAME_WIDTH:
            break
        tail = part + tail
    return f"…{tail or name[-(_NAME_WIDTH - 1) :]}"


def _tokens(report: FileReport) -> str:
    stats = token_stats(report.token_counts)
    if stats is None:
        return _DASH
    return f"{stats.minimum} / {_number(stats.median)} / {stats.maximum}"


Column = tuple[str, Literal["<", ">"], Callable[[FileReport, RunReport], str]]

_COLUMNS: tuple[Column, ...] = (
    ("file", "<", lambda file, run: _short(file.name)),
    ("pages", ">", lambda file, run: str(file.pages) if file.pages else _DASH),
    ("chunks", ">", lambda file, run: str(len(file.token_counts))),
    ("sections", ">", lambda file, run: str(file.sections)),
    ("not located", ">", lambda file, run: _unlocated(file)),
    ("tokens min/med/max", ">", lambda file, run: _tokens(file)),
    (
        "budget use",
        ">",
        lambda file, run: _percent(budget_use(file.token_counts, run.max_tokens)),
    ),
    ("overlap", ">", lambda file, run: _overlap(mean_or_none(file.overlaps), run.overlap_target)),
    ("status", "<", lambda file, run: file.failure or ("empty" if file.empty else "ok")),
)


def _unlocated(file: FileReport) -> str:
    """Outline entries not located, of all entries: ``-`` without an outline read."""
    if file.outline_entries is None:
        return _DASH
    return f"{len(file.unlocated)} of {file.outline_entries}"


def _percent(share: float | None) -> str:
    return _DASH if share is None else f"{share:.0%}"


def _overlap(mean: float | None, target: int) -> str:
    return _DASH if mean is None else f"{mean:.1f}/{target}"


def _table(rows: Sequence[Sequence[str]], aligns: Sequence[str]) -> list[str]:
    widths = [max(len(row[index]) for row in rows) for index in range(len(aligns))]
    return [
        "  ".join(
            f"{cell:{align}{width}}" for cell, align, width in zip(row, aligns, widths, strict=True)
        ).rstrip()
        for row in rows
    ]


def _file_rows(run: RunReport) -> tuple[list[FileReport], str | None]:
    if len(run.files) <= _MAX_FILE_ROWS:
        return list(run.files), None
    shown = list(run.failed[:_MAX_FILE_ROWS])
    return shown, f"({len(run.files) - len(shown)} more files not listed)"


_MAX_LISTED = 8
_WRAP = 100
_NO_BREAK = "\u00a0"  # textwrap never breaks a line there


def _listed(name: str, items: Sequence[str]) -> str:
    """``  name: a, b, c and N more``, wrapped between items to the usual width."""
    kept = [item.replace(" ", _NO_BREAK) for item in items[:_MAX_LISTED]]
    more = (
        f" and{_NO_BREAK}{len(items) - _MAX_LISTED}{_NO_BREAK}more"
        if len(items) > _MAX_LISTED
        else ""
    )
    wrapped = textwrap.fill(
        f"{name}: {', '.join(kept)}{more}",
        width=_WRAP,
        initial_indent="  ",
        subsequent_indent="    ",
        break_long_words=False,
        break_on_hyphens=False,
    )
    return wrapped.replace(_NO_BREAK, " ")


def _pages_count(count: int) -> str:
    return f"{count} page{'s' if count != 1 else ''}"


def _furniture_note(report: FileReport) -> str | None:
    if not report.furniture:
        return None
    removed = [f"{item.text!r} ({_pages_count(len(item.pages))})" for item in report.furniture]
    return _listed(report.name, removed)


def _contents_note(report: FileReport) -> str | None:
    if not report.contents:
        return None
    pages = sorted(set(report.contents))
    where = f"page {pages[0]}" if len(pages) == 1 else f"pages {pages[0]}-{pages[-1]}"
    return f"  {report.name}: {len(report.contents)} lines, {where}"


def _structure_note(report: FileReport) -> str | None:
    return None if report.structure is None else f"  {report.name}: {report.structure}"


def _law_note(report: FileReport) -> str | None:
    if not report.law:
        return None
    return "\n".join(
        f"  {report.name}: {kind}: {', '.join(items) if items else f'{count}, as [imagen]'}"
        for kind, count, items in report.law
    )


def _law_kinds(report: FileReport) -> list[_Kind]:
    return [
        (kind, "block" if items else "image", report, count, items[0] if items else "[imagen]")
        for kind, count, items in report.law
    ]


def _chrome_note(report: FileReport) -> str | None:
    """The file, then each thing left out on a line of its own."""
    if not report.chrome:
        return None
    return "\n".join([f"  {report.name}:", *(f"    {line}" for line in report.chrome)])


def _outline_note(report: FileReport) -> str | None:
    if report.outline_problem is not None:
        return f"  {report.name}: {report.outline_problem}"
    if not report.unlocated:
        return None
    titles = [
        f"{entry.title or '(untitled)'!r} ({'p. ' + str(entry.page) if entry.page else 'no page'})"
        for entry in report.unlocated
    ]
    return _listed(report.name, titles)


#: (heading, note of one file) of each list after the table.
_NOTES: tuple[tuple[str, Callable[[FileReport], str | None]], ...] = (
    ("sections from (--legal-structure auto|on|off):", _structure_note),
    ("page furniture removed (--keep-page-furniture keeps it):", _furniture_note),
    ("table of contents removed (--keep-contents keeps it):", _contents_note),
    ("left out of web pages (--keep-site-chrome keeps it):", _chrome_note),
    (
        "outline entries not located (their text stays in the section before them):",
        _outline_note,
    ),
    ("BOE laws' XML (--as-of, --versions):", _law_note),
)

#: How long a first example may be in a one-line-per-kind list.
_EXAMPLE = 60


def _example(text: str) -> str:
    return text if len(text) <= _EXAMPLE else text[: _EXAMPLE - 1] + "…"


def _in_files(count: int, noun: str, files: int) -> str:
    plural = noun if count == 1 else (noun[:-1] + "ies" if noun.endswith("y") else noun + "s")
    return f"{count} {plural} in {files} file{'s' if files != 1 else ''}"


#: One kind of thing in one file: ``(kind, noun, file, count, first example)``.
_Kind = tuple[str, str, FileReport, int, str]


def _grouped(found: Sequence[_Kind]) -> list[str]:
    """The rows as one text per kind, in first-seen order:
    ``kind: N nouns in M files, first: example (file)``."""
    kinds: dict[str, list[_Kind]] = {}
    for row in found:
        kinds.setdefault(row[0], []).append(row)
    lines = []
    for kind, rows in kinds.items():
        _, noun, report, _, first = rows[0]
        total = sum(row[3] for row in rows)
        files = len({id(row[2]) for row in rows})
        counted = (
            f"{files} file{'s' if files != 1 else ''}"
            if noun == "document"
            else _in_files(total, noun, files)
        )
        lines.append(f"{kind}: {counted}, first: {_example(first)} ({_short(report.name)})")
    return lines


def _sources(found: Sequence[_Kind]) -> list[str]:
    """The structure sources on one line: ``sections from: pdf outline 3 files, ...``."""
    counts: dict[str, int] = {}
    for kind, *_ in found:
        counts[kind] = counts.get(kind, 0) + 1
    if not counts:
        return []
    listed = ", ".join(f"{kind} {_files(count)}" for kind, count in counts.items())
    return [f"sections from (--legal-structure auto|on|off): {listed}"]


def _files(count: int) -> str:
    return f"{count} file{'s' if count != 1 else ''}"


def _structure_kinds(report: FileReport) -> list[_Kind]:
    if report.structure is None:
        return []
    source, _, headings = report.structure.partition(" (")
    return [(source, "document", report, 1, headings.rstrip(")"))]


def _furniture_kinds(report: FileReport) -> list[_Kind]:
    if not report.furniture:
        return []
    first = report.furniture[0]
    example = f"{first.text!r}, {_pages_count(len(first.pages))}"
    return [("running headers and footers", "line", report, len(report.furniture), example)]


def _contents_kinds(report: FileReport) -> list[_Kind]:
    if not report.contents:
        return []
    first = f"page {report.contents[0]}"
    return [("table of contents", "line", report, len(report.contents), first)]


#: A report line's count of the blocks it stands for: ``"Subir" (300 times)``.
_TIMES: Final = re.compile(r" \((\d+) times\)$")


def _chrome_kinds(report: FileReport) -> list[_Kind]:
    rows: list[_Kind] = []
    for line in report.chrome:
        kind, _, what = line.partition(": ")
        times = _TIMES.search(what)
        count = int(times.group(1)) if times else 1
        rows.append((kind, "block", report, count, what[: times.start()] if times else what))
    return rows


def _outline_kinds(report: FileReport) -> list[_Kind]:
    if report.outline_problem is not None:
        return [("not read", "document", report, 1, report.outline_problem)]
    if not report.unlocated:
        return []
    entry = report.unlocated[0]
    where = f"p. {entry.page}" if entry.page else "no page"
    first = f"{entry.title or '(untitled)'!r}, {where}"
    return [("entries not located", "entry", report, len(report.unlocated), first)]


#: The same lists, one line per kind (``--verbose`` gives ``_NOTES``, every file).
_KINDS: tuple[Callable[[FileReport], list[_Kind]], ...] = (
    _structure_kinds,
    _furniture_kinds,
    _contents_kinds,
    _chrome_kinds,
    _outline_kinds,
    _law_kinds,
)


#: How each kind's line starts in the one-line-per-kind lists, after the structure
#: sources' line; an empty start puts the kinds under ``_NOTES``' heading instead.
_ONE_LINE: Final = (
    "",
    "page furniture removed (--keep-page-furniture keeps it), ",
    "table of contents removed (--keep-contents keeps it), ",
    "",
    "outline ",
    "",
)


def _notes(run: RunReport, verbose: bool = False) -> list[str]:
    """What reading found, removed or could not locate: one line per kind, with a count
    and the first example (a screenful for a 20-file run); ``verbose``: every file's
    (files listed in the table)."""
    files, _ = _file_rows(run)
    if verbose:
        lines: list[str] = []
        for heading, note in _NOTES:
            found = [line for report in files if (line := note(report)) is not None]
            if found:
                lines += [heading, *found]
        return lines
    lines = _sources([row for report in files for row in _structure_kinds(report)])
    for (heading, _), kinds, start in zip(_NOTES[1:], _KINDS[1:], _ONE_LINE[1:], strict=True):
        grouped = _grouped([row for report in files for row in kinds(report)])
        if grouped and not start:
            lines += [heading, *(f"  {line}" for line in _folded(grouped))]
        else:
            lines += [start + line for line in grouped]
    if lines:
        lines.append("(--verbose lists every one)")
    return lines


#: How many kinds a list under a heading shows before folding the rest into one line.
_SHOWN_KINDS: Final = 6


def _folded(grouped: list[str]) -> list[str]:
    """The first ``_SHOWN_KINDS`` lines, then the rest's kinds on one line."""
    if len(grouped) <= _SHOWN_KINDS + 1:
        return grouped
    rest = [line.partition(":")[0] for line in grouped[_SHOWN_KINDS:]]
    return [*grouped[:_SHOWN_KINDS], f"{len(rest)} more kinds: {', '.join(rest)}"]


def _skipped(run: RunReport) -> list[str]:
    """Every file skipped, with why (never cut short: each one is a file not split)."""
    if not run.skipped:
        return []
    return [
        "files skipped (found, but they cannot be read):",
        *(f"  {item.path}: {item.reason}" for item in run.skipped),
    ]


def _left_out(run: RunReport) -> list[str]:
    """One line: each metadata key left out of the run's chunks, why and from how many
    files (``RunReport.left_out``)."""
    told = run.left_out().message("file")
    if told is None:
        return []
    return [f"metadata left out of the chunks, as no vector store takes it: {told}"]


def _unsupported(run: RunReport) -> list[str]:
    """One line: the files found that no reader takes, by extension, with counts."""
    if not run.unsupported:
        return []
    counts = ", ".join(f"{extension} {files}" for extension, files in run.unsupported)
    total = sum(files for _, files in run.unsupported)
    return [
        f"not split, no reader for their kind ({total} file{'s' if total != 1 else ''}; "
        f"give .pdf, .md, .txt, .html or .xml): {counts}"
    ]


def render_summary(run: RunReport, *, verbose: bool = False) -> str:
    """The summary table, what reading found and removed (one line per kind; every file's
    with ``verbose``), and a closing line of time, throughput and configuration."""
    files, note = _file_rows(run)
    total = run.total()
    rows = [[header for header, _, _ in _COLUMNS]]
    rows += [[cell(report, run) for _, _, cell in _COLUMNS] for report in [*files, total]]
    lines = _table(rows, [align for _, align, _ in _COLUMNS])
    lines.insert(1, _DASH * len(max(lines, key=len)))
    lines.insert(len(lines) - 1, lines[1])
    if note:
        lines.insert(len(lines) - 2, note)
    lines += _notes(run, verbose)
    lines += _left_out(run)
    lines += _skipped(run)
    lines += _unsupported(run)
    seconds = max(run.seconds, 1e-9)
    chunks = len(total.token_counts)
    lines.append(
        f"time {run.seconds:.2f} s · {total.pages / seconds:.1f} pages/s · "
        f"{chunks / seconds:.0f} chunks/s"
    )
    lines.append(
        f"model {run.model} · budget {run.max_tokens} tokens · overlap target "
        f"{run.overlap_target} tokens"
    )
    return "\n".join(lines)
