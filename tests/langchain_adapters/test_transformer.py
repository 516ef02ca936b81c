"""AsesoriaDocumentTransformer: sources grouped, pages ordered, chunks across pages."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document

from langchain_asesoria import (
    ChunkingConfig,
    ConfigurationError,
    ContextTooLongError,
    InvalidPagesError,
    LoadedPage,
    PrivacyError,
    join_pages,
)
from langchain_asesoria.langchain import (
    PAGE_LABEL,
    PAGE_LABEL_END,
    AsesoriaDocumentTransformer,
    AsesoriaTextSplitter,
    original_text,
)
from langchain_asesoria.reading import ReadOptions
from langchain_asesoria.records import (
    CHUNK_ID,
    CHUNK_INDEX,
    DOC_ID,
    DOC_TYPE,
    EMBEDDING_TEXT,
    END_INDEX,
    FISCAL_YEAR,
    OVERLAP_TOKENS,
    PAGE,
    PAGE_END,
    SECTION_LABEL,
    SECTION_PATH,
    SESSION_ID,
    SOURCE_SCOPE,
    START_INDEX,
    TAX,
    TEXT,
    TOKEN_COUNT,
    VIGENCIA,
)
from langchain_asesoria.testing import ByteTokenization, WordTokenization

PAGES = [
    # the first page ends inside a sentence, as a PDF page does: chunks end at sentence
    # ends whenever one fits, so only such a sentence makes a chunk cross pages
    "Capítulo 12. Integración y compensación de rentas. La renta se ordena según su origen y",
    "Las pérdidas patrimoniales se compensan con ganancias del mismo año y de los cuatro "
    "siguientes.",
    "El saldo negativo de la base del ahorro se compensa hasta el 25 por ciento.",
    "Caso práctico: un contribuyente con rendimientos del capital mobiliario negativos.",
]


def pdf_pages(source: str = "manual.pdf", texts: list[str] = PAGES) -> list[Document]:
    """Pages as LangChain's PDF loaders give them: 0-based ``page`` and a ``page_label``."""
    return [
        Document(
            page_content=text,
            metadata={
                "source": source,
                "page": index,
                "page_label": str(index + 1),
                "total_pages": len(texts),
                "creationdate": None,
                "producer": ["not", "scalar"],
            },
        )
        for index, text in enumerate(texts)
    ]


def transformer(
    max_tokens: int = 24, overlap: int = 6, tokenization: Any = None, **kwargs: Any
) -> AsesoriaDocumentTransformer:
    config_options = {key: kwargs.pop(key) for key in ("section_context",) if key in kwargs}
    return AsesoriaDocumentTransformer(
        tokenization or WordTokenization(512),
        ChunkingConfig(max_tokens=max_tokens, overlap_tokens=overlap, **config_options),
        **kwargs,
    )


def joined(texts: list[str]) -> str:
    return join_pages([LoadedPage(t, i + 1) for i, t in enumerate(texts)]).text


def page_of(texts: list[str], position: int) -> int:
    return join_pages([LoadedPage(t, i + 1) for i, t in enumerate(texts)]).page_at(position)


# -- pages ---------------------------------------------------------------------------


def test_pdf_pages_give_real_one_based_pages_across_page_boundaries() -> None:
    documents = transformer().transform_documents(pdf_pages())
    text = joined(PAGES)
    assert len(documents) > len(PAGES)
    crossing = [d for d in documents if d.metadata[PAGE] != d.metadata[PAGE_END]]
    assert crossing, "some chunk should cross a page boundary with overlap"
    for document in documents:
        metadata = document.metadata
        start, end = metadata[START_INDEX], metadata[END_INDEX]
        assert text[start:end] == original_text(document)
        assert metadata[PAGE] == page_of(PAGES, start)
        assert metadata[PAGE_END] == page_of(PAGES, end - 1)
        assert 1 <= metadata[PAGE] <= metadata[PAGE_END] <= len(PAGES)
        assert metadata[PAGE_LABEL] == str(metadata[PAGE])
        assert metadata[PAGE_LABEL_END] == str(metadata[PAGE_END])


def test_out_of_order_pages_are_ordered() -> None:
    pages = pdf_pages()
    shuffled = pages[:]
    random.Random(7).shuffle(shuffled)
    assert shuffled != pages
    assert transformer().transform_documents(shuffled) == transformer().transform_documents(pages)


def test_page_key_and_base_are_configurable() -> None:
    pages = [
        Document(page_content=text, metadata={"source": "u.pdf", "page_number": index + 1})
        for index, text in enumerate(PAGES)
    ]
    documents = transformer(page_key="page_number", page_base=1).transform_documents(pages)
    reference = transformer().transform_documents(pdf_pages("u.pdf"))
    assert [(d.metadata[PAGE], d.metadata[PAGE_END]) for d in documents] == [
        (d.metadata[PAGE], d.metadata[PAGE_END]) for d in reference
    ]
    assert all("page_number" not in d.metadata for d in documents)


def test_a_subset_of_pages_keeps_its_real_numbers() -> None:
    documents = transformer(400, 0).transform_documents(pdf_pages()[2:])
    assert {d.metadata[PAGE] for d in documents} == {3}
    assert {d.metadata[PAGE_END] for d in documents} == {4}


def test_documents_without_page_are_one_page_sources() -> None:
    inputs = [
        Document(page_content="Primer documento.", metadata={"source": "a.txt"}),
        Document(page_content="Segundo documento.", metadata={"source": "b.txt"}),
    ]
    documents = transformer().transform_documents(inputs)
    assert [(d.metadata[DOC_ID], d.metadata[PAGE], d.metadata[PAGE_END]) for d in documents] == [
        ("a.txt", 1, 1),
        ("b.txt", 1, 1),
    ]


@pytest.mark.parametrize(
    ("pages", "match"),
    [
        ([{"page": 0}, {"page": 0}], "page 1 appears twice"),
        ([{"page": 0}, {}], "one has no 'page'"),
        ([{}, {}], "one has no 'page'"),
        ([{"page": "dos"}], "page='dos' is not an integer"),
        ([{"page": 1.5}], "is not an integer"),  # 1.0 is page 1, as "1" is
        ([{"page": True}], "is not an integer"),
        ([{"page": -1}], "below page_base=0"),
    ],
)
def test_ambiguous_pages_are_clear_errors_naming_the_source(
    pages: list[dict[str, Any]], match: str
) -> None:
    inputs = [
        Document(page_content=f"Texto {i}.", metadata={"source": "roto.pdf", **page})
        for i, page in enumerate(pages)
    ]
    with pytest.raises(InvalidPagesError, match=match) as raised:
        transformer().transform_documents(inputs)
    assert "roto.pdf" in str(raised.value)


def test_numeric_string_pages_are_accepted() -> None:
    inputs = [
        Document(page_content=t, metadata={"source": "s", "page": str(i)})
        for i, t in enumerate(PAGES)
    ]
    expected = transformer().transform_documents(pdf_pages("s"))
    assert [d.metadata[PAGE] for d in transformer().transform_documents(inputs)] == [
        d.metadata[PAGE] for d in expected
    ]


def test_interleaved_sources_are_grouped_in_order_of_first_appearance() -> None:
    a, b = pdf_pages("a.pdf"), pdf_pages("b.pdf", PAGES[::-1])
    interleaved = [document for pair in zip(a, b, strict=True) for document in pair]
    documents = transformer().transform_documents(interleaved)
    doc_ids = [d.metadata[DOC_ID] for d in documents]
    assert doc_ids == sorted(doc_ids)
    assert documents == transformer().transform_documents(a) + transformer().transform_documents(b)


def test_non_documents_are_refused() -> None:
    with pytest.raises(InvalidPagesError, match="expected a LangChain Document, got str"):
        transformer().transform_documents(["texto"])  # type: ignore[list-item]


# -- document fields ---------------------------------------------------------------------


def test_document_fields_come_from_arguments() -> None:
    documents = transformer(
        doc_type="official_guide", tax="IRPF", fiscal_year=2023, vigencia="2023"
    ).transform_documents(pdf_pages())
    for document in documents:
        assert document.metadata[DOC_ID] == "manual.pdf"  # the name, as the CLI gives it
        assert document.metadata[DOC_TYPE] == "official_guide"
        assert document.metadata[TAX] == "IRPF"
        assert document.metadata[FISCAL_YEAR] == 2023
        assert document.metadata[VIGENCIA] == "2023"
        assert document.metadata[SOURCE_SCOPE] == "public"
        assert SESSION_ID not in document.metadata


def test_document_fields_from_metadata_override_argument_defaults() -> None:
    pages = pdf_pages()
    for page in pages:
        page.metadata.update({DOC_ID: "manual-renta-2023", TAX: "IRPF", FISCAL_YEAR: "2023"})
    documents = transformer(tax="IVA", doc_type="guide").transform_documents(pages)
    assert {d.metadata[DOC_ID] for d in documents} == {"manual-renta-2023"}
    assert {d.metadata[TAX] for d in documents} == {"IRPF"}
    assert {d.metadata[FISCAL_YEAR] for d in documents} == {2023}
    assert {d.metadata[DOC_TYPE] for d in documents} == {"guide"}


def test_private_sources_always_carry_their_session() -> None:
    documents = transformer(source_scope="private", session_id="s-1").transform_documents(
        pdf_pages()
    )
    assert {(d.metadata[SOURCE_SCOPE], d.metadata[SESSION_ID]) for d in documents} == {
        ("private", "s-1")
    }
    with pytest.raises(PrivacyError, match=r"manual\.pdf"):
        transformer(source_scope="private").transform_documents(pdf_pages())


@pytest.mark.parametrize(
    ("metadata", "arguments"),
    [
        ({SOURCE_SCOPE: "public"}, {"source_scope": "private", "session_id": "s-1"}),
        ({SESSION_ID: "s-2", SOURCE_SCOPE: "private"}, {"session_id": "s-1"}),
    ],
)
def test_privacy_fields_may_not_disagree(
    metadata: dict[str, Any], arguments: dict[str, Any]
) -> None:
    pages = pdf_pages()
    for page in pages:
        page.metadata.update(metadata)
    with pytest.raises(PrivacyError, match=r"manual\.pdf"):
        transformer(**arguments).transform_documents(pages)


@pytest.mark.parametrize(
    ("values", "match"),
    [
        ([{TAX: "IRPF"}, {TAX: "IVA"}], "disagree on tax"),
        ([{FISCAL_YEAR: "dos mil"}, {}], "fiscal_year must be an integer year"),
        ([{FISCAL_YEAR: True}, {}], "fiscal_year must be an integer year"),
        ([{TAX: 7}, {}], "tax must be a string"),
        ([{SOURCE_SCOPE: "secret"}, {}], "source_scope must be 'public' or 'private'"),
    ],
)
def test_bad_document_fields_are_clear_errors(values: list[dict[str, Any]], match: str) -> None:
    pages = pdf_pages(texts=PAGES[:2])
    for page, value in zip(pages, values, strict=True):
        page.metadata.update(value)
    with pytest.raises(ConfigurationError, match=match) as raised:
        transformer().transform_documents(pages)
    assert "manual.pdf" in str(raised.value)


def test_two_sources_may_not_share_a_doc_id() -> None:
    with pytest.raises(ConfigurationError, match="both have doc_id 'manual'"):
        transformer(doc_id="manual").transform_documents(pdf_pages("a.pdf") + pdf_pages("b.pdf"))


def test_documents_without_source_get_a_stable_content_id() -> None:
    inputs = [Document(page_content="Un texto sin fuente.")]
    first, second = (transformer().transform_documents(inputs) for _ in range(2))
    assert first == second
    assert first[0].metadata[DOC_ID].startswith("sha256-")
    other = transformer().transform_documents([Document(page_content="Otro texto.")])
    assert other[0].metadata[DOC_ID] != first[0].metadata[DOC_ID]


# -- output metadata -----------------------------------------------------------------------

REQUIRED = {
    DOC_ID,
    DOC_TYPE,
    SOURCE_SCOPE,
    PAGE,
    PAGE_END,
    CHUNK_INDEX,
    START_INDEX,
    END_INDEX,
    TOKEN_COUNT,
    OVERLAP_TOKENS,
    CHUNK_ID,
    "source",
}


@pytest.mark.parametrize(("mode", "other"), [("embedding_text", TEXT), ("text", EMBEDDING_TEXT)])
def test_output_metadata_is_complete_and_vector_store_safe(mode: str, other: str) -> None:
    tokenization = ByteTokenization(256, document_prefix="passage: ")
    documents = transformer(
        80, 16, tokenization, page_content=mode, tax="IRPF"
    ).transform_documents(pdf_pages())
    for index, document in enumerate(documents):
        metadata = document.metadata
        assert metadata.keys() >= REQUIRED | {other, TAX, PAGE_LABEL, PAGE_LABEL_END}
        assert all(isinstance(value, str | int | float | bool) for value in metadata.values())
        assert None not in metadata.values()
        assert metadata[CHUNK_INDEX] == index
        assert document.id == metadata[CHUNK_ID]
        assert metadata["total_pages"] == len(PAGES)
        assert "creationdate" not in metadata
        assert "producer" not in metadata
        embedding_text = metadata.get(EMBEDDING_TEXT, document.page_content)
        assert {document.page_content, metadata[other]} == {original_text(document), embedding_text}
        assert embedding_text.startswith("passage: ")
        assert metadata[TOKEN_COUNT] == tokenization.count(embedding_text) <= 80


def test_chunk_ids_are_stable_and_change_only_with_their_chunk() -> None:
    first = transformer().transform_documents(pdf_pages())
    again = transformer().transform_documents(pdf_pages())
    assert [d.id for d in first] == [d.id for d in again]
    assert len({d.id for d in first}) == len(first)
    edited = transformer().transform_documents(pdf_pages(texts=[*PAGES[:3], "Otro caso."]))
    assert [d.id for d in edited][:2] == [d.id for d in first][:2]
    assert {d.id for d in edited} != {d.id for d in first}


# -- markdown --------------------------------------------------------------------------------

MARKDOWN = "# Ley\n\nPreámbulo de la ley.\n\n## Artículo 1\n\nNaturaleza del impuesto."


@pytest.mark.parametrize(
    ("source", "reading", "sections"),
    [
        ("guia.md", ReadOptions(), [("Ley", "Ley"), ("Artículo 1", "Ley > Artículo 1")]),
        ("GUIA.MARKDOWN", ReadOptions(), [("Ley", "Ley"), ("Artículo 1", "Ley > Artículo 1")]),
        ("guia.md", ReadOptions(markdown_headings=False), [("", "")]),
        ("guia.pdf", ReadOptions(), [("", "")]),
        ("guia.txt", ReadOptions(), [("", "")]),
    ],
)
def test_headings_are_followed_in_markdown_sources_only(
    source: str, reading: ReadOptions, sections: list[tuple[str, str]]
) -> None:
    """As on the command line: on by default, for Markdown sources, whatever
    ``detect_markdown_headings`` says (it names the kind of a source whose name does not);
    a chunk outside any section has both keys, empty."""
    for detect in (False, True):
        documents = transformer(
            60, 0, detect_markdown_headings=detect, reading=reading
        ).transform_documents([Document(page_content=MARKDOWN, metadata={"source": source})])
        assert [
            (d.metadata[SECTION_LABEL], d.metadata[SECTION_PATH]) for d in documents
        ] == sections


def test_markdown_suffixes_are_configurable() -> None:
    document = Document(page_content=MARKDOWN, metadata={"source": "guia.txt"})
    documents = transformer(
        60, 0, detect_markdown_headings=True, markdown_suffixes=(".txt",)
    ).transform_documents([document])
    assert [d.metadata[SECTION_LABEL] for d in documents] == ["Ley", "Artículo 1"]


@pytest.mark.parametrize(("detect", "labels"), [(False, [""]), (True, ["Ley", "Artículo 1"])])
def test_a_source_whose_name_says_no_kind_is_markdown_when_asked(
    detect: bool, labels: list[str]
) -> None:
    document = Document(page_content=MARKDOWN, metadata={"source": "guia"})
    documents = transformer(60, 0, detect_markdown_headings=detect).transform_documents([document])
    assert [d.metadata[SECTION_LABEL] for d in documents] == labels


def test_chunking_errors_name_the_source() -> None:
    document = Document(
        page_content="# " + "Título muy largo " * 10 + "\n\nCuerpo.",
        metadata={"source": "guia.md", DOC_ID: "guia"},
    )
    with pytest.raises(ContextTooLongError, match=r"^guia\.md: "):
        transformer(
            20, 0, detect_markdown_headings=True, section_context="path"
        ).transform_documents([document])


# -- properties --------------------------------------------------------------------------------

_WORDS = st.sampled_from(["año", "renta", "pérdida", "€", "IRPF.", "art. 49", "saldo"])
_PAGE = st.lists(_WORDS, min_size=0, max_size=25).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(_PAGE, min_size=1, max_size=6),
    size=st.integers(16, 60),
    overlap=st.integers(0, 8),
    seed=st.integers(0, 1000),
)
def test_property_pages_offsets_coverage_and_order(
    texts: list[str], size: int, overlap: int, seed: int
) -> None:
    tokenization = ByteTokenization(64)
    pages = pdf_pages(texts=texts)
    random.Random(seed).shuffle(pages)
    # The pages as given: a word alone on half of these one-line pages would be a running
    # header (tests/langchain_adapters/test_any_pdf_loader.py checks the offsets once
    # furniture is removed).
    as_given = ReadOptions(remove_page_furniture=False, remove_contents=False)
    documents = transformer(size, overlap, tokenization, reading=as_given).transform_documents(
        pages
    )
    text = joined(texts)
    covered = [False] * len(text)
    previous = -1
    for index, document in enumerate(documents):
        metadata = document.metadata
        start, end = metadata[START_INDEX], metadata[END_INDEX]
        assert start > previous
        previous = start
        assert text[start:end] == original_text(document)
        assert metadata[CHUNK_INDEX] == index
        assert metadata[PAGE] == page_of(texts, start)
        assert metadata[PAGE_END] == page_of(texts, end - 1)
        assert metadata[TOKEN_COUNT] <= size
        assert 0 <= metadata[OVERLAP_TOKENS] <= overlap
        covered[start:end] = [True] * (end - start)
    assert all(covered[i] for i, char in enumerate(text) if not char.isspace())


# -- Markdown front matter, as on the command line -------------------------------------------

YAML_FRONT_MATTER = "---\ntitle: Ley de ejemplo\ntax: IP\n---\n# Ley\n\nArtículo único. Texto."
FALSE_FRONT_MATTER = "---\n# Capítulo 1\n\nTexto que no es YAML.\n\n---\n\nMás texto.\n"


def _markdown(text: str, source: str = "ley.md") -> list[Document]:
    return [Document(page_content=text, metadata={"source": source})]


def test_a_markdown_source_has_its_yaml_front_matter_blanked() -> None:
    documents = transformer(64, 0, detect_markdown_headings=True).invoke(
        _markdown(YAML_FRONT_MATTER)
    )
    assert documents
    assert not any("title:" in original_text(d) for d in documents)
    for document in documents:  # offsets are still positions in the loaded text
        start, end = document.metadata[START_INDEX], document.metadata[END_INDEX]
        assert YAML_FRONT_MATTER[start:end] == original_text(document)


def test_markdown_that_only_looks_like_front_matter_is_chunked_whole() -> None:
    documents = transformer(400, 0).invoke(_markdown(FALSE_FRONT_MATTER))
    chunked = " ".join(original_text(d) for d in documents)
    for words in ("# Capítulo 1", "Texto que no es YAML.", "Más texto."):
        assert words in chunked


def test_front_matter_is_blanked_in_markdown_sources_only() -> None:
    documents = transformer(400, 0).invoke(_markdown(YAML_FRONT_MATTER, source="ley.txt"))
    assert "title: Ley de ejemplo" in original_text(documents[0])


# -- on_error ---------------------------------------------------------------------------------

TITLE_TOO_LONG = "# " + "Título muy largo " * 20 + "\n\nCuerpo del texto."


def _sources() -> list[Document]:
    return [*pdf_pages("a.pdf"), *_markdown(TITLE_TOO_LONG, "b.md"), *pdf_pages("c.pdf")]


def test_one_source_that_cannot_fit_stops_the_run_by_default() -> None:
    with pytest.raises(ContextTooLongError, match=r"b\.md"):
        transformer(24, 0, detect_markdown_headings=True, section_context="path").invoke(_sources())


def test_on_error_skip_chunks_the_other_sources_and_warns(
    caplog: pytest.LogCaptureFixture,
) -> None:
    skipping = transformer(
        24, 0, detect_markdown_headings=True, section_context="path", on_error="skip"
    )
    with caplog.at_level(logging.WARNING, logger="langchain_asesoria"):
        documents = skipping.invoke(_sources())
        lazy = list(skipping.lazy_transform_documents(_sources()))
    assert {d.metadata[DOC_ID] for d in documents} == {"a.pdf", "c.pdf"}
    assert lazy == documents
    # a.pdf and c.pdf name no file: their outline cannot be read, which is logged too, and
    # their pages' metadata that no chunk keeps (a list, None)
    told = ("outline cannot be read", "metadata left out of the chunks")
    records = [r for r in caplog.records if not any(t in r.getMessage() for t in told)]
    assert [r.getMessage()[:28] for r in records] == ["skipped document 'b.md', whi"] * 2
    assert all(r.levelno == logging.WARNING for r in caplog.records)


def test_repr_names_the_model_the_budget_and_the_modes() -> None:
    assert repr(transformer(24, 6, ByteTokenization(512), on_error="skip")) == (
        "AsesoriaDocumentTransformer(tokenization='fake-bytes', max_tokens=24, "
        "overlap_tokens=6, page_content='embedding_text', metadata_level='cite', "
        "on_error='skip')"
    )


def test_the_transformer_takes_the_splitters_keywords() -> None:
    """``chunk_size``/``chunk_overlap`` and ``ChunkingConfig`` fields, as the splitter."""

    tokenization = WordTokenization(512)
    transformer = AsesoriaDocumentTransformer(
        tokenization, chunk_size=30, chunk_overlap=4, section_context="label"
    )
    expected = ChunkingConfig(30, 4, section_context="label")
    assert transformer.config == expected
    assert AsesoriaTextSplitter(tokenization, config=expected).config == expected
    assert AsesoriaDocumentTransformer(tokenization, config=expected).config == expected


@pytest.mark.parametrize("owner", ["AsesoriaTextSplitter", "AsesoriaDocumentTransformer"])
@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((), {"chunk_size": 30, "length_function": len}, "length_function=<built-in function"),
        ((), {"chunk_size": 30, "keep_separator": True}, "keep_separator=True cannot apply"),
        ((), {"chunk_overlap": 4}, "chunk_size is required"),
        ((), {}, "chunk_size is required"),
        ((), {"chunk_size": 30, "max_tokens": 30}, "give chunk_size or max_tokens, not both"),
        ((), {"chunk_size": 30, "separator": "\n"}, "unknown argument"),
        ((ChunkingConfig(30, 0),), {"chunk_size": 30}, "a ChunkingConfig and the keywords"),
        ((), {"config": ChunkingConfig(30, 0), "chunk_overlap": 3}, "a ChunkingConfig and"),
        ((256,), {}, "config must be a ChunkingConfig, got int"),
    ],
)
def test_both_classes_refuse_the_same_combinations_alike(
    owner: str, args: tuple[Any, ...], kwargs: dict[str, Any], match: str
) -> None:
    import langchain_asesoria

    with pytest.raises(ConfigurationError, match=match) as caught:
        getattr(langchain_asesoria, owner)(WordTokenization(512), *args, **kwargs)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("make", [AsesoriaDocumentTransformer, AsesoriaTextSplitter])
@pytest.mark.parametrize(("level", "kept"), [("cite", False), ("full", False), ("lean", True)])
def test_a_pdf_loaders_software_keys_stay_out_of_the_store(
    make: type, level: str, kept: bool
) -> None:
    """PyPDFLoader copies the file's ``producer``, ``creator`` and ``trapped``: how it was
    made, nothing to filter by; LangChain's own output (``"lean"``) keeps them."""
    software = {"producer": "Microsoft® Word 2019", "creator": "Word", "trapped": "/False"}
    pages = [
        Document(page.page_content, metadata={**page.metadata, **software})
        for page in pdf_pages("w.pdf")
    ]
    chunks = make(WordTokenization(512), chunk_size=24, metadata_level=level).transform_documents(
        pages
    )
    assert chunks
    for chunk in chunks:
        assert (set(software) <= set(chunk.metadata)) is kept
        assert "total_pages" in chunk.metadata
    other = [Document("Texto.", metadata={"source": "nota.txt", **software})]
    assert set(software) <= set(
        make(WordTokenization(512), chunk_size=24).transform_documents(other)[0].metadata
    )
