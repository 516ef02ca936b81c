"""Generated Spanish laws as the BOE's web site shows them: a consolidated page's markup
(``consolidated_page``) and that page saved as text, as a browser copies it
(``saved_as_text``), with the section path each article and disposición must get.

A law is TÍTULOs (number and name), each with articles directly or in CAPÍTULOs; an
article may quote the provisions it amends («Artículo 20. …»); disposiciones close it.
Around it the site's chrome: header and footer, the disclaimer, the version shown, the
version and jump menus, a block marker before and "Subir" after each block.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from hypothesis import strategies as st

__all__ = ["CHROME_WORDS", "BoeLaw", "boe_laws", "consolidated_page", "saved_as_text"]

#: What no chunk of a BOE page may hold: the site's chrome around the law.
CHROME_WORDS = (
    "Subir",
    "[Bloque",
    "Seleccionar redacción",
    "Legislación consolidada",
    "Este texto consolidado",
    "Texto consolidado:",
    "Seleccionar apartado",
    "Ir a contenido",
    "Aviso legal",
)

_ROMAN = ("I", "II", "III", "IV", "V", "VI")
_ORDINALS = ("primera", "segunda", "tercera")
_NAMES = ("Hecho imponible", "Exenciones", "Base imponible", "Sujetos pasivos", "Tipos")
_WORDS = ("el", "impuesto", "grava", "la", "renta", "de", "los", "contribuyentes", "cuota")


@dataclass(frozen=True, slots=True)
class Article:
    """An article: its heading, its paragraphs, the provisions it quotes (heading and
    paragraphs each, the heading with its opening «, the last paragraph closing »)."""

    heading: str
    paragraphs: tuple[str, ...]
    quoted: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class Group:
    """A TÍTULO or CAPÍTULO: its number line, its name, and what it holds."""

    number: str
    name: str
    articles: tuple[Article, ...] = ()
    chapters: tuple[Group, ...] = ()

    @property
    def title(self) -> str:
        """The one title its number and name make."""
        return f"{self.number}. {self.name}"


@dataclass(frozen=True, slots=True)
class BoeLaw:
    title: str
    titles: tuple[Group, ...]
    disposiciones: tuple[Article, ...]

    def expected_paths(self) -> list[tuple[str, ...]]:
        """Each article's and disposición's path, in order. A quoted provision is text of
        the article quoting it, never a section (issue 49)."""
        paths: list[tuple[str, ...]] = []

        def article(above: tuple[str, ...], item: Article) -> None:
            paths.append((*above, item.heading))

        for titulo in self.titles:
            for item in titulo.articles:
                article((self.title, titulo.title), item)
            for chapter in titulo.chapters:
                for item in chapter.articles:
                    article((self.title, titulo.title, chapter.title), item)
        for item in self.disposiciones:
            article((self.title,), item)
        return paths


_sentences = st.lists(st.sampled_from(_WORDS), min_size=4, max_size=12).map(
    lambda words: " ".join(words).capitalize() + "."
)
_paragraphs = st.lists(_sentences, min_size=1, max_size=3).map(tuple)


@st.composite
def _article(draw: st.DrawFn, number: int) -> Article:
    name = draw(st.sampled_from(_NAMES))
    quoted = draw(st.lists(st.integers(20, 99), max_size=2, unique=True))
    return Article(
        f"Artículo {number}. {name}.",
        draw(_paragraphs),
        tuple(
            (f"«Artículo {n}. {draw(st.sampled_from(_NAMES))}.", (*draw(_paragraphs), "Fin.»"))
            for n in quoted
        ),
    )


@st.composite
def boe_laws(draw: st.DrawFn) -> BoeLaw:
    """A law of one to three TÍTULOs, their articles numbered in order, and one or two
    disposiciones finales (a law has two articles or disposiciones at least)."""
    counter = iter(range(1, 1000))
    titles = []
    for roman in _ROMAN[: draw(st.integers(1, 3))]:
        name = draw(st.sampled_from(_NAMES))
        if draw(st.booleans()):
            chapters = tuple(
                Group(
                    f"CAPÍTULO {chapter}",
                    draw(st.sampled_from(_NAMES)),
                    tuple(draw(_article(next(counter))) for _ in range(draw(st.integers(1, 3)))),
                )
                for chapter in _ROMAN[: draw(st.integers(1, 2))]
            )
            titles.append(Group(f"TÍTULO {roman}", name, chapters=chapters))
        else:
            articles = tuple(draw(_article(next(counter))) for _ in range(draw(st.integers(1, 3))))
            titles.append(Group(f"TÍTULO {roman}", name, articles))
    disposiciones = tuple(
        Article(f"Disposición final {ordinal}. Entrada en vigor.", draw(_paragraphs))
        for ordinal in _ORDINALS[: draw(st.integers(1, 2))]
    )
    number = draw(st.integers(1, 99))
    return BoeLaw(f"Ley {number}/2024, de 1 de julio, del Impuesto.", tuple(titles), disposiciones)


# -- the consolidated page's markup ------------------------------------------------------------


def _blocks(law: BoeLaw) -> list[list[str]]:
    """The law's blocks as the BOE cuts it: (heading lines, paragraphs) per block, a
    group's number and name one block, each article one."""

    def article(item: Article) -> list[str]:
        lines = [f'<h5 class="articulo">{escape(item.heading)}</h5>']
        lines += [f'<p class="parrafo">{escape(p)}</p>' for p in item.paragraphs]
        for heading, paragraphs in item.quoted:
            lines.append('<blockquote class="sangrado">')
            lines.append(f'<h5 class="articulo">{escape(heading)}</h5>')
            lines += [f'<p class="parrafo">{escape(p)}</p>' for p in paragraphs]
            lines.append("</blockquote>")
        return lines

    def group(kind: str, item: Group) -> list[str]:
        return [
            f'<h4 class="{kind}_num">{escape(item.number)}</h4>',
            f'<h4 class="{kind}_tit">{escape(item.name)}</h4>',
        ]

    blocks: list[list[str]] = []
    for titulo in law.titles:
        blocks.append(group("titulo", titulo))
        blocks += [article(item) for item in titulo.articles]
        for chapter in titulo.chapters:
            blocks.append(group("capitulo", chapter))
            blocks += [article(item) for item in chapter.articles]
    blocks += [article(item) for item in law.disposiciones]
    return blocks


_VERSIONS = (
    '<form class="lista formBOE" method="GET"><fieldset>'
    '<legend class="fuera">Seleccionar redacción:</legend><p>'
    '<input type="radio" name="p" value="20240101" checked="checked"/>'
    "<label>Última actualización, publicada el 01/01/2024.</label></p></fieldset></form>"
)


def consolidated_page(law: BoeLaw) -> str:
    """The law as the BOE's consolidated page (``act.php``) gives it."""
    blocks = "".join(
        f'<div class="bloque" id="b{n}"><p class="bloque">[Bloque {n}: #b{n}]</p>'
        + "".join(lines)
        + _VERSIONS
        + '</div><p class="linkSubir"><a href="#top">Subir</a></p><hr class="bloque"/>'
        for n, lines in enumerate(_blocks(law), start=2)
    )
    return (
        '<html><body><div id="header"><a href="#contenido">Ir a contenido</a></div>'
        '<div id="contenido"><div class="titulo-wrapper"><h2>Legislación consolidada'
        '<span class="tooltiptext">Este texto consolidado es de carácter informativo.</span>'
        '</h2></div><div id="barraSep"><h3 class="documento-tit">'
        f"{escape(law.title)}</h3>"
        '<div class="redaccion"><label><span>Seleccionar redacción: </span></label>'
        '<ul id="lista-versiones"><li><a>Última actualización publicada el 01/01/2024</a></li>'
        "</ul></div></div>"
        '<div id="textoxslt"><h3>Texto consolidado<span class="subtitMostrado">: «Última '
        "actualización, publicada el 01/01/2024»</span></h3>"
        '<div class="marcadores"><label><span>Ir a: </span></label>'
        '<ul id="lista-marcadores"><li><a href="#b2">Título I</a></li></ul></div>'
        f"{blocks}</div></div>"
        '<div id="pie"><a>Aviso legal</a></div></body></html>'
    )


# -- the page saved as text --------------------------------------------------------------------


def _text_lines(markup_lines: list[str]) -> list[str]:
    """The text of each line of markup (a blockquote's tags give none)."""
    from html import unescape
    from re import sub

    return [text for line in markup_lines if (text := unescape(sub(r"<[^>]+>", "", line)))]


def saved_as_text(law: BoeLaw) -> str:
    """The page as a browser's "save as text" or ``innerText`` gives it: one line per
    paragraph, no blank lines, the site's navigation and footer around the law."""
    lines = [
        "Ir a contenido",
        "Agencia Estatal Boletín Oficial del Estado",
        "Está Vd. en Inicio Buscar Documento consolidado",
        "Legislación consolidada",
        "Este texto consolidado es de carácter informativo.",
        law.title,
        "Seleccionar redacción:",
        "Última actualización publicada el 01/01/2024",
        "Texto consolidado: «Última actualización, publicada el 01/01/2024»",
        "Ir a:",
        "Seleccionar apartado",
    ]
    for n, block in enumerate(_blocks(law), start=2):
        lines.append(f"[Bloque {n}: #b{n}]")
        lines += _text_lines(block)
        lines += ["Seleccionar redacción:", "Última actualización, publicada el 01/01/2024."]
        lines.append("Subir")
    lines += ["Contactar", "Sobre la sede electrónica", "Aviso legal", "Accesibilidad"]
    return "\n".join(lines) + "\n"
