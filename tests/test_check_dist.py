"""``.ci/check_dist.py``, which ``.ci/run`` runs on the built packages, finds what it must.

Archives are built here by hand: one as hatchling writes it, and the same with each
kind of generated file added, which the check must name.
"""

from __future__ import annotations

import importlib.util
import io
import tarfile
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load_checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_dist", ROOT / ".ci" / "check_dist.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check_dist = _load_checker()

SOURCE = ["pyproject.toml", "README.md", "langchain_asesoria/__init__.py", "docs/index.md"]
WHEEL = [
    "langchain_asesoria/__init__.py",
    "langchain_asesoria/py.typed",
    "langchain_asesoria/cli/inspect.js",
    "langchain_asesoria-0.1.0.dist-info/METADATA",
    "langchain_asesoria-0.1.0.dist-info/licenses/LICENSE",
]


def _sdist(folder: Path, names: list[str]) -> Path:
    archive = folder / "langchain_asesoria-0.1.0.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for name in names:
            info = tarfile.TarInfo(f"langchain_asesoria-0.1.0/{name}")
            info.size = 1
            tar.addfile(info, io.BytesIO(b"x"))
    return archive


def _wheel(folder: Path, names: list[str]) -> Path:
    wheel = folder / "langchain_asesoria-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name in names:
            archive.writestr(name, "x")
    return wheel


def test_clean_packages_pass(tmp_path: Path) -> None:
    _sdist(tmp_path, SOURCE)
    _wheel(tmp_path, WHEEL)
    assert check_dist.main([str(tmp_path)]) == 0


@pytest.mark.parametrize(
    "generated",
    [
        "chunks.jsonl",
        "ley.html",
        "example.py",
        "eval/report.md",
        "site/index.html",
        "langchain_asesoria/__pycache__/models.cpython-311.pyc",
        "tests/.hypothesis/examples/x",
        ".mypy_cache/3.11/models.json",
        "out.jsonl.partial",
        "dist/old.whl",
    ],
)
def test_a_generated_file_in_the_source_archive_is_named(tmp_path: Path, generated: str) -> None:
    archive = _sdist(tmp_path, [*SOURCE, generated])
    assert check_dist.sdist_problems(archive) == [f"{archive.name}: {generated} is generated"]


def test_gitignore_decides_too(tmp_path: Path) -> None:
    """A file only ``.gitignore`` knows as generated (``.env``, ``*.egg-info/``)."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    assert check_dist.git_ignored(["x.egg-info/PKG-INFO", "README.md"]) == ["x.egg-info/PKG-INFO"]


def test_a_wheel_with_strays_or_without_its_assets_is_refused(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, [*WHEEL[:2], "tests/test_engine.py"])
    problems = check_dist.wheel_problems(wheel)
    assert f"{wheel.name}: tests/test_engine.py is outside the package" in problems
    assert f"{wheel.name}: langchain_asesoria/cli/inspect.js is missing" in problems
    assert f"{wheel.name}: the license is missing" in problems
