"""Planning from estimates (``engine/_plan.py``): plans, overlap starts, inner cuts."""

from __future__ import annotations

from itertools import pairwise

import pytest
from engine_cases import section_of
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, examples, spanish_text

from langchain_asesoria import (
    Chunk,
    ChunkingConfig,
    ChunkMetadata,
    LoadedPage,
    SectionSpan,
    chunk_document,
)
from langchain_asesoria.engine import titles_to_what_follows
from langchain_asesoria.engine._headings import heading_block, trailing_titles
from langchain_asesoria.engine._plan import InnerCuts, Plan, Span, overlap_starts, plan_run
from langchain_asesoria.engine._search import correct
from langchain_asesoria.engine._section import SLACK
from langchain_asesoria.testing import ByteTokenization, WordTokenization


@pytest.mark.parametrize(
    ("lessons", "expected"),
    [
        ((), InnerCuts(0, 0, decided=False)),
        ((True,), InnerCuts(0, 1, decided=False)),
        ((True, True, True), InnerCuts(0, 3, decided=False)),
        ((True, True, True, True), InnerCuts(0, 4, decided=True)),
        ((True, True, True, True, True, False), InnerCuts(SLACK, 4, decided=True)),
        ((False,), InnerCuts(SLACK, 0, decided=True)),
        ((False, True, True, True, True), InnerCuts(SLACK, 0, decided=True)),
    ],
)
def test_inner_cuts_learn_from_exact_counts(lessons: tuple[bool, ...], expected: InnerCuts) -> None:
    state = InnerCuts()
    for fits in lessons:
        state = state.learned(fits)
    assert state == expected


def test_only_undecided_inner_plans_are_probes() -> None:
    inner_plan, unit_plan = Plan(0, 5, 0, inner=True), Plan(0, 5, 0)
    assert InnerCuts().probing(inner_plan)
    assert not InnerCuts().probing(unit_plan)
    assert not InnerCuts(decided=True).probing(inner_plan)


@settings(PROFILE, max_examples=examples(60))
@given(
    text=spanish_text(long_words_too=False).filter(str.strip),
    budget=st.integers(24, 160),
    overlap=st.integers(0, 20),
)
def test_plans_cover_the_section_in_order_and_fit_their_estimates(
    text: str, budget: int, overlap: int
) -> None:
    """With an exact index (bytes), the plans run from the section's start to its end,
    each starting after the previous one's start and ending after its end, each
    estimated within the budget, and overlapping only inside the previous plan."""
    tokenization = ByteTokenization(512)
    section = section_of(text, tokenization, budget=budget, overlap=min(overlap, budget - 1))
    plans = list(plan_run(section, None, InnerCuts(), None))
    if not plans:  # the first unit does not fit even alone: a correction's business
        assert section.estimated_end(section.start, section.start) is None
        return
    assert plans[0].start == plans[0].after == section.start
    for previous, plan in zip([None, *plans], plans, strict=False):
        assert section.start <= plan.start < plan.end <= section.end
        assert section.estimate(plan.start, plan.end) <= budget or plan.inner
        if previous is not None:
            assert plan.after == previous.end
            assert previous.start < plan.start
            assert previous.end < plan.end
            assert section.text[previous.end : plan.start].strip() == "" or plan.start < plan.after
    ends_inside = plans[-1].end == section.end or InnerCuts().probing(plans[-1])
    assert ends_inside or section.estimated_end(plans[-1].end, plans[-1].end) is None


def test_a_run_stops_at_its_limit_and_goes_on_from_where_it_stopped() -> None:
    tokenization = WordTokenization(512)
    text = " ".join(f"Frase número {n} del texto." for n in range(200))
    section = section_of(text, tokenization, budget=32, overlap=6)
    whole = list(plan_run(section, None, InnerCuts(), None))
    first = list(plan_run(section, None, InnerCuts(), 5))
    rest = list(plan_run(section, first[-1].span, InnerCuts(), None))
    assert len(first) == 5
    assert [*first, *rest] == whole


def test_a_blob_is_planned_one_probe_at_a_time_until_decided() -> None:
    tokenization = ByteTokenization(512)
    text = "x" * 1000
    section = section_of(text, tokenization, budget=64)
    (probe,) = plan_run(section, None, InnerCuts(), None)
    assert probe.inner
    assert probe.end - probe.start == 62  # 64 minus the two special tokens
    decided = list(plan_run(section, None, InnerCuts(decided=True), None))
    assert len(decided) > 10
    assert all(plan.inner for plan in decided[:-1])  # the last reaches the unit's end
    assert decided[-1].end == section.end
    slack = next(iter(plan_run(section, None, InnerCuts(SLACK, 0, decided=True), None)))
    assert slack.end - slack.start == 62 - SLACK


def test_overlap_reuses_whole_units_of_the_split_coarsest_first() -> None:
    """The paragraph is too long to fit, so it is split at sentences: the overlap starts
    at a sentence start (a unit), never at a word inside the last sentence."""
    tokenization = WordTokenization(512)
    text = "Uno dos tres cuatro cinco. Seis siete ocho nueve. Diez once doce trece catorce."
    section = section_of(text, tokenization, budget=14, overlap=10)
    sentences = [text.index("Seis"), text.index("Diez")]
    assert list(section.starts) == sentences
    starts = overlap_starts(section, Span(0, len(text)))
    assert starts == [sentences[1]]  # "Seis ..." would exceed the target of 10


def test_a_line_wrapped_by_pdf_extraction_is_no_line() -> None:
    """pypdf leaves "word \\n" where a printed line wraps inside a sentence: those breaks
    are spaces, so units (and overlap) start at sentences; a break right after text
    (a real line end, as in Markdown or a list) is still a line."""
    tokenization = WordTokenization(512)
    wrapped = "Uno dos tres \ncuatro cinco. Seis siete \nocho nueve. Diez once \ndoce trece."
    section = section_of(wrapped, tokenization, budget=14, overlap=10)
    assert list(section.starts) == [wrapped.index("Seis"), wrapped.index("Diez")]
    assert overlap_starts(section, Span(0, len(wrapped))) == [wrapped.index("Diez")]
    lines = "Uno dos tres\ncuatro cinco seis\nsiete ocho nueve\ndiez once doce trece"
    section = section_of(lines, tokenization, budget=14, overlap=10)
    assert [lines[start:].split()[0] for start in section.starts] == ["cuatro", "siete", "diez"]
    # A bullet that pypdf puts on a line of its own opens the item below it.
    items = "Uno dos tres cuatro:\n•\nCinco seis siete ocho\n•\nNueve diez once doce"
    section = section_of(items, tokenization, budget=14, overlap=10)
    assert [items[start:].split()[0] for start in section.starts] == ["•", "•"]


def test_overlap_candidates_stay_within_the_target() -> None:
    tokenization = WordTokenization(512)
    text = " ".join(["Palabra."] * 60)
    section = section_of(text, tokenization, budget=64, overlap=5)
    starts = overlap_starts(section, Span(0, len(text)))
    assert starts
    for start in starts:
        assert tokenization.count_content(text[start:]) <= 5
    assert overlap_starts(section_of(text, tokenization, budget=64), Span(0, len(text))) == []
    # no sentence start within the target: no overlap from a word (OVERLAP_FINEST_LEVEL)
    words = " ".join(["palabra"] * 60)
    section = section_of(words, tokenization, budget=64, overlap=5)
    assert overlap_starts(section, Span(0, len(words))) == []


_WORDS = ("renta", "base", "cuota", "tipo", "saldo", "gastos", "ingresos", "período")


@st.composite
def _sentences(draw: st.DrawFn) -> list[str]:
    found = []
    for _ in range(draw(st.integers(2, 12))):
        words = draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=30))
        found.append(" ".join([words[0].capitalize(), *words[1:]]) + ".")
    return found


@settings(PROFILE, max_examples=examples(200), deadline=None)
@given(sentences=_sentences(), budget=st.integers(24, 200), overlap=st.sampled_from([0, 8, 24]))
def test_a_chunk_ends_inside_a_sentence_only_when_no_sentence_end_fits(
    sentences: list[str], budget: int, overlap: int
) -> None:
    """Inside a paragraph the cut falls at a sentence end whenever one fits: a chunk
    that ends inside a sentence holds no sentence end after the previous chunk's end
    (the chunk up to it, a prefix of one that fits, would fit), and a chunk that starts
    inside a sentence does so only after one that ended inside it."""
    from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document

    text = " ".join(sentences)
    sentence_ends = {i + 1 for i, char in enumerate(text) if char == "."}
    starts = {0} | {end + 1 for end in sentence_ends}
    chunks = chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="d"),
        config=ChunkingConfig(max_tokens=budget, overlap_tokens=min(overlap, budget // 2)),
        tokenization=ByteTokenization(),
    )
    after = 0
    for chunk in chunks:
        if chunk.end not in sentence_ends:
            assert not any(after < end < chunk.end for end in sentence_ends), chunk
        if chunk.start not in starts and chunk.overlap_tokens == 0:
            assert after not in sentence_ends  # the chunk before ended inside a sentence
        after = chunk.end


def _lead_in_after(first: str) -> str:
    item = "a) " + " ".join(["que al menos una sociedad emplee trabajadores"] * 3) + "."
    return f"{first}\n\n1. Se regirá por este capítulo cuando concurra:\n\n{item}\n\n{item}"


def _first_plan(text: str) -> str:
    """The first chunk planned with a budget that holds the text up to its lead-in or
    its list's first item, not both (the lead-in less than half of it)."""
    tokenization = WordTokenization(512)
    budget = tokenization.count(text[text.index("a)") :].split("\n")[0]) + 4
    assert tokenization.count(text[: text.index(":") + 1]) < budget
    plan = next(plan_run(section_of(text, tokenization, budget=budget), None, InnerCuts(), None))
    return text[plan.start : plan.end]


@pytest.mark.parametrize(
    "heading",
    ["Artículo 39. Derechos de participación.", "«3. Deducciones por donativos.", "CAPÍTULO I"],
)
def test_a_lead_in_does_not_leave_a_heading_line_alone(heading: str) -> None:
    """A one-line paragraph (a heading the reading left inside the section: an article
    quoted in a disposición) followed by a lead-in that ends where the budget does: the
    chunk ends after the lead-in rather than after that line alone."""
    assert _first_plan(_lead_in_after(heading)).endswith("concurra:")


def test_a_lead_in_still_starts_the_next_chunk_after_a_longer_paragraph() -> None:
    """The look-back for a lead-in still keeps it with its list when what stays is more
    than what goes: a paragraph longer than the lead-in."""
    paragraph = " ".join(["Texto del párrafo anterior"] * 3) + "."
    assert _first_plan(_lead_in_after(paragraph)).endswith("anterior.")


# Quoted amended text inside an amending article (the reading keeps it one section):
# a unit's heading lines, then an article line with a full stop, then a first paragraph
# with no sentence end within the room (BOE-A-2016-11094, BOE-A-2018-17769).
_QUOTED_CAPITULO = (
    "### CAPÍTULO II. Determinación de los componentes de los costes de comercialización\n\n"
    "Artículo 24. Metodología para la fijación de la retribución por costes de explotación."
    "\n\n1. En el año n, a partir de la información aportada por las empresas "
    "comercializadoras de referencia de energía eléctrica conforme a lo dispuesto en el "
    "artículo 27, se calculará y se fijará una única retribución total por costes de "
    "explotación fijos (RTCEF) para el siguiente periodo trianual (años n+1, n+2 y n+3), "
    "según lo siguiente:\n\n### RTCEF = RCEF + RCFtovp + RMRf\n\nDonde:\n\n\u2013 RTCEF = "
    "Retribución total por costes de explotación fijos, expresada en €/kW y año.\n\n"
    "\u2013 RCEF = Retribución por costes de explotación fijos, expresada en €/kW y año."
)
_QUOTED_TITULO = (
    "## TÍTULO II. Viajes combinados\n\n### CAPÍTULO I. Obligaciones de información y "
    "contenido del contrato de viaje combinado\n\nArtículo 153. Información precontractual."
    "\n\n1. Antes de que el viajero quede obligado por cualquier contrato de viaje combinado "
    "u oferta correspondiente, el organizador, y también el minorista, cuando el viaje "
    "combinado se venda a través de este último, proporcionarán al viajero el formulario "
    "con la información normalizada relativa al viaje combinado que figura en el anexo II, "
    "A o B, así como la siguiente información que resulte aplicable al viaje combinado:\n\n"
    "a) Las principales características de los servicios de viaje que se señalan a "
    "continuación:\n\n1.º El destino o los destinos del viaje, el itinerario y los períodos "
    "de estancia, con sus fechas y, cuando se incluya el alojamiento, el número de "
    "pernoctaciones incluidas."
)


def _plan_through(text: str, through: str, *, next_line: str) -> str:
    """The first chunk planned with a budget that holds the text through ``through``
    and not through the first line starting ``next_line`` after it."""
    tokenization = WordTokenization(512)
    held = text.index(through) + len(through)
    budget = tokenization.count(text[:held]) + 2
    line_end = text.find("\n", text.index(next_line, held))
    assert tokenization.count(text[: len(text) if line_end < 0 else line_end]) > budget
    plan = next(plan_run(section_of(text, tokenization, budget=budget), None, InnerCuts(), None))
    return text[plan.start : plan.end]


@pytest.mark.parametrize(
    ("text", "through", "next_line", "ends_with"),
    [
        (_QUOTED_CAPITULO, "Donde:", "\u2013 RTCEF", "RCFtovp + RMRf"),
        (_QUOTED_TITULO, "continuación:", "1.º", "continuación:"),
    ],
)
def test_heading_lines_and_an_article_line_are_no_chunk_of_their_own(
    text: str, through: str, next_line: str, ends_with: str
) -> None:
    """The article line's full stop is a sentence end, but ending there leaves the
    chunk the unit's heading lines alone: the chunk keeps its first paragraph."""
    assert _plan_through(text, through, next_line=next_line).endswith(ends_with)


def test_a_title_and_a_sentence_of_text_still_end_a_chunk() -> None:
    """A bare title then a sentence that is text, not a labelled heading line: the far
    sentence end is the text's, and the lead-in after it starts the next chunk."""
    lead_in = "1. " + ", ".join(["los partidos políticos expresan el pluralismo"] * 4)
    text = (
        "##### Artículo 5\n\nLa capital del Estado es la villa de Madrid.\n\n"
        f"{lead_in} siguientes:\n\na) " + " ".join(["renta base cuota"] * 12) + "."
    )
    assert _plan_through(text, "siguientes:", next_line="a)").endswith("Madrid.")


_UNITS = ("## TÍTULO II", "### CAPÍTULO I", "CAPÍTULO III", "Sección 1.ª", "LIBRO PRIMERO")


@st.composite
def _headed_lead_in(draw: st.DrawFn) -> tuple[str, str]:
    """Bare title lines (Markdown or plain), an article line with its full stop or one
    more bare title, a first paragraph that is one long lead-in, and its items: (text,
    the heading lines)."""
    titles = [
        " ".join(
            [draw(st.sampled_from(_UNITS)), *draw(st.lists(st.sampled_from(_WORDS), max_size=6))]
        )
        for _ in range(draw(st.integers(1, 3)))
    ]
    name = " ".join(draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=6)))
    number = draw(st.integers(1, 400))
    last = draw(  # a labelled line, or a bare numbered title ("2.3.1. IDENTIFICACIÓN")
        st.sampled_from(
            (f"Artículo {number}. {name.capitalize()}.", f"2.{number}.1. {name.upper()}")
        )
    )
    heading = "\n\n".join([*titles, last])
    words = draw(st.lists(st.sampled_from(_WORDS), min_size=30, max_size=60))
    items = [
        "a) " + " ".join(draw(st.lists(st.sampled_from(_WORDS), min_size=8, max_size=30))) + "."
        for _ in range(draw(st.integers(1, 3)))
    ]
    return "\n\n".join([heading, "1. " + ", ".join(words) + " siguientes:", *items]), heading


@settings(PROFILE, max_examples=examples(100), deadline=None)
@given(case=_headed_lead_in(), extra=st.integers(0, 60))
def test_no_chunk_is_heading_lines_alone_when_their_text_follows(
    case: tuple[str, str], extra: int
) -> None:
    """Heading lines inside a section (no ``title_end`` keeps them with their text)
    then a first paragraph smaller than the room that is larger than they are: the
    first chunk is never the heading lines alone, wherever the budget ends after it."""
    text, heading = case
    tokenization = WordTokenization(512)
    lead_in_end = text.index("siguientes:") + len("siguientes:")
    assert tokenization.count_content(heading) < tokenization.count_content(
        text[len(heading) : lead_in_end]
    )
    budget = tokenization.count(text[:lead_in_end]) + extra
    plan = next(plan_run(section_of(text, tokenization, budget=budget), None, InnerCuts(), None))
    assert plan.end > len(heading), text[plan.start : plan.end]


@settings(PROFILE, max_examples=examples(100), deadline=None)
@given(
    paragraphs=st.lists(
        st.lists(st.sampled_from(_WORDS), min_size=6, max_size=40), min_size=2, max_size=6
    ),
    title=st.lists(st.sampled_from(_WORDS), min_size=3, max_size=30),
    budget=st.integers(40, 200),
)
def test_a_title_line_that_ends_a_section_is_no_chunk_of_its_own(
    paragraphs: list[list[str]], title: list[str], budget: int
) -> None:
    """Paragraphs of sentences, the last announcing what follows ("…aprueba la
    siguiente"), then a title in capitals that ends the section: when a chunk could hold
    the title with the sentence before it, no chunk is the title alone."""
    sentences = [" ".join(words).capitalize() + "." for words in paragraphs]
    sentences[-1] = sentences[-1][:-1] + " aprueba la siguiente"
    title_line = "INSTRUCCIÓN " + " ".join(title).upper()
    text = "\n\n".join([*sentences, title_line])
    tokenization = WordTokenization(512)
    section = section_of(text, tokenization, budget=budget)
    if section.estimate(text.rindex(sentences[-1]), len(text)) > budget:
        return  # the announcing sentence and the title do not fit one chunk together
    plans = list(plan_run(section, None, InnerCuts(), None))
    assert all(text[plan.start : plan.end].strip() != title_line for plan in plans)


def test_a_chunk_cut_inside_a_clause_longer_than_the_target_carries_its_last_words() -> None:
    """A sentence longer than the room, whose last clause before the cut exceeds the
    overlap target: the next chunk starts inside it anyway, so its overlap carries the
    words before the cut that fit (``_word_start``), never none, and never a word cut."""
    tokenization = WordTokenization(512)
    clause = " ".join(["palabra"] * 40)
    text = f"{clause}, {clause}, {clause}."
    section = section_of(text, tokenization, budget=60, overlap=8)
    first = next(plan_run(section, None, InnerCuts(), None))
    assert not section.ends_sentence(first.end)
    (start,) = overlap_starts(section, first.span)
    assert first.start < start < first.end
    assert text[start - 1].isspace()
    assert not text[start].isspace()
    assert 0 < tokenization.count_content(text[start : first.end]) <= 8
    # the earliest such word: one more would exceed the target
    before = text.rindex(" ", 0, start - 1) + 1
    assert tokenization.count_content(text[before : first.end]) > 8


@settings(PROFILE, max_examples=examples(150), deadline=None)
@given(sentences=_sentences(), budget=st.integers(24, 200), overlap=st.sampled_from([8, 24]))
def test_a_chunk_that_starts_inside_a_sentence_carries_overlap_when_a_word_fits(
    sentences: list[str], budget: int, overlap: int
) -> None:
    """Every chunk that starts inside a sentence, after one that ended inside it, shares
    some of that chunk's last words unless it ends at a sentence end only without them;
    the shared text is a suffix of the chunk before that starts at a word, within the
    target."""
    from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document

    text = " ".join(sentences)
    sentence_ends = {i + 1 for i, char in enumerate(text) if char == "."}
    target = min(overlap, budget // 2)
    chunks = chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="d"),
        config=ChunkingConfig(max_tokens=budget, overlap_tokens=target),
        tokenization=ByteTokenization(),
    )
    for previous, chunk in pairwise(chunks):
        if chunk.start < previous.end:
            assert text[chunk.start - 1].isspace()
            assert chunk.overlap_tokens <= target
        elif previous.end not in sentence_ends:
            # no overlap after a cut inside a sentence: only for a chunk that reaches a
            # sentence end (or the text's end) without it
            assert chunk.end in sentence_ends or chunk.end == len(text)


_HEADINGS = (
    "ANEXO V\n\nNormas relativas a las pruebas serológicas de la enfermedad",
    "Artículo 222. Contratos de concesión de obras públicas.",
    "«Artículo 7. Ordenación del procedimiento de gestión.",
    "##### Disposición final cuarta. Modificación de la Resolución de 27 de octubre.",
    "## TÍTULO II. Régimen fiscal\n\n### CAPÍTULO I. Normas generales\n\n##### Artículo 2.",
    "ANEXO\n\nAcuerdo de 20 de marzo de 2020, del Consejo Territorial, por el que se autoriza.",
    "«Artículo 283 bis a) Exhibición de las pruebas en procesos por daños.",
    "###### «Disposición adicional quincuagésimo séptima. Revisión de actos:.",
    "ANEXO VII\n\n1. DECLARACIÓN RESPONSABLE DE NO HABERLE SIDO OTORGADA NINGUNA AYUDA.",
)


@settings(PROFILE, max_examples=examples(100), deadline=None)
@given(
    heading=st.sampled_from(_HEADINGS),
    clauses=st.lists(
        st.lists(st.sampled_from(_WORDS), min_size=3, max_size=12), min_size=4, max_size=12
    ),
    room=st.floats(0.55, 0.95),
    exact=st.booleans(),
)
def test_headings_whose_text_does_not_fit_with_them_start_its_chunk(
    heading: str, clauses: list[list[str]], room: float, exact: bool
) -> None:
    """Heading lines (an ANEXO and its name, a quoted article, a TÍTULO, a CAPÍTULO and an
    article's label) then one long sentence that does not fit with them: the first
    chunk, planned from estimates or found by exact counts, holds the headings and the
    sentence's first clauses, cut at a clause, never the headings alone."""
    sentence = ", ".join(" ".join(words) for words in clauses).capitalize() + "."
    text = f"{heading}\n\n{sentence}\n\nOtro párrafo del mismo anexo."
    tokenization = WordTokenization(512)
    whole = tokenization.count(text[: text.index(sentence) + len(sentence)])
    budget = max(tokenization.count(heading) * 2 + 4, int(whole * room))
    if budget >= whole:
        return  # the sentence fits with its headings: nothing to cut
    section = section_of(text, tokenization, budget=budget)
    if exact:
        end = correct(section, tokenization, None, None).plan.end
    else:
        end = next(plan_run(section, None, InnerCuts(), None)).end
    assert end > text.index(sentence), text[:end]
    assert text[:end].endswith(",") or text[:end].endswith(sentence)
    assert tokenization.count(text[:end]) <= budget


@pytest.mark.parametrize(
    "paragraph",
    [
        "Establecer una sociedad democrática avanzada, y",  # a sentence that goes on
        "Los 9. poderes públicos ayudarán a los centros docentes.",  # no name after "9."
        "Artículo 111.  Declaración e ingreso.\n1. Los empresarios estarán obligados.",
        "c) Los bienes y derechos que hubieran sido transmitidos por el causante; y",
        "III\n\nEl Título III, dedicado al mecenazgo, enumera las entidades beneficiarias.",
    ],
)
def test_text_that_looks_like_a_heading_is_no_heading_block(paragraph: str) -> None:
    """What a chunk of text alone may be without being cut inside the paragraph after it
    (``Section.ends_past_headings``): a sentence left open, a number that names nothing,
    a heading with its text on the next line, a list item, a preamble's part number and
    its text."""
    assert not heading_block(paragraph)
    assert all(heading_block(heading) for heading in _HEADINGS)


_LONG_NAME = ", ".join(["por la que se modifica la Resolución de 27 de octubre de 1998"] * 6)


@pytest.mark.parametrize(
    ("heading", "joins"),
    [
        (f"ANEXO\n\nAcuerdo del Consejo de Ministros {_LONG_NAME}", True),
        (f"##### Disposición final cuarta. Modificación {_LONG_NAME}.", True),
        (f"Las entidades del sector público {_LONG_NAME}", False),  # no mark: no heading
    ],
)
def test_headings_that_say_so_start_their_text_whatever_room_they_take(
    heading: str, joins: bool
) -> None:
    """A heading block that says it is one (an ANEXO and its name, a Markdown heading)
    starts the chunk of its text even when it takes most of the room; a paragraph that
    only lacks its full stop does so within two thirds of it."""
    tokenization = WordTokenization(512)
    budget = int(tokenization.count(heading) / 0.85)
    paragraph = "Sigue " + ", ".join(["el texto de la norma"] * (budget // 10)) + "."
    text = f"{heading}\n\n{paragraph}"
    section = section_of(text, tokenization, budget=budget)
    for end in (
        correct(section, tokenization, None, None).plan.end,
        next(plan_run(section, None, InnerCuts(), None)).end,
    ):
        assert (end > text.index(paragraph)) is joins, text[:end]


@pytest.mark.parametrize(
    ("body", "moved"),
    [
        ("Por todo ello, previa deliberación,\n\nDISPONGO", "DISPONGO"),
        (
            "Se aprueba el código siguiente:\n\nCÓDIGO DE CONDUCTA RELATIVO A LAS INVERSIONES",
            "CÓDIGO DE CONDUCTA RELATIVO A LAS INVERSIONES",
        ),
        (
            "Texto de la orden.\n\n#### Orden de 28 de septiembre de 1967, por la que se aprueba",
            "#### Orden de 28 de septiembre de 1967, por la que se aprueba",
        ),
        ("Texto.\n\nLa Ministra de Hacienda,\n\nMARÍA JESÚS MONTERO CUADRADO", None),
        ("Texto que acaba sin título.", None),
        ("Texto de la ley.\n\n### (En general)", None),  # a note in brackets
        ("Texto de la ley.\n\n### U = log | Vm - Vr |", None),  # a formula
        ("Texto del artículo.\n\nIII", None),  # a preamble's part number
        ("DISPONGO", None),  # nothing would be left before it
    ],
)
def test_title_lines_that_end_a_section_are_found(body: str, moved: str | None) -> None:
    """The title lines a section ends with, which head what follows it; not a
    signature's name, and never all of the section."""
    found = trailing_titles(body, 0, len(body))
    assert (None if found is None else body[found:]) == moved


def test_a_title_that_ends_a_section_starts_the_chunk_of_the_next() -> None:
    """ "DISPONGO" at the end of a preamble whose last chunk is full: a law's reading
    moves it to the first article's section (``titles_to_what_follows``), whose chunk it
    starts, under its path, instead of making a chunk alone; the engine itself keeps a
    caller's sections as given."""
    preamble = "Por todo ello, " + " ".join(["a propuesta del Consejero"] * 20) + ","
    article = "Artículo 1. Objeto.\n\nEl presente decreto tiene por objeto regular las playas."
    text = f"{preamble}\n\nDISPONGO\n\n{article}"
    split = text.index("Artículo 1.")
    sections = [
        SectionSpan(0, split - 2, "Preámbulo", ("Ley", "Preámbulo")),
        SectionSpan(split, len(text), "Artículo 1", ("Ley", "Artículo 1"), split + 19),
    ]
    tokenization = WordTokenization(512)
    budget = tokenization.count(preamble) + 4

    def chunked(spans: list[SectionSpan]) -> list[Chunk]:
        return chunk_document(
            [LoadedPage(text, 1)],
            ChunkMetadata(doc_id="ley"),
            config=ChunkingConfig(max_tokens=budget, overlap_tokens=0, section_context="none"),
            tokenization=tokenization,
            sections=spans,
        )

    chunks = chunked(titles_to_what_follows(text, sections))
    holding = next(chunk for chunk in chunks if "DISPONGO" in chunk.text)
    assert holding.text.startswith("DISPONGO\n\nArtículo 1."), [c.text for c in chunks]
    assert holding.metadata.section_label == "Artículo 1"
    assert "".join(c.text for c in chunks).replace("\n", "") == text.replace("\n", "")
    given = next(chunk for chunk in chunked(sections) if "DISPONGO" in chunk.text)
    assert given.metadata.section_label == "Preámbulo"


def test_a_chunk_cut_inside_a_sentence_after_its_headings_is_followed_by_overlap() -> None:
    """Headings that take the first clauses of their text end their chunk inside a
    sentence: the next chunk repeats that sentence's last words (``ends_sentence`` reads
    the text at an end inside a paragraph)."""
    heading = "ANEXO\n\nAcuerdo de 20 de marzo de 2020, del Consejo Territorial"
    sentence = "Sigue " + ", ".join(["el texto de la norma aprobada"] * 12) + "."
    text = f"{heading}\n\n{sentence}"
    tokenization = WordTokenization(512)
    # the sentence fits a chunk alone (no unit inside it), not with its headings
    budget = tokenization.count(sentence) + tokenization.count(heading) // 2
    chunks = chunk_document(
        [LoadedPage(text, 1)],
        ChunkMetadata(doc_id="anexo"),
        config=ChunkingConfig(max_tokens=budget, overlap_tokens=8, section_context="none"),
        tokenization=tokenization,
    )
    first, second = chunks[0], chunks[1]
    assert text.index(sentence) < first.end < len(text), first.text
    assert second.start < first.end, (first.text, second.text)
    assert second.overlap_tokens > 0
