"""Greedy packing of one section into chunks: estimate with offsets, confirm exactly.

The estimate of a candidate ``[a, b)`` is the section's fixed cost (model prefix,
context and special tokens, counted exactly once) plus the number of content tokens
starting in ``[a, b)``, found by bisection in the document's ``TokenIndex``. The
estimate only proposes an end; every accepted chunk is confirmed by an exact count
of its whole prepared text, so a wrong estimate costs time, never the guarantee.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from langchain_asesoria.engine.boundaries import SectionCuts, is_safe_cut, lstrip_at, rstrip_at
from langchain_asesoria.errors import ContextTooLongError, IndivisibleCharacterError
from langchain_asesoria.tokenization.base import TokenIndex, Tokenization

__all__ = ["PackedChunk", "Packer"]

#: How far (in tokens) past the budget an estimate may be and still deserve an exact
#: try: offsets-based estimates are off by a token or two at the edges.
_SLACK = 2

#: How many chunks are planned from estimates and confirmed in one batched count.
_PLAN_AHEAD = 32

#: Fitting probes before cuts inside a blob are planned in runs without slack.
_TRUSTED = 4


@dataclass(frozen=True, slots=True)
class PackedChunk:
    """A chunk's span, text and exact counts; ``embedding_text`` is built by ``prepare``
    (the very ``text`` object when there is neither prefix nor context)."""

    start: int
    end: int
    text: str
    embedding_text: str
    token_count: int
    overlap_tokens: int


@dataclass(slots=True)
class Packer:
    """Packs the section ``cuts.start:cuts.end`` of ``text``; lives for one section.

    Attributes:
        text: The document's joined text.
        context: The section context given to ``prepare``.
        tokenization: Exact counts and model input.
        max_tokens: Budget of the whole prepared input.
        overlap_target: Content tokens to re-use from the previous chunk, at most.
        index: Where the document's content tokens start.
        cuts: The section's separator cuts.
        doc_id: For error messages.
        fixed: Exact tokens of ``prepare("", context)``: prefix, context, specials.
    """

    text: str
    context: str
    tokenization: Tokenization
    max_tokens: int
    overlap_target: int
    index: TokenIndex
    cuts: SectionCuts
    doc_id: str
    fixed: int
    _counts: dict[tuple[int, int], int] = field(default_factory=dict)
    _shared: dict[tuple[int, int], int] = field(default_factory=dict)
    _ends: list[int] = field(default_factory=list)
    _section_start: int = 0
    _section_end: int = 0
    _initial_plan: list[tuple[int, int, int]] | None = None
    _inner: _InnerCuts = field(default_factory=lambda: _InnerCuts())

    def __post_init__(self) -> None:
        if self.fixed >= self.max_tokens:
            raise ContextTooLongError(
                f"document {self.doc_id!r}, section at {self.cuts.start}: the model prefix, "
                f"special tokens and section context {self.context!r} alone take "
                f"{self.fixed} tokens of the "
                f"{self.max_tokens}-token budget, leaving none for content. Raise max_tokens, "
                "shorten the section title, or use section_context='label' or 'none'."
            )

    # -- measures -------------------------------------------------------------------

    def estimate(self, start: int, end: int) -> int:
        """Fixed cost plus content tokens starting in ``[start, end)``."""
        return self.fixed + self.index.count(start, end)

    def oversized(self, start: int, end: int) -> bool:
        return self.estimate(start, end) > self.max_tokens

    def exact(self, start: int, end: int) -> int:
        """Exact tokens of the prepared candidate ``text[start:end]``, cached."""
        key = (start, end)
        count = self._counts.get(key)
        if count is None:
            prepared = self.tokenization.prepare(self.text[start:end], self.context)
            count = self._counts[key] = self.tokenization.count(prepared)
        return count

    def fits(self, start: int, end: int) -> bool:
        return self.exact(start, end) <= self.max_tokens

    def _position_limit(self, start: int) -> int:
        """Ends up to this position hold no more content tokens than the budget allows."""
        limit = self.index.limit(start, self.max_tokens - self.fixed)
        return len(self.text) + 1 if limit is None else limit

    # -- searching ends -------------------------------------------------------------

    def _furthest(self, start: int, ends: Sequence[int], low: int, high: int) -> int | None:
        """Index of the furthest end in ``ends[low:high]`` whose chunk fits, or None.

        The estimate proposes an index; exact counts confirm it, step forward while
        the estimate is within the slack, or bisect back.
        """
        if low >= high:
            return None
        guess = bisect_right(ends, self._position_limit(start), low, high) - 1
        if guess < low:
            # Even the nearest end is estimated over budget: count it exactly only when
            # the estimate is close, else a long unbroken unit would be re-counted whole
            # for every chunk (quadratic); the caller then looks for finer ends.
            if self.estimate(start, ends[low]) > self.max_tokens + _SLACK:
                return None
            guess = low
        if self.fits(start, ends[guess]):
            while (
                guess + 1 < high
                and self.estimate(start, ends[guess + 1]) <= self.max_tokens + _SLACK
                and self.fits(start, ends[guess + 1])
            ):
                guess += 1
            return guess
        best, low, high = None, low, guess - 1
        while low <= high:
            middle = (low + high) // 2
            if self.fits(start, ends[middle]):
                best, low = middle, middle + 1
            else:
                high = middle - 1
        return best

    def _furthest_unit_end(self, start: int, after: int) -> int | None:
        """The furthest unit end beyond ``after`` that fits from ``start``, or None."""
        ends = self._ends
        index = self._furthest(start, ends, bisect_right(ends, after), len(ends))
        return None if index is None else ends[index]

    def _fresh_end(self, start: int) -> int:
        """The end of a chunk starting at ``start`` with no overlap; always found."""
        end = self._furthest_unit_end(start, start)
        if end is not None:
            return end
        return self._split_unit(start, self._ends[bisect_right(self._ends, start)])

    def _split_unit(self, start: int, unit_end: int) -> int:
        """An end inside a unit that does not fit alone: finer cuts, tokens, characters."""
        text = self.text
        finer = _ascending(
            rstrip_at(text, start, cut) for cut in self.cuts.all_cuts_between(start, unit_end)
        )
        finer = [end for end in finer if end > start]
        index = self._furthest(start, finer, 0, len(finer))
        if index is not None:
            return finer[index]
        limit = finer[0] if finer else unit_end
        tokens = _ascending(
            rstrip_at(text, start, cut)
            for cut in self._token_starts_after(start, limit)
            if is_safe_cut(text, cut)
        )
        tokens = [end for end in tokens if end > start]
        index = self._furthest(start, tokens, 0, len(tokens))
        if index is not None:
            return tokens[index]
        return self._split_characters(start, tokens[0] if tokens else limit)

    def _token_starts_after(self, start: int, limit: int) -> list[int]:
        """Exact token starts in ``(start, limit)``, as many as one chunk could hold.

        They are the index's own when it lists every token there (a long word's);
        else a window of the text after ``start`` is tokenized, sized from the index's
        characters per token and doubled until it holds enough tokens: the cost follows
        the chunk, not the unit (a 200 KB blob without spaces is not re-read per chunk).
        """
        wanted = self.max_tokens - self.fixed + _SLACK
        listed = self.index.single_tokens(start + 1, limit, wanted)
        if listed is not None:
            return list(listed)
        tokens = self.index.count(start, limit)
        width = (limit - start) * (wanted + 1) // tokens if tokens else limit - start
        width += width // 4 + 16
        while True:
            end = min(limit, start + width)
            found = [
                start + offset
                for offset in self.tokenization.token_starts(self.text[start:end])
                if offset > 0
            ]
            if len(found) >= wanted or end >= limit:
                return found[:wanted]
            width *= 2

    def _split_characters(self, start: int, limit: int) -> int:
        """The last resort: character intervals, accepted only when they fit."""
        positions = range(start + 1, limit)
        index = self._furthest(start, positions, 0, len(positions))
        end = positions[index] if index is not None else start
        while end > start and not is_safe_cut(self.text, end):
            end -= 1
        if end > start:
            return rstrip_at(self.text, start, end)
        cluster = start + 1
        while cluster < limit and not is_safe_cut(self.text, cluster):
            cluster += 1
        if self.fits(start, cluster):
            return cluster
        raise IndivisibleCharacterError(
            f"document {self.doc_id!r}, position {start}: the character "
            f"{self.text[start:cluster]!r} needs {self.exact(start, cluster)} tokens with its "
            f"prefix and context, over the {self.max_tokens}-token budget. Raise max_tokens "
            "or shorten the section context."
        )

    # -- overlap --------------------------------------------------------------------

    def _overlap_starts(self, previous_start: int, previous_end: int) -> list[int]:
        """Starts of whole trailing units of the previous chunk, largest overlap first.

        A coarser boundary (sentence before word) is preferred when it gives at least
        half the target; finer ones follow as fallbacks.
        """
        target = self.overlap_target
        if target == 0:
            return []
        lowest = self.index.back(previous_end, target + 1)
        low = previous_start if lowest is None else max(previous_start, lowest)
        text, count = self.text, self.index.count
        level_at: dict[int, int] = {}  # overlap start -> coarsest level cutting there
        for level, cuts in enumerate(self.cuts.levels):
            for cut in cuts[bisect_right(cuts, low) : bisect_left(cuts, previous_end)]:
                position = lstrip_at(text, cut, previous_end)
                if position not in level_at and previous_start < position < previous_end:
                    level_at[position] = level
        candidates = sorted(p for p in level_at if count(p, previous_end) <= target)
        if not candidates:
            return []
        chosen, coarse = candidates[0], None
        for level in range(len(self.cuts.levels)):
            at_level = next((p for p in candidates if level_at[p] == level), None)
            if at_level is not None and (coarse is None or at_level < coarse):
                coarse = at_level
            if coarse is not None and 2 * count(coarse, previous_end) >= target:
                chosen = coarse
                break
        return [p for p in candidates if p >= chosen]

    # -- packing --------------------------------------------------------------------

    def plan(self) -> Iterator[tuple[int, int, int]]:
        """The section's chunks ``(start, end, previous_end)`` planned from estimates,
        yielded as they are planned (the packer keeps them for ``pack``).

        Run it before ``pack`` to count several sections' plans in batches, even while
        planning goes on (see ``seed_counts``); ``pack`` then starts from it.
        """
        text, cuts = self.text, self.cuts
        self._initial_plan = planned = []
        self._section_start = lstrip_at(text, cuts.start, cuts.end)
        self._section_end = rstrip_at(text, self._section_start, cuts.end)
        if self._section_start >= self._section_end:
            return
        active = cuts.active_cuts(self.oversized)
        self._ends = [*(rstrip_at(text, self._section_start, c) for c in active), self._section_end]
        for chunk in self._planning(None, limit=None):
            planned.append(chunk)
            yield chunk

    def seed_counts(
        self, plan: list[tuple[int, int, int]], counts: Sequence[int], shared: Sequence[int]
    ) -> None:
        """Records exact counts made elsewhere for ``plan`` (one per chunk; one per
        chunk that starts before its ``previous_end``)."""
        shared_values = iter(shared)
        for (start, end, after), count in zip(plan, counts, strict=True):
            self._counts[(start, end)] = count
            if start < after:
                self._shared[(start, after)] = next(shared_values)

    def pack(self) -> Iterator[PackedChunk]:
        """Chunks of the section in order; trimmed, exact, within budget.

        Chunks are planned ahead from estimates alone and confirmed together with one
        batched exact count; from the first planned chunk that fails (over budget, or
        an overlap over target), one chunk is found by the exact search instead, and
        planning resumes after it.
        """
        if self._initial_plan is None:
            self._initial_plan = list(self.plan())
        plan = self._initial_plan
        if not plan and self._section_start >= self._section_end:
            return
        section_start, section_end = self._section_start, self._section_end
        previous: tuple[int, int] | None = None
        while True:
            confirmed = 0
            for chunk in self._confirm(plan):
                yield chunk
                previous, confirmed = (chunk.start, chunk.end), confirmed + 1
            if previous is not None and previous[1] >= section_end:
                return
            if not plan or confirmed < len(plan):
                if previous is None:
                    chunk = self._packed(section_start, self._fresh_end(section_start), 0)
                else:
                    chunk = self._packed(*self._next_chunk(*previous))
                yield chunk
                previous = (chunk.start, chunk.end)
                if chunk.end >= section_end:
                    return
            plan = list(self._planning(previous, limit=_PLAN_AHEAD))

    def _estimated_end(self, start: int, after: int) -> int | None:
        """The furthest unit end beyond ``after`` whose estimate fits, or None."""
        ends = self._ends
        low = bisect_right(ends, after)
        index = bisect_right(ends, self._position_limit(start), low) - 1
        return ends[index] if index >= low else None

    def _estimated_fresh_end(self, start: int) -> int | None:
        """The planned end of a chunk without overlap, or None.

        The furthest unit end whose estimate fits; else, in a unit without any cut that
        the index lists token by token (a long word, a blob), the furthest safe token
        start that fits: such units are then planned and confirmed in batches too.
        """
        end = self._estimated_end(start, start)
        if end is not None:
            return end
        limit = self.index.limit(start, self.max_tokens - self.fixed - self._inner.slack)
        if limit is None:
            return None
        tokens = self.index.single_tokens(start, limit, self.max_tokens)
        if not tokens:
            return None
        cut = next((c for c in (limit, *reversed(tokens)) if is_safe_cut(self.text, c)), start)
        end = rstrip_at(self.text, start, cut)
        if end <= start:
            return None
        self._inner.planned.add((start, end))
        return end

    def _planning(
        self, previous: tuple[int, int] | None, limit: int | None
    ) -> Iterator[tuple[int, int, int]]:
        """Chunks ``(start, end, previous_end)`` from estimates alone, up to ``limit``."""
        section_start, section_end = self._section_start, self._section_end
        planned = 0
        while limit is None or planned < limit:
            if previous is None:
                start, after = section_start, section_start
                end = self._estimated_fresh_end(start)
            else:
                after = previous[1]
                start, end = lstrip_at(self.text, after, section_end), None
                for candidate in self._overlap_starts(*previous):
                    end = self._estimated_end(candidate, after)
                    if end is not None:
                        start = candidate
                        break
                else:
                    end = self._estimated_fresh_end(start)
            if end is None:
                break
            yield start, end, after
            planned += 1
            if end >= section_end or self._inner.probing(start, end):
                break
            previous = (start, end)

    def _confirm(self, plan: list[tuple[int, int, int]]) -> Iterator[PackedChunk]:
        """The planned chunks that exact counts confirm, up to the first that fails,
        built one at a time (a section's plan may hold a whole document)."""
        text, counts, shared = self.text, self._counts, self._shared
        missing = [(start, end) for start, end, _ in plan if (start, end) not in counts]
        if missing:
            prepare = self.tokenization.prepare
            values = self.tokenization.count_batch(
                [prepare(text[start:end], self.context) for start, end in missing]
            )
            counts.update(zip(missing, values, strict=True))
        unshared = [(s, a) for s, _, a in plan if s < a and (s, a) not in shared]
        if unshared:
            values = self.tokenization.count_content_batch([text[s:a] for s, a in unshared])
            shared.update(zip(unshared, values, strict=True))
        for start, end, after in plan:
            overlap = shared[(start, after)] if start < after else 0
            fits = counts[(start, end)] <= self.max_tokens
            if (start, end) in self._inner.planned:
                self._inner.learn(fits)
            if not fits or overlap > self.overlap_target:
                return
            yield self._packed(start, end, overlap)

    def _next_chunk(self, previous_start: int, previous_end: int) -> tuple[int, int, int]:
        for start in self._overlap_starts(previous_start, previous_end):
            shared = self._shared.get((start, previous_end))
            if shared is None:
                shared = self.tokenization.count_content(self.text[start:previous_end])
                self._shared[(start, previous_end)] = shared
            if shared > self.overlap_target:
                continue
            end = self._furthest_unit_end(start, previous_end)
            if end is not None:
                return start, end, shared
        fresh = lstrip_at(self.text, previous_end, len(self.text))
        return fresh, self._fresh_end(fresh), 0

    def _packed(self, start: int, end: int, overlap: int) -> PackedChunk:
        text = self.text[start:end]
        return PackedChunk(
            start=start,
            end=end,
            text=text,
            embedding_text=self.tokenization.prepare(text, self.context),
            token_count=self.exact(start, end),
            overlap_tokens=overlap,
        )


@dataclass(slots=True)
class _InnerCuts:
    """What planning has learnt about cuts inside a unit without any cut (a blob).

    A cut inside a word may re-tokenize the next chunk's first piece, so the index's
    count there can be a token or two short. Such ends are planned one at a time
    (probes) and with no slack until the exact counts tell: after ``_TRUSTED`` fitting
    probes, whole runs are planned at once with no slack; after one that does not
    fit, with ``_SLACK`` tokens left free.
    """

    slack: int = 0
    trusted: int = 0
    decided: bool = False
    planned: set[tuple[int, int]] = field(default_factory=set)

    def probing(self, start: int, end: int) -> bool:
        """True when the planned chunk ``[start, end)`` must be confirmed alone."""
        return not self.decided and (start, end) in self.planned

    def learn(self, fits: bool) -> None:
        if not fits:
            self.slack, self.decided = _SLACK, True
        elif not self.decided:
            self.trusted += 1
            self.decided = self.trusted >= _TRUSTED


def _ascending(values: Iterator[int] | Sequence[int]) -> list[int]:
    """Sorted distinct values (cut ends may coincide after trimming)."""
    return sorted(set(values))
