"""The evaluation as a Markdown report, a PNG plot of hit@k, and a JSON record.

The output is deterministic for deterministic retrievers: no timestamps, fixed
ordering, fixed number formats, so a re-run that changes nothing changes no byte. The
report names the command that wrote it and the versions of the libraries its numbers
depend on (``versions``).

The generated report ends with ``HAND_WRITTEN_MARKER``. Whatever an existing
``report.md`` holds after that line (analysis written by hand, with its own commands) is
kept when the command rewrites the report, so that re-running the command never costs
that analysis and nothing above the line needs editing by hand.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from langchain_asesoria.errors import MissingDependencyError
from langchain_asesoria_eval.comparison import Ranked, Verdict, rank, verdict
from langchain_asesoria_eval.runner import Evaluation, RunResult

__all__ = [
    "HAND_WRITTEN_MARKER",
    "render_markdown",
    "results_record",
    "write_plot",
    "write_report",
]

#: The generated report's last line; what follows it in an existing report is kept.
HAND_WRITTEN_MARKER: Final = (
    "<!-- asesoria-eval writes everything above this line. What follows it is written by "
    "hand and kept when the command rewrites this report. -->"
)

Versions = Sequence[tuple[str, str]]

_LINE_STYLES = {"asesoria": "-", "langchain-recursive": "--", "semchunk": ":"}
_MARKERS = {"compact": "D", "path": "o", "label": "s", "none": "^"}


def _pct(value: float) -> str:
    return f"{100 * value:.1f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _quality_table(ranked: Sequence[Ranked], ks: Sequence[int]) -> list[str]:
    header = ["configuration", *(f"hit@{k}" for k in ks), *(f"recall@{k}" for k in ks), "MRR"]
    rows = [
        [
            f"`{r.result.label}`",
            *(_pct(r.scores.hit_at[k]) for k in ks),
            *(_pct(r.scores.recall_at[k]) for k in ks),
            f"{r.scores.mrr:.3f}",
        ]
        for r in ranked
    ]
    return _table(header, rows)


def _cost_table(ranked: Sequence[Ranked], ks: Sequence[int]) -> list[str]:
    header = [
        "configuration",
        "chunks",
        "tokens stored",
        "mean tokens/chunk",
        "of which context",
        "mean overlap (tokens)",
        *(f"near-dup@{k}" for k in ks if k > 1),
        "over budget",
    ]
    rows = []
    for r in ranked:
        result = r.result
        rows.append(
            [
                f"`{result.label}`",
                str(result.chunks),
                str(result.tokens_stored),
                f"{result.tokens_stored / max(result.chunks, 1):.1f}",
                f"{result.mean_context:.1f}",
                f"{result.mean_overlap:.1f}",
                *(_pct(r.scores.near_duplicates_at[k]) for k in ks if k > 1),
                str(result.over_budget),
            ]
        )
    return _table(header, rows)


def _no_source_table(ranked: Sequence[Ranked]) -> list[str]:
    header = [
        "configuration",
        "mean top score, answerable",
        "mean top score, no source",
        "separation (AUC)",
    ]
    rows = [
        [
            f"`{r.result.label}`",
            f"{r.scores.best_score_answerable:.3f}",
            f"{r.scores.best_score_no_source:.3f}",
            "n/a" if r.scores.separation is None else f"{r.scores.separation:.2f}",
        ]
        for r in ranked
    ]
    return _table(header, rows)


def _verdict_lines(
    v: Verdict, ks: Sequence[int], title: str = "Winner on this corpus"
) -> list[str]:
    winner = v.winner
    lines = [
        f"**{title}: `{winner.result.label}`** (MRR {winner.scores.mrr:.3f}, "
        f"mean hit@k {_pct(winner.mean_hit(ks))}%, {v.questions} answerable questions).",
        "",
        "- 95% Wilson interval of its hit@k: "
        + "; ".join(f"k={k}: {_pct(lo)} to {_pct(hi)}%" for k, lo, hi in v.intervals)
        + ".",
    ]
    if v.runner_up is not None:
        runner = v.runner_up
        lines.append(
            f"- Runner-up `{runner.result.label}` (MRR {runner.scores.mrr:.3f}). Questions "
            "found in the top k by only one of the two (winner/runner-up, sign-test p): "
            + "; ".join(
                f"k={p.k}: {p.only_first}/{p.only_second}, p={p.p_value:.2f}"
                for p in v.versus_runner_up
            )
            + "."
        )
    if v.trails_at:
        trails = "; ".join(f"k={k}: `{label}`" for k, label in v.trails_at)
        leads = ", ".join(str(k) for k in v.leads_at) or "none"
        lines.append(
            f"- Spread across k: best hit@k at k = {leads}; another candidate is higher at "
            f"{trails}."
        )
    else:
        lines.append("- Spread across k: it has the best hit@k (ties included) at every k.")
    return lines


def _engine_only(ranked: Sequence[Ranked]) -> list[Ranked]:
    return [r for r in ranked if r.result.chunker == "asesoria"]


def _run_section(run: RunResult, evaluation: Evaluation) -> list[str]:
    ks = evaluation.ks
    ranked = rank(run, ks, evaluation.depth)
    lines = [
        f"## `{run.setup}` ({run.retriever})",
        "",
        *([run.description, ""] if run.description else []),
        f"Model/tokenizer `{run.model}`, revision `{run.revision}`, real input limit "
        f"{run.max_input_tokens} tokens. Rows are ranked by MRR, then mean hit@k.",
        "",
        "Retrieval quality (%, over answerable questions):",
        "",
        *_quality_table(ranked, ks),
        "",
        "What is stored, and the cost of overlap (of which context: tokens the section "
        "path adds to each chunk; near-dup@k: % of the top k that overlap a better-ranked "
        "result; over budget: chunks the model would truncate):",
        "",
        *_cost_table(ranked, ks),
        "",
        "Questions with no source in the corpus, against answerable ones (top-1 score; "
        "separation = probability that an answerable question scores higher):",
        "",
        *_no_source_table(ranked),
        "",
        *_verdict_lines(verdict(ranked, ks), ks),
    ]
    engine = _engine_only(ranked)
    if len(engine) > 1 and len(engine) < len(ranked):
        own = _verdict_lines(verdict(engine, ks), ks, "Among this library's configurations only")
        lines += ["", *own]
    return [*lines, ""]


def _versions_line(versions: Versions) -> list[str]:
    if not versions:
        return []
    listed = ", ".join(f"{name} {version}" for name, version in versions)
    return [f"With {listed}.", ""]


def _overview(evaluation: Evaluation, command: str, versions: Versions) -> list[str]:
    questions = evaluation.questions
    answerable = [q for q in questions if not q.no_source]
    passages = sum(len(q.relevant) for q in answerable)
    docs = _table(
        ["doc_id", "characters", "pages"],
        [[f"`{d}`", str(chars), str(pages)] for d, chars, pages in evaluation.documents],
    )
    return [
        "# Retrieval evaluation: chunk size and overlap",
        "",
        "Generated by (from the repository root):",
        "",
        "```bash",
        command,
        "```",
        "",
        *_versions_line(versions),
        "Re-running it rewrites every section down to the Conclusion; sections written by "
        "hand after the Conclusion are kept.",
        "",
        "## What was measured",
        "",
        *docs,
        "",
        f"- {len(answerable)} answerable questions with {passages} annotated passages, and "
        f"{len(questions) - len(answerable)} questions with no source in the corpus "
        "(reported apart, never in the hit rates).",
        f"- Every candidate indexes the whole corpus; each question retrieves the top "
        f"{evaluation.depth}. k = {', '.join(map(str, evaluation.ks))}.",
        f"- A result is relevant when it comes from the passage's document and shares at "
        f"least {evaluation.min_overlap:.0%} of the shorter of the two spans with the "
        "annotated `[start, end)` (offsets in `join_pages(pages, '\\n\\n').text`).",
        "- Larger chunks contain a passage more easily: compare hit@k together with the "
        "tokens each result puts in the reader's context (mean tokens/chunk).",
        "",
        "![hit@k per configuration for each retriever](hitk.png)",
        "",
    ]


def _settled(v: Verdict) -> str:
    """How sure the order of a verdict's winner and runner-up is, in one parenthesis."""
    if v.runner_up is None:
        return ""
    significant = [p for p in v.versus_runner_up if p.p_value < 0.05]
    against = f"against `{v.runner_up.result.label}`"
    if significant:
        where = ", ".join(str(p.k) for p in significant)
        text = f" ({against}, paired difference significant at p < 0.05 for k = {where}"
    else:
        lowest = min(p.p_value for p in v.versus_runner_up)
        text = f" ({against}, no paired difference significant: lowest p = {lowest:.2f}"
    if v.trails_at:
        text += f"; not the best hit@k at k = {', '.join(str(k) for k, _ in v.trails_at)}"
    return text + ")"


def _conclusion_line(run: RunResult, evaluation: Evaluation) -> str:
    ks = evaluation.ks
    ranked = rank(run, ks, evaluation.depth)
    overall = verdict(ranked, ks)
    line = f"- `{run.setup}` ({run.retriever}): `{overall.winner.result.label}` ranks first"
    line += _settled(overall)
    engine = _engine_only(ranked)
    if len(engine) > 1 and len(engine) < len(ranked):
        own = verdict(engine, ks)
        line += (
            f"; among this library's configurations `{own.winner.result.label}` ranks "
            f"first{_settled(own)}"
        )
    return line + "."


def _conclusion(evaluation: Evaluation) -> list[str]:
    if not evaluation.runs:
        return []
    answerable = sum(1 for q in evaluation.questions if not q.no_source)
    return [
        "## Conclusion",
        "",
        *(_conclusion_line(run, evaluation) for run in evaluation.runs),
        "",
        f"This holds for this corpus ({len(evaluation.documents)} documents) and these "
        f"{answerable} answerable questions only. With this few questions one question moves "
        f"hit@k by {100 / max(answerable, 1):.1f} points and the 95% intervals above are wide: "
        "no configuration is declared best in general. Re-run the same command on your own "
        "documents and questions before choosing.",
        "",
    ]


def render_markdown(evaluation: Evaluation, command: str, versions: Versions = ()) -> str:
    """The generated report as Markdown, ending with ``HAND_WRITTEN_MARKER``.

    Args:
        evaluation: What was measured.
        command: The command that regenerates the report, shown in its header.
        versions: ``(distribution, version)`` of the libraries the numbers depend on.
    """
    lines = _overview(evaluation, command, versions)
    for run in evaluation.runs:
        lines += _run_section(run, evaluation)
    if evaluation.skipped:
        lines += ["## Skipped", ""]
        lines += [f"- `{name}`: {reason}" for name, reason in evaluation.skipped]
        lines.append("")
    lines += _conclusion(evaluation)
    return "\n".join([*lines, HAND_WRITTEN_MARKER, ""])


def results_record(evaluation: Evaluation, versions: Versions = ()) -> dict[str, Any]:
    """Every number of the report, plus each question's first relevant rank, as JSON data
    (with ``versions``, the libraries the numbers depend on)."""
    runs = []
    for run in evaluation.runs:
        candidates = []
        for r in rank(run, evaluation.ks, evaluation.depth):
            result, scores = r.result, r.scores
            candidates.append(
                {
                    "label": result.label,
                    "chunker": result.chunker,
                    "max_tokens": result.max_tokens,
                    "overlap_target": result.overlap_target,
                    "chunks": result.chunks,
                    "tokens_stored": result.tokens_stored,
                    "mean_overlap": round(result.mean_overlap, 3),
                    "mean_context": round(result.mean_context, 3),
                    "over_budget": result.over_budget,
                    "mrr": round(scores.mrr, 4),
                    "hit_at": {str(k): round(v, 4) for k, v in scores.hit_at.items()},
                    "recall_at": {str(k): round(v, 4) for k, v in scores.recall_at.items()},
                    "near_duplicates_at": {
                        str(k): round(v, 4) for k, v in scores.near_duplicates_at.items()
                    },
                    "separation": None
                    if scores.separation is None
                    else round(scores.separation, 4),
                    "first_relevant_rank": {
                        o.question_id: next(
                            (i for i, m in enumerate(o.judgements, start=1) if m), None
                        )
                        for o in result.outcomes
                        if not o.no_source
                    },
                }
            )
        runs.append(
            {
                "setup": run.setup,
                "retriever": run.retriever,
                "model": run.model,
                "revision": run.revision,
                "max_input_tokens": run.max_input_tokens,
                "candidates": candidates,
            }
        )
    return {
        "documents": [list(d) for d in evaluation.documents],
        "questions": len(evaluation.questions),
        "ks": list(evaluation.ks),
        "depth": evaluation.depth,
        "min_overlap": evaluation.min_overlap,
        "runs": runs,
        "skipped": [list(s) for s in evaluation.skipped],
        "versions": dict(versions),
    }


def _pyplot() -> Any:
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError as error:
        raise MissingDependencyError(
            "the hit@k plot needs matplotlib: from a checkout, pip install . ./evaluation.",
            expected="langchain-asesoria-eval",
        ) from error
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def write_plot(evaluation: Evaluation, path: str | Path) -> None:
    """A PNG with one panel per setup: hit@k for k = 1..depth, one line per candidate.

    Raises:
        MissingDependencyError: matplotlib is not installed.
    """
    plt = _pyplot()
    runs = evaluation.runs
    figure, axes = plt.subplots(
        1, max(len(runs), 1), figsize=(6.4 * max(len(runs), 1), 6.0), squeeze=False
    )
    ks = list(range(1, evaluation.depth + 1))
    palette = plt.get_cmap("tab10")
    # One colour per size/overlap across every panel, from the smallest budget up.
    sizes = sorted({(c.max_tokens, c.overlap_target) for run in runs for c in run.candidates})
    for axis, run in zip(axes[0], runs, strict=False):
        ranked = rank(run, evaluation.ks, evaluation.depth)
        for r in ranked:
            axis.plot(
                ks,
                [100 * r.scores.hit_at[k] for k in ks],
                color=palette(sizes.index((r.result.max_tokens, r.result.overlap_target))),
                linestyle=_LINE_STYLES.get(r.result.chunker, "-."),
                marker=_MARKERS[r.result.section_context],
                markersize=3.5,
                linewidth=1.4,
                label=r.result.label,
            )
        axis.set_title(f"{run.setup} ({run.retriever}, limit {run.max_input_tokens})")
        axis.set_xlabel("k")
        axis.set_ylabel("hit@k (%)")
        axis.set_xticks(ks)
        axis.set_ylim(0, 100)
        axis.grid(True, alpha=0.3)
        axis.legend(
            fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3, frameon=False
        )
    figure.suptitle("hit@k: colour = size/overlap, line = chunker, marker = section context")
    figure.tight_layout()
    figure.savefig(Path(path), dpi=110, metadata={"Software": None})
    plt.close(figure)


def _hand_written(report: Path) -> str:
    """What an existing report holds after ``HAND_WRITTEN_MARKER`` ("" when nothing)."""
    try:
        text = report.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    _, marker, tail = text.partition(HAND_WRITTEN_MARKER)
    return tail.removeprefix("\n") if marker else ""


def write_report(
    evaluation: Evaluation,
    directory: str | Path,
    command: str,
    *,
    plot: bool = True,
    versions: Versions = (),
) -> list[Path]:
    """Writes ``report.md``, ``results.json`` and (with ``plot``) ``hitk.png``.

    An existing ``report.md``'s text after ``HAND_WRITTEN_MARKER`` is kept after the new
    report; everything before it is replaced.

    Args:
        evaluation: What was measured.
        directory: The output folder, created if missing.
        command: The command that regenerates the report.
        plot: Whether to draw ``hitk.png``.
        versions: ``(distribution, version)`` of the libraries the numbers depend on.

    Returns:
        The paths written.
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    report = out / "report.md"
    kept = _hand_written(report)
    report.write_text(render_markdown(evaluation, command, versions) + kept, encoding="utf-8")
    record = out / "results.json"
    record.write_text(
        json.dumps(results_record(evaluation, versions), ensure_ascii=False, indent=1) + "\n",
        encoding="utf-8",
    )
    written = [report, record]
    if plot:
        image = out / "hitk.png"
        write_plot(evaluation, image)
        written.append(image)
    return written
