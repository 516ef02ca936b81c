"""Downloading a law against a local server that plays the BOE's API: the header it
asks with, the folder as a cache, retries with backoff and ``Retry-After``, and typed
errors naming the law. No test touches the network."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from boe_laws import FIXTURE_DIR, FIXTURE_ID
from boe_server import Answer, serve

from langchain_asesoria.boe_xml import (
    BoeUnreachableError,
    FetchOptions,
    LawFetchError,
    LawNotFoundError,
    NotBoeResponseError,
    fetch_law,
    read_law_file,
)
from langchain_asesoria.errors import ConfigurationError, OutputError

TEXTO = (FIXTURE_DIR / f"{FIXTURE_ID}.xml").read_bytes()
METADATOS = (FIXTURE_DIR / f"{FIXTURE_ID}.metadatos.xml").read_bytes()
TEXTO_PATH = f"/{FIXTURE_ID}/texto"
METADATOS_PATH = f"/{FIXTURE_ID}/metadatos"
NOT_FOUND = (
    b'<?xml version="1.0" encoding="utf-8"?><response><status><code>404</code>'
    b"<text>La informaci\xc3\xb3n solicitada no existe</text></status><data/></response>"
)


def _law(**texto: list[Answer]) -> dict[str, list[Answer]]:
    return {
        TEXTO_PATH: texto.get("texto", [Answer(body=TEXTO)]),
        METADATOS_PATH: [Answer(body=METADATOS)],
    }


class Sleeps(list[float]):
    """A fake ``sleep``: records the waits instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def _options(base_url: str, **overrides: object) -> FetchOptions:
    return FetchOptions(base_url=base_url, timeout=5.0, **overrides)  # type: ignore[arg-type]


def test_both_answers_are_saved_and_read_back_as_the_law(tmp_path: Path) -> None:
    with serve(_law()) as server:
        fetched = fetch_law(FIXTURE_ID, tmp_path / "leyes", options=_options(server.base_url))
    assert fetched.downloaded == ("texto", "metadatos")
    assert fetched.texto == tmp_path / "leyes" / f"{FIXTURE_ID}.xml"
    assert fetched.metadatos == tmp_path / "leyes" / f"{FIXTURE_ID}.metadatos.xml"
    assert fetched.texto.read_bytes() == TEXTO
    assert fetched.size == len(TEXTO) + len(METADATOS)
    assert server.paths() == [TEXTO_PATH, METADATOS_PATH]
    for _, headers in server.requests:
        assert headers["Accept"] == "application/xml"
        assert "langchain-asesoria" in headers["User-Agent"]
    assert read_law_file(fetched.texto).info is not None


def test_a_second_run_reuses_the_folder_and_refresh_downloads_again(tmp_path: Path) -> None:
    with serve(_law()) as server:
        fetch_law(FIXTURE_ID, tmp_path, options=_options(server.base_url))
        again = fetch_law(FIXTURE_ID, tmp_path, options=_options(server.base_url))
        assert again.downloaded == ()
        assert len(server.requests) == 2
        refreshed = fetch_law(FIXTURE_ID, tmp_path, options=_options(server.base_url, refresh=True))
        assert refreshed.downloaded == ("texto", "metadatos")
        assert len(server.requests) == 4


def test_a_cut_file_in_the_folder_is_downloaded_again(tmp_path: Path) -> None:
    (tmp_path / f"{FIXTURE_ID}.xml").write_bytes(TEXTO[:300])
    (tmp_path / f"{FIXTURE_ID}.metadatos.xml").write_bytes(METADATOS)
    with serve(_law()) as server:
        fetched = fetch_law(FIXTURE_ID, tmp_path, options=_options(server.base_url))
    assert fetched.downloaded == ("texto",)
    assert fetched.texto.read_bytes() == TEXTO


def test_5xx_and_429_are_retried_with_exponential_backoff(tmp_path: Path) -> None:
    sleeps = Sleeps()
    answers = [Answer(503), Answer(502), Answer(429), Answer(body=TEXTO)]
    with serve(_law(texto=answers)) as server:
        fetched = fetch_law(FIXTURE_ID, tmp_path, options=_options(server.base_url), sleep=sleeps)
    assert fetched.texto.read_bytes() == TEXTO
    assert sleeps == [1.0, 2.0, 4.0]


def test_retry_after_is_honoured_and_each_retry_reported(tmp_path: Path) -> None:
    sleeps, retries = Sleeps(), []
    answers = [Answer(429, headers=(("Retry-After", "7"),)), Answer(body=TEXTO)]
    with serve(_law(texto=answers)) as server:
        fetch_law(
            FIXTURE_ID,
            tmp_path,
            options=_options(server.base_url),
            sleep=sleeps,
            on_retry=retries.append,
        )
    assert sleeps == [7.0]
    assert [(r.law_id, r.answer, r.attempt, r.wait) for r in retries] == [
        (FIXTURE_ID, "texto", 1, 7.0)
    ]
    assert retries[0].reason.startswith("429")


def test_a_retry_after_beyond_the_longest_wait_gives_up_at_once(tmp_path: Path) -> None:
    sleeps = Sleeps()
    answers = [Answer(503, headers=(("Retry-After", "3600"),))]
    with serve(_law(texto=answers)) as server, pytest.raises(BoeUnreachableError) as caught:
        fetch_law(FIXTURE_ID, tmp_path, options=_options(server.base_url), sleep=sleeps)
    assert sleeps == []
    assert caught.value.status == 503


def test_retries_spent_name_the_law_and_the_last_status(tmp_path: Path) -> None:
    sleeps = Sleeps()
    with serve(_law(texto=[Answer(500)])) as server, pytest.raises(BoeUnreachableError) as caught:
        fetch_law(FIXTURE_ID, tmp_path, options=_options(server.base_url, retries=2), sleep=sleeps)
    error = caught.value
    assert (error.law_id, error.status) == (FIXTURE_ID, 500)
    assert error.url == f"{server.base_url}{FIXTURE_ID}/texto"
    assert FIXTURE_ID in str(error)
    assert len(server.requests) == 3
    assert sleeps == [1.0, 2.0]
    assert not (tmp_path / f"{FIXTURE_ID}.xml").exists()


@pytest.mark.parametrize(
    "answer", [Answer(404, b"Not Found"), Answer(200, NOT_FOUND)], ids=["http", "body"]
)
def test_a_law_the_boe_does_not_have_is_not_found(tmp_path: Path, answer: Answer) -> None:
    with serve(_law(texto=[answer])) as server, pytest.raises(LawNotFoundError) as caught:
        fetch_law(FIXTURE_ID, tmp_path, options=_options(server.base_url))
    assert caught.value.law_id == FIXTURE_ID
    assert caught.value.status == 404
    assert f"no consolidated law {FIXTURE_ID}" in str(caught.value)
    assert len(server.requests) == 1


def test_an_answer_that_is_not_the_boes_xml_is_refused(tmp_path: Path) -> None:
    page = Answer(200, b"<!DOCTYPE html><html><body><p>Mantenimiento<br></body></html>")
    with serve(_law(texto=[page])) as server, pytest.raises(NotBoeResponseError) as caught:
        fetch_law(FIXTURE_ID, tmp_path, options=_options(server.base_url))
    assert caught.value.law_id == FIXTURE_ID
    assert "<!DOCTYPE html>" in str(caught.value)
    assert not (tmp_path / f"{FIXTURE_ID}.xml").exists()


def test_another_http_error_is_not_retried(tmp_path: Path) -> None:
    sleeps = Sleeps()
    with serve(_law(texto=[Answer(400)])) as server, pytest.raises(LawFetchError) as caught:
        fetch_law(FIXTURE_ID, tmp_path, options=_options(server.base_url), sleep=sleeps)
    assert type(caught.value) is LawFetchError
    assert caught.value.status == 400
    assert sleeps == []


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_no_network_is_retried_then_unreachable(tmp_path: Path) -> None:
    sleeps = Sleeps()
    base_url = f"http://127.0.0.1:{_closed_port()}/"
    with pytest.raises(BoeUnreachableError) as caught:
        fetch_law(FIXTURE_ID, tmp_path, options=_options(base_url, retries=3), sleep=sleeps)
    assert sleeps == [1.0, 2.0, 4.0]
    assert caught.value.status is None
    assert "no answer" in str(caught.value)


def test_a_timeout_is_retried(tmp_path: Path) -> None:
    sleeps = Sleeps()
    answers = [Answer(body=TEXTO, delay=1.0), Answer(body=TEXTO)]
    with serve(_law(texto=answers)) as server:
        options = FetchOptions(base_url=server.base_url, timeout=0.2)
        fetched = fetch_law(FIXTURE_ID, tmp_path, options=options, sleep=sleeps)
    assert fetched.texto.read_bytes() == TEXTO
    assert sleeps == [1.0]


@pytest.mark.parametrize("law_id", ["BOE-A-2004", "../etc/passwd", "boe a 2004 1", ""])
def test_an_identifier_that_is_no_boe_id_is_refused(tmp_path: Path, law_id: str) -> None:
    with pytest.raises(ConfigurationError, match="not a BOE identifier"):
        fetch_law(law_id, tmp_path)


def test_a_folder_that_cannot_be_made_is_an_output_error(tmp_path: Path) -> None:
    blocker = tmp_path / "fichero"
    blocker.write_text("no soy una carpeta", encoding="utf-8")
    with pytest.raises(OutputError):
        fetch_law(FIXTURE_ID, blocker / "leyes")
