"""A proposal, measured: ``token_starts`` from a cache of distinct words.

``HuggingFaceTokenization.token_starts`` tokenizes the whole document with offsets
(one full pass, about 0.9 of a plain ``encode``) only to *estimate* chunk ends. Most
words repeat: 0.8 M characters of laws hold 125,000 words but 18,000 distinct ones.
Tokenizing the distinct words once (joined by spaces, one ``encode`` call) and
placing their relative token starts at every occurrence gives, for tokenizers whose
pre-tokenizer splits at whitespace (WordPiece/BERT, as all-MiniLM-L6-v2), exactly the
same starts, hence exactly the same chunks; for others (byte-level BPE, Metaspace) the
starts are an estimate, which the engine's exact counts already tolerate.

Run from the repository root (a check and a timing, no change to the library)::

    python benchmarks/experiments/token_starts_word_cache.py
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import corpus  # noqa: E402
from bench import tokenizer_file  # noqa: E402

_WORD = re.compile(r"\S+")


def word_cached_token_starts(tokenizer: Any, text: str) -> list[int]:
    """Token start offsets of ``text`` from the tokens of its distinct words."""
    unique = list(dict.fromkeys(_WORD.findall(text)))
    joined = " ".join(unique)
    offsets = [start for start, _ in tokenizer.encode(joined, add_special_tokens=False).offsets]
    relative: dict[str, int | tuple[int, ...]] = {}
    position = index = 0
    for word in unique:
        end = position + len(word)
        last = index
        while last < len(offsets) and offsets[last] < end:
            last += 1
        if last - index == 1:
            relative[word] = offsets[index] - position
        else:
            relative[word] = tuple(offset - position for offset in offsets[index:last])
        index, position = last, end + 1
    starts: list[int] = []
    append, extend = starts.append, starts.extend
    for match in _WORD.finditer(text):
        inner = relative[match.group()]
        if isinstance(inner, int):
            append(match.start() + inner)
        else:
            base = match.start()
            extend([base + offset for offset in inner])
    return starts


def _best(run: Callable[[], object], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


def main() -> int:
    from langchain_asesoria import (
        ChunkingConfig,
        ChunkMetadata,
        HuggingFaceTokenization,
        LoadedPage,
        ModelProfile,
        chunk_document,
    )

    class WordCached(HuggingFaceTokenization):
        __slots__ = ()

        def token_starts(self, text: str) -> Sequence[int]:
            return word_cached_token_starts(self.tokenizer, text)

    docs = corpus.load(corpus.ensure("real"))
    profile = ModelProfile(max_input_tokens=512)
    current = HuggingFaceTokenization.from_file(tokenizer_file(), profile=profile)
    proposed = WordCached(current.tokenizer, profile, "word-cached")
    texts = [doc.text for doc in docs]
    same_starts = all(list(current.token_starts(t)) == proposed.token_starts(t) for t in texts)
    print(f"identical token starts on {len(texts)} documents: {same_starts}")
    encode = _best(lambda: [current.tokenizer.encode(t) for t in texts])
    print(f"plain encode pass: {encode:.3f} s CPU")
    print(
        f"token_starts: current {_best(lambda: [current.token_starts(t) for t in texts]):.3f} s, "
        f"word-cached {_best(lambda: [proposed.token_starts(t) for t in texts]):.3f} s CPU"
    )
    for headings in (False, True):
        for budget in (128, 256, 384, 512):
            config = ChunkingConfig(
                max_tokens=budget, overlap_tokens=budget // 8, detect_markdown_headings=headings
            )
            plain = ChunkingConfig(max_tokens=budget, overlap_tokens=budget // 8)

            def run(tokenization: Any, config: Any = config, plain: Any = plain) -> list[Any]:
                return [
                    chunk_document(
                        [LoadedPage(page, number) for number, page in enumerate(doc.pages, 1)],
                        ChunkMetadata(doc_id=doc.name),
                        config=config if doc.kind == "markdown" else plain,
                        tokenization=tokenization,
                    )
                    for doc in docs
                ]

            try:
                same = run(current) == run(proposed)
            except Exception as error:  # a title longer than a small budget, for example
                print(f"headings={headings} budget={budget}: {type(error).__name__}")
                continue
            before = _best(lambda run=run: run(current), 3)
            after = _best(lambda run=run: run(proposed), 3)
            print(
                f"headings={headings!s:5} budget={budget}: identical chunks {same}; "
                f"{before / encode:.2f}x -> {after / encode:.2f}x one encode pass (CPU)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
