"""A model's input format as data (``ModelProfile``), and the one builder of its input."""

from __future__ import annotations

from dataclasses import dataclass

from langchain_asesoria.errors import ConfigurationError


@dataclass(frozen=True, slots=True)
class ModelProfile:
    """How a model wants its input: prefixes, real input limit and the tokens a provider
    adds on its side (data, not code).

    Invariant: a tokenization counts every document input as the model reads it, so
    ``count(prepare(content, context))`` includes ``reserved_tokens`` and a chunk's
    ``token_count <= max_tokens <= max_input_tokens`` holds for what the model receives.

    Attributes:
        document_prefix: Added before every passage, for example E5's ``"passage: "``.
        query_prefix: Added before every query, for example E5's ``"query: "``.
        max_input_tokens: The model's real input limit, or ``None`` when unknown.
        context_separator: Between the section context and the content.
        reserved_tokens: Tokens the embedding provider adds to every document it is sent,
            out of our sight: a task instruction chosen by an ``input_type`` or ``task``
            parameter, prepended server-side. Counted in every document input's count
            (not in content counts, nor in ``overlap_tokens``); 0 when the model reads
            exactly ``prepare``'s text.

    Raises:
        ConfigurationError: ``reserved_tokens`` below 0.
    """

    document_prefix: str = ""
    query_prefix: str = ""
    max_input_tokens: int | None = None
    context_separator: str = "\n\n"
    reserved_tokens: int = 0

    def __post_init__(self) -> None:
        if self.reserved_tokens < 0:
            raise ConfigurationError(
                f"reserved_tokens must be at least 0, got {self.reserved_tokens}: the "
                "tokens an embedding provider adds to every document on its side.",
                expected="at least 0",
            )


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
