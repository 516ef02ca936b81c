"""The public API: documented names exported, heavy and LangChain imports kept out."""

from __future__ import annotations

import ast
import importlib.metadata
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import langchain_asesoria
from langchain_asesoria import errors

#: The names of the AsesorIA chunking specification (SPEC.md's "Public API" section).
SPECIFICATION_NAMES = (
    "LoadedPage",
    "ChunkMetadata",
    "SectionSpan",
    "Settings",
    "get_settings",
    "ChunkingConfig",
    "Chunk",
    "chunk_document",
    "load_tokenization",
    "Tokenization",
)

ENGINE = Path(langchain_asesoria.__file__).resolve().parent / "engine"
ROOT = Path(__file__).resolve().parent.parent


def _documented() -> str:
    """The README and the documentation site's pages, as one text."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return "\n".join(page.read_text(encoding="utf-8") for page in pages if page.is_file())


def _readme_imports() -> set[str]:
    """Names the README and the docs import ``from langchain_asesoria`` in their examples."""
    names: set[str] = set()
    text = _documented()
    for block in re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL):
        for node in ast.walk(ast.parse(block)):
            if isinstance(node, ast.ImportFrom) and node.module == "langchain_asesoria":
                names.update(alias.name for alias in node.names)
    return names


def _readme_error_table() -> set[str]:
    text = _documented()
    return set(re.findall(r"^\| `(\w+(?:Error|Warning))` \|", text, flags=re.MULTILINE))


def _run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return result.stdout.strip()


@pytest.mark.parametrize("name", SPECIFICATION_NAMES)
def test_specification_names_are_exported(name: str):
    assert name in langchain_asesoria.__all__
    assert name in (langchain_asesoria.__doc__ or "")


def test_names_the_readme_imports_are_exported():
    names = _readme_imports()
    assert names, "the README shows how to import the package"
    assert names <= set(langchain_asesoria.__all__)


def test_errors_the_readme_documents_are_exported():
    documented = _readme_error_table()
    assert documented, "the README documents the errors"
    assert documented <= set(errors.__all__)
    assert set(errors.__all__) - documented <= {"AsesoriaError", "BudgetError"}


def test_all_has_no_duplicates():
    assert len(langchain_asesoria.__all__) == len(set(langchain_asesoria.__all__))


@pytest.mark.parametrize("name", langchain_asesoria.__all__)
def test_every_name_in_all_is_importable(name: str):
    namespace: dict[str, object] = {}
    exec(f"from langchain_asesoria import {name}", namespace)
    assert namespace[name] is getattr(langchain_asesoria, name)


def test_star_import_gives_exactly_all():
    namespace: dict[str, object] = {}
    exec("from langchain_asesoria import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(langchain_asesoria.__all__)


def test_every_public_object_defined_in_the_package_is_in_all():
    public = {
        name
        for name, value in vars(langchain_asesoria).items()
        if not name.startswith("_")
        and not inspect.ismodule(value)
        and getattr(value, "__module__", "").startswith("langchain_asesoria")
    }
    assert public <= set(langchain_asesoria.__all__)


#: Errors only the command line raises: exported by its subpackage.
CLI_ERRORS = {"FieldsError", "OutputError", "StrictModeError", "UsageError"}
#: Warned by the LangChain classes only: exported by ``langchain_asesoria.langchain``.
LANGCHAIN_WARNINGS = {"OutlineUnavailableWarning"}
#: Raised reading or downloading a BOE law's XML: exported by ``langchain_asesoria.boe_xml``.
BOE_XML_ERRORS = {
    "BlockWithoutVersionsError",
    "BoeUnreachableError",
    "DamagedXmlError",
    "LawDateError",
    "LawFetchError",
    "LawNotFoundError",
    "LawXmlError",
    "NotBoeResponseError",
}
#: At most this many names in the root namespace.
ROOT_NAMES_AT_MOST = 40


def test_every_error_is_exported_by_the_root_or_by_the_subpackage_that_raises_it():
    from langchain_asesoria import boe_xml, cli
    from langchain_asesoria import langchain as adapters

    root = set(errors.__all__) & set(langchain_asesoria.__all__)
    elsewhere = CLI_ERRORS | LANGCHAIN_WARNINGS | BOE_XML_ERRORS
    assert root | elsewhere == set(errors.__all__)
    assert not root & elsewhere
    for name in BOE_XML_ERRORS:
        assert getattr(boe_xml, name) is getattr(errors, name)
    for name in LANGCHAIN_WARNINGS:
        assert getattr(adapters, name) is getattr(errors, name)
    assert set(cli.__all__) >= CLI_ERRORS
    for name in CLI_ERRORS:
        assert getattr(cli, name) is getattr(errors, name)


def test_the_root_namespace_is_small():
    assert len(langchain_asesoria.__all__) <= ROOT_NAMES_AT_MOST


def _root_namespace_section() -> set[str]:
    """The names the table under "The root namespace" of ``docs/reference/index.md`` lists."""
    page = (ROOT / "docs" / "reference" / "index.md").read_text(encoding="utf-8")
    section = page.split("## The root namespace", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return {name for row in rows for name in re.findall(r"`(\w+)`", row)}


def test_exported_members_are_exactly_the_documented_public_names():
    """As httpx's ``test_exported_members``: ``__all__`` is exactly what the reference
    documents as the root namespace, and every name there really is the package's."""
    documented = _root_namespace_section()
    assert documented, "docs/reference/index.md lists the root namespace"
    assert set(langchain_asesoria.__all__) == documented
    lazy = set(vars(langchain_asesoria)["_LAZY"])
    assert lazy | {"__version__"} == set(langchain_asesoria.__all__)


def test_version_matches_the_installed_distribution():
    assert langchain_asesoria.__version__ == importlib.metadata.version("langchain-asesoria")


#: Modules a first import leaves unloaded: tokenizer libraries, the PDF, HTML and YAML
#: parsers, ``regex`` (grapheme clusters, for the first cut inside a non-ASCII run),
#: settings (pydantic), LangChain's indexing API and LangSmith, and our own reading stage
#: (which brings most of them).
HEAVY = (
    "transformers",
    "tokenizers",
    "tiktoken",
    "huggingface_hub",
    "pypdf",
    "lxml",
    "yaml",
    "regex",
    "pydantic_settings",
    "langsmith",
    "langchain_core.indexing",
    "langchain_core.retrievers",
    "langchain_asesoria.reading",
    "langchain_asesoria.pdf",
    "langchain_asesoria.structure.html",
    "langchain_asesoria.settings",
    "langchain_asesoria.langchain.indexing",
    "langchain_asesoria.langchain.loaders",
    "langchain_asesoria.langchain.transformer",
)


def _loaded_heavy(statement: str) -> list[str]:
    out = _run(
        f"import sys; {statement}; heavy = {HEAVY!r}; "
        "print(sorted(h for h in heavy if any(m == h or m.startswith(h + '.') "
        "for m in sys.modules)))"
    )
    return ast.literal_eval(out)  # type: ignore[no-any-return]


def test_import_does_not_import_transformers():
    out = _run(
        "import sys, langchain_asesoria; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'transformers'))"
    )
    assert out == "[]"


@pytest.mark.parametrize(
    "statement",
    [
        "import langchain_asesoria",
        "from langchain_asesoria import AsesoriaTextSplitter",
        "from langchain_asesoria import ChunkingConfig, LoadedPage, ConfigurationError",
        "import langchain_asesoria.langchain",
    ],
)
def test_a_first_import_loads_no_heavy_module(statement: str):
    assert _loaded_heavy(statement) == []


def test_the_transformer_loads_no_parser_or_tokenizer_library():
    """``AsesoriaDocumentTransformer`` is a ``Runnable`` (LangSmith comes with
    ``langchain_core.runnables``) and reads documents (the reading stage, settings); the
    libraries a document's kind needs load with the first document of that kind."""
    loaded = set(_loaded_heavy("from langchain_asesoria import AsesoriaDocumentTransformer"))
    assert loaded <= {
        "langsmith",
        "pydantic_settings",
        "langchain_asesoria.reading",
        "langchain_asesoria.pdf",
        "langchain_asesoria.structure.html",
        "langchain_asesoria.settings",
        "langchain_asesoria.langchain.transformer",
    }


def test_heavy_modules_load_when_first_used():
    """Building a splitter loads the reading stage; the modules stay lazy until then."""
    loaded = _loaded_heavy(
        "from langchain_asesoria import AsesoriaTextSplitter; "
        "from langchain_asesoria.testing import WordTokenization; "
        "AsesoriaTextSplitter(WordTokenization(64), chunk_size=32).split_text('Hola.')"
    )
    assert "langchain_asesoria.reading" in loaded
    assert not {"pypdf", "lxml", "langsmith", "tokenizers"} & set(loaded)


def test_engine_loads_neither_langchain_nor_settings_nor_a_tokenizer_library():
    """The engine is light: LangChain, pydantic (settings) and tokenizers load with the
    adapters that need them, not with ``import langchain_asesoria.engine``."""
    out = _run(
        "import sys, langchain_asesoria.engine; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'langchain_core', "
        "'langchain_text_splitters', 'langchain', 'pydantic', 'pydantic_settings', "
        "'tokenizers', 'transformers'}))"
    )
    assert out == "[]"


def test_names_that_need_settings_or_a_tokenizer_load_on_first_use():
    out = _run(
        "import sys, langchain_asesoria as la; before = 'pydantic' in sys.modules; "
        "la.load_tokenization, la.Settings; print(before, 'pydantic' in sys.modules)"
    )
    assert out == "False True"


@pytest.mark.parametrize("path", sorted(ENGINE.glob("*.py")), ids=lambda p: p.name)
def test_engine_sources_never_name_langchain_or_a_tokenizer_library(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imported.add(node.module.split(".")[0])
    forbidden = {
        "langchain",
        "langchain_core",
        "langchain_text_splitters",
        "transformers",
        "tokenizers",
    }
    assert imported & forbidden == set()


def _entry_points() -> set[str]:
    """The package's entry points: every package (its ``__init__``) and every module the
    API reference renders (``::: module``, or the module of ``::: module.object``)."""
    package = Path(langchain_asesoria.__file__).resolve().parent
    found = {
        ".".join(("langchain_asesoria", *path.parent.relative_to(package).parts))
        for path in package.rglob("__init__.py")
    }
    for page in (ROOT / "docs" / "reference").glob("*.md"):
        for target in re.findall(r"^::: ([\w.]+)$", page.read_text(encoding="utf-8"), re.M):
            found.add(target)
            found.add(target.rpartition(".")[0])
    return found


def _declaring_all() -> set[str]:
    package = Path(langchain_asesoria.__file__).resolve().parent
    declaring = set()
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(
            isinstance(node, ast.Assign)
            and any(
                isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
            )
            for node in tree.body
        ):
            parts = path.relative_to(package).with_suffix("").parts
            declaring.add(".".join(("langchain_asesoria", *parts)).removesuffix(".__init__"))
    return declaring


def test_only_entry_points_declare_all() -> None:
    """``__all__`` says what a user imports: on the packages and the modules the reference
    documents, nowhere else (an inner module's names are the package's business)."""
    declaring = _declaring_all()
    assert {"langchain_asesoria", "langchain_asesoria.errors"} <= declaring
    assert sorted(declaring - _entry_points()) == []
