"""A loader's PDF whose outline cannot be read again warns, and can be given explicitly.

The LangChain classes reopen ``metadata["source"]`` for a loader's PDF pages to read
the outline. When that file is gone (a deleted temporary upload) or needs a password,
both classes warn (``OutlineUnavailableWarning`` and the ``langchain_asesoria`` logger)
naming the file and the reason; ``pdf_files=`` (a path or the bytes) and
``pdf_password=`` give them what they need, and the chunks are those of the file.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.documents import Document

from langchain_asesoria import AsesoriaDocumentTransformer, AsesoriaTextSplitter, ChunkingConfig
from langchain_asesoria.langchain import OutlineUnavailableWarning
from langchain_asesoria.langchain.page_structure import OUTLINE_MISSING, SECTIONS_FROM
from langchain_asesoria.records import SECTION_PATH
from langchain_asesoria.testing import ByteTokenization

pypdf = pytest.importorskip("pypdf", reason="the pdf extra: pip install '.[pdf]'")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (
    ROOT / "examples" / "data" / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"
)
CONFIG = ChunkingConfig(max_tokens=256, overlap_tokens=32)
PASSWORD = "clave-2023"


def _loaded(path: Path, password: str | None = None) -> list[Document]:
    """The PDF's pages as ``PyPDFLoader(path, password=...)`` gives them (0-based)."""
    reader = pypdf.PdfReader(path, password=password)
    return [
        Document(page.extract_text(), metadata={"source": str(path), "page": index})
        for index, page in enumerate(reader.pages)
    ]


def _encrypted(tmp_path: Path) -> Path:
    """The example PDF, AES-256-encrypted with ``PASSWORD`` (needs cryptography)."""
    pytest.importorskip("cryptography", reason="AES needs cryptography: pip install '.[pdf]'")
    writer = pypdf.PdfWriter(clone_from=EXAMPLE)
    writer.encrypt(user_password=PASSWORD, algorithm="AES-256")
    path = tmp_path / "cifrado.pdf"
    with path.open("wb") as out:
        writer.write(out)
    return path


def _split(pages: list[Document], **options: Any) -> list[Document]:
    return AsesoriaTextSplitter(ByteTokenization(512), CONFIG, **options).split_documents(pages)


def _transform(pages: list[Document], **options: Any) -> list[Document]:
    transformer = AsesoriaDocumentTransformer(ByteTokenization(512), CONFIG, **options)
    return transformer.transform_documents(pages)


WAYS: dict[str, Callable[..., list[Document]]] = {
    "split_documents": _split,
    "transform_documents": _transform,
}


def _sections(chunks: list[Document]) -> list[object]:
    return [chunk.metadata.get(SECTION_PATH) for chunk in chunks]


#: Each way's chunks when the file is where its source says.
Reference = dict[str, list[Document]]


@pytest.fixture(scope="module")
def with_the_file(tmp_path_factory: pytest.TempPathFactory) -> Reference:
    """Each way's chunks when the file is where its source says (the reference)."""
    folder = tmp_path_factory.mktemp("reference")
    path = folder / "subida.pdf"
    shutil.copy(EXAMPLE, path)
    return {way: chunk(_loaded(path)) for way, chunk in WAYS.items()}


def _warned(
    chunk: Callable[..., list[Document]], pages: list[Document], caplog: pytest.LogCaptureFixture
) -> tuple[list[Document], list[str], list[str]]:
    """The chunks, the warnings' messages and the log's, of a run that must warn."""
    with (
        caplog.at_level(logging.WARNING, logger="langchain_asesoria"),
        pytest.warns(OutlineUnavailableWarning) as warned,
    ):
        chunks = chunk(pages)
    ours = [r.getMessage() for r in caplog.records if r.name == "langchain_asesoria"]
    return chunks, [str(w.message) for w in warned], ours


@pytest.mark.parametrize("way", sorted(WAYS))
def test_a_deleted_upload_warns_and_its_bytes_give_the_outline(
    way: str, tmp_path: Path, caplog: pytest.LogCaptureFixture, with_the_file: Reference
) -> None:
    path = tmp_path / "subida.pdf"
    shutil.copy(EXAMPLE, path)
    pages = _loaded(path)
    data = path.read_bytes()
    path.unlink()  # the temporary upload, deleted once loaded
    chunk = WAYS[way]
    without, warned, logged = _warned(chunk, pages, caplog)
    messages = warned + logged
    assert warned
    assert logged
    for message in messages:
        assert str(path) in message
        assert "no file" in message
        assert "pdf_files=" in message
    assert {c.metadata[OUTLINE_MISSING] for c in without} == {
        f"no file {str(path)!r} to read the outline from"
    }
    assert {c.metadata[SECTIONS_FROM] for c in without} != {"pdf outline"}
    reference = with_the_file[way]
    assert {c.metadata[SECTIONS_FROM] for c in reference} == {"pdf outline"}
    for given in (data, EXAMPLE):  # the bytes, or the file elsewhere
        chunks = chunk(pages, pdf_files={str(path): given})
        assert [c.page_content for c in chunks] == [c.page_content for c in reference]
        assert _sections(chunks) == _sections(reference)
        assert OUTLINE_MISSING not in chunks[0].metadata


@pytest.mark.parametrize("way", sorted(WAYS))
def test_an_encrypted_pdf_warns_without_its_password_and_reads_with_it(
    way: str, tmp_path: Path, caplog: pytest.LogCaptureFixture, with_the_file: Reference
) -> None:
    path = _encrypted(tmp_path)
    pages = _loaded(path, PASSWORD)  # PyPDFLoader(path, password=PASSWORD)
    chunk = WAYS[way]
    _, warned, logged = _warned(chunk, pages, caplog)
    assert warned
    assert logged
    for message in warned + logged:
        assert str(path) in message
        assert "encrypted" in message
    chunks = chunk(pages, pdf_password=PASSWORD)
    reference = with_the_file[way]
    assert {c.metadata[SECTIONS_FROM] for c in chunks} == {"pdf outline"}
    assert _sections(chunks) == _sections(reference)
    assert _sections(
        chunk(pages, pdf_files={str(path): path.read_bytes()}, pdf_password=PASSWORD)
    ) == (_sections(reference))
