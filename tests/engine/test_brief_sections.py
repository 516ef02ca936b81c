"""Brief sections (``engine._build``): a section estimated to fit in one chunk has only
its opening context chosen and counted; when the estimate was wrong it is built whole
and packed again. The chunks are those of building every section whole at once."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
from langchain_asesoria.engine import TokenIndex, _build, _document
from langchain_asesoria.engine._section import Section
from langchain_asesoria.engine._segments import Segment
from langchain_asesoria.models import Chunk
from langchain_asesoria.testing import CountingTokenization, WordTokenization

ROOT = Path(__file__).resolve().parents[2]
LAW = (ROOT / "corpus" / "markdown" / "BOE-A-1991-14392.md").read_text(encoding="utf-8")[:40_000]
CONFIG = ChunkingConfig(max_tokens=160, overlap_tokens=20)


class _Underestimating(WordTokenization):
    """Exact counts, but an index that sees one token in three: most sections look
    as if they fit in one chunk, and do not."""

    __slots__ = ()

    def token_index(self, text: str) -> TokenIndex:
        starts: Sequence[int] = self.token_starts(text)
        return TokenIndex.from_starts(starts[::3])


def _chunks(tokenization: WordTokenization) -> list[Chunk]:
    return chunk_document(
        [LoadedPage(LAW, 1)],
        ChunkMetadata("ley"),
        config=CONFIG,
        tokenization=tokenization,
        detect_markdown_headings=True,
    )


def _all_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_build, "_brief", lambda built, segments: [False] * len(segments))


@pytest.mark.parametrize("tokenization", [WordTokenization(512), _Underestimating(512)])
def test_brief_sections_give_the_chunks_of_whole_ones(
    tokenization: WordTokenization, monkeypatch: pytest.MonkeyPatch
) -> None:
    rebuilt: list[int] = []
    whole = _build.whole_section

    def counted(built: _build.Sectioning, segment: Segment) -> Section:
        rebuilt.append(segment.start)
        return whole(built, segment)

    with monkeypatch.context() as patched:
        patched.setattr(_document, "whole_section", counted)
        brief = _chunks(tokenization)
    with monkeypatch.context() as patched:
        _all_whole(patched)
        expected = _chunks(tokenization)
    assert brief == expected
    assert all(chunk.token_count <= CONFIG.max_tokens for chunk in brief)
    assert all(LAW[chunk.start : chunk.end] == chunk.text for chunk in brief)
    if isinstance(tokenization, _Underestimating):
        assert len(rebuilt) > 5  # wrong estimates: sections built again, whole
    else:
        assert not rebuilt  # exact estimates: every brief section fitted


def test_brief_sections_count_fewer_contexts(monkeypatch: pytest.MonkeyPatch) -> None:
    brief = CountingTokenization(WordTokenization(512))
    _chunks(brief)  # type: ignore[arg-type]
    whole = CountingTokenization(WordTokenization(512))
    with monkeypatch.context() as patched:
        _all_whole(patched)
        _chunks(whole)  # type: ignore[arg-type]
    assert brief.exact < whole.exact
    assert brief.characters < whole.characters
