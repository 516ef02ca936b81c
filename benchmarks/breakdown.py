"""Where the engine's time goes: CPU seconds per tokenizer call and the Python around them.

Pinned to one core with tokenizers' parallelism off, it chunks a corpus with
``chunk_document`` through a ``Tokenization`` that times each call, next to one plain
``Tokenizer.encode`` pass over the same documents (the reference cost), timed before
each run. The fastest of ``--repeat`` runs against the fastest pass; each part's share
in encode passes::

    python benchmarks/breakdown.py --corpus real --budgets 256 512
    python benchmarks/breakdown.py --corpus real --budgets 256 --headings
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402

PARTS = {
    "token_index": "`token_index`: distinct words encoded once, the index built",
    "token_starts": "`token_starts`: windows of units without a finer cut",
    "count_many": "`count_many`: every planned chunk's prepared text, exactly",
    "count": "`count`: single exact counts of corrections",
    "count_many/content": "`count_many(content=True)`: the planned overlaps, exactly",
    "count_content": "`count_content`: single overlap counts of corrections",
}

#: Texts timed together by ``Timed.count_many`` (the adapter's own batch).
_BATCH = 64


class Timed:
    """A ``Tokenization`` that adds each call's CPU time to ``seconds[part]``.

    ``count_many`` is timed batch by batch on the calling thread (the adapter would
    count ahead on a helper thread; pinned to one core, the CPU is the same).
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seconds: dict[str, float] = defaultdict(float)
        self.name = inner.name
        self.max_input_tokens = inner.max_input_tokens
        self.prepare = inner.prepare
        self.prepare_query = inner.prepare_query
        for method in ("token_index", "token_starts", "count", "count_content"):
            setattr(self, method, self._timed(method, getattr(inner, method)))

    def _timed(self, method: str, call: Any) -> Any:
        # token_index runs alone with its own helper thread: it takes the process's CPU.
        clock = time.process_time if method == "token_index" else time.thread_time

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = clock()
            try:
                return call(*args, **kwargs)
            finally:
                self.seconds[method] += clock() - started

        return timed

    def count_many(self, texts: Iterable[str], *, content: bool = False) -> Iterator[int]:
        part = "count_many/content" if content else "count_many"
        iterator = iter(texts)
        while batch := list(islice(iterator, _BATCH)):
            started = time.thread_time()
            counts = list(self.inner.count_many(batch, content=content))
            self.seconds[part] += time.thread_time() - started
            yield from counts


def run(docs: Sequence[Any], budget: int, headings: bool, repeat: int) -> dict[str, float]:
    from bench import tokenizer_file

    from langchain_asesoria import (
        ChunkingConfig,
        ChunkMetadata,
        HuggingFaceTokenization,
        LoadedPage,
        ModelProfile,
        chunk_document,
    )
    from langchain_asesoria.engine import Tokenization

    tokenization = HuggingFaceTokenization.from_file(
        tokenizer_file(), profile=ModelProfile(max_input_tokens=512), name="minilm"
    )
    config = ChunkingConfig(
        max_tokens=budget, overlap_tokens=budget // 8, detect_markdown_headings=headings
    )
    plain = ChunkingConfig(max_tokens=budget, overlap_tokens=budget // 8)
    inputs = [
        (
            [LoadedPage(text, number) for number, text in enumerate(doc.pages, 1)],
            ChunkMetadata(doc_id=doc.name),
            config if doc.kind in ("markdown", "synthetic") else plain,
        )
        for doc in docs
    ]
    best: dict[str, float] = {}
    encodes: list[float] = []
    for _ in range(repeat):
        started = time.process_time()
        for doc in docs:
            tokenization.tokenizer.encode(doc.text, add_special_tokens=True)
        encodes.append(time.process_time() - started)
        timed = Timed(tokenization)
        assert isinstance(timed, Tokenization)
        started = time.process_time()
        chunks = sum(
            len(chunk_document(pages, metadata, config=cfg, tokenization=timed))  # type: ignore[arg-type]
            for pages, metadata, cfg in inputs
        )
        total = time.process_time() - started
        if not best or total < best["total"]:
            best = {"total": total, "chunks": chunks, **timed.seconds}
    return {"encode": min(encodes), **best}


def _seconds(row: dict[str, float], value: float) -> str:
    return f"{value:.3f} ({value / row['encode']:.2f}x)"


def table(rows: Sequence[tuple[int, bool, dict[str, float]]]) -> str:
    heads = [f"{budget}{' + headings' if headings else ''}" for budget, headings, _ in rows]
    lines = ["| part | " + " | ".join(heads) + " |", "|---|" + "---:|" * len(rows)]

    def line(label: str, cell: Any) -> None:
        lines.append(f"| {label} | " + " | ".join(cell(row) for _, _, row in rows) + " |")

    line("one plain encode pass (CPU s)", lambda row: f"{row['encode']:.3f}")
    for method, label in PARTS.items():
        if any(row.get(method) for _, _, row in rows):
            line(label, lambda row, m=method: _seconds(row, row.get(m, 0.0)))
    line(
        "Python: index lookups, cuts, planning, chunks",
        lambda row: _seconds(row, row["total"] - sum(row.get(m, 0.0) for m in PARTS)),
    )
    line("**total**", lambda row: f"**{_seconds(row, row['total'])}**")
    line("chunks", lambda row: str(int(row["chunks"])))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", default="real", help="real, synthetic-N, stress-N, ...")
    parser.add_argument("--corpus-file", type=Path, help="a JSON-lines corpus file instead")
    parser.add_argument("--budgets", type=int, nargs="+", default=[256, 512])
    parser.add_argument("--headings", action="store_true", help="also with heading detection")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    os.environ["TOKENIZERS_PARALLELISM"] = "false"
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    path = args.corpus_file or corpus.ensure(args.corpus)
    docs = corpus.load(path)
    rows = [
        (budget, headings, run(docs, budget, headings, args.repeat))
        for budget in args.budgets
        for headings in ((False, True) if args.headings else (False,))
    ]
    fastest = min(row["encode"] for _, _, row in rows)  # one corpus, one reference
    rows = [(budget, headings, {**row, "encode": fastest}) for budget, headings, row in rows]
    print(f"# {path.stem}: {sum(d.size for d in docs):,} characters, best of {args.repeat}")
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
