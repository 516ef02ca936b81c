"""Quality of a split, measured the same way for every splitter (pure functions).

* ``fill``: mean tokens of the full model input per chunk, over the budget.
* ``over``: chunks whose full model input (special tokens included, and the E5-style
  ``passage: `` prefix in that case) exceeds the budget: the embedder truncates them.
* ``not_verbatim``: chunks whose text is not the source text at their claimed offset.
* ``uncovered``: non-whitespace characters of the source that no chunk holds. A chunk
  that is not verbatim at its offset still covers the place where its text really is
  (searched near the claimed offset, then anywhere), so wrong offsets and lost text
  are counted apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.corpus import Doc
from benchmarks.splitters import Piece

_BATCH = 4096


@dataclass(frozen=True, slots=True)
class Quality:
    chunks: int
    mean_tokens: float
    fill: float
    over: int
    not_verbatim: int
    uncovered: int


def token_counts(tokenizer: Any, texts: Sequence[str]) -> list[int]:
    """Exact tokens of each text as the model receives it (special tokens included)."""
    counts: list[int] = []
    for first in range(0, len(texts), _BATCH):
        batch = list(texts[first : first + _BATCH])
        counts += [len(e.ids) for e in tokenizer.encode_batch_fast(batch, add_special_tokens=True)]
    return counts


def _located(text: str, piece: Piece) -> tuple[int, int] | None:
    """Where the piece's text really is: its offset, else nearby, else anywhere."""
    start, size = piece.start, len(piece.text)
    if start >= 0 and text[start : start + size] == piece.text:
        return start, start + size
    found = text.find(piece.text, max(0, start - size)) if start >= 0 else -1
    if found < 0:
        found = text.find(piece.text)
    return (found, found + size) if found >= 0 else None


def _non_whitespace(text: str) -> int:
    return len("".join(text.split()))


def uncovered(text: str, spans: list[tuple[int, int]]) -> int:
    """Non-whitespace characters of ``text`` outside every span."""
    missing, position = 0, 0
    for start, end in sorted(spans):
        if start > position:
            missing += _non_whitespace(text[position:start])
        position = max(position, end)
    return missing + _non_whitespace(text[position:])


def verbatim(text: str, piece: Piece) -> bool:
    return piece.start >= 0 and text[piece.start : piece.start + len(piece.text)] == piece.text


def measure(
    docs: Sequence[Doc],
    pieces: Sequence[Sequence[Piece]],
    tokenizer: Any,
    budget: int,
    prefix: str = "",
) -> Quality:
    """The quality of one split; ``prefix`` is added to every model input first."""
    flat = [piece for doc_pieces in pieces for piece in doc_pieces]
    counts = token_counts(tokenizer, [prefix + piece.model_input for piece in flat])
    not_verbatim = lost = 0
    for doc, doc_pieces in zip(docs, pieces, strict=True):
        text = doc.text
        spans = []
        for piece in doc_pieces:
            not_verbatim += not verbatim(text, piece)
            where = _located(text, piece)
            if where is not None:
                spans.append(where)
        lost += uncovered(text, spans)
    mean = sum(counts) / len(counts) if counts else 0.0
    return Quality(
        chunks=len(flat),
        mean_tokens=mean,
        fill=mean / budget,
        over=sum(count > budget for count in counts),
        not_verbatim=not_verbatim,
        uncovered=lost,
    )
