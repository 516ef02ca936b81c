"""BOE editorial notes stay with the text they annotate (issue 49, item 3).

legalize-es sets each note as a quoted line of small print after the provision it
annotates ("> <small>Se modifica el apartado 2 por…</small>"). No paragraph or line
separator cuts right before one (``models._NOT_BEFORE_GLUED``), nor before the enacting
formula on a line of its own ("DISPONGO:"), so a chunk never holds
notes alone when the notes and the sentence before them fit in one chunk; the chunks
still cover the text exactly.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, examples, spanish_text

from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
from langchain_asesoria.models import DEFAULT_SEPARATORS
from langchain_asesoria.testing import WordTokenization

_NOTE_LINES = st.sampled_from(
    [
        "> <small>Se modifica el apartado 2 por el art. único.1 de la Orden EHA/1813/2010, "
        "de 23 de junio. [Ref. BOE-A-2010-10790](https://www.boe.es/buscar/doc.php?id="
        "BOE-A-2010-10790).</small>",
        "> <small>Téngase en cuenta que la Delegación Central se pondrá en marcha "
        "el 1 de enero de 2006.</small>",
        "> <small>Se añade por la disposición final 1 de la Ley 7/2024 "
        "(€ 1.500, ñandú 🙂).</small>",
        ">        Se modifica por el apartado 1 de la Resolución de 16 de diciembre de 1994.  "
        "Ref. BOE-A-1994-28710                                  .        ",
        "> Téngase en cuenta que la Orden de 2 de marzo ñ € se aplica desde 2025.",
    ]
)


def _notes_only(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and all(line.lstrip().startswith(">") for line in lines)


@settings(PROFILE, max_examples=examples(200), deadline=None)
@given(
    article=spanish_text(max_paragraphs=5, long_words_too=False),
    notes=st.lists(_NOTE_LINES, min_size=1, max_size=3),
    after=st.booleans(),
    budget=st.integers(min_value=90, max_value=400),
)
def test_no_chunk_is_notes_alone(article: str, notes: list[str], after: bool, budget: int) -> None:
    text = f"Artículo 1. Objeto.\n\n{article.strip() or 'Texto.'}\n\n" + "\n\n".join(notes)
    if after:
        text += "\n\nArtículo 2. Ámbito.\n\nEl texto del artículo segundo."
    tokenization = WordTokenization(4096)
    config = ChunkingConfig(max_tokens=budget, overlap_tokens=0, section_context="none")
    chunks = chunk_document(
        [LoadedPage(text, 1)], ChunkMetadata(doc_id="ley"), config=config, tokenization=tokenization
    )
    notes_block = "\n\n".join(notes)
    # the notes and a short sentence before them fit: none of the chunks is notes alone
    if tokenization.count(notes_block) + 40 <= budget:
        assert not any(_notes_only(chunk.text) for chunk in chunks)
    covered = [False] * len(text)
    for chunk in chunks:
        assert chunk.text == text[chunk.start : chunk.end]
        covered[chunk.start : chunk.end] = [True] * (chunk.end - chunk.start)
    assert all(seen or character.isspace() for seen, character in zip(covered, text, strict=True))


_FORMULAS = st.sampled_from(
    ["DISPONGO:", "D I S P O N G O :", "DISPONGO\u00a0:", "**DISPONGO:**", "Resuelvo:"]
)


@settings(PROFILE, max_examples=examples(200), deadline=None)
@given(
    preamble=spanish_text(max_paragraphs=3, long_words_too=False),
    formula=_FORMULAS,
    gap=st.sampled_from(["\n\n", "\n", "\n \n", "\r\n\r\n"]),
)
def test_no_separator_cuts_before_the_enacting_formula(
    preamble: str, formula: str, gap: str
) -> None:
    """ "En su virtud, …, ⏎ DISPONGO:" closes a decree's preamble: no separator cuts right
    before the formula on its own line (it ends the sentence before it: alone, a chunk
    of it says nothing), while the article after it is cut from it as ever."""
    last = "En su virtud, a propuesta del Ministro, previa deliberación del Consejo de Ministros,"
    before = f"{preamble.strip() or 'Texto.'}\n\n{last}{gap}"
    text = f"{before}{formula}\n\nArtículo 1. Objeto.\n\nEl texto del artículo primero."
    ends = {match.end() for pattern in DEFAULT_SEPARATORS for match in re.finditer(pattern, text)}
    assert len(before) not in ends
    assert text.index("Artículo 1.") in ends
