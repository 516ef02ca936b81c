"""Web pages as text: ``structure.html.extract_html`` on tables of small pages, on the two
BOE pages of ``corpus/html/`` (saved whole by a browser, site navigation included), and on
generated markup (every text node of the content is in the text, in order)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_asesoria.errors import DocumentReadError, MissingDependencyError
from langchain_asesoria.reading import read_document
from langchain_asesoria.structure.headings import Heading
from langchain_asesoria.structure.html import (
    CELL_SEPARATOR,
    ROW_SEPARATOR,
    HtmlTable,
    extract_html,
    looks_like_markup,
)

etree = pytest.importorskip("lxml.etree", reason="the html extra: pip install '.[html]'")

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "corpus" / "html").glob("*.html"))
_SPACE = re.compile(r"[ \t\n\r\f]+")

#: What only the BOE's site navigation holds (language menu, breadcrumbs, back-to-top
#: links, version selectors, block markers, the ANÁLISIS block, format links).
NAVIGATION = (
    "Idioma actual",
    "Castellano / es",
    "Está Vd. en",
    "Subir",
    "subir",
    "Seleccionar redacción",
    "[Bloque",
    "ANÁLISIS",
    "Referencias anteriores",
    "Otros formatos",
    "Ver texto consolidado",
    "Aviso legal",
)


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip(" ")


def _visible_characters(text: str) -> str:
    return "".join(character for character in text if not character.isspace())


def page(body: str) -> str:
    return f"<!DOCTYPE html><html><head><title>T</title></head><body>{body}</body></html>"


# -- rendering ---------------------------------------------------------------------------------

RENDERED = [
    pytest.param("<p>Uno.</p><p>Dos.</p>", "Uno.\n\nDos.", id="blocks-by-a-blank-line"),
    pytest.param(
        "<p>impues<b>to</b> sobre <i>la</i>renta</p>", "impuesto sobre larenta", id="inline"
    ),
    pytest.param("<p>  Base\n\t liquidable   </p>", "Base liquidable", id="whitespace-collapsed"),
    pytest.param(
        "<p>Art&iacute;culo 1.&nbsp;Objeto &euro; &amp; &lt;a&gt; &#128512;</p>",
        "Artículo 1.\u00a0Objeto € & <a> 😀",
        id="entities-decoded-no-break-space-kept",
    ),
    pytest.param("<p>Línea uno<br>línea <br/> dos</p>", "Línea uno\nlínea\ndos", id="br"),
    pytest.param("<p>Uno</p><p>&nbsp;</p><p>Dos</p>", "Uno\n\nDos", id="spacer-paragraph"),
    pytest.param("<pre>  a  b\n   c</pre><p>d</p>", "  a  b\n   c\n\nd", id="pre-kept"),
    pytest.param("<div>antes<p>dentro</p>después</div>", "antes\n\ndentro\n\ndespués", id="nested"),
    pytest.param("<ul><li>a)</li><li>b) <span>dos</span></li></ul>", "a)\n\nb) dos", id="list"),
    pytest.param(
        "<p>Texto<!-- comentario --> seguido</p><script>var x;</script><style>p{}</style>"
        "<noscript>Active JavaScript</noscript><p hidden>oculto</p>",
        "Texto seguido",
        id="not-rendered-never-text",
    ),
    pytest.param(
        "<table><tr><th>Base</th><th>Tipo</th></tr><tr><td>0</td><td><p>0,20</p>"
        "<p>%</p></td></tr><tr><td></td><td>&nbsp;</td><td>sigue</td></tr></table>",
        "Base | Tipo\n0 | 0,20 %\nsigue",
        id="table-rows-one-line-empty-cells-left-out",
    ),
    pytest.param(
        "<table><tr><td>Provincias</td><td><table><tr><td>ÁVILA.</td><td>05</td></tr>"
        "<tr><td>CÁDIZ.</td><td>11</td></tr></table></td></tr></table>",
        "Provincias | ÁVILA. | 05; CÁDIZ. | 11",
        id="table-in-a-cell-stays-one-line",
    ),
]


@pytest.mark.parametrize(("body", "expected"), RENDERED)
def test_rendering(body: str, expected: str) -> None:
    assert extract_html(page(body), main_content=False).text == expected


HEADINGS = [
    pytest.param(
        "<h3>Ley</h3><h4>TÍTULO I</h4><h5>Artículo 1.</h5><p>Texto.</p><h5>Vacío</h5>",
        [(3, "Ley", True), (4, "TÍTULO I", True), (5, "Artículo 1.", False), (5, "Vacío", True)],
        id="levels-and-bodies",
    ),
    pytest.param(
        "<h2>Artículo <b>5</b>.\n Objeto</h2><p>x</p>",
        [(2, "Artículo 5. Objeto", False)],
        id="inline",
    ),
    pytest.param("<h1></h1><h2> </h2><p>x</p>", [], id="empty-headings-give-none"),
    pytest.param(
        "<table><tr><td><h5>Celda</h5></td></tr></table><h6>Fin</h6>",
        [(6, "Fin", True)],
        id="a-heading-in-a-cell-is-cell-text",
    ),
]


@pytest.mark.parametrize(("body", "expected"), HEADINGS)
def test_headings(body: str, expected: list[tuple[int, str, bool]]) -> None:
    extracted = extract_html(page(body))
    assert [(h.level, h.title, h.body_is_empty) for h in extracted.headings] == expected
    for heading in extracted.headings:
        assert _norm(extracted.text[heading.start : heading.end]) == heading.title


def test_tables_know_where_their_header_rows_end() -> None:
    extracted = extract_html(
        page(
            "<p>Antes.</p><table><thead><tr><td>Posiciones</td><td>Naturaleza</td></tr></thead>"
            "<tbody><tr><td>9-17</td><td>Alfanumérico</td></tr></tbody></table>"
            "<table><tr><th>Año</th></tr><tr><th>Tipo</th></tr><tr><td>2024</td></tr></table>"
            "<table><tr><td>sin cabecera</td></tr></table>"
        )
    )
    text = extracted.text
    first, second, third = extracted.tables
    assert text[first.start : first.header_end] == "Posiciones | Naturaleza"
    assert text[first.start : first.end] == "Posiciones | Naturaleza\n9-17 | Alfanumérico"
    assert text[second.start : second.header_end] == "Año\nTipo"
    assert third == HtmlTable(third.start, third.end, third.start)
    assert text[third.start : third.end] == "sin cabecera"


# -- main content and what is left out -------------------------------------------------------

#: A BOE consolidated-law page (``act.php``) as its markup goes: blocks with a marker, a
#: version selector and a back-to-top link each; the site around the content.
CONSOLIDATED = page(
    '<div id="header"><a href="#contenido">Ir a contenido</a></div>'
    '<div id="top"><ul class="menu"><li>Idioma actual: Castellano / es</li>'
    "<li><a>English</a></li><li><a>Català</a></li></ul></div>"
    '<div id="contenedor"><div id="contenido">'
    '<h3 class="documento-tit">Ley 35/2006, del IRPF.</h3>'
    '<div id="textoxslt"><div class="bloque" id="a1">'
    '<p class="bloque">[Bloque 5: #a1]</p>'
    '<h5 class="articulo">Artículo 1. Naturaleza del Impuesto.</h5>'
    '<p class="parrafo">El Impuesto sobre la Renta de las Personas Físicas es un tributo.</p>'
    '<form class="lista formBOE" method="GET"><fieldset><legend>Seleccionar redacción:</legend>'
    "<select><option>Última actualización</option></select></fieldset></form>"
    '</div><p class="linkSubir"><a href="#top">Subir</a></p>'
    '<div class="bloque" id="a2"><p class="bloque">[Bloque 6: #a2]</p>'
    '<h5 class="articulo">Artículo 2. Objeto.</h5>'
    '<p class="parrafo">Constituye el objeto de este Impuesto la renta del contribuyente.</p>'
    '</div><p class="linkSubir"><a href="#top">Subir</a></p></div></div></div>'
    '<div id="pie"><a>Aviso legal</a></div>'
)


def test_a_consolidated_law_page_gives_the_law_and_lists_the_rest() -> None:
    extracted = extract_html(CONSOLIDATED)
    assert extracted.text == (
        "Ley 35/2006, del IRPF.\n\nArtículo 1. Naturaleza del Impuesto.\n\nEl Impuesto sobre "
        "la Renta de las Personas Físicas es un tributo.\n\nArtículo 2. Objeto.\n\n"
        "Constituye el objeto de este Impuesto la renta del contribuyente."
    )
    assert [(h.level, h.title) for h in extracted.headings] == [
        (3, "Ley 35/2006, del IRPF."),
        (5, "Artículo 1. Naturaleza del Impuesto."),
        (5, "Artículo 2. Objeto."),
    ]
    assert extracted.removed == (
        'outside the main content: div#header "Ir a contenido" (14 characters)',
        'outside the main content: div#top "Idioma actual: Castellano / es English Català" '
        "(45 characters)",
        'outside the main content: div#pie "Aviso legal" (11 characters)',
        'block marker: "[Bloque N: #…]" (2 times)',  # one line of its kind
        'form: "Seleccionar redacción: Última actualización"',
        'back-to-top link: "Subir" (2 times)',
    )


def test_the_whole_body_when_main_content_is_off() -> None:
    extracted = extract_html(CONSOLIDATED, main_content=False)
    assert extracted.removed == ()
    for marker in ("Idioma actual", "Subir", "[Bloque 5: #a1]", "Seleccionar redacción"):
        assert marker in extracted.text


CHROME = [
    pytest.param("<nav><a>Inicio</a></nav><p>Ley.</p>", 'navigation: "Inicio"', id="nav"),
    pytest.param(
        '<p>Ley.</p><div role="navigation">Menú</div>', 'navigation: "Menú"', id="role-navigation"
    ),
    pytest.param("<p>Ley.</p><aside>Ver también</aside>", 'aside: "Ver también"', id="aside"),
    pytest.param(
        "<header>Sede</header><p>Ley.</p><footer>Contacto</footer>",
        'page header or footer: "Sede"',
        id="header-footer",
    ),
    pytest.param(
        '<p>Ley.</p><span aria-hidden="true">★</span>',
        'text for screen readers only: "★"',
        id="aria-hidden",
    ),
    pytest.param(
        '<p>Ley.</p><div id="panelAnalisis"><h4>ANÁLISIS</h4><ul><li>Rango: Ley</li></ul></div>',
        'ANÁLISIS block: "ANÁLISIS Rango: Ley"',
        id="boe-analisis",
    ),
]


@pytest.mark.parametrize(("body", "first_removed"), CHROME)
def test_chrome_inside_the_content_is_left_out_and_listed(body: str, first_removed: str) -> None:
    extracted = extract_html(page(body))
    assert extracted.text == "Ley."
    assert extracted.removed[0] == first_removed


def test_the_main_element_is_the_content() -> None:
    extracted = extract_html(page("<div>Portada del sitio</div><main><p>Ley.</p></main>"))
    assert extracted.text == "Ley."
    assert extracted.removed == (
        'outside the main content: div "Portada del sitio" (17 characters)',
    )


def test_a_header_inside_an_article_is_content() -> None:
    extracted = extract_html(page("<article><header><h1>Ley</h1></header><p>x</p></article>"))
    assert extracted.text == "Ley\n\nx"


def test_without_lxml_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "lxml", None)
    with pytest.raises(MissingDependencyError, match=r"langchain-asesoria\[html\]"):
        extract_html("<p>Ley.</p>")


def test_markup_nested_deeper_than_the_parser_reads_is_refused_never_cut(tmp_path: Path) -> None:
    """libxml2 2.13 and later (lxml 6) stop at 2,048 levels: what was read is not given
    as the page, the reading fails naming the file. Older ones read it whole."""
    markup = page("<div>" * 3000 + "Artículo 1." + "</div>" * 3000 + "<p>Fin.</p>")
    path = tmp_path / "honda.html"
    path.write_text(markup, encoding="utf-8")
    parser = etree.HTMLParser(encoding="utf-8", huge_tree=True)
    etree.fromstring(markup.encode("utf-8"), parser)
    if any(entry.level_name == "FATAL" for entry in parser.error_log):
        with pytest.raises(DocumentReadError, match=r"honda\.html: .*Excessive depth"):
            read_document(path)
    else:
        assert read_document(path).pages[0].text == "Artículo 1.\n\nFin."


@pytest.mark.parametrize(
    ("text", "markup"),
    [("  <!DOCTYPE html><p>", True), ("<p>x</p>", True), ("Ley 1/2000\n<no>", False), ("", False)],
)
def test_looks_like_markup(text: str, markup: bool) -> None:
    assert looks_like_markup(text) is markup


# -- the real BOE pages ------------------------------------------------------------------------


def _law(markup: str) -> tuple[list[str], list[str]]:
    """The paragraphs and ``<h5>`` headings of the law's body, as lxml parses the page."""
    parser = etree.HTMLParser(encoding="utf-8")
    tree = etree.fromstring(markup.encode("utf-8"), parser)
    (body,) = tree.xpath("//*[@id='DOdocText']")
    paragraphs = [_norm("".join(p.itertext())) for p in body.iter("p")]
    titles = [_norm("".join(h.itertext())) for h in body.iter("h5")]
    return [p for p in paragraphs if p], titles


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_a_boe_page_keeps_every_paragraph_and_heading_of_the_law(path: Path) -> None:
    markup = path.read_text(encoding="utf-8")
    extracted = extract_html(markup)
    paragraphs, titles = _law(markup)
    text = _norm(extracted.text)
    assert paragraphs
    assert [p for p in paragraphs if p not in text] == []
    five = [h.title for h in extracted.headings if h.level == 5]
    assert five == titles  # every article, disposición, ANEXO and Sección, in order
    assert extracted.headings[0].level == 3  # the law's title opens the text
    assert extracted.text.startswith(extracted.headings[0].title)
    assert [m for m in NAVIGATION if m in extracted.text] == []
    removed = "\n".join(extracted.removed)
    for label in ("div#top", "Idioma actual", "back-to-top link", "ANÁLISIS block"):
        assert label in removed


def test_the_boe_orders_tables_carry_their_header_rows() -> None:
    extracted = extract_html((ROOT / "corpus" / "html" / "orden-hfp-1284-2023.html").read_text())
    headers = [extracted.text[t.start : t.header_end] for t in extracted.tables]
    assert headers.count("«Posiciones | Naturaleza | Descripción de los campos") == 45
    for table in extracted.tables:
        lines = extracted.text[table.start : table.end].split("\n")
        assert all(" | " in line or line for line in lines)


# -- generated markup --------------------------------------------------------------------------

_CHARACTERS = [
    *"aábcdeéfgiílmnñoópqrstuúüvyzÁÉÑ€0123456789.,:«»¿?¡!-() \n\t",
    "😀",
    "👨‍👩‍👧",
    "\u00a0",
]
_ENTITIES = {"á": "&aacute;", "ñ": "&ntilde;", "€": "&euro;", "\u00a0": "&nbsp;", "😀": "&#128512;"}
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


@st.composite
def _words(draw: st.DrawFn) -> str:
    characters = draw(st.lists(st.sampled_from([*_CHARACTERS, "&", "<"]), max_size=14))
    as_entity = draw(st.lists(st.booleans(), min_size=len(characters), max_size=len(characters)))
    return "".join(
        _ENTITIES[c] if entity and c in _ENTITIES else _ESCAPES.get(c, c)
        for c, entity in zip(characters, as_entity, strict=True)
    )


_TAGS = ["p", "div", "span", "b", "h1", "h2", "h3", "h4", "h5", "h6", "li", "blockquote"]


def _element(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    def tagged(tag: str, inner: list[str]) -> str:
        return f"<{tag}>{''.join(inner)}</{tag}>"

    def table(rows: list[list[str]]) -> str:
        cells = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
        return f"<table>{cells}</table>"

    return st.one_of(
        st.builds(tagged, st.sampled_from(_TAGS), st.lists(children, max_size=4)),
        st.builds(table, st.lists(st.lists(children, min_size=1, max_size=3), max_size=3)),
        st.builds(lambda inner: f"{inner}<br>", children),
    )


_MARKUP = st.recursive(_words(), _element, max_leaves=25)


@settings(max_examples=200, deadline=None)
@given(st.lists(_MARKUP, max_size=6))
def test_the_text_is_every_text_node_of_the_content_in_order(pieces: list[str]) -> None:
    markup = page("".join(pieces))
    extracted = extract_html(markup)
    tree = etree.fromstring(markup.encode("utf-8"), etree.HTMLParser(encoding="utf-8"))
    (body,) = tree.xpath("//body")
    position = 0
    nodes = [str(n) for n in body.xpath(".//text()") if n.getparent().tag != "title"]
    for node in nodes:
        piece = _norm(node)
        if not piece or piece.isspace():  # a no-break space alone shows nothing
            continue
        found = extracted.text.find(piece, position)
        assert found >= 0, (piece, extracted.text[position:])
        position = found + len(piece)
    # ... and nothing else: its characters but whitespace are the nodes', but for the
    # separators of table cells and of rows in a cell (the alphabet has no "|" nor ";")
    shown = extracted.text.replace(CELL_SEPARATOR, " ").replace(ROW_SEPARATOR, " ")
    assert _visible_characters(shown) == _visible_characters("".join(nodes))
    for heading in extracted.headings:
        assert isinstance(heading, Heading)
        assert _norm(extracted.text[heading.start : heading.end]) == heading.title
    assert not extracted.removed
