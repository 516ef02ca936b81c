"""``asesoria-split`` over a folder with ``--jobs 1`` and with the default (every core).

Runs the command line as a user does (a fresh ``python -m langchain_asesoria`` process a
run, output to a file) and prints, per run: wall time, its ratio to the first run, peak
RSS of the whole process tree (the caller and its workers, summed) and of its largest
single process (both sampled from /proc every 0.1 s; Linux only), CPU seconds of the
whole run (the caller and its workers, user + system) and of the caller alone (its own
threads, sampled from /proc), chunks and chunks/s; and whether every run wrote the same
bytes. CPU seconds depend much less than wall times on what else the machine runs: on
a shared machine, compare those of runs interleaved at a like load.

    python -m benchmarks.cli_jobs /work/data/legalize/es --preset 256/32
    python -m benchmarks.cli_jobs FOLDER --jobs 1 2 4 --json benchmarks/results/cli_jobs.json
    python -m benchmarks.cli_jobs FOLDER --parents     # with --parents (to a scratch file)

Timings are not tests: nothing asserts a speed. On a machine others are using, the
numbers are noisy; the table prints the load average before and after each run.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from langchain_asesoria.parallel import default_workers
from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL

__all__ = ["Run", "main", "run_cli"]

ROOT = Path(__file__).resolve().parent.parent
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024 if hasattr(os, "sysconf") else 4


@dataclass(frozen=True, slots=True)
class Run:
    """One run of the command line."""

    jobs: int
    wall_s: float
    tree_peak_rss_mb: float
    process_peak_rss_mb: float
    cpu_s: float
    caller_cpu_s: float
    chunks: int
    output_sha256: str
    exit_code: int
    load_before: str
    load_after: str

    @property
    def chunks_per_s(self) -> float:
        return self.chunks / self.wall_s if self.wall_s else 0.0


def _cpu_s(pid: int) -> float:
    """The CPU seconds (user + system) ``pid`` itself has used so far (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _tree_rss_kb(root: int) -> tuple[int, int]:
    """The resident memory of ``root`` and every process below it (from /proc), summed,
    and of the largest of them."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        rss[pid] = int(fields[21]) * PAGE_KB
    total = largest = 0
    for pid, size in rss.items():
        walker = pid
        while walker not in (0, 1) and walker != root:
            walker = parents.get(walker, 0)
        if walker == root:
            total += size
            largest = max(largest, size)
    return total, largest


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def run_cli(
    folder: Path, jobs: int, cli_args: list[str], output: Path, parents: Path | None = None
) -> Run:
    """One ``asesoria-split FOLDER --jobs JOBS -o OUTPUT [--parents PARENTS]`` run,
    measured; its ``output_sha256`` is of the chunks' bytes, then the parents'.

    The run's CPU seconds are those ``wait4`` reports: the caller's and those of the
    workers it reaped. The caller's own are its last sample before it ended.
    """
    command = [sys.executable, "-m", "langchain_asesoria", str(folder.resolve())]
    command += ["--jobs", str(jobs)]
    if parents is not None:
        command += ["--parents", str(parents)]
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    before = _load()
    started = time.perf_counter()
    process = subprocess.Popen(
        [*command, *cli_args, "-o", str(output), "-q"], env=environment, cwd=ROOT
    )
    peak = largest = 0
    caller_cpu = 0.0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak, largest, caller_cpu
        while not done.is_set():
            tree, one = _tree_rss_kb(process.pid)
            peak, largest = max(peak, tree), max(largest, one)
            with contextlib.suppress(OSError, IndexError):  # ended between two samples
                caller_cpu = _cpu_s(process.pid)
            done.wait(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    if Path("/proc/self/stat").exists():
        sampler.start()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    code = process.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    done.set()
    if sampler.is_alive():
        sampler.join()
    digest = hashlib.sha256()
    chunks = 0
    if output.exists():
        with output.open("rb") as lines:
            for line in lines:
                digest.update(line)
                chunks += 1
    if parents is not None and parents.exists():
        digest.update(parents.read_bytes())
    return Run(
        jobs,
        wall,
        peak / 1024,
        largest / 1024,
        cpu,
        caller_cpu,
        chunks,
        digest.hexdigest(),
        code,
        before,
        _load(),
    )


def _table(runs: list[Run]) -> str:
    first = runs[0].wall_s
    rows = [
        "| `--jobs` | wall s | vs first | CPU s | caller CPU s | peak RSS, tree MB "
        "| peak RSS, largest process MB | chunks | chunks/s | load before -> after |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        rows.append(
            f"| {run.jobs} | {run.wall_s:.1f} | {run.wall_s / first:.2f}x "
            f"| {run.cpu_s:.1f} | {run.caller_cpu_s:.1f}"
            f" | {run.tree_peak_rss_mb:.0f} | {run.process_peak_rss_mb:.0f} | {run.chunks:,} "
            f"| {run.chunks_per_s:,.0f} | {run.load_before} -> {run.load_after} |"
        )
    same = len({run.output_sha256 for run in runs}) == 1
    rows.append("")
    rows.append(f"same output bytes in every run: {'yes' if same else 'NO'}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument(
        "--jobs",
        nargs="+",
        default=["1", "default"],
        help="the --jobs of each run ('default': the cores this process may use)",
    )
    parser.add_argument("--model", default=OFFLINE_EMBEDDING_MODEL)
    parser.add_argument("--preset", default="256/32")
    parser.add_argument("--json", type=Path, help="also write the runs here")
    parser.add_argument(
        "--parents", action="store_true", help="also write parents (to a scratch file)"
    )
    args = parser.parse_args(argv)
    cli_args = ["--model", args.model, "--preset", args.preset]
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="cli-jobs-") as scratch:
        for index, jobs in enumerate(args.jobs):
            count = default_workers() if jobs == "default" else int(jobs)
            output = Path(scratch) / f"run-{index}.jsonl"
            parents = Path(scratch) / f"parents-{index}.jsonl" if args.parents else None
            run = run_cli(args.folder, count, cli_args, output, parents)
            print(
                f"--jobs {count}: {run.wall_s:.1f} s, exit {run.exit_code}, {run.chunks} chunks",
                file=sys.stderr,
            )
            runs.append(run)
    print(f"{args.folder} at {args.preset}, {args.model}, {default_workers()} usable cores")
    print(_table(runs))
    if args.json is not None:
        rows = [{**asdict(run), "chunks_per_s": run.chunks_per_s} for run in runs]
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0 if all(run.exit_code == 0 for run in runs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
