"""A BOE consolidated law's XML: read, the law on a day, every wording, and its chunks.

Reads a ``/texto`` answer (with ``ID.metadatos.xml`` beside it when there), then prints
as Markdown: the time to read it and to select the law on a day and with every wording;
its blocks, wordings, tables and images; for each wording of one block (``--block``,
Artículo 48 by default) the text selected on its first day against that wording's own
text read apart with lxml (word for word: they must be equal); and the chunks at
256/32 with the offline MiniLM tokenizer (through the reading stage, as every entry
point chunks a law's XML), their time and peak memory, on the day and with every
wording; then the file read and chunked whole (``read_document``, as ``asesoria-split
FILE.xml`` does).
Run from the repository root::

    python -m benchmarks.boe_xml /work/data/citebound/corpus/raw/BOE-A-2003-23514.xml
"""

from __future__ import annotations

import argparse
import copy
import gc
import os
import re
import resource
import time
import tracemalloc
from bisect import bisect_right
from collections.abc import Callable, Sequence
from datetime import date
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeVar

if TYPE_CHECKING:
    from langchain_asesoria import Chunk, Tokenization
    from langchain_asesoria.boe_xml import Law, LawText

MODEL: Final = "sentence-transformers/all-MiniLM-L6-v2"
T = TypeVar("T")


def timed(run: Callable[[], T], repeat: int = 3) -> tuple[T, float]:
    """``run()``'s result and its best time in seconds over ``repeat`` runs."""
    best = float("inf")
    result: T | None = None
    for _ in range(repeat):
        gc.collect()
        started = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - started)
    assert result is not None
    return result, best


def traced_peak(run: Callable[[], object]) -> int:
    """Bytes Python allocated at the peak of ``run()`` (``tracemalloc``)."""
    gc.collect()
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def own_words(path: Path, block_id: str, day: date) -> list[str]:
    """The words of the block's wording that starts on ``day``, read apart with lxml:
    its ``<version>``'s text, without the notes shown only before ``day``."""
    from lxml import etree

    root = etree.parse(str(path)).getroot()
    stamp = day.strftime("%Y%m%d")
    (version,) = [
        v
        for v in root.iterfind(f".//bloque[@id='{block_id}']/version")
        if v.get("fecha_vigencia") == stamp
    ]
    version = copy.deepcopy(version)
    for quote in list(version.iter("blockquote")):
        until = quote.get("caduca")
        parent = quote.getparent()
        if until is not None and until <= stamp and parent is not None:
            parent.remove(quote)
    return "".join(version.itertext()).split()


def text_words(text: str) -> list[str]:
    """A selected text's words, without image placeholders and cell separators."""
    from langchain_asesoria.boe_xml.model import IMAGE

    return re.sub(r" \| |\|", " ", text.replace(IMAGE, " ")).split()


def chunk(law_text: LawText, tokenization: Tokenization) -> list[Chunk]:
    """The law's text chunked at 256/32 through the reading stage, as every entry point
    chunks a law's XML (``reading.law_xml.law_document``, ``iter_document_chunks``)."""
    from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage
    from langchain_asesoria.reading.law_xml import law_document
    from langchain_asesoria.reading.split import iter_document_chunks

    document = law_document(law_text, LoadedPage("", 1, law_text.law_id))
    return list(
        iter_document_chunks(
            document,
            ChunkMetadata(doc_id=law_text.law_id or "ley"),
            config=ChunkingConfig(256, 32),
            tokenization=tokenization,
        )
    )


def file_rows(path: Path, day: date, tokenization: Tokenization) -> list[str]:
    """The file read and chunked whole (``read_document`` and the chunks, as
    ``asesoria-split FILE.xml --as-of DAY`` and ``--versions all`` do): wall and CPU
    time, chunks, peak Python memory, and chunks whose wording's fields are not their
    section's."""
    from langchain_asesoria import ChunkingConfig, ChunkMetadata, ReadOptions, read_document
    from langchain_asesoria.reading.split import split_document

    rows = [
        "| the file, read and chunked | time | CPU | chunks | peak Python memory | wrong wording |",
        "|---|---|---|---|---|---|",
    ]
    for name, options in (
        (f"--as-of {day}", ReadOptions(as_of=day)),
        ("--versions all", ReadOptions(law_versions="all")),
    ):

        def run(options: ReadOptions = options) -> object:
            document = read_document(path, options)
            metadata = ChunkMetadata(doc_id=path.name)
            config = ChunkingConfig(256, 32)
            return split_document(document, metadata, config=config, tokenization=tokenization)

        cpu = time.process_time()
        done, seconds = timed(run, 1)
        cpu = time.process_time() - cpu
        peak = traced_peak(run)
        sections = done.sections  # type: ignore[attr-defined]
        starts = [section.start for section in sections]
        wrong = 0
        for item in done.chunks:  # type: ignore[attr-defined]
            section = sections[bisect_right(starts, item.start) - 1]
            wrong += dict(item.metadata.section_fields) != dict(section.fields)
        rows.append(
            f"| {name} | {seconds:.2f} s | {cpu:.2f} s | {len(done.chunks):,} | "  # type: ignore[attr-defined]
            f"{peak / 2**20:.0f} MiB | {wrong} |"
        )
    return rows


def law_rows(law: Law, read_s: float) -> list[str]:
    several = sum(len(block.versions) > 1 for block in law.blocks)
    return [
        "| what | value |",
        "|---|---|",
        f"| read (parse, metadata) | {read_s * 1000:.0f} ms |",
        f"| blocks | {len(law.blocks):,} ({several} with several wordings) |",
        f"| wordings | {law.version_count:,} |",
        f"| tables | {law.table_count:,} |",
        f"| images | {law.image_count:,} |",
    ]


def block_rows(path: Path, law: Law, block_id: str) -> list[str]:
    from langchain_asesoria.boe_xml import law_as_of

    block = next(block for block in law.blocks if block.id == block_id)
    rows = [
        f"| {block_id} on its day | wording | characters | words | equal to its own text |",
        "|---|---|---|---|---|",
    ]
    for day in sorted({version.valid_from for version in block.versions}):
        law_text = law_as_of(law, day)
        (section,) = [s for s in law_text.sections if s.block_id == block_id]
        piece = law_text.text[section.span.start : section.span.end]
        words = text_words(piece)
        equal = "yes" if words == own_words(path, block_id, day) else "**no**"
        rows.append(f"| {day} | {section.version_id} | {len(piece):,} | {len(words):,} | {equal} |")
    return rows


def chunk_rows(runs: Sequence[tuple[str, LawText, float]], tokenization: Tokenization) -> list[str]:
    rows = [
        "| text | select | sections | characters | chunks | chunk time |"
        " peak Python memory | chunks in one section |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, law_text, select_s in runs:
        run = partial(chunk, law_text, tokenization)
        chunks, chunk_s = timed(run, 1)
        peak = traced_peak(run)
        starts = [s.span.start for s in law_text.sections]
        inside = sum(
            (i := bisect_right(starts, c.start) - 1) >= 0 and c.end <= law_text.sections[i].span.end
            for c in chunks
        )
        rows.append(
            f"| {name} | {select_s * 1000:.0f} ms | {len(law_text.sections):,} | "
            f"{len(law_text.text):,} | {len(chunks):,} | {chunk_s:.2f} s | "
            f"{peak / 2**20:.0f} MiB | {inside:,} of {len(chunks):,} |"
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="the law's /texto answer (ID.xml)")
    parser.add_argument("--as-of", type=date.fromisoformat, default=date.today())
    parser.add_argument("--block", default="a48", help="the block whose wordings are compared")
    parser.add_argument("--no-chunks", action="store_true", help="skip chunking (no tokenizer)")
    args = parser.parse_args(argv)

    from langchain_asesoria.boe_xml import law_all_versions, law_as_of, read_law_file

    law, read_s = timed(lambda: read_law_file(args.path))
    on_day, day_s = timed(lambda: law_as_of(law, args.as_of))
    every, all_s = timed(lambda: law_all_versions(law))
    print(f"## {law.law_id or args.path.name}\n")
    print("\n".join(law_rows(law, read_s)), end="\n\n")
    print(
        f"On {args.as_of}: {len(on_day.sections):,} sections, "
        f"{len(on_day.report.left_out)} blocks left out, "
        f"{len(on_day.report.expired_notes)} notes no longer shown.\n"
    )
    if any(block.id == args.block for block in law.blocks):
        print("\n".join(block_rows(args.path, law, args.block)), end="\n\n")
    if not args.no_chunks:
        from langchain_asesoria import load_tokenization

        tokenization = load_tokenization(model=MODEL)
        runs = [(f"on {args.as_of}", on_day, day_s), ("every wording", every, all_s)]
        print("\n".join(chunk_rows(runs, tokenization)), end="\n\n")
        print("\n".join(file_rows(args.path, args.as_of, tokenization)), end="\n\n")
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Peak memory of the process (RSS, tokenizer included): {peak_rss:.0f} MiB.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
