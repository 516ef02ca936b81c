"""``word_index``: a ``TokenIndex`` from the tokens of each distinct word.

Laws and guides repeat their words (18,000 distinct words in the 125,000 of the
benchmark corpus's six documents): the distinct words are encoded once, joined by
spaces in groups and on all cores, and every occurrence takes its word's count,
placed at the word's start. A word of more than ``_GROUPED_TOKENS`` tokens (a URL, a
table row without spaces, a blob) keeps each token's own start, so that it can be cut
inside. For tokenizers that pre-split at whitespace (WordPiece, as all-MiniLM-L6-v2;
Metaspace) counts between word boundaries are those of the whole text (where the
tokenizer and Python agree on what whitespace is); for others (byte-level BPE) they are
estimates, which only move proposed chunk ends: every chunk is still confirmed by an
exact count. The text is read in blocks, so that its word lists never exist whole.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from itertools import accumulate, islice

from tokenizers import Tokenizer

from langchain_asesoria.tokenization.base import TokenIndex

__all__ = ["token_starts_of", "word_index"]

_WORD = re.compile(r"\S+")
_SPACE = re.compile(r"\s")

#: Distinct words per encoded string, in characters, and such strings per call.
_GROUP = 1 << 14
_GROUPS_PER_CALL = 8

#: Characters per block of ``word_index``: its word lists live one block at a time.
_BLOCK = 1 << 16

#: Words of up to this many tokens are one group of a ``TokenIndex`` (99.9% of words
#: in laws); longer ones list every token's start.
_GROUPED_TOKENS = 8


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


def _spread(
    positions: list[int], counts: list[int], words: list[str], long_words: dict[str, list[int]]
) -> tuple[list[int], list[int]]:
    """``positions``/``counts`` with each long word's group replaced by its tokens."""
    spread_positions: list[int] = []
    spread_counts: list[int] = []
    done = 0
    for at in [i for i, word in enumerate(words) if word in long_words]:
        spread_positions += positions[done:at]
        spread_counts += counts[done:at]
        relative = long_words[words[at]]
        spread_positions += [positions[at] + offset for offset in relative]
        spread_counts += [1] * len(relative)
        done = at + 1
    spread_positions += positions[done:]
    spread_counts += counts[done:]
    return spread_positions, spread_counts


def word_index(tokenizer: Tokenizer, text: str) -> TokenIndex:
    """The word-grouped ``TokenIndex`` of ``text`` (content tokens, no special tokens)."""
    blocks = _blocks(text)
    unique: dict[str, None] = {}
    for start, end in blocks:
        unique.update(dict.fromkeys(_WORD.findall(text, start, end)))
    tokens_of, long_words = _word_tokens(tokenizer, list(unique))
    del unique
    positions, totals = array("q"), array("q", [0])
    for start, end in blocks:
        words = _WORD.findall(text, start, end)
        starts = [match.start() for match in _WORD.finditer(text, start, end)]
        counts = list(map(tokens_of.__getitem__, words))
        if long_words:
            starts, counts = _spread(starts, counts, words, long_words)
        positions.extend(starts)
        totals.extend(islice(accumulate(counts, initial=totals[-1]), 1, None))
    return TokenIndex(positions, totals)


def token_starts_of(tokenizer: Tokenizer, text: str) -> list[int]:
    """Start offsets of the content tokens of ``text``, from its own encoding."""
    return [start for start, _ in tokenizer.encode(text, add_special_tokens=False).offsets]


def _word_tokens(
    tokenizer: Tokenizer, unique: list[str]
) -> tuple[dict[str, int], dict[str, list[int]]]:
    """Tokens of each distinct word, and every token's start within the long ones.

    Words are joined by spaces into groups of about ``_GROUP`` characters, encoded
    ``_GROUPS_PER_CALL`` groups per call (on all cores, few encodings alive); a word
    longer than ``_BLOCK`` (a blob) is encoded in pieces of that size, its tokens
    at the pieces' edges estimated.
    """
    tokens_of: dict[str, int] = {}
    long_words: dict[str, list[int]] = {}
    groups: list[list[str]] = []
    for group in _groups(unique):
        if len(group) == 1 and len(group[0]) > _BLOCK:
            word = group[0]
            starts = [
                piece + offset
                for piece in range(0, len(word), _BLOCK)
                for offset in token_starts_of(tokenizer, word[piece : piece + _BLOCK])
            ]
            tokens_of[word] = len(starts)
            long_words[word] = starts
        else:
            groups.append(group)
    for first in range(0, len(groups), _GROUPS_PER_CALL):
        batch = groups[first : first + _GROUPS_PER_CALL]
        encodings = tokenizer.encode_batch(
            [" ".join(group) for group in batch], add_special_tokens=False
        )
        for group, encoding in zip(batch, encodings, strict=True):
            offsets = [start for start, _ in encoding.offsets]
            position = index = 0
            for word in group:
                end = position + len(word)
                last = bisect_left(offsets, end, index)
                tokens_of[word] = last - index
                if last - index > _GROUPED_TOKENS:
                    long_words[word] = [offset - position for offset in offsets[index:last]]
                index, position = last, end + 1
    return tokens_of, long_words
