"""Two commits of the engine timed in one process, their runs interleaved: same load.

Each commit's ``langchain_asesoria`` is exported with ``git archive`` and renamed (so
both import side by side); every round runs both on the same documents, the order
alternating. Best and median wall times per side, their ratio, and each side's chunk
count (equal counts for a refactoring). Run from the repository root::

    python -m benchmarks.versus 19937bd HEAD --corpus real --budgets 256 512
    TOKENIZERS_PARALLELISM=false taskset -c 0 python -m benchmarks.versus 19937bd HEAD
    python -m benchmarks.versus 19937bd HEAD --mode process --repeat 15

``--mode serial`` chunks each document with ``chunk_document`` (tokenizer on all cores
unless pinned); ``--mode process`` uses ``parallel.chunk_documents``'s process pool.
The tokenizer is the offline MiniLM ``tokenizer.json`` with a 512-token limit, or each
of ``--tokenizer``'s families in turn; every run gets a fresh tokenization (no words
known from an earlier run), untimed.

Headings are asked for the way each commit takes them: a ``ChunkingConfig`` field
``detect_markdown_headings`` at commits that have one, else ``chunk_document``'s keyword
of that name (the two commits may differ).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import importlib.util
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path
from typing import Any

from benchmarks import families, golden

HERE = Path(__file__).resolve().parent


PACKAGE = "langchain_asesoria"


def export(ref: str, name: str, folder: Path) -> str:
    """``ref``'s package exported into ``folder`` and imported as the module ``name``
    (process pools fork, so their workers have it too)."""
    archive = subprocess.run(
        ["git", "archive", ref, PACKAGE], cwd=HERE.parent, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        # The "data" filter (Python 3.11.4 and later; our own git archive either way).
        if hasattr(tarfile, "data_filter"):
            tar.extractall(folder / "src", filter="data")
        else:  # pragma: no cover - Python 3.11.0-3.11.3
            tar.extractall(folder / "src")
    target = folder / name
    (folder / "src" / PACKAGE).rename(target)
    for source in target.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        source.write_text(text.replace(PACKAGE, name), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(
        name, target / "__init__.py", submodule_search_locations=[str(target)]
    )
    assert spec is not None
    assert spec.loader is not None
    sys.modules[name] = importlib.util.module_from_spec(spec)  # its submodules import by name
    spec.loader.exec_module(sys.modules[name])
    return name


class Side:
    """One commit's engine, its tokenization and the corpus as its own values."""

    def __init__(self, module: str, docs: Sequence[Any], tokenizer: Path) -> None:
        self.m = importlib.import_module(module)
        self.parallel = importlib.import_module(f"{module}.parallel")
        #: Older commits export the tokenization classes at the root, newer ones from
        #: ``.tokenization`` only.
        self.tokenization = importlib.import_module(f"{module}.tokenization")
        self.tokenizer = tokenizer
        #: Whether this commit's config still has the field (else the call's keyword).
        self.config_field = "detect_markdown_headings" in {
            field.name for field in dataclasses.fields(self.m.ChunkingConfig)
        }
        self.inputs = [
            (
                [self.m.LoadedPage(text, n) for n, text in enumerate(doc.pages, 1)],
                self.m.ChunkMetadata(doc_id=doc.name),
                doc.kind in ("markdown", "synthetic"),
            )
            for doc in docs
        ]

    def fresh(self) -> Any:
        """A tokenization of its own for each run: no words known from an earlier one."""
        profile = self.tokenization.ModelProfile(max_input_tokens=512)
        return self.tokenization.HuggingFaceTokenization.from_file(self.tokenizer, profile=profile)

    def headings(self, config: Any, detect: bool) -> dict[str, Any]:
        """``chunk_document``'s config (and keyword) asking this commit for headings or not."""
        if self.config_field:
            return {"config": dataclasses.replace(config, detect_markdown_headings=detect)}
        return {"config": config, "detect_markdown_headings": detect}

    def run(self, budget: int, headings: bool, mode: str) -> tuple[float, int]:
        tokenization = self.fresh()  # untimed
        plain = self.m.ChunkingConfig(max_tokens=budget, overlap_tokens=budget // 8)
        calls = [
            (pages, metadata, self.headings(plain, headings and markdown))
            for pages, metadata, markdown in self.inputs
        ]
        started, chunks = time.perf_counter(), 0
        if mode == "process":
            documents = [self.parallel.DocumentInput(p, md) for p, md, _ in self.inputs]
            for found in self.parallel.chunk_documents(
                documents, config=plain, tokenization=tokenization, mode="process"
            ):
                chunks += len(found)
        else:
            for pages, metadata, options in calls:
                chunks += len(
                    self.m.chunk_document(pages, metadata, tokenization=tokenization, **options)
                )
        return time.perf_counter() - started, chunks


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("head")
    parser.add_argument("--corpus", default="real", help="real, pathological, synthetic-N...")
    parser.add_argument("--budgets", type=int, nargs="+", default=[256, 512])
    parser.add_argument("--mode", choices=("serial", "process"), default="serial")
    parser.add_argument("--repeat", type=int, default=9)
    families.add_tokenizer_option(parser, "tokenizer families to time, one after the other")
    args = parser.parse_args(argv)
    docs = golden.docs_of(args.corpus, golden.real_docs())
    with tempfile.TemporaryDirectory() as folder:
        base_module = export(args.base, "engine_base", Path(folder))
        head_module = export(args.head, "engine_head", Path(folder))
        for choice in families.available(args.tokenizer):
            base = Side(base_module, docs, choice.path)
            head = Side(head_module, docs, choice.path)
            _compare(args, base, head, choice.family.name)
    return 0


def _compare(args: argparse.Namespace, base: Side, head: Side, tokenizer: str) -> None:
    """One JSON row per budget and headings setting: both sides' best and median."""
    for budget in args.budgets:
        for headings in (False,) if args.mode == "process" else (False, True):
            times: dict[str, list[float]] = {"base": [], "head": []}
            chunks: dict[str, int] = {}
            for round_ in range(args.repeat):
                order = [("base", base), ("head", head)]
                for name, side in order if round_ % 2 == 0 else reversed(order):
                    seconds, chunks[name] = side.run(budget, headings, args.mode)
                    times[name].append(seconds)
            best = {name: min(values) for name, values in times.items()}
            median = {name: statistics.median(values) for name, values in times.items()}
            row = {
                "tokenizer": tokenizer,
                "corpus": args.corpus,
                "mode": args.mode,
                "budget": budget,
                "headings": headings,
                "best_s": best,
                "median_s": median,
                "best_ratio": round(best["head"] / best["base"], 3),
                "median_ratio": round(median["head"] / median["base"], 3),
                "chunks": chunks,
            }
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
