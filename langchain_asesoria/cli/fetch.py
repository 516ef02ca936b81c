"""``asesoria-fetch``: download BOE consolidated laws (``/texto`` and ``/metadatos``).

``asesoria-fetch BOE-A-1992-28740 BOE-A-2003-23514 -o leyes/`` saves each law as
``ID.xml`` and ``ID.metadatos.xml``, one progress line per law on stderr, and reuses
what a previous run saved (``--refresh`` downloads again). A law that fails is reported
and the others are fetched; the exit code says whether any failed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from langchain_asesoria.boe_xml.fetch import BOE_API, FetchedLaw, FetchOptions, Retry, fetch_law
from langchain_asesoria.cli.errors import ExitCode
from langchain_asesoria.errors import AsesoriaError, OutputError


def fetch_parser() -> argparse.ArgumentParser:
    """The command's arguments."""
    parser = argparse.ArgumentParser(
        prog="asesoria-fetch",
        description=(
            "Download BOE consolidated laws from the BOE's open-data API: each law's text "
            "with every wording of every block (ID.xml) and its metadata "
            "(ID.metadatos.xml). Files already there are reused."
        ),
    )
    parser.add_argument("ids", nargs="+", metavar="ID", help="a BOE identifier: BOE-A-1992-28740")
    parser.add_argument("-o", "--output", required=True, type=Path, help="folder to save into")
    parser.add_argument(
        "--refresh", action="store_true", help="download again even when the files are there"
    )
    parser.add_argument(
        "--timeout", type=float, default=30.0, help="seconds to wait for each answer (30)"
    )
    parser.add_argument(
        "--retries", type=int, default=4, help="retries of a 429 or 5xx answer or a timeout (4)"
    )
    parser.add_argument(
        "--base-url", default=BOE_API, help="the API's address up to the id (a mirror's)"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    return parser


def _line(fetched: FetchedLaw) -> str:
    if not fetched.downloaded:
        return f"{fetched.law_id}: already in {fetched.texto.parent} ({fetched.size:,} bytes)"
    return (
        f"{fetched.law_id}: downloaded {' and '.join(fetched.downloaded)} "
        f"({fetched.size:,} bytes) -> {fetched.texto.parent}"
    )


def _retry_line(stream: TextIO, quiet: bool) -> Callable[[Retry], None]:
    def say(retry: Retry) -> None:
        if not quiet:
            print(
                f"{retry.law_id}: {retry.answer}: {retry.reason}; retry {retry.attempt} in "
                f"{retry.wait:g} s",
                file=stream,
            )

    return say


def main(argv: Sequence[str] | None = None) -> int:
    """Runs ``asesoria-fetch`` with ``argv`` (default: ``sys.argv[1:]``).

    Returns:
        The exit code: 0 every law saved, 1 some failed (each named on stderr), 2 usage,
        4 the folder cannot be written, 130 interrupted.
    """
    try:
        args = fetch_parser().parse_args(argv)
    except SystemExit as stop:  # --help, or a usage error already printed
        return int(stop.code or 0)
    if args.timeout <= 0 or args.retries < 0:
        print("error: --timeout must be above 0 and --retries at least 0.", file=sys.stderr)
        return ExitCode.USAGE
    base_url = args.base_url if args.base_url.endswith("/") else f"{args.base_url}/"
    options = FetchOptions(base_url, args.timeout, args.retries, refresh=args.refresh)
    on_retry = _retry_line(sys.stderr, args.quiet)
    failed = 0
    for law_id in args.ids:
        try:
            fetched = fetch_law(law_id, args.output, options=options, on_retry=on_retry)
        except KeyboardInterrupt:
            print("interrupted: the laws saved so far are kept.", file=sys.stderr)
            return ExitCode.INTERRUPTED
        except OutputError as error:
            print(f"error: {error}", file=sys.stderr)
            return ExitCode.OUTPUT
        except AsesoriaError as error:
            print(f"error: {error}", file=sys.stderr)
            failed += 1
            continue
        if not args.quiet:
            print(_line(fetched), file=sys.stderr)
    return ExitCode.FILES_FAILED if failed else ExitCode.OK
