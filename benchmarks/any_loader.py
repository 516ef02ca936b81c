"""A PDF's pages from LangChain's own loaders, chunked: running headers kept, sections.

Loads one PDF with each loader that imports (``PyPDFLoader``, ``PyMuPDFLoader``,
``PDFPlumberLoader`` from ``langchain-community``, the ``loaders`` extra; and our
``PdfPageLoader``), chunks the pages with ``AsesoriaTextSplitter.split_documents`` and
``AsesoriaDocumentTransformer.transform_documents`` (MiniLM, 256/32) and prints one
Markdown row per loader and way: chunks, chunks holding a running header or footer line
of the BOE ("BOLETÍN OFICIAL DEL ESTADO", "LEGISLACIÓN CONSOLIDADA", "Página N"),
chunks with a section, chunks in an article (their section label opens with
"Artículo"), and what the sections came from::

    python -m benchmarks.any_loader
    python -m benchmarks.any_loader --pdf corpus/pdf/other.pdf --missing-file

``--missing-file`` gives the pages a source that names no file, so no outline can be
read (sections then come from the text's legal heading lines).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from langchain_core.documents import Document  # noqa: E402

from langchain_asesoria import ChunkingConfig  # noqa: E402
from langchain_asesoria.langchain import (  # noqa: E402
    AsesoriaDocumentTransformer,
    AsesoriaTextSplitter,
    PdfPageLoader,
)
from langchain_asesoria.records import SECTION_LABEL, SECTION_PATH  # noqa: E402
from langchain_asesoria.tokenization import load_tokenization  # noqa: E402

BOE = ROOT / "corpus" / "pdf" / "boe_consolidado_BOE-A-2007-6820_rd_439_2007_reglamento_irpf.pdf"

#: A line of the BOE's running header or footer, alone on its line.
FURNITURE = re.compile(
    r"^\s*(?:BOLETÍN OFICIAL DEL ESTADO|LEGISLACIÓN CONSOLIDADA|Página \d+)\s*$", re.MULTILINE
)

#: LangChain's PDF loaders measured (class name in langchain_community) and the module
#: each one extracts text with.
COMMUNITY_LOADERS = {
    "PyPDFLoader": "pypdf",
    "PyMuPDFLoader": "pymupdf",
    "PDFPlumberLoader": "pdfplumber",
}


def _loaders() -> list[tuple[str, Callable[[str], Any] | None, str]]:
    """(name, loader class or None, why not) of every loader, ours last."""
    found: list[tuple[str, Callable[[str], Any] | None, str]] = []
    for name, needs in COMMUNITY_LOADERS.items():
        missing = [m for m in ("langchain_community", needs) if importlib.util.find_spec(m) is None]
        if missing:
            found.append((name, None, f"not installed: {', '.join(missing)}"))
            continue
        module = importlib.import_module("langchain_community.document_loaders")
        found.append((name, getattr(module, name), ""))
    found.append(("PdfPageLoader (ours)", PdfPageLoader, ""))
    return found


def _row(name: str, way: str, chunks: Sequence[Document], seconds: float) -> str:
    furniture = sum(bool(FURNITURE.search(c.page_content)) for c in chunks)
    sectioned = sum(bool(c.metadata.get(SECTION_PATH)) for c in chunks)
    articles = sum(str(c.metadata.get(SECTION_LABEL, "")).startswith("Artículo") for c in chunks)
    sources = sorted({str(c.metadata.get("sections_from", "-")) for c in chunks})
    return (
        f"| {name} | {way} | {len(chunks)} | {furniture} | {sectioned} | {articles} "
        f"| {', '.join(sources)} | {seconds:.1f} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Prints the table (see the module docstring); 0 always."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdf", type=Path, default=BOE, help="the PDF (default: the BOE's)")
    parser.add_argument(
        "--missing-file", action="store_true", help="pages name no file: no outline read"
    )
    args = parser.parse_args(argv)
    tokenization = load_tokenization("sentence-transformers/all-MiniLM-L6-v2")
    config = ChunkingConfig(max_tokens=256, overlap_tokens=32)
    ways: dict[str, Callable[[list[Document]], list[Document]]] = {
        "split_documents": AsesoriaTextSplitter(tokenization, config).split_documents,
        "transform_documents": AsesoriaDocumentTransformer(
            tokenization, config
        ).transform_documents,
    }
    print(f"{args.pdf.name}{' (pages naming no file)' if args.missing_file else ''}\n")
    print("| loader | way | chunks | with a running header/footer | with a section |", end="")
    print(" in an article | sections from | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    for name, loader, problem in _loaders():
        if loader is None:
            print(f"| {name} | - | {problem} | | | | | |")
            continue
        pages = list(loader(str(args.pdf)).load())
        if args.missing_file:
            for page in pages:
                page.metadata["source"] = f"missing/{args.pdf.name}"
        for way, run in ways.items():
            start = time.perf_counter()
            chunks = run([Document(p.page_content, metadata=dict(p.metadata)) for p in pages])
            print(_row(name, way, chunks, time.perf_counter() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
