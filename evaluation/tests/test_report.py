"""The report: Markdown tables and verdict, JSON record, PNG plot; the comparison rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from langchain_asesoria_eval import (
    Evaluation,
    parse_questions,
    rank,
    render_markdown,
    verdict,
)
from langchain_asesoria_eval.comparison import paired
from langchain_asesoria_eval.report import (
    HAND_WRITTEN_MARKER,
    results_record,
    write_report,
)
from langchain_asesoria_eval.runner import (
    CandidateResult,
    QuestionOutcome,
    ResultRef,
    RunResult,
)

HIT, MISS = (frozenset({0}),), (frozenset[int](),)


def outcomes(pattern: str) -> tuple[QuestionOutcome, ...]:
    """``pattern[i]`` is ``"1"`` when question ``i`` is found at rank 1, ``"2"`` at rank 2."""
    table = {"1": (*HIT, *MISS), "2": (*MISS, *HIT), "0": (*MISS, *MISS)}
    refs = (ResultRef("d", 0, 10, 1.0), ResultRef("d", 20, 30, 0.5))
    found = tuple(QuestionOutcome(f"q{i}", False, 1, table[c], refs) for i, c in enumerate(pattern))
    no_source = QuestionOutcome("n", True, 0, (*MISS, *MISS), (ResultRef("d", 0, 10, 0.2),))
    return (*found, no_source)


def candidate(
    label: str, pattern: str, chunker: str = "asesoria", tokens: int = 100
) -> CandidateResult:
    size, overlap = label.split()[-1].split("/")
    return CandidateResult(
        label, chunker, int(size), int(overlap), 10, tokens, 3.5, 0, outcomes(pattern)
    )


RUN = RunResult(
    setup="fake",
    retriever="keywords",
    model="fake-model",
    revision="tokenizer sha256:0123",
    max_input_tokens=256,
    candidates=(
        candidate("asesoria 128/16", "1120"),  # MRR (1+1+.5+0)/4 = .625; hit@1 .5, hit@2 .75
        candidate("asesoria 256/32", "1100"),  # MRR .5
        candidate("semchunk 256/32", "2222", chunker="semchunk", tokens=90),  # MRR .5
    ),
)
QUESTIONS = parse_questions(
    [
        f'{{"id": "q{i}", "question": "?", "relevant": [{{"doc_id": "d", "answer": "x"}}]}}'
        for i in range(4)
    ]
    + ['{"id": "n", "question": "?", "no_source": true}']
)
EVALUATION = Evaluation(
    documents=(("d", 1000, 3),),
    questions=QUESTIONS,
    ks=(1, 2),
    depth=2,
    min_overlap=0.5,
    runs=(RUN,),
    skipped=(("e5", "no network"),),
)


def test_rank_orders_by_mrr_then_mean_hit_then_tokens() -> None:
    ranked = rank(RUN, (1, 2), 2)
    # 128/16 has the best MRR; semchunk and 256/32 tie on MRR and mean hit@k (0.5), and
    # semchunk stores fewer tokens.
    assert [r.result.label for r in ranked] == [
        "asesoria 128/16",
        "semchunk 256/32",
        "asesoria 256/32",
    ]


def test_verdict_states_intervals_pairs_and_spread() -> None:
    ranked = rank(RUN, (1, 2), 2)
    v = verdict(ranked, (1, 2))
    assert v.winner.result.label == "asesoria 128/16"
    assert v.questions == 4
    assert [k for k, _, _ in v.intervals] == [1, 2]
    # 2 of 4 at k=1: Wilson (0.1500, 0.8500).
    assert v.intervals[0][1:] == pytest.approx((0.1500, 0.8500), abs=5e-4)
    # Against semchunk ("2222"): at k=1 winner finds q0, q1 alone; at k=2 semchunk finds q3 alone.
    assert [(p.k, p.only_first, p.only_second) for p in v.versus_runner_up] == [
        (1, 2, 0),
        (2, 0, 1),
    ]
    assert v.leads_at == (1,)
    assert v.trails_at == ((2, "semchunk 256/32"),)


def test_paired_ignores_no_source_questions() -> None:
    a, b = RUN.candidates[0], RUN.candidates[1]
    assert paired(a, b, 2) == paired(a, b, 2)
    result = paired(a, b, 2)
    assert (result.only_first, result.only_second) == (1, 0)  # q2 found at rank 2 only by a
    assert result.p_value == 1.0


def test_markdown_report_has_the_command_tables_verdict_and_skips() -> None:
    text = render_markdown(EVALUATION, "asesoria-eval docs --questions q.jsonl")
    assert "asesoria-eval docs --questions q.jsonl" in text
    assert "| configuration | hit@1 | hit@2 | recall@1 | recall@2 | MRR |" in text
    assert "| `asesoria 128/16` | 50.0 | 75.0 | 50.0 | 75.0 | 0.625 |" in text
    assert "near-dup@2" in text
    assert "**Winner on this corpus: `asesoria 128/16`**" in text
    assert (
        "4 answerable questions with 4 annotated passages, and 1 questions with no source" in text
    )
    assert "- `e5`: no network" in text
    assert "tokenizer sha256:0123" in text
    assert "![hit@k" in text


def test_results_record_is_json_with_first_relevant_ranks() -> None:
    record = json.loads(json.dumps(results_record(EVALUATION)))
    first = record["runs"][0]["candidates"][0]
    assert first["label"] == "asesoria 128/16"
    assert first["first_relevant_rank"] == {"q0": 1, "q1": 1, "q2": 2, "q3": None}
    assert first["hit_at"] == {"1": 0.5, "2": 0.75}


def test_write_report_writes_markdown_json_and_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    written = write_report(EVALUATION, tmp_path / "out", "asesoria-eval x")
    assert [p.name for p in written] == ["report.md", "results.json", "hitk.png"]
    assert (tmp_path / "out" / "hitk.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    again = write_report(EVALUATION, tmp_path / "again", "asesoria-eval x", plot=False)
    assert [p.name for p in again] == ["report.md", "results.json"]
    assert (tmp_path / "out" / "report.md").read_text() == (
        tmp_path / "again" / "report.md"
    ).read_text()


def test_a_rewritten_report_keeps_what_follows_the_marker(tmp_path: Path) -> None:
    written = write_report(EVALUATION, tmp_path, "asesoria-eval first", plot=False)
    report = written[0]
    generated = report.read_text(encoding="utf-8")
    assert generated.endswith(HAND_WRITTEN_MARKER + "\n")
    notes = "\n## Notes\n\nWritten by hand, with its own command.\n"
    stale = generated.replace("asesoria-eval first", "asesoria-eval stale")
    report.write_text(stale + notes, encoding="utf-8")
    write_report(EVALUATION, tmp_path, "asesoria-eval second", plot=False)
    rewritten = report.read_text(encoding="utf-8")
    assert rewritten == generated.replace("asesoria-eval first", "asesoria-eval second") + notes
    write_report(EVALUATION, tmp_path, "asesoria-eval second", plot=False)
    assert report.read_text(encoding="utf-8") == rewritten  # a re-run changes no byte


def test_a_report_without_the_marker_is_replaced_whole(tmp_path: Path) -> None:
    (tmp_path / "report.md").write_text("# Something else\n", encoding="utf-8")
    write_report(EVALUATION, tmp_path, "asesoria-eval x", plot=False)
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "Something else" not in text
    assert text == render_markdown(EVALUATION, "asesoria-eval x")


def test_the_versions_are_in_the_header_and_the_record(tmp_path: Path) -> None:
    versions = (("pypdf", "7.1.1"), ("bm25s", "0.2.14"))
    write_report(EVALUATION, tmp_path, "asesoria-eval x", plot=False, versions=versions)
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    header = text.split("## What was measured")[0]
    assert "With pypdf 7.1.1, bm25s 0.2.14." in header
    record = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert record["versions"] == {"pypdf": "7.1.1", "bm25s": "0.2.14"}
