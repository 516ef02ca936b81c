"""The CLI's CPU time at another commit and at this tree, runs alternated: same load.

``asesoria-split`` runs as a user runs it (a fresh process, ``--jobs 1``, MiniLM at
256/32, output to a scratch file) on ``REF``'s package (``git archive``) and on this
checkout's, the order alternating each round; each run's CPU seconds (user + system of
the child process, which depend much less than wall time on what else the machine
runs) are taken from ``getrusage``. Prints one row per input: best and median per side
and their ratios, and whether both sides wrote the same bytes::

    python -m benchmarks.cli_versus a1c06d2 ../shared/corpus --repeat 5
    python -m benchmarks.cli_versus a1c06d2 --repeat 5 \\
        $(ls /work/data/legalize/es-*/*.md | awk 'NR % 100 == 0')

Several paths after ``REF`` are one input (the CLI reads them in one run). Timings are
not tests: nothing asserts a speed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import tempfile
from collections.abc import Sequence
from pathlib import Path

from benchmarks.same_output import ROOT, export, split


def cpu_run(root: Path, inputs: Sequence[Path], out: Path) -> tuple[float, str]:
    """CPU seconds of one CLI run of the package under ``root``, and its output's digest."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    split(root, inputs, ["--preset", "256/32", "--jobs", "1"], out)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, hashlib.sha256(out.read_bytes()).hexdigest()[:12]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref", help="the commit to compare this checkout with")
    parser.add_argument("inputs", type=Path, nargs="+", help="files or folders, one run")
    parser.add_argument("--repeat", type=int, default=5, help="runs per side")
    args = parser.parse_args(argv)
    inputs = [path.resolve() for path in args.inputs]
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        sides = {"base": export(args.ref, work / "base-package"), "head": ROOT}
        times: dict[str, list[float]] = {"base": [], "head": []}
        digests: dict[str, set[str]] = {"base": set(), "head": set()}
        for round_ in range(args.repeat):
            order = list(sides) if round_ % 2 == 0 else list(reversed(sides))
            for side in order:
                seconds, digest = cpu_run(sides[side], inputs, work / f"{side}.jsonl")
                times[side].append(seconds)
                digests[side].add(digest)
        best = {side: min(values) for side, values in times.items()}
        median = {side: statistics.median(values) for side, values in times.items()}
        load = os.getloadavg()[0]
    print(
        "| input | runs | base best | head best | best ratio | base median | head median |"
        " median ratio | same output | load |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    name = inputs[0].name if len(inputs) == 1 else f"{len(inputs)} files"
    print(
        f"| {name} | {args.repeat} | {best['base']:.2f} s | {best['head']:.2f} s |"
        f" {best['head'] / best['base']:.3f} | {median['base']:.2f} s |"
        f" {median['head']:.2f} s | {median['head'] / median['base']:.3f} |"
        f" {'yes' if digests['base'] == digests['head'] else 'no'} | {load:.1f} |"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
