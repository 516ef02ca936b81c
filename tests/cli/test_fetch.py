"""``asesoria-fetch`` in-process against a local server playing the BOE's API: a line
per law, the cache, a failed law named while the others are saved, exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest
from boe_laws import FIXTURE_DIR, FIXTURE_ID
from boe_server import Answer, serve

from langchain_asesoria.cli.errors import ExitCode
from langchain_asesoria.cli.fetch import main

TEXTO = (FIXTURE_DIR / f"{FIXTURE_ID}.xml").read_bytes()
METADATOS = (FIXTURE_DIR / f"{FIXTURE_ID}.metadatos.xml").read_bytes()
LAW = {
    f"/{FIXTURE_ID}/texto": [Answer(body=TEXTO)],
    f"/{FIXTURE_ID}/metadatos": [Answer(body=METADATOS)],
}


def test_a_law_is_saved_with_a_line_then_reused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(LAW) as server:
        arguments = [FIXTURE_ID, "-o", str(tmp_path), "--base-url", server.base_url]
        assert main(arguments) == ExitCode.OK
        assert main(arguments) == ExitCode.OK
    first, second = capsys.readouterr().err.splitlines()
    assert first == (
        f"{FIXTURE_ID}: downloaded texto and metadatos "
        f"({len(TEXTO) + len(METADATOS):,} bytes) -> {tmp_path}"
    )
    assert second.startswith(f"{FIXTURE_ID}: already in {tmp_path}")
    assert (tmp_path / f"{FIXTURE_ID}.xml").read_bytes() == TEXTO
    assert (tmp_path / f"{FIXTURE_ID}.metadatos.xml").read_bytes() == METADATOS


def test_a_law_that_fails_is_named_and_the_others_are_saved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = "BOE-A-2004-11111"
    with serve(LAW) as server:
        code = main([missing, FIXTURE_ID, "-o", str(tmp_path), "--base-url", server.base_url])
    assert code == ExitCode.FILES_FAILED
    err = capsys.readouterr().err
    assert (
        f"error: {server.base_url}{missing}/texto: the BOE has no consolidated law {missing}" in err
    )
    assert f"{FIXTURE_ID}: downloaded" in err
    assert (tmp_path / f"{FIXTURE_ID}.xml").is_file()
    assert not (tmp_path / f"{missing}.xml").exists()


def test_a_retry_is_told(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = {
        **LAW,
        f"/{FIXTURE_ID}/texto": [Answer(503, headers=(("Retry-After", "0"),)), Answer(body=TEXTO)],
    }
    with serve(answers) as server:
        assert main([FIXTURE_ID, "-o", str(tmp_path), "--base-url", server.base_url]) == 0
    assert (
        f"{FIXTURE_ID}: texto: 503 Service Unavailable; retry 1 in 0 s" in capsys.readouterr().err
    )


def test_quiet_prints_nothing_but_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(LAW) as server:
        assert main([FIXTURE_ID, "-q", "-o", str(tmp_path), "--base-url", server.base_url]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "arguments",
    [
        [],
        [FIXTURE_ID],
        [FIXTURE_ID, "-o", "x", "--timeout", "0"],
        [FIXTURE_ID, "-o", "x", "--retries", "-1"],
    ],
)
def test_usage_errors_exit_2(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(arguments) == ExitCode.USAGE
    assert capsys.readouterr().err


def test_a_folder_that_cannot_be_written_exits_4(tmp_path: Path) -> None:
    blocker = tmp_path / "fichero"
    blocker.write_text("x", encoding="utf-8")
    assert main([FIXTURE_ID, "-o", str(blocker / "leyes")]) == ExitCode.OUTPUT


def test_an_identifier_that_is_no_boe_id_fails_that_law(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["ley-de-aguas", "-o", str(tmp_path)]) == ExitCode.FILES_FAILED
    assert "'ley-de-aguas' is not a BOE identifier" in capsys.readouterr().err


def test_help_names_the_files_it_saves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "ID.metadatos.xml" in capsys.readouterr().out
