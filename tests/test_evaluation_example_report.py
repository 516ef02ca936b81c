"""The committed example report (``examples/evaluation``) is what its own command gives.

The command at the top of ``report.md`` is run again here, one of its runs at a time,
and the regenerated numbers are compared with the committed ``results.json`` and
``report.md``: the ranking, every configuration's chunks, tokens, hit@k, recall@k and
MRR, each question's first relevant rank, and the run's section of the report and its
conclusion line, byte for byte. When they differ and the libraries the numbers depend
on are not the versions the report names, the test is skipped with both sets of
versions (another release of pypdf or of a peer legitimately changes the numbers);
with the same versions, a difference fails: the code changed and the report was not
regenerated.

BM25 takes seconds; the MiniLM run embeds the corpus once per candidate (18 of them:
minutes on two cores), so it is marked ``slow``.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from langchain_asesoria.evaluation.cli import ExitCode, main

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "evaluation"


def committed_report() -> str:
    return (EXAMPLE / "report.md").read_text(encoding="utf-8")


def committed_record() -> dict[str, Any]:
    record: dict[str, Any] = json.loads((EXAMPLE / "results.json").read_text(encoding="utf-8"))
    return record


def committed_command() -> str:
    """The command at the top of ``report.md``, as written there."""
    found = re.search(r"```bash\n(.+?)\n```", committed_report())
    assert found is not None, "report.md names no command"
    return found.group(1)


def committed_arguments() -> list[str]:
    """The arguments of the command at the top of ``report.md`` (settings dropped)."""
    words = shlex.split(committed_command())
    while re.fullmatch(r"[A-Z_]+=.*", words[0]):
        words.pop(0)
    assert words[0] == "asesoria-eval"
    return words[1:]


def one_run(arguments: list[str], setup: str, out: Path) -> list[str]:
    """``arguments`` with only ``setup``'s ``--run``, writing to ``out``, without the plot."""
    kept: list[str] = []
    pairs = iter(arguments)
    for word in pairs:
        if word in ("--run", "--out"):
            value = next(pairs)
            if word == "--run" and value.startswith(f"{setup}="):
                kept += [word, value]
        else:
            kept.append(word)
    return [*kept, "--out", str(out), "--no-plot"]


def section(report: str, setup: str) -> str:
    """The run's section of a report, from its heading to the next one."""
    found = re.search(rf"^## `{setup}` .*?(?=^## )", report, flags=re.MULTILINE | re.DOTALL)
    assert found is not None, f"no section for {setup}"
    return found.group(0)


def conclusion_line(report: str, setup: str) -> str:
    found = re.search(rf"^- `{setup}` .*$", report, flags=re.MULTILINE)
    assert found is not None, f"no conclusion for {setup}"
    return found.group(0)


def run_of(record: dict[str, Any], setup: str) -> dict[str, Any]:
    runs = [run for run in record["runs"] if run["setup"] == setup]
    assert len(runs) == 1, f"results.json has {len(runs)} runs named {setup}"
    return runs[0]


def differences(setup: str, fresh_report: str, fresh: dict[str, Any]) -> list[str]:
    """Where the regenerated run differs from the committed one, key numbers first."""
    committed = committed_record()
    old, new = run_of(committed, setup), run_of(fresh, setup)
    found = []
    if fresh["documents"] != committed["documents"]:
        found.append(f"documents {committed['documents']} -> {fresh['documents']}")
    if fresh["questions"] != committed["questions"]:
        found.append(f"questions {committed['questions']} -> {fresh['questions']}")
    if new["revision"] != old["revision"]:
        found.append(f"tokenizer {old['revision']} -> {new['revision']}")
    ranking = [c["label"] for c in old["candidates"]], [c["label"] for c in new["candidates"]]
    if ranking[0] != ranking[1]:
        found.append(f"ranking {ranking[0]} -> {ranking[1]}")
    before = {c["label"]: c for c in old["candidates"]}
    for candidate in new["candidates"]:
        previous = before.get(candidate["label"], {})
        for key in ("chunks", "tokens_stored", "mrr", "hit_at", "recall_at"):
            if previous.get(key) != candidate[key]:
                found.append(f"{candidate['label']} {key}: {previous.get(key)} -> {candidate[key]}")
    if not found and new != old:
        found.append("results.json differs (overlap, near-duplicates or first relevant ranks)")
    for name, part in (("section", section), ("conclusion", conclusion_line)):
        if part(fresh_report, setup) != part(committed_report(), setup):
            found.append(f"the report's {setup} {name} differs")
    return found


def regenerate(setup: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # the command's paths are the repository's
    out = tmp_path / "out"
    assert main(one_run(committed_arguments(), setup, out)) == ExitCode.OK
    fresh_report = (out / "report.md").read_text(encoding="utf-8")
    fresh: dict[str, Any] = json.loads((out / "results.json").read_text(encoding="utf-8"))
    found = differences(setup, fresh_report, fresh)
    if not found:
        return
    named = committed_record().get("versions", {})
    moved = {
        name: (named.get(name), version)
        for name, version in fresh["versions"].items()
        if named.get(name) != version
    }
    if moved:
        pytest.skip(
            f"the {setup} numbers differ ({found[0]}) with other library versions than the "
            f"report's (committed, installed): {moved}"
        )
    pytest.fail(
        f"examples/evaluation is stale: regenerate it with `{committed_command()}`:\n  "
        + "\n  ".join(found)
    )


def test_the_arguments_of_one_run_keep_the_rest() -> None:
    arguments = ["a.md", "--run", "bm25=1/0", "--run", "minilm=2/0", "--out", "x", "--k", "1"]
    assert one_run(arguments, "minilm", Path("o")) == [
        "a.md",
        "--run",
        "minilm=2/0",
        "--k",
        "1",
        "--out",
        "o",
        "--no-plot",
    ]


def test_the_bm25_run_reproduces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, minilm_folder: Path
) -> None:
    for module in ("bm25s", "pypdf", "semchunk", "langchain_text_splitters"):
        pytest.importorskip(module)
    regenerate("bm25", tmp_path, monkeypatch)


@pytest.mark.slow
def test_the_minilm_run_reproduces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, minilm_folder: Path
) -> None:
    for module in ("bm25s", "pypdf", "semchunk", "sentence_transformers"):
        pytest.importorskip(module)
    regenerate("minilm", tmp_path, monkeypatch)


def test_the_choosing_size_guide_names_the_reports_first_sizes() -> None:
    """The guide restates which of this library's sizes each committed run ranks first."""
    guide = " ".join(
        (REPO / "docs" / "guides" / "choosing-size.md").read_text(encoding="utf-8").split()
    )
    for setup, name in (("bm25", "BM25"), ("minilm", "MiniLM")):
        labels = [c["label"] for c in run_of(committed_record(), setup)["candidates"]]
        first = next(label for label in labels if re.fullmatch(r"asesoria \d+/\d+", label))
        assert f"{name} ranks {first.split()[1]} first" in guide, (setup, first)
