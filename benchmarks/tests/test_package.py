"""benchmarks/ is one package: no ``sys.path`` edits, and tests and benchmarks meet only
through it (``from benchmarks import corpus``), never by a bare module name or a file path.

The library's tests (``tests/``) never import the lab: the generators both use are the
tests' own (``TEST_GENERATORS``), which the benchmarks import (the benchmarks' own tests
are here, in ``benchmarks/tests``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
TESTS = ROOT / "tests"

#: Module names of each side, as a bare import would name them.
BENCHMARK_MODULES = {path.stem for path in BENCHMARKS.glob("*.py")} - {"__init__"}
TEST_MODULES = {path.stem for path in TESTS.glob("*.py")}


def _sources() -> list[Path]:
    return sorted([*BENCHMARKS.glob("*.py"), *TESTS.rglob("*.py")])


def _imported(tree: ast.AST) -> Iterator[str]:
    """The top-level name of every absolute import."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def test_every_side_was_read() -> None:
    assert (BENCHMARKS / "__init__.py").is_file()
    assert {"bench", "corpus", "golden", "splitters", "families"} <= BENCHMARK_MODULES
    assert {"conftest", "strategies", "test_errors", "standins"} <= TEST_MODULES


@pytest.mark.parametrize("path", _sources(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_sys_path_edits(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr == "path"
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
    ]
    assert not found, f"sys.path used at lines {found}: import through the benchmarks package"


@pytest.mark.parametrize("path", sorted(TESTS.rglob("*.py")), ids=lambda path: path.name)
def test_tests_import_benchmarks_only_through_the_package(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bare = set(_imported(tree)) & BENCHMARK_MODULES
    assert not bare, f"import {sorted(bare)} as benchmarks.NAME"
    by_path = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "spec_from_file_location"
    ]
    assert not by_path, f"a module loaded by its file path at lines {by_path}"


#: The tests' generators the lab may take (``tests.NAME``): made for the tests, drawn by
#: the benchmarks at a larger scale (the stand-in tokenizers: every family's benchmark).
#: Nothing else of the tests.
TEST_GENERATORS = {"tests.pdf_layouts", "tests.html_pages", "tests.standins"}


def _from_tests(tree: ast.AST) -> set[str]:
    """The modules of ``tests`` that ``tree`` imports, as ``tests.NAME``."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == "tests"}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found |= {node.module} if node.module.split(".")[0] == "tests" else set()
    return found


@pytest.mark.parametrize("path", sorted(BENCHMARKS.glob("*.py")), ids=lambda path: path.name)
def test_benchmarks_import_no_test_module(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = set(_imported(tree))
    assert not imported & TEST_MODULES, sorted(imported & TEST_MODULES)
    assert not _from_tests(tree) - TEST_GENERATORS, sorted(_from_tests(tree) - TEST_GENERATORS)
    siblings = imported & BENCHMARK_MODULES
    assert not siblings, f"import {sorted(siblings)} as benchmarks.NAME"


def _imports_the_lab(tree: ast.AST) -> list[int]:
    """The lines of ``tree`` that import ``benchmarks``: an import statement anywhere (in a
    function too), or ``importlib.import_module`` / ``__import__`` of a literal name."""
    found = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom) and "benchmarks" in set(_imported(node))
    ]
    found += [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and _called(node.func) in {"import_module", "__import__"}
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and str(node.args[0].value).split(".")[0] == "benchmarks"
    ]
    return sorted(found)


def _called(func: ast.expr) -> str:
    """The name a call calls: ``f`` of ``f(...)`` or of ``module.f(...)``."""
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


@pytest.mark.parametrize(
    "source",
    [
        "import benchmarks",
        "import benchmarks.corpus as corpus",
        "from benchmarks import standins",
        "from benchmarks.families import FAMILIES",
        "def f():\n    from benchmarks import corpus\n",
        "import importlib\nimportlib.import_module('benchmarks.standins')",
        "__import__('benchmarks')",
    ],
)
def test_an_import_of_the_lab_is_caught(source: str) -> None:
    assert _imports_the_lab(ast.parse(source)) != []


@pytest.mark.parametrize(
    "source",
    ["from tests import standins", "import benchmarks_of_mine", "x = 'benchmarks.corpus'"],
)
def test_what_is_not_an_import_of_the_lab_is_not_caught(source: str) -> None:
    assert _imports_the_lab(ast.parse(source)) == []


@pytest.mark.parametrize(
    "path", sorted(TESTS.rglob("*.py")), ids=lambda path: str(path.relative_to(TESTS))
)
def test_the_library_s_tests_never_import_the_lab(path: Path) -> None:
    """The library's tests run without the benchmarks: what both need is the tests'
    (``TEST_GENERATORS``); a test may run a benchmark's command, never import it."""
    lines = _imports_the_lab(ast.parse(path.read_text(encoding="utf-8")))
    assert lines == [], f"benchmarks imported at lines {lines}: move what it needs to tests/"
