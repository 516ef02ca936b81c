"""The furniture rule on thousands of generated PDFs: body lines lost, furniture kept.

Hypothesis draws layouts (``tests/pdf_layouts.py``, the tests' generator:
headers constant, on two lines, alternating or running with the section, or a step and
a half above the body; footers; page numbers in each usual form, roman too; article
titles at a page's first line; tables whose header repeats at the top (with a wide gap
under it or not) or bottom of pages; rows of figures at the edges; two columns; rotated
and blank pages; a note turned up the margin; pages without their header or footer, a
body line at its height on some), renders each with fpdf2, reads it as
``asesoria-split`` does and chunks it. No example database, so each run draws fresh
layouts (``--run N`` draws the same ones again for the same ``N``)::

    python -m benchmarks.furniture --layouts 2500 --run 1

Prints one Markdown row per kind of layout and a total; exits 1 when a body line was
lost or a furniture line kept, listing the first few.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import hypothesis
from hypothesis import HealthCheck, given, settings

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.pdf_layouts import Layout, Outcome, check_layout, layouts  # noqa: E402

#: Rows of the table: a name and what puts a layout in that row.
ROWS: tuple[tuple[str, Callable[[Layout], bool]], ...] = (
    (
        "no furniture",
        lambda layout: layout.header == "none" and not layout.footer and layout.number_form is None,
    ),
    ("constant header", lambda layout: layout.header == "constant"),
    ("two-line header", lambda layout: layout.header == "two-lines"),
    ("odd/even headers", lambda layout: layout.header == "alternate"),
    ("running section titles", lambda layout: layout.header == "running"),
    ("footer", lambda layout: layout.footer),
    (
        "page number at the top",
        lambda layout: layout.number_form is not None and layout.number_at == "top",
    ),
    (
        "page number at the bottom",
        lambda layout: layout.number_form is not None and layout.number_at == "bottom",
    ),
    ("table header repeated at the top", lambda layout: layout.table == "top"),
    ("table header repeated at the bottom", lambda layout: layout.table == "bottom"),
    ("rows of figures at the bottom edge", lambda layout: layout.figures),
    ("article title at a page's first line", lambda layout: layout.articles),
    ("two columns", lambda layout: layout.columns == 2),
    ("rotated pages", lambda layout: bool(layout.rotated)),
    ("a note turned up the margin", lambda layout: bool(layout.turned_note)),
    ("blank pages", lambda layout: bool(layout.blank)),
    ("furniture drawn after the body", lambda layout: layout.furniture_last),
    ("pages without their header", lambda layout: bool(layout.bare_top)),
    ("pages without their footer", lambda layout: bool(layout.bare_bottom)),
    ("a body line at the header's height", lambda layout: bool(layout.at_top)),
    ("a body line at the footer's height", lambda layout: bool(layout.at_bottom)),
    (
        "header a step and a half above the body",
        lambda layout: layout.header_close and layout.header != "none",
    ),
    ("a wide gap under the repeated table header", lambda layout: layout.table_gap > 0),
    (
        "roman page numbers",
        lambda layout: layout.number_form is not None and "roman" in layout.number_form,
    ),
)


class Tally:
    """Layouts, lines and failures of one row."""

    def __init__(self) -> None:
        self.layouts = 0
        self.pages = 0
        self.body = 0
        self.furniture = 0
        self.lost = 0
        self.kept = 0

    def add(self, layout: Layout, outcome: Outcome) -> None:
        self.layouts += 1
        self.pages += layout.pages
        self.body += outcome.body
        self.furniture += outcome.furniture
        self.lost += len(outcome.body_lost)
        self.kept += len(outcome.furniture_kept)

    def cells(self, name: str) -> str:
        return (
            f"| {name} | {self.layouts} | {self.pages} | {self.body} | {self.furniture} "
            f"| {self.lost} | {self.kept} |"
        )


def run(count: int, number: int | None) -> tuple[dict[str, Tally], list[str]]:
    tallies = {name: Tally() for name, _ in ROWS} | {"total": Tally()}
    failures: list[str] = []

    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(layouts())
    def one(layout: Layout) -> None:
        outcome = check_layout(layout)
        for name, belongs in ROWS:
            if belongs(layout):
                tallies[name].add(layout, outcome)
        tallies["total"].add(layout, outcome)
        if outcome.body_lost or outcome.furniture_kept:
            failures.append(f"{layout}: lost {outcome.body_lost}, kept {outcome.furniture_kept}")

    if number is not None:  # the same number, the same layouts
        one = hypothesis.seed(number)(one)
    one()
    return tallies, failures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layouts", type=int, default=2_000)
    parser.add_argument(
        "--run", type=int, default=None, help="a run number: the same one draws the same layouts"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    tallies, failures = run(args.layouts, args.run)
    print(
        "| layouts with | layouts | pages | body lines | furniture lines | body lines lost "
        "| furniture lines kept |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, tally in tallies.items():
        print(tally.cells(f"**{name}**" if name == "total" else name))
    seconds = time.perf_counter() - started
    print(f"\n{tallies['total'].layouts} layouts in {seconds:.0f} s")
    for failure in failures[:5]:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
