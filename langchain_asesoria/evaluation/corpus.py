"""The evaluation corpus: documents read once, with the joined text every offset refers to."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from langchain_asesoria.engine import join_pages
from langchain_asesoria.errors import ConfigurationError, UsageError
from langchain_asesoria.files import FILE_KINDS, read_pages
from langchain_asesoria.models import LoadedPage

__all__ = [
    "PAGE_SEPARATOR",
    "CorpusDocument",
    "document_from_pages",
    "find_documents",
    "load_corpus",
]

#: Pages are joined with this separator, for the spans of the question file and for the
#: chunkers alike (``ChunkingConfig.page_separator`` must equal it).
PAGE_SEPARATOR: Final = "\n\n"


@dataclass(frozen=True, slots=True)
class CorpusDocument:
    """One document of the corpus.

    Invariants: ``text == join_pages(pages, PAGE_SEPARATOR).text``, and ``page_starts[i]``
    is the offset in ``text`` where ``pages[i]`` starts.

    Attributes:
        doc_id: The file name without its extension (what question files refer to).
        pages: The pages as ``langchain_asesoria.files.read_pages`` produced them.
        text: The joined text: the coordinate system of every span and chunk offset.
        markdown: Whether chunking follows ATX headings (``detect_markdown_headings``).
        source: Where the document was read from.
        page_starts: Where each page starts in ``text``, ascending.
    """

    doc_id: str
    pages: tuple[LoadedPage, ...]
    text: str
    markdown: bool
    source: str
    page_starts: tuple[int, ...] = (0,)

    def page_at(self, position: int) -> int:
        """The number of the page holding ``text[position]``.

        A position inside a page separator maps to the page before it.
        """
        index = bisect_right(self.page_starts, position) - 1
        return self.pages[max(index, 0)].page


def document_from_pages(
    doc_id: str, pages: Sequence[LoadedPage], *, markdown: bool = False, source: str = ""
) -> CorpusDocument:
    """A corpus document from pages already in memory (tests, other loaders).

    Raises:
        InvalidPagesError: pages that are not one document's, in order.
    """
    joined = join_pages(pages, PAGE_SEPARATOR, doc_id)
    return CorpusDocument(
        doc_id, tuple(pages), joined.text, markdown, source or doc_id, joined.page_starts
    )


def find_documents(paths: Iterable[str | Path]) -> list[Path]:
    """The documents named on a command line: files as given, folders' documents sorted.

    A folder contributes the files directly inside it whose extension has a reader
    (``FILE_KINDS``); it is not searched deeper.

    Raises:
        UsageError: a path that does not exist, or no document at all.
    """
    named = list(paths)
    found: list[Path] = []
    for raw in named:
        path = Path(raw)
        if path.is_dir():
            found += sorted(p for p in path.iterdir() if p.suffix.lower() in FILE_KINDS)
        elif path.is_file():
            found.append(path)
        else:
            raise UsageError(f"{raw}: no such file or folder.")
    if not found:
        raise UsageError(f"no .pdf, .md or .txt document found in {[str(p) for p in named]}.")
    return found


def load_corpus(paths: Iterable[str | Path]) -> tuple[CorpusDocument, ...]:
    """Reads each file with ``read_pages``; Markdown files are chunked by their headings.

    Raises:
        ConfigurationError: no files, or two files with the same name (the same doc_id).
        DocumentReadError: a file that cannot be read (see ``langchain_asesoria.files``).
        MissingDependencyError: a PDF without ``pypdf``/``cryptography`` installed.
    """
    documents: list[CorpusDocument] = []
    seen: dict[str, str] = {}
    for raw in paths:
        path = Path(raw)
        doc_id = path.stem
        if doc_id in seen:
            raise ConfigurationError(
                f"{path} and {seen[doc_id]} share the doc_id {doc_id!r} (the file name "
                "without extension): rename one of them."
            )
        seen[doc_id] = str(path)
        markdown = FILE_KINDS.get(path.suffix.lower()) == "markdown"
        documents.append(
            document_from_pages(doc_id, read_pages(path), markdown=markdown, source=str(path))
        )
    if not documents:
        raise ConfigurationError("the corpus is empty: pass at least one .pdf, .md or .txt file.")
    return tuple(documents)
