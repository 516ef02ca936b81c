"""Spanish laws written in every style the BOE and legalize-es write them, with the chain of
units each paragraph of text belongs to known in advance (issue 49, "Done when" 6).

A law is drawn as a tree (TÍTULO > CAPÍTULO > Sección > Artículo, disposiciones, ANEXOs;
or a one-article law: Artículo único and Disposición final única) and written out as
legalize-es writes a law (front matter with ``title:``, the title as a ``#`` heading),
each heading in one of the styles found in the wild:

* **plain lines** ("CAPÍTULO I", its name on the next line; "Artículo 1. Objeto."),
  **Markdown** headings ("### CAPÍTULO I", or its name as a heading of its own), or both
  mixed in one law;
* NBSP and em spaces inside a heading ("Artículo\\u00a01.\\u2003Objeto."), emphasis
  ("*Sección 1.ª*", "**Artículo 3.** Objeto."), "Art. 5.", code-style numbers
  ("Artículo 511-1.", "Artículo 4.11-1"), suffixes ("Artículo 106 quáter.", "Artículo
  2.bis.", "TÍTULO I bis"), Secciones spelled "Sección primera.", "Sección 1.ª", "Sección
  1.a", "Sección 1.";
* amending articles quoting the amended text, the quotation closed, closed with the wrong
  mark, or left open, and the law's own next article after it;
* headings longer than 300 characters; ANEXO forms ("ANEXO", "ANEXO I", "ANEXO SEGUNDO",
  "Anexo III. Tarifas", "ANEXO" with its name on the next line);
* the instrucciones técnicas complementarias a reglamento annexes ("INSTRUCCIÓN IF-01",
  its name on the next line, then "### ÍNDICE" and its body; "## INSTRUCCIÓN TÉCNICA
  COMPLEMENTARIA ITC-RAT 01. TERMINOLOGÍA"; "ITC-BT-01" alone, then its name), their
  inner headings and their own ANEXO,
  and a norm cited as a paragraph of its own ("Instrucción 3/2005, de 7 de abril, …"),
  which is text.

Every paragraph of text holds a unique marker (``marker(n)``: "n.º 7"), so a test finds the
section a paragraph fell in and compares its path with the chain written. Path elements
compare modulo emphasis and the kind of space (``norm``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hypothesis import strategies as st

NBSP, EM = "\u00a0", "\u2003"
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
ORDINAL_M = ("primero", "segundo", "tercero", "cuarto", "quinto", "sexto", "séptimo",
             "octavo", "noveno", "décimo")  # fmt: skip
#: Article ordinals up to the thirtieth ("decimotercero", "vigésimo primero").
ARTICLE_ORDINALS = (
    *ORDINAL_M,
    "undécimo",
    "duodécimo",
    *(f"decimo{word}" for word in ("tercero", "cuarto", "quinto", "sexto", "séptimo",
                                   "octavo", "noveno")),
    "vigésimo",
    *(f"vigésimo {word}" for word in ORDINAL_M[:9]),
    "trigésimo",
)  # fmt: skip
ORDINAL_F = tuple(word[:-1] + "a" for word in ORDINAL_M)
NAMES = (
    "Disposiciones generales",
    "De la protección del dominio público hidráulico",
    "Régimen económico y financiero de la Compañía",
    "Del año fiscal y de la señalización",
    "Objeto, ámbito y definiciones",
    "De las tasas por inspección en €",
)
LONG_NAME = (
    "Del procedimiento de elaboración, tramitación, aprobación y publicación de las "
    "disposiciones de carácter general, de los anteproyectos de ley y de los proyectos de "
    "decreto legislativo, con la participación de la ciudadanía, de las entidades locales "
    "de Euskadi, de Navarra y de Andalucía, y de los órganos consultivos de la Comunidad "
    "Autónoma, en español y en euskera"
)
assert len(LONG_NAME) > 300


def marker(number: int) -> str:
    """A paragraph of text, unique by ``number``: accents, ñ and € included; two
    sentences, so that no reader takes it for a unit's name (a one-sentence paragraph
    right after "ANEXO" is read as its name: see ``test_generated_laws``)."""
    return (
        f"El contribuyente n.º {number} de Logroño abonará {number},50 € en España. "
        "La Administración lo comprobará, según el año."
    )


def norm(title: str) -> str:
    """A path element modulo emphasis and the kind of space ("*Sección 1.*. Name", as
    the library now joins an emphasised number and its name, reads "Sección 1. Name":
    see test_generated_laws' xfail)."""
    return " ".join(title.replace("*", "").replace("_", " ").split()).replace(".. ", ". ")


@dataclass
class WrittenLaw:
    """A generated law: its file's text, its title, and for each paragraph of text (by
    its marker number) the path the section holding it must have."""

    title: str
    style: str
    lines: list[str] = field(default_factory=list)
    chains: dict[int, tuple[str, ...]] = field(default_factory=dict)
    #: The headings of quoted amended text: never a path element.
    quoted_headings: list[str] = field(default_factory=list)
    #: The markers of quoted text, each with the path of the article quoting it.
    quoted_markers: dict[int, tuple[str, ...]] = field(default_factory=dict)
    counter: int = 0

    @property
    def text(self) -> str:
        front = f'---\ntitle: "{self.title}"\nidentifier: "BOE-A-2024-1"\nrank: "ley"\n---\n'
        return front + "\n\n".join([f"# {self.title}", *self.lines]) + "\n"

    def paragraph(self, chain: tuple[str, ...]) -> None:
        self.counter += 1
        self.lines.append(marker(self.counter))
        self.chains[self.counter] = (self.title, *chain)


@dataclass(frozen=True)
class Heading:
    """A heading as drawn: its label ("CAPÍTULO III", "Artículo 5."), the name after it
    ("" for none), whether the name goes on the next line, how it is marked."""

    label: str
    name: str = ""
    next_line: bool = False


def _element(heading: Heading) -> str:
    """The path element the library gives a heading (see ``structure.legal._named``)."""
    if not heading.name:
        return heading.label
    if heading.next_line:
        return f"{heading.label.rstrip(' .:')}. {heading.name}"
    return f"{heading.label} {heading.name}"


_LEVELS = {"título": 2, "capítulo": 3, "sección": 4, "artículo": 5, "disposición": 5,
           "grupo": 3, "anexo": 2, "preámbulo": 3, "instrucción": 2}  # fmt: skip


@st.composite
def _decorate(draw: st.DrawFn, text: str, kind: str) -> str:
    """NBSP after a unit's word (the em space before an article's name: ``_write``)."""
    if kind in ("artículo", "sección", "capítulo") and draw(st.booleans()):
        text = text.replace(" ", NBSP, 1)
    return text


@st.composite
def _write(draw: st.DrawFn, law: WrittenLaw, heading: Heading, kind: str) -> str:
    """Writes ``heading`` in the law's style; returns its path element."""
    style = law.style if law.style != "mixed" else draw(st.sampled_from(["plain", "markdown"]))
    label = draw(_decorate(heading.label, kind))
    name = heading.name
    marks = "#" * _LEVELS[kind] + " " if style == "markdown" else ""
    if style == "plain" and kind in ("sección", "artículo") and draw(st.integers(0, 3)) == 0:
        label = f"*{label}*" if kind == "sección" else f"**{label}**"  # emphasis
    if name and heading.next_line:
        law.lines.append(marks + label)
        law.lines.append(marks + name)
    elif name:
        space = EM if kind == "artículo" and draw(st.booleans()) else " "
        law.lines.append(marks + label + space + name)
    else:
        law.lines.append(marks + label)
    return _element(heading)


_ARTICLE_NAMES = ("Objeto.", "Ámbito de aplicación.", "Definiciones.", "Régimen de las tasas.",
                  "Señalización y año fiscal.", "Infracciones y sanciones.")  # fmt: skip


@st.composite
def _article_labels(draw: st.DrawFn, count: int) -> list[str]:
    """``count`` article labels numbered in one scheme, in order."""
    scheme = draw(
        st.sampled_from(["arabic", "art", "code", "code-dotted", "ordinal", "suffixes", "upper"])
    )
    labels: list[str] = []
    number = 1
    while len(labels) < count:
        if scheme == "arabic":
            labels.append(f"Artículo {number}.")
        elif scheme == "upper":
            labels.append(f"ARTÍCULO {number}.")
        elif scheme == "art":
            labels.append(f"Art. {number}.")
        elif scheme == "code":
            labels.append(f"Artículo 511-{number}.")
        elif scheme == "code-dotted":
            labels.append(f"Artículo 4.11-{number}")
        elif scheme == "ordinal":
            labels.append(f"Artículo {ARTICLE_ORDINALS[number - 1]}.")
        else:
            labels.append(f"Artículo {number}.")
            if len(labels) < count and draw(st.booleans()):
                suffix = draw(st.sampled_from([" bis.", ".bis.", " quáter.", "-bis.", " ter."]))
                labels.append(f"Artículo {number}{suffix}")
        number += 1
    return labels


_SECCIONES = ("Sección {roman}.", "Sección {ordinal}.", "Sección {n}.ª", "Sección {n}.a",
              "Sección {n}.")  # fmt: skip


@st.composite
def _quotation(draw: st.DrawFn, law: WrittenLaw, chain: tuple[str, ...]) -> None:
    """An amending article's text: a lead-in, then quoted amended text whose marks are
    closed, closed with the wrong character, or left open."""
    law.paragraph(chain)  # the lead-in
    law.lines[-1] += " Se modifica la Ley 9/1999, que queda redactada así:"
    opening = draw(st.sampled_from(["«", "“", '"']))
    number = draw(st.integers(200, 299))
    quoted_heading = f"{opening}Artículo {number}. Hecho imponible."
    law.lines.append(quoted_heading)
    law.quoted_headings.append(quoted_heading)
    # No ANEXO: a quoted first ANEXO ends the quotation (see test_generated_laws' xfail).
    inner = draw(st.sampled_from(["", "CAPÍTULO IV", "TÍTULO II. De las tasas", "Sección 2.ª"]))
    closing = draw(st.sampled_from(["»", "”", "ˮ", "", "»»"]))
    # Left open, a quoted unit's number and one paragraph right before the law's next unit
    # read as the law's own unit and its name (both readers, library and oracle, agree).
    if inner and closing:
        law.lines.append(inner)
        law.quoted_headings.append(inner)
    law.counter += 1
    # Quoted text that no reader takes for a unit's name: two sentences.
    body = f"{marker(law.counter)} Y así se aplica"
    law.quoted_markers[law.counter] = (law.title, *chain)
    law.lines.append(body + "." + closing)


@st.composite
def laws(draw: st.DrawFn) -> WrittenLaw:
    """A law in one writing style, with the chain of every paragraph."""
    number, year = draw(st.integers(1, 30)), draw(st.integers(1990, 2024))
    subject = draw(st.sampled_from(["de tasas y precios públicos", "del año de la señalización",
                                    "de la Compañía de Aguas de Logroño"]))  # fmt: skip
    title = f"Ley {number}/{year}, de {number} de marzo, {subject}"
    law = WrittenLaw(title, draw(st.sampled_from(["plain", "markdown", "mixed"])))
    law.paragraph(())  # the promulgation
    if draw(st.booleans()):
        element = draw(_write(law, Heading("EXPOSICIÓN DE MOTIVOS"), "preámbulo"))
        law.paragraph((element,))
    if draw(st.integers(0, 4)) == 0:
        _one_article(draw, law)
    else:
        _articulado(draw, law)
    _annexes(draw, law)
    if draw(st.integers(0, 2)) == 0:
        _instrucciones(draw, law)
    return law


def _one_article(draw: st.DrawFn, law: WrittenLaw) -> None:
    """Artículo único and Disposición final única: a law of one article."""
    article = draw(_write(law, Heading("Artículo único.", "Modificación de la Ley 9/1999."),
                          "artículo"))  # fmt: skip
    if draw(st.booleans()):
        draw(_quotation(law, (article,)))
    else:
        law.paragraph((article,))
    final = draw(
        _write(law, Heading("Disposición final única.", "Entrada en vigor."), "disposición")
    )
    law.paragraph((final,))


def _articulado(draw: st.DrawFn, law: WrittenLaw) -> None:
    shape = [
        [draw(st.integers(1, 2)) for _ in range(draw(st.integers(0, 2)))]  # secciones' articles
        for _ in range(draw(st.integers(1, 2)))  # capítulos
    ]
    titulos = draw(st.integers(0, 2))
    drawn = draw(_article_labels(30))
    labels = iter(drawn)
    # A code-style law ("511-1") never quotes here: a quotation left open in it runs over
    # its next articles (see test_generated_laws' xfail).
    quoting = draw(st.booleans()) and "-" not in drawn[0].rstrip("-bis.")

    def articles(chain: tuple[str, ...], how_many: int) -> None:
        nonlocal quoting
        for _ in range(how_many):
            name = draw(st.sampled_from(_ARTICLE_NAMES))
            if draw(st.integers(0, 6)) == 0:
                name = LONG_NAME + "."
            element = draw(_write(law, Heading(next(labels), name), "artículo"))
            if quoting:
                draw(_quotation(law, (*chain, element)))
                quoting = False
            else:
                law.paragraph((*chain, element))

    def capitulos(chain: tuple[str, ...]) -> None:
        for index, secciones in enumerate(shape):
            heading = _named_heading(draw, f"CAPÍTULO {ROMAN[index]}")
            capitulo = (*chain, draw(_write(law, heading, "capítulo")))
            if not secciones:
                articles(capitulo, draw(st.integers(1, 2)))
            for position, how_many in enumerate(secciones):
                spelling = draw(st.sampled_from(_SECCIONES)).format(
                    roman=ROMAN[position],
                    ordinal=ORDINAL_F[position],
                    n=position + 1,
                )
                name = draw(st.sampled_from(["", *NAMES]))
                heading = Heading(spelling, name, next_line=bool(name) and draw(st.booleans()))
                seccion = (*capitulo, draw(_write(law, heading, "sección")))
                articles(seccion, how_many)

    if titulos == 0:
        capitulos(())
    for index in range(titulos):
        label = f"TÍTULO {ROMAN[index]}" + (" bis" if index == 1 and draw(st.booleans()) else "")
        if index == 0 and draw(st.booleans()):
            label = "TÍTULO PRELIMINAR"
        titulo = (draw(_write(law, _named_heading(draw, label), "título")),)
        capitulos(titulo)
    _disposiciones(draw, law)


def _named_heading(draw: st.DrawFn, label: str) -> Heading:
    name = draw(st.sampled_from([*NAMES, LONG_NAME]))
    if draw(st.integers(0, 3)) == 0:
        return Heading(label)  # a number alone
    next_line = draw(st.booleans())
    return Heading(label if next_line else f"{label}.", name, next_line)


_KINDS = (("adicional", "ADICIONALES"), ("transitoria", "TRANSITORIAS"),
          ("derogatoria", "DEROGATORIAS"), ("final", "FINALES"))  # fmt: skip


def _disposiciones(draw: st.DrawFn, law: WrittenLaw) -> None:
    grouped = draw(st.booleans())
    for kind, group in _KINDS:
        count = draw(st.integers(0, 2)) if kind != "final" else draw(st.integers(1, 2))
        if not count:
            continue
        chain: tuple[str, ...] = ()
        if grouped:
            chain = (draw(_write(law, Heading(f"DISPOSICIONES {group}"), "grupo")),)
        for index in range(count):
            ordinal = ORDINAL_F[index] if count > 1 else "única"
            heading = Heading(f"Disposición {kind} {ordinal}.", "Régimen del año.")
            element = draw(_write(law, heading, "disposición"))
            law.paragraph((*chain, element))


def _annexes(draw: st.DrawFn, law: WrittenLaw) -> None:
    forms = draw(st.sampled_from(["", "ANEXO", "numbered", "words", "named"]))
    if not forms:
        return
    count = 1 if forms == "ANEXO" else draw(st.integers(1, 3))
    for index in range(count):
        if forms == "ANEXO":
            heading = Heading("ANEXO")
        elif forms == "numbered":
            heading = Heading(f"ANEXO {ROMAN[index]}")
        elif forms == "words":
            heading = Heading(f"ANEXO {ORDINAL_M[index].upper()}")
        else:
            heading = Heading(f"Anexo {ROMAN[index]}.", "Tarifas en €")
        if forms != "named" and draw(st.booleans()):
            heading = Heading(heading.label, "Modelo de declaración", next_line=True)
        element = draw(_write(law, heading, "anexo"))
        # Two paragraphs: a unit's one paragraph right before the next heading, or at the
        # law's end, is read as its name (see test_generated_laws, the xfail).
        law.paragraph((element,))
        law.paragraph((element,))


#: How the instrucciones técnicas of a reglamento are labelled, numbered by ``{n}``.
_INSTRUCCIONES = ("INSTRUCCIÓN IF-{n:02d}", "INSTRUCCIÓN TÉCNICA COMPLEMENTARIA ITC-RAT {n:02d}",
                  "INSTRUCCIÓN TÉCNICA COMPLEMENTARIA NÚMERO {n}",
                  "INSTRUCCIÓN TÉCNICA COMPLEMENTARIA MIE APQ-{n}",
                  "Instrucción técnica complementaria 12.0.{n:02d}",
                  "INSTRUCCIÓN TÉCNICA COMPLEMENTARIA ITC EP\u2013{n}",
                  "ITC-BT-{n:02d}")  # fmt: skip
_INSTRUCCION_NAMES = ("TERMINOLOGÍA", "Clasificación de los refrigerantes",
                      "MEDIDAS DE PREVENCIÓN Y DE PROTECCIÓN PERSONAL")  # fmt: skip
#: A norm cited alone in its paragraph: text, never an instrucción.
CITED_INSTRUCCION = "Instrucción 3/2005, de 7 de abril, de la Junta Electoral Central."


def _instrucciones(draw: st.DrawFn, law: WrittenLaw) -> None:
    """The instrucciones técnicas complementarias a reglamento annexes, after the law's
    own units: each closes what came before it; its name on the next line or after a
    period; a table of contents ("### ÍNDICE"), its body under an inner heading, perhaps
    its own ANEXO, which hangs below it."""
    label = draw(st.sampled_from(_INSTRUCCIONES))
    for number in range(1, draw(st.integers(1, 3)) + 1):
        name = draw(st.sampled_from(_INSTRUCCION_NAMES))
        # an abbreviation heads a line alone: its name goes on the next line
        next_line = label.startswith("ITC") or draw(st.booleans())
        heading = Heading(label.format(n=number) + ("" if next_line else "."), name, next_line)
        instruccion = draw(_write(law, heading, "instrucción"))
        law.lines.append("### ÍNDICE")
        law.paragraph((instruccion, "ÍNDICE"))  # the table of contents
        law.lines.append("### 1. Objeto")
        law.paragraph((instruccion, "1. Objeto"))
        if draw(st.booleans()):
            law.lines.append(CITED_INSTRUCCION)
            law.paragraph((instruccion, "1. Objeto"))
        if draw(st.booleans()):
            annex = draw(_write(law, Heading("ANEXO I"), "anexo"))
            law.paragraph((instruccion, annex))
            law.paragraph((instruccion, annex))


def section_of(sections: list[object], offset: int) -> object:
    """The section (``SectionSpan``) holding ``offset``."""
    found = [s for s in sections if s.start <= offset < s.end]  # type: ignore[attr-defined]
    assert len(found) == 1, offset
    return found[0]


def marker_offset(text: str, number: int) -> int:
    found = re.search(rf"n\.º {number} de Logroño", text)
    assert found is not None
    return found.start()
