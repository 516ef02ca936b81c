"""The evaluation corpus: documents read once, with the joined text every offset refers to.

Documents are read as ``asesoria-split`` reads them (``reading.read_document``): a PDF
without its running headers and footers and with its outline sections, unless the
``ReadOptions`` say otherwise. Question files keep their spans in the text *as
extracted* (``files.read_pages``), which does not change with those options:
``CorpusDocument.extracted_text`` is that text and ``text_offset`` maps its offsets
into ``text``: across the running lines removed, then, for a PDF read as paragraphs,
from its printed lines to its paragraphs (word by word: a word the reading kept maps
character for character; one it changed, a word split by a hyphen, to where its
replacement starts).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from pathlib import Path
from typing import Final

from langchain_asesoria.engine import join_pages
from langchain_asesoria.errors import ConfigurationError, UsageError
from langchain_asesoria.models import LoadedPage
from langchain_asesoria.pdf.furniture import Furniture
from langchain_asesoria.reading import (
    FILE_KINDS,
    DocumentKind,
    DocumentPages,
    ReadOptions,
    read_document,
    read_loaded_pages,
)
from langchain_asesoria_eval.questions import Question, RelevantPassage

__all__ = [
    "PAGE_SEPARATOR",
    "CorpusDocument",
    "corpus_document",
    "document_from_pages",
    "find_documents",
    "load_corpus",
    "questions_in_text",
    "read_offset",
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
        pages: The pages as they are chunked (a PDF's furniture removed, when asked).
        text: The joined text: the coordinate system of every chunk offset.
        read: The document as the reading stage gave it (kind, sections, removals):
            what the chunkers chunk.
        source: Where the document was read from.
        page_starts: Where each page starts in ``text``, ascending.
    """

    doc_id: str
    pages: tuple[LoadedPage, ...]
    text: str
    read: DocumentPages
    source: str
    page_starts: tuple[int, ...] = (0,)

    @property
    def markdown(self) -> bool:
        """Whether the document was read as Markdown."""
        return self.read.kind == "markdown"

    @property
    def furniture(self) -> Furniture:
        """The running headers and footers removed from the extracted pages."""
        return self.read.report.furniture

    def page_at(self, position: int) -> int:
        """The number of the page holding ``text[position]``.

        A position inside a page separator maps to the page before it.
        """
        index = bisect_right(self.page_starts, position) - 1
        return self.pages[max(index, 0)].page

    @property
    def _printed(self) -> tuple[LoadedPage, ...]:
        """The pages before they were read as paragraphs (``pages`` when they were not)."""
        paragraphs = self.read.report.paragraphs
        return paragraphs.printed if paragraphs is not None else self.pages

    def _extracted(self) -> tuple[LoadedPage, ...]:
        return self.furniture.restore(self._printed)

    @property
    def extracted_text(self) -> str:
        """The pages as extracted, joined: the text question spans refer to."""
        if not self.furniture.lines and self._printed == self.pages:
            return self.text
        return join_pages(self._extracted(), PAGE_SEPARATOR, self.doc_id).text

    def text_offset(self, extracted: int) -> int:
        """Where offset ``extracted`` of ``extracted_text`` lies in ``text``.

        An offset inside a removed line maps to where the line was; one in a page
        separator, to the same place after the page; one in a word that reading as
        paragraphs changed, to where its replacement starts.
        """
        printed = self._printed
        if not self.furniture.lines and printed == self.pages:
            return extracted
        pages = self.furniture.restore(printed)
        raw = join_pages(pages, PAGE_SEPARATOR, self.doc_id)
        index = max(bisect_right(raw.page_starts, extracted) - 1, 0)
        inside = extracted - raw.page_starts[index]
        beyond = inside - len(pages[index].text)
        if beyond >= 0:
            return self.page_starts[index] + len(self.pages[index].text) + beyond
        cleaned = self.furniture.cleaned_offset(pages[index].page, inside)
        read = self.pages[index].text
        if printed[index].text != read:
            cleaned = read_offset(printed[index].text, read, cleaned)
        return self.page_starts[index] + cleaned


#: A word: what reading as paragraphs keeps or changes as a whole.
_WORD: Final = re.compile(r"\S+")
#: A printed word, its parts across line ends after a hyphen included ("conside-⏎rados").
_SPLIT_WORD: Final = re.compile(r"(?:\S*-\n(?=\S))*\S+")


def _as_read(printed: str, words: set[str]) -> str:
    """A printed word (or its beginning) as reading would give it: a hyphen that split it
    gone when the word so joined is read, the line break alone gone otherwise."""
    if "-\n" not in printed and not printed.endswith("-"):
        return printed
    joined = printed.replace("-\n", "")
    if joined in words or any(word.startswith(joined.rstrip("-")) for word in words):
        return joined.rstrip("-") if printed.endswith("-") else joined
    return printed.replace("\n", "")


def read_offset(printed: str, read: str, offset: int) -> int:
    """Where ``offset`` of a page's printed lines lies in the page read as paragraphs.

    Both texts are aligned word by word (``difflib``): an offset in a word kept, or in the
    whitespace after it, keeps its place beside that word; one among words the reading
    changed (a hyphen removed, a marker moved before its item, a footnote marker parted)
    is placed by aligning those words character by character. The result is in
    ``[0, len(read)]``.
    """
    before = list(_SPLIT_WORD.finditer(printed))
    after = list(_WORD.finditer(read))
    index = bisect_right([word.start() for word in before], offset) - 1
    if index < 0:
        return min(offset, after[0].start() if after else len(read))
    words = {word.group() for word in after}
    opcodes = SequenceMatcher(
        None, [_as_read(word.group(), words) for word in before], [w.group() for w in after], False
    ).get_opcodes()
    tag, first, last, other, other_last = next(
        code for code in opcodes if code[1] <= index < code[2]
    )
    if tag == "equal":
        kept = other + index - first
        limit = after[kept + 1].start() if kept + 1 < len(after) else len(read)
        prefix = printed[before[index].start() : offset]
        shown = len(_as_read(prefix, words)) if offset <= before[index].end() else len(prefix)
        return min(after[kept].start() + shown, limit)
    if other == other_last:  # words the reading left out: where they were
        return after[other].start() if other < len(after) else len(read)
    start, end = after[other].start(), after[other_last - 1].end()
    region = printed[before[first].start() : before[last - 1].end()]
    inside = offset - before[first].start()
    place = 0
    for one, two, size in SequenceMatcher(
        None, region, read[start:end], autojunk=False
    ).get_matching_blocks():
        if one <= inside:
            place = two + min(inside - one, size)
    return start + place


def document_from_pages(
    doc_id: str,
    pages: Sequence[LoadedPage],
    *,
    markdown: bool = False,
    source: str = "",
) -> CorpusDocument:
    """A corpus document from pages already in memory (tests, other loaders), read as a
    Markdown or a text file would be (``reading.read_loaded_pages``).

    Raises:
        InvalidPagesError: pages that are not one document's, in order.
    """
    kind: DocumentKind = "markdown" if markdown else "text"
    return corpus_document(doc_id, read_loaded_pages(pages, kind), source or doc_id)


def corpus_document(doc_id: str, read: DocumentPages, source: str) -> CorpusDocument:
    """The corpus document of a document as read, its pages joined by ``PAGE_SEPARATOR``.

    Raises:
        InvalidPagesError: pages that are not one document's, in order.
    """
    joined = join_pages(read.pages, PAGE_SEPARATOR, doc_id)
    return CorpusDocument(doc_id, read.pages, joined.text, read, source, joined.page_starts)


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
            raise UsageError(
                "no such file or folder.", source=str(raw), expected="an existing file or folder"
            )
    if not found:
        raise UsageError(
            f"no .pdf, .md or .txt document found in {[str(p) for p in named]}.",
            expected=", ".join(FILE_KINDS),
        )
    return found


def load_corpus(
    paths: Iterable[str | Path], reading: ReadOptions | None = None
) -> tuple[CorpusDocument, ...]:
    """Reads each file with ``read_document``; Markdown files are chunked by their headings.

    Raises:
        ConfigurationError: no files, or two files with the same name (the same doc_id).
        DocumentReadError: a file that cannot be read (see ``langchain_asesoria.reading.files``).
        MissingDependencyError: a PDF without ``pypdf``/``cryptography`` installed.
    """
    documents: list[CorpusDocument] = []
    seen: dict[str, str] = {}
    for raw in paths:
        path = Path(raw)
        doc_id = path.stem
        if doc_id in seen:
            raise ConfigurationError(
                f"shares the doc_id {doc_id!r} with {seen[doc_id]} (the file name without "
                "extension): rename one of them.",
                source=str(path),
                doc_id=doc_id,
                expected="a doc_id of its own",
            )
        seen[doc_id] = str(path)
        documents.append(corpus_document(doc_id, read_document(path, reading), str(path)))
    if not documents:
        raise ConfigurationError(
            "the corpus is empty: pass at least one .pdf, .md or .txt file.",
            expected=", ".join(FILE_KINDS),
        )
    return tuple(documents)


def _passage_in_text(passage: RelevantPassage, document: CorpusDocument | None) -> RelevantPassage:
    if document is None or passage.start is None or passage.end is None:
        return passage
    return replace(
        passage, start=document.text_offset(passage.start), end=document.text_offset(passage.end)
    )


def questions_in_text(
    questions: Iterable[Question], corpus: Sequence[CorpusDocument]
) -> tuple[Question, ...]:
    """The questions with their spans moved from each ``extracted_text`` to its ``text``.

    Spans are checked against ``extracted_text`` first (``validate_against_corpus``);
    ``passage`` keeps the quoted text as extracted.
    """
    documents = {document.doc_id: document for document in corpus}
    return tuple(
        replace(
            question,
            relevant=tuple(
                _passage_in_text(passage, documents.get(passage.doc_id))
                for passage in question.relevant
            ),
        )
        for question in questions
    )
