"""Generated web pages of any size: the tests' and ``benchmarks/html_growth.py``'s."""

from __future__ import annotations


def headings_page(n: int) -> str:
    """``n`` headings, each with a paragraph of body."""
    parts = "".join(f"<h2>Artículo {i}</h2><p>Texto del artículo {i}.</p>" for i in range(n))
    return f"<html><body><main>{parts}</main></body></html>"


def outside_page(n: int) -> str:
    """``n`` blocks beside ``<main>`` (each a site block to report), and a short main."""
    beside = "".join(f"<div>Bloque {i} del sitio</div>" for i in range(n))
    return f"<html><body>{beside}<main><p>Contenido.</p></main>{beside}</body></html>"
