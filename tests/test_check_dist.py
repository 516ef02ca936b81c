"""``.ci/check_dist.py``, which ``.ci/run`` runs on the built packages, finds what it must.

Archives are built here by hand: one as hatchling writes it, and the same with each
kind of generated file added, which the check must name. The check runs as CI runs it,
``python .ci/check_dist.py DIST``.
"""

from __future__ import annotations

import io
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / ".ci" / "check_dist.py"

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


def _check(dist: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CHECK), str(dist)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _problems(dist: Path) -> list[str]:
    result = _check(dist)
    assert result.returncode == (1 if result.stderr else 0), result.stderr
    return result.stderr.splitlines()


def test_clean_packages_pass(tmp_path: Path) -> None:
    _sdist(tmp_path, SOURCE)
    _wheel(tmp_path, WHEEL)
    result = _check(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "no generated file, nothing missing" in result.stdout


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
    _wheel(tmp_path, WHEEL)
    assert _problems(tmp_path) == [f"{archive.name}: {generated} is generated"]


def test_gitignore_decides_too(tmp_path: Path) -> None:
    """A file only ``.gitignore`` knows as generated (``*.egg-info/``)."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the check asks git what .gitignore covers")
    archive = _sdist(tmp_path, [*SOURCE, "x.egg-info/PKG-INFO"])
    _wheel(tmp_path, WHEEL)
    assert _problems(tmp_path) == [f"{archive.name}: x.egg-info/PKG-INFO is generated"]


def test_a_wheel_with_strays_or_without_its_assets_is_refused(tmp_path: Path) -> None:
    _sdist(tmp_path, SOURCE)
    wheel = _wheel(tmp_path, [*WHEEL[:2], "tests/engine/test_engine.py"])
    assert set(_problems(tmp_path)) == {
        f"{wheel.name}: tests/engine/test_engine.py is outside the package",
        f"{wheel.name}: langchain_asesoria/cli/inspect.js is missing",
        f"{wheel.name}: the license is missing",
    }


def test_the_library_wheel_never_carries_the_evaluation(tmp_path: Path) -> None:
    """The retrieval evaluation is its own distribution (``evaluation/``)."""
    _sdist(tmp_path, SOURCE)
    wheel = _wheel(tmp_path, [*WHEEL, "langchain_asesoria/evaluation/cli.py"])
    assert _problems(tmp_path) == [
        f"{wheel.name}: langchain_asesoria/evaluation/cli.py is the evaluation, "
        "a distribution of its own (evaluation/)"
    ]


EVAL_WHEEL = [
    "langchain_asesoria_eval/__init__.py",
    "langchain_asesoria_eval/py.typed",
    "langchain_asesoria_eval/cli.py",
    "langchain_asesoria_eval-0.1.0.dist-info/METADATA",
    "langchain_asesoria_eval-0.1.0.dist-info/licenses/LICENSE",
]


def test_the_evaluation_s_packages_are_checked_too(tmp_path: Path) -> None:
    _sdist(tmp_path, SOURCE)
    _wheel(tmp_path, WHEEL)
    eval_wheel = tmp_path / "langchain_asesoria_eval-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(eval_wheel, "w") as archive:
        for name in [*EVAL_WHEEL[:2], *EVAL_WHEEL[3:], "langchain_asesoria/errors.py"]:
            archive.writestr(name, "x")
    with tarfile.open(tmp_path / "langchain_asesoria_eval-0.1.0.tar.gz", "w:gz") as tar:
        for name in ("pyproject.toml", "langchain_asesoria_eval/cli.py", "tests/.hypothesis/x"):
            info = tarfile.TarInfo(f"langchain_asesoria_eval-0.1.0/{name}")
            tar.addfile(info, io.BytesIO(b""))
    assert set(_problems(tmp_path)) == {
        f"{eval_wheel.name}: langchain_asesoria/errors.py is outside the package",
        f"{eval_wheel.name}: langchain_asesoria_eval/cli.py is missing",
        "langchain_asesoria_eval-0.1.0.tar.gz: tests/.hypothesis/x is generated",
    }


def test_the_root_gitignore_is_the_only_one() -> None:
    """hatchling leaves out of the source archive what the root ``.gitignore`` covers,
    and reads no other: a folder's own ``.gitignore`` let ``benchmarks/.cache`` (4 MB of
    corpus and tokenizer caches) into the archive."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the check asks git which files are tracked")
    tracked = subprocess.run(
        ["git", "ls-files", "--", "*.gitignore"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split()
    assert tracked == [".gitignore"]
