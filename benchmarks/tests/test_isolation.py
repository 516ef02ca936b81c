"""Isolation under load, reduced size: zero cross-session results in a real Chroma store.

Runs ``benchmarks/isolation_load.py`` (see its docstring; the full size, 2,000 private
documents over 50 sessions and 10,000 queries, is ``python
benchmarks/isolation_load.py``) with 120 private documents over 8 sessions, 20 public
ones and 600 adversarial queries through ``chroma_session_filter``. Every hit is
checked against the ground truth of who owns which document.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("chromadb", reason="pip install 'langchain-asesoria[chroma]'")
pytest.importorskip("langchain_chroma", reason="pip install 'langchain-asesoria[chroma]'")


def test_no_session_ever_retrieves_another_sessions_chunks_under_load(tmp_path: Path) -> None:
    from benchmarks import isolation_load

    report = isolation_load.run_isolation(
        tmp_path / "chroma", documents=120, sessions=8, public=20, queries=600
    )
    assert report.cross_session == []
    assert (report.private_documents, report.sessions) == (120, 8)
    assert report.own_private_results > 0
    assert report.public_results > 0
    # The control proves the filter did the work: without it, other sessions' chunks rank.
    assert report.control_foreign_results > 0
    assert report.ok
