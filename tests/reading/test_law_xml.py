"""A BOE law's XML as an input kind: every entry point reads it through the reading stage
(``reading.law_xml``) and chunks it there, so the command line, ``read_document``,
``parallel``, the LangChain classes (through ``BoeLawLoader``, or any loader giving the
``/texto`` answer with a ``….xml`` source) and the Ray helper give the same chunks, each
with its wording's metadata. The law's structure and dates are ``boe_xml``'s (tested in
``tests/boe_xml``); here: that they reach every chunk, on any day.
"""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from boe_laws import DAYS, FIXTURE_DIR, FIXTURE_ID, GenBlock, law_xml, random_laws, token
from boe_server import Answer, serve
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage
from langchain_asesoria.boe_xml import FetchOptions, law_all_versions, law_as_of, read_law_file
from langchain_asesoria.cli.main import main
from langchain_asesoria.engine import Tokenization
from langchain_asesoria.errors import ConfigurationError, InvalidPagesError, NotBoeResponseError
from langchain_asesoria.langchain import (
    AsesoriaDocumentTransformer,
    AsesoriaTextSplitter,
    BoeLawLoader,
)
from langchain_asesoria.parallel import read_and_chunk
from langchain_asesoria.reading import (
    DocumentPages,
    ReadOptions,
    read_document,
    read_loaded_pages,
)
from langchain_asesoria.reading.split import iter_document_chunks
from langchain_asesoria.records import chunk_metadata_record
from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL
from langchain_asesoria.testing import ByteTokenization

LAW = FIXTURE_DIR / f"{FIXTURE_ID}.xml"
CONFIG = ChunkingConfig(max_tokens=120, overlap_tokens=16)
TOKENIZATION = ByteTokenization()
#: The keys each chunk of a law's XML carries from its wording and its law.
WORDING_KEYS = ("block_id", "version_id", "valid_from", "valid_from_day", "valid_to_day", "url")


def _chunks(
    document_pages: DocumentPages,
    doc_id: str = FIXTURE_ID,
    config: ChunkingConfig = CONFIG,
    tokenization: Tokenization = TOKENIZATION,
) -> list[dict[str, object]]:
    chunks = iter_document_chunks(
        document_pages, ChunkMetadata(doc_id=doc_id), config=config, tokenization=tokenization
    )
    return [chunk_metadata_record(chunk) | {"text": chunk.text} for chunk in chunks]


@pytest.fixture
def law_folder(tmp_path: Path) -> Path:
    """The fixture law and its metadata, as ``asesoria-fetch`` saves them."""
    for path in FIXTURE_DIR.iterdir():
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


def test_read_document_gives_the_law_on_the_day_with_its_sections_and_metadata() -> None:
    day = date(2010, 6, 30)
    expected = law_as_of(read_law_file(LAW), day)
    document = read_document(LAW, ReadOptions(as_of=day))
    assert document.kind == "xml"
    assert document.structure == "boe xml"
    assert [page.text for page in document.pages] == [expected.text]
    found = document.sections or []
    assert [(s.start, s.section_label, s.section_path, s.fields) for s in found] == [
        (s.start, s.section_label, s.section_path, s.fields) for s in expected.spans
    ]
    assert document.report.law == expected.report
    assert dict(document.report.fields)["norm_id"] == FIXTURE_ID
    by_start = {section.span.start: section for section in expected.sections}
    for start in document.starts() or ():
        assert start.fields == by_start[start.offset].fields


def test_every_chunk_carries_its_wording_and_its_law() -> None:
    day = date(2010, 6, 30)
    law = law_as_of(read_law_file(LAW), day)
    rows = _chunks(read_document(LAW, ReadOptions(as_of=day)))
    assert rows
    for row in rows:
        (section,) = [s for s in law.sections if s.span.start <= row["start_index"] < s.span.end]
        assert row["end_index"] <= section.span.end
        for key, value in (*section.fields, *law.fields):
            assert row[key] == value, key
        assert row["section_path"] == " > ".join(section.span.section_path)


def test_every_wording_reads_each_as_its_own_section_and_chunk_ids_differ() -> None:
    rows = _chunks(read_document(LAW, ReadOptions(law_versions="all")))
    law = law_all_versions(read_law_file(LAW))
    assert {row["version_id"] for row in rows} == {s.version_id for s in law.sections}
    assert len({row["chunk_id"] for row in rows}) == len(rows)
    again = _chunks(read_document(LAW, ReadOptions(law_versions="all")))
    assert [row["chunk_id"] for row in again] == [row["chunk_id"] for row in rows]


def test_the_day_defaults_to_today() -> None:
    today = law_as_of(read_law_file(LAW), date.today())
    assert read_document(LAW).pages[0].text == today.text


@settings(max_examples=60, deadline=None)
@given(random_laws(), st.sampled_from(DAYS))
def test_on_any_day_the_chunks_hold_exactly_the_wordings_in_force_each_whole(
    blocks: tuple[GenBlock, ...], day: date
) -> None:
    """Generated laws: every chunk is one wording in force on ``day`` (its dates say so),
    and the chunks of each wording cover its text; no other wording is chunked."""
    page = LoadedPage(law_xml(blocks).decode("utf-8"), 1, "BOE-A-2004-1.xml")
    document = read_loaded_pages([page], "xml", ReadOptions(as_of=day))
    law = law_as_of(read_law_file_from(page), day)
    rows = _chunks(document, "BOE-A-2004-1")
    number = int(day.strftime("%Y%m%d"))
    for row in rows:
        assert row["valid_from_day"] <= number < row["valid_to_day"]  # type: ignore[operator]
    for section in law.sections:  # every character of each wording, in its own chunks
        mine = [row for row in rows if row["version_id"] == section.version_id]
        covered = {
            position
            for row in mine
            for position in range(int(row["start_index"]), int(row["end_index"]))  # type: ignore[call-overload]
        }
        for position in range(section.span.start, section.span.end):
            assert position in covered or law.text[position].isspace()
    for block in blocks:
        for place in range(1, len(block.versions) + 1):
            mark = token(int(block.id[1:]), place)
            assert any(mark in str(row["text"]) for row in rows) == (mark in law.text)


def read_law_file_from(page: LoadedPage) -> object:
    from langchain_asesoria.boe_xml import read_law

    return read_law(page.text.encode("utf-8"), law_id="BOE-A-2004-1")


def test_a_text_already_decoded_keeps_its_characters() -> None:
    """A loader's text (a ``str``) with the XML declaration still at its head."""
    text = LAW.read_text(encoding="utf-8")
    assert text.startswith("<?xml")
    document = read_loaded_pages([LoadedPage(text, 1, str(LAW))], "xml", ReadOptions())
    assert document.pages[0].text == read_document(LAW).pages[0].text


def test_bad_input_is_typed() -> None:
    with pytest.raises(InvalidPagesError, match="one text, got 2 pages"):
        read_loaded_pages([LoadedPage("<a/>", 1), LoadedPage("<a/>", 2)], "xml")
    with pytest.raises(NotBoeResponseError):
        read_loaded_pages([LoadedPage("<html><body>no</body></html>", 1, "x.xml")], "xml")
    with pytest.raises(ConfigurationError, match="give one of them"):
        ReadOptions(as_of=date(2023, 12, 31), law_versions="all")
    with pytest.raises(ConfigurationError, match="law_versions must be one of"):
        ReadOptions(law_versions="every")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match=r"must be a datetime\.date"):
        ReadOptions(as_of="2023-12-31")  # type: ignore[arg-type]


# The command line.


MINILM_CONFIG = ChunkingConfig(max_tokens=256, overlap_tokens=32)


@pytest.fixture
def offline_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line's model: the offline MiniLM, as in the README's command."""
    for name in ("EMBEDDING_MAX_TOKENS", "CHUNK_SIZE_TOKENS", "CHUNK_OVERLAP_TOKENS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("EMBEDDING_MODEL", OFFLINE_EMBEDDING_MODEL)


def _split(
    folder: Path, *options: str, capsys: pytest.CaptureFixture[str]
) -> list[dict[str, object]]:
    output = folder.parent / "out.jsonl"
    code = main([str(folder), "--preset", "256/32", "-o", str(output), *options])
    assert code == 0, capsys.readouterr().err
    return [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]


@pytest.mark.usefixtures("offline_model")
def test_the_command_line_splits_the_law_not_its_metadata_file(
    law_folder: Path, capsys: pytest.CaptureFixture[str], minilm: Tokenization
) -> None:
    rows = _split(law_folder, "--as-of", "2010-06-30", capsys=capsys)
    assert {row["source"] for row in rows} == {str(law_folder / f"{FIXTURE_ID}.xml")}
    read = read_document(LAW, ReadOptions(as_of=date(2010, 6, 30)))
    expected = _chunks(read, config=MINILM_CONFIG, tokenization=minilm)
    assert [row["text"] for row in rows] == [row["text"] for row in expected]
    assert [row["block_id"] for row in rows] == [row["block_id"] for row in expected]
    assert rows[0]["eli"]  # from the metadata file beside the law


@pytest.mark.usefixtures("offline_model")
def test_the_summary_lists_what_the_day_leaves_out(
    law_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    day = date(2004, 6, 30)
    left_out = law_as_of(read_law_file(LAW), day).report.left_out
    assert left_out, "pick a day on which the fixture leaves a block out"
    _split(law_folder, "--as-of", day.isoformat(), "--verbose", capsys=capsys)
    err = capsys.readouterr().err
    assert "BOE laws' XML" in err
    for block in left_out:
        assert block.block_id in err


@pytest.mark.usefixtures("offline_model")
def test_every_wording_from_the_command_line(
    law_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = _split(law_folder, "--versions", "all", capsys=capsys)
    law = law_all_versions(read_law_file(LAW))
    assert {row["version_id"] for row in rows} == {s.version_id for s in law.sections}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--as-of", "2023-12-31", "--versions", "all"], "give one of them"),
        (["--as-of", "31/12/2023"], "YYYY-MM-DD"),
    ],
)
@pytest.mark.usefixtures("offline_model")
def test_contradictory_or_bad_days_are_usage_errors(
    law_folder: Path, options: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main([str(law_folder), "--preset", "256/32", *options])
    except SystemExit as raised:  # argparse's own errors
        code = raised.code  # type: ignore[assignment]
    assert code == 2
    assert message in capsys.readouterr().err


# parallel, and the LangChain classes.


def test_parallel_reads_the_law_as_the_command_line_does() -> None:
    reading = ReadOptions(as_of=date(2010, 6, 30))
    (chunks,) = read_and_chunk(
        [LAW], config=CONFIG, tokenization=TOKENIZATION, reading=reading, mode="serial"
    )
    expected = _chunks(read_document(LAW, reading), f"{FIXTURE_ID}.xml")
    assert [chunk_metadata_record(c) for c in chunks] == [
        {k: v for k, v in row.items() if k != "text"} for row in expected
    ]


def _splitter_rows(documents: list[Document], **reading: object) -> list[dict[str, object]]:
    splitter = AsesoriaTextSplitter(
        TOKENIZATION,
        chunk_size=120,
        chunk_overlap=16,
        page_content="text",
        reading=ReadOptions(**reading),  # type: ignore[arg-type]
    )
    return [d.metadata | {"text": d.page_content} for d in splitter.split_documents(documents)]


def test_the_loader_gives_the_law_on_its_day_to_both_classes(law_folder: Path) -> None:
    day = date(2010, 6, 30)
    documents = BoeLawLoader(law_folder / f"{FIXTURE_ID}.xml", as_of=day).load()
    assert [d.metadata["as_of"] for d in documents] == ["2010-06-30"]
    rows = _splitter_rows(documents)
    transformer = AsesoriaDocumentTransformer(
        TOKENIZATION, chunk_size=120, chunk_overlap=16, page_content="text"
    )
    transformed = transformer.transform_documents(documents)
    assert [d.page_content for d in transformed] == [row["text"] for row in rows]
    expected = _chunks(read_document(LAW, ReadOptions(as_of=day)))
    assert [row["text"] for row in rows] == [row["text"] for row in expected]
    for row, other in zip(rows, expected, strict=True):
        assert {key: row[key] for key in WORDING_KEYS} == {key: other[key] for key in WORDING_KEYS}


def test_the_loaders_day_wins_over_the_reading_options(law_folder: Path) -> None:
    documents = BoeLawLoader(law_folder / f"{FIXTURE_ID}.xml", as_of=date(2010, 6, 30)).load()
    mine = _splitter_rows(documents, as_of=date(2004, 6, 30))
    assert mine == _splitter_rows(documents)


def test_every_wording_through_the_loader(law_folder: Path) -> None:
    documents = BoeLawLoader(law_folder / f"{FIXTURE_ID}.xml", versions="all").load()
    rows = _splitter_rows(documents)
    law = law_all_versions(read_law_file(LAW))
    assert {row["version_id"] for row in rows} == {s.version_id for s in law.sections}


def test_a_plain_loaders_xml_is_read_the_same(law_folder: Path) -> None:
    """Any loader that gives the ``/texto`` answer with a ``….xml`` source (LangChain's
    ``TextLoader``) gives the same chunks, on the reading options' day."""
    path = law_folder / f"{FIXTURE_ID}.xml"
    plain = [
        Document(page_content=path.read_text(encoding="utf-8"), metadata={"source": str(path)})
    ]
    ours = BoeLawLoader(path, as_of=date(2010, 6, 30)).load()
    texts = [row["text"] for row in _splitter_rows(plain, as_of=date(2010, 6, 30))]
    assert texts == [row["text"] for row in _splitter_rows(ours)]


def test_a_bad_day_in_the_metadata_is_typed(law_folder: Path) -> None:
    path = law_folder / f"{FIXTURE_ID}.xml"
    document = Document(
        path.read_text(encoding="utf-8"), metadata={"source": str(path), "as_of": "31/12/2023"}
    )
    with pytest.raises(ConfigurationError, match="not a day"):
        _splitter_rows([document])


def test_the_loader_downloads_a_law_by_its_id_once(tmp_path: Path) -> None:
    texto = (FIXTURE_DIR / f"{FIXTURE_ID}.xml").read_bytes()
    metadatos = (FIXTURE_DIR / f"{FIXTURE_ID}.metadatos.xml").read_bytes()
    answers = {
        f"/{FIXTURE_ID}/texto": [Answer(body=texto)],
        f"/{FIXTURE_ID}/metadatos": [Answer(body=metadatos)],
    }
    with serve(answers) as server:
        options = FetchOptions(base_url=server.base_url, timeout=5.0)
        loader = BoeLawLoader(
            FIXTURE_ID, folder=tmp_path, as_of=date(2010, 6, 30), fetch_options=options
        )
        first = loader.load()
        second = loader.load()
    assert len(server.requests) == 2  # the second load reuses the folder
    assert first == second
    assert first[0].metadata["source"] == str(tmp_path / f"{FIXTURE_ID}.xml")
    assert (tmp_path / f"{FIXTURE_ID}.metadatos.xml").is_file()


def test_the_loader_checks_its_arguments_when_built() -> None:
    with pytest.raises(ConfigurationError, match="give folder="):
        BoeLawLoader(FIXTURE_ID)
    with pytest.raises(ConfigurationError, match="give one of them"):
        BoeLawLoader(LAW, as_of=date(2023, 1, 1), versions="all")


# The real Reglamento General de Circulación (corpus/boe_xml/).

REAL = Path(__file__).resolve().parents[2] / "corpus" / "boe_xml" / "BOE-A-2003-23514.xml"
ARTICLE_48 = (date(2004, 1, 23), date(2006, 9, 6), date(2019, 1, 29), date(2026, 10, 1))


@pytest.mark.parametrize("day", ARTICLE_48)
def test_article_48_on_each_of_its_days_is_its_own_wording_whole(day: date) -> None:
    """Through the input kind, the chunks of Artículo 48 on the first day of each of its
    four wordings hold that wording's words in order, and say so in their metadata."""
    rows = _chunks(read_document(REAL, ReadOptions(as_of=day)), "BOE-A-2003-23514")
    mine = [row for row in rows if row["block_id"] == "a48"]
    assert mine
    assert {row["version_id"] for row in mine} == {f"a48@{day:%Y%m%d}"}
    assert {row["valid_from"] for row in mine} == {day.isoformat()}
    assert {row["url"] for row in mine} == {
        "https://www.boe.es/buscar/act.php?id=BOE-A-2003-23514#a48"
    }
    assert {row["eli"] for row in mine} == {"https://www.boe.es/eli/es/rd/2003/11/21/1428"}
    law = law_as_of(read_law_file(REAL), day)
    (section,) = [s for s in law.sections if s.block_id == "a48"]
    wording = law.text[section.span.start : section.span.end]
    covered = mine[0]["start_index"], mine[-1]["end_index"]
    assert covered == (section.span.start, section.span.end)
    assert all(str(row["text"]) in wording for row in mine)


@pytest.mark.usefixtures("offline_model")
def test_a_damaged_law_is_reported_and_the_others_are_split(
    law_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A download cut short is a failed file (its line and column), never a guess; the
    run goes on and exits 1."""
    texto = (law_folder / f"{FIXTURE_ID}.xml").read_bytes()
    (law_folder / "BOE-A-2004-1.xml").write_bytes(texto[: len(texto) // 2])
    output = law_folder.parent / "out.jsonl"
    code = main([str(law_folder), "--preset", "256/32", "-o", str(output)])
    err = capsys.readouterr().err
    assert code == 1
    assert "BOE-A-2004-1.xml" in err
    assert "not well-formed XML at line" in err
    rows = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert {row["doc_id"] for row in rows} == {f"{FIXTURE_ID}.xml"}


def test_ray_rows_keep_every_field_of_a_laws_chunks() -> None:
    """A Ray worker's batch (``ray._ChunkBatches``, no cluster needed) of a law's path
    row: its columns hold each chunk's wording and law fields, as the single-process
    ``document_chunk_rows`` gives them."""
    pyarrow = pytest.importorskip("pyarrow", reason="the ray extra")
    from langchain_asesoria.ray import CHUNK_COLUMNS, _ChunkBatches, document_chunk_rows

    reading = ReadOptions(as_of=date(2010, 6, 30))
    row = {"path": str(LAW)}
    expected = document_chunk_rows(row, config=CONFIG, tokenization=TOKENIZATION, reading=reading)
    batch = _ChunkBatches(CONFIG, TOKENIZATION, None, None, reading)(
        pyarrow.Table.from_pylist([row])
    )
    rows = [{k: v for k, v in item.items() if v is not None} for item in batch.to_pylist()]
    assert rows == expected
    assert set(expected[0]) <= {name for name, _ in CHUNK_COLUMNS}
    assert all(item["block_id"] and item["valid_from_day"] for item in rows[1:])
