"""Which parser and main-content extractor serves BOE web pages best (no assertions).

    python benchmarks/html_extractors.py ../shared/corpus/html/*.html

For each page and extractor: how many of the law's paragraphs and headings (the ``<p>``
and ``<h5>`` of the BOE's ``#DOdocText``, as lxml parses them) are in the extracted
text (whitespace collapsed), how many site-navigation markers are in it (the language
menu, "Subir", breadcrumbs, the ANÁLISIS block, format links...), and the time per page
(best of ``--repeat``). Parsers alone (selectolax, html5lib) are timed parsing the page
and compared with lxml on the text of ``#DOdocText``. Extractors that are not installed
are skipped with a note.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable
from pathlib import Path

from lxml import etree

from langchain_asesoria.structure.html import extract_html

#: Text that only site navigation holds on the BOE's pages.
NAVIGATION = (
    "Idioma actual",
    "Está Vd. en",
    "subir",
    "Otros formatos",
    "Ver texto consolidado",
    "ANÁLISIS",
    "Referencias anteriores",
    "Materias",
    "Aviso legal",
    "Criterio de ordenación",
)

_SPACE = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _tree(markup: str) -> etree._Element:
    return etree.fromstring(markup.encode("utf-8"), etree.HTMLParser(encoding="utf-8"))


def law_parts(markup: str) -> tuple[str, list[str], list[str]]:
    """The law's title (its first words), paragraphs and headings as lxml finds them in
    ``h3.documento-tit`` and ``#DOdocText``."""
    tree = _tree(markup)
    title = _norm(tree.xpath("//h3[@class='documento-tit']")[0].text or "")[:40]
    body = tree.xpath("//*[@id='DOdocText']")[0]
    paragraphs = [_norm("".join(p.itertext())) for p in body.iter("p")]
    headings = [_norm("".join(h.itertext())) for h in body.iter("h5")]
    return title, [p for p in paragraphs if p], [h for h in headings if h]


def _ours(markup: str) -> str:
    return extract_html(markup).text


def _whole_body(markup: str) -> str:
    return extract_html(markup, main_content=False).text


def _trafilatura(markup: str) -> str:
    import trafilatura

    return trafilatura.extract(markup, include_tables=True, favor_recall=True) or ""


def _readability(markup: str) -> str:
    from readability import Document

    return "".join(_tree(Document(markup).summary()).itertext())


EXTRACTORS: dict[str, Callable[[str], str]] = {
    "lxml + main content (ours)": _ours,
    "lxml, whole body (main content off)": _whole_body,
    "trafilatura (favor_recall, tables)": _trafilatura,
    "readability-lxml": _readability,
}


def _selectolax(markup: str) -> str:
    from selectolax.lexbor import LexborHTMLParser

    node = LexborHTMLParser(markup).css_first("#DOdocText")
    return node.text(deep=True) if node is not None else ""


def _html5lib(markup: str) -> str:
    import html5lib

    tree = html5lib.parse(markup, treebuilder="lxml", namespaceHTMLElements=False)
    return "".join(tree.xpath("//*[@id='DOdocText']")[0].itertext())


def _lxml(markup: str) -> str:
    return "".join(_tree(markup).xpath("//*[@id='DOdocText']")[0].itertext())


PARSERS: dict[str, Callable[[str], str]] = {
    "lxml": _lxml,
    "selectolax (lexbor)": _selectolax,
    "html5lib": _html5lib,
}


def _best(run: Callable[[str], str], markup: str, repeat: int) -> tuple[str, float]:
    best, out = float("inf"), ""
    for _ in range(repeat):
        start = time.perf_counter()
        out = run(markup)
        best = min(best, time.perf_counter() - start)
    return out, best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("| page | extractor | title | paragraphs kept | h5 headings kept | navigation | ms |")
    print("|---|---|---|---|---|---|---|")
    for page in args.pages:
        markup = page.read_text(encoding="utf-8")
        title, paragraphs, headings = law_parts(markup)
        for name, run in EXTRACTORS.items():
            try:
                out, ms = _best(run, markup, args.repeat)
            except ImportError as error:
                print(f"| {page.name} | {name} | not installed ({error.name}) | | | | |")
                continue
            text = _norm(out)
            kept = sum(p in text for p in paragraphs)
            titled = sum(h in text for h in headings)
            navigation = [m for m in NAVIGATION if m in out]
            print(
                f"| {page.name} | {name} | {'yes' if title in text else 'no'} "
                f"| {kept}/{len(paragraphs)} | {titled}/{len(headings)} "
                f"| {len(navigation)} {navigation or ''} | {ms:.0f} |"
            )
    print()
    print("| page | parser | ms (parse + #DOdocText text) | same text as lxml |")
    print("|---|---|---|---|")
    for page in args.pages:
        markup = page.read_text(encoding="utf-8")
        reference = _norm(_lxml(markup))
        for name, run in PARSERS.items():
            try:
                out, ms = _best(run, markup, args.repeat)
            except ImportError as error:
                print(f"| {page.name} | {name} | not installed ({error.name}) | |")
                continue
            print(f"| {page.name} | {name} | {ms:.0f} | {_norm(out) == reference} |")


if __name__ == "__main__":
    main()
