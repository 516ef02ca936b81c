"""Domain values and settings: LoadedPage, SectionSpan, ChunkMetadata, ChunkingConfig, Settings."""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import pydantic
import pytest

from langchain_asesoria import (
    ChunkingConfig,
    ChunkMetadata,
    ConfigurationError,
    LoadedPage,
    MissingSettingError,
    PrivacyError,
    SectionSpan,
    Settings,
    chunk_document,
    get_settings,
)
from langchain_asesoria.models import DEFAULT_SEPARATORS, SIZE_CANDIDATES
from langchain_asesoria.reading.given import iter_chunks
from langchain_asesoria.settings import DEFAULT_EMBEDDING_MODEL

pytestmark = pytest.mark.usefixtures("clean_settings_env")


# -- LoadedPage and SectionSpan --------------------------------------------------------------


def test_loaded_page_fields_and_defaults():
    page = LoadedPage("Año fiscal 2025: 1.000 €.", 3)
    assert (page.text, page.page, page.source) == ("Año fiscal 2025: 1.000 €.", 3, None)
    assert LoadedPage("x", 1, "renta.pdf").source == "renta.pdf"


def test_section_span_fields_and_defaults():
    span = SectionSpan(10, 20)
    assert (span.start, span.end, span.section_label, span.section_path) == (10, 20, None, ())
    full = SectionSpan(0, 5, "Artículo 5", ("Título I", "Artículo 5"))
    assert full.section_path == ("Título I", "Artículo 5")


@pytest.mark.parametrize(
    ("value", "field", "new"),
    [
        (LoadedPage("texto", 1), "text", "otro"),
        (SectionSpan(0, 5, "A"), "start", 1),
        (ChunkMetadata(doc_id="d"), "doc_id", "e"),
        (ChunkingConfig(max_tokens=256, overlap_tokens=32), "max_tokens", 512),
    ],
)
def test_values_are_immutable(value: object, field: str, new: object):
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, field, new)


# -- ChunkMetadata ----------------------------------------------------------------------------


def test_chunk_metadata_defaults():
    meta = ChunkMetadata(doc_id="guía-renta")
    assert meta.source_scope == "public"
    assert meta.session_id is None
    assert meta.vigencia is None
    assert (meta.page, meta.page_end, meta.chunk_index) == (None, None, None)
    assert (meta.section_label, meta.section_path) == (None, ())


@pytest.mark.parametrize("session_id", [None, ""])
def test_private_without_session_id_is_a_privacy_error(session_id: str | None):
    with pytest.raises(PrivacyError) as caught:
        ChunkMetadata(doc_id="nómina-juan", source_scope="private", session_id=session_id)
    assert "'nómina-juan'" in str(caught.value)
    assert "session_id" in str(caught.value)


def test_private_with_session_id_is_accepted():
    meta = ChunkMetadata(doc_id="nómina", source_scope="private", session_id="sesión-1")
    assert meta.session_id == "sesión-1"


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"doc_id": ""}, id="empty-doc-id"),
        pytest.param({"doc_id": "   "}, id="blank-doc-id"),
        pytest.param({"doc_id": 7}, id="int-doc-id"),
        pytest.param({"doc_id": "d", "source_scope": "secreto"}, id="unknown-scope"),
        pytest.param({"doc_id": "d", "source_scope": "Public"}, id="scope-is-case-sensitive"),
    ],
)
def test_invalid_metadata_is_a_configuration_error(kwargs: dict[str, object]):
    with pytest.raises(ConfigurationError):
        ChunkMetadata(**kwargs)  # type: ignore[arg-type]


def test_for_chunk_returns_an_independent_copy():
    meta = ChunkMetadata(
        doc_id="d",
        doc_type="official_guide",
        tax="IRPF",
        fiscal_year=2025,
        source_scope="private",
        session_id="s-1",
        vigencia="2025",
    )
    copy = meta.for_chunk(
        page=2, page_end=3, chunk_index=4, section_label="Art. 1", section_path=("Ley", "Art. 1")
    )
    assert copy is not meta
    assert copy == dataclasses.replace(
        meta,
        page=2,
        page_end=3,
        chunk_index=4,
        section_label="Art. 1",
        section_path=("Ley", "Art. 1"),
    )
    assert (meta.page, meta.chunk_index, meta.section_path) == (None, None, ())


# -- ChunkingConfig -----------------------------------------------------------------------------


def test_config_defaults():
    config = ChunkingConfig(max_tokens=256, overlap_tokens=32)
    assert config.separators == DEFAULT_SEPARATORS
    assert config.page_separator == "\n\n"
    assert config.section_context == "compact"
    assert config.context_share == 0.125


def test_markdown_headings_are_off_by_default():
    """Structure is not the config's: the specification's call takes the switch, off."""
    assert "detect_markdown_headings" not in {f.name for f in dataclasses.fields(ChunkingConfig)}
    for function in (chunk_document, iter_chunks):
        keyword = inspect.signature(function).parameters["detect_markdown_headings"]
        assert keyword.kind is inspect.Parameter.KEYWORD_ONLY
        assert keyword.default is False


def test_config_has_no_default_size():
    with pytest.raises(TypeError):
        ChunkingConfig()  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("max_tokens", "overlap_tokens"), [(1, 0), (2, 1), (256, 255), (512, 0), (480, 64)]
)
def test_valid_budgets(max_tokens: int, overlap_tokens: int):
    config = ChunkingConfig(max_tokens=max_tokens, overlap_tokens=overlap_tokens)
    assert (config.max_tokens, config.overlap_tokens) == (max_tokens, overlap_tokens)


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"max_tokens": 0, "overlap_tokens": 0}, id="zero-budget"),
        pytest.param({"max_tokens": -5, "overlap_tokens": 0}, id="negative-budget"),
        pytest.param({"max_tokens": True, "overlap_tokens": 0}, id="bool-budget"),
        pytest.param({"max_tokens": 256.0, "overlap_tokens": 32}, id="float-budget"),
        pytest.param({"max_tokens": "256", "overlap_tokens": 32}, id="str-budget"),
        pytest.param({"max_tokens": 256, "overlap_tokens": -1}, id="negative-overlap"),
        pytest.param({"max_tokens": 256, "overlap_tokens": 256}, id="overlap-equal-to-budget"),
        pytest.param({"max_tokens": 256, "overlap_tokens": 300}, id="overlap-above-budget"),
        pytest.param({"max_tokens": 256, "overlap_tokens": False}, id="bool-overlap"),
        pytest.param({"max_tokens": 256, "overlap_tokens": 3.5}, id="float-overlap"),
        pytest.param(
            {"max_tokens": 256, "overlap_tokens": 0, "separators": (r"\n\n", "(")},
            id="invalid-regex",
        ),
        pytest.param(
            {"max_tokens": 256, "overlap_tokens": 0, "page_separator": ""}, id="empty-page-sep"
        ),
        pytest.param(
            {"max_tokens": 256, "overlap_tokens": 0, "page_separator": " | "}, id="visible-page-sep"
        ),
        pytest.param(
            {"max_tokens": 256, "overlap_tokens": 0, "section_context": "título"},
            id="unknown-section-context",
        ),
    ],
)
def test_invalid_config_is_a_configuration_error(kwargs: dict[str, object]):
    with pytest.raises(ConfigurationError):
        ChunkingConfig(**kwargs)  # type: ignore[arg-type]


def test_overlap_message_names_the_value_and_the_fix():
    with pytest.raises(ConfigurationError) as caught:
        ChunkingConfig(max_tokens=256, overlap_tokens=300)
    message = str(caught.value)
    assert "300" in message
    assert "256" in message
    assert "lower the overlap" in message


def test_size_candidates_are_the_three_experiments():
    assert [(c.max_tokens, c.overlap_tokens) for c in SIZE_CANDIDATES] == [
        (256, 32),
        (384, 48),
        (480, 64),
    ]
    for candidate in SIZE_CANDIDATES:
        assert candidate == ChunkingConfig(
            max_tokens=candidate.max_tokens, overlap_tokens=candidate.overlap_tokens
        )


# -- Settings and from_settings -----------------------------------------------------------------


@pytest.mark.parametrize(("size", "overlap"), [(256, 32), (384, 48), (480, 64)])
def test_from_settings_reads_size_and_overlap(size: int, overlap: int):
    config = ChunkingConfig.from_settings(
        Settings(chunk_size_tokens=size, chunk_overlap_tokens=overlap)
    )
    assert config == ChunkingConfig(max_tokens=size, overlap_tokens=overlap)


def test_from_settings_passes_other_options():
    config = ChunkingConfig.from_settings(
        Settings(chunk_size_tokens=384, chunk_overlap_tokens=48),
        carry_leads=False,
        section_context="label",
    )
    assert config.carry_leads is False
    assert config.section_context == "label"


@pytest.mark.parametrize(
    ("kwargs", "named", "not_named"),
    [
        ({}, ["CHUNK_SIZE_TOKENS", "CHUNK_OVERLAP_TOKENS"], []),
        ({"chunk_overlap_tokens": 32}, ["CHUNK_SIZE_TOKENS"], ["CHUNK_OVERLAP_TOKENS"]),
        ({"chunk_size_tokens": 256}, ["CHUNK_OVERLAP_TOKENS"], ["CHUNK_SIZE_TOKENS"]),
    ],
)
def test_from_settings_asks_for_missing_settings_by_name(
    kwargs: dict[str, int], named: list[str], not_named: list[str]
):
    with pytest.raises(MissingSettingError) as caught:
        ChunkingConfig.from_settings(Settings(**kwargs))
    message = str(caught.value)
    for name in named:
        assert name in message
    for name in not_named:
        assert name not in message
    assert "256/32" in message


def test_from_settings_validates_the_overlap():
    with pytest.raises(ConfigurationError):
        ChunkingConfig.from_settings(Settings(chunk_size_tokens=64, chunk_overlap_tokens=64))


def test_settings_defaults():
    settings = Settings()
    assert settings.embedding_model == DEFAULT_EMBEDDING_MODEL == "intfloat/multilingual-e5-base"
    assert settings.embedding_max_tokens is None
    assert settings.chunk_size_tokens is None
    assert settings.chunk_overlap_tokens is None


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("EMBEDDING_MODEL", "/modelos/español/tokenizer.json")
    monkeypatch.setenv("EMBEDDING_MAX_TOKENS", "512")
    monkeypatch.setenv("CHUNK_SIZE_TOKENS", "384")
    monkeypatch.setenv("CHUNK_OVERLAP_TOKENS", "48")
    settings = get_settings()
    assert settings.embedding_model == "/modelos/español/tokenizer.json"
    assert settings.embedding_max_tokens == 512
    assert ChunkingConfig.from_settings(settings) == ChunkingConfig(
        max_tokens=384, overlap_tokens=48
    )


def test_settings_from_dotenv_file(tmp_path: Path):
    (tmp_path / ".env").write_text(
        "EMBEDDING_MODEL=sentence-transformers/all-MiniLM-L6-v2\n"
        "EMBEDDING_MAX_TOKENS=256\n"
        "CHUNK_SIZE_TOKENS=480\n"
        "CHUNK_OVERLAP_TOKENS=64\n",
        encoding="utf-8",
    )
    settings = get_settings()
    assert settings.embedding_model == "sentence-transformers/all-MiniLM-L6-v2"
    assert settings.embedding_max_tokens == 256
    assert (settings.chunk_size_tokens, settings.chunk_overlap_tokens) == (480, 64)


def test_environment_wins_over_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / ".env").write_text(
        "CHUNK_SIZE_TOKENS=480\nCHUNK_OVERLAP_TOKENS=64\n", encoding="utf-8"
    )
    monkeypatch.setenv("CHUNK_SIZE_TOKENS", "256")
    settings = get_settings()
    assert (settings.chunk_size_tokens, settings.chunk_overlap_tokens) == (256, 64)


def test_get_settings_reads_afresh(monkeypatch: pytest.MonkeyPatch):
    assert get_settings().chunk_size_tokens is None
    monkeypatch.setenv("CHUNK_SIZE_TOKENS", "384")
    assert get_settings().chunk_size_tokens == 384


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("CHUNK_SIZE_TOKENS", "0"),
        ("CHUNK_SIZE_TOKENS", "doscientos"),
        ("CHUNK_OVERLAP_TOKENS", "-1"),
        ("EMBEDDING_MAX_TOKENS", "0"),
    ],
)
def test_invalid_settings_are_refused(monkeypatch: pytest.MonkeyPatch, name: str, value: str):
    monkeypatch.setenv(name, value)
    with pytest.raises(pydantic.ValidationError):
        get_settings()


@pytest.mark.parametrize(
    ("text", "period"),
    [
        ("según el art. 5 de la Ley", "art."),
        ("en el núm. 3 del apartado", "núm."),
        ("el apdo. 2 dice", "apdo."),
        ("Sr. García", "Sr."),
        ("Construcciones S.A. de Madrid", "S.A."),
        ("rentas, etc. y otras", "etc."),
        ("Pagos.\n2. Las personas físicas", "\n2."),
        ("Pagos.\n\nIV. Régimen especial", "\nIV."),
        ("Siete. Los valores.\nOcho. Se modifica", "\nOcho."),
        ("Provincia | CP; ALBACETE. | 02 | JAÉN. | 23", "ALBACETE."),  # a cell of a row
    ],
)
def test_a_label_or_an_abbreviation_ends_no_sentence(text: str, period: str) -> None:
    after = text.index(period) + len(period)
    starts = [m.start() for m in re.finditer(DEFAULT_SEPARATORS[2], text)]
    assert after not in starts


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("Fin. Otra frase.", [5]),
        ("Pagos.\n\n2. Las personas. Y más.", [8, 25]),
        ("Ocho.\n\nUno. Los bienes. Dos.", [24]),
    ],
)
def test_sentences_still_end_where_they_end(text: str, ends: list[int]) -> None:
    assert [m.end() for m in re.finditer(DEFAULT_SEPARATORS[2], text)] == ends


def test_a_lone_item_label_opens_the_paragraph_after_it() -> None:
    paragraph, line = (re.compile(pattern) for pattern in DEFAULT_SEPARATORS[:2])
    assert [m.end() for m in paragraph.finditer("Texto.\n\nOcho.\n\nUno. Algo.")] == [8]
    assert [m.end() for m in line.finditer("Texto.\nOcho.\nUno. Algo.")] == [7]


@pytest.mark.parametrize(
    "text",
    [
        "otros planes \n\n\nde pensiones.",  # a page joined after a wrapped line
        "otros planes \n\nde pensiones.",
        "otros planes \r\n\r\nde pensiones.",
        "otros planes \nde pensiones.",
    ],
)
def test_a_sentence_across_a_page_after_a_wrapped_line_is_not_cut_there(text: str) -> None:
    paragraph, line = (re.compile(pattern) for pattern in DEFAULT_SEPARATORS[:2])
    assert list(paragraph.finditer(text)) == []
    assert list(line.finditer(text)) == []
    assert [m.end() for m in paragraph.finditer("Fin.\n\n\nOtro.")] == [7]  # no space: cut
