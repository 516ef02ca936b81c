"""The chunking engine: pure functions over immutable values; no LangChain, no threads.

More: ``docs/design/engine.md``.
"""

from langchain_asesoria.engine._context import section_context
from langchain_asesoria.engine._cuts import is_safe_cut
from langchain_asesoria.engine._document import (
    Pages,
    check_budget,
    check_inputs,
    chunks,
    content_segments,
)
from langchain_asesoria.engine._estimate import TokenIndex, offsets_typecode
from langchain_asesoria.engine._protocols import (
    Estimator,
    ModelInput,
    TokenCounter,
    Tokenization,
    WordEstimator,
)
from langchain_asesoria.engine._segments import titles_to_what_follows
from langchain_asesoria.pages import JoinedText, join_pages

__all__ = [
    "Estimator",
    "JoinedText",
    "ModelInput",
    "Pages",
    "TokenCounter",
    "TokenIndex",
    "Tokenization",
    "WordEstimator",
    "check_budget",
    "check_inputs",
    "chunks",
    "content_segments",
    "is_safe_cut",
    "join_pages",
    "offsets_typecode",
    "section_context",
    "titles_to_what_follows",
]
