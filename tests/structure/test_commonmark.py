"""``structure.commonmark``: the fast paths read a line as the regular expressions do."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria.structure.commonmark import (
    _BREAK,
    _QUOTE_OR_HTML,
    ATX,
    FENCE,
    LINE,
    lines,
    starts_block,
)
from langchain_asesoria.structure.markdown import _heading_title

#: Characters that open or end lines and blocks, and some text.
_PIECES = st.sampled_from(
    [" ", "\t", "\n", "\r", "\r\n", "#", "`", "~", "-", "*", "_", ">", "<", "a", "Ñ", "1", "."]
)
_BLOCKS = st.sampled_from(["<div>", "<!--", "<?", "<![CDATA[", "</p>", "<script ", "```", "##"])
_TEXTS = st.lists(st.one_of(_PIECES, _BLOCKS), max_size=24).map("".join)
_LINES = _TEXTS.map(lambda text: re.sub(r"[\r\n]", "", text))


def _by_pattern(text: str) -> list[tuple[int, str]]:
    found = []
    for match in LINE.finditer(text):
        if not match.group():
            break
        found.append((match.start(), match.group().rstrip("\r\n")))
    return found


@given(_TEXTS)
def test_lines_are_those_line_finds(text: str) -> None:
    assert list(lines(text)) == _by_pattern(text)


@given(_LINES)
def test_starts_block_agrees_with_its_patterns(line: str) -> None:
    expected = bool(
        ATX.fullmatch(line)
        or FENCE.fullmatch(line)
        or _BREAK.fullmatch(line)
        or _QUOTE_OR_HTML.match(line)
    )
    assert starts_block(line) == expected


@given(_LINES)
def test_a_heading_is_what_atx_matches(line: str) -> None:
    assert (_heading_title(line) is not None) == (ATX.fullmatch(line) is not None)
