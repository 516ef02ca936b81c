"""``asesoria-split inspect FILE``: chunk one document and write its HTML page."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from langchain_asesoria.cli.config import (
    check_model_limit,
    choose_size,
    load_run_tokenization,
    load_settings,
    read_options,
)
from langchain_asesoria.cli.errors import (
    ExitCode,
)
from langchain_asesoria.cli.fields import resolver_from_args
from langchain_asesoria.cli.inspect_html import InspectDocument, counted, render_inspect_html
from langchain_asesoria.cli.output import write_text_atomically
from langchain_asesoria.cli.parents import file_parents, parent_options
from langchain_asesoria.errors import (
    UsageError,
)
from langchain_asesoria.reading import read_document, split_document


def default_output(path: Path) -> Path:
    """``manual.pdf`` -> ``manual.chunks.html`` in the current folder."""
    return Path(f"{path.stem}.chunks.html")


def run_inspect(args: argparse.Namespace) -> ExitCode:
    """Chunks ``args.file`` as the split command would and writes the page.

    Raises:
        UsageError: the file does not exist.
        AsesoriaError: the model, the configuration or the document fails (as in split).
    """
    path = Path(args.file)
    if not path.is_file():
        raise UsageError("no such file.", source=str(path))
    settings = load_settings()
    metadata = resolver_from_args(args).metadata_for(path)
    size = choose_size(args, settings)
    tokenization = load_run_tokenization(args, settings)
    config = check_model_limit(size, tokenization)
    read = read_document(path, read_options(args))
    chunked = split_document(read, metadata, config=config, tokenization=tokenization)
    parents = parent_options(args, config, tokenization)
    owners = file_parents(read, chunked.chunks, config, parents) if parents is not None else None
    document = InspectDocument(
        title=path.name,
        joined=chunked.joined,
        chunks=list(chunked.chunks),
        sections=list(chunked.sections),
        model=tokenization.name,
        max_tokens=config.max_tokens,
        overlap_target=config.overlap_tokens,
        furniture=read.report.furniture,
        unlocated=read.report.outline.located.unlocated if read.report.outline is not None else (),
        chrome=read.report.chrome,
        contents=read.report.contents,
        parents=owners,
        parent_max_tokens=parents.max_tokens if parents is not None else None,
    )
    output = Path(args.output) if args.output else default_output(path)
    write_text_atomically(output, render_inspect_html(document))
    print(
        f"wrote {output}: {counted(len(chunked.chunks), 'chunk')} over "
        f"{counted(len(read.pages), 'page')}; "
        "open it in a browser.",
        file=sys.stderr,
    )
    return ExitCode.OK
