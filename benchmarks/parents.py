"""Parents against chunks: how often the delivered context holds the answer, per budget.

For every question of a question file over its corpus, BM25 ranks the indexed pieces
and a context is filled in rank order up to a token budget (1,000, 2,000 and 4,000
tokens by default, counted exactly with the offline MiniLM tokenizer's content tokens;
a piece that does not fit what is left is passed over for the next that does). The
question counts as answered when some delivered piece holds one of its annotated
passages (``evaluation.metrics.is_relevant``: the overlap rule of ``asesoria-eval``).
Three ways to fill the context:

* ``chunks``: this library's chunks (MiniLM 256/32, as ``asesoria-split`` makes them),
  indexed by their ``embedding_text``;
* ``parents N DELIVER [RULE]``: the same chunks, same ranking, through
  ``ParentContextRetriever`` over their parents (``langchain_asesoria.parents``,
  ``parent_max_tokens=N``) with ``deliver=DELIVER`` (``--deliver``: each parent's window
  around its retrieved chunks, the whole parent, or the whole parent when it fits and
  else its window); the parents in the order of their best chunk, or of ``RULE``
  (``--rank``: the sum of their chunks' BM25 scores among the top K, ``sum@K``, or
  reciprocal-rank fusion over the top K, ``rrf@K``);
* ``langchain PDR``: what LangChain's ``ParentDocumentRetriever`` gives with
  ``RecursiveCharacterTextSplitter`` parents of 2,000 characters and children of 400
  (the documents' joined text split as its ``add_documents`` splits it), the children
  ranked by BM25 instead of a vector store, their parents in the order of their first
  child (as ``ParentDocumentRetriever`` returns them), then the same budget.

With ``--rank-order``, three more rows spend the budget in the chunks' rank order rather
than parent by parent (``grow_in_rank_order``): each ranked chunk widens its group's
stretch when the tokens it adds fit what is left:

* ``chunks, overlap once``: a chunk overlapping or touching a delivered stretch of its
  document joins it (the overlap is paid once), else it starts a stretch;
* ``parents N rank-order windows``: one stretch per parent (the text between two hits of
  a parent comes along);
* ``parents N rank-order windows +next``: the same, each hit taken with the next chunk
  of its parent (whole chunks of the unit, grown forward), or alone when both do not fit.

With ``--fuse N``, the ranking itself takes the parents' evidence: each chunk scores its
own BM25 score plus ``--fuse-weight`` (default 1) times the BM25 score of its N-token
parent's text (the parents indexed as BM25 documents of their own; ``fused_order``).
Two rows per N: ``chunks, ranked with N-token parents`` and, for each
``--parent-max-tokens``, ``parents M rank-order windows +next, ranked with N-token
parents``.

Last, the share of questions whose answer is in any of the top N chunks, whatever their
tokens: how far any delivery of whole chunks of this ranking could reach.

Run from the repository root (the ``eval`` extra for BM25, ``langchain-text-splitters``)::

    python -m benchmarks.parents examples/data/BOE-A-1991-14392.md \\
        examples/data/aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf \\
        --questions examples/evaluation/questions.jsonl
    python -m benchmarks.parents corpus/markdown corpus/pdf \\
        --questions examples/evaluation/corpus_questions.jsonl
"""

from __future__ import annotations

import argparse
import functools
import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.stores import InMemoryStore

from langchain_asesoria.engine import Tokenization
from langchain_asesoria.langchain.parents import (
    DELIVERIES,
    Delivery,
    ParentContextRetriever,
    parent_document,
)
from langchain_asesoria.models import ChunkingConfig, ChunkMetadata
from langchain_asesoria.parents import read_document_parents
from langchain_asesoria.reading import split_document
from langchain_asesoria.records import DOC_ID, END_INDEX, PARENT_ID, START_INDEX
from langchain_asesoria.tokenization import load_tokenization
from langchain_asesoria_eval.corpus import (
    CorpusDocument,
    find_documents,
    load_corpus,
    questions_in_text,
)
from langchain_asesoria_eval.metrics import is_relevant
from langchain_asesoria_eval.questions import (
    Question,
    load_questions,
    validate_against_corpus,
)
from langchain_asesoria_eval.retrievers import BM25Retriever, ScoredPosition

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
#: Ranked pieces a context is filled from: enough for 4,000 tokens of distinct parents.
DEPTH = 300


@dataclass(frozen=True, slots=True)
class Piece:
    """A delivered or indexed stretch of one document (``metrics.Located``)."""

    doc_id: str
    start: int
    end: int
    text: str


def _piece(document: Document) -> Piece:
    metadata = document.metadata
    start = int(metadata[START_INDEX])
    end = int(metadata.get(END_INDEX, start + len(document.page_content)))
    return Piece(str(metadata[DOC_ID]), start, end, document.page_content)


class _Ranked(BaseRetriever):
    """A question's BM25 ranking, as a LangChain retriever (what the parents' retriever
    is given in place of a vector store's)."""

    documents: list[Document]

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        return self.documents


class _Counts:
    """Exact content counts, each text counted once per run (texts recur per budget)."""

    def __init__(self, tokenizer: Tokenization) -> None:
        self._tokenizer = tokenizer
        self._known: dict[str, int] = {}

    def count_content(self, text: str) -> int:
        if text not in self._known:
            self._known[text] = self._tokenizer.count_content(text)
        return self._known[text]


class _Rankings:
    """Each question's top ``DEPTH`` positions, searched once per run."""

    def __init__(self, search: Any) -> None:
        self._search = search
        self._known: dict[str, list[ScoredPosition]] = {}

    def scored(self, query: str) -> list[ScoredPosition]:
        if query not in self._known:
            self._known[query] = self._search.search(query, DEPTH)
        return self._known[query]

    def __call__(self, query: str) -> list[int]:
        return [hit.position for hit in self.scored(query)]


def by_parent_score(hits: Sequence[ScoredPosition], owners: Sequence[str], rule: str) -> list[int]:
    """The ranked positions regrouped so that parents come in the order of ``rule``:
    ``first`` (their best child's rank, the retriever's own order), ``sum@K`` (the sum of
    their children's BM25 scores among the top K) or ``rrf@K`` (reciprocal-rank fusion,
    ``1 / (10 + rank)``, over the top K); ties and parents without a child in the top K
    keep the order of their first child."""
    if rule == "first":
        return [hit.position for hit in hits]
    kind, depth = rule.split("@")
    score: dict[str, float] = {}
    first: dict[str, int] = {}
    for rank, hit in enumerate(hits):
        owner = owners[hit.position]
        first.setdefault(owner, rank)
        if rank < int(depth):
            gain = hit.score if kind == "sum" else 1 / (10 + rank)
            score[owner] = score.get(owner, 0.0) + gain
    order = {
        o: i for i, o in enumerate(sorted(first, key=lambda o: (-score.get(o, 0.0), first[o])))
    }
    return [h.position for h in sorted(hits, key=lambda h: order[owners[h.position]])]


def fused_order(
    chunk_hits: Sequence[ScoredPosition],
    parent_hits: Sequence[ScoredPosition],
    owners: Sequence[int],
    weight: float,
    depth: int = DEPTH,
) -> list[int]:
    """The top ``depth`` chunk positions by their BM25 score plus ``weight`` times their
    parent's (``owners[chunk]``: the parent's position in ``parent_hits``' index; a
    chunk or parent not among the hits scores 0). Ties keep the chunks' positions in order."""
    chunk_score = {hit.position: hit.score for hit in chunk_hits}
    parent_score = {hit.position: hit.score for hit in parent_hits}
    return sorted(
        range(len(owners)),
        key=lambda i: -(chunk_score.get(i, 0.0) + weight * parent_score.get(owners[i], 0.0)),
    )[:depth]


def _fill(pieces: Sequence[Document], tokenizer: _Counts, budget: int) -> list[Document]:
    """The pieces that fit, in rank order (the parents' retriever's rule)."""
    left, delivered = budget, []
    for piece in pieces:
        tokens = tokenizer.count_content(piece.page_content)
        if tokens <= left:
            left -= tokens
            delivered.append(piece)
    return delivered


@dataclass(frozen=True, slots=True)
class Stretch:
    """A delivered stretch of one group (a parent, or a document): ``text[start:end]`` of
    the group's text, which begins at offset ``first``."""

    group: str
    start: int
    end: int
    tokens: int


def grow_in_rank_order(
    hits: Sequence[tuple[str, int, int, int]],
    texts: dict[str, tuple[int, str]],
    counts: Any,
    budget: int,
    *,
    one_per_group: bool,
) -> list[Stretch]:
    """The budget spent in rank order: each hit ``(group, start, end, fallback_end)``
    widens a stretch of its group to ``[start, end)`` when the tokens that adds fit what
    is left, else to ``[start, fallback_end)`` when those fit, else is passed over.
    ``one_per_group``: a group has one stretch (hits far apart bring the text between
    them); otherwise a hit joins a stretch it overlaps or touches, else starts one.
    ``texts[group]`` is ``(first, text)``: the group's text and its first offset.

    Invariant: ``sum(s.tokens) <= budget``, each ``s.tokens`` the exact count of its text.
    """
    stretches: list[Stretch] = []
    left = budget
    for group, start, hit_end, fallback_end in hits:
        first, text = texts[group]
        at = next(
            (
                i
                for i, s in enumerate(stretches)
                if s.group == group and (one_per_group or (start <= s.end and hit_end >= s.start))
            ),
            None,
        )
        old = None if at is None else stretches[at]
        for end in dict.fromkeys((hit_end, fallback_end)):
            lo, hi = (start, end) if old is None else (min(start, old.start), max(end, old.end))
            tokens = counts.count_content(text[lo - first : hi - first])
            added = tokens - (0 if old is None else old.tokens)
            if added <= left:
                left -= added
                grown = Stretch(group, lo, hi, tokens)
                if at is None:
                    stretches.append(grown)
                else:
                    stretches[at] = grown
                break
    return stretches


def _stretch_documents(
    stretches: Sequence[Stretch], texts: dict[str, tuple[int, str]], doc_of: dict[str, str]
) -> list[Document]:
    documents = []
    for s in stretches:
        first, text = texts[s.group]
        metadata = {DOC_ID: doc_of[s.group], START_INDEX: s.start, END_INDEX: s.end}
        documents.append(Document(text[s.start - first : s.end - first], metadata=metadata))
    return documents


Method = Callable[[str, int], list[Document]]
#: Not a context: the top N chunks of the ranking, whatever their tokens (what any
#: delivery of whole chunks of this ranking could at most reach with N chunks).
CEILING = "ceiling"
CEILING_DEPTHS = (10, 20, 30, 50, 100)


def chunk_documents(
    corpus: Sequence[CorpusDocument], tokenizer: Tokenization, parent_budgets: Sequence[int]
) -> tuple[list[Document], dict[int, InMemoryStore]]:
    """Our chunks as Documents (``page_content``: what BM25 indexes), one ``parent_id``
    key per parent budget, and each budget's parents in a store."""
    config = ChunkingConfig(256, 32)
    chunks: list[Document] = []
    stores = {budget: InMemoryStore() for budget in parent_budgets}
    for document in corpus:
        split = split_document(
            document.read, ChunkMetadata(document.doc_id), config=config, tokenization=tokenizer
        )
        owners: dict[int, tuple[str, ...]] = {}
        for budget in parent_budgets:
            built = read_document_parents(
                document.read,
                split.chunks,
                config=config,
                tokenizer=tokenizer,
                parent_max_tokens=budget,
            )
            owners[budget] = built.chunk_parents
            stores[budget].mset([(p.parent_id, parent_document(p)) for p in built.parents])
        for index, chunk in enumerate(split.chunks):
            metadata = {DOC_ID: document.doc_id, START_INDEX: chunk.start, END_INDEX: chunk.end}
            metadata |= {f"{PARENT_ID}_{b}": owners[b][index] for b in parent_budgets}
            metadata["text"] = chunk.text
            chunks.append(Document(chunk.embedding_text, metadata=metadata))
    return chunks, stores


def langchain_pdr(corpus: Sequence[CorpusDocument], tokenizer: _Counts) -> Method:
    """ParentDocumentRetriever's splits (RecursiveCharacterTextSplitter 2,000 / 400), its
    children ranked by BM25, its parents in the order of their first child."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    parents = RecursiveCharacterTextSplitter(chunk_size=2000, add_start_index=True)
    children = RecursiveCharacterTextSplitter(chunk_size=400)
    parent_docs: list[Document] = []
    child_docs: list[Document] = []
    for document in corpus:
        source = Document(document.text, metadata={DOC_ID: document.doc_id})
        for parent in parents.split_documents([source]):
            parent_docs.append(parent)
            for child in children.split_text(parent.page_content):
                child_docs.append(Document(child, metadata={"parent": len(parent_docs) - 1}))
    ranking = _Rankings(BM25Retriever().index([child.page_content for child in child_docs]))

    def deliver(query: str, budget: int) -> list[Document]:
        seen: dict[int, None] = {}
        for position in ranking(query):
            seen.setdefault(child_docs[position].metadata["parent"], None)
        return _fill([parent_docs[i] for i in seen], tokenizer, budget)

    return deliver


def rank_order_methods(
    corpus: Sequence[CorpusDocument],
    chunks: Sequence[Document],
    stores: dict[int, InMemoryStore],
    ranking: Callable[[str], list[int]],
    counts: _Counts,
) -> dict[str, Method]:
    """The ``--rank-order`` rows (``grow_in_rank_order``), by name."""
    spans = [(int(c.metadata[START_INDEX]), int(c.metadata[END_INDEX])) for c in chunks]
    documents = {d.doc_id: (0, d.read.text.text) for d in corpus}

    def overlap_once(query: str, budget: int) -> list[Document]:
        hits = [(str(chunks[i].metadata[DOC_ID]), *spans[i], spans[i][1]) for i in ranking(query)]
        grown = grow_in_rank_order(hits, documents, counts, budget, one_per_group=False)
        return _stretch_documents(grown, documents, {d: d for d in documents})

    found: dict[str, Method] = {"chunks, overlap once": overlap_once}
    for parent_budget, store in stores.items():
        key = f"{PARENT_ID}_{parent_budget}"
        ids = list(store.yield_keys())
        parents = dict(zip(ids, store.mget(ids), strict=True))
        texts = {i: (int(p.metadata[START_INDEX]), p.page_content) for i, p in parents.items() if p}
        doc_of = {i: str(p.metadata[DOC_ID]) for i, p in parents.items() if p}
        following: dict[int, int] = {}  # a chunk's next chunk in its parent
        for before, after in itertools.pairwise(range(len(chunks))):
            if chunks[before].metadata[key] == chunks[after].metadata[key]:
                following[before] = after

        def windows(
            query: str, budget: int, key: str = key, texts: Any = texts, doc_of: Any = doc_of,
            following: dict[int, int] = following, grow: bool = False,
        ) -> list[Document]:  # fmt: skip
            hits = [
                (str(chunks[i].metadata[key]), spans[i][0],
                 spans[following.get(i, i) if grow else i][1], spans[i][1])
                for i in ranking(query)
            ]  # fmt: skip
            grown = grow_in_rank_order(hits, texts, counts, budget, one_per_group=True)
            return _stretch_documents(grown, texts, doc_of)

        found[f"parents {parent_budget} rank-order windows"] = windows
        found[f"parents {parent_budget} rank-order windows +next"] = functools.partial(
            windows, grow=True
        )
    return found


def methods(
    corpus: Sequence[CorpusDocument],
    tokenizer: Tokenization,
    parent_budgets: Sequence[int],
    deliveries: Sequence[Delivery] = ("windows",),
    rules: Sequence[str] = ("first",),
    rank_order: bool = False,
    fuse: Sequence[int] = (),
    fuse_weight: float = 1.0,
) -> dict[str, Method]:
    """Each way to fill a context, by name."""
    chunks, stores = chunk_documents(corpus, tokenizer, sorted({*parent_budgets, *fuse}))
    chunk_search = BM25Retriever().index([chunk.page_content for chunk in chunks])
    ranking = _Rankings(chunk_search)
    counts = _Counts(tokenizer)
    originals = [
        Document(c.metadata["text"], metadata={**c.metadata, "embedding_text": c.page_content})
        for c in chunks
    ]

    def chunks_alone(query: str, budget: int) -> list[Document]:
        return _fill([originals[i] for i in ranking(query)], counts, budget)

    def chunks_ranked(query: str, depth: int) -> list[Document]:
        return [originals[i] for i in ranking(query)[:depth]]

    found: dict[str, Method] = {"chunks": chunks_alone, CEILING: chunks_ranked}
    for parent_budget, deliver, rule in itertools.product(parent_budgets, deliveries, rules):
        key = f"{PARENT_ID}_{parent_budget}"
        owners = [chunk.metadata[key] for chunk in chunks]

        def parents(
            query: str, budget: int, key: str = key, owners: list[str] = owners, **how: Any
        ) -> list[Document]:
            ranked = by_parent_score(ranking.scored(query), owners, how["rule"])
            retriever = ParentContextRetriever(
                retriever=_Ranked(documents=[chunks[i] for i in ranked]),
                docstore=stores[how["parent_budget"]],
                tokenizer=counts,
                max_context_tokens=budget,
                id_key=key,
                deliver=how["deliver"],
            )
            return retriever.invoke(query)

        name = f"parents {parent_budget} {deliver}" + ("" if rule == "first" else f" {rule}")
        found[name] = functools.partial(
            parents, parent_budget=parent_budget, deliver=deliver, rule=rule
        )
    own = {budget: stores[budget] for budget in parent_budgets}
    if rank_order:
        found |= rank_order_methods(corpus, chunks, own, ranking, counts)
    for scorer in fuse:
        ids = list(stores[scorer].yield_keys())
        at = {parent_id: i for i, parent_id in enumerate(ids)}
        owners = [at[chunk.metadata[f"{PARENT_ID}_{scorer}"]] for chunk in chunks]
        texts = [p.page_content if p else "" for p in stores[scorer].mget(ids)]
        parent_search = BM25Retriever().index(texts)

        @functools.cache
        def fused(
            query: str,
            parent_search: Any = parent_search,
            owners: list[int] = owners,
            parents: int = len(texts),
        ) -> list[int]:
            """The question's chunks in ``fused_order``, searched once per run."""
            return fused_order(
                chunk_search.search(query, len(chunks)),
                parent_search.search(query, parents),
                owners,
                fuse_weight,
            )

        def fused_chunks(query: str, budget: int, fused: Any = fused) -> list[Document]:
            return _fill([originals[i] for i in fused(query)], counts, budget)

        def fused_ceiling(query: str, depth: int, fused: Any = fused) -> list[Document]:
            return [originals[i] for i in fused(query)[:depth]]

        suffix = f", ranked with {scorer}-token parents"
        found["chunks" + suffix] = fused_chunks
        found[f"{CEILING}{suffix}"] = fused_ceiling
        grown = rank_order_methods(corpus, chunks, own, fused, counts)
        found |= {name + suffix: grown[name] for name in grown if name.endswith("+next")}
    found["langchain PDR"] = langchain_pdr(corpus, counts)
    return found


def answered(question: Question, delivered: Sequence[Document]) -> bool:
    pieces = [_piece(document) for document in delivered]
    return any(is_relevant(piece, passage) for piece in pieces for passage in question.relevant)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+", help="documents or folders of the corpus")
    parser.add_argument("--questions", required=True, help="the question file (JSON Lines)")
    parser.add_argument("--budgets", type=int, nargs="+", default=[1000, 2000, 4000])
    parser.add_argument("--parent-max-tokens", type=int, nargs="+", default=[512, 1024])
    parser.add_argument(
        "--deliver",
        nargs="+",
        choices=DELIVERIES,
        default=["windows"],
        help="ParentContextRetriever's deliver options to measure",
    )
    parser.add_argument(
        "--rank",
        nargs="+",
        default=["first"],
        help="parent order: first (best child), sum@K or rrf@K over the top K children",
    )
    parser.add_argument(
        "--rank-order",
        action="store_true",
        help="also the rows that spend the budget in the chunks' rank order",
    )
    parser.add_argument(
        "--fuse",
        type=int,
        nargs="+",
        default=[],
        metavar="N",
        help="also rank chunks by their BM25 score plus --fuse-weight times their "
        "N-token parent's (BM25 over the parents' text)",
    )
    parser.add_argument(
        "--fuse-weight", type=float, default=1.0, help="the parent's score's weight (--fuse)"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    tokenizer = load_tokenization(MODEL)
    corpus = load_corpus(find_documents(args.inputs))
    questions = load_questions(args.questions)
    validate_against_corpus(questions, {d.doc_id: d.extracted_text for d in corpus})
    answerable = [q for q in questions_in_text(questions, corpus) if not q.no_source]
    table = methods(
        corpus, tokenizer, args.parent_max_tokens, args.deliver, args.rank, args.rank_order,
        args.fuse, args.fuse_weight,
    )  # fmt: skip
    print(f"{len(answerable)} questions over {len(corpus)} documents; context tokens: {MODEL}")
    print("| method | " + " | ".join(f"{b:,} tokens" for b in args.budgets) + " |")
    print("|---|" + "---:|" * len(args.budgets))
    ceilings = {name: table.pop(name) for name in list(table) if name.startswith(CEILING)}
    for name, deliver in table.items():
        shares = []
        for budget in args.budgets:
            hits = sum(answered(q, deliver(q.question, budget)) for q in answerable)
            shares.append(f"{100 * hits / len(answerable):.1f}% ({hits})")
        print(f"| {name} | " + " | ".join(shares) + " |")
    for name, ceiling in ceilings.items():
        print(f"answer among the top N chunks{name.removeprefix(CEILING)}:", end="")
        for depth in CEILING_DEPTHS:
            hits = sum(answered(q, ceiling(q.question, depth)) for q in answerable)
            print(f" N={depth} {100 * hits / len(answerable):.1f}%", end="")
        print()
    print(f"time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
