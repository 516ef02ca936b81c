"""The chunking engine: pure functions over immutable values; no LangChain inside."""

from langchain_asesoria.engine.chunker import check_budget, chunk_document, iter_chunks
from langchain_asesoria.engine.pages import JoinedText, join_pages
from langchain_asesoria.engine.sections import detect_markdown_sections

__all__ = [
    "JoinedText",
    "check_budget",
    "chunk_document",
    "detect_markdown_sections",
    "iter_chunks",
    "join_pages",
]
