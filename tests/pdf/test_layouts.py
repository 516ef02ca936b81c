"""Generated PDFs (``tests/pdf_layouts.py``): every body line in some chunk, every
furniture line removed and in the reading report.

Hypothesis draws the layouts; ``python -m benchmarks.furniture`` runs thousands of them.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

pytest.importorskip("pypdf", reason="the pdf extra: pip install '.[pdf]'")
pytest.importorskip("fpdf", reason="the dev extra: pip install '.[dev]' (fpdf2)")

from strategies import PROFILE, examples

from tests.pdf_layouts import Layout, check_layout, layouts


@settings(PROFILE, max_examples=examples(100), suppress_health_check=[HealthCheck.too_slow])
@given(layouts())
def test_furniture_is_removed_and_every_body_line_is_chunked(layout: Layout) -> None:
    outcome = check_layout(layout)
    assert outcome.body_lost == ()
    assert outcome.furniture_kept == ()


def test_a_running_title_that_changes_on_the_last_page_is_removed() -> None:
    """The section changes on page 9 and its title runs in the even pages' header: on
    page 10 alone, so it repeats nowhere; it is the title of a section begun on an
    earlier page, at the header's height where no body line stands (found by CI's
    Hypothesis run)."""
    layout = Layout(
        pages=10,
        header="running",
        footer=False,
        number_form=None,
        number_at="top",
        number_joined=False,
        offset=0,
        columns=1,
        table="none",
        table_rows=0,
        figures=False,
        articles=False,
        blank=frozenset({3, 6}),
        rotated=frozenset(),
        turned_note=frozenset(),
        furniture_last=False,
        body_lines=(6,) * 10,
        words=0,
        bare_top=frozenset(),
        bare_bottom=frozenset(),
        at_top=frozenset(),
        at_bottom=frozenset(),
        header_close=False,
        table_gap=0.0,
    )
    outcome = check_layout(layout)
    assert outcome.body_lost == ()
    assert outcome.furniture_kept == ()


@settings(
    PROFILE, max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(layouts(max_pages=8, bare=True))
def test_pages_without_furniture_keep_the_lines_at_its_heights(layout: Layout) -> None:
    # Every layout has pages without their header or footer, a body line at its height
    # on one or two of them, a header a step and a half above the body, and roman page
    # numbers or a wide gap under a table's header that opens pages.
    outcome = check_layout(layout)
    assert outcome.body_lost == ()
    assert outcome.furniture_kept == ()
