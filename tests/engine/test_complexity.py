"""The engine stays readable function by function: cyclomatic complexity at most 12."""

from __future__ import annotations

from pathlib import Path

import pytest

complexity = pytest.importorskip("radon.complexity", reason="the dev extra: pip install '.[dev]'")

ENGINE = Path(__file__).resolve().parents[2] / "langchain_asesoria" / "engine"
LIMIT = 12


def test_no_engine_function_is_above_the_limit() -> None:
    found = {
        f"{path.name}:{block.lineno} {block.fullname}": block.complexity
        for path in sorted(ENGINE.glob("*.py"))
        for block in complexity.cc_visit(path.read_text(encoding="utf-8"))
    }
    assert len(found) > 50  # every module was read
    above = {name: value for name, value in found.items() if value > LIMIT}
    assert not above, f"split these (radon cyclomatic complexity > {LIMIT}): {above}"
