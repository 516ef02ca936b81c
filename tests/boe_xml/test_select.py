"""The rule that chooses a block's wording on a day: by day, ties to the one listed last,
nothing after the block's end; ids stable and unique."""

from __future__ import annotations

from datetime import date

import pytest

from langchain_asesoria.boe_xml import Block, Law, Version
from langchain_asesoria.boe_xml.select import block_wordings, every_wording, on_day, out_of_order

JAN, JUL, DEC = date(2020, 1, 1), date(2020, 7, 1), date(2020, 12, 1)


def _version(day: date, act: str) -> Version:
    return Version(act, day, day, ())


def _block(*versions: tuple[date, str], expires: date | None = None) -> Block:
    return Block("a1", "precepto", "Artículo 1", expires, tuple(_version(*v) for v in versions))


def _ids_on(block: Block, day: date) -> str | None:
    chosen, _ = on_day(Law("BOE-A-2020-1", (block,)), day)
    return chosen[0].version.amended_by if chosen else None


@pytest.mark.parametrize(
    ("versions", "expires", "day", "chosen"),
    [
        # in order: the latest that has started
        (((JAN, "uno"), (JUL, "dos")), None, date(2020, 6, 30), "uno"),
        (((JAN, "uno"), (JUL, "dos")), None, JUL, "dos"),
        (((JAN, "uno"), (JUL, "dos")), None, date(2019, 12, 31), None),
        # out of order: placed by their day
        (((JUL, "dos"), (JAN, "uno")), None, date(2020, 3, 1), "uno"),
        (((JUL, "dos"), (JAN, "uno")), None, DEC, "dos"),
        # two wordings of one day: the one listed last
        (((JAN, "uno"), (JAN, "corrección")), None, JAN, "corrección"),
        (((JAN, "corrección"), (JAN, "uno")), None, DEC, "uno"),
        # the block's end: nothing from that day on
        (((JAN, "uno"), (JUL, "dos")), DEC, date(2020, 11, 30), "dos"),
        (((JAN, "uno"), (JUL, "dos")), DEC, DEC, None),
        # an end before a wording starts: that wording never applies
        (((JAN, "uno"), (DEC, "tarde")), JUL, DEC, None),
    ],
)
def test_the_wording_of_a_day(
    versions: tuple[tuple[date, str], ...], expires: date | None, day: date, chosen: str | None
) -> None:
    assert _ids_on(_block(*versions, expires=expires), day) == chosen


def test_each_wording_ends_the_day_the_next_starts_or_the_block_ends() -> None:
    wordings = block_wordings(_block((JUL, "dos"), (JAN, "uno"), expires=DEC), 0)
    assert [(w.valid_from, w.valid_to) for w in wordings] == [(JAN, JUL), (JUL, DEC)]
    assert block_wordings(_block((JAN, "uno")), 0)[0].valid_to is None


def test_a_wording_replaced_on_its_day_never_applies() -> None:
    first, second = block_wordings(_block((JAN, "uno"), (JAN, "corrección")), 0)
    assert (first.valid_to, first.never_applies) == (JAN, True)
    assert (second.valid_to, second.never_applies) == (None, False)


@pytest.mark.parametrize(
    ("versions", "ids"),
    [
        (((JAN, "uno"), (JUL, "dos")), ["a1@20200101", "a1@20200701"]),
        (((JUL, "dos"), (JAN, "uno")), ["a1@20200101", "a1@20200701"]),
        (((JAN, "uno"), (JAN, "dos")), ["a1@20200101.1", "a1@20200101"]),
        (((JAN, "a"), (JAN, "b"), (JAN, "c")), ["a1@20200101.1", "a1@20200101.2", "a1@20200101"]),
    ],
)
def test_ids_name_the_block_and_day_and_a_tie_its_place(
    versions: tuple[tuple[date, str], ...], ids: list[str]
) -> None:
    assert [w.version_id for w in block_wordings(_block(*versions), 0)] == ids


def test_out_of_order_is_detected() -> None:
    assert out_of_order(_block((JUL, "dos"), (JAN, "uno")))
    assert not out_of_order(_block((JAN, "uno"), (JAN, "dos"), (JUL, "tres")))


@pytest.mark.parametrize(
    ("expires", "day", "reason", "decides"),
    [
        (None, date(2019, 6, 1), "not_yet_in_force", JAN),
        (JUL, JUL, "expired", JUL),
        (JUL, DEC, "expired", JUL),
    ],
)
def test_a_block_left_out_says_why_and_when(
    expires: date | None, day: date, reason: str, decides: date
) -> None:
    law = Law("BOE-A-2020-1", (_block((JAN, "uno"), expires=expires),))
    chosen, left_out = on_day(law, day)
    assert chosen == ()
    assert [(item.block_id, item.reason, item.day) for item in left_out] == [
        ("a1", reason, decides)
    ]


def test_every_wording_is_in_document_order_and_by_day() -> None:
    second = Block("b", "precepto", None, None, (_version(JUL, "x"), _version(JAN, "y")))
    law = Law(None, (_block((JAN, "uno")), second))
    assert [w.version_id for w in every_wording(law)] == ["a1@20200101", "b@20200101", "b@20200701"]
