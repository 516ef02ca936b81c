"""Properties over random laws (block trees, version histories with ties, disorder and
ends): on any day exactly the wordings in force are in the text, each whole, at its
section; every wording has a section of its own; ids are stable and unique."""

from __future__ import annotations

from datetime import date, timedelta
from itertools import pairwise

from boe_laws import DAYS, GenBlock, law_xml, plain_text, random_laws, token
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_asesoria.boe_xml import Law, LawText, law_all_versions, law_as_of, read_law
from langchain_asesoria.boe_xml.dates import day_number
from langchain_asesoria.boe_xml.render import PIECE_SEPARATOR

#: Days to ask for: the wordings' own days, the days before them, and after the last.
ASKED = st.sampled_from(DAYS).flatmap(
    lambda day: st.sampled_from((day, day - timedelta(days=1), day + timedelta(days=3)))
)


def _in_force(block: GenBlock, day: date) -> int | None:
    """The oracle: the place (from 1, in the XML's order) of the block's wording in force
    on ``day``: the latest day not after it, the last listed among those of one day;
    none from the block's end on."""
    if block.expires is not None and day >= block.expires:
        return None
    started = [(v.valid_from, place) for place, v in enumerate(block.versions, 1)]
    started = [item for item in started if item[0] <= day]
    return max(started)[1] if started else None


def _read(blocks: tuple[GenBlock, ...]) -> Law:
    return read_law(law_xml(blocks), law_id="BOE-A-2004-1")


def _place(expected: dict[str, int | None], block_id: str) -> int:
    place = expected[block_id]
    assert place is not None, f"{block_id} is in the text but not in force"
    return place


def _pieces(law_text: LawText) -> list[str]:
    return [law_text.text[s.span.start : s.span.end] for s in law_text.sections]


@settings(max_examples=150, deadline=None)
@given(random_laws(), ASKED)
def test_on_any_day_exactly_the_wordings_in_force_are_there_each_whole(
    blocks: tuple[GenBlock, ...], day: date
) -> None:
    law_text = law_as_of(_read(blocks), day)
    by_id = {block.id: block for block in blocks}
    expected = {block.id: _in_force(block, day) for block in blocks}
    for block in blocks:
        number = int(block.id[1:])
        for place in range(1, len(block.versions) + 1):
            assert (token(number, place) in law_text.text) == (expected[block.id] == place)
    for section, piece in zip(law_text.sections, _pieces(law_text), strict=True):
        held = [*section.carried, section.block_id]
        wordings = [by_id[block_id].versions[_place(expected, block_id) - 1] for block_id in held]
        assert piece == PIECE_SEPARATOR.join(plain_text(version) for version in wordings)
        fields = dict(section.fields)
        assert int(fields["valid_from_day"]) <= day_number(day) < int(fields["valid_to_day"])
    placed = {s.block_id for s in law_text.sections} | {
        b for s in law_text.sections for b in s.carried
    }
    assert placed == {block_id for block_id, place in expected.items() if place is not None}
    assert {item.block_id for item in law_text.report.left_out} == {
        block_id for block_id, place in expected.items() if place is None
    }


@settings(max_examples=150, deadline=None)
@given(random_laws(), ASKED)
def test_sections_tile_the_text(blocks: tuple[GenBlock, ...], day: date) -> None:
    for law_text in (law_as_of(_read(blocks), day), law_all_versions(_read(blocks))):
        assert PIECE_SEPARATOR.join(_pieces(law_text)) == law_text.text
        for section in law_text.sections:
            span = section.span
            assert span.start < span.end
            assert span.section_path[-1] == span.section_label


@settings(max_examples=150, deadline=None)
@given(random_laws())
def test_every_wording_is_one_section_with_a_stable_unique_id(
    blocks: tuple[GenBlock, ...],
) -> None:
    law_text = law_all_versions(_read(blocks))
    by_act = {
        (block.id, version.amended_by): version for block in blocks for version in block.versions
    }
    assert len(law_text.sections) == sum(len(block.versions) for block in blocks)
    for section, piece in zip(law_text.sections, _pieces(law_text), strict=True):
        version = by_act[(section.block_id, str(dict(section.fields)["amended_by"]))]
        assert piece == plain_text(version)
        assert section.valid_from == version.valid_from
    ids = [section.version_id for section in law_text.sections]
    assert len(set(ids)) == len(ids)
    again = law_all_versions(_read(blocks))
    assert [s.version_id for s in again.sections] == ids
    assert again == law_text


@settings(max_examples=100, deadline=None)
@given(random_laws())
def test_the_wordings_of_a_block_tile_time(blocks: tuple[GenBlock, ...]) -> None:
    """Sorted by day, each wording ends where the next one starts, the last at the
    block's end (or never); a wording replaced on its first day is reported."""
    law_text = law_all_versions(_read(blocks))
    for block in blocks:
        own = [s for s in law_text.sections if s.block_id == block.id]  # in text order
        assert [s.valid_from for s in own] == sorted(s.valid_from for s in own)
        for first, second in pairwise(own):
            expected_end = second.valid_from
            if block.expires is not None:
                expected_end = min(expected_end, block.expires)
            assert first.valid_to == expected_end
        assert own[-1].valid_to == block.expires
    never = {s.version_id for s in law_text.sections if s.valid_to and s.valid_to <= s.valid_from}
    assert set(law_text.report.never_in_force) == never
