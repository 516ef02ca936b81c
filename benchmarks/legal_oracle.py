"""The units of a Spanish law read from its text alone: the reference the structure report
checks the library against.

Deliberately independent of ``langchain_asesoria.structure``: a checker that shared the
library's grammar would confirm itself. It reads the text as a lawyer scans it, line by
line:

* a **heading line** is a paragraph of one line (blank lines around it), or a Markdown
  ATX heading, that opens with a unit's word and its number: ``LIBRO``, ``TÍTULO``,
  ``CAPÍTULO``, ``Sección``, ``Subsección``, ``Artículo`` (or ``Art.``), ``Disposición
  adicional|transitoria|derogatoria|final``, ``ANEXO`` (or ``ANEJO``), in capitals or
  not, emphasis and heading marks aside, with any numbering the BOE prints (arabic with
  ``bis`` … ``vicies`` however joined, code-style ``511-1`` and ``4.11-1``, Roman,
  ordinal and cardinal words, ``1.ª``/``1.a``/``1.º``, letters, ``único``,
  ``preliminar``). After the number comes the line's end, punctuation, or a word in
  capitals: ``Artículo 5 de esta Ley…`` is a sentence. An **instrucción técnica
  (complementaria)** a reglamento annexes is one by its code (``INSTRUCCIÓN IF-01``,
  ``INSTRUCCIÓN TÉCNICA COMPLEMENTARIA NÚMERO 1``, ``… ITC EP-1``, ``… MIE APQ-9 «…»``,
  ``… 12.0.01``), its word in capitals or followed by ``técnica``, or by its
  abbreviation and code alone (``ITC-BT-01``, ``ITC. MIE. S. M. 02.0.01``;
  ``ITC-MIG-6.1 Acometidas…`` is an item of a list): a norm cited by its number and
  year (``Instrucción 3/2005, de…``) is none;
* **quoted amended text** opens at a paragraph that starts with a quotation mark and does
  not close it, and runs to the paragraph that closes it; a heading inside is not the
  law's. The law's own numbering going on (the next article, the next CAPÍTULO, the first
  disposición) ends a quotation left open;
* the **chain in force** at a point is the stack of the law's own units by rank: LIBRO >
  TÍTULO > CAPÍTULO > Sección > Subsección > Artículo; a disposición closes every unit of
  the articulado, and a unit of the articulado after a disposición closes it (an approved
  text's articles after the decree's disposiciones); an instrucción técnica closes
  everything before it and holds what follows it, its ANEXOs too, unless it follows an
  ANEXO with no text of its own, which then holds it and the instrucciones after it; an
  ANEXO closes everything before it but the instrucción it stands in, and holds what
  follows it.

A unit is a ``(kind, number)`` pair, numbers normalised (``IV`` and ``cuarto`` are
``4``; ``106 quáter`` is ``106quater``), so a path element and a heading line compare
whatever their spelling.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

#: Rank of each kind in the articulado; a disposición and an ANEXO stand apart.
RANKS: Final = {
    "libro": 1,
    "título": 2,
    "capítulo": 3,
    "sección": 4,
    "subsección": 5,
    "artículo": 6,
}
DISPOSICION_KINDS: Final = ("adicional", "transitoria", "derogatoria", "final", "modificativa")
#: An instrucción técnica's kind: above the ANEXOs it holds.
INSTRUCCION: Final = "instrucción técnica"
#: The kinds that hold everything after them: an instrucción técnica, an ANEXO.
_ANNEXED: Final = (INSTRUCCION, "anexo")

_ONES: Final = {
    "uno": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6,
    "siete": 7, "ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12, "trece": 13,
    "catorce": 14, "quince": 15, "dieciseis": 16, "diecisiete": 17, "dieciocho": 18,
    "diecinueve": 19, "veinte": 20, "veintiuno": 21, "veintiuna": 21, "veintidos": 22,
    "veintitres": 23, "veinticuatro": 24, "veinticinco": 25, "veintiseis": 26,
    "veintisiete": 27, "veintiocho": 28, "veintinueve": 29, "treinta": 30,
    "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70, "ochenta": 80,
    "noventa": 90, "cien": 100, "ciento": 100,
}  # fmt: skip
_ORDINALS: Final = {
    "primero": 1, "primera": 1, "primer": 1, "segundo": 2, "segunda": 2, "tercero": 3,
    "tercera": 3, "tercer": 3, "cuarto": 4, "cuarta": 4, "quinto": 5, "quinta": 5,
    "sexto": 6, "sexta": 6, "septimo": 7, "septima": 7, "setimo": 7, "setima": 7,
    "octavo": 8, "octava": 8, "noveno": 9, "novena": 9, "decimo": 10, "decima": 10,
    "undecimo": 11, "undecima": 11, "duodecimo": 12, "duodecima": 12,
    "vigesimo": 20, "vigesima": 20, "trigesimo": 30, "trigesima": 30,
    "cuadragesimo": 40, "cuadragesima": 40, "quincuagesimo": 50, "quincuagesima": 50,
    "sexagesimo": 60, "sexagesima": 60, "septuagesimo": 70, "septuagesima": 70,
    "octogesimo": 80, "octogesima": 80, "nonagesimo": 90, "nonagesima": 90,
    "centesimo": 100, "centesima": 100,
}  # fmt: skip
_SPECIAL: Final = {"unico": "u", "unica": "u", "preliminar": "p"}
_LATIN: Final = (
    r"bis|ter|quater|cuarter|quinquies|quinques|quinque|sexies|septies|octies|novies|nonies|decies|"
    r"undecies|duodecies|terdecies|quaterdecies|quindecies|sexdecies|septdecies|"
    r"octodecies|novodecies|vicies|tervicies|[a-z]{2,10}(?:decies|vicies|tricies)"
)
_ROMAN_VALUES: Final = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def fold(text: str) -> str:
    """Lower case without accents; NBSP and other spaces as one space."""
    decomposed = unicodedata.normalize("NFD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.lower().split())


def _roman(token: str) -> int | None:
    """``IV`` -> 4; ``Ill`` (an ell for an I) -> 3; ``None`` when no Roman numeral."""
    if not re.fullmatch(r"[ivxlcdm]+", token):
        return None
    if re.fullmatch(r"[xvi]*i[il]*l[il]*", token):  # "Ill", "Vil": ells written for Is
        token = token.replace("l", "i")
    values = [_ROMAN_VALUES[c] for c in token]
    total = 0
    for index, value in enumerate(values):
        following = values[index + 1] if index + 1 < len(values) else 0
        total += -value if value < following else value
    return total if total > 0 else None


_WORD_NUMBER: Final = re.compile(
    r"(?P<w1>[a-z]+)(?:(?:\s+y\s+|\s+)(?P<w2>[a-z]+))?(?:(?:\s+y\s+|\s+)(?P<w3>[a-z]+))?"
)


def _word_value(first: str, second: str | None, third: str | None = None) -> tuple[int | None, int]:
    """A number in words and how many words it took: ``decimo tercero`` -> (13, 2)."""
    for table in (_ORDINALS, _ONES):
        if first in table:
            value = table[first]
            used, below = 1, (100 if value >= 100 else 10 if value >= 10 else 0)
            for word in (second, third):  # "centesima decima primera": 100 + 10 + 1
                extra = (_ORDINALS.get(word) or _ONES.get(word)) if word else None
                if extra is None or extra >= below:
                    break
                value, used, below = value + extra, used + 1, (10 if extra >= 10 else 0)
            return value, used
    # Joined compounds: "decimotercero", "vigesimoprimera", "decimoctava" (one o).
    for prefix, base in _TENS.items():
        rest = first[len(prefix) :]
        if first.startswith(prefix) and rest:
            for tail in (rest, rest[1:]):
                if tail in _ORDINALS and _ORDINALS[tail] < 10:
                    return base + _ORDINALS[tail], 1
    return None, 0


_TENS: Final = {
    "decim": 10, "vigesim": 20, "trigesim": 30, "cuadragesim": 40, "quincuagesim": 50,
    "sexagesim": 60, "septuagesim": 70, "octogesim": 80, "nonagesim": 90,
}  # fmt: skip

#: The number after a unit's word, as written (raw), up to where the heading goes on.
_NUMBER: Final = re.compile(
    r"(?P<code>\d+(?:[.\-/]\d+)+)(?![.\-/]?\d)"  # 511-1, 4.11-1, 1.1, 10/2
    r"|(?P<arabic>\d+)(?:\s*(?:\.?\s?[ªº]|\.[ao])(?![a-z]))?"  # 5, 1.ª, 1.a, 1º
    r"|(?P<roman>[ivxlcdm]+)(?![a-z])"
    r"|(?P<letter>[a-z])(?=[.)]|\s*$)"
    r"|(?P<words>[a-z]+(?:(?:\s+y\s+|\s+)[a-z]+)?(?:(?:\s+y\s+|\s+)[a-z]+)?)"
)
_SUFFIX: Final = re.compile(rf"[\s.\-]*(?P<suffix>{_LATIN})(?![a-z])")


def _number(rest: str) -> tuple[str, int] | None:
    """The normalised number at the start of ``rest`` (folded) and where it ends."""
    found = _NUMBER.match(rest)
    if found is None:
        return None
    end = found.end()
    if found.group("code"):
        value = found.group("code")
    elif found.group("arabic"):
        value = str(int(found.group("arabic")))
    elif found.group("roman") in ("c", "d", "m"):
        value = found.group("roman")  # "Artículo C.", "ANEXO D": a letter, not 100 or 500
    elif found.group("roman"):
        roman = _roman(found.group("roman"))
        if roman is None:
            return None
        value = str(roman)
    elif found.group("letter"):
        value = found.group("letter")
    else:
        words = _WORD_NUMBER.match(found.group("words"))
        assert words is not None
        first = words.group("w1")
        if first in _SPECIAL:
            value, end = _SPECIAL[first], found.start() + len(first)
        else:
            number, used = _word_value(first, words.group("w2"), words.group("w3"))
            if number is None:
                return None
            value = str(number)
            end = found.start("words") + words.end(f"w{used}")
    suffix = _SUFFIX.match(rest, end) or _MISSPELT_SUFFIX.match(rest, end)
    if suffix is not None:
        value += suffix.group("suffix")
        end = suffix.end()
    return value, end


#: A multiplier misspelt, as a lawyer still reads it ("197 sexiens", "8 quarter", "32
#: duocecies"): a word with a multiplier's ending right after the number, ending the
#: label (a period, then the name or nothing).
_MISSPELT_SUFFIX: Final = re.compile(
    r"(?:\s+|-)(?P<suffix>[a-z]{2,10}(?:ies|iens|ter))(?=\.(?:\s|$)|$)"
)


_RANGE: Final = re.compile(r"\s+(?:a|al|y)\s+(?=\d|[a-z]{3})")  # "9 a 12", "uno a catorce"

#: A unit's word at a heading's start (folded text).
_WORD: Final = re.compile(
    r"(?P<word>libro|titulo|cap[ia]tu?lo|capitulo|subseccion|seccion|articulos?|arts?\."
    r"|disposicion(?:es)?|anexos?|anejos?)(?![a-z])\s*"
)
_KIND_OF: Final = {
    "libro": "libro",
    "titulo": "título",
    "subseccion": "subsección",
    "seccion": "sección",
    "articulo": "artículo",
    "articulos": "artículo",
    "art.": "artículo",
    "arts.": "artículo",
    "anexo": "anexo",
    "anejo": "anexo",
    "anexos": "anexo",
    "anejos": "anexo",
}
_DISPOSICION: Final = re.compile(
    r"(?P<kind>adicional|transitoria|derogatoria|final|modificativa)(?:e?s)?(?![a-z])\s*"
)
_GROUP: Final = re.compile(
    r"disposiciones\s+(?:adicionales|transitorias|derogatorias|finales|modificativas)"
    r"(?:\s*(?:,|y)\s*(?:adicionales|transitorias|derogatorias|finales|modificativas))*\.?$"
)


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit of a law: its kind (``artículo``, ``disposición final``…) and number."""

    kind: str
    number: str

    @property
    def rank(self) -> int:
        return RANKS.get(self.kind, 0)

    @property
    def articulado(self) -> bool:
        return self.kind in RANKS

    def __str__(self) -> str:
        return f"{self.kind} {self.number}".strip()


#: Emphasis, heading marks, list bullets and brackets around a title.
_STRIP: Final = "*_#[]\\ \t\u00a0\u2002\u2003\u2009>"
_QUOTES_OPEN: Final = '«“"‘„'  # noqa: RUF001 - the BOE's marks
_QUOTES_CLOSE: Final = '»”"’ˮ'  # noqa: RUF001 - the BOE's marks


def _goes_on(rest: str, original: str, offset: int) -> bool:
    """Whether what follows a unit's number is a heading's, not a sentence's: nothing,
    punctuation, a bracketed note (``[Sic]``), or a word that opens in capitals."""
    tail = rest.lstrip()
    if not tail:
        return True
    if tail[0] in ".:;,-\u2013\u2014)(»[" or re.match(r"[a-z]\)", tail):  # "861 bis a)"
        return True
    # The original's character (case kept) where the tail starts.
    position = offset + (len(rest) - len(tail))
    char = original[position] if position < len(original) else ""
    return char.isupper() or char.isdigit() or char in '«“"¿¡'


def unit_of(line: str) -> Unit | None:
    """The unit a heading line opens, or ``None`` (see the module docstring). A line
    that opens with a quotation mark is quoted text, never a unit."""
    stripped = line.replace("*", "").strip(_STRIP)  # emphasis anywhere: "*Sección 2.ª* Del…"
    if not stripped or stripped[0] in _QUOTES_OPEN:
        return None
    original = unicodedata.normalize("NFC", " ".join(stripped.split()))
    instruccion = _instruccion(original)
    if instruccion is not None:
        return instruccion[0]
    folded = fold(original)
    if len(folded) != len(original):  # folding changed lengths: compare folded only
        original = folded.upper() if original.isupper() else folded
    respelled = _respelled(folded) if folded[:1] == "d" else folded
    if respelled != folded:  # "Diposición degoratoria", "Dsposición": the words right
        cut = len(" ".join(folded.split(" ", 2)[:2]))  # the two words respelled
        kept = len(" ".join(respelled.split(" ", 2)[:2]))
        folded, original = respelled, respelled[:kept] + original[cut:]
    head = _WORD.match(folded)
    if head is None:
        return None
    word = head.group("word")
    if word.startswith("disposicion"):
        return _disposicion(folded, original, head.end(), plural=word.endswith("es"))
    kind = "capítulo" if word.startswith("cap") else _KIND_OF[word]
    if kind == "anexo" and head.end() >= len(folded.rstrip(" .:")):
        return Unit("anexo", "")  # "ANEXO" alone
    if kind == "anexo" and re.match(r"\.\s+\S", folded[head.end() :]):
        # "ANEXO. IV Plan para la igualdad…", "ANEXO. Primer Plan…", "ANEXO. 1. Objeto": a
        # bare ANEXO and the name joined to it (the BOE never numbers one after a period)
        return Unit("anexo", "")
    found = _number(folded[head.end() :].lstrip(". ") if word != "art." else folded[head.end() :])
    ell = re.match(r"\s*l(?![A-Za-z])", original[head.end() :])
    if ell is not None and len(original) == len(folded):  # "CAPÍTULO l": an ell for an I
        rest = folded[head.end() :]
        found = ("1", ell.end() - (len(rest) - len(rest.lstrip(". "))))
    if found is None:
        if kind == "anexo" and _goes_on(folded[head.end() :], original, head.end()):
            return Unit("anexo", "")  # "ANEXO. Estatutos de la Federación…"
        return None
    number, end = found
    end += (
        len(folded[head.end() :]) - len(folded[head.end() :].lstrip(". ")) if word != "art." else 0
    )
    end += head.end()
    if kind == "artículo":
        # A range of articles under one heading ("Arts. 48 a 50.", "Artículos 9 y 10"),
        # as old laws head the articles they repealed.
        ranged = _RANGE.match(folded, end)
        if ranged is not None and (following := _number(folded[ranged.end() :])):
            number = f"{number}-{following[0]}"
            end = ranged.end() + following[1]
    if not _goes_on(folded[end:], original, end):
        return None
    return Unit(kind, number)


#: An instrucción técnica's heading, case kept: its word in capitals (or in lower case
#: with "técnica"), "(ITC)" perhaps, then its code: capitals and digits joined by dashes,
#: periods or spaces ("IF-01", "MIE - APQ 8", "MIG-R.5.1.1", "ITC EP" an en dash "3"), quoted or
#: not, "NÚMERO 1", or dotted digits ("12.0.01"); never a year ("3/2005").
_INSTRUCCION: Final = re.compile(
    r"(?:(?:INSTRUCCI[ÓO]N(?: T[ÉE]CNICA(?: COMPLEMENTARIA)?)?"
    r"|Instrucci[óo]n [Tt][ée]cnica(?: [Cc]omplementaria)?)(?: \(ITC\))? "
    r"|(?P<abbr>ITC)(?:[- ]|\. ))"
    r"«?(?P<code>(?:(?!(?:DE|DEL|EL|LA|LAS|LOS|EN|Y|A|POR|PARA) )"
    r"[A-Z]{1,4}(?: ?[-\u2013.] ?| |(?=\d))){0,4}"
    r"\d+(?:\.\d+)*|(?:NÚMERO|NUMERO|[Nn]úmero) \d+)»?(?![\w/\-]|\.\d)"
)


#: What may follow an instrucción's code in its title, besides a heading's shape: the
#: norm it complements ("del Reglamento de…").
_OF_A_NORM: Final = re.compile(r" del? [A-ZÁÉÍÓÚ]")


def _instruccion(original: str) -> tuple[Unit, bool] | None:
    """The instrucción técnica a heading line opens (see ``_INSTRUCCION``) and whether the
    line is its code alone (its name on the next line), or ``None``."""
    found = _INSTRUCCION.match(original)
    rest = original[found.end() :] if found is not None else ""
    # "… MIE-AEM-3 del Reglamento de Aparatos de Elevación…": the reglamento it complements
    if found is None or not (_goes_on(rest, original, found.end()) or _OF_A_NORM.match(rest)):
        return None
    if found.group("abbr") and not re.fullmatch(r"\.?|\.\s+\S.*", rest):
        return None  # "ITC-MIG-6.1 Acometidas de gas…": an item of a list
    code = re.sub(r"[^a-z0-9.]", "", fold(found.group("code"))).removeprefix("numero")
    return Unit(INSTRUCCION, code), not original[found.end() :].strip(" .:")


def _distance(one: str, other: str) -> int:
    """Levenshtein distance: insertions, deletions and substitutions."""
    previous = list(range(len(other) + 1))
    for row, char in enumerate(one, start=1):
        current = [row]
        for column, wanted in enumerate(other, start=1):
            current.append(
                min(previous[column] + 1, current[-1] + 1, previous[column - 1] + (char != wanted))
            )
        previous = current
    return previous[-1]


#: Long words a heading starts with that a typist may misspell, and the kinds after them.
_SPELLED: Final = ("disposicion", "derogatoria", "transitoria", "adicional")


def _respelled(folded: str) -> str:
    """``folded`` with a misspelled "disposición" and the kind after it written right
    ("diposicion degoratoria unica" -> "disposicion derogatoria unica"): one or two
    letters wrong in a word of eight or more, as typists of the BOE's texts slip. A
    group's plurals ("disposiciones adicionales") are left as they are."""
    words = folded.split(" ", 2)
    if words[0] == "disposiciones" or _distance(words[0], "disposicion") > 2:
        return folded
    words[0] = "disposicion"
    if len(words) > 1 and len(words[1]) >= 8 and not _DISPOSICION.match(words[1]):
        near = min(_SPELLED[1:], key=lambda word: _distance(words[1], word))
        if _distance(words[1], near) <= 2:
            words[1] = near
    return " ".join(words)


def _disposicion(folded: str, original: str, start: int, plural: bool) -> Unit | None:
    found = _DISPOSICION.match(folded, start)
    if found is None:
        return None
    if plural and (found.group(0).rstrip().endswith("s") or found.end() >= len(folded)):
        # a group heading ("DISPOSICIONES ADICIONALES") is no unit, unless numbered: then
        # it heads the disposiciones it names ("Disposiciones adicionales primera y
        # segunda.", as "Artículos 9 a 12" heads articles)
        numbered = _number(folded[found.end() :])
        if numbered is None or not re.match(
            r"\s+(?:a|al|y)\s+", folded[found.end() + numbered[1] :]
        ):
            return None
    kind = "disposición " + found.group("kind")
    rest = folded[found.end() :]
    offset = found.end()
    second = _DISPOSICION.match(rest)  # "Disposición derogatoria final": the first kind
    if second is not None:
        rest, offset = rest[second.end() :], offset + second.end()
    if not rest.strip(" .:"):
        return Unit(kind, "")
    number = _number(rest)
    if number is None:
        return Unit(kind, "") if _goes_on(rest, original, offset) else None
    value, end = number
    again = _number(rest[end:].lstrip()) if rest[end:][:1] == " " else None
    if again is not None and again[0] == value:  # "final primera primera", "única unica"
        end += len(rest[end:]) - len(rest[end:].lstrip()) + again[1]
    ranged = re.match(r"\s+(?:a|al|y)\s+", rest[end:])  # "primera a quinta", "1 a 4"
    if ranged is not None and (upto := _number(rest[end + ranged.end() :])) is not None:
        value, end = f"{value}-{upto[0]}", end + ranged.end() + upto[1]
    if not _goes_on(rest[end:], original, offset + end):
        return None
    return Unit(kind, value)


def group_heading(line: str) -> bool:
    """Whether a line is a disposiciones group heading ("DISPOSICIONES FINALES")."""
    return _GROUP.match(fold(line.strip(_STRIP))) is not None


_PREAMBLE: Final = re.compile(r"(?:preambulo|exposicion\s+de\s+motivos)\.?$")


def preamble_label(line: str) -> bool:
    """Whether a line is a preamble's label (PREÁMBULO, EXPOSICIÓN DE MOTIVOS)."""
    return _PREAMBLE.match(fold(line.strip(_STRIP))) is not None


def first_number(number: str) -> bool:
    """Whether a number starts a sequence: 1, I, primero, único, preliminar, A."""
    return number in ("1", "u", "p", "a", "")


def _base(number: str, last: bool = False) -> tuple[int, str] | None:
    """A number's integer and suffix (of a range's last number when ``last``)."""
    part = number.split("-")[-1 if last else 0]
    found = re.fullmatch(r"(\d+)([a-z]*)", part)
    return (int(found.group(1)), found.group(2)) if found else None


def successor(previous: str | None, number: str) -> bool:
    """Whether ``number`` goes on from ``previous`` (the next one, or an inserted
    ``bis`` of it, or a first one when there was none)."""
    if previous is None:
        return first_number(number)
    before, now = _base(previous, last=True), _base(number)
    if before is None or now is None:
        return previous in ("u", "p") and now is not None and now[0] in (1, 2)
    return now[0] == before[0] + 1 or (now[0] == before[0] and now[1] > before[1])


@dataclass(frozen=True, slots=True)
class Line:
    """A paragraph of the text: where it starts and ends, and what it is."""

    start: int
    end: int
    text: str
    unit: Unit | None = None
    heading: bool = False  # a heading line of any kind (unit, group, name, marked, label)
    quoted: bool = False


@dataclass
class Source:
    """A law's paragraphs, its own unit headings, and the chain in force at each."""

    text: str
    lines: list[Line] = field(default_factory=list)
    #: The law's own unit headings: (start, unit, chain after it), in text order.
    headings: list[tuple[int, Unit, tuple[Unit, ...]]] = field(default_factory=list)
    _starts: list[int] = field(default_factory=list)
    _line_starts: list[int] = field(default_factory=list)

    def chain_at(self, position: int) -> tuple[Unit, ...]:
        """The chain of units in force at ``position``."""
        index = bisect.bisect_right(self._starts, position) - 1
        return self.headings[index][2] if index >= 0 else ()

    def body_start(self, start: int, end: int) -> int | None:
        """The first position of ``[start, end)`` in a paragraph that is not a heading
        line; ``None`` when the stretch holds headings only."""
        index = max(0, bisect.bisect_right(self._line_starts, start) - 1)
        while index < len(self.lines) and self.lines[index].start < end:
            line = self.lines[index]
            if line.end > start and not line.heading:
                return max(start, line.start)
            index += 1
        return None


_PARAGRAPH: Final = re.compile(r"[^\n]*\S[^\n]*(?:\n[^\n]*\S[^\n]*)*")
_ATX: Final = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_EMPHASIS_LINE: Final = re.compile(r"\s*(\*\*|\*|__|_)(?=\S)")


def paragraphs(text: str) -> list[tuple[int, int, list[tuple[int, str]]]]:
    """The blank-line separated paragraphs of ``text``: start, end, their lines."""
    found = []
    for match in _PARAGRAPH.finditer(text):
        lines, position = [], match.start()
        for raw in match.group().split("\n"):
            lines.append((position, raw))
            position += len(raw) + 1
        found.append((match.start(), match.end(), lines))
    return found


def _quote_balance(text: str) -> int:
    """Opening marks less closing ones; a straight quote opens at a start, closes else."""
    opened = sum(text.count(mark) for mark in "«“„")
    closed = sum(text.count(mark) for mark in "»”ˮ")
    straight = text.count('"')
    if straight % 2:
        opened += 1 if text.lstrip(_STRIP)[:1] == '"' else 0
        closed += 0 if text.lstrip(_STRIP)[:1] == '"' else 1
    return opened - closed


def _starts_quoted(text: str) -> bool:
    return text.lstrip(_STRIP)[:1] in _QUOTES_OPEN


class _Quotes:
    """Whether each paragraph is quoted amended text (see the module docstring).

    A paragraph that opens with a quotation mark opens a quotation (one more such
    paragraph inside it opens none: "## «TÍTULO IX", then "«Artículo 84"); the paragraph
    whose marks close more than they open (its first mark aside, when it opens the
    quotation) closes it. Marks inside a paragraph outside any quotation are the
    paragraph's own ("el «Boletín Oficial»", or one closed with the wrong mark).
    """

    def __init__(self) -> None:
        self.open = False

    def paragraph(self, text: str) -> bool:
        """Whether the paragraph ``text`` is quoted (it opens, continues or closes one)."""
        opens = _starts_quoted(text)
        if not self.open and not opens:
            return False
        balance = _quote_balance(text) - (1 if opens else 0)
        self.open = balance >= 0
        return True

    def end(self) -> None:
        """The law's own numbering goes on: an open quotation ends."""
        self.open = False


@dataclass
class _Reader:
    """``read_source``'s state: the chain, the law's last number of each kind and how
    it writes them, and the heading lines met in a quotation since its last body
    paragraph (the law's own when its numbering goes on right after them)."""

    source: Source
    quotes: _Quotes = field(default_factory=_Quotes)
    chain: list[Unit] = field(default_factory=list)
    last: dict[str, str] = field(default_factory=dict)
    styles: dict[str, str] = field(default_factory=dict)
    pending: list[tuple[int, Unit | None]] = field(default_factory=list)
    title_at: int | None = None  # a heading line that is no unit, with no text since
    title_after_text: bool = False  # text stood between the last unit and that title
    text_since: bool = False  # text since the last unit's heading
    holder: int = 0  # where the chain's ANEXO that holds instrucciones ends (0: none)

    def own(self, start: int, unit: Unit | None) -> None:
        """The law's own heading (a unit, or a group's when ``unit`` is ``None``)."""
        if unit is None:
            _close_articulado(self.chain)
            self.source.headings.append((start, Unit("group", ""), tuple(self.chain)))
            return
        kinds = [unit.kind for unit in self.chain]
        if INSTRUCCION not in kinds and unit.kind in _ANNEXED:
            # an ANEXO with no text of its own right before an instrucción holds it and
            # the instrucciones after it; any other ANEXO outside one holds none
            self.holder = len(kinds) if kinds[-1:] == ["anexo"] and not self.text_since else 0
        _open(self.chain, unit, self.holder if unit.kind == INSTRUCCION else 0)
        self.text_since = False
        self.last[unit.kind] = unit.number
        self.styles[unit.kind] = _style(unit.number)
        self.source.headings.append((start, unit, tuple(self.chain)))

    def restarts(self, unit: Unit | None) -> None:
        """A title right before units that number from the start again, after the law's
        own ("INSTRUCCIÓN TÉCNICA COMPLEMENTARIA MI-IP 01", then "CAPÍTULO I",
        "Artículo 1."): a text of its own begins at the title, in no unit of the law's."""
        title, self.title_at = self.title_at, None
        if (
            title is not None
            and unit is not None
            and unit.articulado
            and first_number(unit.number)
            and (unit.kind in self.last or any(u.kind in _ANNEXED for u in self.chain))
            # numbering again, or in an ANEXO: not "TÍTULO PRELIMINAR", "DISPOSICIONES
            # GENERALES", then the law's first "Artículo 1."
            and any(self.chain)
            and not (self.chain[-1].kind in _ANNEXED and not self.title_after_text)
        ):  # a title right after its ANEXO's heading is the annexed text's, in the ANEXO;
            # one inside an instrucción técnica opens a text of the instrucción's
            del self.chain[_instruccion_end(self.chain) :]
            self.source.headings.append((title, Unit("group", ""), tuple(self.chain)))

    def signed(self, start: int) -> None:
        """The law is signed: its last disposición ends, and what follows (an approved
        text without an ANEXO heading, the signatures) is in no unit."""
        self.chain.clear()
        self.source.headings.append((start, Unit("group", ""), ()))

    def goes_on(self, unit: Unit) -> None:
        """``unit`` ends an open quotation: the headings right before it are the law's."""
        self.quotes.end()
        for start, pending in self.pending:
            self.own(start, pending)
        self.pending.clear()


def read_source(text: str) -> Source:
    """The paragraphs, unit headings and chains of a law's ``text``."""
    reader = _Reader(Source(text))
    source = reader.source
    named = False  # the paragraph before was a unit's number alone: this is its name
    found = paragraphs(text)
    alone = [unit_of(lines[0][1]) if len(lines) == 1 else None for _, _, lines in found]
    entries = _contents_entries(alone)
    for index, (start, end, lines) in enumerate(found):
        single = len(lines) == 1
        around = _Around(
            tuple(_paragraph_text(text, found, index - step) for step in (1, 2)),
            tuple(_paragraph_text(text, found, index + step) for step in (1, 2)),
        )
        candidates = lines if single else [(s, raw) for s, raw in lines if _ATX.match(raw)]
        units = [alone[index]] if single else [unit_of(raw) for _, raw in candidates]
        if index in entries:
            units = [None]  # a list of contents' entry: text
        first = next((unit for unit in units if unit is not None), None)
        if reader.quotes.open and first is not None and _ends_quotation(first, reader):
            reader.goes_on(first)
        quoted = reader.quotes.paragraph(text[start:end])
        for line_start, raw in lines:
            if not single and not _ATX.match(raw):
                source.lines.append(Line(line_start, line_start + len(raw), raw, quoted=quoted))
                named = False
                continue
            unit = units[0] if single else unit_of(raw)
            group = group_heading(raw) and index not in entries
            heading = index not in entries and (
                unit is not None
                or group
                or preamble_label(raw)
                or _marked(raw, quoted)
                or (named and single and not _NOTE_LIKE.match(raw) and around.names(raw))
                or (single and (_rubric_in_capitals(raw, around) or _subdivision(raw)))
            )
            if unit is not None or group:
                if not quoted:
                    reader.restarts(unit)
                    reader.own(line_start, unit)
                elif not _starts_quoted(raw):
                    reader.pending.append((line_start, unit))
            elif heading and single and not quoted and _signs(raw.lstrip("#*_ "), reader.chain):
                reader.signed(line_start)  # the place and date set as a heading: "### Palacio…"
            elif heading and single and not quoted and not named and not preamble_label(raw):
                if reader.title_at is None:
                    reader.title_at, reader.title_after_text = line_start, reader.text_since
            elif not heading:
                reader.pending.clear()
                reader.title_at, reader.text_since = None, True
                if single and not quoted and _signs(raw, reader.chain):
                    reader.signed(line_start)
            if single and not quoted and preamble_label(raw) and _enacted(reader.chain):
                reader.signed(line_start)  # an approved text's own preamble
            following = alone[index + 1] if index + 1 < len(alone) else None
            before_a_unit = (
                unit is not None
                and following is not None
                and not (unit.articulado and following.articulado and following.rank > unit.rank)
            )
            if unit is not None and single and runs_into_text(raw, before_a_unit):
                heading = False  # "Art. 321. En la póliza…": the unit and its text
            source.lines.append(Line(line_start, line_start + len(raw), raw, unit, heading, quoted))
            named = unit is not None and unit.kind in _NAMED and _number_only(raw)
    source._starts = [start for start, _, _ in source.headings]
    source._line_starts = [line.start for line in source.lines]
    return source


def _contents_entries(alone: Sequence[Unit | None]) -> set[int]:
    """The paragraphs that are entries of a list of contents, among ``alone`` (the unit
    each paragraph of one line opens): three or more of one kind in a row, numbered one
    after another, with no other paragraph between them, the first found again as a
    unit's line later ("Capítulo 1. Capacidad…" … "Capítulo 17. Columna y pelvis." after
    "Contenido:", the chapters themselves further on). A lawyer reads them as text."""
    entries: set[int] = set()
    index = 0
    while index < len(alone):
        run = index + 1
        while run < len(alone) and _listed_after(alone[run - 1], alone[run]):
            run += 1
        if run - index >= _LISTED and alone[index] in alone[run:]:
            entries.update(range(index, run))
        index = run
    return entries


#: The fewest entries in a row of a list of contents.
_LISTED: Final = 3


def _listed_after(before: Unit | None, unit: Unit | None) -> bool:
    if before is None or unit is None or before.kind != unit.kind:
        return False
    previous, number = _base(before.number), _base(unit.number)
    return previous is not None and number == (previous[0] + 1, "")


#: The place and date a law is signed at: "Dado en Madrid, a 16 de noviembre de 2007.",
#: "Madrid, 27 de mayo de 2005.", "Palacio de la Zarzuela, Madrid, a 29 de junio de 1984.",
#: and the signer after a dash in the same paragraph, as orders sign ("Madrid, 10 de
#: diciembre de 2009.\u2013La Vicepresidenta Primera del Gobierno…", an en dash).
_SIGNATURE: Final = re.compile(
    r"\W*(?:dado en\s.*|(?:[a-z][\w' .-]*,\s*)+(?:a\s+)?\d{1,2}\s+de\s+[a-z]+\s+de\s+\d{4})"
    r"(?:\W*$|\.?\s*[\u2013\u2014-]\s*\S.*$)"
)


def _enacted(chain: Sequence[Unit]) -> bool:
    """Whether the law's provisions have begun: a preamble now is an approved text's."""
    return bool(chain) and (chain[-1].kind.startswith("disposición") or chain[-1].number == "u")


def _signs(line: str, chain: Sequence[Unit]) -> bool:
    """Whether ``line`` signs the law after a provision (an ANEXO's own dates aside)."""
    return (
        bool(chain)
        and (chain[-1].kind.startswith("disposición") or chain[-1].kind == "artículo")
        and _SIGNATURE.match(fold(line.strip())) is not None
    )


#: A unit's whole text in brackets, not its name: "[suprimido]", "(Derogado)".
_BRACKETED: Final = re.compile(r"\s*#*\s*\*{0,2}[\[(][^\])]{1,40}[\])]\.?\*{0,2}\s*$")
#: A BOE note set as a quoted line ("> Se añade por…"): a note, never a unit's name.
_QUOTED_NOTE: Final = re.compile(r"\s*>")
#: A marked heading in parentheses is a note on the text, not a heading: "### (Derogado)",
#: "##### (Sin contenido)", "### (de conformidad con el apartado 3 del artículo 5)".
_NOTE_HEADING: Final = re.compile(r"\s*#+\s*\*{0,2}\([^)]{1,160}\)\.?\*{0,2}\s*$")
#: What is never a unit's name on the line after its number: a note in brackets, marked
#: as a heading or not, or a quoted BOE note.
_NOTE_LIKE: Final = re.compile(
    "|".join(f"(?:{p.pattern})" for p in (_BRACKETED, _NOTE_HEADING, _QUOTED_NOTE))
)


def _paragraph_text(text: str, found: Sequence[tuple[int, int, object]], index: int) -> str:
    """The text of paragraph ``index`` of ``found`` ("" past either end)."""
    if not 0 <= index < len(found):
        return ""
    start, end, _ = found[index]
    return text[start:end]


#: A form's blanks to fill ("En ........, a ...... de", "…") or its signature ("Firma»").
_FORM_LINE: Final = re.compile(r".*(?:\.{4}|…)|\W*(?:firma|fdo\.|sello)\W*$")
#: A form's check boxes ("Sí □ No □").
_BOXES: Final = "□☐■☑☒"


def _marked(raw: str, quoted: bool) -> bool:
    """Whether a line is a heading because the Markdown marks it (``###``): not a note
    in brackets, nor a form's line that the Markdown marks so: its check boxes ("###
    **Sí** □ **No** □"), its blanks ("### En ……, a … de …") or, inside a quotation, its
    signature ("### Firma»": a certificate's closing lines), a formula or a lead-in a
    paragraph long ("##### *Reserva Nacional de Saja*. Está ubicada en… a continuación:",
    its dash left out)."""
    if not _ATX.match(raw) or _NOTE_HEADING.match(raw) or any(box in raw for box in _BOXES):
        return False
    folded = fold(raw.strip(_STRIP))
    return not (
        len(_BLANK.findall(folded)) >= 2
        or (quoted and _FORM_LINE.match(folded))
        or "=" in folded  # a formula: "### Gi(R1)=PM1 (R1)*PMi(R1)/(…)"
        or (len(folded) >= 200 and folded.endswith(":"))  # a lead-in a paragraph long
    )


#: A record's field with its size and type, as record designs print it: "(5 N)", "(9 X)".
_FIELD: Final = re.compile(r".*\(\s*\d{1,3}\s*[A-Z]{1,2}\s*\)\W*$")
#: A line numbered in an index ("2.1 DISEÑO DEL REGISTRO…"): its number's parts.
_ENTRY: Final = re.compile(r"\W*(\d+(?:\.\d+)*)\.?\s+\S")


def _entry_number(line: str) -> tuple[int, ...] | None:
    found = _ENTRY.match(line) if "\n" not in line.strip() and _capitals(line) else None
    return tuple(int(part) for part in found.group(1).split(".")) if found else None


def _follows(before: tuple[int, ...] | None, after: tuple[int, ...] | None) -> bool:
    """Whether ``after`` numbers the entry right after ``before`` ("2.1" then "2.2")."""
    return (
        before is not None
        and after is not None
        and len(before) == len(after)
        and before[:-1] == after[:-1]
        and after[-1] == before[-1] + 1
    )


@dataclass(frozen=True, slots=True)
class _Around:
    """The two paragraphs before a line's and the two after it, nearest first ("" past
    the text's ends)."""

    before: tuple[str, ...]
    after: tuple[str, ...]

    def in_index(self, raw: str) -> bool:
        """Whether a numbered line in capitals is an entry of an index, a list a lawyer
        reads as text: the paragraph before or after it is the entry just before or
        after it, with no text between ("2.1 DISEÑO…", "2.2 DISEÑO…")."""
        number = _entry_number(raw)
        return _follows(_entry_number(self.before[0]), number) or _follows(
            number, _entry_number(self.after[0])
        )

    def in_list(self) -> bool:
        """Whether a line in capitals is one of a run of at least three, one a paragraph,
        none a unit's heading: a list or a table's cells in capitals (municipalities,
        a legend's "C = VAPOR CARBÓN", a scale's items), which a lawyer reads as text."""
        listed = [_listed(line) for line in (*reversed(self.before), *self.after)]
        return any(all(listed[at : at + 2]) for at in range(3))

    def names(self, raw: str) -> bool:
        """Whether the line after a unit's number alone is its name, not its text: a
        sentence (an article or a preposition first, a period last, a paragraph long:
        "Los límites autorizados… se considerarán ampliados…", "A efectos de lo
        dispuesto…"), a lead-in ("…que a continuación se describen:"), a list's first
        item ("a) El equipo…", "Dos. El anexo 2…", "Nota 1 del anexo."), a quotation's
        start («El Consejo Europeo aprobó…), a BOE note, a form's blanks
        ("……, … de …… de ……") or the first of a list of norms ("Real Decreto 2551/1994,
        de…", then "Reglamento (CE) n.º 1774/2002…") is text."""
        folded = fold(raw.strip(_STRIP))
        sentence = len(folded) >= 200 and folded.endswith(".") and _opens_sentence(folded)
        listed = _NORM.match(folded) and _NORM.match(fold(self.after[0].strip(_STRIP)))
        stripped = raw.strip(_STRIP)
        text = (
            folded.endswith(":")
            or _ITEM.match(folded)
            or len(_BLANK.findall(folded)) >= 2
            or _FORM_BLANK.search(raw.strip()) is not None
            or _BOE_NOTE.match(folded)
            or (stripped[:1] in _OPENING_QUOTES and stripped[-1:] not in _CLOSING_QUOTES)
        )
        return not (sentence or listed or text)


#: A sentence's first word, an article or a preposition ("Los límites autorizados…",
#: "En base a la evolución…"); names open otherwise ("De la protección…" is a name).
_OPENS_SENTENCE: Final = re.compile(
    r"(?:\d+\.\s+)?"  # an item's number first: "1. El distintivo informativo…"
    r"(?:el|la|los|las|lo|un|una|unos|unas|a|en|durante|con|para|por|segun|tras|cuando|si)\s"
)
#: A label or a name and its full stop, then a sentence on the same line: "Art. 321. En
#: la póliza del contrato deberán expresarse…", "1. Principios generales. El objetivo de
#: los estudios…" (a run-in heading: the line is text); a period inside a number ("Art.
#: 1.057.") is no full stop.
_RUN_IN: Final = re.compile(
    r"(?:art\.\s*)?(?:\d+\.\s+)?(?:[^.]|\.(?=\d)){1,60}\.\s+" + _OPENS_SENTENCE.pattern
)
#: A form's blank a line long: dots, ellipses or a run of wide spaces ("Nombre y
#: dirección del expedidor ……", "NOMBRE:" then twenty em spaces, "FECHA:"); a short one
#: stands in a name ("… para el ejercicio FEAGA: 20………").
_FORM_BLANK: Final = re.compile(r"\.{10,}|…{10,}|[\u2002\u2003\u00a0\t]{3,}")


def _opens_sentence(folded: str) -> bool:
    """Whether a folded line opens as a sentence, or runs into one after a label."""
    return _OPENS_SENTENCE.match(folded) is not None or _RUN_IN.match(folded) is not None


def runs_into_text(raw: str, before_a_unit: bool = False) -> bool:
    """Whether a unit's line, not marked as a heading, carries its text: its label, then
    a sentence ("Art. 321. En la póliza del contrato deberán expresarse los datos…"), 150
    characters at least (fewer make a name: "Artículo 8. El plan estatal de…"), or of any
    length ``before_a_unit`` (the next paragraph is a unit's line: "Art. 936. El padre y
    la madre heredarán por partes iguales.", then "Art. 937."; a unit has text)."""
    folded = fold(raw.strip(_STRIP))
    return (
        not _ATX.match(raw)
        and (len(folded) >= 150 or before_a_unit)
        and folded.endswith(".")
        and _RUN_IN.match(folded) is not None
    )


#: A list's first item: "a)", "Dos.", "Nota 1" (a number or a capital letter may open a
#: name: "01. Tasa por dirección…", "A. Procedimientos ambulatorios").
_ITEM: Final = re.compile(
    r"(?:[a-z]\)|(?:uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez)\.|nota\s+\d+)\s"
)
#: A form's blank to fill: two of them make a form's line ("……, … de …… de ……"); one may
#: stand in a name ("Reglamento Delegado (UE) n.º 2017/....").
_BLANK: Final = re.compile(r"\.{4,}|…+")
#: A BOE editorial note set as a paragraph.
_BOE_NOTE: Final = re.compile(r"(?:tengase en cuenta|se modifica|se anade|se suprime|se deroga)\b")
#: A quotation opened and not closed on the line: quoted text ("«El Consejo Europeo
#: aprobó…"), not a quoted name ("«Los Caminos a Santiago»").
_OPENING_QUOTES: Final = "«“\"'"
_CLOSING_QUOTES: Final = "»”\"'"
#: A norm cited by its kind and number, as a list of norms writes each.
_NORM: Final = re.compile(
    r"(?:real decreto(?: legislativo| ley)?|decreto|ley(?: organica)?|orden|reglamento"
    r"|directiva|decision|resolucion)(?:\s+\([a-z]+\))?(?:\s+n\.?\s?[ºo]\.?)?\s+[a-z]*\d"
)


def _listed(line: str) -> bool:
    """Whether a paragraph is one line in capitals, not marked as a heading (``###``),
    that heads no unit: an item of a list in capitals."""
    return (
        "\n" not in line.strip()
        and not _ATX.match(line)
        and _capitals(line)
        and unit_of(line) is None
    )


def _rubric_in_capitals(raw: str, around: _Around) -> bool:
    """Whether a line in capitals is a rubric: not a record's field ("CÓDIGO POSTAL (5
    N)"), an entry of an index in capitals, nor an item of a list in capitals."""
    return (
        _capitals(raw)
        and not _FIELD.match(raw.strip())
        and not _FORM_LINE.match(fold(raw.strip(_STRIP)))  # "NIF/CIF ……", "CARGO: ……"
        and _FORM_BLANK.search(raw.strip()) is None  # "NOMBRE:" twenty em spaces "FECHA:"
        and not _sentence_in_capitals(raw)
        and not around.in_index(raw)
        and not around.in_list()
    )


#: A subdivision's rubric below the units, a heading a lawyer reads though no unit:
#: "Epígrafe A. Forma de realizarlo" (its word, a letter or a number, a name that ends no
#: sentence).
_SUBDIVISION: Final = re.compile(r"(?:sub)?epigrafe\s+(?:[a-z]|\d{1,3})\.\s+\w[^.;:]*")


def _sentence_in_capitals(raw: str) -> bool:
    """Whether a line in capitals is a sentence, text a lawyer reads: long, with a
    comma, a full stop at its end ("LAS INFORMACIONES QUE SE REFLEJAN A CONTINUACIÓN, Y
    … NO TIENEN CARÁCTER DE OFERTA….»")."""
    stripped = raw.strip(_STRIP).rstrip(_QUOTES_CLOSE)
    return len(stripped) >= 150 and "," in stripped and stripped.endswith(".")


def _subdivision(line: str) -> bool:
    return _SUBDIVISION.fullmatch(fold(line.strip(_STRIP))) is not None


def _capitals(line: str) -> bool:
    """Whether a line is written in capitals (an approved text's title, a rubric)."""
    letters = [c for c in line if c.isalpha()]
    return len(letters) >= 4 and all(c.isupper() for c in letters)


#: The units whose name may stand on the line after their number.
_NAMED: Final = frozenset(
    {"libro", "título", "capítulo", "sección", "subsección", "anexo", INSTRUCCION}
)


def _number_only(line: str) -> bool:
    """Whether a unit's heading line is its word and number alone ("CAPÍTULO III",
    "CAPÍTULO III bis", "ANEXO III A)", "ANEXO NÚMERO 2", "INSTRUCCIÓN TÉCNICA
    COMPLEMENTARIA ITC EP-1"), not its number and a one-word name ("Sección 1.ª
    Ejercicios")."""
    plain = line.replace("*", "").strip(_STRIP)
    instruccion = _instruccion(unicodedata.normalize("NFC", " ".join(plain.split())))
    if instruccion is not None:
        return instruccion[1]
    folded = fold(line.strip(_STRIP)).rstrip(" .:")
    words = folded.split()
    if len(words) == 3:
        part = rf"{_LATIN}|[a-z]\)?|\d+[.)]?"  # "III bis", "III A)", "3 2"
        return words[1] in ("numero", "n.o", "no") or re.fullmatch(part, words[2]) is not None
    return len(words) <= 2 and not re.search(r"[.:]\s+\S", folded)


def _style(number: str) -> str:
    return "digits" if number[:1].isdigit() else "words"


def _ends_quotation(unit: Unit, reader: _Reader) -> bool:
    """Whether ``unit``, met in an open quotation, is the law's own numbering going on:
    the next article written as the law writes its own ("Artículo segundo" after
    "Artículo primero", not "Artículo 2"), or the next disposición or ANEXO (the first of
    its kind when there was none)."""
    if not (unit.kind in ("artículo", "anexo") or unit.kind.startswith("disposición")):
        return False
    previous = reader.last.get(unit.kind)
    if previous is None:
        return first_number(unit.number)
    if reader.styles.get(unit.kind) != _style(unit.number) and unit.number:
        return False
    return successor(previous, unit.number) or (unit.number == "" and previous == "")


def _close_articulado(chain: list[Unit]) -> None:
    while chain and chain[-1].kind not in _ANNEXED:
        chain.pop()


def _instruccion_end(chain: Sequence[Unit]) -> int:
    """Where the innermost instrucción técnica of ``chain`` ends (0: none)."""
    kinds = [unit.kind for unit in chain]
    return len(kinds) - kinds[::-1].index(INSTRUCCION) if INSTRUCCION in kinds else 0


def _open(chain: list[Unit], unit: Unit, holder: int = 0) -> None:
    """The chain after the law's own heading of ``unit`` (an instrucción técnica's: what
    the ANEXO that holds it, ending at ``holder``, leaves open)."""
    if unit.kind == INSTRUCCION:
        del chain[holder:]
    elif unit.kind == "anexo":
        del chain[_instruccion_end(chain) :]
    elif unit.kind.startswith("disposición"):
        _close_articulado(chain)
    else:
        while chain and (
            chain[-1].kind.startswith("disposición")
            or (chain[-1].articulado and chain[-1].rank >= unit.rank)
        ):
            chain.pop()
    chain.append(unit)


def path_units(path: Sequence[str], titled: bool = True) -> tuple[Unit, ...]:
    """The units a section path names, its first element (the law's title) aside when
    the document has one (``titled``; an excerpt of one article has none)."""
    return tuple(
        unit for title in path[1 if titled else 0 :] if (unit := unit_of(title)) is not None
    )


def counted(chain: Sequence[Unit]) -> bool:
    """Whether a chain is inside an article or a disposición."""
    return any(unit.kind == "artículo" or unit.kind.startswith("disposición") for unit in chain)
