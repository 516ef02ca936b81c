"""The grammar of Spanish legal form, kept as data: one table of units, from which every
reader's matchers are generated.

``UNITS`` lists each unit of a law (its words and abbreviations, its part and rank, the
numbering schemes it takes, whether it may stand without a number and whether its name
may stand on the line after it); ``NUMBERINGS`` lists the numbering schemes, built on
``langchain_asesoria.numerals``. A new shape of heading is a row or a scheme here, never
a pattern in a reader. What the readers get:

* ``legal_unit(title)``: the unit a heading's title opens with (a Markdown heading, a web
  page's ``<hN>``, a PDF outline's title), lenient about what follows its label;
* ``heading_line(line)``: a plain line that is a heading by its shape: a unit's label
  followed by nothing, punctuation or a word in capitals, of any length ("Artículo 5 de
  esta Ley…" is a sentence); ``label_of`` gives the label's unit and number;
* ``pdf_heading_line(line)``: the stricter shape of a PDF's printed heading lines;
* ``LEGAL_HEADINGS`` (a line start no page-furniture rule may take) and
  ``HEADING_START`` (a line a list's lead-in never runs past);
* the words of the promulgation, of a preamble's numerals, of an approved text's title,
  of group headings and bare ordinals, and of the lines a law marks as headings but are
  its text (formulas, notes, broken lines).

More: ``docs/design/structure.md``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal, get_args

from langchain_asesoria.models import ENACTING_WORDS
from langchain_asesoria.numerals import (
    CARDINAL,
    LATIN,
    ORDINAL,
    ROMAN,
    WORD_NUMBER,
    roman_value,
    word_value,
)

Part = Literal["preamble", "articulado", "disposiciones", "anexo"]


@dataclass(frozen=True, slots=True)
class LegalUnit:
    """A kind of legal heading: its name, its part of the law and its rank there."""

    name: str
    part: Part
    rank: int


#: What joins the words and digits of an instrucción técnica's code: a dash however
#: spaced ("EA - 01", an en dash: "ITC EP-3"), a period ("MIG-R.5"), a space ("MIE APQ-1").
_CODE_JOIN: Final = r"(?:\s?[\-\u2013.]\s?|\s)"
#: A word of such a code: up to four capitals, never a word of a sentence in capitals
#: ("INSTRUCCIÓN SOBRE LA NORMA 2…").
_CODE_WORD: Final = r"(?!(?:DE|DEL|EL|LA|LAS|LOS|EN|Y|A|POR|PARA)\b)[A-Z]{1,4}"

#: The numbering schemes, each a pattern fragment matched at the number's start (the
#: whole label is matched without case, except where a scheme says ``(?-i:…)``).
NUMBERINGS: Final[Mapping[str, str]] = {
    # code-style numbers of a code's articles: "511-1", "4.11-1", "000-1"; "1.1"; "10/2"
    "code": r"\d+(?:[.\-/]\d+)+(?![.\-/]?\d)",
    # "5", "1.ª", "1.º", "1ª", "1.a", "1.o"
    "arabic": r"\d+(?:\s?\.?\s?[ªº°]|\.[ao](?![a-zñáéíóú]))?",
    "roman": rf"(?-i:{ROMAN})(?![^\W\d_])",
    "ordinal": rf"{ORDINAL}(?![^\W\d_])",
    "cardinal": rf"{CARDINAL}(?![^\W\d_])",
    # a letter as old regulations letter their Secciones: "B)", "A. Name" ("Sección A"
    # alone is a word, not a number)
    "letter": r"(?-i:[A-Z])(?=\)|\.\s)",
    # an annex's letter, which may stand alone: "ANEXO B", "ANEXO C."
    "annex letter": r"(?-i:[A-Z])(?=\)|\.\s|\.?$)",
    # an annex's number and its parts: "ANEXO IIA", "ANEXO 1A", "ANEXO IV.a", "ANEXO
    # III-A", "ANEXO I.A", "ANEXO 3.1", "ANEXO VI.1", "ANEXO 1 a)", "ANEXO NÚMERO 2",
    # "ANEXO I.II", "ANEXO II.B.6"
    "annex part": (
        rf"n[úu]mero\s+\d+(?![\d.])|(?:\d+|(?-i:{ROMAN}))"
        rf"(?:\.(?-i:{ROMAN})(?![^\W\d_])|[.\-]?(?-i:[A-Z])(?![^\W\d_])|[.\-]\d+(?![.\-/]?\d)"
        r"|\.[a-z](?![^\W\d_]))+(?:\s[a-z]\)|\s(?-i:[A-Z])(?=\)|\s*$))?"
        rf"|(?:\d+|(?-i:{ROMAN}))(?:\s[a-z]\)|\s(?-i:[A-Z])(?=\)|\s*$))"
    ),
    "único": r"[úu]nic[oa](?![^\W\d_])",
    "preliminar": r"preliminar(?![^\W\d_])",
    # an instrucción técnica's code: words in capitals, then digits ("IF-01", "ITC-BT-01",
    # "MIE APQ-1", "MI-IP02", "EA - 01", "ITC EP-3", "ITC-MIG-5.1", "MIG-R.5.1.1", "IT
    # 1"), quoted or not ("«MIE-AEM-2»"); its number ("NÚMERO 1"); dotted digits
    # ("12.0.01"). No year: "Instrucción 3/2005, de…" is a norm cited, no unit.
    "instruction code": (
        rf"«?(?-i:{_CODE_WORD}(?:{_CODE_JOIN}{_CODE_WORD}){{0,3}}{_CODE_JOIN}?)"
        r"\d+(?:\.\d+)*»?(?![\d/\-])"
        r"|n[úu]mero\s+\d+(?![\d,/]|\.\d)|\d+(?:\.\d+){2,}(?![\d/\-])"
    ),
}
#: What may follow a number: a Latin multiplier however joined ("106 quáter", "2.bis",
#: "33-bis", "I bis") and the BOE's bracketed notes ("17[Sic]").
_SUFFIX: Final = rf"(?:[\s.\-]*{LATIN}(?![^\W\d_]))?(?:\s*\[[^\]\n]{{0,20}}\])?"
#: A range of units under one heading ("Arts. 48 a 50.", "Artículos 9 y 10").
_RANGE: Final = r"\s+(?:a|al|y)\s+"


@dataclass(frozen=True, slots=True)
class UnitRow:
    """One row of the grammar: a unit and how the BOE writes its heading.

    Attributes:
        unit: The unit (name, part, rank).
        words: The words that open its heading (a pattern; accents optional,
            misspellings the BOE prints included).
        numbering: The schemes its number takes, tried in order (``NUMBERINGS``).
        bare: It may stand without a number ("ANEXO", "Disposición adicional.").
        named: The longest name, in characters, that may stand on the line after its
            number ("CAPÍTULO III", then "De la protección del dominio público
            hidráulico"); an ANEXO's may be the whole title of the text it annexes
            ("Acuerdo del Consejo de Ministros de 12 de marzo de 2020, por el que…").
            0: its name never stands there.
        plural: The words of a heading of several ("Artículos 9 a 12", "Arts. 48 a 50").
        alone: Its words head a plain line only with nothing after the number: an
            abbreviation ("ITC-BT-01", its name on the next line), where a name after it
            on the same line is an item of a list ("ITC-MIG-6.1 Acometidas de gas…").
    """

    unit: LegalUnit
    words: str
    numbering: tuple[str, ...] = ()
    bare: bool = False
    named: int = 0
    plural: str = ""
    alone: bool = False


#: The kinds of disposición and how their group heading writes them ("Disposiciones
#: adicionales"); "modificativa" as the Basque and Navarrese laws group their amendments.
_DISPOSICION_GROUPS: Final[Mapping[str, str]] = {
    "adicional": "adicionales",
    "transitoria": "transitorias",
    "derogatoria": "derogatorias",
    "final": "finales",
    "modificativa": "modificativas",
}
DisposicionKind = Literal["adicional", "transitoria", "derogatoria", "final", "modificativa"]
_DISPOSICION_KINDS: Final[tuple[DisposicionKind, ...]] = get_args(DisposicionKind)
#: Misspellings the BOE's own texts print for a disposición's words, each read as the
#: word it stands for ("Diposición transitoria", "Disposición adiciona segunda",
#: "Disposición degoratoria única", "Disposición finales primera", "Disposición
#: adicional adicional cuarta", "Disposición transitora tercera"); accents optional.
MISSPELT: Final[Mapping[str, tuple[str, ...]]] = {
    "disposición": (
        "diposición", "dsposición", "disposicón", "disposión", "dispoisción", "disposción",
        "disposiciones",  # the plural for one: "Disposiciones final primera."
    ),
    "adicional": ("adiciona", "adicional adicional"),
    "transitoria": ("transitorio", "trasitoria", "transitora"),
    "derogatoria": ("degoratoria", "derrogatoria"),
    "final": ("finales",),
}  # fmt: skip


def _spellings(word: str) -> list[str]:
    """Patterns for ``word`` and its misspellings, accents optional."""
    return [spelling.replace("ó", "[óo]") for spelling in (word, *MISSPELT.get(word, ()))]


def _spelt(word: str) -> str:
    """A pattern for ``word`` and its misspellings, accents optional; the longest first
    ("adicional adicional" before "adicional")."""
    return "(?:" + "|".join(sorted(_spellings(word), key=len, reverse=True)) + ")"


_DISPOSICION_WORD: Final = _spelt("disposición")
#: A disposición's kind as written, misspelt or not ("degoratoria" -> "derogatoria").
_KIND_SPELLINGS: Final[Mapping[str, DisposicionKind]] = {
    spelling: kind for kind in _DISPOSICION_KINDS for spelling in (kind, *MISSPELT.get(kind, ()))
}
_GROUP_WORDS: Final = "|".join(_DISPOSICION_GROUPS.values())
#: The instrucción técnica's unit name.
INSTRUCCION: Final = "instrucción técnica"
_RANKED: Final = ("code", "arabic", "roman", "ordinal", "único", "preliminar")
#: The longest name on the line after a unit's number (``UnitRow.named``), and an
#: ANEXO's, which may be the title of a whole text.
_NAME: Final = 300
_ANNEX_NAME: Final = 600

#: The units of Spanish legislation, in the order tried (a longer word before a shorter
#: one that opens it: "Subsección" before "Sección", "Disposiciones" before
#: "Disposición").
UNITS: Final[tuple[UnitRow, ...]] = (
    UnitRow(LegalUnit("libro", "articulado", 1), r"libro", _RANKED, named=_NAME),
    UnitRow(LegalUnit("título", "articulado", 2), r"t[íi]tulo", _RANKED, named=_NAME),
    # "Capítuo IV bis", "CÁPITULO III": misspelt in the BOE's own text.
    UnitRow(
        LegalUnit("capítulo", "articulado", 3), r"c[áa]p[íi]tul?o|cap[íi]tuo", _RANKED, named=_NAME
    ),
    UnitRow(
        LegalUnit("subsección", "articulado", 5),
        r"subsecci[óo]n",
        (*_RANKED, "letter"),
        named=_NAME,
    ),
    UnitRow(
        LegalUnit("sección", "articulado", 4), r"secci[óo]n", (*_RANKED, "letter"), named=_NAME
    ),
    # The Código Civil's unnumbered division among its TÍTULOs.
    UnitRow(
        LegalUnit("disposición preliminar", "articulado", 2),
        r"disposici[óo]n\s+preliminar",
        bare=True,
    ),
    UnitRow(
        LegalUnit("artículo", "articulado", 6),
        r"art[íi]culo|art\.",
        # a treaty's Roman and lettered articles too: "Artículo IV.", "Artículo A."
        ("code", "arabic", "roman", "ordinal", "cardinal", "único", "letter"),
        plural=r"art[íi]culos|arts\.",
    ),
    UnitRow(LegalUnit("preámbulo", "preamble", 1), r"pre[áa]mbulo", bare=True),
    UnitRow(
        LegalUnit("exposición de motivos", "preamble", 1),
        r"exposici[óo]n\s+de\s+motivos",
        bare=True,
    ),
    UnitRow(
        LegalUnit("disposiciones", "disposiciones", 1),
        rf"disposiciones\s+(?:{_GROUP_WORDS})(?:\s*(?:,|y|e)\s*(?:{_GROUP_WORDS}))*",
        bare=True,
    ),
    UnitRow(
        LegalUnit("disposición", "disposiciones", 2),
        # top-level alternatives, each opening with its letter (``_capitalized``)
        "|".join(
            rf"{word}\s+(?:{'|'.join(map(_spelt, _DISPOSICION_KINDS))})"
            for word in _spellings("disposición")
        ),
        ("ordinal", "arabic", "único", "cardinal"),
        bare=True,
    ),
    # An instrucción técnica (complementaria) annexed to a reglamento, above the ANEXOs it
    # holds: "INSTRUCCIÓN IF-01", "INSTRUCCIÓN TÉCNICA COMPLEMENTARIA ITC-RAT 01.
    # TERMINOLOGÍA", "Instrucción técnica complementaria número 1". Its word in capitals,
    # or with "técnica": "Instrucción MIG-R.7.1. Estaciones…" is an item of a list.
    UnitRow(
        LegalUnit(INSTRUCCION, "anexo", 0),
        r"(?-i:INSTRUCCI[ÓO]N(?:\s+T[ÉE]CNICA(?:\s+COMPLEMENTARIA)?)?"
        r"|Instrucci[óo]n\s+[Tt][ée]cnica(?:\s+[Cc]omplementaria)?)(?:\s+\((?-i:ITC)\))?",
        ("instruction code",),
        named=_NAME,
    ),
    # Its abbreviation, as the REBT heads its instrucciones ("ITC-BT-01", then
    # "TERMINOLOGÍA"; "ITC 04.1.03").
    UnitRow(
        LegalUnit(INSTRUCCION, "anexo", 0),
        r"(?-i:ITC)-?",
        ("instruction code",),
        named=_NAME,
        alone=True,
    ),
    UnitRow(
        LegalUnit("anexo", "anexo", 1),
        r"anexos?|anejos?",
        ("annex part", "arabic", "roman", "ordinal", "único", "annex letter"),
        bare=True,
        named=_ANNEX_NAME,
    ),
)


#: The units a law annexes (ANEXO, an instrucción técnica): each holds everything after it
#: (its articles, disposiciones, titles), until an annex of its rank or above.
ANNEXES: Final = frozenset(row.unit.name for row in UNITS if row.unit.part == "anexo")


def annex_closes(annex: LegalUnit, unit: LegalUnit) -> bool:
    """Whether ``unit`` closes the open ``annex`` (one of ``ANNEXES``): another annex of
    its rank or above ("ANEXO II" closes "ANEXO I"; an instrucción técnica closes the
    ANEXO before it, never its own ANEXOs)."""
    return unit.name in ANNEXES and unit.rank <= annex.rank


@dataclass(frozen=True, slots=True)
class Label:
    """A unit's label at a heading's start: the unit, its number as written (``""``
    for a bare unit), and where the label ends in the text it was read from."""

    unit: LegalUnit
    number: str
    end: int
    #: It heads a plain line only alone (``UnitRow.alone``).
    alone: bool = False

    @property
    def value(self) -> tuple[int, str] | None:
        """The number's value and Latin multiplier (``"106 quáter"`` -> ``(106,
        "quáter")``; Roman numerals and words read; ``None``: no value (a code-style
        number, a letter, none))."""
        return number_value(self.number)


_NUMBER_OF: Final = re.compile(
    rf"(?P<base>.+?)(?P<suffix>[\s.\-]*{LATIN})?(?:\s*\[.*\])?$", re.IGNORECASE
)


def number_value(number: str) -> tuple[int, str] | None:
    """A unit's number read: ``"IV"``, ``"cuarto"``, ``"4.º"`` -> ``(4, "")``; ``"10
    bis"`` -> ``(10, "bis")``; ``"único"`` -> ``(1, "")``; ``None`` for a code-style
    number, a letter or nothing."""
    found = _NUMBER_OF.match(number.strip())
    if found is None:
        return None
    base = found.group("base").strip(" .")
    suffix = (found.group("suffix") or "").strip(" .-").lower()
    digits = re.match(r"\d+(?=\s?\.?\s?[ªº°ao]?$)", base)
    if digits is not None:
        return int(digits.group()), suffix
    if base.lower() in ("único", "única", "unico", "unica"):
        return 1, suffix
    value = roman_value(base) if re.fullmatch(ROMAN, base) else word_value(base)
    return (value, suffix) if value is not None else None


def code_parts(number: str) -> tuple[int, ...] | None:
    """A code-style number's parts: ``"511-2"`` -> ``(511, 2)``, ``"4.11-1"`` -> ``(4,
    11, 1)``; ``None`` for any other number."""
    if re.fullmatch(NUMBERINGS["code"], number.strip(" .")) is None:
        return None
    return tuple(int(part) for part in re.split(r"[.\-/]", number.strip(" .")))


def code_follows(before: tuple[int, ...], after: tuple[int, ...]) -> bool:
    """Whether code number ``after`` comes right after ``before`` in a code's numbering:
    the last part one more (``511-1``, ``511-2``), or a part before it one more and
    every part after that one at its first value (``511-9``, ``512-1``)."""
    if len(before) != len(after):
        return False
    for index, (old, new) in enumerate(zip(before, after, strict=True)):
        if new != old:
            return new == old + 1 and all(part <= 1 for part in after[index + 1 :])
    return False


def _label_pattern(row: UnitRow) -> str:
    numbers = "|".join(NUMBERINGS[name] for name in row.numbering)
    one = rf"(?:{numbers}){_SUFFIX}"
    parts = []
    if row.numbering:
        # "Artículo. 20." as printed; a range under one word: "Artículo 11 a 20."
        parts.append(rf"(?:{row.words})(?:\.\s+|\s*)(?P<number>{one})(?:{_RANGE}(?P<upto>{one}))?")
        if row.plural:
            parts.append(rf"(?:{row.plural})\s*(?P<first>{one})(?:{_RANGE}(?P<last>{one}))?")
    if row.bare:
        parts.append(rf"(?:{row.words})(?![^\W\d_])")
    return "|".join(parts)


_LABELS: Final[tuple[tuple[UnitRow, re.Pattern[str]], ...]] = tuple(
    (row, re.compile(rf"(?:{_label_pattern(row)})", re.IGNORECASE)) for row in UNITS
)
#: The words that open some unit's label (a cheap test before the patterns).
_OPENING: Final = re.compile(
    r"(?:libro|t[íi]tulo|c[áa]p[íi]tul?o|cap[íi]tuo|(?:sub)?secci[óo]n|disposici"
    rf"|{_DISPOSICION_WORD}|art[íi]culo|arts?\.|pre[áa]mbulo|exposici[óo]n|anexo|anejo|instrucci|itc)",
    re.IGNORECASE,
)
#: What ends a label in a heading's title: its end, a space or punctuation, or the name
#: glued to an ordinal's mark ("Sección 2.ªÓrganos de Gobierno").
_END: Final = re.compile(r"$|[\s.:,;\u2013\u2014\-)\[(»”\"]|(?<=[ªº°])(?=[^\W\d_])")
#: Emphasis, heading and bracket marks around a title ("*Sección 1.ª*", "[Disposiciones
#: adicionales]", a Markdown law's "CAPÍTULO **I**.").
_EMPHASIS: Final = "*_ "
_SPACES: Final = re.compile(r"[\s\u00a0\u2000-\u200b\u202f\u205f\u3000]+")


def _clean(title: str) -> str:
    """A title without emphasis marks and brackets around it, its spaces one space."""
    return _SPACES.sub(" ", title.replace("*", "").replace("_", " ")).strip().strip("[]").strip()


#: How much of a line's start ``_opens_a_label`` cleans: a label's words and its marks.
_PROBE: Final = 48


def _opens_a_label(title: str) -> bool:
    """Whether a title, cleaned, opens with some unit's word (``_OPENING``): its start
    alone is cleaned, so that a paragraph of prose is turned down without cleaning it
    whole (every plain line of a law is asked whether it is a heading)."""
    probe = _clean(title[:_PROBE])
    if len(title) > _PROBE and len(probe) < _PROBE // 2:
        probe = _clean(title)  # marks or spaces fill the start: clean it all
    return _OPENING.match(probe) is not None


#: The numbers that make a label opening in lower case a unit's: an ordinal's mark or a
#: Roman numeral, as no sentence numbers what it cites.
_LOWER_NUMBER: Final = re.compile(r"[ªº°]|^[IVXLCDM]+$")


@lru_cache(maxsize=16384)
def label_of(title: str) -> Label | None:
    """The unit's label a title opens with (emphasis marks aside), or ``None``: the
    first row of ``UNITS`` whose words and number match, the label followed by its end,
    a space or punctuation. A label in lower case needs an ordinal's mark or a Roman
    numeral ("sección 3.ª"). ``Label.end`` is a position in the cleaned title."""
    if not _opens_a_label(title):
        return None
    stripped = _clean(title)
    for row, pattern in _LABELS:
        found = pattern.match(stripped)
        if found is None or _END.match(stripped, found.end()) is None:
            continue
        number = found.group("number") if "number" in pattern.groupindex else None
        if not stripped[:1].isupper() and not _LOWER_NUMBER.search(number or ""):
            return None  # "sección 3.ª De los…" is one; "artículo 5 de esta Ley" none
        if number is not None and found.group("upto"):
            number = f"{number} a {found.group('upto')}"
        if number is None and "first" in pattern.groupindex and found.group("first"):
            last = found.group("last")
            number = found.group("first") + (f" a {last}" if last else "")
        return Label(row.unit, (number or "").strip(), found.end(), row.alone)
    return None


def printed_label(title: str) -> tuple[LegalUnit, str] | None:
    """The unit a title opens with and its label as the title prints it, emphasis marks
    aside (``"TÍTULO II. De las rentas"`` -> título, ``"TÍTULO II"``; ``"*Sección 1.ª*
    Infracciones"`` -> sección, ``"Sección 1.ª"``), or ``None`` (``label_of``)."""
    label = label_of(title)
    return None if label is None else (label.unit, _clean(title)[: label.end])


#: A title that is only a Roman numeral: a part of the unit it stands in.
_NUMERAL: Final = re.compile(rf"{ROMAN}\.?")
NUMERAL: Final = LegalUnit("numeral", "articulado", 9)


@lru_cache(maxsize=8192)
def legal_unit(title: str) -> LegalUnit | None:
    """The legal unit a heading's title opens with, or ``None``.

    ``"Artículo 163 tervicies. Tipo"`` is an article, ``"[Disposiciones adicionales]"``
    (a BOE outline's group) their group heading, ``"ANEXO I"`` an anexo, ``"*Sección 1.ª
    Infracciones*"`` and ``"CAPÍTULO **I**."`` (a Markdown law's emphasis marks) a
    sección and a capítulo; ``"el artículo 5 de esta Ley"`` and ``"Títulos valores"``
    are nothing. A title that is only a Roman numeral (``"II"``) is a *numeral*
    (``NUMERAL``): a part of the unit it stands in.
    """
    stripped = _clean(title)
    if _NUMERAL.fullmatch(stripped):
        return NUMERAL
    label = label_of(stripped)
    return None if label is None else label.unit


#: What follows a label in a heading line: nothing, punctuation, a bracketed note, or a
#: word that opens in capitals, a digit or a quotation ("Artículo 1. Objeto", "CAPÍTULO
#: I Disposiciones generales"); a word in lower case is a sentence's.
_GOES_ON: Final = re.compile(r"\s*(?:$|[.:;,\-\u2013\u2014)(\[«“\"¿¡]|[A-ZÁÉÍÓÚÑÜ0-9])")


@lru_cache(maxsize=16384)
def heading_line(line: str) -> Label | None:
    """The label of a plain line that is a legal heading by its shape, or ``None``.

    A unit's label (``label_of``) followed by nothing, punctuation or a word in
    capitals, of any length: ``"Sección primera. Preparación"``, ``"Artículo 511-1.
    Objeto"``, ``"Art. 5."``, ``"TÍTULO I bis"``, ``"Artículo 1.º El presente Real
    Decreto…"``; ``"Artículo 5 de esta Ley establece…"`` is not. A line opening with
    a quotation mark is quoted text, never one.
    """
    if not _opens_a_label(line):
        return None
    stripped = _clean(line)
    label = label_of(stripped)
    if label is None or _GOES_ON.match(stripped, label.end) is None:
        return None
    if label.alone and stripped[label.end :].strip(" .:"):
        return None  # an abbreviation and a name: an item of a list
    return label


#: A sentence's first word: an article or a preposition ("Los límites…", "Para la
#: retribución…"; a name opens "De la protección…" or "Acuerdo de…").
SENTENCE_OPENER: Final = (
    r"(?:El|La|Los|Las|Lo|Un|Una|Unos|Unas|A|En|Durante|Con|Para|Por|Según|Tras|Cuando|Si)\s"
)
#: The shortest unit's line that carries its text after its label.
RUN_IN_LENGTH: Final = 150
_RUN_IN_TEXT: Final = re.compile(rf"[\s.:\u2013\u2014-]*(?={SENTENCE_OPENER})")
#: The first word after a label and its marks.
_AFTER_LABEL: Final = re.compile(r"[\s.:\u2013\u2014-]*(?=[^\W\d_])")


def run_in_text(line: str, textless: bool = False) -> int | None:
    """Where the text starts in a unit's plain line that carries it after its label, or
    ``None``: the label, its full stop, then a sentence ending the line with a full
    stop, ``RUN_IN_LENGTH`` characters or more ("Art. 321. En la póliza del contrato
    deberán expresarse los datos…"; "Artículo 8. El plan estatal de…", shorter, is a
    name; "Artículo 1.º El presente…" ends its label with its ordinal's mark). With
    ``textless`` (the next unit follows the line with nothing between: a unit has text),
    a sentence opening with an article or a preposition may be of any length ("Art. 936.
    El padre y la madre heredarán por partes iguales."), and a long one may open with
    any word ("Art. 116. Se presumen hijos del marido…"). The label alone is the heading;
    the sentence is the unit's text."""
    if not line.endswith(".") or _clean(line) != line:
        return None
    label = heading_line(line)
    if label is None:
        return None
    long_enough = len(line) >= RUN_IN_LENGTH
    found = _RUN_IN_TEXT.match(line, label.end) if long_enough or textless else None
    if found is None and textless and long_enough:
        found = _AFTER_LABEL.match(line, label.end)
    stop = line[label.end - 1 : found.end()] if found is not None else ""
    return found.end() if found is not None and any(mark in stop for mark in ".ºª") else None


#: A PDF prints a LIBRO, TÍTULO or CAPÍTULO as its label alone in capitals, an article
#: and a disposición with a period after their number, a Sección with its "ª" or period.
_PDF_ALONE: Final = frozenset({"libro", "título", "capítulo", "disposiciones", "anexo"})
_PDF_PERIOD: Final = re.compile(r"\.(?:\s|$)")


def pdf_heading_line(line: str) -> bool:
    """Whether a line of a PDF's text is a printed legal heading: LIBRO, TÍTULO,
    CAPÍTULO, a group heading, ANEXO and the preamble's labels alone on their line (in
    capitals), an article or a numbered disposición with a period after its number
    ("Artículo 5.", "Disposición final primera."), a Sección with "1.ª" or "1."."""
    stripped = " ".join(line.split())
    label = heading_line(stripped)
    if label is None:
        return False
    rest = stripped[label.end :]
    name = label.unit.name
    if name in _PDF_ALONE or label.unit.part == "preamble":
        return not rest.strip(" .") and stripped[: label.end].isupper()
    if name in ("sección", "subsección"):
        return bool(re.search(r"[ªº]$|\.$", label.number)) or _PDF_PERIOD.match(rest) is not None
    if name == "disposición":
        return bool(label.number) and _PDF_PERIOD.match(rest) is not None
    return name == "artículo" and _PDF_PERIOD.match(rest) is not None


def _upper(pattern: str) -> str:
    """A pattern of lower-case words in capitals (escapes kept: ``\\s`` stays)."""
    return re.sub(r"(?<!\\)[a-záéíóúñ]", lambda m: m.group().upper(), pattern)


def _alternatives(pattern: str) -> list[str]:
    """A pattern's top-level alternatives (``|`` outside groups and classes)."""
    parts, depth, start, escaped, in_class = [], 0, 0, False, False
    for index, char in enumerate(pattern):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(pattern[start:index])
            start = index + 1
    return [*parts, pattern[start:]]


def _capitalized(pattern: str) -> str:
    """A pattern of words with each top-level alternative's first letter in capitals."""
    return "|".join(_upper(part[:1]) + part[1:] for part in _alternatives(pattern))


def _row(name: str) -> UnitRow:
    return next(row for row in UNITS if row.unit.name == name)


def _printed(name: str, after: str, capitals_only: bool = False) -> str:
    """How the BOE prints a unit's heading at a line's start: its words in capitals (or,
    unless ``capitals_only``, with a capital initial), then ``after``."""
    words = _row(name).words
    if capitals_only:
        return rf"(?:{_upper(words)}){_upper(after)}"
    return rf"(?:{_upper(words)}|{_capitalized(words)}){after}"


_NUMBER: Final = rf"\s+(?:\d+|{ROMAN}(?![^\W\d_])|{ORDINAL}|[úu]nic[oa]|preliminar)"

#: Headings of Spanish legislation at a line start, as the BOE prints them (LIBRO,
#: TÍTULO and CAPÍTULO in capitals; an article, a Sección, a disposición, ANEXO): a line
#: that opens with one is never page furniture.
LEGAL_HEADINGS: Final = tuple(
    re.compile(pattern)
    for pattern in (
        _printed("artículo", r"\s+\d+"),
        "|".join(_printed(name, _NUMBER, True) for name in ("libro", "título", "capítulo")),
        "|".join(_printed(name, r"\s+\d+") for name in ("subsección", "sección")),
        _printed("disposición", ""),
        _printed("anexo", rf"(?:\s+(?:{ROMAN}|\d+|[úu]nico)\b|\s*$)", True),
    )
)

#: Marks that open quoted amended text, and those that close it.
QUOTE_OPEN: Final = '«"“'
QUOTE_CLOSE: Final = '»"”'

#: A line that opens a heading (a Markdown mark, an article, a TÍTULO, a CAPÍTULO, a
#: disposición), quoted or not: a list's lead-in never runs past it.
HEADING_START: Final = re.compile(
    rf"\s*[{QUOTE_OPEN}]?(?:#|"
    + "|".join(
        (
            _printed("artículo", r"\s+\d"),
            _printed("capítulo", r"\s", True),
            _printed("título", r"\s", True),
            _capitalized(_row("disposición").words),
        )
    )
    + ")"
)


def number_only(title: str) -> bool:
    """Whether a heading is a unit whose name may follow it (``UnitRow.named``: LIBRO,
    TÍTULO, CAPÍTULO, Sección, Subsección, ANEXO) with its label and nothing else
    (``"TÍTULO I"``, ``"Capítulo II."``, ``"Sección 1.ª"``, ``"ANEXO"``): its name, when
    it has one, is the heading or the line that follows."""
    stripped = _clean(title)
    label = label_of(stripped)
    if label is None or not any(row.named and row.unit == label.unit for row in UNITS):
        return False
    return not stripped[label.end :].strip(_LABEL_TRAIL)


#: What may follow a unit's label before its name: punctuation, an ordinal's mark, spaces.
_LABEL_TRAIL: Final = " .:ªº-\u2002\u2003\u00a0\t"


def names_its_unit(title: str) -> bool:
    """Whether a heading opens with a unit's label and names the unit after it
    ("Capítulo 1.\u2003Capacidad intelectual…"; not "Disposición adicional primera.")."""
    stripped = _clean(title)
    label = label_of(stripped)
    return label is not None and bool(stripped[label.end :].strip(_LABEL_TRAIL))


def name_limit(title: str) -> int:
    """The longest name that may stand on the line after the unit ``title`` opens with
    (``UnitRow.named``; 0: none, or no unit)."""
    label = label_of(_clean(title))
    return max(
        (row.named for row in UNITS if label is not None and row.unit == label.unit), default=0
    )


def group_heading(title: str) -> bool:
    """Whether a title is a disposiciones group heading ("DISPOSICIONES FINALES")."""
    unit = legal_unit(title)
    return unit is not None and unit.name == "disposiciones"


_KIND: Final = re.compile(
    rf"(?:{_DISPOSICION_WORD}|disposiciones)\s+("
    + "|".join(sorted(map(_spelt, _KIND_SPELLINGS), key=len, reverse=True))
    + ")",
    re.IGNORECASE,
)


def disposicion_kind(title: str) -> DisposicionKind | None:
    """The kind of a disposición or of its group ("DISPOSICIONES TRANSITORIAS":
    ``"transitoria"``), or ``None``: a disposición of another kind closes a group."""
    found = _KIND.match(_clean(title))
    if found is None:
        return None
    return _KIND_SPELLINGS[found.group(1).lower()]


def numeral_title(title: str) -> bool:
    """Whether a heading's title is only a numeral ("III", "5"): a part of the text it
    stands in (a preamble's), never the parent of a law's units."""
    return re.fullmatch(rf"(?:{ROMAN}|\d{{1,3}})\.?", title.strip()) is not None


#: The enacting formula, alone as a heading: "DISPONGO:", "D I S P O N G O :",
#: "DISPONGO", "Dispongo:"; the promulgation of a law by the Head of State: "vengo en
#: sancionar…", "Sabed: Que las Cortes Generales han aprobado…".
_ENACTING: Final = re.compile(
    rf"(?:{ENACTING_WORDS})\s*:?"
    r"|(?:y\s+)?(?:yo\s+)?vengo\s+en\s+(?:sancionar|decretar|aprobar)\b.*"
    r"|sabed\s*:.*",
    re.IGNORECASE,
)
#: The Head of State's title as a heading: "JUAN CARLOS I", "REY DE ESPAÑA", "DON JUAN
#: CARLOS I, REY DE ESPAÑA", "FELIPE VI REY DE ESPAÑA", and from 1939 to 1975 "FRANCISCO
#: FRANCO BAHAMONDE", "JEFE DEL ESTADO ESPAÑOL, GENERALÍSIMO DE LOS EJÉRCITOS NACIONALES".
_ROYAL: Final = re.compile(
    r"(?:don\s+)?(?:juan\s+carlos\s+i|felipe\s+vi|alfonso\s+xiii)"
    r"(?:\s*,?\s*(?:rey|reina)\s+de\s+espa[ñn]a)?[.,]?"
    r"|(?:el\s+)?(?:rey|reina)\s+de\s+espa[ñn]a[.,]?"
    r"|(?:don\s+)?francisco\s+franco\s+bahamonde[.,]?"
    r"|(?:jefe\s+del\s+estado\s+espa[ñn]ol\s*,?\s*)?"
    r"general[íi]simo\s+de\s+los\s+ej[ée]rcitos\s+nacionales[.,]?"
    r"|jefe\s+del\s+estado\s+espa[ñn]ol[.,]?",
    re.IGNORECASE,
)


#: The place and date a law is signed at, a paragraph of its own after its provisions:
#: "Dado en Madrid, el 16 de noviembre de 2007.", "Madrid, 27 de mayo de 2005.",
#: "Palacio de la Zarzuela, Madrid, a 29 de junio de 1984.", "Barcelona, 3 de marzo de 2020",
#: and the signers after a dash in the same paragraph, as orders and the regional
#: bulletins sign ("Sevilla, 14 de julio de 2020.—El Presidente de la Junta…", "Palma, 6 de
#: mayo de 2016.-La Presidenta…"); a year may be written in words, as laws were signed
#: until the 1960s ("Dado en Palacio a veintiocho de mayo de mil ochocientos sesenta y dos").
_YEAR_IN_WORDS: Final = r"de\s+(?:dos\s+)?mil(?:\s+[a-záéíóúñ]+){0,6}"
SIGNATURE: Final = re.compile(
    rf"^[ \t*_]*(?:Dado\s+en\s[^\n]{{1,120}}?(?:\d{{4}}|{_YEAR_IN_WORDS})"
    r"|(?:[A-ZÁÉÍÓÚ][\w'\u2019 .-]{1,60},\s*)+(?:a\s+)?\d{1,2}\s+de\s+[a-záéíóú]+\s+de\s+\d{4})"
    r"(?:\.?[ \t*_]*$|\.?[ \t]*[\u2013\u2014-][ \t]*\S[^\n]*$)",
    re.MULTILINE,
)


def promulgation(title: str) -> Literal["enacting", "royal"] | None:
    """Whether a heading's title is the enacting formula (``"enacting"``), the Head of
    State's title (``"royal"``), or neither (``None``). Neither is ever the parent of
    what follows it: both belong to the promulgation, not to the law's parts."""
    stripped = " ".join(title.split())
    if _ENACTING.fullmatch(stripped):
        return "enacting"
    if _ROYAL.fullmatch(stripped):
        return "royal"
    return None


#: The title of a text a decree approves, as a plain line in capitals: "TEXTO REFUNDIDO
#: DE LA LEY DEL IMPUESTO…", "REGLAMENTO GENERAL DE…", "ESTATUTO DE…".
_APPROVED_TEXT: Final = re.compile(
    r"(?:TEXTO\s+REFUNDIDO|REGLAMENTOS?|ESTATUTOS?|C[ÓO]DIGO|NORMAS|ORDENANZAS?|"
    r"INSTRUCCI[ÓO]N|REGLAS|ARANCEL|TARIFAS?|PLAN|PROGRAMA|CONVENIO)\b.{0,250}"
)


def capitals(line: str) -> bool:
    """Whether a line is written in capitals, at least three letters and none lower case
    (a rubric: "DEL EJERCICIO DEL MANDO"; an approved text's title)."""
    letters = [character for character in line if character.isalpha()]
    return len(letters) >= 3 and all(character.isupper() for character in letters)


def approved_text(line: str) -> bool:
    """Whether a plain line in capitals names a text a decree approves ("TEXTO REFUNDIDO
    DE LA LEY…", "REGLAMENTO DEL IMPUESTO…"): the title of a document inside the law, to
    hold the units that follow it."""
    stripped = line.strip().strip("*").strip()
    return _APPROVED_TEXT.fullmatch(stripped) is not None and capitals(stripped)


#: A provision numbered by its ordinal alone: "Primera.", "Segunda. Entrada en vigor.",
#: "Única." (a disposición inside its group); "Primero.", "Decimocuarto. Información…",
#: "Único." (an apartado of an order or a resolution).
_FEMININE: Final = re.compile(rf"(?:{ORDINAL}|[úu]nica)\.(?:\s+\S.*)?", re.IGNORECASE)
_MASCULINE: Final = re.compile(rf"(?:{ORDINAL}|[úu]nico)\.(?:\s+\S.*)?", re.IGNORECASE)
#: A circular's or an instruction's provision numbered "Norma 1.", "Norma 1.ª", "Norma
#: primera.", "Regla 4.": an apartado too.
_NUMBERED_APARTADO: Final = re.compile(
    rf"(?:Norma|Regla|NORMA|REGLA)\s+(?:\d+(?:\.\s?[ªº]|[ªº]|\.)|(?:{ORDINAL}|[úu]nica)\.)(?:\s+\S.*)?",
    re.IGNORECASE,
)
#: An apartado holds a provision as an article does, at an article's rank.
APARTADO: Final = LegalUnit("apartado", "articulado", 6)


def _ordinal_word(title: str, feminine: bool) -> bool:
    stripped = title.strip()
    word = stripped.split(".", 1)[0].strip()
    if not stripped[:1].isupper() or not word:
        return False
    ending = ("a",) if feminine else ("o", "r")
    if word.lower() not in ("única", "unica", "único", "unico") and not word.lower().endswith(
        ending
    ):
        return False
    pattern = _FEMININE if feminine else _MASCULINE
    return pattern.fullmatch(stripped) is not None


def ordinal_disposicion(title: str) -> bool:
    """Whether a title is a disposición numbered by its ordinal alone ("Primera.",
    "Segunda. Entrada en vigor."): one only inside a disposiciones group."""
    return _ordinal_word(title, feminine=True)


def ordinal_apartado(title: str) -> bool:
    """Whether a title is an apartado: numbered by its ordinal alone ("Primero.",
    "Segundo. Sede."), or a circular's "Norma 1.ª", "Norma primera.", "Regla 4.". A
    provision of a text without articles (an order, a resolution, a circular), at an
    article's rank there; a text with articles never has one."""
    stripped = title.strip()
    return _ordinal_word(stripped, feminine=False) or (
        _NUMBERED_APARTADO.fullmatch(stripped) is not None
    )


#: A treaty's or a code's PARTE: "PARTE VI. Disposiciones finales", "SEXTA PARTE. Otras
#: disposiciones", "PARTE PRIMERA".
_PARTE: Final = re.compile(
    rf"(?:parte\s+(?:(?-i:{ROMAN})|{WORD_NUMBER}|\d+)|{ORDINAL}\s+parte)(?=$|[\s.:,;\u2013\u2014-])",
    re.IGNORECASE,
)


#: A subdivision's rubric on a line of its own: a label word, a letter or a number and a
#: name with no sentence's end ("Epígrafe A. Forma de realizarlo", "Apartado 2. Plazos").
_RUBRIC: Final = re.compile(
    rf"[A-ZÁÉÍÓÚÑ][a-záéíóúñ]+\s+(?:[A-Z]|\d{{1,3}}|{ROMAN})\.\s+[A-ZÁÉÍÓÚÑ][^.:;,]*"
)


def rubric_line(line: str) -> bool:
    """Whether a short line is a subdivision's rubric below the units of ``UNITS``
    ("Epígrafe A. Forma de realizarlo"): it names what follows, as a heading does, and
    ends no sentence."""
    return _RUBRIC.fullmatch(line.strip()) is not None and legal_unit(line) is None


def parte_heading(title: str) -> bool:
    """Whether a heading's title is a treaty's or a code's PARTE, the division above its
    TÍTULOs or articles. No unit of ``UNITS``: as one, a "Parte II. Condiciones del
    reembolso…" quoted inside a budget law's article closed its TÍTULO I
    (BOE-A-2002-25412), so a PARTE stands where its heading's marks put it."""
    return _PARTE.match(_clean(title)) is not None


#: A title that opens with a word in lower case: the tail of a line broken in two. A
#: one-letter word needs a space after it ("y accidente…", not "a) Animales", "b. Datos").
_BROKEN: Final = re.compile(r"[a-zñáéíóúü]{2,}(?=[\s,.:;]|$)|[a-zñáéíóúü] ")


def broken_line(title: str) -> bool:
    """Whether a heading's title is the tail of a line the source broke in two ("###
    CAPÍTULO II. Ordenación de los Servicios Médicos para enfermedad común, maternidad",
    then "### y accidente no laboral"; "siendo:"): it opens with a word in lower case
    and is no legal unit once capitalized ("sección 3.ª De los sistemas…" is one). Part
    of the heading before it, or text (``structure.legal.formulas_as_text``), never a
    section of a law. A lettered item ("a) Animales") is no word."""
    stripped = title.strip().strip(_EMPHASIS).strip()
    if _BROKEN.match(stripped) is None:
        return False
    return legal_unit(stripped[:1].upper() + stripped[1:]) is None


def note_line(title: str) -> bool:
    """Whether a heading's title is a note in parentheses or brackets ("(Derogado)",
    "**(Suprimido).**", "[Sin contenido]", "(Artículos 51 al 72)"; not "[ANEXO]"): what
    the BOE prints under a unit's heading, text of that unit, never a section of a law."""
    stripped = title.strip().strip(_EMPHASIS).removesuffix(".").strip(_EMPHASIS).strip()
    if len(stripped) <= 2 or (stripped[0], stripped[-1]) not in _NOTE_MARKS:
        return False
    # "[ANEXO]": the place of an annex legalize-es leaves out, a unit, never a note
    return stripped[0] == "(" or label_of(stripped[1:-1]) is None


#: The marks a note stands between.
_NOTE_MARKS: Final = frozenset({("(", ")"), ("[", "]")})


def quoted(title: str) -> bool:
    """Whether a heading's title opens with a quotation mark (``QUOTE_OPEN``): the
    heading of amended text quoted in an amending law, never a unit of the law itself."""
    return title.strip().lstrip(_EMPHASIS + "#").lstrip(_EMPHASIS)[:1] in QUOTE_OPEN


#: A formula's signs: "C = B.i. x T", a product's sign, a sum, a root, an inequality.
_FORMULA_SIGN: Final = re.compile(r"[=×∑√≤≥]")  # noqa: RUF001 - the multiplication sign
#: A table's unit line: "Miles de euros", "(Miles de pesetas)", "Euros", "Porcentaje".
_TABLE_UNIT: Final = re.compile(
    r"\(?(?:(?:miles|millones)\s+de\s+)?(?:euros|pesetas|€|%|porcentajes?|importes?)\)?\.?",
    re.IGNORECASE,
)
#: An amount: thousands or decimals marked ("1.234", "0,95"), or a number and its unit;
#: a rate as the BOE writes it ("25 por 100 del importe…").
_AMOUNT: Final = re.compile(
    r"[-+]?(?:(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+,\d+)(?:\s*(?:€|euros|pesetas|%))?"
    r"|\d+\s*(?:€|euros|pesetas|%))\.?"
    r"|\d+(?:,\d+)?\s+por\s+(?:100|ciento|mil)\b.*",
    re.IGNORECASE,
)
#: A run of figures: "37, 220, 404, ........ 412.359." (a comma and three numbers at least).
_FIGURES: Final = re.compile(
    r"(?=.*,)(?:[\s.,;()%€+\-\u2013\u2026]*\d+){3}[\d\s.,;()%€+\-\u2013\u2026]*"
)


def formula_line(title: str) -> bool:
    """Whether a heading's title is a formula, a table's unit line, an amount, a rate, a
    run of figures or a separator ("k = N / n", "Miles de euros", "1.234,56 euros", "25
    por 100 del importe…", "37, 220, 404", "***"): a line the source marks as a heading
    for its centring, text all the same. A legal unit's title never is one."""
    if title.strip() and not any(character.isalnum() for character in title):
        return True  # signs alone: a separator ("### ***", "* * *")
    stripped = title.strip().strip("|*_ ").strip()
    if not stripped or legal_unit(stripped) is not None:
        return False
    return bool(
        # a sign in parentheses is prose's aside: "… de baja viscosidad (≤ 20 mPa·s)"
        _FORMULA_SIGN.search(re.sub(r"\([^()]*\)", "", stripped))
        or _TABLE_UNIT.fullmatch(stripped)
        or _AMOUNT.fullmatch(stripped)
        or _FIGURES.fullmatch(stripped)
    )
