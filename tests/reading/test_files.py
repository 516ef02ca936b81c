"""Reading documents from disk: PDF per page, Markdown and text whole, clear errors."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria import ChunkingConfig, ChunkMetadata, chunk_document
from langchain_asesoria.errors import (
    AsesoriaError,
    DamagedDocumentError,
    DocumentReadError,
    EncryptedDocumentError,
    MissingDependencyError,
    NoTextLayerError,
    TextEncodingError,
    UnsupportedFileError,
)
from langchain_asesoria.pdf.not_pdf import HEAD_BYTES, what_it_holds
from langchain_asesoria.pdf.open import open_pdf
from langchain_asesoria.reading import (
    file_kind,
    iter_pages,
    page_count,
    read_document,
    read_pages,
    read_text,
)
from langchain_asesoria.testing import ByteTokenization, WordTokenization

pypdf = pytest.importorskip("pypdf", reason="the pdf extra: pip install '.[pdf]'")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_PDF = (
    ROOT / "examples" / "data" / "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"
)
EXAMPLE_MD = ROOT / "examples" / "data" / "BOE-A-1991-14392.md"


def text_pdf(pages: list[str]) -> bytes:
    """A minimal valid PDF whose pages show the given ASCII texts (empty: no text)."""
    count = len(pages)
    kids = " ".join(f"{4 + 2 * index} 0 R" for index in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for index, text in enumerate(pages):
        escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        stream = f"BT /F1 12 Tf 72 720 Td ({escaped}) Tj ET".encode() if text else b""
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources "
            f"<< /Font << /F1 3 0 R >> >> /Contents {5 + 2 * index} 0 R >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.writelines(b"%010d 00000 n \n" % offset for offset in offsets)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\n" % (len(objects) + 1))
    out.write(b"startxref\n%d\n%%%%EOF\n" % xref)
    return out.getvalue()


def blank_pdf(*, password: str | None = None) -> bytes:
    writer = pypdf.PdfWriter()
    writer.add_blank_page(200, 200)
    if password is not None:
        writer.encrypt(password, algorithm="AES-256")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("a.pdf", "pdf"),
        ("A.PDF", "pdf"),
        ("b.md", "markdown"),
        ("c.markdown", "markdown"),
        ("d.txt", "text"),
        ("e.html", "html"),
        ("F.HTM", "html"),
    ],
)
def test_file_kind_by_extension(name: str, kind: str) -> None:
    assert file_kind(Path(name)) == kind


@pytest.mark.parametrize("name", ["notes.docx", "README", "page.xhtml"])
def test_unsupported_extension_names_the_file(name: str) -> None:
    with pytest.raises(UnsupportedFileError, match=r"unsupported file type .*; supported: .*\.pdf"):
        file_kind(Path(name))


def test_the_example_pdf_opens_with_its_empty_password() -> None:
    pages = read_pages(EXAMPLE_PDF)
    assert [page.page for page in pages] == list(range(1, 18))
    assert page_count(EXAMPLE_PDF) == 17
    assert all(page.source == str(EXAMPLE_PDF) for page in pages)
    assert "Integración y compensación" in pages[0].text


def test_pdf_pages_keep_their_numbers_and_empty_pages(tmp_path: Path) -> None:
    path = write(tmp_path, "doc.pdf", text_pdf(["Primera (1)", "", "Tercera"]))
    pages = read_pages(path)
    assert [(page.page, page.text.strip()) for page in pages] == [
        (1, "Primera (1)"),
        (2, ""),
        (3, "Tercera"),
    ]
    chunks = chunk_document(
        pages,
        ChunkMetadata(doc_id="doc"),
        config=ChunkingConfig(max_tokens=64, overlap_tokens=0),
        tokenization=ByteTokenization(64),
    )
    assert [(chunk.metadata.page, chunk.metadata.page_end) for chunk in chunks] == [(1, 3)]


def test_pages_are_yielded_one_by_one(tmp_path: Path) -> None:
    path = write(tmp_path, "doc.pdf", text_pdf(["uno", "dos"]))
    pages = iter_pages(path)
    assert next(pages).text.strip() == "uno"
    assert next(pages).text.strip() == "dos"


@pytest.mark.parametrize(
    ("data", "error", "message"),
    [
        (lambda: blank_pdf(password="secret"), EncryptedDocumentError, "encrypted with a password"),
        (lambda: EXAMPLE_PDF.read_bytes()[:150_000], DamagedDocumentError, "damaged or truncated"),
        (lambda: b"", UnsupportedFileError, "not a PDF: the file holds nothing"),
        (lambda: b"hello, not a PDF", UnsupportedFileError, "not a PDF: the file holds plain text"),
        (
            lambda: b"\n<!DOCTYPE html><html><body>Modelo 100</body></html>",
            UnsupportedFileError,
            "not a PDF: the file holds an HTML page.*rename it to .html",
        ),
        (lambda: b"PK\x03\x04\x14\x00", UnsupportedFileError, "holds a ZIP archive"),
        (lambda: bytes(range(256)), UnsupportedFileError, "holds data of another kind"),
        (lambda: blank_pdf(), NoTextLayerError, "OCR"),
    ],
    ids=["password", "truncated", "empty", "text", "html", "zip", "binary", "no-text-layer"],
)
def test_bad_pdfs_raise_typed_errors_naming_the_file(
    tmp_path: Path, data: object, error: type[DocumentReadError], message: str
) -> None:
    assert callable(data)
    path = write(tmp_path, "bad.pdf", data())
    with pytest.raises(error, match=message) as raised:
        read_pages(path)
    assert str(path) in str(raised.value)
    assert isinstance(raised.value, AsesoriaError)
    assert isinstance(raised.value, OSError)


def test_a_missing_pdf_dependency_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "doc.pdf", text_pdf(["uno"]))
    monkeypatch.setitem(sys.modules, "pypdf", None)
    with pytest.raises(MissingDependencyError, match=r"langchain-asesoria\[pdf\]"):
        read_pages(path)


def test_text_is_read_as_utf8_with_offsets_of_the_file(tmp_path: Path) -> None:
    text = "Artículo 1.\r\nEl año fiscal: 2023 €.\n"
    path = write(tmp_path, "ley.txt", text.encode("utf-8"))
    assert read_pages(path)[0].text == text
    assert page_count(path) == 1


def test_a_utf8_bom_is_dropped(tmp_path: Path) -> None:
    path = write(tmp_path, "bom.txt", "\ufeffhola".encode())
    assert read_pages(path)[0].text == "hola"


@pytest.mark.parametrize(
    ("data", "encoding", "text"),
    [
        ("\ufeffAño\r\nDos".encode(), "utf-8", "Año\r\nDos"),
        ("Año\rDos\n".encode(), "utf-8", "Año\rDos\n"),
        ("\ufeffAño".encode("utf-16"), "utf-16", "Año"),
        ("Año".encode("latin-1"), "latin-1", "Año"),
    ],
    ids=["bom-crlf", "lone-cr", "utf-16", "latin-1"],
)
def test_read_text_is_the_text_offsets_count(
    tmp_path: Path, data: bytes, encoding: str, text: str
) -> None:
    """Decoded, a leading BOM dropped, line endings untouched (unlike open()'s text mode)."""
    path = write(tmp_path, "doc.txt", data)
    assert read_text(path, encoding) == text


def test_chunk_offsets_are_positions_in_read_text(tmp_path: Path) -> None:
    body = "Primer párrafo del documento.\r\n\r\nSegundo párrafo, algo más largo.\r\n" * 6
    path = write(tmp_path, "bom.md", ("\ufeff" + body).encode())
    chunks = chunk_document(
        read_pages(path),
        ChunkMetadata(doc_id="bom"),
        config=ChunkingConfig(24, 4),
        tokenization=WordTokenization(512),
    )
    assert len(chunks) > 2
    text = read_text(path)
    assert text == body
    assert all(text[c.start : c.end] == c.text for c in chunks)


@pytest.mark.parametrize("name", ["latin1.txt", "latin1.md"])
def test_a_wrong_encoding_is_a_clear_error_naming_the_file(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, name, "año".encode("latin-1"))
    with pytest.raises(TextEncodingError, match=r"not valid UTF-8 \(byte 0xf1 at position 1\)"):
        read_pages(path)
    with pytest.raises(UnicodeError, match=str(path)):
        read_pages(path)


def test_a_missing_file_is_a_document_error(tmp_path: Path) -> None:
    with pytest.raises(DocumentReadError, match="no such file"):
        read_pages(tmp_path / "absent.md")


def test_markdown_front_matter_is_never_chunked() -> None:
    (page,) = read_document(EXAMPLE_MD).pages
    (extracted,) = read_pages(EXAMPLE_MD)
    original = EXAMPLE_MD.read_text(encoding="utf-8")
    assert extracted.text == original  # as extracted: reading blanks it, not read_pages
    assert len(page.text) == len(original)
    heading = original.index("# Ley 19/1991")
    assert page.text[heading:] == original[heading:]
    assert not page.text[:heading].strip()


def test_a_pdf_that_cannot_be_opened_is_unreadable_not_damaged(tmp_path: Path) -> None:
    folder = tmp_path / "carpeta.pdf"  # like a file this user may not read: not a PDF fault
    folder.mkdir()
    with pytest.raises(DocumentReadError) as caught:
        open_pdf(folder)
    assert type(caught.value) is DocumentReadError
    assert str(caught.value).startswith(f"{folder}: cannot read the file:")


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_the_iconv_command_for_a_utf16_file_decodes_it(tmp_path: Path, codec: str) -> None:
    """The encoding the message names reads the file back: without a byte-order mark,
    ``iconv -f utf-16`` would take little-endian bytes for big-endian ones."""
    text = "# Ley\n\nArtículo 1. Tributación de la renta."
    path = tmp_path / "ley.md"
    path.write_bytes(text.encode(codec))
    with pytest.raises(TextEncodingError) as raised:
        read_text(path)
    named = re.search(r"iconv -f (\S+) -t utf-8", str(raised.value))
    assert named is not None, raised.value
    assert path.read_bytes().decode(named.group(1)).removeprefix("\ufeff") == text


@given(st.binary(max_size=2048))
def test_any_bytes_are_told_as_a_pdf_or_as_what_they_hold(data: bytes) -> None:
    """A damaged PDF (``%PDF-`` in its first 1024 bytes) stays damaged; anything else is
    told as something, never raising."""
    found = what_it_holds(data)
    assert (found is None) == (b"%PDF-" in data[:HEAD_BYTES])
    assert what_it_holds(b"%PDF-1.7\n" + data) is None
    if found is not None:
        holds, fix = found
        assert holds
        assert fix
