"""Spanish numerals as the BOE prints them: Roman numerals, cardinal and ordinal words,
Latin multipliers. One table each, read by every module that numbers (the legal grammar's
units, a list's item labels, a PDF's page numbers).

Every pattern here is a regular-expression fragment without groups, to be matched with
``re.IGNORECASE`` where the caller wants any case; the ``*_value`` functions read a
numeral back (``roman_value("XIV") == 14``, ``word_value("vigésima primera") == 21``).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

#: Ordinal words from one to nine, and the tens, as ``(value, stem)``: a stem takes "o" or
#: "a" ("primero", "primera"; "primer" and "tercer" before a noun), accents optional.
ORDINAL_WORDS: Final[tuple[tuple[int, str], ...]] = (
    (1, "primer"),
    (2, "segund"),
    (3, "tercer"),
    (4, "cuart"),
    (5, "quint"),
    (6, "sext"),
    (7, "s[ée]ptim"),
    (7, "s[ée]tim"),
    (8, "octav"),
    (9, "noven"),
    (10, "d[ée]cim"),
    (11, "und[ée]cim"),
    (12, "duod[ée]cim"),
    (20, "vig[ée]sim"),
    (30, "trig[ée]sim"),
    (40, "cuadrag[ée]sim"),
    (50, "quincuag[ée]sim"),
    (60, "sexag[ée]sim"),
    (70, "septuag[ée]sim"),
    (80, "octog[ée]sim"),
    (90, "nonag[ée]sim"),
    (100, "cent[ée]sim"),
)
#: Cardinal words, as an article or an apartado is numbered in words ("Artículo diez.",
#: "Uno.", "Treinta y dos."), accents optional.
CARDINAL_WORDS: Final[tuple[tuple[int, str], ...]] = (
    (1, "uno"),
    (1, "una"),
    (2, "dos"),
    (3, "tres"),
    (4, "cuatro"),
    (5, "cinco"),
    (6, "seis"),
    (7, "siete"),
    (8, "ocho"),
    (9, "nueve"),
    (10, "diez"),
    (11, "once"),
    (12, "doce"),
    (13, "trece"),
    (14, "catorce"),
    (15, "quince"),
    (16, "diecis[ée]is"),
    (17, "diecisiete"),
    (18, "dieciocho"),
    (19, "diecinueve"),
    (20, "veinte"),
    (21, "veintiun[oa]"),
    (22, "veintid[óo]s"),
    (23, "veintitr[ée]s"),
    (24, "veinticuatro"),
    (25, "veinticinco"),
    (26, "veintis[ée]is"),
    (27, "veintisiete"),
    (28, "veintiocho"),
    (29, "veintinueve"),
    (30, "treinta"),
    (40, "cuarenta"),
    (50, "cincuenta"),
    (60, "sesenta"),
    (70, "setenta"),
    (80, "ochenta"),
    (90, "noventa"),
    (100, "cien"),
    (100, "ciento"),
)
#: Latin multipliers of an inserted unit ("163 bis", "106 quáter", "140 quinquies"), the
#: BOE's own spellings too ("140 cuarter", "140 quinque"); longer ones are built on
#: "decies", "vicies", "tricies" and "quadragies" ("tervicies", "undecies").
LATIN_MULTIPLIERS: Final[tuple[str, ...]] = (
    "bis",
    "ter",
    "qu[áa]ter",
    "cuarter",
    "quinquies",
    "quinque",
    "quinques",
    "sexies",
    "septies",
    "octies",
    "novies",
    "nonies",
    "[a-z]*decies",
    "[a-z]*vicies",
    "[a-z]*tricies",
    "[a-z]*quadragies",  # 40 and on: "103 quadragies", "103 unquadragies" (es-ib)
    "sexties",  # the BOE's spelling of sexies (es-ib/BOE-A-2014-6925)
)

#: A Roman numeral in capitals; an ell written for a capital I ("TÍTULO Ill", "CAPÍTULO
#: l") too.
ROMAN: Final = r"(?:[IVXLCDM]+|[XVI]*[Ii][Il]*l[Il]*|l)"
_TENS_STEMS: Final = "|".join(stem for value, stem in ORDINAL_WORDS if value >= 10)
_UNIT_STEMS: Final = "|".join(stem for value, stem in ORDINAL_WORDS if value < 10)
#: An ordinal word: "primero", "Primera", "tercer", "décimo tercero", "decimotercera",
#: "vigésima primera", "decimoctavo", "centésima décima primera"; "único" is no ordinal
#: (see the grammar).
ORDINAL: Final = (
    rf"(?:(?:{_TENS_STEMS})[oa]?(?:\s*(?:{_TENS_STEMS})[oa]?)?(?:\s*(?:{_UNIT_STEMS})[oa]?)?"
    rf"|(?:{_UNIT_STEMS})(?:[oa]|(?<=primer)|(?<=tercer)))"
)
_CARDINAL_WORDS: Final = "|".join(word for _, word in CARDINAL_WORDS)
#: A cardinal word or compound: "diez", "veintiuno", "treinta y dos", "ciento doce".
CARDINAL: Final = rf"(?:(?:{_CARDINAL_WORDS})(?:\s+(?:y\s+)?(?:{_CARDINAL_WORDS}))*)"
#: A number in words, ordinal or cardinal.
WORD_NUMBER: Final = rf"(?:{ORDINAL}|{CARDINAL})"
#: A Latin multiplier.
LATIN: Final = "(?:" + "|".join(LATIN_MULTIPLIERS) + ")"

_ROMAN_VALUES: Final = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def roman_value(numeral: str) -> int | None:
    """The value of a Roman numeral in either case (``"XIV"`` -> 14), ``None`` if it is
    none. An ell written for a capital I reads as I (``"Ill"`` -> 3, ``"Vil"`` -> 7,
    ``"l"`` -> 1)."""
    token = numeral.strip().lower()
    if not token or not re.fullmatch(r"[ivxlcdm]+", token):
        return None
    if numeral.strip() == "l":
        return 1
    if re.fullmatch(r"[XVI]*[Ii][Il]*l[Il]*", numeral.strip()):  # "Vil": ells for Is
        token = token.replace("l", "i")
    values = [_ROMAN_VALUES[c] for c in token]
    total = sum(
        -value if index + 1 < len(values) and value < values[index + 1] else value
        for index, value in enumerate(values)
    )
    return total if total > 0 else None


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _plain(stem: str) -> str:
    return _fold(stem.replace("[ée]", "e").replace("[óo]", "o").replace("[oa]", ""))


_ORDINAL_VALUES: Final = sorted(
    ((_plain(stem), value) for value, stem in ORDINAL_WORDS), key=lambda item: -len(item[0])
)
_CARDINAL_VALUES: Final = {_plain(word): value for value, word in CARDINAL_WORDS}
_CARDINAL_VALUES.update({"veintiuno": 21, "veintiuna": 21})


def _ordinal_value(word: str) -> int | None:
    """``"decimotercera"`` -> 13, ``"decimoctavo"`` -> 18 (one o for two), ``"primer"``."""
    for stem, value in _ORDINAL_VALUES:
        if not word.startswith(stem):
            continue
        rest = word[len(stem) :]
        if rest in ("", "o", "a"):
            return value if rest or stem in ("primer", "tercer") else None
        if value >= 10:
            for tail in (rest, rest[1:]):
                inner = _ordinal_value(tail)
                if inner is not None and inner < 10:
                    return value + inner
    return None


def word_value(words: str) -> int | None:
    """The value of a number in words (``ORDINAL`` or ``CARDINAL``), accents and case
    aside: ``"Vigésima primera"`` -> 21, ``"treinta y dos"`` -> 32; ``None`` if not one."""
    parts = [part for part in _fold(words).split() if part != "y"]
    if not parts:
        return None
    if len(parts) == 1:
        return _ordinal_value(parts[0]) or _CARDINAL_VALUES.get(parts[0])
    if _ordinal_value(parts[0]) is not None:
        # "centésima décima primera": each word below the one before it in magnitude
        total, below = 0, 1000
        for part in parts:
            value = _ordinal_value(part)
            if value is None or value >= below:
                return None
            total, below = total + value, (10 if value >= 10 and value < 100 else value)
        return total
    values = [_CARDINAL_VALUES.get(part) for part in parts]
    if any(value is None for value in values):
        return None
    return sum(value for value in values if value is not None)
