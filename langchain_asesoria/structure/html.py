"""Web pages: markup in, the page's main content out as readable text with its headings.

More: ``docs/design/structure.md``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import TYPE_CHECKING, Final

from langchain_asesoria.errors import DocumentReadError, MissingDependencyError
from langchain_asesoria.structure.headings import Heading

if TYPE_CHECKING:
    from lxml import etree

#: Between a table row's cells.
CELL_SEPARATOR: Final = " | "

#: Between the rows of a table inside a table's cell (the cell stays one line).
ROW_SEPARATOR: Final = "; "

#: Where a page's main content may be, in order of preference (XPath over the parsed
#: tree); the first that holds text wins, ``<body>`` last.
MAIN_CONTENT: Final[tuple[str, ...]] = (
    "//main",
    "//*[@role='main']",
    "//*[@id='contenido']",  # the BOE's document pages (doc.php, act.php)
    "//*[@id='main-content']",
    "//*[@id='content']",
    "//article",
    "//body",
)


#: A form holding any of these is content (ASP.NET wraps a whole page in one ``<form>``);
#: a paragraph holding a control (the BOE's version selector) does not count.
_CONTROLS: Final = ".//input or .//select or .//button or .//textarea"
_CONTENT_BLOCKS: Final = " or ".join(
    [
        f".//p[not({_CONTROLS})]",
        *(f".//{tag}" for tag in ("h1", "h2", "h3", "h4", "h5", "h6", "article", "main", "table")),
    ]
)
#: A label of a control: named by ``for`` or beside one (one in running text is content).
_CONTROL_LABEL: Final = ".//label[@for or ../input or ../select or ../textarea or .//input]"


def _class(name: str) -> str:
    """An XPath test for an element whose ``class`` holds the word ``name``."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


#: What is not content inside the content root: (label for the report, XPath).
CHROME: Final[tuple[tuple[str, str], ...]] = (
    # The BOE's consolidated texts: the "Legislación consolidada" heading and its
    # tooltip ("Este texto consolidado es de carácter informativo…"); the version shown
    # ("Texto consolidado: «Última actualización…»") and the menus of the page and of
    # each block to choose another ("Seleccionar redacción:"); the jump menu ("Ir a:").
    ("disclaimer", f".//*[{_class('titulo-wrapper')}] | .//*[{_class('tooltiptext')}]"),
    (
        "version menu",
        f".//*[self::h1 or self::h2 or self::h3][*[{_class('subtitMostrado')}]]"
        f" | .//*[{_class('redaccion')}] | .//form[.//input[@type='radio' and @name='p']]",
    ),
    ("jump menu", f".//*[{_class('marcadores')}]"),
    (
        "navigation",
        ".//nav | .//*[@role='navigation' or @role='menu' or @role='menubar']"
        " | .//*[@id='tabs']",  # the BOE's tabs: Completo, Solo Texto, Índice, Análisis
    ),
    ("search", ".//*[@role='search']"),
    ("aside", ".//aside | .//*[@role='complementary']"),
    (
        "page header or footer",
        ".//*[self::header or self::footer]"
        "[not(ancestor::article or ancestor::section or ancestor::main)]"
        " | .//*[@role='banner' or @role='contentinfo']",
    ),
    (
        "form",
        f".//form[not({_CONTENT_BLOCKS})] | .//select | .//button | .//input | .//textarea"
        f" | {_CONTROL_LABEL}",
    ),
    ("back-to-top link", f".//*[{_class('linkSubir')}] | .//a[@href='#top']"),
    ("block marker", f".//p[{_class('bloque')}]"),  # the BOE's "[Bloque 5: #a1]"
    ("ANÁLISIS block", ".//*[@id='panelAnalisis']"),  # the BOE's references and subjects
    (
        "links to other formats",
        f".//*[{_class('enlaces-doc')} or {_class('enlaces-conso')}]",
    ),
    (
        "text for screen readers only",
        f".//*[{_class('fuera')} or {_class('sr-only')} or {_class('visually-hidden')}]"
        " | .//*[@aria-hidden='true']",
    ),
)

#: Never rendered as text, never reported.
#: The page's own address: its canonical link, else a link of the BOE's language menu.
_CANONICAL: Final = (
    "(.//head/link[@rel='canonical']/@href | .//a[@hreflang][contains(@href, 'act.php')]/@href)"
)
_NOT_RENDERED: Final = (
    ".//script | .//style | .//template | .//noscript | .//head | .//*[@hidden]"
    " | .//iframe | .//object"
)

_BLOCKS: Final = frozenset(
    {
        *("address", "article", "aside", "blockquote", "caption", "center", "dd", "details"),
        *("dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer"),
        *("form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "legend", "li"),
        *("listing", "main", "menu", "nav", "ol", "p", "pre", "section", "summary", "table"),
        *("tbody", "td", "tfoot", "th", "thead", "tr", "ul", "body", "html"),
    }
)
_HEADINGS: Final = {f"h{level}": level for level in range(1, 7)}
_WHITESPACE: Final = re.compile(r"[ \t\n\r\f]+")
_SNIPPET: Final = 60
#: ``</body>`` and ``</html>``: a browser puts what follows them in the body (libxml2
#: would leave it beside the body, or drop it after ``</html>``), so they are blanked
#: (spaces of their length: lines and columns stay) before parsing.
_END_OF_BODY: Final = re.compile(r"</(?:body|html)\s*>", re.IGNORECASE)
_HTML_EXTRA: Final = "reading web pages needs lxml: pip install 'langchain-asesoria[html]'"


@dataclass(frozen=True, slots=True)
class HtmlTable:
    """A table's place in ``HtmlText.text``.

    Invariant: ``start <= header_end <= end``; ``text[start:header_end]`` is its header
    rows (empty when it has none), one line each.
    """

    start: int
    end: int
    header_end: int


@dataclass(frozen=True, slots=True)
class HtmlText:
    """A page as text (see the module docstring).

    Attributes:
        text: The main content as readable text.
        headings: Its ``<hN>`` headings, positions in ``text``, level N.
        tables: Its tables, in order.
        removed: What was left out, one short labelled line each, in page order.
        blocks: Where each block of a BOE consolidated page starts (``<div
            class="bloque" id="a48">``, the anchor of ``act.php?id=…#a48``): ``(position
            in text, block id)``, in order.
        canonical: The page's own address, if it gives one: its ``<link
            rel="canonical">``, else the BOE's language menu's link to the same page
            (``act.php?lang=es&id=…``).
    """

    text: str
    headings: tuple[Heading, ...] = ()
    tables: tuple[HtmlTable, ...] = ()
    removed: tuple[str, ...] = ()
    blocks: tuple[tuple[int, str], ...] = ()
    canonical: str | None = None


def looks_like_markup(text: str) -> bool:
    """Whether ``text`` is markup (it opens with ``<``, leading whitespace aside), not
    text already extracted from a page (as LangChain's ``BSHTMLLoader`` gives)."""
    return text.lstrip().startswith("<")


def extract_html(markup: str, *, main_content: bool = True) -> HtmlText:
    """The page's main content (or its whole body) as text, with its headings and tables.

    Invariants: ``text[h.start:h.end]`` is heading ``h``'s title line (its whitespace as
    in ``text``); every text node of the content root outside ``CHROME`` is in ``text``,
    in page order, whitespace collapsed.

    Raises:
        MissingDependencyError: lxml (the ``html`` extra) is not installed.
        DocumentReadError: the parser had to stop reading (elements nested deeper than
            libxml2's 2,048 levels): rather than lose the text after that point.
    """
    root = _parse(markup)
    if root is None:
        return HtmlText("")
    canonical = next(iter(root.xpath(_CANONICAL)), None)
    for element in _select(root, _NOT_RENDERED):
        _drop(element)
    removed: list[tuple[str, str]] = []
    content = _content_root(root, removed) if main_content else _body(root)
    if main_content:
        for label, element in _chrome(content):
            if _text_of(element):
                removed.append((label, _snippet(element)))
            _drop(element, spaced=True)
    rendered = _Renderer()
    rendered.render(content)
    page = rendered.result(report_lines(removed))
    return replace(page, canonical=None if canonical is None else str(canonical))


# -- parsing and choosing the content -------------------------------------------------------


def _parse(markup: str) -> etree._Element | None:
    """The parsed page (comments and processing instructions left out), or None when
    there is no markup at all."""
    try:
        from lxml import etree
    except ImportError as error:
        raise MissingDependencyError(_HTML_EXTRA) from error
    if not markup.strip():
        return None
    parser = etree.HTMLParser(
        encoding="utf-8", remove_comments=True, remove_pis=True, huge_tree=True
    )
    markup = _END_OF_BODY.sub(lambda tag: " " * len(tag.group()), markup)
    try:
        root = etree.fromstring(markup.encode("utf-8", "replace"), parser)
    except etree.XMLSyntaxError:  # libxml2 found no element at all ("Document is empty")
        return None
    for entry in parser.error_log:
        if entry.level_name == "FATAL":  # it stopped reading: the rest would be lost
            raise DocumentReadError(
                f"the HTML parser stopped at line {entry.line}, column {entry.column} "
                f"({entry.message.strip()}): the text after it cannot be read. Save the page "
                "again from a browser, or pass its text instead of its markup.",
                position=_offset(markup, entry.line, entry.column),
            )
    return root


def _offset(markup: str, line: int, column: int) -> int:
    """The character offset of ``line`` and ``column`` (libxml2's, from 1) in ``markup``."""
    lines = markup.splitlines(keepends=True)[: max(line - 1, 0)]
    return min(sum(map(len, lines)) + max(column - 1, 0), len(markup))


def _select(element: etree._Element, path: str) -> list[etree._Element]:
    """The elements that ``path`` (XPath) selects from ``element``, in page order."""
    found = element.xpath(path)
    assert isinstance(found, list)
    from lxml import etree

    return [item for item in found if isinstance(item, etree._Element)]


def _drop(element: etree._Element, *, spaced: bool = False) -> None:
    """Removes ``element`` and its content, keeping the text that follows it; ``spaced``:
    a space in its place, so the words on either side of a removed block stay apart."""
    parent = element.getparent()
    if parent is None:
        return
    tail = (" " if spaced else "") + (element.tail or "")
    if tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)


def _chrome(content: etree._Element) -> list[tuple[str, etree._Element]]:
    """What ``CHROME`` finds in ``content``, outermost only, in page order, each with the
    label of the first row that finds it."""
    found: dict[etree._Element, str] = {}
    for label, path in CHROME:
        for element in _select(content, path):
            found.setdefault(element, label)
    return [
        (found[element], element)
        for element in content.iterdescendants()
        if element in found and not any(ancestor in found for ancestor in element.iterancestors())
    ]


def _body(root: etree._Element) -> etree._Element:
    body = root.find("body")
    return root if body is None else body


def _content_root(root: etree._Element, removed: list[tuple[str, str]]) -> etree._Element:
    """The first of ``MAIN_CONTENT`` holding text; what lies outside it is reported."""
    for path in MAIN_CONTENT:
        found = [candidate for candidate in _select(root, path) if _text_of(candidate)]
        if found:
            candidate = _common_ancestor(found)
            removed.extend(("outside the main content", s) for s in _outside(root, candidate))
            return candidate
    return _body(root)


def _common_ancestor(elements: list[etree._Element]) -> etree._Element:
    """The innermost element holding all of ``elements`` (itself when one): a page's
    every ``<article>`` is content, not its first alone."""
    common = [elements[0], *elements[0].iterancestors()]
    for element in elements[1:]:
        chain = {element, *element.iterancestors()}  # elements hash as the node they are
        common = [item for item in common if item in chain]
    return common[0]


def _outside(root: etree._Element, content: etree._Element) -> list[str]:
    """The blocks beside ``content`` and its ancestors that hold text, in page order."""
    chain = [content, *content.iterancestors()]
    beside = {
        sibling
        for inner, outer in pairwise(chain)
        for sibling in outer
        if sibling is not inner and isinstance(sibling.tag, str) and _text_of(sibling)
    }
    return [_snippet(element, named=True) for element in root.iter() if element in beside]


def _text_of(element: etree._Element) -> str:
    return _inline(element)


def _snippet(element: etree._Element, *, named: bool = False) -> str:
    text = _text_of(element)
    quoted = f'"{text[:_SNIPPET]}…"' if len(text) > _SNIPPET else f'"{text}"'
    if not named:
        return quoted
    name = str(element.tag) + (f"#{element.get('id')}" if element.get("id") else "")
    return f"{name} {quoted} ({len(text):,} characters)"


#: What the BOE repeats in every block of a consolidated text, differing only in its
#: number or date, listed as one line of its kind: what it says, and how many times.
_REPEATED: Final = {
    "block marker": '"[Bloque N: #…]"',
    "version menu": '"Seleccionar redacción: …"',  # and the version shown, once
}


def report_lines(removed: list[tuple[str, str]]) -> tuple[str, ...]:
    """One line per label and snippet (per label for ``_REPEATED``), in page order, with
    how many times it was found when more than once."""
    removed = [(label, _REPEATED.get(label, snippet)) for label, snippet in removed]
    counts = Counter(removed)
    return tuple(
        f"{label}: {snippet}"
        + (f" ({counts[label, snippet]} times)" if counts[label, snippet] > 1 else "")
        for label, snippet in dict.fromkeys(removed)
    )


# -- rendering --------------------------------------------------------------------------------


def _tag(element: etree._Element) -> str:
    return element.tag if isinstance(element.tag, str) else ""


@dataclass(slots=True)
class _Renderer:
    """Builds the text block by block: each block's inline text gathered, then trimmed."""

    blocks: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    length: int = 0
    inline: list[tuple[str, bool]] = field(default_factory=list)  # (text, preformatted)
    headings: list[Heading] = field(default_factory=list)
    tables: list[HtmlTable] = field(default_factory=list)
    heading: tuple[int, int] | None = None  # (level, start) of the open heading
    heading_block: int = 0  # the index in ``blocks`` of the open heading's first block
    pre: int = 0
    anchors: list[tuple[int, str]] = field(default_factory=list)  # BOE blocks' starts

    def _position(self) -> int:
        """Where the next block starts."""
        return self.length + (len(_BLOCK_SEPARATOR) if self.blocks else 0)

    def _emit(self, text: str) -> None:
        if _visible(text):
            self.starts.append(self._position())
            self.blocks.append(text)
            self.length = self.starts[-1] + len(text)

    def flush(self) -> None:
        """Ends the open run of inline text: one block, its lines trimmed."""
        if not self.inline:
            return
        runs, self.inline = self.inline, []
        if all(pre for _, pre in runs):  # inside <pre>: as it is
            self._emit("".join(text for text, _ in runs).strip("\n"))
            return
        joined = "".join(text if pre else _WHITESPACE.sub(" ", text) for text, pre in runs)
        self._emit("\n".join(line.strip(" ") for line in joined.split("\n")).strip("\n"))

    def text(self, value: str | None) -> None:
        if value:
            self.inline.append((value, self.pre > 0))

    def render(self, root: etree._Element) -> None:
        """Renders what ``root`` holds, in page order (a walk, never recursion: pages
        nest thousands of levels deep)."""
        from lxml import etree

        walker = etree.iterwalk(root, events=("start", "end"))
        opened: list[tuple[bool, bool, bool]] = []  # (block, heading, preformatted)
        for event, element in walker:
            if event == "start":
                opened.append(self._open(element))
                if _tag(element) in ("table", "br"):
                    walker.skip_subtree()
                continue
            block, heading, preformatted = opened.pop()
            self.pre -= preformatted
            if block:
                self.flush()
            if heading:
                self._close_heading()
            if element is not root:
                self.text(element.tail)

    def _open(self, element: etree._Element) -> tuple[bool, bool, bool]:
        """Starts ``element``: what its end must close (block, heading, preformatted)."""
        tag = _tag(element)
        if tag == "table":
            self.flush()
            self._table(element)
            return False, False, False
        if tag == "br":
            self.inline.append(("\n", True))
            return False, False, False
        level = _HEADINGS.get(tag, 0)
        block = tag in _BLOCKS
        if block:
            self.flush()
        if tag == "div" and element.get("id") and "bloque" in element.get("class", "").split():
            self.anchors.append((self._position(), element.get("id", "")))
        heading = level > 0 and self.heading is None
        if heading:
            self.heading = (level, self._position())
            self.heading_block = len(self.blocks)
        preformatted = tag in _PREFORMATTED
        self.pre += preformatted
        self.text(element.text)
        return block, heading, preformatted

    def _close_heading(self) -> None:
        assert self.heading is not None
        (level, start), self.heading = self.heading, None
        if self.length <= start:  # an empty heading: no text, no heading
            return
        title = _collapsed(" ".join(self.blocks[self.heading_block :]))
        self.headings.append(Heading(start, self.length, level, title))

    def _table(self, table: etree._Element) -> None:
        rows = [(line, kind) for line, kind in _rows(table) if _visible(line)]
        if not rows:
            return
        header = 0
        while header < len(rows) and rows[header][1] != "row":
            header += 1
        self._emit("\n".join(line for line, _ in rows))
        start = self.starts[-1]
        header_end = start + len("\n".join(line for line, _ in rows[:header]))
        self.tables.append(HtmlTable(start, self.length, header_end))

    def result(self, removed: tuple[str, ...]) -> HtmlText:
        self.flush()
        text = _BLOCK_SEPARATOR.join(self.blocks)
        following = [*(h.start for h in self.headings[1:]), len(text)][: len(self.headings)]
        headings = tuple(
            Heading(h.start, h.end, h.level, h.title, not _collapsed(text[h.end : end]))
            for h, end in zip(self.headings, following, strict=True)
        )
        return HtmlText(text, headings, tuple(self.tables), removed, tuple(self.anchors))


_BLOCK_SEPARATOR: Final = "\n\n"
_PREFORMATTED: Final = frozenset({"pre", "listing", "plaintext"})


def _rows(table: etree._Element, in_head: bool = False) -> Iterator[tuple[str, str]]:
    """``(line, kind)`` for what ``table`` holds, in order: ``kind`` is ``"caption"``,
    ``"header"`` (a row of ``<thead>``, or of ``<th>`` cells only) or ``"row"``."""
    if _collapsed(table.text):
        yield _collapsed(table.text), "row"
    for child in table:
        tag = _tag(child)
        if tag == "tr":
            cells = [cell for cell in child if _tag(cell) in ("td", "th")]
            stray = _inline_text(child.text) + "".join(
                ("" if _tag(c) in ("td", "th") else f" {_inline(c)} ") + _inline_text(c.tail)
                for c in child
            )
            texts = [text for text in map(_inline, cells) if _visible(text)]
            line = " ".join(
                part for part in (CELL_SEPARATOR.join(texts), _collapsed(stray)) if part
            )
            header = bool(cells) and (in_head or all(_tag(cell) == "th" for cell in cells))
            yield line, "header" if header else "row"
        elif tag in ("thead", "tbody", "tfoot"):
            yield from _rows(child, in_head=tag == "thead")
        elif tag == "caption":
            yield _inline(child), "caption"
        elif tag and tag != "colgroup":
            yield _inline(child), "row"
        if _collapsed(child.tail):
            yield _collapsed(child.tail), "row"


def _inline_text(value: str | None) -> str:
    return _WHITESPACE.sub(" ", value) if value else ""


def _visible(text: str) -> bool:
    """Whether ``text`` shows anything (a no-break space alone, the BOE's empty cell and
    spacer paragraph, does not)."""
    return bool(text) and not text.isspace()


def _collapsed(value: str | None) -> str:
    """``value`` as one trimmed line: whitespace runs as one space (a no-break space is
    text, and stays)."""
    return _WHITESPACE.sub(" ", value).strip(" ") if value else ""


def _inline(element: etree._Element) -> str:
    """``element``'s text on one line: what it holds, blocks and breaks as spaces."""
    return _collapsed("".join(_pieces(element)))


def _pieces(root: etree._Element) -> Iterator[str]:
    """The text of ``root`` in order, a space between blocks (never inside a word); a
    table inside it gives its rows separated by ``ROW_SEPARATOR``."""
    from lxml import etree

    walker = etree.iterwalk(root, events=("start", "end"))
    for event, element in walker:
        tag = _tag(element)
        spaced = tag in _BLOCKS or tag == "br"
        if event == "start":
            if tag == "table" and element is not root:
                yield f" {ROW_SEPARATOR.join(line for line, _ in _rows(element) if line)} "
                walker.skip_subtree()
                continue
            yield " " if spaced else ""
            yield element.text or ""
            continue
        if tag != "table" or element is root:
            yield " " if spaced else ""
        if element is not root:
            yield element.tail or ""
