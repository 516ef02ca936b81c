"""The chunking engine: pure functions over immutable values; no LangChain, no threads.

It chunks what it is given (pages, sections, leads) and finds no structure itself:
pages -> joined text -> sections -> plans -> counts -> chunks. See ``README.md`` in this
folder for the module map. Public names::

    chunk_document, iter_chunks     one document's chunks (a list, or one at a time)
    join_pages, JoinedText          the joined text every offset refers to
    content_segments                the stretches chunked on their own
    Tokenization                    what the engine needs from a tokenizer: a
    TokenCounter, ModelInput,       TokenCounter (exact counts), a ModelInput (prepare,
    Estimator, TokenIndex           limit) and an Estimator (a TokenIndex of the text)
"""

from langchain_asesoria.engine._context import section_context
from langchain_asesoria.engine._cuts import is_safe_cut
from langchain_asesoria.engine._document import (
    Pages,
    check_budget,
    check_inputs,
    chunk_document,
    content_segments,
    iter_chunks,
)
from langchain_asesoria.engine._estimate import TokenIndex, offsets_typecode
from langchain_asesoria.engine._protocols import (
    Estimator,
    ModelInput,
    TokenCounter,
    Tokenization,
)
from langchain_asesoria.pages import JoinedText, join_pages

__all__ = [
    "Estimator",
    "JoinedText",
    "ModelInput",
    "Pages",
    "TokenCounter",
    "TokenIndex",
    "Tokenization",
    "check_budget",
    "check_inputs",
    "chunk_document",
    "content_segments",
    "is_safe_cut",
    "iter_chunks",
    "join_pages",
    "offsets_typecode",
    "section_context",
]
