"""The structure report's counts (``benchmarks.legal_structure``), on small hand-made laws
whose expected numbers are worked out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import legal_structure as ls
from langchain_asesoria.models import SectionSpan

LAW = "Ley 1/2000, de prueba"


@pytest.mark.parametrize(
    ("path", "counted", "foreign", "disposicion", "rank", "not_title"),
    [
        ((LAW, "TÍTULO I", "CAPÍTULO I", "Artículo 1. Objeto."), True, (), False, False, False),
        ((LAW, "Artículo 1. Objeto.", "1. Primero"), True, (), False, False, False),
        ((LAW, "DISPONGO:", "Artículo 1."), True, ("DISPONGO:",), False, False, False),
        ((LAW, "REY DE ESPAÑA", "TÍTULO I", "Artículo 2."), True, ("REY DE ESPAÑA",), 0, 0, 0),
        ((LAW, "PREÁMBULO", "Artículo 1."), True, ("PREÁMBULO",), False, False, False),
        ((LAW, "5", "TÍTULO VII", "Artículo 91."), True, ("5",), False, False, False),
        ((LAW, "PREÁMBULO", "III"), False, (), False, False, False),  # preamble text: not counted
        ((LAW, "Reglamento del Impuesto", "TÍTULO I", "Artículo 1."), True, (), 0, 0, 0),
        ((LAW, "ANEXO", "Artículo 1."), True, (), False, False, False),
        (
            (LAW, "DISPOSICIONES ADICIONALES", "Disposición adicional primera."),
            True,
            (),
            False,
            False,
            False,
        ),
        ((LAW, "TÍTULO V", "Disposición final primera."), True, (), True, False, False),
        ((LAW, "CAPÍTULO I", "TÍTULO II", "Artículo 3."), True, (), False, True, False),
        ((LAW, "Artículo 1.", "Artículo 2."), True, (), False, True, False),
        ((LAW, "Reglamento", "TÍTULO I", "Reglamento anexo", "TÍTULO I"), False, (), 0, 0, 0),
        ((LAW, "Miles de euros"), False, (), False, False, True),
        ((LAW, "Artículo 4.", "ECIIEE(k)p = PCIIEE × 0,95"), True, (), 0, 0, True),  # noqa: RUF001
        ((LAW,), False, (), False, False, False),
        # unnumbered divisions of the articulado (the Código Civil, the Reglamento
        # Hipotecario, a technical regulation's numbered rubrics) are structure
        (
            (LAW, "CAPÍTULO II. De la accesión", "Disposición general", "Artículo 353."),
            1,
            (),
            0,
            0,
            0,
        ),
        (
            (LAW, "TÍTULO I. Del Registro", "Del recurso gubernativo", "Artículo 112."),
            1,
            (),
            0,
            0,
            0,
        ),
        ((LAW, "CAPÍTULO IV. Trabajos", "10.2 Utilización.", "Artículo 40."), 1, (), 0, 0, 0),
        (
            (LAW, "TÍTULO I. De la Mesa", "*Sección 1.ª De las funciones*", "Artículo 2."),
            1,
            (),
            0,
            0,
            0,
        ),
        # but not above an articulado's unit, nor a broken line, a caption, a note
        (
            (LAW, "Del recurso gubernativo", "Artículo 112."),
            1,
            ("Del recurso gubernativo",),
            0,
            0,
            0,
        ),
        (
            (LAW, "TÍTULO I. Prestaciones", "y accidente no laboral", "Artículo 9."),
            1,
            ("y accidente no laboral",),
            0,
            0,
            0,
        ),
        (
            (LAW, "TÍTULO II. Tasas", "Tabla número 2", "Artículo 9."),
            1,
            ("Tabla número 2",),
            0,
            0,
            0,
        ),
        ((LAW, "TÍTULO II. Tasas", "(Derogado)", "Artículo 9."), 1, ("(Derogado)",), 0, 0, 0),
        ((LAW, "TÍTULO II. Tasas", "III", "Artículo 9."), 1, ("III",), 0, 0, 0),
        ((LAW, "TÍTULO II. Tasas", "DISPONGO:", "Artículo 9."), 1, ("DISPONGO:",), 0, 0, 0),
        (
            (LAW, "TÍTULO II. Tasas", "500 pesetas/TPM", "Artículo 9."),
            1,
            ("500 pesetas/TPM",),
            0,
            0,
            0,
        ),
        ((LAW, "PREÁMBULO", "Del objeto", "Artículo 1."), 1, ("PREÁMBULO", "Del objeto"), 0, 0, 0),
        # a treaty's PARTE is structure
        ((LAW, "PARTE VI. Disposiciones finales", "Artículo 30."), 1, (), 0, 0, 0),
        ((LAW, "SEXTA PARTE. Otras disposiciones", "Artículo 9."), 1, (), 0, 0, 0),
    ],
)
def test_path_faults(
    path: tuple[str, ...],
    counted: bool | int,
    foreign: tuple[str, ...],
    disposicion: bool,
    rank: bool,
    not_title: bool,
) -> None:
    faults = ls.path_faults(path)
    assert faults.counted is bool(counted)
    assert faults.foreign == foreign
    assert faults.disposicion_under_articulado is bool(disposicion)
    assert faults.rank_order is bool(rank)
    assert faults.not_a_title is bool(not_title)
    assert faults.wrong is bool(foreign or disposicion or rank or not_title)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Miles de euros", True),
        ("(Euros)", True),
        ("1.234,56 euros", True),
        ("0,95", True),
        ("12 %", True),
        ("A = B + C", True),
        ("5", False),  # a numeral of a preamble, not an amount
        ("III", False),
        ("Artículo 5. Tipo del 21 por ciento.", False),
        ("TÍTULO II", False),
        # a chapter's name with a formula's sign names its chapter (BOE-A-2016-2827)
        ("CAPÍTULO III. Recipientes cuyo producto PS × V sea superior a 50 bar.L", False),  # noqa: RUF001
        ("", False),
    ],
)
def test_is_not_a_title(title: str, expected: bool) -> None:
    assert ls.is_not_a_title(title) is expected


def _span(text: str, heading: str, end: int, path: tuple[str, ...]) -> SectionSpan:
    start = text.index(heading)
    return SectionSpan(start, end, heading.lstrip("# "), path, title_end=start + len(heading))


def test_missed_articles_counts_heading_lines_no_section_has() -> None:
    text = (
        "# Ley\n\n"  # 0..6
        "##### Artículo 1. Objeto.\n\n"
        "Texto.\n\n"
        "Artículo 2. Ámbito.\n\n"  # a plain line: a heading no section has
        "Según el\nArtículo 3. que sigue\n\n"  # inside a paragraph: not a heading line
        "«Artículo 4. Citado.\n\n"  # opens a quotation...
        "Artículo 5. Citado también.»\n\n"  # ...still inside it
        "Artículo 6. Otro.\n"  # a heading line again, no section
    )
    one = _span(text, "##### Artículo 1. Objeto.", len(text), ("Ley", "Artículo 1. Objeto."))
    assert ls.missed_articles(text, [one]) == 2
    six = _span(text, "Artículo 6. Otro.", len(text), ("Ley", "Artículo 6. Otro."))
    assert ls.missed_articles(text, [one, six]) == 1


def test_missed_articles_takes_a_section_carrying_its_title_before_it() -> None:
    text = "## TÍTULO I\n\n##### Artículo 1. Objeto.\n\nTexto."
    heading = "##### Artículo 1. Objeto."
    carried = SectionSpan(
        0, len(text), "Artículo 1.", ("TÍTULO I", "Artículo 1."), title_end=len(heading) + 13
    )
    assert text[: carried.title_end].endswith(heading)
    assert ls.missed_articles(text, [carried]) == 0


def test_out_of_order_finds_an_ancestor_after_its_descendant() -> None:
    text = "Ley\n\nArtículo 1.\n\nTexto.\n\nTÍTULO I\n\nArtículo 2.\n\nTexto."
    first = text.index("Artículo 1.")
    second = text.index("Artículo 2.")
    right = [
        SectionSpan(first, second, "Artículo 1.", ("Ley", "Artículo 1."), title_end=first + 11),
        SectionSpan(second, len(text), "Artículo 2.", ("Ley", "TÍTULO I", "Artículo 2.")),
    ]
    assert ls.out_of_order(text, right) == 0
    wrong = [  # TÍTULO I stands after Artículo 1 in the text
        SectionSpan(first, second, "Artículo 1.", ("Ley", "TÍTULO I", "Artículo 1.")),
        right[1],
    ]
    assert ls.out_of_order(text, wrong) == 1
    unknown = [SectionSpan(first, second, "Artículo 1.", ("Ley", "Nada así", "Artículo 1."))]
    assert ls.out_of_order(text, unknown) == 0  # a title the text does not hold is skipped


def test_measure_sections_weighs_each_section_by_its_chunks() -> None:
    text = "Ley\n\nDISPONGO:\n\nArtículo 1.\n\nUno.\n\nArtículo 2.\n\nDos."
    a1, a2 = text.index("Artículo 1."), text.index("Artículo 2.")
    sections = [
        SectionSpan(a1, a2, "Artículo 1.", ("Ley", "DISPONGO:", "Artículo 1."), title_end=a1 + 11),
        SectionSpan(a2, len(text), "Artículo 2.", ("Ley", "Artículo 2."), title_end=a2 + 11),
    ]
    law = ls.measure_sections("ley.md", text, sections, weights=[3, 2])
    assert (law.chunks, law.units, law.foreign, law.wrong) == (5, 5, 3, 3)
    assert law.ancestors == {"DISPONGO:": 3}
    assert law.any_wrong
    summed = ls.total([law, ls.measure_sections("otra.md", text, sections[1:])])
    assert (summed.chunks, summed.units, summed.wrong) == (6, 6, 3)
    right, laws_wrong = ls.shares([law, ls.measure_sections("otra.md", text, sections[1:])])
    assert right == pytest.approx(0.5)
    assert laws_wrong == pytest.approx(0.5)


def test_the_report_runs_on_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ley.md").write_text(
        "# Ley 2/2001\n\n### DISPONGO:\n\n##### Artículo 1. Objeto.\n\nTexto uno.\n\n"
        "##### Artículo 2. Ámbito.\n\nTexto dos.\n\n##### Artículo 3. Fin.\n\nTexto tres.\n",
        encoding="utf-8",
    )
    (tmp_path / "otra.md").write_text(
        "# Ley 3/2001\n\n### Notas del editor\n\n##### Artículo 1. Objeto.\n\nTexto uno.\n\n"
        "##### Artículo 2. Ámbito.\n\nTexto dos.\n",
        encoding="utf-8",
    )
    (tmp_path / "ley.html.extracted.md").write_text("# No", encoding="utf-8")
    assert ls.files([tmp_path], (".html",)) == []
    assert ls.main([str(tmp_path), "--sections", "--laws", "all", "--suffix", ".md"]) == 0
    out = capsys.readouterr().out
    assert "# 3 laws, sections" in out
    assert "| ley.md | 3 | 3 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |" in out  # DISPONGO: holds nothing
    assert "| otra.md | 2 | 2 | 2 | 0 | 0 | 0 | 2 | 0 | 0 |" in out  # an editor's heading does
    assert "'Notas del editor' 2" in out
