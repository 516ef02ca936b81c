"""The section context ``prepare`` puts before each chunk's content.

The context is added text, not the document: it helps the embedding place a chunk, and
it costs budget. ``"compact"`` (the default) keeps it cheap and always within a share
of the budget: the innermost title and as many ancestors as fit, the middle elided, and,
only as the last step, the title shortened at a word boundary. ``"path"``, ``"label"``
and ``"none"`` add the whole path, the section's own title, or nothing, as the AsesorIA
chunking specification defines them (a context that fills the budget is then an
error). The chunk's metadata always keeps the full ``section_path``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice

from langchain_asesoria.engine._protocols import Tokenization
from langchain_asesoria.engine._segments import Segment
from langchain_asesoria.models import ChunkingConfig, LeadSpan, SectionContext

#: Between the titles of a path, and in place of the titles left out.
PATH_SEPARATOR = " > "
ELISION = "…"

#: Between the cells of a table's row, as a web page's and a pipe table's are read.
CELLS = " | "

#: Words kept of the outermost title when the middle of a path is elided.
_OUTER_WORDS = 2

_WORD = re.compile(r"\S+")
_NOT_ALNUM = re.compile(r"[\W_]+")


def section_context(segment: Segment, mode: SectionContext) -> str:
    """The context of the explicit modes: whole path, own title, or nothing ("" for a
    gap). ``"compact"`` starts from the whole path (``contexts`` shortens it)."""
    if mode == "none":
        return ""
    innermost = segment.path[-1] if segment.path else ""
    if mode == "label":
        return segment.label or innermost
    return PATH_SEPARATOR.join(segment.path) or segment.label or ""


#: Content tokens of a text from its words' counts, or None for no estimate
#: (``WordEstimator.estimate_content``): which candidates are not worth counting.
Estimate = Callable[[str], int | None]

#: Exact tokens of ``prepare("", context)`` by context: a section's fixed cost, counted
#: once per call for every context tried (the share check) or kept.
FixedCosts = dict[str, int]


def count_fixed(tokenization: Tokenization, costs: FixedCosts, contexts: Iterable[str]) -> None:
    """Counts, in one batch, the fixed cost of each context not yet in ``costs``."""
    new = [context for context in dict.fromkeys(contexts) if context not in costs]
    counts = tokenization.count_many(tokenization.prepare("", context) for context in new)
    costs.update(zip(new, counts, strict=True))


def context_allowance(config: ChunkingConfig, tokenization: Tokenization, costs: FixedCosts) -> int:
    """The most a compact context's fixed cost may be: the prefix and special tokens
    plus ``config.context_share`` of the budget, and always room for content."""
    count_fixed(tokenization, costs, [""])
    return min(costs[""] + int(config.max_tokens * config.context_share), config.max_tokens - 1)


def shows_own_title(text: str, segment: Segment) -> bool:
    """Whether the segment opens with its own title, so that its first chunk's compact
    context is the titles left (``opening_contexts``), not its later chunks'."""
    return _not_shown(text, segment) is not None


def contexts(
    segments: Sequence[Segment],
    config: ChunkingConfig,
    tokenization: Tokenization,
    costs: FixedCosts,
    chars_per_token: float | None = None,
    estimate: Estimate | None = None,
) -> list[str]:
    """Each segment's context under ``config.section_context``.

    In ``"compact"`` mode a context adds at most ``config.context_share`` of
    ``max_tokens`` to the model input (counted exactly, with its separator), and always
    leaves room for content; every count made is kept in ``costs``. With
    ``chars_per_token`` (the document's), a candidate far longer than the share allows
    is not counted (``_within_reach``): most full paths of a deep law; with
    ``estimate``, nor is one whose words' tokens already exceed it (``_reachable``).
    """
    if config.section_context != "compact":
        return [section_context(segment, config.section_context) for segment in segments]
    keys = list(dict.fromkeys((segment.label, segment.path) for segment in segments))
    chosen = _compact_all(
        [Segment(0, 0, label, path) for label, path in keys],
        config,
        tokenization,
        costs,
        chars_per_token,
        estimate,
    )
    by_key = dict(zip(keys, chosen, strict=True))
    return [by_key[(segment.label, segment.path)] for segment in segments]


def opening_contexts(
    text: str,
    segments: Sequence[Segment],
    config: ChunkingConfig,
    tokenization: Tokenization,
    contexts_of: Sequence[str],
    costs: FixedCosts,
    chars_per_token: float | None = None,
    estimate: Estimate | None = None,
) -> list[str]:
    """The context of each section's first chunk (candidates counted as ``contexts``
    counts them); ``contexts_of`` may be empty when every segment ``shows_own_title``.

    In ``"compact"`` mode, a section that opens with its own title (``title_end``
    known: a Markdown heading, a located PDF outline title) does not repeat in its
    first chunk's context the titles that chunk's text starts with: the innermost title,
    and the bare titles that travel with it. Its context is the compact form of the
    titles left (none: no context). The explicit modes repeat them, as the
    specification says; so does a section whose title is not in its text.
    """
    if config.section_context != "compact":
        return list(contexts_of)
    outers = [_not_shown(text, segment) for segment in segments]
    contexts_of = contexts_of or [""] * len(segments)
    keys = list(dict.fromkeys(outer for outer in outers if outer is not None))
    chosen = _compact_all(
        [Segment(0, 0, None, outer) for outer in keys],
        config,
        tokenization,
        costs,
        chars_per_token,
        estimate,
    )
    by_key = dict(zip(keys, chosen, strict=True))
    return [
        context if outer is None else by_key[outer]
        for outer, context in zip(outers, contexts_of, strict=True)
    ]


def _compact_all(
    segments: Sequence[Segment],
    config: ChunkingConfig,
    tokenization: Tokenization,
    costs: FixedCosts,
    chars_per_token: float | None,
    estimate: Estimate | None = None,
) -> list[str]:
    """``compact_context`` of each segment, its candidates counted in batches: each
    round counts the next candidate of every segment still without one that fits (the
    same choice as trying them one by one, in far fewer calls); only the candidates
    ``_reachable`` are counted."""
    allowed = context_allowance(config, tokenization, costs)
    reachable = _reachable(allowed - costs[""], chars_per_token, estimate)
    candidates = [filter(reachable, _candidates(_titles(segment))) for segment in segments]
    current = {number: next(found, None) for number, found in enumerate(candidates)}
    chosen = [""] * len(segments)
    while current:
        count_fixed(tokenization, costs, [c for c in current.values() if c is not None])
        for number, candidate in list(current.items()):
            if candidate is None or costs[candidate] <= allowed:
                chosen[number] = candidate or ""
                del current[number]
            else:
                current[number] = next(candidates[number], None)
    return chosen


#: Words a lead keeps when it must be shortened, longest first; its last four always
#: (at 4, only them: a list in a table in a list has three parts to keep).
_LEAD_WORDS = (16, 10, 6, 4)
_LEAD_TAIL = 4
#: How much longer than the share's tokens times the document's characters per token a
#: lead candidate may be and still be counted (the ratio varies along a document).
_ESTIMATE_MARGIN = 1.5
#: Words of the innermost title kept beside a lead when the whole context does not fit.
_TITLE_WORDS = (6, 3)


def lead_contexts(
    requests: Sequence[tuple[Segment, str, LeadSpan]],
    config: ChunkingConfig,
    tokenization: Tokenization,
    costs: FixedCosts,
    chars_per_token: float | None,
    estimate: Estimate | None = None,
) -> list[str]:
    """The context of the chunks that start inside a list or a table, for each
    ``(segment, its context, the lead)``: the segment's context and the lead on a line of
    its own, within ``config.context_share`` of the budget like every compact context.

    What gives way, in order: for the whole lead, then the lead in 16, 10, 6 and 4 words
    (its first words, an ellipsis, its last four: at 4, "…" and its last four; a table's
    header keeps its first words), the context whole, then its innermost
    title's first six and three words; then the lead alone, in the same forms; if not
    even that fits, the chunk keeps the segment's context alone. Counted in rounds, one
    candidate of each request per round (as ``_compact_all``), every count kept in
    ``costs``; a candidate that cannot fit (``_reachable``) is not counted.
    """
    allowed = context_allowance(config, tokenization, costs)
    reachable = _reachable(allowed - costs[""], chars_per_token, estimate)
    candidates = [
        _countable(segment, context, lead, reachable) for segment, context, lead in requests
    ]
    current = {number: next(found) for number, found in enumerate(candidates)}
    chosen = [context for _, context, _ in requests]
    while current:
        count_fixed(tokenization, costs, current.values())
        for number, candidate in list(current.items()):
            if costs[candidate] <= allowed:
                chosen[number] = candidate
                del current[number]
            elif (following := next(candidates[number], None)) is None:
                del current[number]  # the segment's own context: ``chosen`` already
            else:
                current[number] = following
    return chosen


#: Tokens by which a candidate's estimate may exceed the share and the candidate still be
#: counted. The estimate sums its words' tokens, each measured after a space: exact for
#: WordPiece and Metaspace (spaces split, line breaks are spaces), off by the tokens of
#: line breaks and of the first word for byte-level BPE or a Metaspace that keeps line
#: breaks. Over 21,449 candidates of 217 laws of ``es/`` it was at most 2 (byte-level
#: BPE) and 4 (Unigram, NFKC only) tokens above the exact count (benchmarks/README.md,
#: "Candidate contexts left uncounted").
_ESTIMATE_SLACK = 4


def _reachable(
    room: int, chars_per_token: float | None, estimate: Estimate | None
) -> Callable[[str], bool]:
    """Whether a candidate context of ``room`` content tokens at most is worth an exact
    count: not far longer in characters (``_within_reach``), and, with ``estimate``,
    not over ``room`` by more than ``_ESTIMATE_SLACK`` in its words' tokens (a
    candidate without an estimate is counted). Two thirds of the candidates a law's
    contexts tried were over the share, most of them by more than that."""
    longest = _within_reach(room, chars_per_token)
    if estimate is None:
        return lambda candidate: len(candidate) <= longest
    most = room + _ESTIMATE_SLACK

    def reachable(candidate: str) -> bool:
        if len(candidate) > longest:
            return False
        tokens = estimate(candidate)
        return tokens is None or tokens <= most

    return reachable


def _within_reach(room: int, chars_per_token: float | None) -> float:
    """The most characters of a candidate worth counting for ``room`` tokens: a
    candidate far longer (by the document's characters per token, with a margin: the
    ratio varies along a document) would not fit, and is not counted; a few exact
    counts per context, not one per candidate. No limit without a ratio."""
    if chars_per_token is None:
        return float("inf")
    return int(max(1, room) * chars_per_token * _ESTIMATE_MARGIN)


def _countable(
    segment: Segment, context: str, span: LeadSpan, reachable: Callable[[str], bool]
) -> Iterator[str]:
    """The candidates worth counting: those ``reachable``, and the segment's own
    context (the last, always there)."""
    for candidate in _lead_candidates(segment, context, span):
        if candidate == context or reachable(candidate):
            yield candidate


def _lead_candidates(segment: Segment, context: str, span: LeadSpan) -> Iterator[str]:
    titles = _titles(segment)
    inners = [_shortened(titles[-1], words) for words in _TITLE_WORDS] if titles else []
    owns = list(dict.fromkeys([context, *(inner for inner in inners if inner)]))
    lead = _after_title(span.lead, titles)
    parts = lead.split("\n")  # a list's lead-in and a table's header, each shortened
    headers = [_is_header(span, parts, number) for number in range(len(parts))]
    shortened = (
        "\n".join(
            _shortened(part, words) if header else _elided(part, words)
            for part, header in zip(parts, headers, strict=True)
        )
        for words in _LEAD_WORDS
    )
    forms: list[str] = []  # made as they are needed: most leads fit whole
    for form in _unique(lead, shortened):
        forms.append(form)
        for own in owns:
            yield f"{own}\n{form}" if own else form
    yield from forms
    yield context


def _after_title(lead: str, titles: Sequence[str]) -> str:
    """``lead`` without the section's innermost title (the last of ``titles``) it opens
    with (a PDF read as paragraphs gives the heading and the lead-in below it as one
    lead): the context shows the title already; ``lead`` itself when it does not open
    with it or is nothing more."""
    title = titles[-1] if titles else ""
    target = _folded(title)
    if not target or not _folded(lead[: 4 * len(title) + 16]).startswith(target):
        return lead
    for word in _WORD.finditer(lead):
        folded = _folded(lead[: word.end()])
        if folded == target:
            rest = lead[word.end() :].strip()
            return rest or lead
        if len(folded) > len(target):
            break
    return lead


def _unique(first: str, others: Iterator[str]) -> Iterator[str]:
    """``first``, then each of ``others`` not seen before, read lazily."""
    seen = {first}
    yield first
    for other in others:
        if other not in seen:
            seen.add(other)
            yield other


def _is_header(span: LeadSpan, parts: Sequence[str], number: int) -> bool:
    """Whether a lead's ``parts[number]`` is a table's header (kept by its first words,
    the first columns): a table's last part, or a row of cells (a list in a cell)."""
    return (span.table and number == len(parts) - 1) or CELLS in parts[number]


def _elided(lead: str, words: int) -> str:
    """``lead`` in ``words`` words: its first ones, an ellipsis, its last four (what its
    colon announces: "… las siguientes operaciones:"); the lead itself when short enough."""
    parts = lead.split()
    if len(parts) <= words:
        return lead
    return " ".join([*parts[: words - _LEAD_TAIL], ELISION, *parts[-_LEAD_TAIL:]])


def _not_shown(text: str, segment: Segment) -> tuple[str, ...] | None:
    """The titles of ``segment.path`` left when those its opening title text shows are
    taken from the end; None when it shows none (or its title text is unknown)."""
    if segment.title_end is None:
        return None
    shown = _folded(text[segment.start : segment.title_end])
    titles = [title for title in segment.path if title.strip()]
    kept = len(titles)
    while kept and (folded := _folded(titles[kept - 1])) and folded in shown:
        kept -= 1
    return None if kept == len(titles) else tuple(titles[:kept])


def _folded(text: str) -> str:
    """Letters and digits only, case folded: a title found across line breaks,
    hyphenation, Markdown marks and punctuation."""
    return _NOT_ALNUM.sub("", text.casefold())


def compact_context(segment: Segment, fits: Callable[[str], bool]) -> str:
    """The first candidate that ``fits``: the whole path, then with more and more of
    its middle elided, then the innermost title alone, then that title shortened at a
    word boundary; "" when not even one word fits."""
    return next((c for c in _candidates(_titles(segment)) if fits(c)), "")


def _titles(segment: Segment) -> list[str]:
    """The path's titles, stripped; the label alone for a segment without a path."""
    titles = [title.strip() for title in segment.path if title.strip()]
    if not titles and segment.label and segment.label.strip():
        titles = [segment.label.strip()]
    return titles


def _candidates(titles: Sequence[str]) -> Iterator[str]:
    if not titles:
        return
    *outer, inner = titles
    yield PATH_SEPARATOR.join(titles)
    for first_kept in range(2, len(outer) + 1):
        yield PATH_SEPARATOR.join([outer[0], ELISION, *outer[first_kept:], inner])
    if outer:
        middle = [ELISION] if len(outer) > 1 else []
        yield PATH_SEPARATOR.join([_shortened(outer[0], _OUTER_WORDS), *middle, inner])
    yield inner
    ends = [match.end() for match in _WORD.finditer(inner)]  # once: a title may be long
    for kept in range(len(ends) - 1, 0, -1):
        yield f"{inner[: ends[kept - 1]]} {ELISION}"  # ``_shortened(inner, kept)``


def _shortened(title: str, words: int) -> str:
    """``title`` up to the end of its ``words``-th word (``words >= 1``), and an ellipsis
    (the title itself when it has no more words)."""
    ends = [match.end() for match in islice(_WORD.finditer(title), words + 1)]
    return title if len(ends) <= words else f"{title[: ends[words - 1]]} {ELISION}"
