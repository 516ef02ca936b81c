"""A web page saved as text: one line per paragraph, the site's chrome around and
between them (a browser's "save as text", ``innerText``, LangChain's ``BSHTMLLoader``).

More: ``docs/design/structure.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final

from langchain_asesoria.structure.headings import Heading
from langchain_asesoria.structure.html import report_lines
from langchain_asesoria.structure.legal_grammar import (
    QUOTE_OPEN,
    heading_line,
    number_only,
    quoted,
)

#: A line of text, its line ending left out.
_LINE: Final = re.compile(r"[^\r\n]*")
#: The BOE's marker of a block of a consolidated text: "[Bloque 5: #a1]".
_BLOCK_MARKER: Final = re.compile(r"\[Bloque \d+: #([^\]]*)\]")
#: The line of a BOE consolidated page that names its law.
_CONSOLIDATED: Final = re.compile(r"Documento consolidado ([A-Z]+-[A-Z]-\d{4}-\d+)")
#: A text is one line per paragraph when fewer of its lines than this share are blank.
_BLANK_SHARE: Final = 0.1
_MIN_LINES: Final = 3

#: Lines of the BOE's site chrome inside the page: (label for the report, the whole line).
CHROME_LINES: Final[tuple[tuple[str, re.Pattern[str]], ...]] = tuple(
    (label, re.compile(pattern, re.IGNORECASE))
    for label, pattern in (
        ("block marker", _BLOCK_MARKER.pattern),
        ("back-to-top link", r"subir"),
        (
            "version menu",
            r"seleccionar redacci[óo]n:?|texto consolidado: «.*»"
            r"|(?:[úu]ltima actualizaci[óo]n|modificaci[óo]n|texto (?:original|inicial)),?"
            r" publicad[oa] el \d\d/\d\d/\d{4}.*",
        ),
        (
            "disclaimer",
            r"legislaci[óo]n consolidada.*|este texto consolidado es de car[áa]cter informativo.*"
            r"|la consolidaci[óo]n consiste en integrar en un solo texto.*",
        ),
        ("jump menu", r"ir a:|seleccionar apartado"),
        ("form", r"jurisprudencia|ayuda|recibir alerta"),
    )
)
#: A law's title, the first line of its page's content: "Ley 37/1992, de 28 de…".
_LAW_TITLE: Final = re.compile(
    r"(?:Ley(?: Orgánica)?|Real Decreto(?:-ley| Legislativo)?|Decreto(?:-ley)?|Orden|"
    r"Resolución|Instrumento|Acuerdo|Circular|Reglamento|Constitución)\s+\S.{10,}"
)
#: The site's name, at the top of every page of the BOE.
_SITE: Final = "Agencia Estatal Boletín Oficial del Estado"
#: The last line of the page's metadata, before its menus: the ELI permalink.
_PERMALINK: Final = re.compile(r"https?://www\.boe\.es/eli/\S+")
#: The longest line taken for a unit's name after its number.
_MAX_NAME: Final = 200


@dataclass(frozen=True, slots=True)
class PageText:
    """What ``page_text`` finds: the chrome lines to blank and the headings.

    Attributes:
        chrome: ``(start, end, label)`` of each chrome line, in text order.
        headings: The law's title and its heading lines, level 1 for the title, 2 for
            the rest and 3 for a quoted one (``legal.relevel`` ranks them), positions in
            the text.
        report: The chrome as report lines, one per kind (``html.report_lines``).
        blocks: ``(position, block id)`` of each block of a BOE consolidated page: where
            the line after its "[Bloque N: #a48]" line starts, in text order.
        law_id: The law such a page names ("Documento consolidado BOE-A-…"), if any.
    """

    chrome: tuple[tuple[int, int, str], ...]
    headings: tuple[Heading, ...]
    report: tuple[str, ...]
    blocks: tuple[tuple[int, str], ...] = ()
    law_id: str | None = None


def line_paragraphs(text: str) -> bool:
    """Whether ``text`` is a page saved as text, one line per paragraph: it holds the
    BOE's block markers, or it has many lines and few of them blank."""
    lines = text.splitlines()
    if any(_BLOCK_MARKER.fullmatch(line.strip()) for line in lines):
        return True
    blank = sum(not line.strip() for line in lines)
    return len(lines) >= _MIN_LINES and blank < _BLANK_SHARE * len(lines)


def _lines(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, stripped line)`` of each line that holds text, ``end`` without
    its trailing spaces."""
    found = []
    for match in _LINE.finditer(text):
        line = match.group()
        if line.strip():
            start = match.start() + len(line) - len(line.lstrip())
            found.append((start, match.start() + len(line.rstrip()), line.strip()))
    return found


def _chrome(lines: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The chrome lines of a BOE page (one with block markers or the site's name; any
    other text has none): the site before the law's title and after its last "Subir",
    the menus between its metadata and its first block, and each chrome line inside."""
    markers = [i for i, (_, _, line) in enumerate(lines) if _BLOCK_MARKER.fullmatch(line)]
    if not markers and not any(line == _SITE for *_, line in lines):
        return []
    chrome: dict[int, str] = {}
    title = next((i for i, (*_, line) in enumerate(lines) if _LAW_TITLE.match(line)), 0)
    chrome.update(dict.fromkeys(range(title), "outside the main content"))
    if markers:
        permalink = next(
            (i for i in range(title, markers[0]) if _PERMALINK.fullmatch(lines[i][2])), title
        )
        chrome.update(dict.fromkeys(range(permalink + 1, markers[0]), "navigation"))
    tops = [i for i, (*_, line) in enumerate(lines) if line.lower() == "subir"]
    if tops and (not markers or tops[-1] > markers[-1]):
        chrome.update(dict.fromkeys(range(tops[-1] + 1, len(lines)), "outside the main content"))
    for index, (*_, line) in enumerate(lines):
        label = next((label for label, p in CHROME_LINES if p.fullmatch(line)), None)
        if label is not None:
            chrome[index] = label
    return [(*lines[i][:2], chrome[i]) for i in sorted(chrome)]


def _heading_line(line: str) -> bool:
    """Whether a paragraph line is a legal heading by its shape (``heading_line``: "TÍTULO
    I", "Artículo 4. Hecho imponible.", "Disposición final primera. …", "ANEXO"), quoted
    or not."""
    return heading_line(line.lstrip(QUOTE_OPEN)) is not None


def _name_line(line: str) -> bool:
    """Whether a line after a unit's number is its name: short, no sentence."""
    return len(line) <= _MAX_NAME and not line.endswith((".", ":", ";", ","))


def _headings(lines: list[tuple[int, int, str]]) -> list[Heading]:
    headings: list[Heading] = []
    for index, (start, end, line) in enumerate(lines):
        if index == 0 and _LAW_TITLE.match(line):
            headings.append(Heading(start, end, 1, line, False))
            continue
        previous = headings[-1] if headings else None
        named = (
            previous is not None
            and previous.body_is_empty
            and previous.end == lines[index - 1][1]
            and number_only(previous.title)
            and not _heading_line(line)
            and _name_line(line)
        )
        if named or _heading_line(line):
            # A quoted provision one level deeper: it closes nothing of the law's own.
            headings.append(Heading(start, end, 3 if quoted(line) else 2, line))
        elif previous is not None and previous.body_is_empty:
            headings[-1] = replace(previous, body_is_empty=False)
    return headings


def page_text(text: str, *, chrome: bool = True) -> PageText:
    """The chrome lines (when ``chrome``) and heading lines of a page saved as text,
    one line per paragraph (``line_paragraphs``).

    Invariants: ``text[s:e]`` is a whole line of ``text`` (its spaces trimmed) for each
    chrome line and each heading; no heading is a chrome line.
    """
    lines = _lines(text)
    found = _chrome(lines) if chrome else []
    removed = {start for start, _, _ in found}
    content = [line for line in lines if line[0] not in removed]
    # a block starts at the line after its marker (the marker is chrome)
    following = [start for start, _, _ in lines[1:]] + [len(text)]
    blocks = tuple(
        (after, marker.group(1))
        for (_, _, line), after in zip(lines, following, strict=True)
        if (marker := _BLOCK_MARKER.fullmatch(line)) is not None
    )
    named = next((m for _, _, line in lines if (m := _CONSOLIDATED.fullmatch(line))), None)
    law_id = named.group(1) if named is not None and blocks else None
    headings = tuple(_headings(content))
    return PageText(tuple(found), headings, _report(text, found), blocks, law_id)


#: How long a report line's example is.
_SNIPPET: Final = 60


def _report(text: str, found: list[tuple[int, int, str]]) -> tuple[str, ...]:
    """One line per kind: its first line, "…" when it found others, and how many."""
    lines: dict[str, set[str]] = {}
    for start, end, label in found:
        lines.setdefault(label, set()).add(text[start:end])
    first: dict[str, str] = {}
    for start, end, label in found:
        if label not in first:
            example = text[start:end]
            cut = example[:_SNIPPET] + ("…" if len(example) > _SNIPPET else "")
            first[label] = f'"{cut}"' + ("…" if len(lines[label]) > 1 else "")
    return report_lines([(label, first[label]) for _, _, label in found])


def blank_lines(text: str, spans: tuple[tuple[int, int, str], ...]) -> str:
    """``text`` with each span's characters as spaces: lengths and offsets kept."""
    parts, position = [], 0
    for start, end, _ in spans:
        parts += [text[position:start], " " * (end - start)]
        position = end
    return "".join([*parts, text[position:]])
