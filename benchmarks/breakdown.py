"""Where the engine's time goes: CPU seconds per tokenizer call and the Python around them.

Pinned to one core with tokenizers' parallelism off, it chunks a corpus with
``chunk_document`` through a ``Tokenization`` that times each call, next to one plain
``Tokenizer.encode`` pass over the same documents (the reference cost) by a tokenizer
loaded fresh, as each run's is, timed before each run. The fastest of ``--repeat`` runs
against the fastest pass; each part's share in encode passes. One more, untimed run
counts how many planned chunks were re-planned: planned from estimates and counted in a
batch, but not kept as chunks (their exact count or overlap was over, or an earlier
chunk of their batch was), seen from outside the engine through the texts it counts.
``--tokenizer`` gives a table per family::

    python -m benchmarks.breakdown --corpus real --budgets 256 512
    python -m benchmarks.breakdown --corpus real --budgets 256 --headings
    python -m benchmarks.breakdown --corpus real --budgets 256 512 --tokenizer minilm unigram bpe
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from benchmarks import corpus, families
from benchmarks.families import Choice
from langchain_asesoria.tokenization._count_ahead import BATCH, SOLO_BATCH, many_cpus

HERE = Path(__file__).resolve().parent


PARTS = {
    "token_index": "`token_index`: distinct words encoded once, the index built",
    "token_starts": "`token_starts`: windows of units without a finer cut",
    "count_many": "`count_many`: every planned chunk's prepared text, exactly",
    "count_many/fixed": "`count_many`: context candidates, each once (fixed costs)",
    "count": "`count`: single exact counts of corrections",
    "count_many/content": "`count_many(content=True)`: the planned overlaps, exactly",
    "count_content": "`count_content`: single overlap counts of corrections",
    "estimate_content": "`estimate_content`: context candidates' words summed",
}

#: The single-call methods observed as they are; ``count_many`` is observed by batch.
_SINGLE = ("token_index", "token_starts", "count", "count_content")


def _batch() -> int:
    """Texts observed together by ``Observed.count_many``: the adapter's own batch, on
    one CPU (pinned, as ``main`` pins itself after this module is imported) or on all."""
    return SOLO_BATCH if not many_cpus() else BATCH


class Observed:
    """A ``Tokenization`` delegating to ``inner``; every call of a ``PARTS`` method goes
    through ``observe``: ``count_many`` batch by batch, on the calling thread (the
    adapter would count ahead on a helper thread; pinned to one core, the CPU is the
    same)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.max_input_tokens = inner.max_input_tokens
        self.prepare = inner.prepare
        self.prepare_query = inner.prepare_query
        for method in _SINGLE:
            setattr(self, method, self._observed(method, getattr(inner, method)))
        estimate = getattr(inner, "estimate_content", None)  # an engine's WordEstimator
        if estimate is not None:  # the engine sees one here too
            self.estimate_content = self._observed("estimate_content", estimate)

    def _observed(self, method: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def observed(*args: Any) -> Any:
            return self.observe(method, call, *args)

        return observed

    def count_many(self, texts: Iterable[str], *, content: bool = False) -> Iterator[int]:
        iterator = iter(texts)
        size = _batch()
        while batch := list(islice(iterator, size)):
            yield from self.observe(_part(batch, content), self._counted(content), batch)

    def _counted(self, content: bool) -> Callable[[list[str]], list[int]]:
        return lambda batch: list(self.inner.count_many(batch, content=content))

    def observe(self, method: str, call: Callable[..., Any], *args: Any) -> Any:
        return call(*args)


def _part(batch: Sequence[str], content: bool) -> str:
    """The part a batch of ``count_many`` belongs to. The engine counts fixed costs
    (``prepare("", context)``: "" or ending in whitespace, as no chunk's prepared text
    does) in calls of their own, so a batch holds one kind only."""
    if content:
        return "count_many/content"
    return "count_many/fixed" if all(not t or t[-1].isspace() for t in batch) else "count_many"


class Timed(Observed):
    """Adds each call's CPU time to ``seconds[method]``."""

    def __init__(self, inner: Any) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        super().__init__(inner)

    def observe(self, method: str, call: Callable[..., Any], *args: Any) -> Any:
        # token_index runs alone with its own helper thread: it takes the process's CPU.
        clock = time.process_time if method == "token_index" else time.thread_time
        started = clock()
        try:
            return call(*args)
        finally:
            self.seconds[method] += clock() - started


class Recorded(Observed):
    """Keeps the texts counted in batches with special tokens (``count_many``) and the
    number of single exact counts (``count``)."""

    def __init__(self, inner: Any) -> None:
        self.batched: list[str] = []
        self.singles = 0
        super().__init__(inner)

    def observe(self, method: str, call: Callable[..., Any], *args: Any) -> Any:
        if method.startswith("count_many") and method != "count_many/content":
            self.batched.extend(args[0])
        elif method == "count":
            self.singles += 1
        return call(*args)


@dataclass(frozen=True, slots=True)
class Replans:
    """What became of the chunks planned from estimates.

    Attributes:
        planned: Prepared chunk texts counted in batches (section fixed costs, the
            prepared empty content, excluded: it alone ends with whitespace or is "").
        kept: Those that are the ``embedding_text`` of a chunk of the output.
        searched: Chunks not planned, found by the exact search (a correction) instead.
        singles: Single exact counts (``count``: the exact search's probes).
        contexts: Section fixed costs counted in batches (context candidates).
    """

    planned: int = 0
    kept: int = 0
    searched: int = 0
    singles: int = 0
    contexts: int = 0

    @property
    def replanned(self) -> int:
        return self.planned - self.kept

    def __add__(self, other: Replans) -> Replans:
        return Replans(
            self.planned + other.planned,
            self.kept + other.kept,
            self.searched + other.searched,
            self.singles + other.singles,
            self.contexts + other.contexts,
        )


def replans(recorded: Recorded, chunks: Sequence[Any]) -> Replans:
    """The fate of one document's plans, from the texts the engine counted exactly."""
    planned = Counter(text for text in recorded.batched if text and not text[-1].isspace())
    kept = sum((planned & Counter(chunk.embedding_text for chunk in chunks)).values())
    contexts = len(recorded.batched) - sum(planned.values())
    return Replans(sum(planned.values()), kept, len(chunks) - kept, recorded.singles, contexts)


def run(
    docs: Sequence[Any], budget: int, headings: bool, repeat: int, choice: Choice
) -> dict[str, float]:
    from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
    from langchain_asesoria.engine import Tokenization
    from langchain_asesoria.tokenization import HuggingFaceTokenization, ModelProfile

    def fresh() -> HuggingFaceTokenization:
        """A tokenization of its own for each run: none starts with words met in another."""
        return HuggingFaceTokenization.from_file(
            choice.path, profile=ModelProfile(max_input_tokens=512), name=choice.family.name
        )

    config = ChunkingConfig(max_tokens=budget, overlap_tokens=budget // 8)
    inputs = [
        (
            [LoadedPage(text, number) for number, text in enumerate(doc.pages, 1)],
            ChunkMetadata(doc_id=doc.name),
            headings and doc.kind in ("markdown", "synthetic"),
        )
        for doc in docs
    ]
    best: dict[str, float] = {}
    encodes: list[float] = []
    for _ in range(repeat):
        reference = families.reference_tokenizer(choice.path)  # untimed: a first pass
        started = time.process_time()
        for doc in docs:
            reference.encode(doc.text, add_special_tokens=True)
        encodes.append(time.process_time() - started)
        tokenization = fresh()  # untimed
        timed = Timed(tokenization)
        assert isinstance(timed, Tokenization)
        started = time.process_time()
        chunks = sum(
            len(
                chunk_document(
                    pages,
                    metadata,
                    config=config,
                    tokenization=timed,
                    detect_markdown_headings=detect,
                )
            )
            for pages, metadata, detect in inputs
        )
        total = time.process_time() - started
        if not best or total < best["total"]:
            best = {"total": total, "chunks": chunks, **timed.seconds}
    fate = Replans()
    tokenization = fresh()
    for pages, metadata, detect in inputs:  # untimed: the texts are kept
        recorded = Recorded(tokenization)
        chunked = chunk_document(
            pages,
            metadata,
            config=config,
            tokenization=recorded,  # type: ignore[arg-type]
            detect_markdown_headings=detect,
        )
        fate += replans(recorded, chunked)
    return {
        "encode": min(encodes),
        **best,
        "planned": fate.planned,
        "replanned": fate.replanned,
        "searched": fate.searched,
        "singles": fate.singles,
        "contexts": fate.contexts,
    }


def _seconds(row: dict[str, float], value: float) -> str:
    return f"{value:.3f} ({value / row['encode']:.2f}x)"


def _replanned(row: dict[str, float]) -> str:
    share = 100 * row["replanned"] / max(row["planned"], 1)
    return f"{int(row['replanned'])} ({share:.1f}%)"


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
    line("planned chunks, counted in batches", lambda row: str(int(row["planned"])))
    line("re-planned: planned, not kept (share of planned)", _replanned)
    line("chunks found by the exact search", lambda row: str(int(row["searched"])))
    line("single exact counts (`count`)", lambda row: str(int(row["singles"])))
    line("context candidates counted exactly", lambda row: str(int(row.get("contexts", 0))))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", default="real", help="real, synthetic-N, stress-N, ...")
    parser.add_argument("--corpus-file", type=Path, help="a JSON-lines corpus file instead")
    parser.add_argument("--budgets", type=int, nargs="+", default=[256, 512])
    parser.add_argument("--headings", action="store_true", help="also with heading detection")
    parser.add_argument("--repeat", type=int, default=5)
    families.add_tokenizer_option(
        parser, "tokenizer families, one table each (e5 only when cached)"
    )
    args = parser.parse_args(argv)
    os.environ["TOKENIZERS_PARALLELISM"] = "false"
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    path = args.corpus_file or corpus.ensure(args.corpus)
    docs = corpus.load(path)
    for choice in families.available(args.tokenizer):
        rows = [
            (budget, headings, run(docs, budget, headings, args.repeat, choice))
            for budget in args.budgets
            for headings in ((False, True) if args.headings else (False,))
        ]
        fastest = min(row["encode"] for _, _, row in rows)  # one corpus, one reference
        rows = [(budget, headings, {**row, "encode": fastest}) for budget, headings, row in rows]
        print(
            f"# {path.stem}: {sum(d.size for d in docs):,} characters, best of {args.repeat}, "
            f"{choice.family.label}"
        )
        print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
