"""chunk_document: one test (or one table row) per point of the contract in SPEC.md."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

import pytest
from engine_cases import titles_left

from langchain_asesoria import (
    Chunk,
    ChunkingConfig,
    ChunkMetadata,
    ConfigurationError,
    ContextTooLongError,
    IndivisibleCharacterError,
    LoadedPage,
    ModelLimitError,
    SectionSpan,
    chunk_document,
    join_pages,
)
from langchain_asesoria.reading.given import iter_chunks
from langchain_asesoria.testing import ByteTokenization, CountingTokenization, WordTokenization
from langchain_asesoria.tokenization import HuggingFaceTokenization, TokenIndex, Tokenization

METADATA = ChunkMetadata(
    doc_id="ley-19-1991",
    doc_type="official_guide",
    tax="IP",
    fiscal_year=2025,
    source_scope="public",
    vigencia="2025-01-01/2025-12-31",
)

LEY_PAGES = (
    LoadedPage(
        "# Ley 19/1991, del Impuesto sobre el Patrimonio\n\n"
        "Preámbulo: el impuesto grava el patrimonio neto de las personas físicas. "
        "Se aplica en todo el territorio español, sin perjuicio de los regímenes forales.\n\n"
        "## Artículo 1. Naturaleza\n\n"
        "El Impuesto sobre el Patrimonio es un tributo de carácter directo y naturaleza "
        "personal que grava el patrimonio neto de las personas físicas 🏠.",
        1,
    ),
    LoadedPage(
        "## Artículo 2. Ámbito territorial\n\n"
        "El impuesto se exigirá en todo el territorio español. Los mínimos exentos ascienden "
        "a 700.000 € por contribuyente, y la vivienda habitual está exenta hasta 300.000 €.\n\n"
        "Los cónyuges 👩‍❤️‍👨 tributan por separado; cada año se declara el patrimonio "
        "a 31 de diciembre.",
        2,
    ),
    LoadedPage(
        "## Artículo 3. Hecho imponible\n\n"
        "Constituirá el hecho imponible la titularidad por el sujeto pasivo, en el momento "
        "del devengo, del patrimonio neto. ¿Se presume? Sí: se presumirá que forman parte "
        "del patrimonio los bienes y derechos que hubieran pertenecido al sujeto pasivo en "
        "el momento del anterior devengo, salvo prueba de transmisión o pérdida patrimonial.\n"
        "Cañadas, señoríos y otros bienes rústicos también computan.",
        3,
    ),
)


def _chunk(
    text_or_pages: str | Sequence[LoadedPage],
    max_tokens: int,
    overlap_tokens: int = 0,
    *,
    tokenization: Tokenization | None = None,
    metadata: ChunkMetadata = METADATA,
    sections: Sequence[SectionSpan] | None = None,
    detect_markdown_headings: bool = False,
    **options: object,
) -> list[Chunk]:
    pages = (
        [LoadedPage(text_or_pages, 1)] if isinstance(text_or_pages, str) else list(text_or_pages)
    )
    options.setdefault("section_context", "path")  # the specification's context, by default
    config = ChunkingConfig(max_tokens=max_tokens, overlap_tokens=overlap_tokens, **options)  # type: ignore[arg-type]
    return chunk_document(
        pages,
        metadata,
        config=config,
        tokenization=tokenization or ByteTokenization(512),
        sections=sections,
        detect_markdown_headings=detect_markdown_headings,
    )


def _texts(chunks: Sequence[Chunk]) -> list[str]:
    return [chunk.text for chunk in chunks]


def _joined(pages: Sequence[LoadedPage], separator: str = "\n\n") -> str:
    return join_pages(pages, separator).text


def _context(chunk: Chunk, mode: str = "path") -> str:
    meta = chunk.metadata
    if mode == "none" or (meta.section_label is None and not meta.section_path):
        return ""
    if mode == "label":
        return meta.section_label or meta.section_path[-1]
    if mode == "compact":
        return _compact_context_of(chunk)
    return " > ".join(meta.section_path)


def _compact_context_of(chunk: Chunk) -> str:
    """The context before a compact chunk's text, checked to be a compact form of its
    path: its titles in order, each whole or cut at a word boundary with "…", the
    middle elided with "…", the innermost title (or its start) last."""
    head = chunk.embedding_text[: len(chunk.embedding_text) - len(chunk.text)]
    context = head.removesuffix("\n\n").removeprefix("passage: ")
    if not context:
        return ""
    path = list(chunk.metadata.section_path)
    headings = list(itertools.takewhile(lambda line: line.startswith("#"), chunk.text.splitlines()))
    if headings:  # a section's first chunk: its context leaves out the titles shown
        path = titles_left(path, "\n".join(headings))
    parts = context.split(" > ")
    position = 0
    for part in parts:
        if part == "…":
            continue
        stem = part.removesuffix(" …")
        found = [i for i, title in enumerate(path) if i >= position and title.startswith(stem)]
        assert found, (part, path)
        position = found[0] + 1
    assert path[-1].startswith(parts[-1].removesuffix(" …")), (parts, path)
    return context


TOKENIZATIONS = {
    "bytes": lambda: ByteTokenization(512),
    "words": lambda: WordTokenization(512),
    "bytes+passage": lambda: ByteTokenization(512, document_prefix="passage: "),
}

#: ``ley_run``'s ``ChunkingConfig`` fields (``detect_markdown_headings``: the call's keyword).
CONFIGS = [
    pytest.param(dict(max_tokens=48, overlap_tokens=0), id="48/0"),
    pytest.param(dict(max_tokens=64, overlap_tokens=8), id="64/8"),
    pytest.param(dict(max_tokens=96, overlap_tokens=24), id="96/24"),
    pytest.param(
        dict(
            max_tokens=160, overlap_tokens=16, detect_markdown_headings=True, section_context="path"
        ),
        id="md",
    ),
    pytest.param(
        dict(max_tokens=160, overlap_tokens=16, detect_markdown_headings=True), id="md-compact"
    ),
    pytest.param(
        dict(
            max_tokens=80, overlap_tokens=10, detect_markdown_headings=True, section_context="label"
        ),
        id="md-label",
    ),
]


@pytest.fixture(params=sorted(TOKENIZATIONS))
def tokenization(request: pytest.FixtureRequest) -> Tokenization:
    return TOKENIZATIONS[request.param]()  # type: ignore[no-any-return]


@pytest.fixture(params=CONFIGS)
def ley_options(request: pytest.FixtureRequest) -> dict[str, object]:
    """One of ``CONFIGS``: ``ChunkingConfig`` fields and ``detect_markdown_headings``."""
    return dict(request.param)


def _ley_detect(ley_options: dict[str, object]) -> bool:
    return bool(ley_options.get("detect_markdown_headings", False))


@pytest.fixture
def ley_run(
    ley_options: dict[str, object], tokenization: Tokenization
) -> tuple[list[Chunk], str, ChunkingConfig, Tokenization]:
    fields = {k: v for k, v in ley_options.items() if k != "detect_markdown_headings"}
    config = ChunkingConfig(**fields)  # type: ignore[arg-type]
    chunks = chunk_document(
        LEY_PAGES,
        METADATA,
        config=config,
        tokenization=tokenization,
        detect_markdown_headings=_ley_detect(ley_options),
    )
    return chunks, _joined(LEY_PAGES), config, tokenization


# -- text and positions -------------------------------------------------------------


def test_text_is_the_joined_slice(ley_run: tuple[list[Chunk], str, ChunkingConfig, Tokenization]):
    chunks, joined, _, _ = ley_run
    assert len(chunks) > 3
    for chunk in chunks:
        assert chunk.text == joined[chunk.start : chunk.end]


def test_outer_whitespace_is_trimmed_by_offsets(
    ley_run: tuple[list[Chunk], str, ChunkingConfig, Tokenization],
):
    chunks, _, _, _ = ley_run
    for chunk in chunks:
        assert chunk.text
        assert chunk.text == chunk.text.strip()
        assert chunk.start < chunk.end


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("   Hola, señora.   ", [(3, 16, "Hola, señora.")]),
        ("\n\n\tÑandú 🐦\n", [(3, 10, "Ñandú 🐦")]),
        ("\u00a0Año 2025\u3000", [(1, 9, "Año 2025")]),
    ],
)
def test_outer_whitespace_moves_offsets_never_edits_text(
    text: str, expected: list[tuple[int, int, str]]
):
    chunks = _chunk(text, 64)
    assert [(c.start, c.end, c.text) for c in chunks] == expected


def test_pages_are_those_of_each_chunk_body(
    ley_run: tuple[list[Chunk], str, ChunkingConfig, Tokenization],
):
    chunks, _, config, _ = ley_run
    joined = join_pages(LEY_PAGES, config.page_separator)
    for chunk in chunks:
        assert chunk.metadata.page == joined.page_at(chunk.start)
        assert chunk.metadata.page_end == joined.page_at(chunk.end - 1)
        assert chunk.metadata.page is not None
        assert chunk.metadata.page_end is not None
        assert chunk.metadata.page <= chunk.metadata.page_end
    assert {c.metadata.page for c in chunks} == {1, 2, 3}


def test_one_page_gives_page_end_equal_to_page():
    chunks = _chunk([LoadedPage("Rendimientos del trabajo: 1.200 €.", 7)], 64)
    assert [(c.metadata.page, c.metadata.page_end) for c in chunks] == [(7, 7)]


def test_a_chunk_crosses_a_page_boundary():
    pages = [
        LoadedPage("El contribuyente declaró 1.500 € de", 4),
        LoadedPage("rendimientos del capital mobiliario en 2025.", 5),
    ]
    chunks = _chunk(pages, 128)
    assert len(chunks) == 1
    (chunk,) = chunks
    assert (
        chunk.text
        == "El contribuyente declaró 1.500 € de\n\nrendimientos del capital mobiliario en 2025."
    )
    assert (chunk.metadata.page, chunk.metadata.page_end) == (4, 5)


def test_page_range_is_of_the_body_not_of_the_added_title():
    title_page = LoadedPage("Artículo 5. Sujeto pasivo", 1)
    body_page = LoadedPage(
        "Son sujetos pasivos las personas físicas que tengan su residencia habitual en "
        "España. También lo son, por obligación real, los no residentes con bienes aquí.",
        2,
    )
    joined = _joined([title_page, body_page])
    body_start = joined.index("Son")
    sections = [
        SectionSpan(
            body_start, len(joined), "Artículo 5. Sujeto pasivo", ("Artículo 5. Sujeto pasivo",)
        )
    ]
    chunks = _chunk([title_page, body_page], 96, 8, sections=sections)
    in_section = [c for c in chunks if c.metadata.section_label is not None]
    assert len(in_section) > 1
    for chunk in in_section:
        assert chunk.embedding_text.startswith("Artículo 5. Sujeto pasivo\n\n")
        assert (chunk.metadata.page, chunk.metadata.page_end) == (2, 2)


def test_page_range_with_detected_heading_follows_the_body():
    pages = [
        LoadedPage("# Capítulo I. Disposiciones generales\n\nEl impuesto es directo.", 1),
        LoadedPage("Grava el patrimonio neto de las personas físicas residentes en España.", 2),
        LoadedPage("Y el de los no residentes por los bienes situados en territorio español.", 3),
    ]
    chunks = _chunk(pages, 96, 0, detect_markdown_headings=True)
    assert len(chunks) >= 3
    for chunk in chunks:
        assert chunk.embedding_text.startswith("Capítulo I. Disposiciones generales\n\n")
    assert chunks[-1].metadata.page == 3
    assert chunks[-1].metadata.page_end == 3


# -- tokens ---------------------------------------------------------------------------


def test_token_count_is_the_exact_count_of_embedding_text_within_budget(
    ley_run: tuple[list[Chunk], str, ChunkingConfig, Tokenization],
):
    chunks, _, config, tokenization = ley_run
    for chunk in chunks:
        assert chunk.token_count == tokenization.count(chunk.embedding_text)
        assert chunk.token_count <= config.max_tokens


def test_prepare_is_the_only_builder_of_embedding_text(
    ley_run: tuple[list[Chunk], str, ChunkingConfig, Tokenization],
):
    chunks, _, config, tokenization = ley_run
    for chunk in chunks:
        context = _context(chunk, config.section_context)
        assert chunk.embedding_text == tokenization.prepare(chunk.text, context)


def test_model_prefix_is_in_embedding_text_and_counted():
    tokenization = ByteTokenization(512, document_prefix="passage: ")
    text = "La cuota íntegra se reduce en 500 €."
    (chunk,) = _chunk(text, 128, tokenization=tokenization)
    assert chunk.text == text
    assert chunk.embedding_text == "passage: " + text
    assert chunk.token_count == len(("passage: " + text).encode("utf-8")) + 2


@pytest.mark.parametrize(
    ("prefix", "expected"),
    [
        ("", ["uno dos tres cuatro", "cinco seis siete ocho", "nueve diez once doce"]),
        (
            "passage: ",
            ["uno dos tres", "cuatro cinco", "seis siete", "ocho nueve", "diez once", "doce"],
        ),
    ],
)
def test_budget_counts_the_prefix_so_content_gets_less_room(prefix: str, expected: list[str]):
    text = "uno dos tres cuatro cinco seis siete ocho nueve diez once doce"
    chunks = _chunk(text, 24, tokenization=ByteTokenization(512, document_prefix=prefix))
    assert _texts(chunks) == expected
    assert all(c.token_count <= 24 for c in chunks)


def test_no_text_is_dropped(ley_run: tuple[list[Chunk], str, ChunkingConfig, Tokenization]):
    chunks, joined, _, _ = ley_run
    covered = [False] * len(joined)
    for chunk in chunks:
        covered[chunk.start : chunk.end] = [True] * (chunk.end - chunk.start)
    missing = [i for i, char in enumerate(joined) if not char.isspace() and not covered[i]]
    assert missing == []


def test_iter_chunks_builds_the_same_chunks_one_at_a_time(
    ley_run: tuple[list[Chunk], str, ChunkingConfig, Tokenization],
    ley_options: dict[str, object],
) -> None:
    chunks, _, config, tokenization = ley_run
    lazy = iter_chunks(
        LEY_PAGES,
        METADATA,
        config=config,
        tokenization=tokenization,
        detect_markdown_headings=_ley_detect(ley_options),
    )
    assert not isinstance(lazy, list)
    assert next(lazy) == chunks[0]
    assert [chunks[0], *lazy] == chunks


def test_iter_chunks_checks_its_arguments_when_called_not_when_read() -> None:
    config = ChunkingConfig(max_tokens=1024, overlap_tokens=0)
    with pytest.raises(ModelLimitError):
        iter_chunks(LEY_PAGES, METADATA, config=config, tokenization=ByteTokenization(512))
    with pytest.raises(ConfigurationError):
        iter_chunks(LEY_PAGES, "ley", config=config, tokenization=ByteTokenization(2048))  # type: ignore[arg-type]


def test_pages_from_a_generator_give_the_same_chunks():
    as_list = _chunk(LEY_PAGES, 64, 8)
    from_generator = chunk_document(
        (page for page in LEY_PAGES),
        METADATA,
        config=ChunkingConfig(max_tokens=64, overlap_tokens=8),
        tokenization=ByteTokenization(512),
    )
    assert from_generator == as_list


@pytest.mark.parametrize("separator", ["\n", "\f", "\n\n\n"])
def test_offsets_follow_the_configured_page_separator(separator: str):
    pages = [LoadedPage("Cuota: 1.500 € de", 1), LoadedPage("la declaración.", 2)]
    (chunk,) = _chunk(pages, 128, page_separator=separator)
    assert chunk.text == f"Cuota: 1.500 € de{separator}la declaración."
    assert (chunk.start, chunk.end) == (0, len(chunk.text))
    assert (chunk.metadata.page, chunk.metadata.page_end) == (1, 2)


def test_chunks_are_in_document_order(
    ley_run: tuple[list[Chunk], str, ChunkingConfig, Tokenization],
):
    chunks, _, _, _ = ley_run
    for previous, chunk in itertools.pairwise(chunks):
        assert previous.start < chunk.start
        assert previous.end < chunk.end


# -- splitting --------------------------------------------------------------------------


def test_a_section_that_fits_is_one_chunk():
    text = (
        "# Artículo 1\n\nPárrafo uno del artículo.\n\nPárrafo dos, con 30 €.\n\n"
        "# Artículo 2\n\nOtro párrafo."
    )
    chunks = _chunk(text, 512, 16, detect_markdown_headings=True)
    assert _texts(chunks) == [
        "# Artículo 1\n\nPárrafo uno del artículo.\n\nPárrafo dos, con 30 €.",
        "# Artículo 2\n\nOtro párrafo.",
    ]
    assert [c.metadata.section_label for c in chunks] == ["Artículo 1", "Artículo 2"]


def test_given_sections_that_fit_are_one_chunk_each():
    text = "Primera sección: ñandú.\nSegunda sección: pingüino.\nTercera: 10 €."
    first, second = text.index("Segunda"), text.index("Tercera")
    sections = [
        SectionSpan(0, first, "Uno", ("Uno",)),
        SectionSpan(first, second, "Dos", ("Dos",)),
        SectionSpan(second, len(text), "Tres", ("Tres",)),
    ]
    chunks = _chunk(text, 512, 16, sections=sections)
    assert _texts(chunks) == [
        "Primera sección: ñandú.",
        "Segunda sección: pingüino.",
        "Tercera: 10 €.",
    ]


@pytest.mark.parametrize(
    ("text", "max_tokens", "expected", "separators"),
    [
        pytest.param(
            "Sol.\n\nDos tres.\nCuatro.",
            22,
            ["Sol.", "Dos tres.\nCuatro."],
            None,
            id="paragraphs-before-lines",
        ),
        pytest.param(
            "Pagos fraccionados.\n\n2. Las personas físicas.\n\nOcho.\n\nUno. Los bienes.",
            30,
            ["Pagos fraccionados.", "2. Las personas físicas.", "Ocho.\n\nUno. Los bienes."],
            None,
            id="an-item-label-opens-its-text",
        ),
        pytest.param(
            "Uno dos tres cuatro.\nCinco. Seis siete.",
            29,
            ["Uno dos tres cuatro.", "Cinco. Seis siete."],
            None,
            id="lines-before-sentence-ends",
        ),
        pytest.param(
            "Hola mundo. Adiós amigo mío.",
            22,
            ["Hola mundo.", "Adiós amigo mío."],
            None,
            id="sentence-ends-before-spaces",
        ),
        pytest.param(
            "Dijo «basta.» Luego calló.",
            22,
            ["Dijo «basta.»", "Luego calló."],
            None,
            id="closing-quote-stays-with-its-sentence",
        ),
        pytest.param(
            "Uno, dos; tres, cuatro",
            20,
            ["Uno, dos;", "tres, cuatro"],
            None,
            id="semicolons-before-commas",
        ),
        pytest.param(
            "ALBACETE. | 02 | JAÉN. | 23; ALMERÍA. | 04 | LUGO. | 27",
            36,
            ["ALBACETE. | 02 | JAÉN. | 23;", "ALMERÍA. | 04 | LUGO. | 27"],
            None,
            id="rows-of-a-table-in-a-cell-not-cut-at-a-cells-period",
        ),
        pytest.param(
            "Anticonstitucionalmente es larguísima",
            27,
            ["Anticonstitucionalmente", "es larguísima"],
            None,
            id="spaces",
        ),
        pytest.param(
            "Hola mundo. Adiós amigo mío.",
            22,
            ["Hola mundo. Adiós", "amigo mío."],
            (r"\n\n", r"\n", r" "),
            id="specification-order-paragraphs-lines-spaces",
        ),
    ],
)
def test_recursive_split_order(
    text: str, max_tokens: int, expected: list[str], separators: tuple[str, ...] | None
):
    options = {} if separators is None else {"separators": separators}
    chunks = _chunk(text, max_tokens, **options)
    assert _texts(chunks) == expected


@pytest.mark.parametrize(
    ("text", "max_tokens", "expected"),
    [
        pytest.param(
            "Supercalifragilísticoespialidoso",
            10,
            ["Supercal", "ifragil", "ísticoe", "spialido", "so"],
            id="accented-word",
        ),
        pytest.param("€€€€€", 8, ["€€", "€€", "€"], id="euros-never-cut-inside-a-character"),
    ],
)
def test_character_intervals_are_the_last_resort(text: str, max_tokens: int, expected: list[str]):
    chunks = _chunk(text, max_tokens, 3)
    assert _texts(chunks) == expected
    assert "".join(_texts(chunks)) == text
    assert all(c.token_count <= max_tokens for c in chunks)


def test_character_intervals_are_cut_from_the_source_never_decoded(
    minilm: HuggingFaceTokenization,
):
    # MiniLM lower-cases and strips accents: decoded token slices would lose both.
    word = "ANTICONSTITUCIONALÍSIMAMENTE-ÑOÑERÍAS-" * 3
    chunks = _chunk(word, 8, tokenization=minilm)
    assert len(chunks) > 2
    assert "".join(_texts(chunks)) == word
    for chunk in chunks:
        assert chunk.text == word[chunk.start : chunk.end]
        assert chunk.token_count == minilm.count(chunk.text) <= 8


FAMILY = "👨‍👩‍👧‍👦"  # 7 code points, 25 UTF-8 bytes


@pytest.mark.parametrize(
    ("text", "max_tokens", "expected"),
    [
        pytest.param(FAMILY * 3, 32, [FAMILY] * 3, id="zwj-family"),
        pytest.param(FAMILY * 3, 52, [FAMILY * 2, FAMILY], id="zwj-family-two-fit"),
        pytest.param("e\u0301" * 4, 5, ["e\u0301"] * 4, id="combining-acute"),
        pytest.param("n\u0303" * 4, 9, ["n\u0303" * 2] * 2, id="combining-tilde"),
        pytest.param("👍🏽" * 3, 10, ["👍🏽"] * 3, id="skin-tone"),
        pytest.param("1️⃣" * 3, 9, ["1️⃣"] * 3, id="keycap"),
        pytest.param("🇪🇸" * 3, 14, ["🇪🇸"] * 3, id="flag-regional-indicators"),
    ],
)
def test_grapheme_clusters_are_not_cut_when_avoidable(
    text: str, max_tokens: int, expected: list[str]
):
    chunks = _chunk(text, max_tokens)
    assert _texts(chunks) == expected


# -- overlap ----------------------------------------------------------------------------


def test_overlap_reuses_whole_units_and_records_the_effective_value(
    ley_run: tuple[list[Chunk], str, ChunkingConfig, Tokenization],
):
    chunks, joined, config, tokenization = ley_run
    for previous, chunk in itertools.pairwise(chunks):
        if chunk.start < previous.end:
            shared = joined[chunk.start : previous.end]
            assert chunk.overlap_tokens == tokenization.count_content(shared)
            assert 0 < chunk.overlap_tokens <= config.overlap_tokens
            assert joined[chunk.start - 1].isspace(), "overlap starts at a unit boundary"
            assert chunk.end > previous.end, "room is left for new content"
        else:
            assert chunk.overlap_tokens == 0


def test_overlap_is_never_across_sections_and_zero_at_each_section_start(
    ley_run: tuple[list[Chunk], str, ChunkingConfig, Tokenization],
):
    chunks, _, _, _ = ley_run
    assert chunks[0].overlap_tokens == 0
    for previous, chunk in itertools.pairwise(chunks):
        same = (previous.metadata.section_label, previous.metadata.section_path) == (
            chunk.metadata.section_label,
            chunk.metadata.section_path,
        )
        if not same:
            assert chunk.overlap_tokens == 0
            assert chunk.start >= previous.end


def test_overlap_is_used_when_possible():
    # an overlap target that holds a sentence: chunks end at sentence ends where one
    # fits, so a smaller target finds no sentence start to carry
    chunks = _chunk(LEY_PAGES, 128, 64, tokenization=ByteTokenization(512))
    assert any(c.overlap_tokens > 0 for c in chunks)


@pytest.mark.parametrize(
    ("text", "max_tokens", "overlap", "expected"),
    [
        pytest.param(
            "Uno dos. Tres cuatro. Cinco seis. Siete ocho. Nueve diez.",
            34,
            12,
            [
                ("Uno dos. Tres cuatro.", 0),
                ("Tres cuatro. Cinco seis.", 12),
                ("Cinco seis. Siete ocho.", 11),
                ("Siete ocho. Nueve diez.", 11),
            ],
            id="sentences",
        ),
        pytest.param(
            "uno dos tres cuatro cinco seis siete ocho nueve diez",
            18,
            6,
            # cut inside its one sentence, each chunk carries the last words before the cut
            # that fit the target (no clause fits), but the last, which reaches the end
            # only without them
            [
                ("uno dos tres", 0),
                ("tres cuatro", 4),
                ("cuatro cinco", 6),
                ("cinco seis siete", 5),
                ("ocho nueve diez", 0),
            ],
            id="a-cut-inside-a-sentence-overlaps-its-last-words",
        ),
        pytest.param(
            "Una frase. Otra frase más. Y la última frase.",
            32,
            12,
            [("Una frase. Otra frase más.", 0), ("Y la última frase.", 0)],
            id="only-whole-units-of-the-split-overlap",
        ),
        pytest.param(
            "Una frase.\nSol.\nY la última frase, que es larga.",
            26,
            8,
            # the clause before the last cut exceeds the target: its last word overlaps
            [("Una frase.\nSol.", 0), ("Sol.\nY la última frase,", 4), ("frase, que es larga.", 6)],
            id="a-whole-line-within-the-target-overlaps",
        ),
        pytest.param(
            "Anticonstitucionalmente Anticonstitucionalmente Anticonstitucionalmente",
            50,
            5,
            [
                ("Anticonstitucionalmente Anticonstitucionalmente", 0),
                ("Anticonstitucionalmente", 0),
            ],
            id="units-larger-than-target-give-zero",
        ),
        pytest.param(
            "uno dos tres cuatro cinco seis siete",
            18,
            0,
            [("uno dos tres", 0), ("cuatro cinco", 0), ("seis siete", 0)],
            id="target-zero",
        ),
    ],
)
def test_overlap_table(text: str, max_tokens: int, overlap: int, expected: list[tuple[str, int]]):
    chunks = _chunk(text, max_tokens, overlap)
    assert [(c.text, c.overlap_tokens) for c in chunks] == expected


# -- metadata ---------------------------------------------------------------------------


def test_chunk_index_is_global_and_zero_based(
    ley_run: tuple[list[Chunk], str, ChunkingConfig, Tokenization],
):
    chunks, _, _, _ = ley_run
    assert [c.metadata.chunk_index for c in chunks] == list(range(len(chunks)))


@pytest.mark.parametrize(
    "metadata",
    [
        METADATA,
        ChunkMetadata(
            doc_id="renta-privada-ñ",
            doc_type="user_upload",
            tax="IRPF",
            fiscal_year=2024,
            source_scope="private",
            session_id="sesión-42",
            vigencia="2024",
        ),
    ],
    ids=["public", "private"],
)
def test_each_chunk_has_its_own_metadata_with_every_document_field(metadata: ChunkMetadata):
    chunks = _chunk(LEY_PAGES, 128, 8, metadata=metadata, detect_markdown_headings=True)
    assert len({id(c.metadata) for c in chunks}) == len(chunks)
    for chunk in chunks:
        meta = chunk.metadata
        assert meta is not metadata
        for field in (
            "doc_id",
            "doc_type",
            "tax",
            "fiscal_year",
            "source_scope",
            "session_id",
            "vigencia",
        ):
            assert getattr(meta, field) == getattr(metadata, field)
    assert metadata.page is None
    assert metadata.chunk_index is None


def test_gaps_keep_document_metadata_without_an_invented_title():
    text = "Texto libre antes.\n# Artículo 1\nCuerpo del artículo."
    chunks = _chunk(text, 512, 0, detect_markdown_headings=True)
    assert _texts(chunks) == ["Texto libre antes.", "# Artículo 1\nCuerpo del artículo."]
    gap, section = chunks
    assert gap.metadata.section_label is None
    assert gap.metadata.section_path == ()
    assert gap.embedding_text == gap.text
    assert section.metadata.section_path == ("Artículo 1",)


@pytest.mark.parametrize(
    ("mode", "expected_context"),
    [
        ("path", "Título I > Capítulo 2 > Artículo 7"),
        ("label", "Artículo 7"),
        ("none", ""),
    ],
)
def test_section_context_modes(mode: str, expected_context: str):
    text = "Los rendimientos íntegros se computan por su importe, 1.000 € o más."
    sections = [SectionSpan(0, len(text), "Artículo 7", ("Título I", "Capítulo 2", "Artículo 7"))]
    tokenization = ByteTokenization(512, document_prefix="passage: ")
    (chunk,) = _chunk(text, 256, sections=sections, section_context=mode, tokenization=tokenization)
    assert chunk.embedding_text == tokenization.prepare(text, expected_context)
    assert chunk.token_count == tokenization.count(chunk.embedding_text)
    assert chunk.metadata.section_label == "Artículo 7"
    assert chunk.metadata.section_path == ("Título I", "Capítulo 2", "Artículo 7")


# -- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tokenization", "max_tokens", "sections"),
    [
        pytest.param(ByteTokenization(512, document_prefix="passage: "), 11, None, id="prefix"),
        pytest.param(
            ByteTokenization(512, document_prefix="passage: "),
            40,
            [
                SectionSpan(
                    0,
                    5,
                    "Disposición adicional decimoquinta",
                    ("Disposición adicional decimoquinta",),
                )
            ],
            id="prefix-and-title",
        ),
        pytest.param(
            WordTokenization(512),
            8,
            [SectionSpan(0, 5, "Artículo", ("Título preliminar", "Artículo"))],
            id="path",
        ),
    ],
)
def test_context_that_fills_the_budget_is_an_error(
    tokenization: Tokenization, max_tokens: int, sections: list[SectionSpan] | None
):
    with pytest.raises(ContextTooLongError):
        _chunk("Texto breve.", max_tokens, tokenization=tokenization, sections=sections)


def test_one_token_left_after_the_prefix_is_enough_for_ascii():
    tokenization = ByteTokenization(512, document_prefix="passage: ")
    chunks = _chunk("abc", 12, tokenization=tokenization)
    assert [(c.text, c.token_count) for c in chunks] == [("a", 12), ("b", 12), ("c", 12)]


@pytest.mark.parametrize(
    ("text", "max_tokens", "prefix"),
    [
        ("Hola 😀", 5, ""),
        ("añb", 12, "passage: "),
        ("Cuesta 5 €", 4, ""),
    ],
)
def test_indivisible_character_that_cannot_fit_is_an_error(text: str, max_tokens: int, prefix: str):
    with pytest.raises(IndivisibleCharacterError):
        _chunk(text, max_tokens, tokenization=ByteTokenization(512, document_prefix=prefix))


@pytest.mark.parametrize(("max_tokens", "fails"), [(100, False), (101, True), (512, True)])
def test_budget_above_the_model_limit_is_refused(max_tokens: int, fails: bool):
    tokenization = ByteTokenization(100)
    if fails:
        with pytest.raises(ModelLimitError):
            _chunk("Texto.", max_tokens, tokenization=tokenization)
    else:
        assert _texts(_chunk("Texto.", max_tokens, tokenization=tokenization)) == ["Texto."]


def test_sections_and_heading_detection_together_are_refused():
    with pytest.raises(ConfigurationError):
        _chunk(
            "# Título\nTexto.",
            64,
            sections=[SectionSpan(0, 8, "Título", ("Título",))],
            detect_markdown_headings=True,
        )


@pytest.mark.parametrize(
    "pages",
    [
        [],
        [LoadedPage("", 1)],
        [LoadedPage("   \n\t", 1), LoadedPage("\u00a0\n", 2)],
    ],
    ids=["no-pages", "empty-page", "whitespace-pages"],
)
def test_no_content_gives_no_chunks(pages: list[LoadedPage]):
    assert _chunk(pages, 64, 8) == []


def test_empty_pages_between_content_keep_page_numbers():
    pages = [LoadedPage("Página uno.", 1), LoadedPage("", 2), LoadedPage("Página tres.", 3)]
    chunks = _chunk(pages, 20)
    assert [(c.text, c.metadata.page, c.metadata.page_end) for c in chunks] == [
        ("Página uno.", 1, 1),
        ("Página tres.", 3, 3),
    ]


def test_output_is_deterministic(tokenization: Tokenization):
    config = ChunkingConfig(max_tokens=160, overlap_tokens=16)
    first = chunk_document(
        LEY_PAGES,
        METADATA,
        config=config,
        tokenization=tokenization,
        detect_markdown_headings=True,
    )
    second = chunk_document(
        tuple(replace(page) for page in LEY_PAGES),
        METADATA,
        config=config,
        tokenization=tokenization,
        detect_markdown_headings=True,
    )
    assert first == second


# -- the specification's minimal example, with the byte-counting fake ------------------------


def test_the_specification_minimal_example():
    metadata = ChunkMetadata(
        doc_id="ejemplo",
        doc_type="official_guide",
        tax="IRPF",
        fiscal_year=2025,
        source_scope="public",
    )
    chunks = chunk_document(
        [LoadedPage("Texto de ejemplo de la página 7.", 7)],
        metadata,
        config=ChunkingConfig(max_tokens=256, overlap_tokens=32),
        tokenization=ByteTokenization(),
    )
    assert len(chunks) == 1
    (chunk,) = chunks
    assert chunk.text == "Texto de ejemplo de la página 7."
    assert chunk.embedding_text == chunk.text
    assert (chunk.start, chunk.end) == (0, 32)
    assert (chunk.metadata.page, chunk.metadata.page_end) == (7, 7)
    assert chunk.token_count == 33 + 2  # 33 UTF-8 bytes ("á" is two) + [CLS]/[SEP]
    assert chunk.overlap_tokens == 0
    assert chunk.metadata.chunk_index == 0
    assert chunk.metadata == replace(metadata, page=7, page_end=7, chunk_index=0)


@pytest.mark.parametrize("mode", ["path", "label", "none"])
def test_empty_section_label_and_path_give_no_context(mode: str) -> None:
    """A span with label "" and no path is a section without a title in every mode."""
    text = "Primer párrafo con año.\n\nSegundo párrafo con €."
    config = ChunkingConfig(max_tokens=64, overlap_tokens=0, section_context=mode)  # type: ignore[arg-type]
    chunks = chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="d"),
        config=config,
        tokenization=ByteTokenization(),
        sections=[SectionSpan(0, len(text), "", ())],
    )
    assert [c.embedding_text for c in chunks] == [c.text for c in chunks]


class _WrongAtFirst(WordTokenization):
    """Exact counts; an index that places no token in the first 400 characters, so the
    first chunk is planned far too long and corrected, and every later plan is right."""

    def token_index(self, text: str) -> TokenIndex:
        starts = self.token_starts(text)
        return TokenIndex.from_starts([start for start in starts if start >= 400])


def test_after_a_correction_the_rest_of_the_first_plans_is_not_counted() -> None:
    """A correction re-plans the rest of its section: the first plans made before it are
    dropped unread (those counted ahead aside), not counted one by one."""
    text = "El contribuyente declara la renta del ejercicio anterior. " * 2000
    config = ChunkingConfig(max_tokens=64, overlap_tokens=0)
    counting = CountingTokenization(_WrongAtFirst(512))
    chunks = chunk_document(
        [LoadedPage(text, 1)], ChunkMetadata("ley"), config=config, tokenization=counting
    )
    assert len(chunks) > 600
    assert all(
        chunk.token_count == counting.inner.count(chunk.embedding_text) <= 64 for chunk in chunks
    )
    # Each chunk's plan once, the corrections' own counts, and a few batches counted ahead.
    assert counting.exact - counting.single < len(chunks) + 4 * 64
