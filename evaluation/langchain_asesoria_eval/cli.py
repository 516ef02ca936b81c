"""``asesoria-eval``: compare chunk sizes and overlaps by measured retrieval.

More: ``docs/design/evaluation.md``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from langchain_asesoria.cli.errors import (
    ExitCode,
    exit_code_for,
)
from langchain_asesoria.errors import (
    AsesoriaError,
    OutputError,
    UsageError,
)
from langchain_asesoria.models import (
    DEFAULT_SECTION_CONTEXT,
    SECTION_CONTEXTS,
    ChunkingConfig,
    SectionContext,
)
from langchain_asesoria.reading import ReadOptions
from langchain_asesoria_eval.chunkers import PEER_CHUNKERS, AsesoriaChunker, Chunker
from langchain_asesoria_eval.corpus import find_documents, load_corpus
from langchain_asesoria_eval.errors import SetupUnavailableError
from langchain_asesoria_eval.presets import (
    PRESETS,
    PresetOptions,
)
from langchain_asesoria_eval.questions import Question, load_questions
from langchain_asesoria_eval.report import write_report
from langchain_asesoria_eval.runner import Candidate, Run, budget_problem, evaluate, refuse
from langchain_asesoria_eval.versions import versions_for

__all__ = ["ExitCode", "main", "parse_configs"]


_CONTEXTS: dict[str, SectionContext] = {context: context for context in SECTION_CONTEXTS}

#: The runs when no ``--run`` is given.
_DEFAULT_RUN: Final = "bm25=256/32,384/48,480/64"

#: Environment variables that change what runs (e5 is skipped offline): the command a
#: report shows carries the ones that are set, so that it regenerates the same report.
_ENVIRONMENT: Final = ("HF_HUB_OFFLINE",)

_EPILOG = """\
examples:
  asesoria-eval docs/ --questions questions.jsonl --out eval
  asesoria-eval docs/ --questions questions.jsonl --run bm25=256/32,384/48 \\
      --run minilm=128/16,256/32,256/32:none --peers langchain,semchunk --out eval
  # examples/evaluation/report.md, offline (e5 is skipped), from the repository root:
  HF_HUB_OFFLINE=1 asesoria-eval examples/data/BOE-A-1991-14392.md \\
      examples/data/aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf \\
      --questions examples/evaluation/questions.jsonl --run bm25=256/32,384/48,480/64 \\
      --run minilm=128/16,192/24,256/32,128/16:label,192/24:label,256/32:label \\
      --run e5=256/32,384/48,480/64 --peers langchain,semchunk --out examples/evaluation

configurations: MAX_TOKENS/OVERLAP_TOKENS, optionally :compact (the default section
context), :path, :label or :none. A budget above the model's real input limit is
refused, never truncated (minilm reads at most 256 tokens).

questions: JSON Lines, one {"id", "question", "relevant": [{"doc_id", "start", "end",
"page", "passage"}]} object a line, spans in the document's pages joined by a blank
line; "no_source": true for a question the corpus does not answer (reported apart).
See examples/evaluation/README.md.

output: report.md (the command at its top; text written by hand after its last line is
kept when the command rewrites it), results.json and hitk.png in --out. Progress goes to
stderr. Its dependencies come with it (pip install . ./evaluation); minilm and e5 also
need CPU PyTorch and its dense extra (pip install . './evaluation[dense]').

exit codes: 0 report written; 1 a document could not be read; 2 usage error or an
invalid question file; 3 a configuration, model or dependency that cannot work, or
every run skipped (nothing is evaluated); 4 the report cannot be written; 130
interrupted.
"""


def parse_configs(text: str) -> tuple[ChunkingConfig, ...]:
    """``"256/32,128/16:label"`` -> the configurations, in order.

    Each item is ``MAX_TOKENS/OVERLAP_TOKENS``, optionally followed by ``:compact`` (the
    default), ``:path``, ``:label`` or ``:none``: the section context added to each chunk.

    Raises:
        UsageError: an item that is not ``MAX/OVERLAP[:CONTEXT]``.
        ConfigurationError: a configuration the engine rejects (overlap >= max).
    """
    configs = []
    for item in (part.strip() for part in text.split(",")):
        sizes, _, context = item.partition(":")
        size, slash, overlap = sizes.partition("/")
        if (
            not slash
            or not size.strip().isdigit()
            or not overlap.strip().isdigit()
            or (context and context not in _CONTEXTS)
        ):
            shape = f"MAX_TOKENS/OVERLAP_TOKENS[:{'|'.join(SECTION_CONTEXTS)}]"
            raise UsageError(
                f"configuration {item!r} is not {shape}, e.g. 256/32 or 128/16:label.",
                expected=shape,
            )
        configs.append(
            ChunkingConfig(
                max_tokens=int(size),
                overlap_tokens=int(overlap),
                section_context=_CONTEXTS[context or DEFAULT_SECTION_CONTEXT],
            )
        )
    return tuple(configs)


def _candidates(
    configs: Sequence[ChunkingConfig], peers: Sequence[Chunker]
) -> tuple[Candidate, ...]:
    """This library's chunker on every configuration; each peer once per size/overlap.

    Peers add no section context, so a configuration differing only in it is not
    repeated for them.
    """
    candidates: list[Candidate] = []
    seen: set[tuple[int, int]] = set()
    for config in configs:
        candidates.append(Candidate(AsesoriaChunker(), config))
        sizes = (config.max_tokens, config.overlap_tokens)
        if sizes not in seen:
            seen.add(sizes)
            candidates += [Candidate(peer, config) for peer in peers]
    return tuple(candidates)


def _parse_run(text: str) -> tuple[str, tuple[ChunkingConfig, ...]]:
    name, equals, configs = text.partition("=")
    name = name.strip()
    if not equals or name not in PRESETS:
        raise UsageError(
            f"--run {text!r}: expected NAME=CONFIGS with NAME one of {sorted(PRESETS)}, "
            "e.g. --run minilm=128/16,192/24,256/32.",
            expected=f"NAME=CONFIGS with NAME one of {sorted(PRESETS)}",
        )
    return name, parse_configs(configs)


def _parse_list(text: str, option: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError as error:
        raise UsageError(
            f"{option} {text!r}: expected comma-separated integers.",
            expected="comma-separated integers",
        ) from error
    return values


def _peers(text: str) -> list[Chunker]:
    names = [part.strip() for part in text.split(",") if part.strip()]
    unknown = sorted(set(names) - set(PEER_CHUNKERS))
    if unknown:
        raise UsageError(
            f"--peers: unknown {unknown}; choose among {sorted(PEER_CHUNKERS)}.",
            expected=f"among {sorted(PEER_CHUNKERS)}",
        )
    return [PEER_CHUNKERS[name]() for name in names]


def _about_corpus(questions: Sequence[Question], doc_ids: set[str]) -> tuple[Question, ...]:
    """The questions whose passages are all in the corpus, and those without a source."""
    kept = tuple(
        question
        for question in questions
        if all(passage.doc_id in doc_ids for passage in question.relevant)
    )
    if len(kept) < len(questions):
        print(
            f"asesoria-eval: skipping {len(questions) - len(kept)} questions about documents "
            "not given (--only-corpus-questions)",
            file=sys.stderr,
        )
    return kept


def _parser() -> argparse.ArgumentParser:
    defaults = PresetOptions()
    parser = argparse.ArgumentParser(
        prog="asesoria-eval",
        description="Compare chunk sizes and overlaps by measured hit@k, recall@k and MRR:\n"
        "every configuration indexes the same corpus with the same tokenizer, retriever "
        "and k.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "documents",
        nargs="+",
        metavar="DOCUMENT",
        help="corpus files or folders (.md, .txt, .pdf, .html), each read as asesoria-split "
        "reads it",
    )
    parser.add_argument(
        "--questions",
        required=True,
        metavar="FILE.jsonl",
        help="the annotated questions (JSON Lines, see below)",
    )
    presets = "; ".join(f"{name}: {preset.description}" for name, preset in PRESETS.items())
    parser.add_argument(
        "--run",
        action="append",
        metavar="NAME=CONFIGS",
        help=f"a preset and its comma-separated configurations, repeatable ({presets}; "
        f"default: {_DEFAULT_RUN})",
    )
    parser.add_argument(
        "--peers",
        default="",
        metavar="NAMES",
        help=f"peer chunkers to compare too, comma-separated, among {', '.join(PEER_CHUNKERS)}"
        " (default: none); each runs once per size/overlap, with no section context",
    )
    parser.add_argument(
        "--k", default="1,3,5,10", metavar="K,...", help="k values of the tables (default 1,3,5,10)"
    )
    parser.add_argument(
        "--min-overlap",
        type=float,
        default=0.5,
        metavar="SHARE",
        help="share of the shorter span a relevant chunk must cover (default 0.5)",
    )
    parser.add_argument(
        "--out",
        default="evaluation-report",
        metavar="FOLDER",
        help="output folder (default: evaluation-report)",
    )
    parser.add_argument(
        "--bm25-tokenizer",
        metavar="NAME|FOLDER|tokenizer.json",
        help="the tokenizer counting BM25 chunks (default: the offline all-MiniLM-L6-v2 "
        "tokenizer.json)",
    )
    parser.add_argument(
        "--bm25-max-tokens",
        type=int,
        default=defaults.bm25_max_tokens,
        metavar="N",
        help="the input limit BM25 chunks are counted against, as if for a model "
        f"(default {defaults.bm25_max_tokens}, the E5 budget)",
    )
    parser.add_argument(
        "--e5-model",
        default=defaults.e5_model,
        metavar="NAME|FOLDER",
        help=f"the e5 preset's model: a Hub name (needs the network) or a local folder "
        f"(default: {defaults.e5_model})",
    )
    parser.add_argument("--no-plot", action="store_true", help="skip hitk.png")
    parser.add_argument(
        "--only-corpus-questions",
        action="store_true",
        help="skip the questions about documents not given (default: they are an error)",
    )
    parser.add_argument(
        "--no-pdf-outline",
        dest="pdf_outline",
        action="store_false",
        help="give PDFs no sections (default: their outline's, as asesoria-split does)",
    )
    parser.add_argument(
        "--keep-page-furniture",
        dest="remove_page_furniture",
        action="store_false",
        help="keep running headers and footers in PDF text (default: removed)",
    )
    return parser


def _execute(args: argparse.Namespace, command: str) -> list[Path]:
    runs_asked = [_parse_run(text) for text in (args.run or [_DEFAULT_RUN])]
    ks = _parse_list(args.k, "--k")
    peers = _peers(args.peers)
    reading = ReadOptions(
        outline_sections=args.pdf_outline, remove_page_furniture=args.remove_page_furniture
    )
    corpus = load_corpus(find_documents(args.documents), reading)
    questions = load_questions(args.questions)
    if args.only_corpus_questions:
        questions = _about_corpus(questions, {document.doc_id for document in corpus})
    options = PresetOptions(args.bm25_tokenizer, args.bm25_max_tokens, args.e5_model)
    runs: list[Run] = []
    skipped: list[tuple[str, str]] = []
    loaded = []
    for name, configs in runs_asked:
        try:
            tokenization = PRESETS[name].tokenization(options)
        except SetupUnavailableError as error:
            print(f"asesoria-eval: skipping {name}: {error}", file=sys.stderr)
            skipped.append((name, str(error)))
            continue
        loaded.append((name, configs, tokenization))
    if not loaded:
        reasons = "; ".join(f"{name}: {reason}" for name, reason in skipped)
        raise SetupUnavailableError(
            f"every run was skipped, so nothing was evaluated ({reasons}). Run with a "
            "network, or choose runs that work offline (bm25, minilm).",
            expected="a run that works here",
        )
    # Refuse budgets above a model's limit before any model is loaded or text indexed.
    refuse(
        [
            problem
            for name, configs, tokenization in loaded
            if (
                problem := budget_problem(
                    name, tokenization.name, tokenization.max_input_tokens, configs
                )
            )
            is not None
        ]
    )
    for name, configs, tokenization in loaded:
        setup = PRESETS[name].build(options, tokenization)
        runs.append(Run(setup, _candidates(configs, peers)))

    def progress(line: str) -> None:
        print(f"asesoria-eval: {line}", file=sys.stderr, flush=True)

    evaluation = evaluate(
        corpus,
        questions,
        runs,
        ks=ks,
        min_overlap=args.min_overlap,
        skipped=skipped,
        progress=progress,
    )
    try:
        return write_report(
            evaluation,
            args.out,
            command,
            plot=not args.no_plot,
            versions=versions_for(evaluation),
        )
    except OSError as error:
        raise OutputError(f"cannot write the report to {args.out}: {error}") from error


def _command(arguments: Sequence[str]) -> str:
    """The command line that regenerates the report, with the settings it ran under."""
    settings = [f"{name}={os.environ[name]}" for name in _ENVIRONMENT if os.environ.get(name)]
    return shlex.join([*settings, "asesoria-eval", *arguments])


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command; returns the exit code (see the module docstring)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = _parser().parse_args(arguments)
    command = _command(arguments)
    try:
        written = _execute(args, command)
    except KeyboardInterrupt:
        print("asesoria-eval: interrupted: no report was written.", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except AsesoriaError as error:
        print(f"asesoria-eval: {type(error).__name__}: {error}", file=sys.stderr)
        return exit_code_for(error)
    for path in written:
        print(path)
    return ExitCode.OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
