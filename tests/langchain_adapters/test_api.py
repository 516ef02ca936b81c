"""The LangChain adapters' public API, and the boundary between engine and adapters."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import langchain_asesoria.langchain as adapters

PACKAGE = Path(adapters.__file__).resolve().parent.parent


def test_all_is_sorted_and_every_name_is_exported() -> None:
    assert adapters.__all__ == sorted(adapters.__all__, key=lambda name: (not name.isupper(), name))
    for name in adapters.__all__:
        assert getattr(adapters, name) is not None


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize(
    "path", sorted((PACKAGE / "engine").glob("*.py")), ids=lambda path: path.name
)
def test_the_engine_never_imports_langchain(path: Path) -> None:
    forbidden = ("langchain_core", "langchain_text_splitters", "langchain_asesoria.langchain")
    assert not [name for name in _imports(path) if name.startswith(forbidden)]


def _modules_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    output = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    return {name.split(".")[0] for name in output.split()}


def test_importing_the_engine_does_not_import_langchain() -> None:
    loaded = _modules_after("import langchain_asesoria.engine")
    assert not loaded & {"langchain_core", "langchain_text_splitters"}


def test_importing_the_adapters_does_not_import_heavy_extras() -> None:
    loaded = _modules_after("import langchain_asesoria.langchain")
    assert not loaded & {
        "pypdf",
        "chromadb",
        "langchain_chroma",
        "torch",
        "transformers",
        "sentence_transformers",
    }


LANGCHAIN_CLASSES = (
    "AsesoriaDocumentTransformer",
    "AsesoriaEmbeddings",
    "AsesoriaTextSplitter",
    "PdfPageLoader",
    "TextFileLoader",
)


@pytest.mark.parametrize("name", LANGCHAIN_CLASSES)
def test_the_langchain_classes_are_importable_from_the_top_level(name: str) -> None:
    import langchain_asesoria

    namespace: dict[str, object] = {}
    exec(f"from langchain_asesoria import {name}", namespace)
    assert namespace[name] is getattr(adapters, name)
    assert name in langchain_asesoria.__all__


def test_importing_the_package_does_not_import_langchain_until_a_class_is_used() -> None:
    assert not _modules_after("import langchain_asesoria") & {
        "langchain_core",
        "langchain_text_splitters",
    }
    loaded = _modules_after("from langchain_asesoria import AsesoriaTextSplitter")
    assert {"langchain_core", "langchain_text_splitters"} <= loaded


def test_an_unknown_top_level_name_is_an_attribute_error() -> None:
    import langchain_asesoria

    with pytest.raises(AttributeError, match="no attribute 'AsesoriaSplitter'"):
        _ = langchain_asesoria.AsesoriaSplitter  # type: ignore[attr-defined]
