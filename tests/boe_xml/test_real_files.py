"""The real Reglamento General de Circulación (BOE-A-2003-23514), as the BOE gives it.

Its ``/texto`` and ``/metadatos`` answers are in ``corpus/boe_xml/`` (see
``corpus/SOURCES.md``); ``ASESORIA_BOE_XML_DIR`` points at another folder holding them
(``asesoria-fetch BOE-A-2003-23514 -o DIR`` saves them). The fragment of
github:samuvm/citebound's tests is read when that checkout is at ``/work/data/citebound``.
"""

from __future__ import annotations

import copy
import os
import re
from collections import Counter
from datetime import date
from pathlib import Path

import pytest
from lxml import etree

from langchain_asesoria.boe_xml import Law, law_all_versions, law_as_of, read_law, read_law_file
from langchain_asesoria.boe_xml.model import IMAGE

LAW_ID = "BOE-A-2003-23514"
_CITEBOUND = Path("/work/data/citebound")
_FOLDERS = [Path(folder) for folder in (os.environ.get("ASESORIA_BOE_XML_DIR"),) if folder] + [
    Path(__file__).resolve().parents[2] / "corpus" / "boe_xml",
    _CITEBOUND / "corpus" / "raw",
]
FOLDER = next((folder for folder in _FOLDERS if (folder / f"{LAW_ID}.xml").is_file()), None)
FRAGMENT = _CITEBOUND / "tests" / "fixtures" / "boe-fragmento.xml"

pytestmark = pytest.mark.skipif(
    FOLDER is None,
    reason=f"the BOE's {LAW_ID}.xml is not here: set ASESORIA_BOE_XML_DIR to a folder holding "
    f"it (asesoria-fetch {LAW_ID} -o DIR)",
)

#: Artículo 48's wordings: the day each applies from.
ARTICLE_48 = (date(2004, 1, 23), date(2006, 9, 6), date(2019, 1, 29), date(2026, 10, 1))


@pytest.fixture(scope="module")
def law() -> Law:
    assert FOLDER is not None
    return read_law_file(FOLDER / f"{LAW_ID}.xml")


def test_the_whole_law_is_read(law: Law) -> None:
    kinds = Counter(block.tipo for block in law.blocks)
    assert len(law.blocks) == 338
    assert (kinds["precepto"], kinds["encabezado"]) == (232, 103)
    assert sum(len(block.versions) > 1 for block in law.blocks) == 78
    assert law.version_count == 430
    assert (law.table_count, law.image_count) == (107, 1121)
    assert law.info is not None
    assert law.info.eli == "https://www.boe.es/eli/es/rd/2003/11/21/1428"
    assert law.law_id == LAW_ID


def _words_of_version(day: date) -> list[str]:
    """Artículo 48's wording on ``day`` read apart, with lxml alone: every word of its
    ``<version>``, but the notes shown only before ``day``."""
    assert FOLDER is not None
    root = etree.parse(str(FOLDER / f"{LAW_ID}.xml")).getroot()
    (version,) = [
        v
        for v in root.iterfind(".//bloque[@id='a48']/version")
        if v.get("fecha_vigencia") == day.strftime("%Y%m%d")
    ]
    version = copy.deepcopy(version)
    for quote in version.iter("blockquote"):
        until = quote.get("caduca")
        if until is not None and until <= day.strftime("%Y%m%d"):
            quote.getparent().remove(quote)  # type: ignore[union-attr]
    return "".join(version.itertext()).split()


def _words_of_text(text: str) -> list[str]:
    return re.sub(r" \| |\|", " ", text.replace(IMAGE, " ")).split()


@pytest.mark.parametrize("day", ARTICLE_48, ids=str)
def test_article_48_on_each_of_its_days_is_that_wordings_own_text(law: Law, day: date) -> None:
    law_text = law_as_of(law, day)
    (section,) = [s for s in law_text.sections if s.block_id == "a48"]
    assert section.valid_from == day
    piece = law_text.text[section.span.start : section.span.end]
    assert _words_of_text(piece) == _words_of_version(day)
    assert (
        section.span.section_path[-1]
        == "Artículo 48. Velocidades máximas en vías fuera de poblado."
    )
    assert section.span.section_path[:3] == (
        "REGLAMENTO GENERAL DE CIRCULACIÓN",
        "TÍTULO II. De la circulación de vehículos",
        "CAPÍTULO II. Velocidad",
    )
    assert dict(section.fields)["url"] == f"https://www.boe.es/buscar/act.php?id={LAW_ID}#a48"


def test_every_wording_of_the_law(law: Law) -> None:
    law_text = law_all_versions(law)
    assert len(law_text.sections) == 430
    ids = [section.version_id for section in law_text.sections]
    assert len(set(ids)) == 430
    assert [i for i in ids if i.startswith("a48@")] == [f"a48@{day:%Y%m%d}" for day in ARTICLE_48]


def test_on_a_day_the_repealed_title_is_left_out_and_listed(law: Law) -> None:
    law_text = law_as_of(law, date(2025, 12, 31))
    left = {item.block_id: item for item in law_text.report.left_out}
    assert left["a151"].reason == "expired"
    assert left["a151"].day == date(2025, 6, 17)
    assert left["tv-3"].reason == "not_yet_in_force"
    assert "a151" not in {s.block_id for s in law_text.sections}
    disposicion = next(s for s in law_text.sections if s.block_id == "daprimera")
    assert disposicion.span.section_path == (
        "REGLAMENTO GENERAL DE CIRCULACIÓN",
        "Disposición adicional primera. Comunidades autónomas.",
    )


def test_the_tables_headers_are_leads(law: Law) -> None:
    law_text = law_as_of(law, date(2020, 1, 1))
    assert law_text.leads
    for lead in law_text.leads:
        assert lead.table
        assert law_text.text[lead.start - len(lead.lead) - 1 : lead.start - 1] == lead.lead


@pytest.mark.skipif(not FRAGMENT.is_file(), reason="citebound's boe-fragmento.xml is not here")
def test_the_fragment_reads_as_a_trimmed_answer() -> None:
    law = read_law(FRAGMENT.read_bytes(), law_id=LAW_ID)
    assert [block.id for block in law.blocks][:3] == [
        "reglamentogeneraldecirculacion",
        "tpreliminar",
        "ci",
    ]
    assert law_as_of(law, date(2020, 1, 1)).text
