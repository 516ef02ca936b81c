"""CommonMark's line grammar, as far as finding top-level ATX headings needs it.

Fenced code (``FENCE``, ``opens``, ``closes``), ATX headings (``ATX``), and the list
items a line belongs to (``ListItem``: CommonMark 5.2, with block quotes, setext
underlines, thematic breaks and HTML blocks as far as they open or end an item's
paragraph). ``structure.markdown`` reads sections with them; ``tests/structure/test_standards.py``
checks the result against markdown-it-py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*")
#: A line and its ending: ``\r\n``, ``\r`` and ``\n`` all end a line (CommonMark).
LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def lines(text: str) -> Iterator[tuple[int, str]]:
    """``(start, line)`` of each line ``LINE`` finds in ``text``, without its ending.

    A text without ``\r`` (most) is split at ``\n`` by ``str.split``: the same lines,
    without a regular expression step per character (a law has a million).
    """
    if "\r" in text:
        for match in LINE.finditer(text):
            if not match.group():
                return
            yield match.start(), match.group().rstrip("\r\n")
        return
    start = 0
    parts = text.split("\n")
    if not parts[-1]:
        parts.pop()  # the text ends with a line ending, or is empty: no line after it
    for line in parts:
        yield start, line
        start += len(line) + 1


def closes(fenced: re.Match[str] | None, fence: str) -> bool:
    """A closing fence: the opening character, at least as long, nothing after it."""
    if fenced is None:
        return False
    marker = fenced.group(1)
    return marker[0] == fence[0] and len(marker) >= len(fence) and not fenced.group(2).strip()


def opens(fenced: re.Match[str] | None) -> bool:
    """An opening fence (a backtick fence's info string holds no backtick)."""
    return fenced is not None and not (fenced.group(1)[0] == "`" and "`" in fenced.group(2))


def fenced_code(line: str, fence: str | None) -> tuple[bool, str | None]:
    """Whether ``line`` is fenced code or a fence (``fence``: the one open before it),
    and the fence open after it."""
    fenced = FENCE.fullmatch(line)
    if fence is not None:
        return True, None if closes(fenced, fence) else fence
    if opens(fenced):
        assert fenced is not None
        return True, fenced.group(1)
    return False, None


#: A list item's marker (CommonMark 5.2): a bullet, or up to nine digits and ``.``/``)``,
#: then spaces (or the end of the line) before the item's first content.
_ITEM = re.compile(r"( {0,3})([-+*]|(\d{1,9})[.)])(?:([ \t]+)(?=\S)|[ \t]*$)")
#: A thematic break (``- - -``, ``***``): never a list item.
_BREAK = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*")


def indent(line: str) -> int:
    """Columns of the line's leading spaces and tabs (a tab stops at every fourth)."""
    column = 0
    for char in line:
        if char == " ":
            column += 1
        elif char == "\t":
            column += 4 - column % 4
        else:
            break
    return column


class ListItem:
    """The top-level list item the lines are in, as far as headings need it.

    CommonMark reads a line indented to an item's content (``- a`` then ``  # b``) as the
    item's own, so ``# b`` is no section; a line indented less closes the item, but for
    lazy paragraph text right after the item's own text.
    """

    def __init__(self) -> None:
        self.width: int | None = None  # the open item's content column
        self.text = False  # the previous line is paragraph text
        self.blank = True  # the previous line is blank (or there is none)
        self.empty = False  # the previous line opened an item with nothing in it
        self.quoted = False  # the previous line's text is in a block quote

    def holds(self, line: str) -> str | None:
        """What of ``line`` is inside a list item (its text past the item's indentation or
        marker), None for a line outside any; opens and closes items as it goes."""
        if line[:1].isalpha() and (self.width is None or self.blank or not self.text):
            # text at the top, closing any item (no lazy line: none goes on): most lines
            self.quoted = self.quoted and self.text and not self.blank
            self.width, self.text, self.blank, self.empty = None, True, False, False
            return None
        if not line.strip():
            self.blank = True
            if self.empty:  # an item opens with at most one blank line
                self.width, self.empty = None, False
            return "" if self.width is not None else None
        body: str | None
        opened, lazy = None, False
        if self.width is not None and indent(line) >= self.width:
            body = dedented(line, self.width)
        else:
            opened = self._opened(line)
            lazy = self.width is not None and self.text and not self.blank
            lazy = lazy and not starts_block(line)
            body = opened[1] if opened else line if lazy else None
            self.width = opened[0] if opened else self.width if lazy else None
        own = _unquoted(line if body is None else body)
        continues = self.text and not self.blank and opened is None  # paragraph goes on
        quoted = len(own) < len(line if body is None else body)
        self.quoted = quoted or (continues and self.quoted and not starts_block(line))
        self.empty = opened is not None and not opened[1].strip()
        code = indent(own) >= 4 and not continues  # indented code, no paragraph text
        underline = continues and not lazy and _SETEXT.fullmatch(own) is not None
        self.text = not (self.empty or code or underline or starts_block(own))
        self.blank = False
        return body

    def close(self) -> None:
        """The open item ends here (a line indented less ended a fence inside it)."""
        self.width = None

    def _opened(self, line: str) -> tuple[int, str] | None:
        """The content column and the text of the item ``line`` opens, or None."""
        item = _ITEM.match(line)
        if item is None or _BREAK.fullmatch(line):
            return None
        spaces = item.group(4)
        # a paragraph at the top, not in a quote, is all that no item may interrupt
        interrupts = self.width is None and self.text and not self.blank and not self.quoted
        if interrupts and (spaces is None or item.group(3) not in (None, "1")):
            return None  # no item interrupts a paragraph but a bullet's or a 1's with text
        marker = item.end(2)
        columns = indent(" " * marker + spaces) - marker if spaces else 0
        if 1 <= columns <= 4:
            return marker + columns, line[item.end() :]
        return marker + 1, line[marker + 1 :]


#: The opening of a block quote or of an HTML block that interrupts a paragraph
#: (CommonMark 4.6, kinds 1 to 6).
_QUOTE_OR_HTML = re.compile(
    r" {0,3}(?:>|<(?:script|pre|style|textarea)(?:[\s>]|$)|<!--|<\?|<![A-Za-z]|<!\[CDATA\["
    r"|</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup"
    r"|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset"
    r"|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol"
    r"|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr"
    r"|track|ul)(?:[\s>]|/>|$))",
    re.IGNORECASE,
)


_QUOTE = re.compile(r" {0,3}> ?")
#: A setext heading's underline, which ends the paragraph above it.
_SETEXT = re.compile(r" {0,3}(?:=+|-+)[ \t]*")


def _unquoted(line: str) -> str:
    """``line`` without the block quote markers it opens with (``> > texto``: ``texto``)."""
    quote = _QUOTE.match(line)
    while quote is not None:
        line = line[quote.end() :]
        quote = _QUOTE.match(line)
    return line


#: The characters each of ``starts_block``'s blocks opens with, after up to three spaces.
_BLOCK_OPENERS = frozenset("#`~-*_><")


def starts_block(line: str) -> bool:
    """A heading, a fence, a thematic break, a block quote or an HTML block: none is a
    lazy line of an item's text."""
    opener = line.lstrip(" ")[:1]
    if opener not in _BLOCK_OPENERS or len(line) - len(line.lstrip(" ")) > 3:
        return False  # most lines: no pattern below can match them
    return bool(
        ATX.fullmatch(line)
        or FENCE.fullmatch(line)
        or _BREAK.fullmatch(line)
        or _QUOTE_OR_HTML.match(line)
    )


def dedented(line: str, width: int | None) -> str:
    """``line`` without the ``width`` columns of its list item's indentation."""
    if not width:
        return line
    return line[width:] if line[:width].strip() == "" else line.lstrip(" \t")
