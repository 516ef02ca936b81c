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


def headings_page(n: int) -> str:
    """``n`` headings, each with a paragraph of body."""
    parts = "".join(f"<h2>Artículo {i}</h2><p>Texto del artículo {i}.</p>" for i in range(n))
    return f"<html><body><main>{parts}</main></body></html>"


def outside_page(n: int) -> str:
    """``n`` blocks beside ``<main>`` (each a site block to report), and a short main."""
    beside = "".join(f"<div>Bloque {i} del sitio</div>" for i in range(n))
    return f"<html><body>{beside}<main><p>Contenido.</p></main>{beside}</body></html>"


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
