"""Helpers for the tests of the engine's steps: a section of a text, and a tokenization
whose estimate is deliberately wrong (so that plans fail and corrections run)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_asesoria import Tokenization
from langchain_asesoria.engine import TokenIndex
from langchain_asesoria.engine._section import Section
from langchain_asesoria.models import DEFAULT_SEPARATORS
from langchain_asesoria.testing import WordTokenization

__all__ = ["Underestimating", "section_of"]


def section_of(
    text: str,
    tokenization: Tokenization,
    *,
    budget: int,
    overlap: int = 0,
    context: str = "",
    separators: Sequence[str] = DEFAULT_SEPARATORS,
) -> Section:
    """The whole ``text`` as one section (it must hold some non-whitespace)."""
    return Section.build(
        text,
        (0, len(text)),
        context=context,
        fixed=tokenization.count(tokenization.prepare("", context)),
        budget=budget,
        overlap_target=overlap,
        index=tokenization.token_index(text),
        separators=tuple(re.compile(pattern) for pattern in separators),
        doc_id="prueba",
    )


class Underestimating(WordTokenization):
    """Word pieces, counted exactly, but estimated at one token per ``every`` pieces:
    nearly every plan is over budget and must be corrected by exact counts."""

    __slots__ = ("_every",)

    def __init__(self, limit: int = 512, every: int = 3) -> None:
        super().__init__(limit)
        self._every = every

    def token_index(self, text: str) -> TokenIndex:
        return TokenIndex.from_starts(list(self.token_starts(text))[:: self._every])


def titles_left(path: Sequence[str], opening: str) -> list[str]:
    """The titles a section's first chunk still needs in its compact context: those of
    ``path`` that its opening title text ``opening`` (the heading lines it starts with)
    does not show, taken from the end (letters and digits compared, case folded)."""

    def folded(title: str) -> str:
        return re.sub(r"[\W_]+", "", title.casefold())

    titles = [title for title in path if title.strip()]
    shown = folded(opening)
    while titles and folded(titles[-1]) and folded(titles[-1]) in shown:
        titles.pop()
    return titles


def check_compact_context(
    context: str,
    label: str | None,
    path: Sequence[str],
    *,
    added: int,
    allowance: int,
) -> None:
    """A compact context is a compact form of the section's titles, and cheap.

    Its parts are the titles in order (the outermost and innermost kept, the middle
    elided with "…", a title cut at a word boundary ending in " …"), the innermost
    last; it adds at most ``allowance`` tokens.
    """
    assert added <= allowance, (context, added, allowance)
    if not context:
        return
    titles = [title.strip() for title in path if title.strip()]
    if not titles and label and label.strip():
        titles = [label.strip()]
    parts = context.split(" > ")
    position = 0
    for part in parts:
        if part == "…":
            continue
        stem = part.removesuffix(" …")
        found = [i for i in range(position, len(titles)) if titles[i].startswith(stem)]
        assert found, (part, titles)
        position = found[0] + 1
    assert titles[-1].startswith(parts[-1].removesuffix(" …")), (parts, titles)
