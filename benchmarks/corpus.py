"""The benchmark corpora: the real laws and PDFs, and synthetic stress corpora built from them.

Every corpus is a list of ``Doc`` (a name, a kind and the pages' texts). A corpus is
written once to a JSON-lines cache (one document per line) so that every measuring
process reads the very same text, and the streaming memory test can read it lazily.

* ``real``: the Markdown laws (one page each) and the PDFs (one page per PDF page,
  extracted with ``pypdf``; the AEAT manual is AES-encrypted with an empty password).
* ``synthetic-N``: about N MB made of variations of the real documents (paragraphs
  shuffled and article numbers shifted with a fixed seed, PDF pages shuffled).
* ``pathological``: one 1 MB paragraph without a newline, one 200 KB "word" without
  whitespace (letters only: one ``[UNK]`` for WordPiece), a 200 KB base64 blob (no
  whitespace, many tokens), a 5,000-row Markdown table, and a table of 200 rows of 5 KB.
* ``stress-N``: ``synthetic`` variations plus the pathological documents, N MB in all.
"""

from __future__ import annotations

import base64
import json
import os
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DEFAULT_SOURCE = ROOT.parent / "corpus"
CACHE = ROOT / ".cache"
MB = 1_000_000
PAGE_SEPARATOR = "\n\n"


@dataclass(frozen=True, slots=True)
class Doc:
    """One document: its pages' texts, joined by ``PAGE_SEPARATOR`` for every splitter."""

    name: str
    kind: str  # "markdown", "pdf", "synthetic" or "pathological"
    pages: tuple[str, ...]

    @property
    def text(self) -> str:
        return PAGE_SEPARATOR.join(self.pages)

    @property
    def size(self) -> int:
        return sum(map(len, self.pages)) + len(PAGE_SEPARATOR) * (len(self.pages) - 1)


def real_corpus(source: Path = DEFAULT_SOURCE) -> list[Doc]:
    """The Markdown laws and the PDFs of ``source`` (the repository's ``corpus/``), read as
    the tests' stand-in tokenizers read them (``tests.standins``)."""
    from tests.standins import corpus_files, file_pages

    return [
        Doc(path.stem, "markdown" if path.suffix == ".md" else "pdf", tuple(file_pages(path)))
        for path in corpus_files(source)
    ]


_NUMBER = re.compile(r"(Artículo|Art\.|artículo) (\d+)")


def _swap_words(line: str, rng: random.Random) -> str:
    """The line with two neighbouring words swapped: the same words, a different text."""
    words = line.split(" ")
    if len(words) < 3:
        return line
    at = rng.randrange(len(words) - 1)
    words[at], words[at + 1] = words[at + 1], words[at]
    return " ".join(words)


def _variation(doc: Doc, copy: int) -> Doc:
    """A deterministic variant: paragraphs (or pages) shuffled, article numbers shifted,
    and two neighbouring words swapped in every line, so that no copy repeats a paragraph
    (a splitter that memoizes counts would otherwise be measured on repeated text)."""
    rng = random.Random(f"{doc.name}/{copy}")

    def renumber(text: str) -> str:
        text = _NUMBER.sub(lambda m: f"{m.group(1)} {int(m.group(2)) + copy}", text)
        return "\n".join(_swap_words(line, rng) for line in text.split("\n"))

    if len(doc.pages) > 1:
        pages = list(doc.pages)
        rng.shuffle(pages)
        return Doc(f"{doc.name}~{copy}", "synthetic", tuple(renumber(page) for page in pages))
    paragraphs = doc.pages[0].split("\n\n")
    head, body = paragraphs[:3], paragraphs[3:]
    rng.shuffle(body)
    return Doc(f"{doc.name}~{copy}", "synthetic", (renumber("\n\n".join(head + body)),))


def synthetic_corpus(real: list[Doc], size: int) -> list[Doc]:
    """Variations of the real documents, in turn, until about ``size`` characters."""
    docs: list[Doc] = []
    total, copy = 0, 0
    while total < size:
        for doc in real:
            if total >= size:
                break
            variant = _variation(doc, copy)
            docs.append(variant)
            total += variant.size
        copy += 1
    return docs


def pathological_corpus(real: list[Doc]) -> list[Doc]:
    """Inputs that make naive splitters quadratic or lose text."""
    prose = " ".join(" ".join(page for doc in real for page in doc.pages).split())
    paragraph = (prose * (MB // len(prose) + 1))[:MB].rstrip()
    letters = "".join(ch for ch in prose if ch.isalnum())
    word = (letters * (200_000 // len(letters) + 1))[:200_000]
    # WordPiece reads any word over 100 characters as one [UNK]: a base64 blob, whose
    # "+" and "/" are punctuation, is 200 KB without whitespace but many tokens.
    noise = random.Random("blob")
    blob = base64.b64encode(bytes(noise.randrange(256) for _ in range(150_000))).decode()
    rows = [
        f"| Artículo {i} | {1000 + 37 * i:,} € | {i % 45}% | {'exento' if i % 7 else 'sujeto'} |"
        for i in range(5000)
    ]
    table = "| Artículo | Base | Tipo | Situación |\n|---|---|---|---|\n" + "\n".join(rows)
    words = prose.split(" ")

    def cell(i: int, j: int) -> str:
        first = (i * 700 + j * 7) % (len(words) - 7)
        return " ".join(words[first : first + 7])

    wide = "\n".join("| " + " | ".join(cell(i, j) for j in range(100)) + " |" for i in range(200))
    return [
        Doc("paragraph-1MB-no-newline", "pathological", (paragraph,)),
        Doc("word-200KB-no-whitespace", "pathological", (word,)),
        Doc("base64-200KB-no-whitespace", "pathological", (blob,)),
        Doc("table-5000-rows", "pathological", (table,)),
        Doc("table-200-rows-of-5KB", "pathological", (wide,)),
    ]


def build(name: str, source: Path = DEFAULT_SOURCE, cache: Path = CACHE) -> list[Doc]:
    """A corpus by name: ``real``, ``pathological``, ``synthetic-N`` or ``stress-N`` (N MB)."""
    if name == "real":
        return real_corpus(source)
    real = load(ensure("real", source, cache))
    if name == "pathological":
        return pathological_corpus(real)
    kind, _, megabytes = name.partition("-")
    size = int(float(megabytes) * MB)
    if kind == "synthetic":
        return synthetic_corpus(real, size)
    if kind == "stress":
        odd = pathological_corpus(real)
        return synthetic_corpus(real, size - sum(doc.size for doc in odd)) + odd
    raise SystemExit(f"unknown corpus {name!r}: use real, pathological, synthetic-N or stress-N")


def cache_path(name: str, cache: Path = CACHE) -> Path:
    return cache / f"{name}.jsonl"


def ensure(name: str, source: Path = DEFAULT_SOURCE, cache: Path = CACHE) -> Path:
    """Builds the corpus once and returns its JSON-lines cache file."""
    path = cache_path(name, cache)
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")  # test workers may build it at once
        with tmp.open("w", encoding="utf-8") as out:
            for doc in build(name, source, cache):
                out.write(json.dumps({"name": doc.name, "kind": doc.kind, "pages": doc.pages}))
                out.write("\n")
        tmp.replace(path)
    return path


def write(docs: list[Doc], path: Path) -> Path:
    """Writes ``docs`` as a corpus file (for tests and custom corpora)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for doc in docs:
            out.write(json.dumps({"name": doc.name, "kind": doc.kind, "pages": doc.pages}) + "\n")
    return path


def stream(path: Path) -> Iterator[Doc]:
    """The documents of a corpus file, one at a time."""
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            yield Doc(row["name"], row["kind"], tuple(row["pages"]))


def load(path: Path) -> list[Doc]:
    return list(stream(path))
