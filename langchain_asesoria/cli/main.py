"""``asesoria-split``: parse arguments, call the library, map errors to exit codes.

``main(argv)`` never raises for a user's mistake: it prints one ``error:`` line per
problem on stderr and returns an ``ExitCode``. Only JSON Lines go to stdout.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from langchain_asesoria.cli.config import (
    check_model_limit,
    choose_size,
    load_run_tokenization,
    load_settings,
    read_options,
)
from langchain_asesoria.cli.errors import ExitCode, exit_code_for
from langchain_asesoria.cli.fields import resolver_from_args
from langchain_asesoria.cli.inputs import scan_inputs
from langchain_asesoria.cli.inspect_command import run_inspect
from langchain_asesoria.cli.job import SplitJob, count_pages, run_split
from langchain_asesoria.cli.output import JsonlSpool
from langchain_asesoria.cli.parents import parent_options, parent_spool
from langchain_asesoria.cli.parser import inspect_parser, split_parser
from langchain_asesoria.cli.progress import Progress
from langchain_asesoria.cli.summary import RunReport, render_summary
from langchain_asesoria.cli.workers import run_split_in_workers
from langchain_asesoria.errors import AsesoriaError
from langchain_asesoria.parallel import default_workers


def _split(args: argparse.Namespace) -> ExitCode:
    started = time.perf_counter()
    settings = load_settings()
    inputs = scan_inputs(args.inputs, args.exclude)
    paths = list(inputs.paths)
    fields = resolver_from_args(args, inputs.doc_ids)
    size = choose_size(args, settings)
    tokenization = load_run_tokenization(args, settings)
    config = check_model_limit(size, tokenization)
    parents = parent_options(args, config, tokenization)
    # the usable cores, unless --jobs says
    workers = min(args.jobs or default_workers(), len(paths))
    job = SplitJob(
        tuple(paths),
        config,
        tokenization,
        fields,
        args.strict,
        read_options(args),
        parents,
    )
    destination = None if args.output in (None, "-") else Path(args.output)
    show_bar = sys.stderr.isatty() and not args.quiet
    with JsonlSpool(destination, sys.stdout) as spool, parent_spool(parents) as parent_lines:
        progress = Progress(count_pages(paths) if show_bar else 0, sys.stderr, enabled=show_bar)
        try:
            if workers > 1:
                reports = run_split_in_workers(job, spool, progress, workers, parent_lines)
            else:
                reports = run_split(job, spool, progress, parent_lines)
        finally:
            progress.close()
        written = any(report.failure is None for report in reports)
        if written:  # a run in which every file failed leaves no (empty) output behind
            spool.publish()
            if parent_lines is not None:
                parent_lines.publish()
    run = RunReport(
        tuple(reports),
        config.max_tokens,
        config.overlap_tokens,
        time.perf_counter() - started,
        tokenization.name,
        inputs.skipped,
        inputs.unsupported,
    )
    if not args.quiet:
        print(render_summary(run, verbose=args.verbose), file=sys.stderr)
        where = destination or "stdout"
        failed = f"; {len(run.failed)} failed (errors above)" if run.failed else ""
        if written:
            print(f"wrote {spool.records} chunks to {where}{failed}", file=sys.stderr)
            if parent_lines is not None and parents is not None:
                print(
                    f"wrote {parent_lines.records} parents to {parents.destination}",
                    file=sys.stderr,
                )
        else:
            print(f"wrote nothing to {where}: every file failed (errors above)", file=sys.stderr)
    return ExitCode.FILES_FAILED if run.failed else ExitCode.OK


_COMMANDS: dict[str, tuple[Callable[[], argparse.ArgumentParser], Callable[..., ExitCode]]] = {
    "split": (split_parser, _split),
    "inspect": (inspect_parser, run_inspect),
}


@contextmanager
def _pdf_warnings_silenced() -> Iterator[None]:
    """pypdf logs recoverable oddities (stray bytes after %%EOF): keep stderr readable."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def _starting_worker() -> bool:
    """Whether this process is a multiprocessing worker still importing its caller's main
    script (the state ``multiprocessing`` itself checks before it starts a process)."""
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


def main(argv: Sequence[str] | None = None) -> int:
    """Runs ``asesoria-split`` with ``argv`` (default: ``sys.argv[1:]``).

    Returns:
        The exit code (``ExitCode``): 0 ok, 1 some files failed, 2 usage, 3 model or
        configuration, 4 output, 130 interrupted.
    """
    if _starting_worker():
        # A script that calls main() without an ``if __name__ == "__main__":`` guard runs
        # it again in each worker as spawn imports the script: do nothing there (no
        # output file, no workers of its own), and the caller reports the worker that
        # could not start.
        print(
            "asesoria-split: main() was called while a worker process was starting; "
            'guard the call with if __name__ == "__main__":',
            file=sys.stderr,
        )
        return ExitCode.USAGE
    arguments = list(sys.argv[1:] if argv is None else argv)
    name = arguments[0] if arguments and arguments[0] in _COMMANDS else "split"
    if arguments and arguments[0] == name:
        arguments = arguments[1:]
    make_parser, command = _COMMANDS[name]
    try:
        args = make_parser().parse_args(arguments)
    except SystemExit as stop:  # --help, --version, or a usage error already printed
        return int(stop.code or 0)
    with _pdf_warnings_silenced():
        try:
            return command(args)
        except KeyboardInterrupt:
            print("interrupted: nothing was written.", file=sys.stderr)
            return ExitCode.INTERRUPTED
        except AsesoriaError as error:
            print(f"error: {error}", file=sys.stderr)
            return exit_code_for(error)
