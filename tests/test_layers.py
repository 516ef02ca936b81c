"""The package's layers: no import runs back up, and no module outside a folder imports
that folder's private modules (``engine._search`` is the engine's alone)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "langchain_asesoria"

#: Each folder or top-level module of the package, by layer: a unit may import its own
#: layer's other units only where listed in ``SIDEWAYS``, and any unit of a lower layer.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"errors", "settings", "_lazy", "_pool", "numerals", "store_values"}),
    frozenset({"models"}),
    frozenset({"pages"}),
    frozenset({"engine", "structure"}),
    # records name a path's legal units by the grammar (``structure.legal_grammar``)
    frozenset({"records"}),
    frozenset({"tokenization", "pdf", "boe_xml"}),
    frozenset({"reading", "testing"}),
    frozenset({"parents", "parallel"}),
    frozenset({"langchain", "cli"}),
    frozenset({"ray"}),
    frozenset({"__init__", "__main__"}),
)
SIDEWAYS: frozenset[tuple[str, str]] = frozenset()

RANK = {unit: rank for rank, layer in enumerate(LAYERS) for unit in layer}


def _unit(path: Path) -> str:
    return path.relative_to(PACKAGE).with_suffix("").parts[0]


def _imports(path: Path) -> Iterator[str]:
    """The package modules ``path`` imports, at any depth of its code."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("langchain_asesoria."):
                yield node.module
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.startswith("langchain_asesoria."))


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_unit_has_a_layer() -> None:
    assert {_unit(path) for path in MODULES} == set(RANK)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_import_runs_back_up(path: Path) -> None:
    unit = _unit(path)
    upward = [
        module
        for module in _imports(path)
        if (target := module.split(".")[1]) != unit
        and (target not in RANK or RANK[target] >= RANK[unit])
        and (unit, target) not in SIDEWAYS
    ]
    assert upward == [], f"{unit} (layer {RANK[unit]}) imports {upward}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_private_module_of_another_folder(path: Path) -> None:
    unit = _unit(path)
    private = [
        module
        for module in _imports(path)
        if module.split(".")[1] != unit and any(p.startswith("_") for p in module.split(".")[2:])
    ]
    assert private == [], f"{path.name} imports private modules {private}"


def test_the_engine_imports_no_structure_and_no_reading() -> None:
    found = {
        module.split(".")[1]
        for path in (PACKAGE / "engine").glob("*.py")
        for module in _imports(path)
    }
    assert found <= {"engine", "errors", "models", "pages"}


def test_an_upward_import_is_caught(tmp_path: Path) -> None:
    """The check reads imports inside functions too (a lazy import is still a layer)."""
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from langchain_asesoria.reading import x\n", encoding="utf-8")
    assert list(_imports(module)) == ["langchain_asesoria.reading"]


#: What lives beside the package and never under it: the retrieval evaluation's
#: distribution (``evaluation/``) and the benchmarks, which import the package.
BESIDE = ("langchain_asesoria_eval", "benchmarks")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_package_imports_nothing_that_lives_beside_it(path: Path) -> None:
    found = [
        name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        for name in (
            [a.name for a in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom) and node.level == 0
            else []
        )
        if name.split(".")[0] in BESIDE
    ]
    assert found == []
