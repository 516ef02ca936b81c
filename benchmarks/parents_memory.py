"""``asesoria-split --parents`` on hostile input: one long text without sections.

A text without sections is one unit, and every chunk's parent is a window of it: the
worst case for parents. This builds such texts of each size (Spanish paragraphs of the
corpus's laws, their headings left out, repeated up to the size; cached in
``benchmarks/.cache/``), runs the command line on each with ``--jobs 1`` in a fresh
process, without and then with ``--parents``, and prints wall seconds and peak RSS of
both runs and their ratios (peak RSS: ``ru_maxrss`` of the run, as ``wait4`` reports it),
and the CPU seconds of both (user and system, every thread: what the run cost, much less
dependent than wall time on what else the machine runs).

    python -m benchmarks.parents_memory                         # 3, 10 and 30 MB
    python -m benchmarks.parents_memory --sizes 3 --repeat 3    # best of 3, interleaved

Timings are not tests: nothing asserts a speed. Each run also checks that the text was
read without sections (every chunk's ``section_path`` empty) and that both runs wrote
the same chunks (the run with parents adds each chunk's ``parent_id``, nothing else).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from langchain_asesoria.records import PARENT_ID, SECTION_PATH
from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL

__all__ = ["Run", "hostile_text", "main", "run_split"]

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "benchmarks" / ".cache"
MB = 1_000_000

#: A paragraph that reading could take for a heading or a legal unit's title.
_HEADING = re.compile(
    r"^(#|\*\*|[A-ZÁÉÍÓÚÑ ]{4,}$|(art[íi]culo|cap[íi]tulo|t[íi]tulo|secci[óo]n|libro|anexo|"
    r"disposici[óo]n|pre[áa]mbulo|pr[óo]logo|exposici[óo]n)\b|[\dIVXLC]+[.º)]? )",
    re.IGNORECASE,
)


def _paragraphs(corpus: Path) -> list[str]:
    """The corpus laws' body paragraphs: no headings, no lists, no tables."""
    found: list[str] = []
    for law in sorted(corpus.glob("*.md")):
        for block in re.split(r"\n\s*\n", law.read_text(encoding="utf-8")):
            paragraph = " ".join(block.split())
            if len(paragraph) >= 200 and not _HEADING.match(paragraph) and "|" not in paragraph:
                found.append(paragraph)
    return found


def hostile_text(corpus: Path, size: int) -> Path:
    """A ``.txt`` of ``size`` characters or a paragraph more: the corpus's paragraphs,
    one after the other and then again, separated by blank lines (cached)."""
    path = CACHE / f"parents-hostile-{size}.txt"
    if path.exists():
        return path
    paragraphs = _paragraphs(corpus)
    parts: list[str] = []
    length = 0
    while length < size:
        paragraph = paragraphs[len(parts) % len(paragraphs)]
        parts.append(paragraph)
        length += len(paragraph) + 2
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    return path


@dataclass(frozen=True, slots=True)
class Run:
    """One ``asesoria-split FILE --jobs 1`` run."""

    seconds: float
    cpu_seconds: float
    peak_mib: float
    chunks: tuple[str, ...]
    sectioned: int


def _chunk_lines(output: Path) -> Iterator[tuple[str, bool]]:
    """Each chunk line without its ``parent_id``, and whether it has a section path."""
    with output.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            record.pop(PARENT_ID, None)
            yield json.dumps(record, sort_keys=True), bool(record.get(SECTION_PATH))


def run_split(text: Path, cli_args: list[str], parents: bool) -> Run:
    """One measured run in a fresh process, its output in a scratch folder."""
    with tempfile.TemporaryDirectory(prefix="parents-memory-") as scratch:
        output = Path(scratch) / "chunks.jsonl"
        command = [sys.executable, "-m", "langchain_asesoria", str(text), "--jobs", "1"]
        command += [*cli_args, "-o", str(output), "-q"]
        if parents:
            command += ["--parents", str(Path(scratch) / "parents.jsonl")]
        environment = {**os.environ, "PYTHONPATH": str(ROOT)}
        started = time.perf_counter()
        process = subprocess.Popen(command, env=environment, cwd=ROOT)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(command)} failed")
        lines = list(_chunk_lines(output))
    return Run(
        seconds,
        usage.ru_utime + usage.ru_stime,
        usage.ru_maxrss / 1024,
        tuple(line for line, _ in lines),
        sum(sectioned for _, sectioned in lines),
    )


def _best(runs: list[Run]) -> Run:
    """The least disturbed of a variant's runs (the fastest) for its time, with the
    least CPU and memory any of them took (the same work each time)."""
    fastest = min(runs, key=lambda run: run.seconds)
    return Run(
        fastest.seconds,
        min(run.cpu_seconds for run in runs),
        min(run.peak_mib for run in runs),
        fastest.chunks,
        fastest.sectioned,
    )


def _row(size: float, without: Run, with_parents: Run) -> str:
    def pair(before: float, after: float, digits: int) -> str:
        return f"{before:.{digits}f} | {after:.{digits}f} | {after / before:.2f}x"

    return (
        f"| {size:g} MB | {pair(without.seconds, with_parents.seconds, 2)} "
        f"| {pair(without.peak_mib, with_parents.peak_mib, 0)} "
        f"| {pair(without.cpu_seconds, with_parents.cpu_seconds, 2)} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[3, 10, 30], help="in MB")
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus" / "markdown")
    parser.add_argument("--model", default=OFFLINE_EMBEDDING_MODEL)
    parser.add_argument("--preset", default="256/32")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each, interleaved")
    args = parser.parse_args(argv)
    cli_args = ["--model", args.model, "--preset", args.preset]
    rows = [
        "| size | seconds without | seconds with | ratio | peak MiB without "
        "| peak MiB with | ratio | CPU s without | CPU s with | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for size in args.sizes:
        text = hostile_text(args.corpus, int(size * MB))
        runs = [
            (run_split(text, cli_args, parents=False), run_split(text, cli_args, parents=True))
            for _ in range(args.repeat)
        ]
        without, with_parents = _best([a for a, _ in runs]), _best([b for _, b in runs])
        same = "yes" if without.chunks == with_parents.chunks else "NO"
        print(
            f"{text.name}: {len(without.chunks):,} chunks, {without.sectioned} in a section; "
            f"same chunks with --parents: {same}",
            file=sys.stderr,
        )
        rows.append(_row(size, without, with_parents))
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"asesoria-split FILE --jobs 1 --preset {args.preset} --model {args.model}")
    print(f"best of {args.repeat}; load average at the end: {load}")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
