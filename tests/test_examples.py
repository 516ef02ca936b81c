"""Every example script runs after the install its docstring names, and nothing more.

An example script (``examples/*.py``) says how to set it up and run it in its docstring,
in two literal blocks: ``Setup::`` (its ``pip install`` lines) and ``Run::`` (its
commands). Each script runs here as a user would run it on a fresh machine: in an
environment holding exactly what those install lines give
(``readme_snippets.installed_only``, faithful for what a real install leaves out:
``tests/test_installed_only.py``), offline, in a copy of ``examples/``. A script that a
documented block already runs after the same install (the LangChain guide's
``examples-command``) is checked to be that block rather than run twice.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from readme_snippets import (
    ROOT,
    environment,
    install_of,
    install_steps,
    installed_only,
    run_steps,
    snippets,
)

EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
BLOCKS = snippets()


@dataclass(frozen=True)
class Recipe:
    """An example script's documented install (``pip install`` steps) and commands."""

    install: tuple[str, ...]
    run: tuple[str, ...]


def _literal_block(docstring: str, label: str) -> list[str]:
    """The lines of the indented literal block after the line ``label...::`` (``Setup
    (CPU PyTorch first)::``)."""
    lines = docstring.splitlines()
    start = next(
        index
        for index, line in enumerate(lines)
        if line.startswith(label) and line.rstrip().endswith("::")
    )
    block: list[str] = []
    for line in lines[start + 1 :]:
        if line.strip() and not line.startswith("    "):
            break
        if line.strip():
            block.append(line.strip())
    return block


def recipe(script: Path) -> Recipe:
    """What ``script``'s docstring says to install and run."""
    docstring = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8"))) or ""
    setup = " && ".join(_literal_block(docstring, "Setup"))
    return Recipe(tuple(install_steps(setup)), tuple(_literal_block(docstring, "Run")))


def documented_run(script: Path) -> str | None:
    """The documented block that runs ``script``, if any."""
    command = f"python examples/{script.name}"
    found = [name for name, block in BLOCKS.items() if command in run_steps(block.code)]
    return found[0] if found else None


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda path: path.name)
def test_every_example_says_how_to_install_and_run_it(script: Path) -> None:
    found = recipe(script)
    assert found.install, f"{script.name}: no pip install in its Setup:: block"
    assert found.run, f"{script.name}: no Run:: block"
    assert all(command.startswith(f"python examples/{script.name}") for command in found.run)


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda path: path.name)
def test_every_example_runs_after_its_own_install_alone(script: Path, tmp_path: Path) -> None:
    """The script's commands, after exactly its documented install; or the documented
    block that runs it, after the same install (that block's test runs it)."""
    found = recipe(script)
    block = documented_run(script)
    if block is not None:
        assert tuple(install_of(block, BLOCKS)) == found.install, block
        return
    work = tmp_path / "work"
    shutil.copytree(ROOT / "examples", work / "examples")
    bin_folder = installed_only(list(found.install), tmp_path / "venv")
    for command in found.run:
        result = subprocess.run(
            ["bash", "-c", command],
            cwd=work,
            env=environment(bin_folder, tmp_path),
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert result.returncode == 0, f"{command}\n{result.stderr[-3000:]}"
        assert result.stdout.strip(), command
