"""A fixed sample of real regional laws of legalize-es known to be hard (issue 49, item
6), checked with the structure report's positive measure (``benchmarks.legal_structure.
measure_file``, sections counted, no tokenizer): no wrong path, no missed unit heading, no
heading-only section, every section rooted at the law's title.

The laws are fetched content and not in the repository: the tests run where a checkout of
github:dsuarezv/legalize-es is found (``ASESORIA_LEGALIZE``, else
``/work/data/legalize``) and are skipped elsewhere. Thresholds are what the code achieved
when the sample was chosen (all zero, December 2026).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks.legal_structure import measure_file

ROOT = Path(os.environ.get("ASESORIA_LEGALIZE", "/work/data/legalize"))

#: (law, why it is hard)
SAMPLE = (
    ("es-pv/BOE-A-2022-12588.md", "Sección cuarta and the like as plain lines"),
    ("es-an/BOE-A-2000-1011.md", "a quotation left open at line 695"),
    ("es-ct/BOE-A-2006-11130.md", "code-style articles: Artículo 511-1."),
    ("es-ct/BOE-A-2014-2999.md", "code-style articles: Artículo 4.11-1"),
    ("es-an/BOE-A-1988-8592.md", "articles written Art. 5."),
    ("es-an/BOE-A-2008-3180.md", "Artículo único"),
    ("es-as/BOE-A-2002-15998.md", "ANEXO SEGUNDO"),
    ("es-mc/BORM-s-2004-90027.md", "ANEXO SEGUNDO, a long regional law"),
    ("es-ar/BOE-A-2001-15557.md", "Sección 1.a"),
    ("es-cb/BOE-A-2002-915.md", "Sección 1.a"),
)


@pytest.mark.parametrize(("law", "why"), SAMPLE, ids=[law for law, _ in SAMPLE])
def test_a_hard_regional_law_has_every_path_right(law: str, why: str) -> None:
    path = ROOT / law
    if not path.is_file():
        pytest.skip(f"legalize-es not found at {ROOT} (set ASESORIA_LEGALIZE)")
    measured = measure_file(path, chunked=False, show=5)
    assert measured.error == "", measured.error
    assert measured.units > 0, why
    assert (measured.wrong, measured.missed) == (0, 0), (why, measured.examples)
    assert measured.heading_only == 0, why
    assert measured.unrooted == 0, why
