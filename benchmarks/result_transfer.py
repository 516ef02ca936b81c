"""What handing a file's lines back costs ``asesoria-split --jobs N``, simulated.

Each worker of the CLI sends a file's JSON Lines back to the caller through the process
pool's result pipe, in pieces of the pipe's 64 KiB, waiting for the caller at each. This
runs N worker processes that each spend a fixed CPU time per "file" and return a result
of a fixed size, the caller appending every result to an output file in order, in two
ways: ``pipe`` (the bytes through the pool, as the CLI does) and ``scratch`` (the worker
writes a scratch file and returns its path; the caller copies it into the output in the
kernel, ``os.sendfile``, and deletes it). It prints each way's wall time against the
ideal (the work divided by N), the caller's CPU and the workers'. The defaults are es/'s
averages: 173 KB of lines and 66 ms of one core per law.

    python -m benchmarks.result_transfer --files 300 --repeat 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

__all__ = ["main", "run"]

WAYS = ("pipe", "scratch")


def _busy(seconds: float) -> None:
    started = time.process_time()
    while time.process_time() - started < seconds:
        pass


def _as_bytes(task: tuple[float, int]) -> bytes:
    seconds, size = task
    _busy(seconds)
    return b"x" * size


def _as_file(task: tuple[float, int, str, int]) -> str:
    seconds, size, folder, index = task
    _busy(seconds)
    path = os.path.join(folder, f"{index}.jsonl")
    with open(path, "wb") as file:
        file.write(b"x" * size)
    return path


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(way: str, files: int, size: int, seconds: float, workers: int) -> dict[str, float]:
    """One run of ``way``: wall time, the caller's CPU and the workers' (seconds)."""
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as folder, open(Path(folder) / "out", "wb") as out:
        children, started, caller = _children_cpu(), time.perf_counter(), time.process_time()
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            if way == "pipe":
                for lines in pool.map(_as_bytes, [(seconds, size)] * files):
                    out.write(lines)
            else:
                tasks = [(seconds, size, folder, index) for index in range(files)]
                for path in pool.map(_as_file, tasks):
                    out.flush()
                    with open(path, "rb") as source:
                        offset = 0
                        while offset < size:
                            sent = os.sendfile(out.fileno(), source.fileno(), offset, size - offset)
                            if sent == 0:
                                raise RuntimeError(f"{path} ended {size - offset} bytes early")
                            offset += sent
                    os.unlink(path)
        times = {
            "wall": time.perf_counter() - started,
            "caller": time.process_time() - caller,
            "workers": _children_cpu() - children,
        }
        out.flush()
        if os.fstat(out.fileno()).st_size != files * size:
            raise RuntimeError(f"{way}: the output holds the wrong number of bytes")
        return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--bytes", type=int, default=173_000, help="lines per file")
    parser.add_argument("--seconds", type=float, default=0.066, help="CPU work per file")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2, help="runs of each way, alternated")
    args = parser.parse_args(argv)
    ideal = args.files * args.seconds / args.workers
    print(f"{args.files} files of {args.bytes:,} bytes, {args.seconds * 1000:.0f} ms each, "
          f"{args.workers} workers: ideal {ideal:.2f} s")  # fmt: skip
    print("| way | wall s | vs ideal | caller CPU s | workers CPU s |")
    print("|---|---:|---:|---:|---:|")
    for _ in range(args.repeat):
        for way in WAYS:
            got = run(way, args.files, args.bytes, args.seconds, args.workers)
            print(f"| {way} | {got['wall']:.2f} | {got['wall'] / ideal:.3f}x | "
                  f"{got['caller']:.2f} | {got['workers']:.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()
