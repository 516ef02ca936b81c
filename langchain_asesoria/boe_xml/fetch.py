"""A law's two answers downloaded from the BOE's open-data API, once.

``fetch_law("BOE-A-1992-28740", folder)`` saves ``/texto`` as ``ID.xml`` and
``/metadatos`` as ``ID.metadatos.xml``, asking with ``Accept: application/xml`` (the API
answers JSON without it). A file already there that reads as the BOE's answer is reused
(the folder is the cache); a new one is written whole or not at all. A 429 or 5xx
answer, a timeout or a dropped connection is retried with exponential backoff (the
answer's ``Retry-After`` when it gives one); a 404 is ``LawNotFoundError``, an answer
that is not the BOE's XML ``NotBoeResponseError``, no answer after every retry
``BoeUnreachableError``: all name the law. Only the standard library (``urllib``).
"""

from __future__ import annotations

import http.client
import os
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Final

from langchain_asesoria.boe_xml.files import LAW_ID, METADATA_SUFFIX
from langchain_asesoria.boe_xml.response import parse_response, response_data, response_status
from langchain_asesoria.errors import (
    BoeUnreachableError,
    ConfigurationError,
    DamagedXmlError,
    LawFetchError,
    LawNotFoundError,
    LawXmlError,
    NotBoeResponseError,
    OutputError,
)

#: The BOE's open-data API for consolidated laws; ``{id}/texto`` and ``{id}/metadatos``.
BOE_API: Final = "https://www.boe.es/datosabiertos/api/legislacion-consolidada/id/"

#: Each answer fetched: (its path under ``{id}/``, the file name after the id).
ANSWERS: Final = (("texto", ".xml"), ("metadatos", METADATA_SUFFIX))

#: HTTP statuses worth asking again: too many requests, and the server's errors.
_RETRIED: Final = frozenset({429, 500, 502, 503, 504})


@dataclass(frozen=True, slots=True)
class FetchOptions:
    """How to ask the BOE.

    Attributes:
        base_url: The API's address up to the id (a mirror's, or a local server's in
            tests); it ends with ``/``.
        timeout: Seconds to wait for each answer.
        retries: How many times a failed request is asked again.
        backoff: Seconds before the first retry; each next one waits twice as long.
        max_wait: The longest wait the fetcher accepts (a ``Retry-After`` above it
            gives up at once).
        refresh: Download again even when the files are there.
        user_agent: How the requests name themselves.
    """

    base_url: str = BOE_API
    timeout: float = 30.0
    retries: int = 4
    backoff: float = 1.0
    max_wait: float = 60.0
    refresh: bool = False
    user_agent: str = "langchain-asesoria (asesoria-fetch)"


@dataclass(frozen=True, slots=True)
class Retry:
    """A request asked again: which, why, and after how long."""

    law_id: str
    answer: str
    attempt: int
    wait: float
    reason: str


@dataclass(frozen=True, slots=True)
class FetchedLaw:
    """A law's answers on disk.

    Attributes:
        law_id: Its identifier.
        texto: Where its ``/texto`` answer is (``ID.xml``).
        metadatos: Where its ``/metadatos`` answer is (``ID.metadatos.xml``).
        downloaded: The answers downloaded now ("texto", "metadatos"); the others were
            reused from the folder.
        size: Bytes of both files.
    """

    law_id: str
    texto: Path
    metadatos: Path
    downloaded: tuple[str, ...]
    size: int


@dataclass(frozen=True, slots=True)
class _Asked:
    """One answer asked for: what errors name."""

    law_id: str
    answer: str
    url: str


def fetch_law(
    law_id: str,
    directory: str | Path,
    *,
    options: FetchOptions | None = None,
    sleep: Callable[[float], None] = time.sleep,
    on_retry: Callable[[Retry], None] | None = None,
) -> FetchedLaw:
    """Downloads the law's ``/texto`` and ``/metadatos`` into ``directory`` (created
    when missing), reusing what a previous run saved there.

    Raises:
        ConfigurationError: ``law_id`` is not a BOE identifier ("BOE-A-1992-28740").
        LawNotFoundError: the BOE has no consolidated law with that id.
        NotBoeResponseError: the answer is not the BOE's XML (a proxy's page...).
        BoeUnreachableError: no answer after every retry (network down, timeouts, 5xx).
        LawFetchError: another HTTP error (its ``status``).
        OutputError: the directory cannot be written.
    """
    options = options or FetchOptions()
    if not LAW_ID.fullmatch(law_id):
        raise ConfigurationError(
            f"{law_id!r} is not a BOE identifier: give it as the BOE writes it, BOE-A-1992-28740.",
            expected="an identifier like BOE-A-1992-28740",
        )
    folder = Path(directory)
    _make(folder)
    paths: list[Path] = []
    downloaded: list[str] = []
    for answer, suffix in ANSWERS:
        path = folder / f"{law_id}{suffix}"
        paths.append(path)
        if not options.refresh and _readable(path, answer):
            continue
        asked = _Asked(law_id, answer, f"{options.base_url}{law_id}/{answer}")
        _save(path, _download(asked, options, sleep, on_retry))
        downloaded.append(answer)
    size = sum(path.stat().st_size for path in paths)
    return FetchedLaw(law_id, paths[0], paths[1], tuple(downloaded), size)


def _make(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(
            f"cannot be created ({error.strerror or error}): choose a folder you can write.",
            source=str(folder),
        ) from error


def _readable(path: Path, answer: str) -> bool:
    """Whether a saved answer is whole and the BOE's (a cut file is downloaded again)."""
    if not path.is_file():
        return False
    try:
        response_data(path.read_bytes(), kind=answer, source=str(path))
    except (LawXmlError, OSError):
        return False
    return True


def _save(path: Path, body: bytes) -> None:
    """Writes ``body`` to ``path`` whole or not at all (a temporary file, renamed)."""
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(handle, "wb") as stream:
            stream.write(body)
        os.replace(temporary, path)
    except OSError as error:
        raise OutputError(
            f"cannot be written ({error.strerror or error}).", source=str(path)
        ) from error


def _download(
    asked: _Asked,
    options: FetchOptions,
    sleep: Callable[[float], None],
    on_retry: Callable[[Retry], None] | None,
) -> bytes:
    """The answer's body, checked to be the BOE's; retried as the module says."""
    attempt = 0
    while True:
        outcome = _request(asked, options)
        if isinstance(outcome, bytes):
            return _checked(asked, outcome)
        reason, asked_wait = outcome
        attempt += 1
        wait = options.backoff * 2 ** (attempt - 1) if asked_wait is None else asked_wait
        if attempt > options.retries or wait > options.max_wait:
            raise BoeUnreachableError(
                f"the BOE gave no {asked.answer} for {asked.law_id} ({reason}) after "
                f"{attempt} attempt(s): check the network and try again later.",
                source=asked.url,
                law_id=asked.law_id,
                url=asked.url,
                status=_status_of(reason),
            )
        if on_retry is not None:
            on_retry(Retry(asked.law_id, asked.answer, attempt, wait, reason))
        sleep(wait)


def _status_of(reason: str) -> int | None:
    head = reason.split(" ", 1)[0]
    return int(head) if head.isdigit() else None


def _request(asked: _Asked, options: FetchOptions) -> bytes | tuple[str, float | None]:
    """The body, or why to ask again (and the wait the server asks for)."""
    request = urllib.request.Request(
        asked.url, headers={"Accept": "application/xml", "User-Agent": options.user_agent}
    )
    try:
        with urllib.request.urlopen(request, timeout=options.timeout) as answer:
            body: bytes = answer.read()
            return body
    except urllib.error.HTTPError as error:
        error.close()  # its body is not read: the connection is let go now
        if error.code in _RETRIED:
            return f"{error.code} {error.reason}", _retry_after(error.headers.get("Retry-After"))
        raise _http_error(asked, error.code) from error
    except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
        reason = getattr(error, "reason", error)
        return f"no answer: {reason}", None
    except http.client.HTTPException as error:  # an answer cut short (IncompleteRead)
        return f"answer cut short: {type(error).__name__}", None


def _retry_after(value: str | None) -> float | None:
    """Seconds a ``Retry-After`` asks for (a number, or an HTTP date); ``None``: none."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - time.time(), 0.0)


def _http_error(asked: _Asked, status: int) -> LawFetchError:
    if status == 404:
        return _not_found(asked, status)
    return LawFetchError(
        f"the BOE answered {status} for the {asked.answer} of {asked.law_id}: check the "
        "identifier, or the address given as the API's.",
        source=asked.url,
        law_id=asked.law_id,
        url=asked.url,
        status=status,
    )


def _not_found(asked: _Asked, status: int | None) -> LawNotFoundError:
    return LawNotFoundError(
        f"the BOE has no consolidated law {asked.law_id}: check the identifier (the "
        "law's page on boe.es shows it; only consolidated laws have this API).",
        source=asked.url,
        law_id=asked.law_id,
        url=asked.url,
        status=status,
    )


def _checked(asked: _Asked, body: bytes) -> bytes:
    """``body`` when it is the BOE's answer with the law; the API's own 404 answer (sent
    with a 200) is ``LawNotFoundError``."""
    try:
        root = parse_response(body, kind=asked.answer, source=asked.url, law_id=asked.law_id)
    except DamagedXmlError as error:
        start = body[:60].decode("utf-8", "replace")
        raise NotBoeResponseError(
            f"the answer for the {asked.answer} of {asked.law_id} is not the BOE's XML (it "
            f"begins {start!r}): a proxy's or a portal's page? Check the address.",
            source=asked.url,
            law_id=asked.law_id,
            expected="the BOE's <response> XML",
        ) from error
    if response_status(root)[0] == "404":
        raise _not_found(asked, 404)
    response_data(body, kind=asked.answer, source=asked.url, law_id=asked.law_id)
    return body
