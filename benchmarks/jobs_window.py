"""How the bound on files in flight (``parallel.Window``) idles workers, replayed.

``asesoria-split --jobs N`` writes results in input order, so files split behind a long
one wait for it, and a full window stops the other workers. This replays a folder's
files in input order on N simulated workers, a file taking a time proportional to its
size (plus a fixed 10 ms), and prints the run's time against the ideal (the total
divided by N) for a few windows: no machine noise, only the schedule.

    python -m benchmarks.jobs_window /work/data/legalize/es --workers 2
"""

from __future__ import annotations

import argparse
from pathlib import Path

from langchain_asesoria.cli.workers import FILE_WEIGHT_FLOOR, window_of
from langchain_asesoria.parallel import Window

__all__ = ["main", "replay"]

SECONDS_PER_BYTE = 1e-6  # about --jobs 1's speed on the Spanish laws at 256/32
SECONDS_PER_FILE = 0.01


def replay(sizes: list[int], workers: int, window: Window) -> float:
    """The time the last file is written: each file is submitted once the window has
    room (``parallel.in_input_order``'s rule), started on the first free worker, and written
    once it and every earlier file are done."""
    free = [0.0] * workers
    written: list[float] = []
    weights = [max(size, FILE_WEIGHT_FLOOR) for size in sizes]
    head = in_flight = 0  # the first file not yet written; the weight in flight
    last_done = 0.0
    for index, size in enumerate(sizes):
        submitted = 0.0
        while index - head >= window.items and in_flight >= window.weight:
            submitted = max(submitted, written[head])
            in_flight -= weights[head]
            head += 1
        in_flight += weights[index]
        worker = min(range(workers), key=free.__getitem__)
        free[worker] = max(free[worker], submitted) + size * SECONDS_PER_BYTE + SECONDS_PER_FILE
        last_done = max(last_done, free[worker])
        written.append(last_done)
    return written[-1] if written else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    paths = sorted(path for path in args.folder.iterdir() if path.is_file())
    sizes = [path.stat().st_size for path in paths]
    ideal = (sum(sizes) * SECONDS_PER_BYTE + len(sizes) * SECONDS_PER_FILE) / args.workers
    windows = {
        "4 files a worker (before)": Window(4 * args.workers),
        "16 files a worker": Window(16 * args.workers),
        "window_of (2 files, 2 MiB a worker)": window_of(args.workers),
    }
    print(f"{len(sizes)} files, {sum(sizes) / 1e6:.0f} MB, {args.workers} workers")
    print("| window | time / ideal |\n|---|---|")
    for name, window in windows.items():
        print(f"| {name} | {replay(sizes, args.workers, window) / ideal:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
