"""Side-by-side benchmark of langchain-asesoria and its peers, on one corpus, one tokenizer.

Run from the repository root (see ``benchmarks/README.md``)::

    python -m benchmarks.bench compare --corpus real --budgets 256 512
    python -m benchmarks.bench compare --tokenizer minilm unigram bpe e5   # per family
    python -m benchmarks.bench scaling --sizes 1 10 50 --budget 256
    python -m benchmarks.bench pathological --budget 256
    python -m benchmarks.bench memory --corpora synthetic-1 synthetic-10 stress-50
    python -m benchmarks.bench all            # everything above, results/ and the plot

Each measurement runs in a fresh process (``_worker``), so peak memory is its own and no
cache survives from one splitter to the next. Rows marked "1 core" pin their process to
one CPU with tokenizers' parallelism off; the reference is one plain
``Tokenizer.encode`` pass over the same documents, measured the same way, each pass by a
tokenizer loaded fresh (untimed), as each run of a splitter gets its own: a Unigram or
BPE tokenizer caches the words it has met, and a warm cache would make the reference a
second pass. Times are the best of ``--repeat`` runs: other processes on the machine
only ever make a run slower. ``--tokenizer`` picks the tokenizer families
(``families.py``); every splitter of a run gets the same one.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from benchmarks import corpus, families
from benchmarks.families import Choice

HERE = Path(__file__).resolve().parent


RESULTS = HERE / "results"
E5_PREFIX = "passage: "
TIMEOUT = 1800
#: Results saved before ``--tokenizer`` existed name no tokenizer: theirs was MiniLM.
DEFAULT_TOKENIZER_LABEL = families.FAMILIES["minilm"].label


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def _peak_mb(who: int = resource.RUSAGE_SELF) -> float:
    return resource.getrusage(who).ru_maxrss / 1e3  # kilobytes on Linux


def _reset_peak() -> bool:
    """Starts a new peak at the current RSS (Linux ``clear_refs``); False if unsupported."""
    try:
        with open("/proc/self/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
        return True
    except OSError:
        return False


def _peak_since_reset_mb() -> float:
    """The peak RSS since ``_reset_peak`` (``VmHWM``)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1e3  # kilobytes
    return _peak_mb()


def _best(
    run: Callable[[Any], Any], repeat: int, fresh: Callable[[], Any] = lambda: None
) -> tuple[float, float, Any]:
    """Best wall and CPU seconds of ``repeat`` runs, and the last result.

    ``fresh()`` (untimed) gives each run its own splitter, so that no cache of one run
    (semchunk memoizes token counts) serves the next.
    """
    wall = cpu = float("inf")
    result = None
    for _ in range(repeat):
        result = None
        splitter = fresh()
        gc.collect()
        w0, c0 = time.perf_counter(), time.process_time()
        result = run(splitter)
        wall = min(wall, time.perf_counter() - w0)
        cpu = min(cpu, time.process_time() - c0)
    return wall, cpu, result


# -- the worker: one measurement in its own process ---------------------------------------


def _worker(spec: dict[str, Any]) -> dict[str, Any]:
    from benchmarks import splitters
    from benchmarks.metrics import measure

    docs = corpus.load(Path(spec["corpus_file"]))

    def loaded() -> Any:
        return families.reference_tokenizer(spec["tokenizer"])

    reference = loaded()  # for the quality measures (counts only, never timed)
    repeat = spec["repeat"]
    name = spec["splitter"]
    baseline = _rss_mb()
    out: dict[str, Any] = {"splitter": name, "budget": spec["budget"], "prefix": spec["prefix"]}
    if name == "encode":

        def encode(tokenizer: Any) -> int:
            return sum(len(tokenizer.encode(doc.text).ids) for doc in docs)

        wall, cpu, tokens = _best(encode, repeat, loaded)
        per_doc = []
        if spec.get("per_doc"):
            for doc in docs:
                w, c, _ = _best(
                    lambda tokenizer, doc=doc: tokenizer.encode(doc.text), repeat, loaded
                )
                per_doc.append({"doc": doc.name, "wall": w, "cpu": c})
        out.update(wall=wall, cpu=cpu, tokens=tokens, per_doc=per_doc)
        return out
    entry = splitters.SPLITTERS[name]
    setup = splitters.Setup(Path(spec["tokenizer"]), spec["budget"], spec["prefix"])

    def fresh() -> Any:
        return entry.make(setup)

    wall = cpu = encode_wall = encode_cpu = float("inf")
    pieces: Any = None
    peak = delta = 0.0

    def encode_all(tokenizer: Any) -> None:
        for doc in docs:
            tokenizer.encode(doc.text)

    for attempt in range(repeat):
        # The reference pass is timed in the same process, between the splitter's runs,
        # so that both meet the same load on a shared machine.
        pieces = None
        w, c, pieces = _best(lambda run: run(docs), 1, fresh)
        wall, cpu = min(wall, w), min(cpu, c)
        if attempt == 0:  # the splitter's own peak, before any reference pass
            peak = max(_peak_mb(), _peak_mb(resource.RUSAGE_CHILDREN))
            delta = _peak_mb() - baseline
        if spec.get("interleave_encode"):
            w, c, _ = _best(encode_all, 1, loaded)
            encode_wall, encode_cpu = min(encode_wall, w), min(encode_cpu, c)
    out.update(wall=wall, cpu=cpu, peak_mb=peak, delta_mb=delta)
    if spec.get("interleave_encode"):
        out.update(encode_wall=encode_wall, encode_cpu=encode_cpu)
    if spec.get("per_doc"):
        out["per_doc"] = [_per_doc(doc, fresh, loaded, repeat) for doc in docs]
    if spec.get("evaluate", True):
        quality = measure(docs, pieces, reference, spec["budget"])
        out.update(asdict(quality))
        if entry.ours:
            out["over_e5"] = None  # measured by a run with the prefix in our profile
        else:
            out["over_e5"] = measure(docs, pieces, reference, spec["budget"], E5_PREFIX).over
    else:
        out["chunks"] = sum(map(len, pieces))
    return out


def _per_doc(
    doc: Any, fresh: Callable[[], Any], loaded: Callable[[], Any], repeat: int
) -> dict[str, Any]:
    """One document's best wall and CPU seconds, and those of one plain encode pass of
    it (a tokenizer ``loaded`` fresh) timed between the splitter's runs (the same load
    for both)."""
    best = dict.fromkeys(("wall", "cpu", "encode_wall", "encode_cpu"), float("inf"))
    for _ in range(repeat):
        w, c, _ = _best(lambda run: run([doc]), 1, fresh)
        ew, ec, _ = _best(lambda tokenizer: tokenizer.encode(doc.text), 1, loaded)
        for key, value in zip(best, (w, c, ew, ec), strict=True):
            best[key] = min(best[key], value)
    return {"doc": doc.name, **best}


def _this_module(env: dict[str, str]) -> list[str]:
    """``python -m benchmarks.bench``, the repository root put first in ``env``'s
    ``PYTHONPATH`` so that the fresh process imports this package wherever it runs."""
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE.parent), env.get("PYTHONPATH")]))
    return [sys.executable, "-m", "benchmarks.bench"]


IN_PROCESS = False  # --in-process: no fresh process, no pinning (for the smoke test)


def run_worker(spec: dict[str, Any], pinned: bool, timeout: float = TIMEOUT) -> dict[str, Any]:
    """Runs one measurement in a fresh process (pinned to one CPU when asked)."""
    if IN_PROCESS:
        return _worker(spec)
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    command = [*_this_module(env), "_worker", json.dumps(spec)]
    if pinned:
        env.update(TOKENIZERS_PARALLELISM="false", RAYON_NUM_THREADS="1")
        cpu = str(min(os.sched_getaffinity(0)))
        command = ["taskset", "-c", cpu, *command]
    try:
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return {"splitter": spec["splitter"], "error": f"timeout after {timeout:.0f} s"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = done.stderr.strip().splitlines()[-3:]
        return {"splitter": spec["splitter"], "error": " | ".join(tail) or "no output"}
    return dict(json.loads(lines[-1]))


# -- orchestration ------------------------------------------------------------------------


def _available(names: Sequence[str]) -> list[str]:
    from benchmarks import splitters

    chosen = list(splitters.SPLITTERS) if names == ["all"] else list(names)
    missing = [name for name in chosen if not splitters.SPLITTERS[name].available()]
    for name in missing:
        print(f"# skipped {name}: not installed", file=sys.stderr)
    return [name for name in chosen if name not in missing]


def _spec(
    corpus_file: Path, splitter: str, budget: int, prefix: str, choice: Choice, **extra: Any
) -> dict[str, Any]:
    return {
        "corpus_file": str(corpus_file),
        "tokenizer": str(choice.path),
        "splitter": splitter,
        "budget": budget,
        "prefix": prefix,
        **extra,
    }


def _pinned(name: str) -> bool:
    from benchmarks import splitters

    return name == "encode" or splitters.SPLITTERS[name].pinned


def compare(
    corpus_file: Path, budgets: Sequence[int], names: Sequence[str], repeat: int, choice: Choice
) -> dict[str, Any]:
    """The main table: every splitter at every budget, plus our runs with the E5 prefix."""
    names = _available(names)
    reference = run_worker(_spec(corpus_file, "encode", 0, "", choice, repeat=repeat), pinned=True)
    rows: list[dict[str, Any]] = []
    for budget in budgets:
        for name in names:
            spec = _spec(
                corpus_file, name, budget, "", choice, repeat=repeat, interleave_encode=True
            )
            row = run_worker(spec, _pinned(name))
            if name.endswith("-1core") and "error" not in row:
                e5 = run_worker(
                    _spec(corpus_file, name, budget, E5_PREFIX, choice, repeat=1),
                    pinned=_pinned(name),
                )
                row["over_e5"] = e5.get("over")
                row["fill_e5"] = e5.get("fill")
            rows.append(row)
            print(_progress(row), file=sys.stderr, flush=True)
    for row in rows:  # parallel rows give the same chunks as the 1-core row (tested)
        if row.get("over_e5") is None and row["splitter"].startswith("asesoria"):
            twin = next(
                r
                for r in rows
                if r["splitter"] == "asesoria-1core" and r["budget"] == row["budget"]
            )
            row["over_e5"] = twin.get("over_e5")
    docs = corpus.load(corpus_file)
    return {
        "corpus": corpus_file.stem,
        "tokenizer": choice.family.label,
        "documents": len(docs),
        "characters": sum(doc.size for doc in docs),
        "reference": reference,
        "rows": rows,
        "machine": machine(),
    }


def _progress(row: dict[str, Any]) -> str:
    if "error" in row:
        return f"# {row['splitter']}: {row['error']}"
    return (
        f"# {row['splitter']} @ {row['budget']}: {row['wall']:.2f} s wall, {row['cpu']:.2f} s cpu"
    )


def scaling(
    sizes: Sequence[float], budget: int, names: Sequence[str], repeat: int, choice: Choice
) -> dict[str, Any]:
    """Wall time versus corpus size: synthetic corpora, the largest one with the stress cases."""
    names = _available(names)
    points = []
    for index, size in enumerate(sizes):
        label = (
            f"stress-{size:g}" if index == len(sizes) - 1 and size >= 10 else f"synthetic-{size:g}"
        )
        path = corpus.ensure(label)
        characters = sum(doc.size for doc in corpus.stream(path))
        reference = run_worker(_spec(path, "encode", 0, "", choice, repeat=repeat), pinned=True)
        print(f"# {label}: encode {reference.get('wall', float('nan')):.2f} s", file=sys.stderr)
        for name in ["encode", *names]:
            spec = _spec(path, name, budget, "", choice, repeat=repeat, evaluate=False)
            spec["interleave_encode"] = True
            row = reference if name == "encode" else run_worker(spec, _pinned(name))
            row = {
                "encode_wall": reference.get("wall"),
                "encode_cpu": reference.get("cpu"),
                **row,  # a worker's own reference pass, timed between its runs, wins
                "corpus": label,
                "characters": characters,
            }
            points.append(row)
            print(_progress(dict(row, budget=budget)), file=sys.stderr, flush=True)
    return {
        "budget": budget,
        "tokenizer": choice.family.label,
        "points": points,
        "machine": machine(),
    }


def pathological(
    budget: int, names: Sequence[str], repeat: int, timeout: float, choice: Choice
) -> dict[str, Any]:
    """Per pathological document: each splitter's time over one encode pass of it."""
    names = _available(names)
    path = corpus.ensure("pathological")
    reference = run_worker(
        _spec(path, "encode", 0, "", choice, repeat=repeat, per_doc=True), pinned=True
    )
    rows = [reference]
    for name in names:
        row = run_worker(
            _spec(path, name, budget, "", choice, repeat=repeat, per_doc=True),
            _pinned(name),
            timeout,
        )
        rows.append(row)
        print(_progress(dict(row, budget=budget)), file=sys.stderr, flush=True)
    return {"budget": budget, "tokenizer": choice.family.label, "rows": rows, "machine": machine()}


def machine() -> dict[str, Any]:
    import tokenizers

    info: dict[str, Any] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "tokenizers": tokenizers.__version__,
        "load_average": os.getloadavg(),
    }
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                info["memory_gb"] = round(int(line.split()[1]) / 1e6, 1)
                break
    except OSError:
        pass
    from importlib.metadata import PackageNotFoundError, version

    for package in (
        "langchain-asesoria",
        "langchain-text-splitters",
        "transformers",
        "semchunk",
        "semantic-text-splitter",
        "chonkie",
    ):
        try:
            info[package] = version(package)
        except PackageNotFoundError:
            info[package] = None
    return info


# -- memory: the lazy API over a streamed corpus -------------------------------------------


def _fresh_process(
    command: str, spec: dict[str, Any], env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Runs ``bench.py <command> <spec>`` in a fresh interpreter, offline, with ``env``
    added to the environment."""
    environment = dict(os.environ, HF_HUB_OFFLINE="1", **(env or {}))
    return subprocess.run(
        [*_this_module(environment), command, json.dumps(spec)],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=TIMEOUT,
    )


def _memory_worker(spec: dict[str, Any]) -> dict[str, Any]:
    """Streams a corpus file through a lazy API, keeping nothing but counts."""
    from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage
    from langchain_asesoria.tokenization import HuggingFaceTokenization, ModelProfile

    path = Path(spec["corpus_file"])
    wanted = set(spec.get("documents") or ())
    tokenization = HuggingFaceTokenization.from_file(
        spec["tokenizer"], profile=ModelProfile(max_input_tokens=512)
    )
    config = ChunkingConfig(max_tokens=spec["budget"], overlap_tokens=spec["budget"] // 8)

    seen: set[str] = set()

    def streamed() -> Any:
        for doc in corpus.stream(path):
            seen.add(doc.name)
            if not wanted or doc.name in wanted:
                yield doc

    # Everything imported and built before the baseline: the peak is the streaming's own.
    from langchain_core.documents import Document

    from langchain_asesoria.langchain.transformer import AsesoriaDocumentTransformer
    from langchain_asesoria.parallel import DocumentInput, chunk_documents

    transformer = AsesoriaDocumentTransformer(tokenization=tokenization, config=config)
    tokenization.count("warm up")
    gc.collect()
    baseline = _rss_mb()
    reset = _reset_peak()
    chunks = largest = largest_bytes = largest_str = total = 0
    started = time.perf_counter()

    def measured(doc: Any) -> None:
        nonlocal largest, largest_bytes, largest_str, total
        text = doc.text
        largest = max(largest, doc.size)
        largest_bytes = max(largest_bytes, len(text.encode("utf-8")))
        largest_str = max(largest_str, sys.getsizeof(text))  # as Python holds it
        total += doc.size

    if spec["api"] == "encode":  # the reference: the tokenizer alone, one document at a time
        tokenizer = tokenization.tokenizer
        for doc in streamed():
            measured(doc)
            chunks += len(tokenizer.encode(doc.text).ids)  # tokens, for this row
    elif spec["api"] == "chunk_documents":

        def inputs() -> Any:
            for doc in streamed():
                measured(doc)
                pages = [LoadedPage(text, n) for n, text in enumerate(doc.pages, 1)]
                yield DocumentInput(pages, ChunkMetadata(doc_id=doc.name))

        for result in chunk_documents(
            inputs(), config=config, tokenization=tokenization, mode="serial"
        ):
            chunks += len(result)
    else:

        def documents() -> Any:
            for doc in streamed():
                measured(doc)
                for number, text in enumerate(doc.pages, 1):
                    yield Document(text, metadata={"source": doc.name, "page": number - 1})

        for _ in transformer.lazy_transform_documents(documents()):
            chunks += 1
    if wanted - seen:  # a misspelt name would otherwise measure an empty stream
        raise SystemExit(f"no document named {', '.join(sorted(wanted - seen))} in {path.name}")
    return {
        "api": spec["api"],
        "corpus": path.stem,
        "characters": total,
        "largest_document_chars": largest,
        "largest_document_mb": largest_bytes / 1e6,
        "largest_document_str_mb": largest_str / 1e6,
        "documents": sorted(wanted),
        "env": {name: os.environ.get(name, "") for name in spec.get("env") or {}},  # as seen
        "chunks": chunks,
        "seconds": time.perf_counter() - started,
        "baseline_mb": baseline,
        "peak_mb": (peak := _peak_since_reset_mb() if reset else _peak_mb()),
        "delta_mb": peak - baseline,
    }


def memory(
    corpora: Sequence[str],
    budget: int,
    apis: Sequence[str],
    choice: Choice,
    files: Sequence[Path] = (),
    documents: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Each API streams each corpus (only ``documents``, when named) in a fresh process,
    with ``env`` added to its environment (an allocator setting, say)."""
    rows = []
    for path in [*(corpus.ensure(name) for name in corpora), *files]:
        name = path.stem
        for api in apis:
            spec = _spec(
                path, "memory", budget, "", choice, api=api, documents=list(documents), env=env
            )
            done = _fresh_process("_memory", spec, env)
            lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
            row = (
                json.loads(lines[-1])
                if lines
                else {
                    "api": api,
                    "corpus": name,
                    "error": done.stderr.strip().splitlines()[-1:] or "no output",
                }
            )
            rows.append(row)
            print(f"# memory {name} {api}: {row}", file=sys.stderr, flush=True)
    return {"budget": budget, "tokenizer": choice.family.label, "rows": rows, "machine": machine()}


# -- duel: splitters interleaved in one process -------------------------------------------


def _duel_worker(spec: dict[str, Any]) -> dict[str, float]:
    """Best wall time of each splitter, their runs interleaved (order rotated each round)."""
    from benchmarks import splitters

    docs = corpus.load(Path(spec["corpus_file"]))
    setup = splitters.Setup(Path(spec["tokenizer"]), spec["budget"], "")
    names: list[str] = spec["splitters"]
    best = dict.fromkeys(names, float("inf"))
    for round_ in range(spec["repeat"]):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            run = splitters.SPLITTERS[name].make(setup)  # fresh, untimed
            started = time.perf_counter()
            run(docs)
            best[name] = min(best[name], time.perf_counter() - started)
    return best


def duel(
    corpus_file: Path,
    budgets: Sequence[int],
    names: Sequence[str],
    processes: int,
    repeat: int,
    choice: Choice,
) -> dict[str, Any]:
    """Wall times of a few splitters under the very same load: in each of ``processes``
    fresh processes their runs alternate, and each keeps its best of ``repeat``."""
    names = _available(names)
    rows = []
    for budget in budgets:
        spec = _spec(corpus_file, "", budget, "", choice, splitters=names, repeat=repeat)
        for _ in range(processes):
            if IN_PROCESS:
                best = _duel_worker(spec)
            else:
                done = _fresh_process("_duel", spec)
                if done.returncode != 0:
                    raise SystemExit(f"duel worker failed: {done.stderr.strip()[-2000:]}")
                best = json.loads(done.stdout.strip().splitlines()[-1])
            rows.append({"budget": budget, "best": best})
            print(f"# duel @ {budget}: {best}", file=sys.stderr, flush=True)
    return {
        "corpus": corpus_file.stem,
        "tokenizer": choice.family.label,
        "splitters": names,
        "rows": rows,
        "machine": machine(),
    }


def duel_table(result: dict[str, Any]) -> str:
    import statistics

    from benchmarks import splitters

    lines = [
        "| splitter | budget | fastest s | median s | processes where fastest |",
        "|---|---:|---:|---:|---:|",
    ]
    for budget in dict.fromkeys(row["budget"] for row in result["rows"]):
        bests = [row["best"] for row in result["rows"] if row["budget"] == budget]
        for name in result["splitters"]:
            times = [best[name] for best in bests]
            wins = sum(1 for best in bests if best[name] == min(best.values()))
            lines.append(
                f"| {splitters.SPLITTERS[name].label} | {budget} | {min(times):.3f} | "
                f"{statistics.median(times):.3f} | {wins} of {len(bests)} |"
            )
    return "\n".join(lines)


# -- report -------------------------------------------------------------------------------


def _fmt(value: Any, pattern: str = "{}") -> str:
    return "n/a" if value is None else pattern.format(value)


def compare_table(result: dict[str, Any]) -> str:
    from benchmarks import splitters

    ref = result["reference"]
    head = (
        f"Tokenizer: {result.get('tokenizer', DEFAULT_TOKENIZER_LABEL)}. "
        f"Corpus `{result['corpus']}`: {result['documents']} documents, "
        f"{result['characters'] / 1e6:.2f} M characters. One plain single-threaded "
        f"`Tokenizer.encode` pass: {ref['wall']:.3f} s wall, {ref['cpu']:.3f} s CPU "
        f"({ref['tokens']:,} tokens). Each row's ratios divide by the same pass timed in "
        "its own process, between its runs.\n\n"
    )
    lines = [
        "| splitter | budget | wall s | x encode | CPU s | CPU x encode | chunks | fill | "
        "over budget | over with `passage: ` | not verbatim | uncovered chars | peak MB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in result["rows"]:
        name = row["splitter"]
        label = splitters.SPLITTERS[name].label if name in splitters.SPLITTERS else name
        if "error" in row:
            lines.append(f"| {label} | {row.get('budget', '')} | {row['error']} |" + " |" * 10)
            continue
        chunks = row["chunks"]
        encode_wall = row.get("encode_wall", ref["wall"])
        encode_cpu = row.get("encode_cpu", ref["cpu"])
        cpu_ratio = f"{row['cpu'] / encode_cpu:.2f}x" if _pinned(name) else "n/a"

        def share(count: Any, chunks: int = chunks) -> str:
            return "n/a" if count is None else f"{count} ({100 * count / max(chunks, 1):.1f}%)"

        lines.append(
            f"| {label} | {row['budget']} | {row['wall']:.2f} | {row['wall'] / encode_wall:.2f}x | "
            f"{row['cpu']:.2f} | {cpu_ratio} | {chunks} | {100 * row['fill']:.1f}% | "
            f"{share(row['over'])} | "
            f"{share(row.get('over_e5'))} | {share(row['not_verbatim'])} | {row['uncovered']} | "
            f"{row['peak_mb']:.0f} |"
        )
    speedups = []
    for budget in sorted({row["budget"] for row in result["rows"]}):
        by_name = {
            r["splitter"]: r for r in result["rows"] if r["budget"] == budget and "wall" in r
        }
        single = by_name.get("asesoria-1core")
        for name in ("asesoria-batched", "asesoria-processes", "asesoria-threads"):
            if single and name in by_name:
                speedups.append(
                    f"{budget} tokens, {splitters.SPLITTERS[name].label}: "
                    f"{single['wall'] / by_name[name]['wall']:.2f}x the 1-core wall time, "
                    f"{single['cpu'] / by_name[name]['wall']:.2f}x its CPU time"
                )
    tail = "\n\nMulti-core speed-up: " + "; ".join(speedups) + "." if speedups else ""
    return head + "\n".join(lines) + tail


def scaling_table(result: dict[str, Any]) -> str:
    from benchmarks import splitters

    corpora = list(dict.fromkeys(p["corpus"] for p in result["points"]))
    chars = {p["corpus"]: p["characters"] for p in result["points"]}
    header = (
        "| splitter | " + " | ".join(f"{c} ({chars[c] / 1e6:.1f} M chars)" for c in corpora) + " |"
    )
    lines = [header, "|---|" + "---:|" * len(corpora)]
    names = list(dict.fromkeys(p["splitter"] for p in result["points"]))
    for name in names:
        cells = []
        for label in corpora:
            point = next(
                p for p in result["points"] if p["splitter"] == name and p["corpus"] == label
            )
            if "error" in point:
                cells.append(point["error"])
            elif name == "encode":
                cells.append(f"{point['wall']:.2f} s ({point['cpu']:.2f} s CPU)")
            elif _pinned(name):
                cells.append(
                    f"{point['wall']:.2f} s ({point['cpu']:.2f} s CPU, "
                    f"{point['cpu'] / point['encode_cpu']:.2f}x)"
                )
            else:
                cells.append(f"{point['wall']:.2f} s ({point['wall'] / point['encode_wall']:.2f}x)")
        label = "plain encode pass" if name == "encode" else splitters.SPLITTERS[name].label
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    speedups = []
    for label in corpora:
        here = {p["splitter"]: p for p in result["points"] if p["corpus"] == label and "wall" in p}
        single = here.get("asesoria-1core")
        for name in ("asesoria-batched", "asesoria-processes", "asesoria-threads"):
            if single and name in here:
                speedups.append(
                    f"{label}, {splitters.SPLITTERS[name].label}: "
                    f"{single['wall'] / here[name]['wall']:.2f}x the 1-core wall time, "
                    f"{single['cpu'] / here[name]['wall']:.2f}x its CPU time"
                )
    if speedups:
        lines += ["", "Multi-core speed-up: " + "; ".join(speedups) + "."]
    return "\n".join(lines)


def pathological_table(result: dict[str, Any]) -> str:
    from benchmarks import splitters

    reference = result["rows"][0]
    docs = [entry["doc"] for entry in reference["per_doc"]]
    lines = [
        f"Tokenizer: {result.get('tokenizer', DEFAULT_TOKENIZER_LABEL)}. Each cell: wall "
        "seconds, and the cost over one plain encode pass of the document timed between the "
        "row's runs (CPU time for 1-core rows, wall time for the others).",
        "",
        "| splitter | " + " | ".join(docs) + " | chunks | over budget | not verbatim | uncovered |",
        "|---|" + "---:|" * (len(docs) + 4),
        "| plain encode pass | "
        + " | ".join(f"{entry['wall']:.3f} s" for entry in reference["per_doc"])
        + " | | | | |",
    ]
    for row in result["rows"][1:]:
        label = splitters.SPLITTERS[row["splitter"]].label
        if "error" in row:
            lines.append(f"| {label} | " + " | ".join([row["error"]] * len(docs)) + " | | | | |")
            continue
        cells = [
            f"{entry['wall']:.2f} s ({_ratio(_with_reference(entry, ref), row['splitter']):.1f}x)"
            for entry, ref in zip(row["per_doc"], reference["per_doc"], strict=True)
        ]
        quality = ("chunks", "over", "not_verbatim", "uncovered")
        cells += [str(row.get(key, "n/a")) for key in quality]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _with_reference(entry: dict[str, Any], reference: dict[str, Any]) -> dict[str, Any]:
    """A document's timings with the encode pass timed beside them (or, in results
    saved before that, the reference process's)."""
    return {"encode_wall": reference["wall"], "encode_cpu": reference["cpu"], **entry}


def _setting(item: str) -> tuple[str, str]:
    name, equals, value = item.partition("=")
    if not equals or not name:
        raise SystemExit(f"--env takes NAME=VALUE, got {item!r}")
    return name, value


def memory_table(result: dict[str, Any]) -> str:
    lines = [
        "| corpus | API | M chars | largest document MB (UTF-8 / `str`) | "
        "chunks (tokens for `encode`) | seconds | baseline MB (interpreter, tokenizer, "
        "imports) | peak MB | peak - baseline MB |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in result["rows"]:
        if "error" in row:
            lines.append(f"| {row['corpus']} | {row['api']} | {row['error']} |" + " |" * 6)
            continue
        only = f" ({', '.join(row['documents'])})" if row.get("documents") else ""
        env = " ".join(f"{name}={value}" for name, value in (row.get("env") or {}).items())
        in_memory = row.get("largest_document_str_mb")
        largest = f"{row['largest_document_mb']:.2f}" + (
            f" / {in_memory:.2f}" if in_memory is not None else ""
        )
        lines.append(
            f"| {row['corpus']}{only} | `{row['api']}`{f' `{env}`' if env else ''} | "
            f"{row['characters'] / 1e6:.1f} | {largest} | {row['chunks']} | "
            f"{row['seconds']:.1f} | {row['baseline_mb']:.0f} | {row['peak_mb']:.0f} | "
            f"{row['delta_mb']:.1f} |"
        )
    return "\n".join(lines)


def _ratio(point: dict[str, Any], name: str) -> float:
    """Cost over one encode pass: CPU for 1-core rows, wall time for the others."""
    if name == "encode":
        return 1.0
    if _pinned(name):
        return float(point["cpu"]) / float(point["encode_cpu"])
    return float(point["wall"]) / float(point["encode_wall"])


def plot(result: dict[str, Any], path: Path) -> Path:
    """Wall time versus corpus size (log-log), and seconds per million characters."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from benchmarks import splitters

    figure, (total, rate) = plt.subplots(1, 2, figsize=(11, 4.5))
    names = list(dict.fromkeys(p["splitter"] for p in result["points"]))
    for name in names:
        points = [p for p in result["points"] if p["splitter"] == name and "wall" in p]
        if not points:
            continue
        label = "plain encode pass" if name == "encode" else splitters.SPLITTERS[name].label
        style = "k--" if name == "encode" else "o-"
        sizes = [p["characters"] / 1e6 for p in points]
        total.plot(sizes, [p["wall"] for p in points], style, label=label)
        rate.plot(sizes, [_ratio(p, name) for p in points], style)
    total.set_xscale("log")
    total.set_yscale("log")
    total.set_xlabel("corpus size (million characters)")
    total.set_ylabel("wall time (s)")
    rate.set_xscale("log")
    rate.set_xlabel("corpus size (million characters)")
    rate.set_ylabel("x one encode pass, same process (flat = linear)")
    for axes in (total, rate):
        axes.grid(True, which="both", alpha=0.3)
    total.legend(fontsize=7)
    figure.suptitle(
        f"Time versus corpus size, {result['budget']}-token budget, "
        f"{result.get('tokenizer', DEFAULT_TOKENIZER_LABEL)} tokenizer"
    )
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def report(out: Path) -> int:
    """Prints the tables of every saved result in ``out``."""
    renderers: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("compare-*.json", compare_table),
        ("scaling*.json", scaling_table),
        ("pathological*.json", pathological_table),
        ("memory*.json", memory_table),
        ("duel-*.json", duel_table),
    ]
    for pattern, render in renderers:
        for path in sorted(out.glob(pattern)):
            result = json.loads(path.read_text(encoding="utf-8"))
            print(f"### {path.name}\n\nMachine: {json.dumps(result.get('machine'))}\n")
            print(render(result) + "\n")
    return 0


# -- command line ---------------------------------------------------------------------------


def _save(name: str, result: dict[str, Any], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(result, indent=1), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    p_compare = commands.add_parser("compare", help="the side-by-side table")
    p_compare.add_argument(
        "--corpus", default="real", help="real, synthetic-N, stress-N, pathological"
    )
    p_compare.add_argument("--corpus-file", type=Path, help="a JSON-lines corpus file instead")
    p_compare.add_argument("--budgets", type=int, nargs="+", default=[256, 512])
    p_scaling = commands.add_parser("scaling", help="time versus corpus size, and the plot")
    p_scaling.add_argument("--sizes", type=float, nargs="+", default=[1, 10, 50])
    p_scaling.add_argument("--budget", type=int, default=256)
    p_path = commands.add_parser("pathological", help="per-case ratios on pathological inputs")
    p_path.add_argument("--budget", type=int, default=256)
    p_path.add_argument("--timeout", type=float, default=300)
    p_memory = commands.add_parser("memory", help="peak memory of the lazy APIs")
    p_memory.add_argument(
        "--corpora", nargs="*", default=["synthetic-1", "synthetic-10", "stress-50"]
    )
    p_memory.add_argument("--corpus-files", type=Path, nargs="+", default=[])
    p_memory.add_argument("--budget", type=int, default=256)
    p_memory.add_argument("--apis", nargs="+", default=["encode", "chunk_documents", "transformer"])
    p_memory.add_argument("--documents", nargs="+", default=[], help="only these documents")
    p_memory.add_argument(
        "--env", nargs="+", default=[], metavar="NAME=VALUE", help="for the measured processes"
    )
    p_duel = commands.add_parser("duel", help="a few splitters interleaved in one process")
    p_duel.add_argument("--corpus", default="real")
    p_duel.add_argument("--corpus-file", type=Path, help="a JSON-lines corpus file instead")
    p_duel.add_argument("--budgets", type=int, nargs="+", default=[256, 512])
    p_duel.add_argument(
        "--splitters",
        nargs="+",
        default=["asesoria-processes", "asesoria-threads", "chonkie"],
    )
    p_duel.add_argument("--processes", type=int, default=8)
    p_duel.add_argument("--repeat", type=int, default=3)
    p_all = commands.add_parser("all", help="every command, results/ and the plot")
    for sub in (p_compare, p_scaling, p_path, p_all):
        sub.add_argument("--splitters", nargs="+", default=["all"])
        sub.add_argument("--repeat", type=int, default=3)
    for sub in (p_compare, p_scaling, p_path, p_memory, p_duel, p_all):
        sub.add_argument("--out", type=Path, default=RESULTS)
        families.add_tokenizer_option(
            sub, "tokenizer families, each measured in turn (e5 only when cached)"
        )
        sub.add_argument(
            "--in-process",
            action="store_true",
            help="measure in this process: no pinning, no memory isolation (smoke tests)",
        )
    p_report = commands.add_parser("report", help="the tables of the saved results, again")
    p_report.add_argument("--out", type=Path, default=RESULTS)
    worker = commands.add_parser("_worker")
    worker.add_argument("spec")
    memory_worker = commands.add_parser("_memory")
    memory_worker.add_argument("spec")
    duel_worker = commands.add_parser("_duel")
    duel_worker.add_argument("spec")
    args = parser.parse_args(argv)

    if args.command == "_worker":
        print(json.dumps(_worker(json.loads(args.spec))))
        return 0
    if args.command == "_memory":
        print(json.dumps(_memory_worker(json.loads(args.spec))))
        return 0
    if args.command == "_duel":
        print(json.dumps(_duel_worker(json.loads(args.spec))))
        return 0
    if args.command == "report":
        return report(args.out)
    global IN_PROCESS
    IN_PROCESS = args.in_process
    print(f"# machine: {json.dumps(machine())}")
    for choice in families.available(args.tokenizer):
        print(f"# tokenizer: {choice.family.label} ({choice.path})")
        run_command(args, choice)
    return 0


def run_command(args: argparse.Namespace, choice: Choice) -> None:
    """One measuring command with one tokenizer; results saved with its suffix."""
    suffix = choice.family.suffix
    if args.command in ("compare", "all"):
        corpus_file = getattr(args, "corpus_file", None) or corpus.ensure(
            getattr(args, "corpus", "real")
        )
        result = compare(
            corpus_file, getattr(args, "budgets", [256, 512]), args.splitters, args.repeat, choice
        )
        _save(f"compare-{corpus_file.stem}{suffix}", result, args.out)
        print(compare_table(result))
    if args.command in ("scaling", "all"):
        result = scaling(
            getattr(args, "sizes", [1, 10, 50]),
            getattr(args, "budget", 256),
            args.splitters,
            1 if args.command == "all" else args.repeat,
            choice,
        )
        _save(f"scaling{suffix}", result, args.out)
        print(scaling_table(result))
        print(f"plot: {plot(result, args.out / f'scaling{suffix}.png')}")
    if args.command in ("pathological", "all"):
        result = pathological(
            getattr(args, "budget", 256),
            args.splitters,
            args.repeat,
            getattr(args, "timeout", 300),
            choice,
        )
        _save(f"pathological{suffix}", result, args.out)
        print(pathological_table(result))
    if args.command in ("memory", "all"):
        documents, env = getattr(args, "documents", []), getattr(args, "env", [])
        result = memory(
            getattr(args, "corpora", ["synthetic-1", "synthetic-10", "stress-50"]),
            getattr(args, "budget", 256),
            getattr(args, "apis", ["encode", "chunk_documents", "transformer"]),
            choice,
            getattr(args, "corpus_files", []),
            documents,
            dict(_setting(item) for item in env),
        )
        # One file a variant.
        _save("-".join(["memory", *documents, *env]) + suffix, result, args.out)
        print(memory_table(result))
    if args.command == "duel":
        corpus_file = args.corpus_file or corpus.ensure(args.corpus)
        result = duel(
            corpus_file, args.budgets, args.splitters, args.processes, args.repeat, choice
        )
        _save(f"duel-{corpus_file.stem}{suffix}", result, args.out)
        print(duel_table(result))


if __name__ == "__main__":
    raise SystemExit(main())
