"""The evaluation corpus read as ``asesoria-split`` reads it; question spans kept valid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria import ChunkingConfig, join_pages
from langchain_asesoria.reading import ReadOptions, read_pages
from langchain_asesoria.testing import ByteTokenization
from langchain_asesoria_eval import load_corpus
from langchain_asesoria_eval.chunkers import AsesoriaChunker
from langchain_asesoria_eval.cli import ExitCode, main
from langchain_asesoria_eval.corpus import questions_in_text, read_offset
from langchain_asesoria_eval.questions import Question, RelevantPassage

pytest.importorskip("pypdf", reason="the pdf extra: pip install '.[pdf]'")

from pdfs import Bookmark, outlined_pdf

RENTAS = ("del trabajo", "del capital", "de actividades", "patrimoniales", "imputadas")


def guide(tmp_path: Path) -> Path:
    pages = [
        [
            "Manual práctico de Renta",
            f"Capítulo {n}. Rentas {RENTAS[n]}",
            f"Las rentas {RENTAS[n]} se integran en la base general.",
            f"Las rentas {RENTAS[n]} se compensan entre sí.",
            f"Las rentas {RENTAS[n]} se declaran en el modelo 100.",
            f"Página {n}",
        ]
        for n in range(1, 5)
    ]
    outline = [Bookmark(f"Capítulo {n}. Rentas {RENTAS[n]}", n - 1) for n in range(1, 5)]
    path = tmp_path / "guia.pdf"
    path.write_bytes(outlined_pdf(pages, outline))
    return path


def question(extracted: str, quote: str) -> Question:
    start = extracted.index(quote)
    passage = RelevantPassage(
        "guia", start, start + len(quote), extracted[start : start + len(quote)]
    )
    return Question("q", "¿Cómo se compensan?", (passage,))


def test_spans_in_the_extracted_text_move_to_the_cleaned_text(tmp_path: Path) -> None:
    path = guide(tmp_path)
    [document] = load_corpus([path])
    extracted = join_pages(read_pages(path), "\n\n").text
    assert document.extracted_text == extracted
    assert document.text != extracted  # running lines removed
    quote = "Las rentas patrimoniales se compensan entre sí.\nLas rentas"
    [moved] = questions_in_text([question(extracted, quote)], [document])
    [span] = moved.relevant
    assert document.text[span.start : span.end] == quote  # type: ignore[index]
    # A span across a page break loses the running lines in between (and, read as
    # paragraphs, the page's last line break).
    across = "modelo 100.\nPágina 3\n\nManual práctico de Renta\nCapítulo 4"
    [moved] = questions_in_text([question(extracted, across)], [document])
    [span] = moved.relevant
    assert document.text[span.start : span.end] == "modelo 100.\n\nCapítulo 4"  # type: ignore[index]


def test_pdf_chunks_follow_the_outline_unless_switched_off(tmp_path: Path) -> None:
    path = guide(tmp_path)
    config = ChunkingConfig(max_tokens=512, overlap_tokens=0)
    [document] = load_corpus([path])
    chunks = AsesoriaChunker().chunk(document, config, ByteTokenization(512))
    assert [chunk.indexed_text.split("\n")[0] for chunk in chunks] == [
        f"Capítulo {n}. Rentas {RENTAS[n]}" for n in range(1, 5)
    ]
    [plain] = load_corpus([path], ReadOptions(False, False))
    assert plain.read.sections is None
    assert plain.text == plain.extracted_text
    plain_chunks = AsesoriaChunker().chunk(plain, config, ByteTokenization(512))
    assert all(chunk.context_tokens == 0 for chunk in plain_chunks)  # no section: no context
    assert "Página 1" in plain_chunks[0].text


def test_the_command_line_switches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("bm25s")
    path = guide(tmp_path)
    extracted = join_pages(read_pages(path), "\n\n").text
    quote = "Las rentas del capital se compensan entre sí."
    start = extracted.index(quote)
    row = {
        "id": "q1",
        "question": "¿Se compensan las rentas del capital?",
        "relevant": [
            {"doc_id": "guia", "start": start, "end": start + len(quote), "passage": quote}
        ],
    }
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    for extra in ((), ("--no-pdf-outline", "--keep-page-furniture")):
        out = tmp_path / f"out{len(extra)}"
        argv = [str(path), "--questions", str(questions), "--out", str(out), "--no-plot"]
        code = main([*argv, "--run", "bm25=64/8", *extra])
        assert code == ExitCode.OK, capsys.readouterr().err
        assert "hit@1" in (out / "report.md").read_text(encoding="utf-8")


def test_questions_about_other_documents_can_be_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("bm25s")
    path = guide(tmp_path)
    extracted = join_pages(read_pages(path), "\n\n").text
    quote = "Las rentas del capital se compensan entre sí."
    start = extracted.index(quote)
    here = {"doc_id": "guia", "start": start, "end": start + len(quote)}
    rows = [
        {"id": "q1", "question": "¿Capital?", "relevant": [here]},
        {"id": "q2", "question": "¿Otra?", "relevant": [{"doc_id": "otra", "start": 0, "end": 5}]},
        {"id": "n1", "question": "¿IVA?", "no_source": True},
    ]
    questions = tmp_path / "q.jsonl"
    questions.write_text("\n".join(json.dumps(row) for row in rows) + "\n", encoding="utf-8")
    argv = [str(path), "--questions", str(questions), "--out", str(tmp_path / "o"), "--no-plot"]
    assert main([*argv, "--run", "bm25=64/8"]) == ExitCode.USAGE  # "otra" is unknown
    capsys.readouterr()
    assert main([*argv, "--run", "bm25=64/8", "--only-corpus-questions"]) == ExitCode.OK
    assert "skipping 1 questions about documents not given" in capsys.readouterr().err
    report = (tmp_path / "o" / "report.md").read_text(encoding="utf-8")
    assert "1 answerable questions" in report


_WORDS = st.lists(
    st.sampled_from(["renta", "base", "cuota", "de", "la", "gastos", "50"]), min_size=1
)


@given(_WORDS, st.data())
def test_a_printed_offset_keeps_its_place_beside_its_word_in_the_paragraphs(
    words: list[str], data: st.DataObject
) -> None:
    """Lines joined by a space or a hyphen that split a word gone: every kept word's
    characters map one to one, and offsets never run backwards."""
    breaks = data.draw(
        st.lists(
            st.sampled_from([" ", "\n", " \n", "-\n"]), min_size=len(words), max_size=len(words)
        )
    )
    printed = read = ""
    kept: list[tuple[int, int, int]] = []  # words that a hyphen joins to no other
    for index, (word, gap) in enumerate(zip(words, breaks, strict=True)):
        if gap != "-\n" and (index == 0 or breaks[index - 1] != "-\n"):
            kept.append((len(printed), len(read), len(word)))
        printed += word + gap
        read += word + ("" if gap == "-\n" else " ")
    for before, after, size in kept:
        for inside in range(size + 1):
            assert read_offset(printed, read, before + inside) == after + inside
    mapped = [read_offset(printed, read, offset) for offset in range(len(printed) + 1)]
    assert mapped == sorted(mapped)
    assert all(0 <= offset <= len(read) for offset in mapped)
