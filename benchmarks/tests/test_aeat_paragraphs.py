"""What ``benchmarks.aeat_paragraphs`` counts as a chunk ending with a heading, by table."""

from __future__ import annotations

import pytest

from benchmarks.aeat_paragraphs import Headings, ending_heading, heading_only, printed
from langchain_asesoria import Chunk, ChunkMetadata
from langchain_asesoria.pages import JoinedText

#: Page 1's headings (16 pt and 14 pt), page 2's none.
HEADINGS = Headings(
    lines=("ejemplo", "solucion", "rendimientonetoreducido"),
    keys={
        1: {printed("Ejemplo"): 16.0, printed("Solución"): 14.0},
        2: {printed("Rendimiento neto reducido"): 16.0},
    },
)


def _chunk(text: str, end: int, page: int = 1) -> Chunk:
    metadata = ChunkMetadata(doc_id="d", page=page, page_end=page)
    return Chunk(text, text, end - len(text), end, 1, 0, metadata)


@pytest.mark.parametrize(
    ("last", "after", "page", "expected"),
    [
        ("Ejemplo", "Don A.T.C. obtuvo en 2023", 1, "cut"),  # cut off from its text
        ("Ejemplo", "Solución", 1, "cut"),  # a smaller heading under it: its text follows
        ("Solución", "Ejemplo", 1, "bare"),  # the next heading is larger: no text its own
        ("Ejemplo", "", 1, "bare"),  # nothing follows
        ("Solucion", "La renta", 1, None),  # not as printed: accents differ
        ("(=) RENDIMIENTO NETO REDUCIDO", "La renta", 2, None),  # a diagram's capitals
        ("Ejemplo", "La renta", 2, None),  # a heading of another page
    ],
)
def test_a_chunk_ends_with_a_heading_only_as_printed_on_its_pages(
    last: str, after: str, page: int, expected: str | None
) -> None:
    text = f"Texto del párrafo anterior.\n{last}"
    joined = JoinedText(f"{text}\n{after}", (0,), (page,))
    assert ending_heading(_chunk(text, len(text), page), HEADINGS, joined) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ejemplo\nNormativa: Art. 22.2 Ley IRPF", True),
        ("Ejemplo\nSolución", True),
        ("Ejemplo\nDon A.T.C. obtuvo en 2023", False),
        ("Normativa: Art. 22.2 Ley IRPF", False),  # no heading at all
    ],
)
def test_a_heading_only_chunk_holds_headings_and_law_references(text: str, expected: bool) -> None:
    assert heading_only(_chunk(text, len(text)), HEADINGS) is expected
