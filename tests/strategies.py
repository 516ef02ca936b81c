"""Hypothesis strategies for the chunking engine: Spanish-like documents, pages, sections.

Generated text is deliberately hostile: accents and ``ñ``, ``¿``/``¡``, ``€`` amounts,
emoji (ZWJ sequences, skin tones, flags), NFD text with combining accents, CRLF and
lone CR, tabs, runs of spaces and blank lines, very long words without spaces, empty
and whitespace-only pages.

Profiles: ``dev`` (the default) keeps the property tests near a minute on two cores;
``ci`` runs twice its examples and ``bounds`` half of them (CI's second run of the
suite, where only the dependencies' versions change). Choose with
``HYPOTHESIS_PROFILE=ci``. Profiles are
registered here but not loaded globally: tests take ``PROFILE`` as their parent
settings and scale their own budgets with ``examples(n)``.
"""

from __future__ import annotations

import os
import random
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from hypothesis import settings
from hypothesis import strategies as st

from langchain_asesoria import (
    ChunkingConfig,
    ChunkMetadata,
    LoadedPage,
    SectionSpan,
    Tokenization,
    join_pages,
)
from langchain_asesoria.models import DEFAULT_SEPARATORS

__all__ = [
    "PAGE_SEPARATORS",
    "PROFILE",
    "ChunkingCase",
    "MarkdownDocument",
    "TokenizationFactory",
    "chunking_cases",
    "configs",
    "document_metadata",
    "examples",
    "legal_list",
    "markdown_documents",
    "page_lists",
    "page_texts",
    "section_spans",
    "spanish_corpus",
    "spanish_text",
]

# -- profiles --------------------------------------------------------------------------

#: ``dev`` is the reference: ``examples(n)`` gives exactly ``n`` under it.
_DEV_EXAMPLES = 100

for _name, _max_examples in (
    ("dev", _DEV_EXAMPLES),
    ("ci", 2 * _DEV_EXAMPLES),
    ("bounds", _DEV_EXAMPLES // 2),
):
    settings.register_profile(_name, max_examples=_max_examples, deadline=None, print_blob=True)

#: The parent settings of every property test (``HYPOTHESIS_PROFILE``, default ``dev``).
PROFILE = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def examples(n: int) -> int:
    """``n`` examples under ``dev``, proportionally more under a larger profile."""
    return max(1, n * PROFILE.max_examples // _DEV_EXAMPLES)


# -- vocabulary ------------------------------------------------------------------------

WORDS: tuple[str, ...] = (
    "año", "niño", "señor", "España", "contribuyente", "declaración", "deducción",
    "vivienda", "alquiler", "pensión", "cónyuge", "público", "régimen", "exención",
    "retención", "cigüeña", "pingüino", "vergüenza", "Ñandú", "ÑOÑO", "árbol", "él",
    "más", "también", "Hacienda", "impuesto", "sobre", "la", "renta", "de", "las",
    "personas", "físicas", "IRPF", "IVA", "artículo", "según", "ejercicio", "período",
    "acción", "música", "útil", "búsqueda", "Agencia", "Tributaria", "mínimo",
    "personal", "familiar", "económica", "tributación", "ganancia", "patrimonial",
    "Comunidad", "Autónoma", "base", "imponible", "líquida", "cuota", "íntegra", "y",
    "o", "a", "en", "el", "que", "por", "con", "para", "sí", "no", "qué", "cuándo",
    "dónde", "Ávila", "Óscar", "Úbeda", "Íñigo", "Ángel", "caña", "pequeño", "mañana",
)  # fmt: skip

EMOJI: tuple[str, ...] = (
    "😀", "👍🏽", "👩‍💻", "👨‍👩‍👧‍👦", "❤️", "🏳️‍🌈", "🇪🇸", "🧑🏿‍⚖️", "💶", "✅", "👋🏻",
)  # fmt: skip

#: Whitespace the engine must never need to cover (``str.isspace`` is true).
SPACES: tuple[str, ...] = (
    " ", "  ", "   ", "\t", " \t ", "\n", "\r\n", "\r", "\n\n", "\r\n\r\n", "\n   \n",
    "\n\n\n\n", "\u00a0", "\u2003", "\u3000", "\x0c", " \n\t\r\n ",
)  # fmt: skip

#: Characters that are not whitespace for ``str.isspace`` yet render as nothing, or
#: attach to their neighbour: they must be covered like any other character.
INVISIBLE: tuple[str, ...] = (
    "\u200b", "\ufeff", "\u00ad", "\u2060", "\u200d", "\u0301", "\ufe0f", "\U0001f3fd", "\x00",
)  # fmt: skip

#: Whitespace for ``str.isspace`` that few tokenizers treat as such.
ODD_SPACES: tuple[str, ...] = ("\x1f", "\x85", "\u2028", "\u2029", "\x0b", "\u200a")

PUNCTUATION: tuple[str, ...] = (
    ".", ",", ";", ":", "…", "?", "!", "»", "«", "(", ")", '"', "—", "-", "/", "%",
)  # fmt: skip

LABELS: tuple[str, ...] = (
    "Artículo 1", "Artículo 5 bis", "Capítulo Ñ", "Título Preliminar",
    "Disposición adicional única", "Sección 2.ª", "Anexo I: Tributación en €",
    "¿Quién declara?", "¡Atención! Plazos", "Régimen económico 👩‍💻", "Pingüino", "",
    "  ", "Título\ncon salto", "Cuota íntegra autonómica: escala de gravamen " * 3,
)  # fmt: skip


def _nfd(word: str) -> str:
    return unicodedata.normalize("NFD", word)


def _amount(units: int, cents: int, euro_first: bool) -> str:
    figure = f"{units:,}".replace(",", ".") + f",{cents:02d}"
    return f"€{figure}" if euro_first else f"{figure} €"


def _repeat_to(parts: Sequence[str], length: int) -> str:
    base = "".join(parts)
    return (base * (length // len(base) + 1))[:length]


words = st.sampled_from(WORDS)
nfd_words = words.map(_nfd)
amounts = st.builds(_amount, st.integers(0, 10**7), st.integers(0, 99), st.booleans())
emoji = st.sampled_from(EMOJI)

#: A very long run of text without spaces (200-2000 characters), possibly cut inside
#: a grapheme at its end.
long_words = st.builds(
    _repeat_to,
    st.lists(
        st.one_of(words, nfd_words, emoji, st.sampled_from((*"€-_./0123456789", *INVISIBLE))),
        min_size=1,
        max_size=6,
    ),
    st.integers(200, 2000),
)


def _question(parts: Sequence[str]) -> str:
    return "¿" + " ".join(parts) + "?"


def _exclamation(parts: Sequence[str]) -> str:
    return "¡" + " ".join(parts) + "!"


_SENTENCE_WORDS = st.lists(words, min_size=1, max_size=6)

tokens = st.one_of(
    words,
    words,
    words,
    nfd_words,
    amounts,
    emoji,
    st.builds(_question, _SENTENCE_WORDS),
    st.builds(_exclamation, _SENTENCE_WORDS),
    st.sampled_from(PUNCTUATION),
    st.sampled_from(INVISIBLE),
)

separators_between = st.one_of(
    st.just(" "),
    st.just(" "),
    st.just(". "),
    st.just(", "),
    st.sampled_from(SPACES),
    st.sampled_from(ODD_SPACES),
    st.sampled_from(PUNCTUATION).map(lambda mark: mark + " "),
    st.just(""),
)


_PARAGRAPH_BREAKS = st.sampled_from(
    ["\n\n", "\n\n", "\r\n\r\n", "\n", "\r\n", "\r", "\n   \n", "\n\n\n\n", " \t\n\t "]
)


@st.composite
def _sentence(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(st.tuples(tokens, separators_between), min_size=1, max_size=15))
    body = "".join(token + separator for token, separator in pieces).rstrip()
    return body + draw(st.sampled_from([".", ".", "?", "!", "…", ":", ".»", ")."]))


_LABELS = st.sampled_from(["1.", "2.º", "3.ª", "a)", "b´)", "Uno.", "IV.", "-", "•", "c."])  # noqa: RUF001


@st.composite
def legal_list(draw: st.DrawFn) -> str:
    """A lead-in ending in a colon, then labelled items (some with a nested list), or
    a pipe table: what ``structure.leads`` gives a lead to."""
    if draw(st.integers(0, 3)) == 0:
        cells = draw(st.lists(words, min_size=1, max_size=4))
        rows = draw(st.lists(st.lists(amounts, min_size=1, max_size=4), min_size=1, max_size=8))
        lines = ["| " + " | ".join(cells) + " |", "|" + "---|" * len(cells)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    lead = draw(_sentence()).rstrip(".?!…»)") + ":"
    label = draw(_LABELS)
    items = draw(st.lists(_sentence(), min_size=1, max_size=6))
    nested = draw(st.booleans())
    parts = [lead]
    for number, item in enumerate(items):
        parts.append(f"{label} {item}")
        if nested and number == 0:
            parts.append(draw(_sentence()).rstrip(".?!…»)") + ":")
            parts += [
                f"{draw(_LABELS)} {sentence}"
                for sentence in draw(st.lists(_sentence(), min_size=1, max_size=3))
            ]
    return draw(st.sampled_from(["\n\n", "\n"])).join(parts)


@st.composite
def spanish_text(draw: st.DrawFn, *, max_paragraphs: int = 6, long_words_too: bool = True) -> str:
    """Spanish-like paragraphs of sentences: words, amounts, emoji, odd whitespace,
    lists with their lead-ins and pipe tables."""
    paragraphs = draw(
        st.lists(
            st.one_of(
                st.lists(_sentence(), min_size=1, max_size=6).map(" ".join),
                st.lists(_sentence(), min_size=1, max_size=6).map(" ".join),
                legal_list(),
            ),
            max_size=max_paragraphs,
        )
    )
    text = ""
    for paragraph in paragraphs:
        text += paragraph + draw(_PARAGRAPH_BREAKS)
    if long_words_too and draw(st.integers(0, 4)) == 0:
        position = draw(st.integers(0, len(text)))
        text = f"{text[:position]} {draw(long_words)} {text[position:]}"
    return text


page_texts = st.one_of(
    spanish_text(),
    spanish_text(),
    st.just(""),
    spanish_text(),
    st.lists(st.sampled_from(SPACES), min_size=1, max_size=4).map("".join),
)


@st.composite
def page_lists(draw: st.DrawFn) -> list[LoadedPage]:
    """1 to 8 pages, increasing numbers, possibly not from 1 and with gaps."""
    texts = draw(st.lists(page_texts, min_size=1, max_size=8))
    number = draw(st.integers(1, 40))
    pages = []
    for text in texts:
        pages.append(LoadedPage(text, number))
        number += draw(st.integers(1, 3))
    return pages


# -- sections --------------------------------------------------------------------------

section_labels = st.sampled_from(LABELS)


@st.composite
def section_spans(draw: st.DrawFn, length: int) -> list[SectionSpan]:
    """Sorted, non-overlapping spans over ``[0, length)``, adjacent or with gaps."""
    if length == 0:
        return []
    cuts = draw(st.lists(st.integers(1, length - 1), max_size=8, unique=True)) if length > 1 else []
    bounds = [0, *sorted(cuts), length]
    spans: list[SectionSpan] = []
    for start, end in pairwise(bounds):
        if not draw(st.booleans()):
            continue  # a gap
        label = draw(st.none() | section_labels)
        path = tuple(draw(st.lists(section_labels, max_size=2)))
        if label is not None and draw(st.booleans()):
            path = (*path, label)
        spans.append(SectionSpan(start, end, label, path))
    return spans


# -- configuration and metadata ----------------------------------------------------------


#: Page separators drawn: blank lines, one newline, odd whitespace that is no newline.
PAGE_SEPARATORS: tuple[str, ...] = ("\n\n", "\n", " ", "\r\n\r\n", "\x0c", "\r", "\u2029", "\x1f")


@st.composite
def configs(
    draw: st.DrawFn,
    limit: int,
    *,
    small: bool = False,
    floor: int = 1,
    page_separator: str | None = None,
) -> ChunkingConfig:
    """A budget up to ``limit``, an overlap in ``[0, max_tokens)`` and the options.

    ``small`` favours budgets that leave little room, to reach the budget errors;
    otherwise the budget is at least ``floor`` (what the widest section context and the
    widest grapheme need), so that the draw reaches the chunks and their invariants.
    """
    floor = min(max(floor, 1), limit)
    if small:
        max_tokens = draw(st.integers(1, min(limit, 24)))
    else:
        low = max(floor, min(limit, 24))
        max_tokens = draw(
            st.one_of(
                st.integers(low, max(low, min(limit, 128))),
                st.integers(max(low, min(limit, 128)), limit),
                st.integers(low, max(low, min(limit, 128))),
                st.integers(floor, min(limit, floor + 24)),
            )
        )
    overlap = draw(
        st.one_of(
            st.just(0),
            st.integers(0, max(0, max_tokens // 4)),
            st.integers(0, max_tokens - 1),
        )
    )
    separators = draw(
        st.sampled_from(
            [
                DEFAULT_SEPARATORS,
                DEFAULT_SEPARATORS,
                (r"\n\n", r"\n", " "),
                (r"\s+",),
                (),
                (r"[.;:]\s*", r",", r"\b"),
            ]
        )
    )
    return ChunkingConfig(
        max_tokens=max_tokens,
        overlap_tokens=overlap,
        separators=separators,
        page_separator=page_separator or draw(st.sampled_from(PAGE_SEPARATORS)),
        section_context=draw(st.sampled_from(["compact", "compact", "path", "label", "none"])),
    )


@st.composite
def document_metadata(draw: st.DrawFn) -> ChunkMetadata:
    """Document fields, private ones with a session id."""
    private = draw(st.booleans())
    return ChunkMetadata(
        doc_id=draw(st.sampled_from(["guía-irpf-2025", "ley/35/2006", "manual_IVA"])),
        doc_type=draw(st.sampled_from(["official_guide", "law", "document", "nómina"])),
        tax=draw(st.none() | st.sampled_from(["IRPF", "IVA", "ISD"])),
        fiscal_year=draw(st.none() | st.integers(2000, 2030)),
        source_scope="private" if private else "public",
        session_id=draw(st.sampled_from(["sesión-1", "s2"]))
        if private
        else draw(st.none() | st.just("s9")),
        vigencia=draw(st.none() | st.sampled_from(["2025-01-01/", "derogada"])),
    )


# -- tokenizations ---------------------------------------------------------------------


@dataclass(frozen=True)
class TokenizationFactory:
    """Builds one family of tokenizations: ``make(document_prefix, special_tokens)``.

    Attributes:
        name: For test ids.
        limit: Its real input limit (the largest budget to draw).
        make: Builds a tokenization; tokenizers with fixed special tokens ignore it.
    """

    name: str
    limit: int
    make: Callable[[str, int], Tokenization]


@dataclass(frozen=True)
class ChunkingCase:
    """Everything one ``chunk_document`` call takes, and the joined text it works on.

    ``detect_markdown_headings`` is the root ``chunk_document``'s keyword (its ATX
    headings as sections, instead of ``sections``).
    """

    pages: list[LoadedPage]
    metadata: ChunkMetadata
    config: ChunkingConfig
    tokenization: Tokenization
    sections: list[SectionSpan] | None
    joined: str
    detect_markdown_headings: bool = False


#: Tokens any one grapheme of the generated text may need with special tokens: the
#: longest emoji sequence is 25 UTF-8 bytes, NFD text stacks a few marks.
_GRAPHEME_ROOM = 40


def _widest_context(tokenization: Tokenization, spans: Sequence[SectionSpan] | None) -> int:
    """Tokens of the prepared empty content under the widest (``path``) context."""
    contexts = [" > ".join(span.section_path) or span.section_label or "" for span in spans or ()]
    return max(tokenization.count(tokenization.prepare("", c)) for c in ["", *contexts])


@st.composite
def chunking_cases(
    draw: st.DrawFn,
    factory: TokenizationFactory,
    *,
    small: bool = False,
    with_sections: bool | None = None,
) -> ChunkingCase:
    """Pages, metadata, config, tokenization (optionally with ``passage: ``) and spans.

    Unless ``small``, the pages hold some visible text and the budget leaves room for
    the widest section context and grapheme, so most draws reach the invariants (the
    budget errors have their own ``small`` draws).
    """
    pages = draw(page_lists() if small else page_lists().filter(_has_text))
    separator = draw(st.sampled_from(PAGE_SEPARATORS))
    joined = join_pages(pages, separator).text
    use_sections = draw(st.booleans()) if with_sections is None else with_sections
    sections = draw(section_spans(len(joined))) if use_sections else None
    prefix = draw(st.sampled_from(["", "", "passage: "]))
    tokenization = factory.make(prefix, draw(st.integers(0, 3)))
    floor = 1 if small else _widest_context(tokenization, sections) + _GRAPHEME_ROOM
    config = draw(configs(factory.limit, small=small, floor=floor, page_separator=separator))
    return ChunkingCase(pages, draw(document_metadata()), config, tokenization, sections, joined)


def _has_text(pages: Sequence[LoadedPage]) -> bool:
    return any(page.text.strip() for page in pages)


# -- Markdown ----------------------------------------------------------------------------


@dataclass(frozen=True)
class MarkdownDocument:
    """Generated Markdown and what a reader knows about it.

    Attributes:
        text: The Markdown source.
        headings: ``(offset, title)`` of every real ATX heading, in order.
        fake_titles: Titles of heading-like lines inside fenced code.
    """

    text: str
    headings: tuple[tuple[int, str], ...]
    fake_titles: frozenset[str]


_TITLE_WORDS = st.lists(words, min_size=1, max_size=4).map(" ".join)


@st.composite
def markdown_documents(draw: st.DrawFn) -> MarkdownDocument:
    """ATX headings (``#``..``######``), paragraphs and fenced code, LF or CRLF lines."""
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    parts: list[str] = []
    headings: list[tuple[int, str]] = []
    fake: set[str] = set()
    offset = 0

    def emit(piece: str) -> None:
        nonlocal offset
        parts.append(piece)
        offset += len(piece)

    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["heading", "heading", "paragraph", "paragraph", "fence"]))
        if kind == "heading":
            title = draw(_TITLE_WORDS) + f" {len(headings)}"
            marks = "#" * draw(st.integers(1, 6))
            indent = " " * draw(st.integers(0, 3))
            closing = draw(st.sampled_from(["", "", " #", " ###"]))
            headings.append((offset, title))
            emit(f"{indent}{marks} {title}{closing}{newline}")
        elif kind == "paragraph":
            body = draw(spanish_text(max_paragraphs=2)).replace("\r", " ").replace("\n", " ")
            emit(body.replace("#", "") + newline + newline * draw(st.integers(0, 2)))
        else:
            fence = draw(st.sampled_from(["```", "~~~", "````"]))
            info = draw(st.sampled_from(["", "python", "md"]))
            title = f"FALSO {draw(_TITLE_WORDS)}"
            fake.add(title)
            emit(f"{fence}{info}{newline}# {title}{newline}código = 1{newline}")
            if draw(st.integers(0, 4)):  # usually closed; an open fence runs to the end
                emit(f"{fence}{newline}")
            else:
                break
    return MarkdownDocument("".join(parts), tuple(headings), frozenset(fake))


# -- a large corpus, without Hypothesis ------------------------------------------------------


def spanish_corpus(min_bytes: int, seed: int = 2025) -> str:
    """Deterministic Spanish-like paragraphs of at least ``min_bytes`` UTF-8 bytes."""
    rng = random.Random(seed)
    paragraphs: list[str] = []
    size = 0
    while size < min_bytes:
        sentences = []
        for _ in range(rng.randint(1, 12)):
            chosen = [rng.choice(WORDS) for _ in range(rng.randint(3, 30))]
            if rng.random() < 0.1:
                chosen.insert(rng.randrange(len(chosen)), _amount(rng.randrange(10**6), 5, False))
            if rng.random() < 0.05:
                chosen.insert(rng.randrange(len(chosen)), rng.choice(EMOJI))
            sentence = " ".join(chosen)
            sentences.append(sentence[0].upper() + sentence[1:] + rng.choice(".....?!"))
        paragraph = " ".join(sentences)
        if rng.random() < 0.02:
            paragraph += " " + _repeat_to([rng.choice(WORDS)], rng.randint(200, 2000))
        paragraphs.append(paragraph)
        size += len(paragraph.encode("utf-8")) + 2
    return "\n\n".join(paragraphs)
