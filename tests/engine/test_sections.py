"""Sections: given spans validated, gaps kept untitled, Markdown ATX headings detected."""

from __future__ import annotations

import inspect

import pytest

from langchain_asesoria import (
    ChunkingConfig,
    ChunkMetadata,
    InvalidSectionsError,
    LoadedPage,
    SectionSpan,
    chunk_document,
)
from langchain_asesoria.engine._segments import Segment, segments_for
from langchain_asesoria.structure.markdown import detect_markdown_sections
from langchain_asesoria.testing import ByteTokenization

TEXT = "Preámbulo. Artículo 1: el impuesto. Artículo 2: la cuota de 50 €."  # 65 characters
METADATA = ChunkMetadata(doc_id="ley-secciones", tax="IP", vigencia="2025")


def _chunk(
    text: str, sections: list[SectionSpan] | None = None, *, detect_markdown_headings: bool = False
):
    config = ChunkingConfig(max_tokens=256, overlap_tokens=0)
    return chunk_document(
        [LoadedPage(text, 1)],
        METADATA,
        config=config,
        tokenization=ByteTokenization(),
        sections=sections,
        detect_markdown_headings=detect_markdown_headings,
    )


# -- given spans ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sections",
    [
        pytest.param(
            [SectionSpan(36, 65, "Art. 2"), SectionSpan(11, 35, "Art. 1")], id="out-of-order"
        ),
        pytest.param(
            [SectionSpan(11, 40, "Art. 1"), SectionSpan(36, 65, "Art. 2")], id="overlapping"
        ),
        pytest.param([SectionSpan(11, 35, "Art. 1"), SectionSpan(11, 35, "Art. 1")], id="repeated"),
        pytest.param([SectionSpan(36, 66, "Art. 2")], id="past-the-end"),
        pytest.param([SectionSpan(-1, 10, "Preámbulo")], id="negative-start"),
        pytest.param([SectionSpan(11, 11, "Art. 1")], id="empty"),
        pytest.param([SectionSpan(35, 11, "Art. 1")], id="reversed"),
        pytest.param([(11, 35, "Art. 1")], id="not-a-span"),
        pytest.param([SectionSpan(11.0, 35, "Art. 1")], id="float-offset"),  # type: ignore[arg-type]
    ],
)
def test_invalid_spans_are_refused(sections: list[SectionSpan]):
    with pytest.raises(InvalidSectionsError):
        _chunk(TEXT, sections)


def test_spans_may_touch_and_cover_the_whole_text():
    sections = [
        SectionSpan(0, 11, "Preámbulo", ("Preámbulo",)),
        SectionSpan(11, 36, "Artículo 1", ("Artículo 1",)),
        SectionSpan(36, 65, "Artículo 2", ("Artículo 2",)),
    ]
    chunks = _chunk(TEXT, sections)
    assert [(c.text, c.metadata.section_label) for c in chunks] == [
        ("Preámbulo.", "Preámbulo"),
        ("Artículo 1: el impuesto.", "Artículo 1"),
        ("Artículo 2: la cuota de 50 €.", "Artículo 2"),
    ]


def test_gaps_are_segments_without_a_section():
    segments = segments_for([SectionSpan(11, 35, "Art. 1", ("Art. 1",))], len(TEXT))
    assert segments == [
        Segment(0, 11, None, ()),
        Segment(11, 35, "Art. 1", ("Art. 1",)),
        Segment(35, 65, None, ()),
    ]


def test_gaps_keep_document_metadata_with_no_invented_title():
    sections = [SectionSpan(11, 35, "Artículo 1", ("Ley", "Artículo 1"))]
    chunks = _chunk(TEXT, sections)
    assert [(c.text, c.metadata.section_label, c.metadata.section_path) for c in chunks] == [
        ("Preámbulo.", None, ()),
        ("Artículo 1: el impuesto.", "Artículo 1", ("Ley", "Artículo 1")),
        ("Artículo 2: la cuota de 50 €.", None, ()),
    ]
    before, section, after = chunks
    assert before.embedding_text == before.text
    assert after.embedding_text == after.text
    assert section.embedding_text == "Ley > Artículo 1\n\nArtículo 1: el impuesto."
    for chunk in chunks:
        assert (chunk.metadata.tax, chunk.metadata.vigencia) == ("IP", "2025")


def test_spans_are_offsets_of_the_joined_text_across_pages():
    pages = [LoadedPage("Título I.", 1), LoadedPage("Artículo 1. Texto.", 2)]
    start = len("Título I.\n\n")
    sections = [SectionSpan(start, start + len("Artículo 1. Texto."), "Artículo 1")]
    chunks = chunk_document(
        pages,
        METADATA,
        config=ChunkingConfig(max_tokens=64, overlap_tokens=0),
        tokenization=ByteTokenization(),
        sections=sections,
    )
    assert [(c.text, c.metadata.page, c.metadata.section_label) for c in chunks] == [
        ("Título I.", 1, None),
        ("Artículo 1. Texto.", 2, "Artículo 1"),
    ]


def test_span_past_the_joined_text_is_refused_even_when_inside_a_page_sum():
    pages = [LoadedPage("abc", 1), LoadedPage("def", 2)]  # joined "abc\n\ndef": 8 characters
    with pytest.raises(InvalidSectionsError):
        chunk_document(
            pages,
            METADATA,
            config=ChunkingConfig(max_tokens=64, overlap_tokens=0),
            tokenization=ByteTokenization(),
            sections=[SectionSpan(5, 9, "Fuera")],
        )


# -- Markdown headings ----------------------------------------------------------------------


def _detected(text: str) -> list[tuple[str, str | None, tuple[str, ...]]]:
    return [
        (text[s.start : s.end], s.section_label, s.section_path)
        for s in detect_markdown_sections(text)
    ]


@pytest.mark.parametrize("level", range(1, 7))
def test_atx_levels_one_to_six(level: int):
    text = f"{'#' * level} Título de nivel {level}\nCuerpo con ñ y €."
    assert _detected(text) == [(text, f"Título de nivel {level}", (f"Título de nivel {level}",))]


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("####### Siete almohadillas", id="seven-hashes"),
        pytest.param("#Sin espacio", id="no-space"),
        pytest.param("    # Indentado cuatro espacios", id="indented-code"),
        pytest.param("Texto # con almohadilla", id="inline-hash"),
    ],
)
def test_not_headings(line: str):
    assert detect_markdown_sections(f"{line}\nCuerpo.") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "# Ley\nPreámbulo.\n#\nSin título.",
            [("# Ley\nPreámbulo.\n", "Ley", ("Ley",)), ("#\nSin título.", None, ())],
            id="empty-h1-closes-everything",
        ),
        pytest.param(
            "# Ley\n## Uno\nTexto.\n## #\nOtro.",
            [
                ("# Ley\n## Uno\nTexto.\n", "Uno", ("Ley", "Uno")),
                ("## #\nOtro.", None, ("Ley",)),
            ],
            id="empty-h2-keeps-its-parent",
        ),
        pytest.param(
            "# Ley\n#\n### Tres\nCuerpo.",
            [("# Ley\n#\n### Tres\nCuerpo.", "Tres", ("Tres",))],
            id="headings-without-body-travel-with-the-next-section",
        ),
    ],
)
def test_empty_headings_close_sections_as_in_commonmark(
    text: str, expected: list[tuple[str, str | None, tuple[str, ...]]]
):
    """``#`` alone is an empty heading: it closes the sections of its level and below,
    and what follows has no invented title."""
    assert _detected(text) == expected


@pytest.mark.parametrize("newline", ["\r", "\r\n", "\n"])
def test_every_line_ending_ends_a_heading(newline: str):
    text = newline.join(["# Título", "Primer párrafo.", "", "## Dos", "Segundo párrafo."])
    one, two = detect_markdown_sections(text)
    assert (one.section_label, two.section_label) == ("Título", "Dos")
    assert two.section_path == ("Título", "Dos")
    assert text[two.start :].startswith("## Dos")


def test_up_to_three_spaces_of_indentation_is_a_heading():
    assert _detected("   ## Artículo 3\nTexto.") == [
        ("   ## Artículo 3\nTexto.", "Artículo 3", ("Artículo 3",))
    ]


@pytest.mark.parametrize(
    ("line", "title"),
    [
        ("## Artículo 1 ##", "Artículo 1"),
        ("# Título #", "Título"),
        ("## Otro ##   ", "Otro"),
        ("### Régimen ###########", "Régimen"),
        ("## Lenguaje C#", "Lenguaje C#"),
        ("##   Espacios alrededor   ", "Espacios alrededor"),
        ("#\tTabulador", "Tabulador"),
    ],
)
def test_closing_hashes_and_spaces_are_not_part_of_the_title(line: str, title: str):
    (span,) = detect_markdown_sections(f"{line}\nCuerpo.")
    assert span.section_label == title


@pytest.mark.parametrize("line", ["#", "# #", "### ###", "## ##  "])
def test_a_heading_with_only_closing_hashes_is_empty_and_has_no_title(line: str):
    # CommonMark: "### ###" is an empty heading: a block boundary with no title.
    (span,) = detect_markdown_sections(f"Texto.\n{line}\nCuerpo.")
    assert (span.start, span.section_label, span.section_path) == (7, None, ())


def test_hierarchical_paths():
    text = (
        "# Ley 19/1991\nPreámbulo.\n"
        "## Artículo 1\nUno.\n"
        "### Apartado 1.º\nDos.\n"
        "## Artículo 2\nTres.\n"
        "# Anexo\nCuatro."
    )
    assert [(label, path) for _, label, path in _detected(text)] == [
        ("Ley 19/1991", ("Ley 19/1991",)),
        ("Artículo 1", ("Ley 19/1991", "Artículo 1")),
        ("Apartado 1.º", ("Ley 19/1991", "Artículo 1", "Apartado 1.º")),
        ("Artículo 2", ("Ley 19/1991", "Artículo 2")),
        ("Anexo", ("Anexo",)),
    ]


def test_sections_run_to_the_next_heading_and_keep_the_heading_line():
    text = "# A\nuno\n## B\ndos\n# C\ntres"
    assert [chunk for chunk, _, _ in _detected(text)] == ["# A\nuno\n", "## B\ndos\n", "# C\ntres"]


@pytest.mark.parametrize(
    ("fence", "closing"),
    [("```", "```"), ("~~~", "~~~"), ("````", "````"), ("```python", "```"), ("~~~~", "~~~~~")],
)
def test_fenced_code_is_ignored(fence: str, closing: str):
    text = (
        f"# Código\nEjemplo:\n{fence}\n# no es un título\n## tampoco\n{closing}\n## Después\nFin."
    )
    assert [(label, path) for _, label, path in _detected(text)] == [
        ("Código", ("Código",)),
        ("Después", ("Código", "Después")),
    ]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("# A\n````\n```\n# dentro\n````\n# B\nx", id="shorter-fence-does-not-close"),
        pytest.param("# A\n```\n~~~\n# dentro\n```\n# B\nx", id="other-character-does-not-close"),
        pytest.param(
            "# A\n```\n# dentro\n``` no cierra\n# sigue\n```\n# B\nx", id="info-does-not-close"
        ),
        pytest.param("# A\n```\n# dentro\n```   \n# B\nx", id="trailing-spaces-close"),
        pytest.param("# A\n   ```\n# dentro\n   ```\n# B\nx", id="indented-fences"),
        pytest.param("# A\n~~~ a`b\n# dentro\n~~~\n# B\nx", id="tilde-info-may-hold-backticks"),
        pytest.param("# A\n``` a`b\n# B\nx", id="backtick-info-with-backtick-is-no-fence"),
    ],
)
def test_a_fence_closes_only_with_the_same_character_at_least_as_long(text: str):
    assert [label for _, label, _ in _detected(text)] == ["A", "B"]


def test_fence_before_the_first_heading_is_ignored():
    assert [label for _, label, _ in _detected("```\n# no\n```\n# Sí\nx")] == ["Sí"]


def test_unclosed_fence_runs_to_the_end():
    text = "# A\n```\n# dentro\n## también dentro\n"
    assert [label for _, label, _ in _detected(text)] == ["A"]


def test_heading_only_sections_fold_into_the_deeper_next_one():
    text = "## TÍTULO I\n\n### CAPÍTULO I\nTexto del capítulo.\n### CAPÍTULO II\nOtro texto."
    assert _detected(text) == [
        (
            "## TÍTULO I\n\n### CAPÍTULO I\nTexto del capítulo.\n",
            "CAPÍTULO I",
            ("TÍTULO I", "CAPÍTULO I"),
        ),
        ("### CAPÍTULO II\nOtro texto.", "CAPÍTULO II", ("TÍTULO I", "CAPÍTULO II")),
    ]


def test_several_heading_only_levels_fold_together():
    text = "# A\n## B\n### C\nx\n## D\ny"
    assert _detected(text) == [
        ("# A\n## B\n### C\nx\n", "C", ("A", "B", "C")),
        ("## D\ny", "D", ("A", "D")),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "## A\n## B\nx",
            [("## A\n## B\nx", "B", ("B",))],
            id="a-bare-sibling-travels-but-is-no-ancestor",
        ),
        pytest.param(
            "# Ley\n### JUAN CARLOS I\n### REY DE ESPAÑA\nA todos.",
            [
                (
                    "# Ley\n### JUAN CARLOS I\n### REY DE ESPAÑA\nA todos.",
                    "REY DE ESPAÑA",
                    ("Ley", "REY DE ESPAÑA"),
                )
            ],
            id="a-chain-of-headings-without-body",
        ),
        pytest.param(
            "# Ley\n## Uno\nTexto.\n##### Artículo 9\n## Dos\nMás.",
            [
                ("# Ley\n## Uno\nTexto.\n##### Artículo 9\n", "Uno", ("Ley", "Uno")),
                ("## Dos\nMás.", "Dos", ("Ley", "Dos")),
            ],
            id="before-a-shallower-heading-it-stays-behind",
        ),
        pytest.param(
            "# Ley\nTexto.\n## Final",
            [("# Ley\nTexto.\n## Final", "Ley", ("Ley",))],
            id="a-last-heading-without-body-stays-behind",
        ),
    ],
)
def test_no_section_is_only_headings(
    text: str, expected: list[tuple[str, str | None, tuple[str, ...]]]
):
    assert _detected(text) == expected


def test_text_before_the_first_heading_is_no_section():
    text = "Introducción sin título.\n\n# Artículo 1\nCuerpo."
    spans = detect_markdown_sections(text)
    assert [(s.start, s.section_label) for s in spans] == [(text.index("# Artículo"), "Artículo 1")]
    chunks = _chunk(text, detect_markdown_headings=True)
    assert [(c.text, c.metadata.section_label) for c in chunks] == [
        ("Introducción sin título.", None),
        ("# Artículo 1\nCuerpo.", "Artículo 1"),
    ]


def test_crlf_line_endings():
    text = "# Título\r\nTexto con ñ.\r\n## Sección\r\nMás € texto.\r\n"
    assert _detected(text) == [
        ("# Título\r\nTexto con ñ.\r\n", "Título", ("Título",)),
        ("## Sección\r\nMás € texto.\r\n", "Sección", ("Título", "Sección")),
    ]


def test_no_headings_no_sections():
    assert detect_markdown_sections("Texto plano.\nSin títulos, 20 € y 😀.") == []


def test_detection_is_off_by_default():
    keyword = inspect.signature(chunk_document).parameters["detect_markdown_headings"]
    assert keyword.default is False
    chunks = chunk_document(  # the keyword left out
        [LoadedPage("# Artículo 1\nUno.\n# Artículo 2\nDos.", 1)],
        METADATA,
        config=ChunkingConfig(max_tokens=256, overlap_tokens=0),
        tokenization=ByteTokenization(),
    )
    assert [(c.text, c.metadata.section_label) for c in chunks] == [
        ("# Artículo 1\nUno.\n# Artículo 2\nDos.", None)
    ]


def test_detected_spans_are_valid_for_chunk_document():
    text = "Antes.\n# A\nuno\n```\n# no\n```\n## B\ndos\n### C\n#### D\ncuatro\n# E\n"
    spans = detect_markdown_sections(text)
    assert segments_for(spans, len(text))  # validated: sorted, disjoint, in range, non-empty
    chunks = _chunk(text, detect_markdown_headings=True)
    assert [c.metadata.section_label for c in chunks] == [None, "A", "B", "D"]
    assert chunks[-1].text.endswith("# E")  # a last heading without body stays behind
