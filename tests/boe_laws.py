"""Generated BOE consolidated laws in the exact format of the BOE's open-data API (its
``/texto`` and ``/metadatos`` answers), with our own Spanish text: the fixture law
(``fixture_law``) and random block trees and version histories (``random_laws``).

The layout is the BOE's byte for byte where it matters to a reader (the ``<response>``
envelope, a ``<bloque>`` per block with ``id``, ``tipo``, ``titulo`` and
``fecha_caducidad``, a ``<version>`` per wording with ``id_norma``,
``fecha_publicacion`` and ``fecha_vigencia``, the paragraph classes, tables,
``<blockquote>`` notes, ``caduca``, images, the file's indentation).

``python tests/boe_laws.py`` writes the committed fixture (``tests/data/boe_xml/``);
``tests/boe_xml/test_fixture.py`` checks that it is what this module writes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr, unescape

from hypothesis import strategies as st

__all__ = [
    "FIXTURE_DIR",
    "FIXTURE_ID",
    "GenBlock",
    "GenVersion",
    "fixture_law",
    "img",
    "law_xml",
    "metadata_xml",
    "note",
    "p",
    "plain_text",
    "random_laws",
    "table",
    "token",
    "write_fixture",
]

FIXTURE_DIR = Path(__file__).resolve().parent / "data" / "boe_xml"
#: An identifier no real law has (the BOE numbers a year's acts far below 99999).
FIXTURE_ID = "BOE-A-2004-99999"

_INDENT = "          "  # a version's children, as the BOE indents them


def _attrs(**values: str | None) -> str:
    return "".join(f" {name}={quoteattr(value)}" for name, value in values.items() if value)


def p(css_class: str | None, text: str) -> str:
    """A paragraph (its text may hold inline markup already: ``<strong>``...)."""
    return f"<p{_attrs(**{'class': css_class})}>{text}</p>"


def img(number: int = 1) -> str:
    """An image, as the BOE links its pictures."""
    return f'<img src="/datos/imagenes/disp/2030/1/99999_{number}.png"/>'


def _cell(tag: str, css_class: str, text: str) -> list[str]:
    return [f"<{tag}>", f'  <p class="{css_class}">{text}</p>', f"</{tag}>"]


def _row(tag: str, css_class: str, cells: Sequence[str]) -> list[str]:
    inner = [f"  {line}" for cell in cells for line in _cell(tag, css_class, cell)]
    return ["<tr>", *inner, "</tr>"]


def table(
    rows: Sequence[Sequence[str]],
    *,
    header: Sequence[str] = (),
    caption: str | None = None,
    css_class: str = "tabla",
) -> str:
    """A table as the BOE indents it: an optional header row in ``<thead>`` (``<th>``
    cells, text escaped), then rows (cells' markup as given), an element per line."""
    lines = [f'<table class="{css_class}">']
    if caption is not None:
        lines += [
            "  <caption>",
            f'    <p class="centro_redonda">{escape(caption)}</p>',
            "  </caption>",
        ]
    if header:
        head = _row("th", "cabeza_tabla", [escape(cell) for cell in header])
        lines += ["  <thead>", *(f"    {line}" for line in head), "  </thead>"]
    body = [line for row in rows for line in _row("td", "cuerpo_tabla_centro", row)]
    lines += ["  <tbody>", *(f"    {line}" for line in body), "  </tbody>", "</table>"]
    return f"\n{_INDENT}".join(lines)


def note(*items: str, caduca: date | None = None, css_class: str | None = None) -> str:
    """A ``<blockquote>``: the BOE's notes (``nota_pie``), or a warning shown until
    ``caduca`` (class ``soloTexto``)."""
    day = caduca.strftime("%Y%m%d") if caduca is not None else None
    inner = "".join(f"\n{_INDENT}  {item}" for item in items)
    return (
        f"<blockquote{_attrs(caduca=day, **{'class': css_class})}>{inner}\n{_INDENT}</blockquote>"
    )


@dataclass(frozen=True)
class GenVersion:
    """A wording: the act that gave it, its days, its content (XML fragments)."""

    amended_by: str
    published: date
    valid_from: date
    content: tuple[str, ...]


@dataclass(frozen=True)
class GenBlock:
    """A block: id, type, ``titulo``, end, wordings (in the order the XML lists them)."""

    id: str
    tipo: str
    titulo: str | None
    versions: tuple[GenVersion, ...]
    expires: date | None = None
    extra: dict[str, str] = field(default_factory=dict)


def _day(value: date) -> str:
    return value.strftime("%Y%m%d")


def _version_xml(version: GenVersion) -> str:
    attrs = _attrs(
        id_norma=version.amended_by,
        fecha_publicacion=_day(version.published),
        fecha_vigencia=_day(version.valid_from),
    )
    body = "".join(f"\n{_INDENT}{item}" for item in version.content)
    return f"        <version{attrs}>{body}\n        </version>"


def _block_xml(block: GenBlock) -> str:
    attrs = _attrs(
        id=block.id,
        tipo=block.tipo,
        fecha_caducidad=_day(block.expires) if block.expires else None,
        titulo=block.titulo,
        **block.extra,
    )
    versions = "\n".join(_version_xml(version) for version in block.versions)
    return f"      <bloque{attrs}>\n{versions}\n      </bloque>\n      "


def law_xml(blocks: Sequence[GenBlock]) -> bytes:
    """The ``/texto`` answer holding ``blocks``, as the BOE writes it."""
    body = "\n".join(_block_xml(block) for block in blocks)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<response>\n  <status>\n'
        "    <code>200</code>\n    <text>ok</text>\n  </status>\n  <data>\n    <texto>\n"
        f"{body}\n    </texto>\n  </data>\n</response>"
    ).encode()


def metadata_xml(law_id: str, title: str, *, repealed: bool = False, eli: str = "") -> bytes:
    """The ``/metadatos`` answer of a law."""
    fields = (
        ("fecha_actualizacion", "20300315T101500Z"),
        ("identificador", law_id),
        ('ambito codigo="1"', "Estatal"),
        ('departamento codigo="7723"', "Jefatura del Estado"),
        ('rango codigo="1340"', "Real Decreto"),
        ("fecha_disposicion", "20040110"),
        ("numero_oficial", "99/2004"),
        ("titulo", title),
        ("diario", "Boletín Oficial del Estado"),
        ("fecha_publicacion", "20040112"),
        ("diario_numero", "10"),
        ("fecha_vigencia", "20040201"),
        ("estatus_derogacion", "S" if repealed else "N"),
        ("estatus_anulacion", "N"),
        ("vigencia_agotada", "N"),
        ('estado_consolidacion codigo="3"', "Finalizado"),
        ("url_eli", eli),
        ("url_html_consolidada", f"https://www.boe.es/buscar/act.php?id={law_id}"),
    )
    lines = "".join(
        f"\n      <{tag}>{escape(value)}</{tag.split()[0]}>" for tag, value in fields if value
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<response>\n  <status>\n'
        "    <code>200</code>\n    <text>ok</text>\n  </status>\n  <data>\n    <metadatos>"
        f"{lines}\n    </metadatos>\n  </data>\n</response>"
    ).encode()


# -- the fixture law: every shape the reader handles, in our own words -------------------------

LAW = FIXTURE_ID
AMENDED_2006 = "BOE-A-2006-8888"
AMENDED_2019 = "BOE-A-2018-7777"
AMENDED_2031 = "BOE-A-2030-6666"
D2004, P2004 = date(2004, 2, 1), date(2004, 1, 12)
D2006, P2006 = date(2006, 9, 6), date(2006, 9, 5)
D2019, P2019 = date(2019, 1, 29), date(2018, 12, 29)
D2031, P2031 = date(2031, 10, 1), date(2030, 6, 26)


def _v(day: date, published: date, act: str, *content: str) -> GenVersion:
    return GenVersion(act, published, day, content)


def _original(*content: str) -> GenVersion:
    return _v(D2004, P2004, LAW, *content)


def _heading(block_id: str, titulo: str, *paragraphs: str) -> GenBlock:
    return GenBlock(block_id, "encabezado", titulo, (_original(*paragraphs),))


def _cuota(day_text: str, amount: str) -> tuple[str, ...]:
    return (
        p("articulo", "Artículo 4. Cuota del impuesto."),
        p("parrafo", f"1. La cuota será de {amount} € por cada metro cúbico, {day_text}."),
        p("parrafo_2", "a) Para los depósitos de uso doméstico: la mitad."),
    )


def _article_4() -> GenBlock:
    """Four wordings, as Artículo 48 of the Reglamento General de Circulación has."""
    header = ("Depósito", "Cuota (€)", "Recargo (€)")
    return GenBlock(
        "a4",
        "precepto",
        "Artículo 4",
        (
            _v(D2004, P2004, LAW, *_cuota("según la redacción original", "12,50")),
            _v(
                D2006,
                P2006,
                AMENDED_2006,
                *_cuota("tras la reforma de dos mil seis", "14,00"),
                note(
                    p(
                        "nota_pie",
                        "Se modifica el apartado 1 por el art. único.3 del Real "
                        'Decreto 88/2006. <a class="refPost">Ref. BOE-A-2006-8888</a>.',
                    )
                ),
            ),
            _v(
                D2019,
                P2019,
                AMENDED_2019,
                p("articulo", "Artículo 4. Cuota del impuesto."),
                p("parrafo", "1. La cuota se fija en la tabla siguiente:"),
                table([["Pequeño", "10,00", "1,00"], ["Grande", "20,00", "2,50"]], header=header),
                note(p("nota_pie", "Se modifica por el art. único.1 del Real Decreto 77/2018.")),
            ),
            _v(
                D2031,
                P2031,
                AMENDED_2031,
                p("articulo", "Artículo 4. Cuota del impuesto."),
                p("parrafo", "1. La cuota se fija en la tabla siguiente, con el año de señal:"),
                table([["Pequeño", "11,00", "1,10"], ["Grande", "22,00", "2,75"]], header=header),
                note(
                    p(
                        "parrafo",
                        "Téngase en cuenta que esta redacción entra en vigor el 1 de "
                        "octubre de 2031.",
                    ),
                    caduca=D2031,
                    css_class="soloTexto",
                ),
                note(
                    p(
                        "nota_pie",
                        "Se modifica, con efectos de 1 de octubre de 2031, por el "
                        "art. único.8 del Real Decreto 66/2030.",
                    )
                ),
            ),
        ),
    )


def fixture_law() -> tuple[GenBlock, ...]:
    """A small Real Decreto approving a Reglamento, in our own Spanish words: initial
    note, preamble, its article and disposiciones, signature, then the Reglamento (a
    TÍTULO with CAPÍTULOs and a Sección, an article with four wordings and a table, one
    repealed on a day, one added later, a "(Derogado)" wording, a note shown until a day,
    images), its disposiciones and an ANEXO with numbered parts."""
    return (
        GenBlock(
            "no",
            "nota_inicial",
            None,
            (
                _v(
                    D2019,
                    P2019,
                    AMENDED_2019,
                    p(
                        "siempreSeVe",
                        "Téngase en cuenta que las referencias a la Ley de Aguas se "
                        "entenderán hechas al texto refundido vigente.",
                    ),
                ),
            ),
        ),
        GenBlock(
            "preambulo",
            "preambulo",
            None,
            (
                _original(
                    p(
                        "parrafo",
                        "La disposición final de la Ley 40/2003 ordena al Gobierno aprobar "
                        "el reglamento del impuesto sobre los depósitos de agua, que ahora "
                        "se aprueba.",
                    ),
                    p("parrafo", "En su virtud, a propuesta del Ministro de Hacienda, DISPONGO:"),
                ),
            ),
        ),
        GenBlock(
            "aunico",
            "precepto",
            "Artículo único",
            (
                _original(
                    p("articulo", "Artículo único. Aprobación del Reglamento."),
                    p(
                        "parrafo",
                        "Se aprueba el Reglamento del impuesto sobre los depósitos de agua.",
                    ),
                ),
            ),
        ),
        GenBlock(
            "dfunica",
            "precepto",
            "Disposición final única",
            (
                _original(
                    p("articulo", "Disposición final única. Entrada en vigor."),
                    p("parrafo", "Este real decreto entrará en vigor el 1 de febrero de 2004."),
                ),
            ),
        ),
        GenBlock(
            "firma",
            "firma",
            None,
            (
                _original(
                    p("parrafo_2", "Dado en Madrid, el 10 de enero de 2004."),
                    p("firma_rey", "JUAN CARLOS R."),
                    p("firma_ministro", "El Ministro de Hacienda,"),
                ),
            ),
        ),
        _heading(
            "reglamento",
            "REGLAMENTO DEL IMPUESTO",
            p("libro", "REGLAMENTO DEL IMPUESTO SOBRE LOS DEPÓSITOS DE AGUA"),
        ),
        _heading(
            "ti",
            "TÍTULO I",
            p("titulo_num", "TÍTULO I"),
            p("titulo_tit", "Normas generales del impuesto"),
        ),
        _heading(
            "ci",
            "CAPÍTULO I",
            p("capitulo_num", "CAPÍTULO I"),
            p("capitulo_tit", "Hecho imponible y exenciones"),
        ),
        GenBlock(
            "a1",
            "precepto",
            "Artículo 1",
            (
                _original(
                    p("articulo", "Artículo 1. Hecho imponible."),
                    p(
                        "parrafo",
                        "Constituye el hecho imponible la tenencia de un depósito de agua "
                        "de más de diez metros cúbicos, ya sea de uso doméstico o de riego.",
                    ),
                ),
            ),
        ),
        GenBlock(
            "a2",
            "precepto",
            "Artículo 2",
            (
                _original(
                    p("articulo", "Artículo 2. Exenciones."),
                    p(
                        "parrafo",
                        "Están exentos los depósitos de los ayuntamientos y los de las "
                        "comunidades de regantes.",
                    ),
                ),
            ),
            expires=date(2025, 6, 17),
        ),
        _heading(
            "cii", "CAPÍTULO II", p("capitulo_num", "CAPÍTULO II"), p("capitulo_tit", "Cuota")
        ),
        _heading("s1", "Sección 1", p("seccion", "Sección 1.ª Cálculo de la cuota")),
        GenBlock(
            "a3",
            "precepto",
            "Artículo 3",
            (
                _original(
                    p("articulo", "Artículo 3. Señalización del depósito."),
                    p("parrafo", "Cada depósito llevará la señal siguiente:"),
                    p("imagen", img(1)),
                    p("parrafo", "La señal medirá treinta centímetros de lado."),
                ),
            ),
        ),
        _article_4(),
        GenBlock(
            "a5",
            "precepto",
            "Artículo 5",
            (
                _original(
                    p("articulo", "Artículo 5. Recargo por sequía."),
                    p(
                        "parrafo",
                        "En años de sequía la cuota se incrementará en un diez por ciento.",
                    ),
                ),
                _v(
                    D2019,
                    P2019,
                    AMENDED_2019,
                    p("articulo", "Artículo 5. Recargo por sequía."),
                    p("parrafo", "<strong>(Derogado).</strong>"),
                    note(
                        p(
                            "nota_pie",
                            "Se deroga por la disposición derogatoria única del Real "
                            "Decreto 77/2018.",
                        )
                    ),
                ),
            ),
        ),
        GenBlock(
            "a5bis",
            "precepto",
            "Artículo 5 bis",
            (
                _v(
                    D2031,
                    P2031,
                    AMENDED_2031,
                    p("articulo", "Artículo 5 bis. Bonificación por ahorro."),
                    p(
                        "parrafo",
                        "Los titulares que reduzcan su consumo un veinte por ciento tendrán "
                        "una bonificación del cincuenta por ciento de la cuota.",
                    ),
                    note(
                        p(
                            "nota_pie",
                            "Se añade, con efectos de 1 de octubre de 2031, por el Real "
                            "Decreto 66/2030.",
                        )
                    ),
                ),
            ),
        ),
        GenBlock(
            "daprimera",
            "precepto",
            "Disposición adicional primera",
            (
                _original(
                    p("articulo", "Disposición adicional primera. Comunidades autónomas."),
                    p(
                        "parrafo",
                        "Este reglamento se aplicará sin perjuicio de las competencias de "
                        "las comunidades autónomas en materia de aguas.",
                    ),
                ),
            ),
        ),
        _heading("ani", "ANEXO", p("anexo_num", "ANEXO"), p("anexo_tit", "Modelos de señal")),
        GenBlock(
            "A1",
            "encabezado",
            "1",
            (
                _original(
                    p("titulo", "1. Señal de depósito doméstico."),
                    table(
                        [[f"{img(2)}<br/>Señal azul", f"{img(3)}<br/>Señal verde"]],
                        css_class="sinbordes",
                    ),
                ),
            ),
        ),
        GenBlock(
            "A2",
            "encabezado",
            "2",
            (
                _original(
                    p("titulo", "2. Señal de depósito de riego."),
                    p("parrafo", "Como la anterior, con una franja ocre (añádase el año)."),
                ),
            ),
        ),
    )


def fixture_metadata() -> bytes:
    """The fixture law's ``/metadatos``."""
    return metadata_xml(
        FIXTURE_ID,
        "Real Decreto 99/2004, de 10 de enero, por el que se aprueba el Reglamento del "
        "impuesto sobre los depósitos de agua.",
        eli="https://www.boe.es/eli/es/rd/2004/01/10/99",
    )


def write_fixture(folder: Path = FIXTURE_DIR) -> tuple[Path, Path]:
    """Writes the fixture law's ``ID.xml`` and ``ID.metadatos.xml`` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    texto = folder / f"{FIXTURE_ID}.xml"
    metadatos = folder / f"{FIXTURE_ID}.metadatos.xml"
    texto.write_bytes(law_xml(fixture_law()))
    metadatos.write_bytes(fixture_metadata())
    return texto, metadatos


# -- random laws: block trees and version histories ----------------------------------------------

#: The days random wordings start on: few, so that ties and reorderings are common.
DAYS = tuple(date(2004, 1, 1) + timedelta(days=400 * n) for n in range(8))
_HEADINGS = (
    ("titulo_num", "titulo_tit", "TÍTULO"),
    ("capitulo_num", "capitulo_tit", "CAPÍTULO"),
    ("seccion", None, "Sección"),
)


def token(number: int, place: int) -> str:
    """The text only the ``place``-th wording (from 1, in the XML's order) of random block
    ``b<number>`` holds."""
    return f"[b{number}·{place}]"


@st.composite
def _block(draw: st.DrawFn, number: int) -> GenBlock:
    tipo = draw(st.sampled_from(("precepto", "precepto", "encabezado", "preambulo")))
    count = draw(st.integers(1, 4))
    days = draw(st.lists(st.sampled_from(DAYS), min_size=count, max_size=count))
    expires = draw(st.none() | st.sampled_from(DAYS))
    versions = []
    for place, day in enumerate(days, start=1):
        mark = token(number, place)
        body = p("parrafo", f"Cuota {mark}: {number},{place} € por año y depósito.")
        content: tuple[str, ...]
        if tipo == "encabezado":
            num_class, tit_class, word = draw(st.sampled_from(_HEADINGS))
            if tit_class is None:
                heading = [p(num_class, f"{word} {number}.ª Unidad {mark}")]
            else:
                heading = [p(num_class, f"{word} {number}"), p(tit_class, f"Unidad {mark}")]
            content = (*heading, *([body] if draw(st.booleans()) else []))
        elif tipo == "preambulo":
            content = (body,)
        else:
            content = (p("articulo", f"Artículo {number}. Título {mark}."), body)
        versions.append(GenVersion(f"BOE-A-{day.year}-{number}{place}", day, day, content))
    titulo = None if tipo == "preambulo" else f"Bloque {number}"
    return GenBlock(f"b{number}", tipo, titulo, tuple(versions), expires)


@st.composite
def random_laws(draw: st.DrawFn, max_blocks: int = 12) -> tuple[GenBlock, ...]:
    """Random laws: headings, articles and preambles in random order, each with one to
    four wordings on days drawn from ``DAYS`` (ties and disorder included), some ending
    on a day (``fecha_caducidad``); a heading's wording may have only its title. Every
    wording holds its own ``token``."""
    count = draw(st.integers(1, max_blocks))
    return tuple(draw(_block(number)) for number in range(1, count + 1))


def plain_text(version: GenVersion) -> str:
    """The text a random wording (paragraphs without markup) reads as."""
    return "\n\n".join(unescape(re.sub(r"<[^>]+>", "", item)) for item in version.content)


if __name__ == "__main__":
    for path in write_fixture():
        print(f"wrote {path}")
