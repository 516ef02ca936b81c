"""The fixture law on a day and with every wording: its text, sections, paths, metadata,
leads and report."""

from __future__ import annotations

from datetime import date, datetime
from itertools import pairwise

import pytest
from boe_laws import FIXTURE_DIR, FIXTURE_ID, GenBlock, GenVersion, law_xml, p

from langchain_asesoria.boe_xml import (
    Law,
    LawSection,
    LawText,
    law_all_versions,
    law_as_of,
    read_law,
    read_law_file,
)
from langchain_asesoria.boe_xml.model import IMAGE
from langchain_asesoria.errors import ConfigurationError

REGLAMENTO = "REGLAMENTO DEL IMPUESTO SOBRE LOS DEPÓSITOS DE AGUA"
TITULO = "TÍTULO I. Normas generales del impuesto"
CUOTA = (REGLAMENTO, TITULO, "CAPÍTULO II. Cuota", "Sección 1.ª Cálculo de la cuota")
ELI = "https://www.boe.es/eli/es/rd/2004/01/10/99"


@pytest.fixture(scope="module")
def law() -> Law:
    return read_law_file(FIXTURE_DIR / f"{FIXTURE_ID}.xml")


def _section(law_text: LawText, block_id: str) -> LawSection:
    return next(s for s in law_text.sections if s.block_id == block_id)


def _slice(law_text: LawText, block_id: str) -> str:
    span = _section(law_text, block_id).span
    return law_text.text[span.start : span.end]


@pytest.mark.parametrize(
    ("day", "a4", "present", "absent"),
    [
        (date(2005, 1, 1), "a4@20040201", {"a2", "a5"}, {"no", "a5bis"}),
        (date(2010, 6, 1), "a4@20060906", {"a2"}, {"no", "a5bis"}),
        (date(2024, 12, 31), "a4@20190129", {"no", "a2", "a5"}, {"a5bis"}),
        (date(2025, 6, 17), "a4@20190129", {"no"}, {"a2", "a5bis"}),
        (date(2031, 10, 1), "a4@20311001", {"no", "a5bis"}, {"a2"}),
    ],
)
def test_on_a_day_each_block_gives_its_wording_in_force(
    law: Law, day: date, a4: str, present: set[str], absent: set[str]
) -> None:
    law_text = law_as_of(law, day)
    assert _section(law_text, "a4").version_id == a4
    ids = {section.block_id for section in law_text.sections}
    assert present <= ids
    assert not absent & ids
    assert {item.block_id for item in law_text.report.left_out} == absent


def test_article_4s_four_wordings_hold_their_own_text(law: Law) -> None:
    expected = {
        date(2005, 1, 1): "12,50 € por cada metro cúbico, según la redacción original",
        date(2010, 6, 1): "14,00 € por cada metro cúbico, tras la reforma de dos mil seis",
        date(2024, 12, 31): "Grande | 20,00 | 2,50",
        date(2031, 10, 1): "Grande | 22,00 | 2,75",
    }
    texts = {day: _slice(law_as_of(law, day), "a4") for day in expected}
    for day, words in expected.items():
        assert words in texts[day]
        assert all(words not in texts[other] for other in expected if other != day)


def test_paths_follow_the_headings_by_rank(law: Law) -> None:
    law_text = law_as_of(law, date(2024, 12, 31))
    paths = {section.block_id: section.span.section_path for section in law_text.sections}
    assert paths["preambulo"] == ("Preámbulo",)
    assert paths["no"] == ("Nota inicial",)
    assert paths["firma"] == ("Firma",)
    assert paths["aunico"] == ("Artículo único. Aprobación del Reglamento.",)
    assert paths["a1"] == (
        REGLAMENTO,
        TITULO,
        "CAPÍTULO I. Hecho imponible y exenciones",
        "Artículo 1. Hecho imponible.",
    )
    assert paths["a4"] == (*CUOTA, "Artículo 4. Cuota del impuesto.")
    # a disposición closes the TÍTULO, not the approved text's title
    assert paths["daprimera"] == (
        REGLAMENTO,
        "Disposición adicional primera. Comunidades autónomas.",
    )
    # inside the ANEXO, its numbered parts rank under it
    assert paths["A2"] == (REGLAMENTO, "ANEXO. Modelos de señal", "2. Señal de depósito de riego.")


def test_bare_headings_open_the_next_section_and_its_title_end(law: Law) -> None:
    law_text = law_as_of(law, date(2024, 12, 31))
    a1 = _section(law_text, "a1")
    assert a1.carried == ("reglamento", "ti", "ci")
    assert law_text.text[a1.span.start : a1.span.title_end] == (
        f"{REGLAMENTO}\n\nTÍTULO I\n\nNormas generales del impuesto\n\nCAPÍTULO I\n\n"
        "Hecho imponible y exenciones\n\nArtículo 1. Hecho imponible."
    )
    assert {s.block_id for s in law_text.sections}.isdisjoint({"reglamento", "ti", "ci", "s1"})


def test_sections_are_exact_disjoint_spans_in_order(law: Law) -> None:
    for law_text in (law_as_of(law, date(2024, 12, 31)), law_all_versions(law)):
        spans = law_text.spans
        assert all(a.end < b.start for a, b in pairwise(spans))
        assert spans[0].start == 0
        assert spans[-1].end == len(law_text.text)
        for span in spans:
            piece = law_text.text[span.start : span.end]
            assert piece == piece.strip()
            assert span.section_label == span.section_path[-1]
            if span.title_end is not None:
                assert span.start < span.title_end <= span.end


def test_a_wordings_metadata(law: Law) -> None:
    section = _section(law_as_of(law, date(2010, 6, 1)), "a4")
    assert dict(section.fields) == {
        "block_id": "a4",
        "block_type": "precepto",
        "version_id": "a4@20060906",
        "valid_from": "2006-09-06",
        "valid_to": "2019-01-29",
        "valid_from_day": 20060906,
        "valid_to_day": 20190129,
        "amended_by": "BOE-A-2006-8888",
        "amendment_published": "2006-09-05",
        "vigencia": "Vigente del 6 de septiembre de 2006 al 28 de enero de 2019",
        "url": f"https://www.boe.es/buscar/act.php?id={FIXTURE_ID}#a4",
        "eli": ELI,
    }
    assert section.vigencia == dict(section.fields)["vigencia"]


def test_the_wording_in_force_has_no_end(law: Law) -> None:
    fields = dict(_section(law_as_of(law, date(2031, 10, 1)), "a4").fields)
    assert "valid_to" not in fields
    assert fields["valid_to_day"] == 99991231
    assert fields["vigencia"] == "Vigente desde el 1 de octubre de 2031"


def test_the_laws_own_fields(law: Law) -> None:
    assert law_as_of(law, date(2020, 1, 1)).fields == (
        ("norm_id", FIXTURE_ID),
        ("status", "in_force"),
        ("last_updated", "2030-03-15"),
    )


def test_every_value_is_vector_store_safe(law: Law) -> None:
    law_text = law_all_versions(law)
    for section in law_text.sections:
        for key, value in (*section.fields, *law_text.fields):
            assert isinstance(key, str)
            assert type(value) in (str, int)


def test_a_tables_header_is_the_lead_of_its_rows(law: Law) -> None:
    law_text = law_as_of(law, date(2024, 12, 31))
    (lead,) = law_text.leads
    assert lead.lead == "Depósito | Cuota (€) | Recargo (€)"
    assert lead.table
    assert law_text.text[lead.start : lead.end] == "Pequeño | 10,00 | 1,00\nGrande | 20,00 | 2,50"
    span = _section(law_text, "a4").span
    assert span.start < lead.start < lead.end <= span.end


def test_images_are_visible_and_counted(law: Law) -> None:
    law_text = law_as_of(law, date(2024, 12, 31))
    assert law_text.text.count(IMAGE) == law_text.report.images == 3
    assert f"[imagen] Señal azul | {IMAGE} Señal verde" in law_text.text


def test_footnotes_stay_with_their_wording(law: Law) -> None:
    law_text = law_as_of(law, date(2010, 6, 1))
    assert _slice(law_text, "a4").endswith(
        "Se modifica el apartado 1 por el art. único.3 del Real Decreto 88/2006. "
        "Ref. BOE-A-2006-8888."
    )


def test_a_note_shown_until_a_day_is_left_out_from_that_day_and_reported(law: Law) -> None:
    law_text = law_as_of(law, date(2031, 10, 1))
    assert "Téngase en cuenta que esta redacción" not in law_text.text
    assert [(n.version_id, n.expires) for n in law_text.report.expired_notes] == [
        ("a4@20311001", date(2031, 10, 1))
    ]


def test_a_repealed_wording_is_the_text_the_boe_shows(law: Law) -> None:
    assert "(Derogado)." in _slice(law_as_of(law, date(2024, 1, 1)), "a5")


def test_every_wording_is_a_section_of_its_own(law: Law) -> None:
    law_text = law_all_versions(law)
    ids = [section.version_id for section in law_text.sections]
    assert len(ids) == len(set(ids)) == law.version_count == 24
    assert [i for i in ids if i.startswith("a4@")] == [
        "a4@20040201",
        "a4@20060906",
        "a4@20190129",
        "a4@20311001",
    ]
    assert "ti@20040201" in ids  # a heading's wording too
    assert law_text.report.as_of is None
    assert law_text.report.left_out == ()


def test_every_wording_runs_again_to_the_same_ids_and_text(law: Law) -> None:
    again = read_law_file(FIXTURE_DIR / f"{FIXTURE_ID}.xml")
    assert law_all_versions(again) == law_all_versions(law)
    assert law_as_of(again, date(2020, 1, 1)) == law_as_of(law, date(2020, 1, 1))


def test_an_added_block_is_placed_among_the_headings_of_its_first_day(law: Law) -> None:
    law_text = law_all_versions(law)
    assert _section(law_text, "a5bis").span.section_path == (
        *CUOTA,
        "Artículo 5 bis. Bonificación por ahorro.",
    )


def _law(*blocks: GenBlock) -> Law:
    return read_law(law_xml(blocks), law_id="BOE-A-2004-1")


def _wording(*content: str, day: date = date(2004, 1, 1)) -> tuple[GenVersion, ...]:
    return (GenVersion("BOE-A-2004-1", day, day, content),)


def test_an_unknown_type_is_kept_as_text_and_reported() -> None:
    law = _law(GenBlock("x1", "nota_final", "Nota final", _wording(p("parrafo", "Texto raro."))))
    law_text = law_as_of(law, date(2020, 1, 1))
    assert law_text.text == "Texto raro."
    assert law_text.sections[0].span.section_path == ("Nota final",)
    assert law_text.report.unknown_types == (("x1", "nota_final"),)


def test_a_heading_whose_class_ranks_nothing_is_a_leaf_and_reported() -> None:
    law = _law(
        GenBlock("t1", "encabezado", "TÍTULO I", _wording(p("titulo_num", "TÍTULO I"))),
        GenBlock("h", "encabezado", "Índice", _wording(p("centro_redonda", "Índice"))),
        GenBlock("a1", "precepto", "Artículo 1", _wording(p("articulo", "Artículo 1. Uno."))),
    )
    law_text = law_as_of(law, date(2020, 1, 1))
    paths = {s.block_id: s.span.section_path for s in law_text.sections}
    assert paths == {"h": ("TÍTULO I", "Índice"), "a1": ("TÍTULO I", "Artículo 1. Uno.")}
    assert law_text.report.unranked_headings == ("h",)


def test_a_wording_with_no_text_gives_no_section_and_is_reported() -> None:
    law = _law(GenBlock("a1", "precepto", "Artículo 1", _wording()))
    law_text = law_as_of(law, date(2020, 1, 1))
    assert (law_text.text, law_text.sections) == ("", ())
    assert law_text.report.empty == ("a1@20040101",)


def test_a_bare_heading_at_the_end_is_a_section_alone() -> None:
    law = _law(GenBlock("t1", "encabezado", "TÍTULO I", _wording(p("titulo_num", "TÍTULO I"))))
    (section,) = law_as_of(law, date(2020, 1, 1)).sections
    assert section.block_id == "t1"


def test_two_wordings_of_one_day_are_reported_and_both_kept_with_every_wording() -> None:
    day = date(2010, 1, 1)
    versions = (
        GenVersion("BOE-A-2010-1", day, day, (p("parrafo", "Primera."),)),
        GenVersion("BOE-A-2010-2", day, day, (p("parrafo", "Corrección."),)),
    )
    law = _law(GenBlock("a1", "precepto", "Artículo 1", versions))
    assert law_as_of(law, day).text == "Corrección."
    every = law_all_versions(law)
    assert every.text == "Primera.\n\nCorrección."
    assert every.report.never_in_force == ("a1@20100101.1",)
    assert dict(every.sections[0].fields)["valid_to_day"] == 20100101


def test_a_datetime_reads_its_day_and_anything_else_is_refused(law: Law) -> None:
    assert law_as_of(law, datetime(2010, 6, 1, 12, 30)) == law_as_of(law, date(2010, 6, 1))
    with pytest.raises(ConfigurationError, match=r"datetime\.date"):
        law_as_of(law, "2010-06-01")  # type: ignore[arg-type]
