"""A model's input format as data (``ModelProfile``), and the one builder of its input."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ModelProfile", "ProfiledTokenization"]


@dataclass(frozen=True, slots=True)
class ModelProfile:
    """How a model wants its input: prefixes and real input limit (data, not code).

    Attributes:
        document_prefix: Added before every passage, for example E5's ``"passage: "``.
        query_prefix: Added before every query, for example E5's ``"query: "``.
        max_input_tokens: The model's real input limit, or ``None`` when unknown.
        context_separator: Between the section context and the content.
    """

    document_prefix: str = ""
    query_prefix: str = ""
    max_input_tokens: int | None = None
    context_separator: str = "\n\n"


class ProfiledTokenization:
    """``prepare``/``prepare_query`` (the engine's ``ModelInput``) from a profile."""

    __slots__ = ("_name", "_profile")

    def __init__(self, profile: ModelProfile, name: str) -> None:
        self._profile = profile
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    @property
    def profile(self) -> ModelProfile:
        return self._profile

    def prepare(self, content: str, context: str = "") -> str:
        profile = self._profile
        if context:
            return f"{profile.document_prefix}{context}{profile.context_separator}{content}"
        return f"{profile.document_prefix}{content}" if profile.document_prefix else content

    def prepare_query(self, text: str) -> str:
        prefix = self._profile.query_prefix
        # Exactly once: a query that already carries the prefix is not prefixed again.
        return text if prefix and text.startswith(prefix) else f"{prefix}{text}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self._name!r})"
