"""Page numbers in a line: the forms they take, roman ones too, and the keys that let a
line whose number follows the pages repeat from page to page.

More: ``docs/design/pdf.md``.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Final

#: Where a page number stands in a line, as the group ``n`` of each form.
PAGE_NUMBER_FORMS: Final = (
    # The line is the number, maybe between dashes or brackets: "12", "- 12 -", "[12]".
    re.compile(r"^\W*(?P<n>\d{1,5})\W*$"),
    # Between dashes anywhere: "Boletín - 12 -".
    re.compile(r"(?<!\S)[-\u2013\u2014]\s*(?P<n>\d{1,5})\s*[-\u2013\u2014](?!\S)"),
    # After a page word: "Página 12", "Pág. 12 de 179", "Hoja 3 de 9", "Page 4", "p. 5".
    re.compile(
        r"(?<!\w)(?:p[áa]gina|p[áa]g|page|hoja|folio|p)\.?\s*(?P<n>\d{1,5})(?!\d)",
        re.IGNORECASE,
    ),
    # Before its total at the line's end: "12 / 179", "12 de 179".
    re.compile(r"(?<![\w/.,])(?P<n>\d{1,5})\s*(?:/|de|of)\s*\d{1,5}\W*$", re.IGNORECASE),
)

#: A page number in roman numerals, the line's only word: "iii", "- xii -", "[IV]".
ROMAN_FOLIO: Final = re.compile(
    r"^\W*(?P<n>(?=[mdclxvi])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})"
    r"|(?=[MDCLXVI])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3}))\W*$"
)

_ROMAN: Final = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_DIGITS: Final = re.compile(r"(\d+)")
_PAGE_MARK: Final = "\uffff"  # a noncharacter: no extracted text holds it


def furniture_key(line: str) -> str:
    """What two removed lines share in reports: whitespace collapsed, numbers (and a
    roman folio) as ``#``."""
    text = " ".join(line.split())
    folio = ROMAN_FOLIO.match(text)
    if folio:
        text = text[: folio.start("n")] + "#" + text[folio.end("n") :]
    return _DIGITS.sub("#", text)


def roman_value(numeral: str) -> int:
    """The value of a valid roman numeral, either case: ``roman_value("xii") == 12``."""
    values = [_ROMAN[letter] for letter in numeral.lower()]
    return sum(-value if value < after else value for value, after in pairwise([*values, 0]))


def running_keys(line: str, page: int) -> tuple[str, ...]:
    """The keys of ``line`` on page number ``page``: its text, whitespace collapsed, and,
    when it holds a page number, the text with that number as its distance to ``page``.

    ``running_keys("Página 12", 12)[1] == running_keys("Página 13", 13)[1]``.
    """
    text = " ".join(line.split())
    folio = ROMAN_FOLIO.match(text)
    if folio:
        start, end = folio.span("n")
        distance = roman_value(folio["n"]) - page
        return text, f"{text[:start]}{_PAGE_MARK}i{distance}{_PAGE_MARK}{text[end:]}"
    spans = sorted({m.span("n") for form in PAGE_NUMBER_FORMS for m in form.finditer(text)})
    if not spans:
        return (text,)
    parts: list[str] = []
    position = 0
    for start, end in spans:
        parts += [text[position:start], f"{_PAGE_MARK}{int(text[start:end]) - page}{_PAGE_MARK}"]
        position = end
    return text, "".join(parts) + text[position:]


def in_digits(text: str) -> str:
    """``text`` with its roman folio, if it is one, in digits: "- iii -" gives "- 3 -"."""
    folio = ROMAN_FOLIO.match(text)
    if not folio:
        return text
    return f"{text[: folio.start('n')]}{roman_value(folio['n'])}{text[folio.end('n') :]}"
