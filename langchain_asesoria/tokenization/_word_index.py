"""``word_index``: a ``TokenIndex`` from the tokens of each distinct word.

More: ``docs/design/tokenization.md``.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from itertools import accumulate, compress, islice
from typing import Any, TypeAlias

from langchain_asesoria.engine import TokenIndex, offsets_typecode
from langchain_asesoria.tokenization._count_ahead import completed

#: Token starts of each text, in order: a family's ``token_starts_many``.
StartsOf: TypeAlias = Callable[[list[str]], list[Sequence[int]]]

_PIECES = re.compile(r"(\S+)")
_SPACE = re.compile(r"\s")

#: Tokens of each word, and every token's start within the long ones.
_Encoded: TypeAlias = "tuple[dict[str, int], dict[str, array[int]]]"

#: Distinct words per encoded string, in characters, and such strings per call.
_GROUP = 1 << 12
_GROUPS_PER_CALL = 16

#: Characters per block of ``word_index``: its word lists live one block at a time
#: (two blocks at most, with the one being encoded).
_BLOCK = 1 << 14

#: Words longer than this (blobs: base64, a table row without spaces) are encoded in
#: pieces of ``_BLOB_PIECE`` characters, so that their encodings and offsets stay small.
_BLOB = 1 << 16
_BLOB_PIECE = 1 << 13

#: Words of up to this many tokens are one group of a ``TokenIndex`` (99.9% of words
#: in laws); longer ones list every token's start.
_GROUPED_TOKENS = 8

#: Before each group of words: the first is measured after a word and a space too.
_LEAD = "a "


def _blocks(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` blocks of about ``_BLOCK`` characters, cut at whitespace."""
    blocks: list[tuple[int, int]] = []
    start = 0
    while start < len(text):
        space = _SPACE.search(text, start + _BLOCK)
        end = space.start() if space is not None else len(text)
        blocks.append((start, end))
        start = end
    return blocks


def _groups(words: list[str]) -> list[list[str]]:
    """Consecutive words of about ``_GROUP`` characters in all; a longer word alone."""
    groups: list[list[str]] = []
    group: list[str] = []
    size = 0
    for word in words:
        if group and size + len(word) > _GROUP:
            groups.append(group)
            group, size = [], 0
        group.append(word)
        size += len(word) + 1
    if group:
        groups.append(group)
    return groups


def _place(
    positions: array[int],
    totals: array[int],
    starts: Sequence[int],
    words: list[str],
    counts: list[int],
    long_words: dict[str, array[int]],
) -> None:
    """Appends a block's groups; each long word's group is replaced by its tokens."""
    done = 0
    for at in _long_at(words, long_words):
        positions.extend(starts[done:at])
        totals.extend(islice(accumulate(counts[done:at], initial=totals[-1]), 1, None))
        relative, start = long_words[words[at]], starts[at]
        positions.extend(start + offset for offset in relative)
        totals.extend(range(totals[-1] + 1, totals[-1] + 1 + len(relative)))
        done = at + 1
    positions.extend(starts[done:])
    totals.extend(islice(accumulate(counts[done:], initial=totals[-1]), 1, None))


def _long_at(words: list[str], long_words: dict[str, array[int]]) -> list[int]:
    """Ascending positions in ``words`` of the long words (a few per block, if any):
    found by ``list.index``, never by a Python loop over every word."""
    if not long_words:
        return []
    found: list[int] = []
    for word in long_words.keys() & set(words):
        at = words.index(word)
        while True:
            found.append(at)
            try:
                at = words.index(word, at + 1)
            except ValueError:
                break
    return sorted(found)


def _separator_costs(starts_of: StartsOf, separators: list[str]) -> dict[str, int]:
    """Tokens each whitespace run adds beyond a single space, measured between two
    letters: 0 for tokenizers that drop whitespace (WordPiece); a line break or a run
    of spaces is a token of its own for byte-level BPE."""
    base, *measured = map(len, starts_of([f"a{sep}a" for sep in [" ", *separators]]))
    return {sep: max(0, count - base) for sep, count in zip(separators, measured, strict=True)}


def _interleaved(
    starts: Sequence[int], words: list[str], counts: list[int], runs: list[tuple[int, int, int]]
) -> tuple[list[int], list[str], list[int]]:
    """A block's words and the whitespace runs that cost tokens, in text order, as
    groups (starts, words with ``""`` for a run, tokens). ``runs`` holds ``(i, start,
    tokens)`` for the run before word ``i`` (``i == len(words)``: after the last word),
    few next to the words: the words go over in slices, never one by one."""
    all_starts: list[int] = []
    all_words: list[str] = []
    all_counts: list[int] = []
    done = 0
    for at, start, tokens in runs:
        all_starts += starts[done:at]
        all_words += words[done:at]
        all_counts += counts[done:at]
        all_starts.append(start)
        all_words.append("")
        all_counts.append(tokens)
        done = at
    all_starts += starts[done:]
    all_words += words[done:]
    all_counts += counts[done:]
    return all_starts, all_words, all_counts


class WordCounts:
    """Tokens of the words a tokenization has met, kept from one document to the next
    (laws share most of their words: 18,500 distinct words per document in the six of
    the benchmark corpus, 11,300 in all).

    Sound only for a tokenizer that measures each word alone, whatever its neighbours
    (its pre-tokenizer splits at spaces): then a word's count is the same in every
    group it is encoded in, and a document's index does not depend on the documents
    before it. A call of ``word_index`` reads the words known when it starts and adds
    its own when it ends. Threads may share it (a thread pool shares one
    tokenization): a reader looks each word up once, so a word another thread adds
    meanwhile is either known to it or new to it, never both or neither; a word is
    added to ``long_words`` before ``counts``, so a reader that finds it counted finds
    its tokens too; past ``LIMIT`` words it starts again empty, both dictionaries
    replaced at once (``snapshot`` reads them as one).
    """

    LIMIT = 1 << 18

    __slots__ = ("_known",)

    def __init__(self) -> None:
        self._known: tuple[dict[str, int], dict[str, array[int]]] = ({}, {})

    @property
    def counts(self) -> dict[str, int]:
        """Tokens of each word met."""
        return self._known[0]

    @property
    def long_words(self) -> dict[str, array[int]]:
        """Every token's start within the words of more than ``_GROUPED_TOKENS``."""
        return self._known[1]

    def snapshot(self) -> tuple[dict[str, int], dict[str, array[int]]]:
        """``(counts, long_words)`` of one moment (one attribute read)."""
        return self._known

    def add(self, counts: dict[str, int], long_words: dict[str, array[int]]) -> None:
        known_counts, known_long = self._known
        if len(known_counts) + len(counts) > self.LIMIT:
            self._known = (dict(counts), dict(long_words))  # filled, then shown
            return
        known_long.update(long_words)  # first: a word found counted has its tokens
        known_counts.update(counts)


def estimate(known: WordCounts, starts_of: StartsOf, text: str) -> int:
    """Content tokens of ``text`` as the sum of its words' tokens: the counts ``known``
    holds, and the words it does not, measured as ``word_index`` measures them (after
    a word and a space) and added to it. The same number whatever was met before."""
    counts = known.counts
    words = text.split()
    try:
        return sum(map(counts.__getitem__, words))
    except KeyError:
        pass
    new, long_words = _word_tokens(starts_of, [w for w in dict.fromkeys(words) if w not in counts])
    known.add(new, long_words)
    return sum(new[word] if word in new else counts[word] for word in words)


class _CallingThread(Executor):
    """An executor that runs each call at once, on the calling thread."""

    def submit(  # type: ignore[override]
        self, fn: Callable[..., _Encoded], /, *args: Any
    ) -> Future[_Encoded]:
        return completed(fn(*args))


def word_index(
    starts_of: StartsOf, text: str, *, helper: bool = True, known: WordCounts | None = None
) -> TokenIndex:
    """The word-grouped ``TokenIndex`` of ``text`` (content tokens, no special tokens).

    A pipeline of one block: while a helper thread encodes the words first seen in a
    block (the tokenizer releases the GIL), the next block is scanned; a block's
    counts are placed once its words are known. Without ``helper``, each block's new
    words are encoded on the calling thread: the same index. Whitespace that the
    tokenizer counts (a line break for byte-level BPE) is a group of its own, at the
    whitespace. ``starts_of`` gives the content tokens' starts of each text of a list
    (any family's ``token_starts_many``). ``known``: the words met before, read and
    added to (see ``WordCounts`` for when that is sound); the same index with or
    without it.
    """
    tokens_of: dict[str, int] = {}
    long_words: dict[str, array[int]] = {}
    met_counts, met_long = known.snapshot() if known is not None else ({}, {})
    separator_cost: dict[str, int] = {" ": 0, "": 0}
    typecode = offsets_typecode(len(text))
    positions, totals = array(typecode), array(typecode, [0])

    def place(
        starts: array[int],
        words: list[str],
        encoded: Future[_Encoded] | None,
        runs: list[tuple[int, int, int]] | None,
    ) -> None:
        if encoded is not None:
            new_counts, new_long_words = encoded.result()
            tokens_of.update(new_counts)
            long_words.update(new_long_words)
        counts = list(map(tokens_of.__getitem__, words))
        if runs is None:
            _place(positions, totals, starts, words, counts, long_words)
        else:
            _place(positions, totals, *_interleaved(starts, words, counts, runs), long_words)

    def costly(
        pieces: list[str], starts: Sequence[int], start: int
    ) -> list[tuple[int, int, int]] | None:
        """``(i, start, tokens)`` of each whitespace run of the block that costs tokens
        (``i``: the word after it), or ``None`` when none does."""
        runs = pieces[0::2]
        distinct = dict.fromkeys(runs)
        new = [run for run in distinct if run not in separator_cost]
        if new:
            separator_cost.update(_separator_costs(starts_of, new))
        if not any(map(separator_cost.__getitem__, distinct)):
            return None  # no run of this block costs a token (WordPiece: never)
        costs = list(map(separator_cost.__getitem__, runs))
        found = list(compress(range(len(costs)), costs))
        if not found:
            return None
        # A run starts where the word before it ends (the block's first, at its start).
        return [
            (at, starts[at - 1] + len(pieces[2 * at - 1]) if at else start, costs[at])
            for at in found
        ]

    with (
        ThreadPoolExecutor(max_workers=1, thread_name_prefix="word-index")
        if helper
        else _CallingThread()
    ) as encoder:
        waiting: (
            tuple[array[int], list[str], Future[_Encoded] | None, list[tuple[int, int, int]] | None]
            | None
        ) = None
        for start, end in _blocks(text):
            pieces = _PIECES.split(text[start:end])  # separator, word, separator, ...
            words = pieces[1::2]
            new = [word for word in dict.fromkeys(words) if word not in tokens_of]
            if met_counts and new:
                new = _take_known(new, met_counts, met_long, tokens_of, long_words)
            tokens_of.update(dict.fromkeys(new, 0))  # known from now on; counted below
            encoded = encoder.submit(_word_tokens, starts_of, new) if new else None
            starts = array(
                typecode, islice(accumulate(map(len, pieces), initial=start), 1, len(pieces), 2)
            )
            if waiting is not None:
                place(*waiting)
            waiting = (starts, words, encoded, costly(pieces, starts, start))
        if waiting is not None:
            place(*waiting)
    if known is not None:
        known.add(tokens_of, long_words)
    return TokenIndex(positions, totals)


def _take_known(
    new: list[str],
    met_counts: dict[str, int],
    met_long: dict[str, array[int]],
    tokens_of: dict[str, int],
    long_words: dict[str, array[int]],
) -> list[str]:
    """Copies the counts of the words of ``new`` met before into ``tokens_of`` (and
    ``long_words``), and returns the others. Each word is looked up once: another
    thread may add words to ``met_counts`` meanwhile, and a word seen missing once and
    present once would be neither copied nor encoded."""
    found = list(map(met_counts.get, new))
    if found.count(None) == len(found):
        return new
    met = [(word, count) for word, count in zip(new, found, strict=True) if count is not None]
    tokens_of.update(met)
    long_words.update((word, met_long[word]) for word, _ in met if word in met_long)
    return [word for word, count in zip(new, found, strict=True) if count is None]


def _blob_starts(starts_of: StartsOf, word: str) -> array[int]:
    """Token starts of a word longer than ``_BLOB``, encoded in pieces of
    ``_BLOB_PIECE`` characters (tokens at the pieces' edges are estimates)."""
    starts = array(offsets_typecode(len(word)))
    for piece in range(0, len(word), _BLOB_PIECE):
        (offsets,) = starts_of([word[piece : piece + _BLOB_PIECE]])
        starts.extend(piece + offset for offset in offsets)
    return starts


def _word_tokens(starts_of: StartsOf, unique: list[str]) -> _Encoded:
    """Tokens of each distinct word, and every token's start within the long ones.

    Words are joined by spaces into groups of about ``_GROUP`` characters, encoded
    ``_GROUPS_PER_CALL`` groups per call (on all cores, few encodings alive); a word
    longer than ``_BLOB`` (a blob) is encoded in pieces of ``_BLOB_PIECE``, its tokens
    at the pieces' edges estimated. Each group starts with ``_LEAD`` so that every word
    is measured after a word and a space, as in running text (byte-level BPE spends a
    token on a space that no word piece absorbs: " |" is two tokens, "|" one).
    """
    tokens_of: dict[str, int] = {}
    long_words: dict[str, array[int]] = {}
    groups: list[list[str]] = []
    for group in _groups(unique):
        if len(group) == 1 and len(group[0]) > _BLOB:
            word = group[0]
            long_words[word] = starts = _blob_starts(starts_of, word)
            tokens_of[word] = len(starts)
        else:
            groups.append(group)
    lead = len(starts_of([_LEAD.rstrip()])[0])
    for first in range(0, len(groups), _GROUPS_PER_CALL):
        batch = groups[first : first + _GROUPS_PER_CALL]
        encoded = starts_of([_LEAD + " ".join(group) for group in batch])
        for group, offsets in zip(batch, encoded, strict=True):
            position, index = len(_LEAD), lead
            for word in group:
                end = position + len(word)
                last = bisect_left(offsets, end, index)
                tokens_of[word] = last - index
                if last - index > _GROUPED_TOKENS:
                    long_words[word] = array(
                        offsets_typecode(len(word)),
                        [offset - position for offset in offsets[index:last]],
                    )
                index, position = last, end + 1
    return tokens_of, long_words
