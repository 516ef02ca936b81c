"""Documents on disk as extracted: the former home of ``langchain_asesoria.reading.files``.

Kept so that ``langchain_asesoria.files.read_text`` and ``read_pages`` keep working;
new code imports them from ``langchain_asesoria.reading``.
"""

from langchain_asesoria.reading.files import iter_pages, page_count, read_pages, read_text
from langchain_asesoria.reading.kinds import FILE_KINDS, FileKind, file_kind

__all__ = [
    "FILE_KINDS",
    "FileKind",
    "file_kind",
    "iter_pages",
    "page_count",
    "read_pages",
    "read_text",
]
