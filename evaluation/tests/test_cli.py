"""``asesoria-eval`` in-process: a full BM25 run, refusals, skips and exit codes."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from langchain_asesoria.models import ChunkingConfig
from langchain_asesoria_eval.chunkers import PEER_CHUNKERS
from langchain_asesoria_eval.cli import ExitCode, _parser, main, parse_configs
from langchain_asesoria_eval.presets import PRESETS

LEY = (
    "# Ley de prueba\n\n"
    "## Artículo 1. Vivienda\n\n"
    "La vivienda habitual está exenta hasta un importe máximo de 300.000 euros.\n\n"
    "## Artículo 2. Devengo\n\n"
    "El impuesto se devengará el 31 de diciembre de cada año.\n\n"
    "## Artículo 3. Seguros\n\n"
    "Los seguros de vida se computarán por su valor de rescate.\n"
)
GUIA = (
    "Las pérdidas patrimoniales se compensan con las ganancias del mismo ejercicio.\n\n"
    "El saldo negativo restante se compensará en los cuatro años siguientes.\n"
)


def span(text: str, quote: str) -> tuple[int, int]:
    start = text.index(quote)
    return start, start + len(quote)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "ley.md").write_text(LEY, encoding="utf-8")
    (tmp_path / "guia.txt").write_text(GUIA, encoding="utf-8")
    rows: list[dict[str, object]] = []
    for qid, question, doc, text, quote in [
        ("q1", "¿Está exenta la vivienda habitual?", "ley", LEY, "La vivienda habitual"),
        ("q2", "¿Cuándo se devenga el impuesto?", "ley", LEY, "El impuesto se devengará"),
        ("q3", "¿En cuántos años compenso el saldo negativo?", "guia", GUIA, "El saldo negativo"),
    ]:
        start, end = span(text, quote)
        rows.append(
            {
                "id": qid,
                "question": question,
                "relevant": [{"doc_id": doc, "start": start, "end": end}],
            }
        )
    rows.append({"id": "n1", "question": "¿Tipo del IVA?", "no_source": True})
    (tmp_path / "q.jsonl").write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8"
    )
    return tmp_path


def args(project: Path, *extra: str) -> list[str]:
    return [
        str(project / "ley.md"),
        str(project / "guia.txt"),
        "--questions",
        str(project / "q.jsonl"),
        "--out",
        str(project / "out"),
        "--no-plot",
        *extra,
    ]


def test_a_bm25_run_writes_the_report(
    project: Path, capsys: pytest.CaptureFixture[str], minilm_folder: Path
) -> None:
    pytest.importorskip("bm25s")
    code = main(args(project, "--run", "bm25=48/8,96/12", "--peers", "langchain", "--k", "1,2"))
    assert code == ExitCode.OK
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        str(project / "out" / "report.md"),
        str(project / "out" / "results.json"),
    ]
    assert "[bm25] asesoria 48/8" in err
    report = (project / "out" / "report.md").read_text(encoding="utf-8")
    for label in ("asesoria 48/8", "asesoria 96/12", "langchain-recursive 96/12"):
        assert f"`{label}`" in report
    assert "3 answerable questions" in report
    assert "--run bm25=48/8,96/12" in report  # the command that produced it
    record = json.loads((project / "out" / "results.json").read_text(encoding="utf-8"))
    assert record["runs"][0]["max_input_tokens"] == 512


def test_minilm_refuses_budgets_above_256_before_loading_the_model(
    project: Path, capsys: pytest.CaptureFixture[str], minilm_folder: Path
) -> None:
    code = main(args(project, "--run", "minilm=128/16,384/48,480/64"))
    assert code == ExitCode.CONFIGURATION
    err = capsys.readouterr().err
    assert "ModelLimitError" in err
    assert "384/48, 480/64 exceed the real input limit 256" in err
    assert not (project / "out").exists()


def test_e5_without_network_is_skipped_with_a_message(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    minilm_folder: Path,
) -> None:
    pytest.importorskip("bm25s")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    code = main(args(project, "--run", "e5=256/32", "--run", "bm25=96/12"))
    assert code == ExitCode.OK
    assert "skipping e5: no network" in capsys.readouterr().err
    report = (project / "out" / "report.md").read_text(encoding="utf-8")
    assert "## Skipped" in report
    assert "`e5`: no network" in report


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--run", "bm25"], "expected NAME=CONFIGS"),
        (["--run", "colbert=256/32"], "expected NAME=CONFIGS"),
        (["--run", "bm25=256-32"], "is not MAX_TOKENS/OVERLAP_TOKENS"),
        (["--run", "bm25=256/32:title"], "is not MAX_TOKENS/OVERLAP_TOKENS"),
        (["--peers", "llamaindex"], "unknown \\['llamaindex'\\]"),
        (["--k", "1,x"], "expected comma-separated integers"),
    ],
)
def test_bad_arguments_exit_2(
    project: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    assert main(args(project, *extra)) == ExitCode.USAGE
    assert re.search(message, capsys.readouterr().err)


def test_missing_documents_and_bad_question_files_exit_2(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(project / "nope.md"), "--questions", str(project / "q.jsonl")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    (project / "bad.jsonl").write_text('{"id": "x"}\n', encoding="utf-8")
    bad = [str(project / "ley.md"), "--questions", str(project / "bad.jsonl"), "--no-plot"]
    assert main(bad) == ExitCode.USAGE
    assert "QuestionFileError" in capsys.readouterr().err


def test_an_unwritable_output_exits_4(
    project: Path, capsys: pytest.CaptureFixture[str], minilm_folder: Path
) -> None:
    pytest.importorskip("bm25s")
    (project / "file").write_text("x")
    code = main(
        [*args(project, "--run", "bm25=96/12")[:-3], "--out", str(project / "file"), "--no-plot"]
    )
    assert code == ExitCode.OUTPUT
    assert "cannot write the report" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("256/32", (ChunkingConfig(256, 32),)),
        ("128/16, 192/24", (ChunkingConfig(128, 16), ChunkingConfig(192, 24))),
        ("256/0", (ChunkingConfig(256, 0),)),
        ("128/16:label", (ChunkingConfig(128, 16, section_context="label"),)),
        (
            "128/16:none,128/16:path,128/16",
            (
                ChunkingConfig(128, 16, section_context="none"),
                ChunkingConfig(128, 16, section_context="path"),
                ChunkingConfig(128, 16),
            ),
        ),
    ],
)
def test_parse_configs(text: str, expected: tuple[ChunkingConfig, ...]) -> None:
    assert parse_configs(text) == expected


def test_peers_run_once_per_size_and_overlap() -> None:
    from langchain_asesoria_eval.chunkers import LangChainRecursiveChunker
    from langchain_asesoria_eval.cli import _candidates

    configs = parse_configs("128/16,128/16:label,192/24")
    labels = [c.label for c in _candidates(configs, [LangChainRecursiveChunker()])]
    assert labels == [
        "asesoria 128/16",
        "langchain-recursive 128/16",
        "asesoria 128/16:label",
        "asesoria 192/24",
        "langchain-recursive 192/24",
    ]


def test_every_run_skipped_evaluates_nothing_and_fails(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    minilm_folder: Path,
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    code = main(args(project, "--run", "e5=256/32"))
    err = capsys.readouterr().err
    assert code == ExitCode.CONFIGURATION
    assert "every run was skipped, so nothing was evaluated (e5: no network" in err
    assert not (project / "out").exists()


def test_progress_states_the_work_ahead_then_each_configuration(
    project: Path, capsys: pytest.CaptureFixture[str], minilm_folder: Path
) -> None:
    pytest.importorskip("bm25s")
    assert main(args(project, "--run", "bm25=48/8,96/12", "--k", "1,2")) == ExitCode.OK
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == (
        "asesoria-eval: 2 configurations to evaluate (bm25) on 2 documents and 4 questions; "
        "each indexes the whole corpus (a dense run embeds every chunk on the CPU: minutes "
        "per configuration)"
    )
    assert lines[1] == "asesoria-eval: [1/2] [bm25] asesoria 48/8: chunking, indexing..."
    assert re.match(r"asesoria-eval: \[1/2\] \[bm25\] asesoria 48/8: \d+ chunks, .*s\)$", lines[2])
    assert lines[3].startswith("asesoria-eval: [2/2] [bm25] asesoria 96/12: chunking")


def test_every_option_has_help() -> None:
    parser = _parser()
    unhelped = [
        action.option_strings or action.dest
        for action in parser._actions
        if not action.help or action.help == argparse.SUPPRESS
    ]
    assert unhelped == []


def test_help_lists_every_peer_and_preset_with_examples_and_exit_codes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # no option help wrapped inside a hyphenated name
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for name in [*PEER_CHUNKERS, *PRESETS]:
        assert re.search(rf"\b{re.escape(name)}\b", text), name
    assert "examples: asesoria-eval " in text
    for code in ExitCode:
        assert re.search(rf"\b{code.value} [a-z]", text.split("exit codes:")[1]), code


@pytest.mark.parametrize(
    ("offline", "command"),
    [("1", "HF_HUB_OFFLINE=1 asesoria-eval "), (None, "asesoria-eval ")],
)
def test_the_report_names_the_command_and_the_setting_that_decides_e5(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    minilm_folder: Path,
    offline: str | None,
    command: str,
) -> None:
    pytest.importorskip("bm25s")
    if offline is None:
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    else:
        monkeypatch.setenv("HF_HUB_OFFLINE", offline)
    assert main(args(project, "--run", "bm25=48/8")) == ExitCode.OK
    report = (project / "out" / "report.md").read_text(encoding="utf-8")
    header = report.split("## What was measured")[0]
    assert f"```bash\n{command}{project / 'ley.md'} " in header
    assert "With pypdf " in header or "With tokenizers " in header
