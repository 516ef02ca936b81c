"""Web pages: every element a reader sees is main content unless a rule says it is
chrome, and then it is listed; reading grows linearly with the page."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria.structure.html import extract_html
from tests.html_pages import headings_page, outside_page

lxml_html = pytest.importorskip("lxml.html", reason="the html extra: pip install '.[html]'")


@pytest.mark.parametrize(
    ("markup", "kept"),
    [
        ("<html><body><p>dentro</p></body><p>después del cuerpo</p></html>", "después del cuerpo"),
        ("<html><body><p>dentro</p></body></html><p>tras el documento</p>", "tras el documento"),
        ("<table><tr><span>suelta</span><td>celda</td></tr></table>", "suelta"),
        ("<p>Cuota <math><mi>B</mi><mo>\u00d7</mo><mi>t</mi></math> euros.</p>", "B\u00d7t euros"),
        ("<p>Figura <svg><text>Base 100</text></svg> fin.</p>", "Base 100"),
        ("<body><form><div><h1>Ley 5/2024</h1><p>Art. 1.</p></div></form></body>", "Ley 5/2024"),
        ("<body><article><p>uno</p></article><article><p>segundo</p></article></body>", "segundo"),
        ("<body><main><header><h1>Ley 35/2006</h1></header><p>x</p></main></body>", "Ley 35/2006"),
        ("<p>Véase <label>el anexo</label> abajo.</p>", "Véase el anexo abajo."),
        ("<main><p>A<nav>menú</nav>B</p></main>", "A B"),
    ],
)
def test_visible_text_is_kept(markup: str, kept: str) -> None:
    assert kept in extract_html(markup).text


def test_a_control_and_its_label_are_still_chrome() -> None:
    page = extract_html(
        "<main><p>Texto.</p><form><p><input type='radio' id='v'/>"
        "<label for='v'>Versión de 2018</label></p></form></main>"
    )
    assert "Versión" not in page.text
    assert page.removed == ('form: "Versión de 2018"',)


_WORDS = st.lists(
    st.sampled_from(["cuota", "base", "tipo", "renta", "Artículo", "euros", "19"]),
    min_size=1,
    max_size=3,
).map(" ".join)


def _block(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        inner.map(lambda t: f"<p>{t}</p>"),
        inner.map(lambda t: f"<table><tr><td>{t}</td><span> {t} </span></tr></table>"),
        inner.map(lambda t: f"<form><div><p>{t}</p></div></form>"),
        inner.map(lambda t: f"<article><p>{t}</p></article>"),
        inner.map(lambda t: f"<main><header><h1>{t}</h1></header><p>{t}</p></main>"),
        inner.map(lambda t: f"<p>{t} <math><mi>{t}</mi></math> {t}</p>"),
        inner.map(lambda t: f"<p>{t} <b>{t}</b> <nav>{t}</nav> {t}</p>"),
        inner.map(lambda t: f"<div>{t}</div>"),
    )


@given(st.lists(_block(_WORDS), min_size=1, max_size=6), st.lists(_block(_WORDS), max_size=2))
def test_every_visible_word_is_kept_or_listed(body: list[str], after: list[str]) -> None:
    markup = f"<html><body>{''.join(body)}</body>{''.join(after)}</html>"
    tree = lxml_html.fromstring(markup.replace("</body>", ""))
    visible = " ".join(tree.itertext()).split()  # text_content(), its blocks kept apart
    page = extract_html(markup)
    seen = (page.text + " " + " ".join(page.removed)).replace('"', " ").split()
    for word in visible:
        assert word in seen


def _cpu_seconds(markup: str) -> float:
    """The least CPU time of three reads: CPU time, not wall time, so that other
    processes on a loaded machine (CI's two workers) do not count, and the least of three
    so that a collection pause in one read does not either."""
    times = []
    for _ in range(3):
        start = time.process_time()
        extract_html(markup)
        times.append(time.process_time() - start)
    return min(times)


@pytest.mark.parametrize(("build", "parts"), [(headings_page, 16_000), (outside_page, 8_000)])
def test_reading_grows_linearly(build: object, parts: int) -> None:
    """Eight times the page costs about eight times the time; a quadratic step would
    cost 64 times. The bound, 32, sits between the two (the table of
    benchmarks/html_growth.py shows the time per part flat)."""
    assert callable(build)
    small, large = _cpu_seconds(build(parts // 8)), _cpu_seconds(build(parts))
    assert large < 32 * max(small, 1e-3)
