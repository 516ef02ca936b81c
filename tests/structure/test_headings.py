"""``structure.headings.sections_of``: every path a chain of open ancestors, in text order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_asesoria.structure.headings import Heading, sections_of
from langchain_asesoria.structure.markdown import detect_markdown_sections

#: A heading: its level and whether body text follows it.
_HEADING = st.tuples(st.integers(1, 6), st.booleans())


def _markdown(plan: list[tuple[int, bool]]) -> tuple[str, list[tuple[int, int]]]:
    """Markdown for the plan, and each heading's (start, level), titles ``H0``, ``H1``..."""
    parts: list[str] = []
    where: list[tuple[int, int]] = []
    position = 0
    for number, (level, body) in enumerate(plan):
        line = f"{'#' * level} H{number}\n"
        where.append((position, level))
        block = line + (f"Cuerpo {number} con ñ y 20 €.\n" if body else "")
        parts.append(block)
        position += len(block)
    return "".join(parts), where


def _check_paths(text: str, where: list[tuple[int, int]]) -> None:
    titles = {f"H{number}": (start, level) for number, (start, level) in enumerate(where)}
    for span in detect_markdown_sections(text):
        path = span.section_path
        assert span.section_label is None or path[-1] == span.section_label
        found = [titles[title] for title in path]
        starts = [start for start, _ in found]
        levels = [level for _, level in found]
        assert starts == sorted(starts), "a path is in text order"
        assert levels == sorted(set(levels)), "each title encloses the next"
        own = titles[path[-1]][0] if path else None
        for start, level in found[:-1]:  # each ancestor is still open at the section's heading
            between = [lv for s, lv in where if start < s < (own or 0)]
            assert all(lv > level for lv in between), "no heading closed an ancestor"
        assert len(path) <= 6


@settings(max_examples=300)
@given(st.lists(_HEADING, min_size=1, max_size=40))
def test_every_path_is_a_chain_of_open_ancestors_in_text_order(
    plan: list[tuple[int, bool]],
) -> None:
    text, where = _markdown(plan)
    _check_paths(text, where)


def test_a_thousand_bare_headings_give_a_short_path() -> None:
    plan = [(2 + number % 3, False) for number in range(1000)] + [(4, True)]
    text, where = _markdown(plan)
    (span,) = detect_markdown_sections(text)
    assert len(span.section_path) <= 3
    _check_paths(text, where)


def test_the_reproductions_keep_document_order() -> None:
    spans = detect_markdown_sections(
        "# Ley\n\n## TÍTULO I\n\n## TÍTULO II\n\n### Artículo 1\n\nTexto."
    )
    assert [s.section_path for s in spans] == [("Ley", "TÍTULO II", "Artículo 1")]
    spans = detect_markdown_sections("# A\n## B\n# C\n## D\n\nCuerpo.")
    assert [s.section_path for s in spans] == [("C", "D")]


def test_sections_of_takes_any_source_of_headings() -> None:
    headings = [
        Heading(0, 3, 1, "Ley", body_is_empty=True),
        Heading(4, 13, 2, "Artículo 1", body_is_empty=False),
        Heading(30, 39, 2, "Artículo 2", body_is_empty=False),
    ]
    spans = sections_of(headings, 50)
    assert [(s.start, s.end, s.section_path) for s in spans] == [
        (0, 30, ("Ley", "Artículo 1")),
        (30, 50, ("Ley", "Artículo 2")),
    ]


def test_a_title_too_long_for_the_room_is_cut_at_words_not_characters() -> None:
    """With the whole path as context, a 300-character title leaves little room: its
    chunks are cut at spaces (the contract's order), never inside a word."""
    from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
    from langchain_asesoria.testing import WordTokenization

    title = (
        "Disposición adicional primera. Derechos de los contribuyentes en los procedimientos "
        "de comprobación e investigación tributaria y régimen de las deducciones por "
        "inversión en actividades económicas realizadas en territorios de régimen foral"
    )
    text = f"# Ley\n\n## {title}\n\nEl texto de la disposición dice así. Otra frase más.\n"
    tokenization = WordTokenization()
    context = tokenization.count(tokenization.prepare("", f"Ley > {title}"))
    config = ChunkingConfig(max_tokens=context + 8, overlap_tokens=0, section_context="path")
    chunks = chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="ley"),
        config=config,
        tokenization=tokenization,
        detect_markdown_headings=True,
    )
    assert len(chunks) > 3
    for chunk in chunks:
        before = text[chunk.start - 1] if chunk.start else " "
        assert not (before.isalnum() and text[chunk.start].isalnum()), chunk.text
        assert not (text[chunk.end - 1].isalnum() and text[chunk.end : chunk.end + 1].isalnum())
