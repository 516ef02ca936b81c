"""A law's provenance read from its front matter (``reading.law_links``); the block
fields of a BOE consolidated page are tested with the pages
(``tests/reading/test_html_pages.py``, ``test_boe_saved_as_text.py``)."""

from __future__ import annotations

import pytest

from langchain_asesoria.reading.law_links import front_matter_law_fields

LEGALIZE_FRONT_MATTER = (
    '---\ntitle: "Ley 37/1992, del Impuesto sobre el Valor Añadido"\n'
    'identifier: "BOE-A-1992-28740"\nrank: "ley"\nlast_updated: "2026-01-26"\n'
    'status: "in_force"\nsource: "https://www.boe.es/eli/es/l/1992/12/28/37"\n---\n# Ley\n'
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            LEGALIZE_FRONT_MATTER,
            (
                ("norm_id", "BOE-A-1992-28740"),
                ("status", "in_force"),
                ("last_updated", "2026-01-26"),
                ("url", "https://www.boe.es/eli/es/l/1992/12/28/37"),
                ("eli", "https://www.boe.es/eli/es/l/1992/12/28/37"),
            ),
            id="legalize-law",
        ),
        pytest.param(
            "---\nidentifier: BOE-A-2000-1\nlast_updated: 2024-05-01\nstatus: expired\n"
            "source: https://www.boe.es/buscar/act.php?id=BOE-A-2000-1\n---\nTexto.",
            (
                ("norm_id", "BOE-A-2000-1"),
                ("status", "expired"),
                ("last_updated", "2024-05-01"),  # a YAML date, as ISO text
                ("url", "https://www.boe.es/buscar/act.php?id=BOE-A-2000-1"),
            ),
            id="unquoted-no-eli",
        ),
        pytest.param("---\nidentifier: mi-nota\nstatus: borrador\n---\nTexto.", (), id="not-a-law"),
        pytest.param("---\ntitle: Ley\n---\nTexto.", (), id="no-identifier"),
        pytest.param("Texto sin front matter.", (), id="none"),
    ],
)
def test_a_laws_front_matter_gives_its_provenance(
    text: str, expected: tuple[tuple[str, object], ...]
) -> None:
    assert front_matter_law_fields(text) == expected
