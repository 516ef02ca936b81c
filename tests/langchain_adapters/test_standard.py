"""LangChain's own standard tests for ``AsesoriaEmbeddings`` (``langchain-tests``).

Every LangChain integration runs these suites; they are run here unchanged, with the
offline ``RecordingEmbeddings`` as the wrapped model: once for a model without
prefixes, once for an E5-like model (``passage: ``/``query: ``) given texts prepared
elsewhere (``require_document_prefix=False``, since the suites embed bare words).
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from langchain_asesoria import AsesoriaEmbeddings
from langchain_asesoria.testing import ByteTokenization, RecordingEmbeddings

pytest.importorskip("langchain_tests", reason="the dev extra: pip install -e '.[dev]'")

from langchain_tests.integration_tests import EmbeddingsIntegrationTests
from langchain_tests.unit_tests import EmbeddingsUnitTests

PLAIN: dict[str, Any] = {
    "embeddings": RecordingEmbeddings(),
    "tokenization": ByteTokenization(512),
}
E5_LIKE: dict[str, Any] = {
    "embeddings": RecordingEmbeddings(),
    "tokenization": ByteTokenization(512, document_prefix="passage: ", query_prefix="query: "),
    "require_document_prefix": False,
}


class _Asesoria:
    """The class under test; each suite below says with which parameters."""

    params: ClassVar[dict[str, Any]]

    @property
    def embeddings_class(self) -> type[AsesoriaEmbeddings]:
        return AsesoriaEmbeddings

    @property
    def embedding_model_params(self) -> dict[str, Any]:
        return self.params


class TestAsesoriaEmbeddingsUnit(_Asesoria, EmbeddingsUnitTests):
    params = PLAIN


class TestAsesoriaEmbeddingsIntegration(_Asesoria, EmbeddingsIntegrationTests):
    params = PLAIN


class TestE5LikeAsesoriaEmbeddingsIntegration(_Asesoria, EmbeddingsIntegrationTests):
    params = E5_LIKE
