"""A model name only the Hub has fails at once offline, and loads as before otherwise."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from langchain_asesoria import TokenizerLoadError, load_tokenization
from langchain_asesoria.settings import DEFAULT_EMBEDDING_MODEL, OFFLINE_EMBEDDING_MODEL, Settings
from langchain_asesoria.tokenization._hub import check_model_available, hub_unreachable

UNKNOWN = "organizacion-inexistente/modelo-que-no-existe"


@pytest.fixture
def no_offline_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither offline variable, nor a proxy: reachability is probed for real."""
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_ENDPOINT"):
        monkeypatch.delenv(name, raising=False)
    for name in ("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def closed_port() -> int:
    """A local port nobody listens on: connecting is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def listening_port() -> Iterator[int]:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield int(server.getsockname()[1])


@pytest.mark.parametrize("variable", ["HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"])
@pytest.mark.parametrize("value", ["1", "true", "YES", "on"])
def test_an_offline_variable_makes_the_hub_unreachable(
    no_offline_flag: None, monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    assert hub_unreachable() == f"{variable} is set"


def test_a_hub_that_refuses_connections_is_unreachable(
    no_offline_flag: None, monkeypatch: pytest.MonkeyPatch, closed_port: int
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{closed_port}")
    reason = hub_unreachable()
    assert reason is not None
    assert reason.startswith(f"127.0.0.1:{closed_port} cannot be reached")


def test_a_listening_hub_is_reachable(
    no_offline_flag: None, monkeypatch: pytest.MonkeyPatch, listening_port: int
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{listening_port}")
    assert hub_unreachable() is None


def test_an_unreachable_hub_fails_at_once_without_the_offline_variable(
    no_offline_flag: None, monkeypatch: pytest.MonkeyPatch, closed_port: int, no_waiting: None
) -> None:
    """The case that cost 24 s of Hub retries: no HF_HUB_OFFLINE, no connection. At once:
    no retry waits (``no_waiting``)."""
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{closed_port}")
    with pytest.raises(TokenizerLoadError) as caught:
        load_tokenization(Settings(embedding_model=UNKNOWN))
    message = str(caught.value)
    assert repr(UNKNOWN) in message
    assert "cannot be reached" in message
    assert "Offline, set EMBEDDING_MODEL" in message
    assert OFFLINE_EMBEDDING_MODEL in message


def test_the_default_model_offline_fails_at_once_naming_the_way_out(
    monkeypatch: pytest.MonkeyPatch, clean_settings_env: None, no_waiting: None
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(TokenizerLoadError, match="HF_HUB_OFFLINE is set") as caught:
        load_tokenization()
    assert repr(DEFAULT_EMBEDDING_MODEL) in str(caught.value)


@pytest.mark.parametrize("kind", ["folder", "tokenizer.json"])
def test_local_paths_never_need_the_hub(
    monkeypatch: pytest.MonkeyPatch, minilm_folder: Path, kind: str
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    path = minilm_folder if kind == "folder" else minilm_folder / "tokenizer.json"
    check_model_available(str(path))


@pytest.mark.parametrize("name", ["cl100k_base", "text-embedding-3-small"])
def test_a_name_tiktoken_loads_never_needs_the_hub(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    check_model_available(name)
    with pytest.raises(TokenizerLoadError, match=r"Offline, set --parent-model to "):
        check_model_available("no/such-model-here", setting="--parent-model")


def test_a_name_an_installed_package_ships_never_needs_the_hub(
    monkeypatch: pytest.MonkeyPatch, minilm_folder: Path
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    check_model_available(OFFLINE_EMBEDDING_MODEL)
    assert load_tokenization(model=OFFLINE_EMBEDDING_MODEL).max_input_tokens == 256


def test_a_name_in_the_hub_cache_loads_offline(minilm_folder: Path, tmp_path: Path) -> None:
    """A cached name passes the check and loads from the cache, in a fresh process (the
    Hub client reads its cache folder when imported)."""
    snapshot = tmp_path / "hub" / "models--intfloat--multilingual-e5-base" / "snapshots" / "abc"
    snapshot.mkdir(parents=True)
    shutil.copy(minilm_folder / "tokenizer.json", snapshot / "tokenizer.json")
    refs = snapshot.parent.parent / "refs"
    refs.mkdir()
    (refs / "main").write_text("abc", encoding="utf-8")
    code = (
        "from langchain_asesoria import load_tokenization; "
        "print(load_tokenization(model='intfloat/multilingual-e5-base').max_input_tokens)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={"HF_HOME": str(tmp_path), "HF_HUB_OFFLINE": "1", "PATH": ""},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "512"  # the E5 profile of a name found in the cache
