"""The grammar of Spanish legal form: every pattern of a legal unit, in one module.

More: ``docs/design/structure.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

__all__ = [
    "APARTADO",
    "ARTICLE_LINE",
    "HEADING_LINES",
    "HEADING_START",
    "LEGAL_HEADINGS",
    "NUMERAL",
    "PLAIN_HEADINGS",
    "QUOTE_CLOSE",
    "QUOTE_OPEN",
    "UNITS",
    "WORD_NUMBER",
    "DisposicionKind",
    "LegalUnit",
    "Part",
    "approved_text",
    "disposicion_kind",
    "formula_line",
    "legal_unit",
    "note_line",
    "number_only",
    "numeral_title",
    "ordinal_apartado",
    "ordinal_article",
    "ordinal_disposicion",
    "plain_heading",
    "promulgation",
    "quoted",
]

Part = Literal["preamble", "articulado", "disposiciones", "anexo"]

#: Ordinals as units are numbered ("TÍTULO PRELIMINAR", "CAPÍTULO PRIMERO",
#: "Disposición adicional vigésima segunda").
ORDINAL: Final = (
    r"(?:primer[oa]?|segund[oa]|tercer[oa]?|cuart[oa]|quint[oa]|sext[oa]|s[ée]ptim[oa]|"
    r"octav[oa]|noven[oa]|d[ée]cim[oa](?:\s*\w+)?|und[ée]cim[oa]|duod[ée]cim[oa]|"
    r"vig[ée]sim[oa](?:\s*\w+)?|trig[ée]sim[oa](?:\s*\w+)?|[úu]nic[oa]|preliminar)"
)
#: The ordinals of a disposición's heading line (full words, no "preliminar").
DISPOSICION_ORDINAL: Final = (
    r"(?:primer[oa]|segund[oa]|tercer[oa]|cuart[oa]|quint[oa]|sext[oa]|s[ée]ptim[oa]|"
    r"octav[oa]|noven[oa]|d[ée]cim[oa](?:\s*\w+)?|und[ée]cim[oa]|duod[ée]cim[oa]|"
    r"vig[ée]sim[oa](?:\s*\w+)?|trig[ée]sim[oa](?:\s*\w+)?|[úu]nic[oa])"
)
#: An article's number in words, as older and amending laws write it: an ordinal to
#: "noveno" or beyond ("Artículo primero.", "Artículo decimoctavo."), or a cardinal from
#: ten ("Artículo diez.", "Artículo veintiuno.", "Artículo treinta y dos.").
WORD_NUMBER: Final = (
    rf"(?:{DISPOSICION_ORDINAL}|diez|once|doce|trece|catorce|quince|dieci\w+|veint\w+"
    r"|(?:treinta|cuarenta|cincuenta|sesenta|setenta|ochenta|noventa)(?:\s+y\s+\w+)?"
    r"|ciento?(?:\s+\w+)?)"
)
ROMAN: Final = r"[IVXLCDM]+"
NUMBER: Final = rf"(?:\d+|{ROMAN}|{ORDINAL})"
#: Latin multipliers of inserted articles: "163 bis", "163 tervicies".
LATIN: Final = r"(?:bis|ter|quater|quinquies|sexies|septies|octies|nonies|[a-z]*decies|[a-z]*vicies|[a-z]*tricies)"  # noqa: E501
#: The multipliers a PDF's article line carries.
_LINE_LATIN: Final = (
    r"(?:\s+(?:bis|ter|quater|quinquies|sexies|septies|octies|nonies|[a-z]*decies))?"
)
_END: Final = r"(?=$|[\s.:,;\u2013\u2014-])"  # dashes: en, em, hyphen
#: A Sección's number: "1.ª", "2", "IV", "Primera", or a letter as old regulations
#: letter them ("Sección B) Operaciones al contado", "Sección A. «Aplicación…»").
_SECTION_NUMBER: Final = rf"(?:\d+\.?\s?[ªº]?|{ROMAN}|{ORDINAL}|[A-Z]\)|[A-Z](?=\.\s))"


@dataclass(frozen=True, slots=True)
class LegalUnit:
    """A kind of legal heading: its name, its part of the law and its rank there."""

    name: str
    part: Part
    rank: int


_TABLE: Final[tuple[tuple[str, Part, int, str], ...]] = (
    ("libro", "articulado", 1, rf"libro\s+{NUMBER}{_END}"),
    ("título", "articulado", 2, rf"t[íi]tulo\s+{NUMBER}{_END}"),
    # "Capítuo IV bis", "CÁPITULO III": misspelt in the BOE's own text.
    ("capítulo", "articulado", 3, rf"c[áa]p[íi]tul?o\s+{NUMBER}{_END}"),
    ("sección", "articulado", 4, rf"secci[óo]n\s+{_SECTION_NUMBER}{_END}"),
    ("subsección", "articulado", 5, rf"subsecci[óo]n\s+{_SECTION_NUMBER}{_END}"),
    # The Código Civil's unnumbered division among its TÍTULOs.
    ("disposición preliminar", "articulado", 2, rf"disposici[óo]n\s+preliminar{_END}"),
    (
        "artículo",
        "articulado",
        6,
        rf"(?:art[íi]culos?|art\.)\s+(?:\d+(?:\s+{LATIN})?|{WORD_NUMBER}){_END}",
    ),
    ("preámbulo", "preamble", 1, rf"pre[áa]mbulo{_END}"),
    ("exposición de motivos", "preamble", 1, rf"exposici[óo]n\s+de\s+motivos{_END}"),
    (
        "disposiciones",
        "disposiciones",
        1,
        rf"disposiciones\s+(?:adicionales|transitorias|derogatorias|finales){_END}",
    ),
    (
        "disposición",
        "disposiciones",
        2,
        rf"disposici[óo]n\s+(?:adicional|transitoria|derogatoria|final){_END}",
    ),
    ("anexo", "anexo", 1, rf"anexo(?:\s+(?:{NUMBER}|[A-Z]))?{_END}"),
)

#: Each legal unit and the pattern a heading's title opens with, in the order tried.
UNITS: Final[tuple[tuple[LegalUnit, re.Pattern[str]], ...]] = tuple(
    (LegalUnit(name, part, rank), re.compile(pattern, re.IGNORECASE))
    for name, part, rank, pattern in _TABLE
)

#: A title that is only a Roman numeral: a part of the unit it stands in.
_NUMERAL: Final = re.compile(rf"{ROMAN}\.?")
NUMERAL: Final = LegalUnit("numeral", "articulado", 9)


@lru_cache(maxsize=8192)
def legal_unit(title: str) -> LegalUnit | None:
    """The legal unit a heading's title opens with, or ``None``.

    ``"Artículo 163 tervicies. Tipo"`` is an article, ``"TÍTULO II"`` a título,
    ``"[Disposiciones adicionales]"`` (a BOE outline's group) their group heading,
    ``"ANEXO I"`` an anexo, ``"*Sección 1.ª Infracciones*"`` and ``"CAPÍTULO **I**."`` (a
    Markdown law's emphasis marks) a sección and a capítulo; ``"el artículo 5 de esta
    Ley"`` and ``"Títulos valores"`` are nothing. A title that is only a Roman numeral
    (``"II"``) is a *numeral* (``NUMERAL``): a part of the unit it stands in (the "I",
    "II" of an exposición de motivos).
    """
    stripped = title.replace("*", "").strip().strip("[]_").strip()
    if not stripped[:1].isupper():
        return None
    if _NUMERAL.fullmatch(stripped):
        return NUMERAL
    for unit, pattern in UNITS:
        if pattern.match(stripped):
            return unit
    return None


#: A title that is only a numeral, Roman or Arabic: "III", "5", "IV.".
_NUMERAL_TITLE: Final = re.compile(rf"(?:{ROMAN}|\d{{1,3}})\.?")


def numeral_title(title: str) -> bool:
    """Whether a heading's title is only a numeral ("III", "5"): a part of the text it
    stands in (a preamble's), never the parent of a law's units."""
    return _NUMERAL_TITLE.fullmatch(title.strip()) is not None


#: The enacting formula, alone as a heading: "DISPONGO:", "D I S P O N G O :",
#: "DISPONGO", "Dispongo:"; the promulgation of a law by the Head of State: "vengo en
#: sancionar…", "Sabed: Que las Cortes Generales han aprobado…".
_ENACTING: Final = re.compile(
    r"(?:d\s?i\s?s\s?p\s?o\s?n\s?g\s?o|dispone|decreto|resuelvo|acuerdo|ordeno)\s*:?"
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


#: The shape of each kind of heading line of a PDF's text, tried in order: an article's
#: number and a period, LIBRO/TÍTULO/CAPÍTULO and its number alone in capitals, a
#: Sección's number with "ª"/"º" or a period, a disposición's ordinal and a period, and
#: the groups, ANEXO and preamble labels alone on their line.
HEADING_LINES: Final = (
    re.compile(rf"Art[íi]culo\s+(?:\d+{_LINE_LATIN}|[úu]nico)\.(?:\s|$)"),
    re.compile(r"(?:LIBRO|T[ÍI]TULO|CAP[ÍI]TULO)\s+(?:[IVXLCDM]+|\d+|PRELIMINAR|[ÚU]NICO)\s*$"),
    re.compile(r"(?:Sub)?[Ss]ecci[óo]n\s+\d+(?:\.\s?[ªº]?|[ªº])(?:\s|$)"),
    re.compile(
        rf"Disposici[óo]n\s+(?:adicional|transitoria|derogatoria|final)\s+{DISPOSICION_ORDINAL}"
        r"\.(?:\s|$)"
    ),
    re.compile(
        r"(?:DISPOSICIONES\s+(?:ADICIONALES|TRANSITORIAS|DEROGATORIAS|FINALES)"
        r"|ANEXO(?:\s+(?:[IVXLCDM]+|\d+|[ÚU]NICO))?|PRE[ÁA]MBULO|EXPOSICI[ÓO]N DE MOTIVOS)\s*$"
    ),
)

#: A disposición's heading line opens so, in capitals or not.
_DISPOSICION_LINE: Final = (
    r"(?:Disposici[óo]n|DISPOSICI[ÓO]N)\s+"
    r"(?:adicional|transitoria|derogatoria|final|ADICIONAL|TRANSITORIA|DEROGATORIA|FINAL)"
)

#: Headings of Spanish legislation at a line start (the ranks BOE prints in capitals):
#: a line that opens with one is never page furniture.
LEGAL_HEADINGS: Final = (
    re.compile(r"(?:Art[íi]culo|ART[ÍI]CULO)\s+\d+"),
    re.compile(
        r"(?:LIBRO|T[ÍI]TULO|CAP[ÍI]TULO)\s+(?:[IVXLCDM]+\b|\d+|PRELIMINAR|[ÚU]NICO|PRIMERO)"
    ),
    re.compile(r"(?:Sub)?[Ss]ecci[óo]n\s+\d+|(?:SUB)?SECCI[ÓO]N\s+\d+"),
    re.compile(_DISPOSICION_LINE),
    re.compile(r"ANEXO(?:\s+(?:[IVXLCDM]+|\d+|[ÚU]NICO)\b|\s*$)"),
)

#: Marks that open quoted amended text, and those that close it.
QUOTE_OPEN: Final = '«"“'
QUOTE_CLOSE: Final = '»"”'

#: A line that opens a heading (a Markdown mark, an article, a TÍTULO, a disposición),
#: quoted or not: a list's lead-in never runs past it.
HEADING_START: Final = re.compile(
    rf"\s*[{QUOTE_OPEN}]?(?:#|Art[íi]culo\s+\d|ART[ÍI]CULO\s+\d|CAP[ÍI]TULO\s|T[ÍI]TULO\s"
    r"|Disposici[óo]n\s+(?:adicional|transitoria|derogatoria|final))"
)


#: The units whose heading may be their name and number alone, their title on a
#: heading of its own ("TÍTULO I", then "Delimitación del hecho imponible").
_NAMED_UNITS: Final = frozenset({"libro", "título", "capítulo", "sección", "subsección"})


def number_only(title: str) -> bool:
    """Whether a heading is a LIBRO, TÍTULO, CAPÍTULO, Sección or Subsección with its
    number and nothing else (``"TÍTULO I"``, ``"Capítulo II."``, ``"Sección 1.ª"``): its
    name, when it has one, is the heading that follows."""
    stripped = title.strip()
    for unit, pattern in UNITS:
        found = pattern.match(stripped)
        if found is not None and unit.name in _NAMED_UNITS:
            return not stripped[found.end() :].strip(" .:ªº")
    return False


#: The shapes of a legal heading written as a plain paragraph of its own in a text that
#: marks other headings (a Markdown law's "ANEXO", "Subsección 1.ª", "TÍTULO V",
#: "Artículo primero."): the whole line, strict, so that a sentence that opens with a
#: unit ("Artículo 5 de esta Ley establece…") is never one.
_PLAIN_TITLE: Final = r"(?:\s*[.:\u2013\u2014-]\s*(?:\S.*)?)?"
_CAPITAL_ORDINAL: Final = (
    r"(?:PRIMER[OA]?|SEGUND[OA]|TERCER[OA]?|CUART[OA]|QUINT[OA]|SEXT[OA]|S[ÉE]PTIM[OA]|"
    r"OCTAV[OA]|NOVEN[OA]|D[ÉE]CIM[OA]|[ÚU]NIC[OA]|PRELIMINAR)"
)
PLAIN_HEADINGS: Final = (
    re.compile(rf"ANEXOS?(?:\s+(?:{ROMAN}|\d+|[A-Z]|[ÚU]NICO))?{_PLAIN_TITLE}"),
    re.compile(rf"Anexos?(?:\s+(?:{ROMAN}|\d+|[A-Z]|[úu]nico))?{_PLAIN_TITLE}"),
    re.compile(
        rf"(?:LIBRO|T[ÍI]TULO|CAP[ÍI]TULO)\s+(?:{ROMAN}|\d+|{_CAPITAL_ORDINAL}){_PLAIN_TITLE}"
    ),
    re.compile(rf"(?:Libro|T[íi]tulo|Cap[íi]tulo)\s+(?:{ROMAN}|preliminar){_PLAIN_TITLE}"),
    re.compile(
        rf"(?:(?:Sub)?[Ss]ecci[óo]n|(?:SUB)?SECCI[ÓO]N)\s+"
        rf"(?:\d+\.?\s?[ªº](?:{_PLAIN_TITLE}|\s+\S.*)|{ROMAN}{_PLAIN_TITLE})"
    ),
    re.compile(rf"Art[íi]culo\s+(?:\d+(?:\s+{LATIN})?|{WORD_NUMBER})\.(?:\s+\S.*)?"),
    re.compile(
        _DISPOSICION_LINE + rf"(?:\s+(?:{DISPOSICION_ORDINAL}|{_CAPITAL_ORDINAL}))?\.?(?:\s+\S.*)?"
    ),
    re.compile(
        r"(?:DISPOSICIONES\s+(?:ADICIONALES|TRANSITORIAS|DEROGATORIAS|FINALES)"
        r"|Disposiciones\s+(?:adicionales|transitorias|derogatorias|finales))\.?"
    ),
)
#: The longest plain line taken for a heading (an article's heading and its title).
_PLAIN_MAX: Final = 300


def plain_heading(line: str) -> bool:
    """Whether a plain line, alone in its paragraph, is a legal heading by its shape
    (``PLAIN_HEADINGS``) and a unit by ``legal_unit``: ``"ANEXO"``, ``"Subsección 1.ª
    Disposiciones generales"``, ``"TÍTULO V"``, ``"Artículo primero. Modificación…"``;
    ``"Artículo 5 de esta Ley establece que…"`` is not."""
    stripped = line.strip()
    if len(stripped) > _PLAIN_MAX or legal_unit(stripped) is None:
        return False
    return any(pattern.fullmatch(stripped) for pattern in PLAIN_HEADINGS)


#: The title of a text a decree approves, as a plain line in capitals: "TEXTO REFUNDIDO
#: DE LA LEY DEL IMPUESTO…", "REGLAMENTO GENERAL DE…", "ESTATUTO DE…".
_APPROVED_TEXT: Final = re.compile(
    r"(?:TEXTO\s+REFUNDIDO|REGLAMENTOS?|ESTATUTOS?|C[ÓO]DIGO|NORMAS|ORDENANZAS?|"
    r"INSTRUCCI[ÓO]N|REGLAS|ARANCEL|TARIFAS?|PLAN|PROGRAMA|CONVENIO)\b[^a-zñáéíóú]{0,250}"
)


def approved_text(line: str) -> bool:
    """Whether a plain line in capitals names a text a decree approves ("TEXTO REFUNDIDO
    DE LA LEY…", "REGLAMENTO DEL IMPUESTO…"): the title of a document inside the law, to
    hold the units that follow it."""
    return _APPROVED_TEXT.fullmatch(line.strip().strip("*").strip()) is not None


#: A disposición numbered by its ordinal alone, inside its group: "Primera.", "Segunda.
#: Entrada en vigor.", "Única."
_ORDINAL_DISPOSICION: Final = re.compile(
    r"(?:Primera|Segunda|Tercera|Cuarta|Quinta|Sexta|S[ée]ptima|Octava|Novena|D[ée]cima"
    r"(?:\s+\w+)?|Und[ée]cima|Duod[ée]cima|Vig[ée]sima(?:\s+\w+)?|Trig[ée]sima(?:\s+\w+)?"
    r"|[ÚU]nica|PRIMERA|SEGUNDA|TERCERA|CUARTA|QUINTA|SEXTA|S[ÉE]PTIMA|OCTAVA|NOVENA"
    r"|[ÚU]NICA)\.(?:\s+\S.*)?"
)


def ordinal_disposicion(title: str) -> bool:
    """Whether a title is a disposición numbered by its ordinal alone ("Primera.",
    "Segunda. Entrada en vigor."): one only inside a disposiciones group."""
    stripped = title.strip()
    return len(stripped) <= _PLAIN_MAX and _ORDINAL_DISPOSICION.fullmatch(stripped) is not None


#: An apartado numbered by its ordinal alone, as orders, resolutions and circulars number
#: their provisions where a law has articles: "Primero.", "Decimocuarto. Información que
#: se solicita.", "Único."
_ORDINAL_APARTADO: Final = re.compile(
    r"(?:Primero|Segundo|Tercero|Cuarto|Quinto|Sexto|S[ée]ptimo|Octavo|Noveno|D[ée]cimo"
    r"(?:\s*\w+)?|Und[ée]cimo|Duod[ée]cimo|Vig[ée]simo(?:\s*\w+)?|Trig[ée]simo(?:\s*\w+)?"
    r"|[ÚU]nico|PRIMERO|SEGUNDO|TERCERO|CUARTO|QUINTO|SEXTO|S[ÉE]PTIMO|OCTAVO|NOVENO"
    r"|D[ÉE]CIMO|[ÚU]NICO)\.(?:\s+\S.*)?"
)
#: A circular's or an instruction's provision numbered "Norma 1.", "Norma 1.ª",
#: "Norma primera.", "Regla 4.": an apartado too.
_NUMBERED_APARTADO: Final = re.compile(
    rf"(?:Norma|Regla|NORMA|REGLA)\s+(?:\d+(?:\.\s?[ªº]|[ªº]|\.)|{DISPOSICION_ORDINAL}\.)(?:\s+\S.*)?"
)
#: An apartado holds a provision as an article does, at an article's rank.
APARTADO: Final = LegalUnit("apartado", "articulado", 6)


def ordinal_apartado(title: str) -> bool:
    """Whether a title is an apartado: numbered by its ordinal alone ("Primero.",
    "Segundo. Sede."), or a circular's "Norma 1.ª", "Norma primera.", "Regla 4.". A
    provision of a text without articles (an order, a resolution, a circular), at an
    article's rank there; a text with articles never has one."""
    stripped = title.strip()
    return len(stripped) <= _PLAIN_MAX and (
        _ORDINAL_APARTADO.fullmatch(stripped) is not None
        or _NUMBERED_APARTADO.fullmatch(stripped) is not None
    )


#: A treaty's or a code's PARTE: "PARTE VI. Disposiciones finales", "SEXTA PARTE. Otras
#: disposiciones", "PARTE PRIMERA".
_PARTE: Final = re.compile(
    rf"(?:parte\s+(?:{ROMAN}|{ORDINAL}|\d+)|{ORDINAL}\s+parte){_END}", re.IGNORECASE
)


def parte_heading(title: str) -> bool:
    """Whether a heading's title is a treaty's or a code's PARTE, the division above its
    TÍTULOs or articles. No unit of ``UNITS``: as one, a "Parte II. Condiciones del
    reembolso…" quoted inside a budget law's article closed its TÍTULO I
    (BOE-A-2002-25412), so a PARTE stands where its heading's marks put it."""
    return _PARTE.match(title.strip().strip(_EMPHASIS + "[]").strip()) is not None


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
    """Whether a heading's title is a note in parentheses ("(Derogado)", "**(Suprimido)**",
    "(Artículos 51 al 72)"): what the BOE prints under a unit's heading, text of that
    unit, never a section of a law."""
    stripped = title.strip().strip(_EMPHASIS).strip()
    return len(stripped) > 2 and stripped[0] == "(" and stripped[-1] == ")"


DisposicionKind = Literal["adicional", "transitoria", "derogatoria", "final"]
_KIND: Final = re.compile(
    r"disposici(?:[óo]n|ones)\s+(adicional|transitoria|derogatoria|final)", re.IGNORECASE
)


def disposicion_kind(title: str) -> DisposicionKind | None:
    """The kind of a disposición or of its group ("DISPOSICIONES TRANSITORIAS":
    ``"transitoria"``), or ``None``: a disposición of another kind closes a group."""
    found = _KIND.match(title.strip().strip("[]").strip())
    if found is None:
        return None
    kind = found.group(1).lower()
    assert kind in ("adicional", "transitoria", "derogatoria", "final")
    return kind  # type: ignore[return-value]


#: Emphasis marks a heading's title may open with ("*«Sección 1.ª…*").
_EMPHASIS: Final = "*_ "


def quoted(title: str) -> bool:
    """Whether a heading's title opens with a quotation mark (``QUOTE_OPEN``): the
    heading of amended text quoted in an amending law, never a unit of the law itself."""
    return title.strip().lstrip(_EMPHASIS)[:1] in QUOTE_OPEN


_ORDINAL_ARTICLE: Final = re.compile(rf"art[íi]culo\s+{WORD_NUMBER}{_END}", re.IGNORECASE)


def ordinal_article(title: str) -> bool:
    """Whether a heading is an article numbered by an ordinal word ("Artículo tercero.",
    "Artículo único."), as an amending law numbers its own articles."""
    return _ORDINAL_ARTICLE.match(title.strip()) is not None


#: An article's heading line of a text with one line per paragraph: its number, any
#: multiplier (the BOE's own spellings too: "140 cuarter", "140 quinque"), a period.
ARTICLE_LINE: Final = re.compile(r"Art[íi]culo\s+(?:\d+(?:\s+[a-z]+)?|[úu]nico)\.(?:\s|$)")


#: A formula's signs: "C = B.i. x T", a product's sign, a sum, a root, an inequality.
_FORMULA_SIGN: Final = re.compile(r"[=×∑√≤≥]")  # noqa: RUF001 - the multiplication sign
#: A table's unit line: "Miles de euros", "(Miles de pesetas)", "Euros", "Porcentaje".
_TABLE_UNIT: Final = re.compile(
    r"\(?(?:(?:miles|millones)\s+de\s+)?(?:euros|pesetas|€|%|porcentajes?|importes?)\)?\.?",
    re.IGNORECASE,
)
#: An amount: thousands or decimals marked ("1.234", "0,95"), or a number and its unit.
_AMOUNT: Final = re.compile(
    r"[-+]?(?:(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+,\d+)(?:\s*(?:€|euros|pesetas|%))?"
    r"|\d+\s*(?:€|euros|pesetas|%))\.?",
    re.IGNORECASE,
)
#: A run of figures: "37, 220, 404, ........ 412.359." (a comma and three numbers at least).
_FIGURES: Final = re.compile(
    r"(?=.*,)(?:[\s.,;()%€+\-\u2013\u2026]*\d+){3}[\d\s.,;()%€+\-\u2013\u2026]*"
)


def formula_line(title: str) -> bool:
    """Whether a heading's title is a formula, a table's unit line, an amount, a run of
    figures or a separator ("k = N / n", "Miles de euros", "1.234,56 euros", "37, 220,
    404", "***"): a line the source marks as a heading for its centring, text all the
    same. A legal unit's title never is one."""
    if title.strip() and not any(character.isalnum() for character in title):
        return True  # signs alone: a separator ("### ***", "* * *")
    stripped = title.strip().strip("|*_ ").strip()
    if not stripped or legal_unit(stripped) is not None:
        return False
    return bool(
        _FORMULA_SIGN.search(stripped)
        or _TABLE_UNIT.fullmatch(stripped)
        or _AMOUNT.fullmatch(stripped)
        or _FIGURES.fullmatch(stripped)
    )
