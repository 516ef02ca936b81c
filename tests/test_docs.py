"""The documentation site says what the code does: its tables, its reference, its words.

The site's code blocks run in ``tests/test_readme.py`` (with the README's); here, the
tables that restate code (``ReadOptions``' defaults and the command line's switches),
the API reference's coverage of ``langchain_asesoria.__all__``, the project's links and
the product's words. ``mkdocs build --strict`` itself runs in ``.ci/run``.
"""

from __future__ import annotations

import dataclasses
import html
import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from readme_snippets import DOCS, ROOT, documented_files, snippets

import langchain_asesoria
from langchain_asesoria.cli.parser import split_parser
from langchain_asesoria.reading import ReadOptions
from langchain_asesoria.tokenization import PROFILES

READING = DOCS / "guides" / "reading.md"
TOKENIZERS = DOCS / "guides" / "tokenizers.md"
REFERENCE = DOCS / "reference"
tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

#: ``ReadOptions`` fields that are no switch of a kind's structure (a PDF's password,
#: pypdf's extraction mode): the table leaves them out.
NOT_SWITCHES = {"password", "extraction_mode"}


def _reading_rows() -> dict[str, str]:
    """The switches cell of each row of the reading defaults' table, by kind."""
    text = READING.read_text(encoding="utf-8")
    header = text.index("| kind | structure | removed | switches")
    rows: dict[str, str] = {}
    for line in text[header:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[cells[0]] = cells[-1]
    return rows


def _split_flags() -> set[str]:
    return {
        flag for action in split_parser()._actions for flag in action.option_strings
    }  # argparse keeps no public list of its options


def test_the_reading_table_has_a_row_per_kind() -> None:
    kinds = [kind.split(" ")[0] for kind in _reading_rows()]
    assert kinds == ["Markdown", "PDF", "text", "web", "BOE"]


def test_every_switch_of_the_reading_table_turns_a_default_off() -> None:
    defaults = ReadOptions()
    named: set[str] = set()
    for kind, cell in _reading_rows().items():
        for field, value in re.findall(r"`(\w+)=([^`]+)`", cell):
            assert hasattr(defaults, field), f"{kind}: ReadOptions has no {field!r}"
            assert repr(getattr(defaults, field)) != value, f"{kind}: {field} is the default"
            named.add(field)
    fields = {field.name for field in dataclasses.fields(ReadOptions)}
    assert fields - named == NOT_SWITCHES


def test_every_flag_of_the_reading_table_is_one_asesoria_split_takes() -> None:
    cells = _reading_rows().values()
    flags = {flag for cell in cells for flag in re.findall(r"`(--[\w-]+)`", cell)}
    assert flags, "the table names the command line's switches"
    assert flags <= _split_flags()


def _reference_names() -> set[str]:
    """Public names the API reference renders: an object, a module's listed members, else
    the module's ``__all__``."""
    names: set[str] = set()
    directive = re.compile(r"^::: (?P<module>[\w.]+)\n(?P<options>(?:    .*\n)*)", re.MULTILINE)
    for page in sorted(REFERENCE.glob("*.md")):
        for match in directive.finditer(page.read_text(encoding="utf-8")):
            target = match["module"]
            members = re.findall(r"^\s+- (\w+)$", match["options"], flags=re.MULTILINE)
            try:
                module = importlib.import_module(target)
            except ModuleNotFoundError:  # one object: langchain_asesoria.chunk_document
                parent, _, name = target.rpartition(".")
                assert hasattr(importlib.import_module(parent), name), target
                names.add(name)
                continue
            names.update(members or getattr(module, "__all__", []))
    return names


def test_the_api_reference_documents_every_public_name() -> None:
    public = {name for name in langchain_asesoria.__all__ if not name.startswith("__")}
    missing = public - _reference_names()
    assert not missing, f"not in docs/reference: {sorted(missing)}"


def test_the_project_links_to_its_documentation_and_source() -> None:
    urls = PYPROJECT["project"]["urls"]
    assert {"Documentation", "Source", "Changelog"} <= set(urls)
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    (repo_url,) = re.findall(r"^repo_url: (\S+)$", mkdocs, flags=re.MULTILINE)
    assert urls["Source"] == repo_url
    assert all(url.startswith("https://") for url in urls.values())


def test_the_docs_extra_builds_the_site() -> None:
    extra = " ".join(PYPROJECT["project"]["optional-dependencies"]["docs"])
    for package in ("mkdocs", "mkdocstrings[python]", "mkdocs-material"):
        assert package in extra


@pytest.mark.parametrize("path", documented_files(), ids=lambda path: path.name)
def test_users_read_product_words_only(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not re.findall(r"\b(?:seeds?|issues?)\b", text, flags=re.IGNORECASE)


def test_ruff_skips_the_example_the_docs_save_in_the_checkout() -> None:
    """``example.py`` at the root (the minimal example's advice) leaves the recipe green,
    with or without git (an unpacked source archive has no ``.gitignore`` to honour)."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff comes with the dev extra")
    example = snippets()["minimal-example"].code
    for command in (["check"], ["format", "--check"]):
        options = ["--no-respect-gitignore", "--force-exclude", "--stdin-filename", "example.py"]
        result = subprocess.run(
            [ruff, *command, *options, "-"],
            input=example,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr


def test_the_readmes_links_reach_their_pages() -> None:
    """The README (also the package's page on PyPI) links into ``docs/``; every link lands."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    local = [link for link in links if "://" not in link]
    assert any(link.startswith("docs/guides/") for link in local)
    assert [link for link in local if not (ROOT / link).is_file()] == []


#: A code span's marks: backticks, or ``<code>`` where the prefix holds a ``|``.
_CODE = re.compile(r"`|</?code>")


def _profile_rows() -> set[tuple[str, str, int]]:
    """(document prefix, query prefix, limit) of each row of the tokenizers guide's table
    of known models, as the code writes them ("none" is no prefix)."""
    text = TOKENIZERS.read_text(encoding="utf-8")
    header = text.index("| model | document prefix | query prefix | limit |")
    rows: set[tuple[str, str, int]] = set()
    for line in text[header:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        prefixes = [
            "" if cell == "none" else html.unescape(_CODE.sub("", cell)).replace("\\n", "\n")
            for cell in cells[1:3]
        ]
        rows.add((prefixes[0], prefixes[1], int(cells[3])))
    return rows


def test_the_tokenizers_guide_lists_every_known_profile() -> None:
    expected = {
        (profile.document_prefix, profile.query_prefix, profile.max_input_tokens or 0)
        for _, profile in PROFILES
    }
    assert _profile_rows() == expected
