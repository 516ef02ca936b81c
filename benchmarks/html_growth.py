"""How web-page reading grows with the page: headings, and blocks outside ``<main>``.

Run: ``python -m benchmarks.html_growth [--sizes 5000 10000 20000 40000]``. Each row times
``extract_html`` (best of ``--repeat`` runs, one process) on two generated pages of ``n``
parts: ``n`` ``<h2>`` headings each followed by a paragraph, and ``n / 5`` sibling blocks
outside ``<main>`` (site chrome to list). Reading is linear when the time per part stays
flat as ``n`` doubles.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

from langchain_asesoria.structure.html import extract_html
from tests.html_pages import headings_page, outside_page


def _best(markup: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        extract_html(markup)
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5000, 10000, 20000, 40000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    cases: list[tuple[str, Callable[[int], str], int]] = [
        ("headings", headings_page, 1),
        ("outside <main>", outside_page, 5),
    ]
    print("| page | parts | seconds | µs per part |")
    print("|---|---:|---:|---:|")
    for name, build, divisor in cases:
        for size in args.sizes:
            parts = size // divisor
            seconds = _best(build(parts), args.repeat)
            print(f"| {name} | {parts:,} | {seconds:.3f} | {seconds / parts * 1e6:.1f} |")


if __name__ == "__main__":
    main()
