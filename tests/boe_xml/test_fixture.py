"""The committed fixture law is what ``tests/boe_laws.py`` writes (``python
tests/boe_laws.py`` writes it again after a change to the generator)."""

from __future__ import annotations

from pathlib import Path

from boe_laws import FIXTURE_DIR, write_fixture


def test_the_committed_fixture_is_the_generators(tmp_path: Path) -> None:
    for written in write_fixture(tmp_path):
        assert written.read_bytes() == (FIXTURE_DIR / written.name).read_bytes(), written.name


def test_the_fixture_is_small_and_in_our_own_words() -> None:
    texto = (FIXTURE_DIR / "BOE-A-2004-99999.xml").read_text(encoding="utf-8")
    assert len(texto.encode()) < 20_000
    assert "depósitos de agua" in texto
    assert all(mark in texto for mark in ("ñ", "€", "á"))
