"""The benchmark scripts that the package's tests used to run: each runs end to end and
prints its table (no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "corpus" / "html").glob("*.html"))


def test_the_furniture_benchmark_prints_its_table() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.furniture", "--layouts", "12", "--run", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| **total** |")]
    [total] = rows
    assert total.endswith("| 0 | 0 |")


def test_the_extractor_comparison_runs_on_the_boe_pages() -> None:
    """``benchmarks/html_extractors.py`` (its numbers are in benchmarks/README.md); the
    extractors that are not installed are skipped with a note."""
    script = ROOT / "benchmarks" / "html_extractors.py"
    run = subprocess.run(
        [sys.executable, str(script), *map(str, PAGES), "--repeat", "1"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    ours = [line for line in run.stdout.splitlines() if "lxml + main content (ours)" in line]
    assert len(ours) == len(PAGES)
    assert all(
        "| yes | 221/221 | 19/19 | 0 " in line or "| yes | 379/379 | 25/25 | 0 " in line
        for line in ours
    )
