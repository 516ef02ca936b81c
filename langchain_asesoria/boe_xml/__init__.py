"""BOE consolidated laws from the BOE's own XML: every wording of every block, by day.

Read a law (``read_law``, ``read_law_file``), then take its text as it stood on a day
(``law_as_of``) or with every wording (``law_all_versions``): one ``LawText``, whose
sections carry each wording's metadata (``block_id``, ``valid_from``, ``url``...), ready
for the chunker. ``fetch_law`` downloads a law's answers from the BOE's open-data API.
The map of the package is its ``README.md``.
"""

from langchain_asesoria.boe_xml.fetch import FetchedLaw, FetchOptions, fetch_law
from langchain_asesoria.boe_xml.files import law_id_of, metadata_path, read_law_file
from langchain_asesoria.boe_xml.law_text import (
    ExpiredNote,
    LawReport,
    LawSection,
    LawText,
    law_all_versions,
    law_as_of,
)
from langchain_asesoria.boe_xml.model import (
    Block,
    Law,
    LawInfo,
    Note,
    Paragraph,
    Table,
    Version,
)
from langchain_asesoria.boe_xml.parse import read_law
from langchain_asesoria.boe_xml.select import LeftOut
from langchain_asesoria.errors import (
    BlockWithoutVersionsError,
    BoeUnreachableError,
    DamagedXmlError,
    LawDateError,
    LawFetchError,
    LawNotFoundError,
    LawXmlError,
    NotBoeResponseError,
)

__all__ = [
    "Block",
    "BlockWithoutVersionsError",
    "BoeUnreachableError",
    "DamagedXmlError",
    "ExpiredNote",
    "FetchOptions",
    "FetchedLaw",
    "Law",
    "LawDateError",
    "LawFetchError",
    "LawInfo",
    "LawNotFoundError",
    "LawReport",
    "LawSection",
    "LawText",
    "LawXmlError",
    "LeftOut",
    "NotBoeResponseError",
    "Note",
    "Paragraph",
    "Table",
    "Version",
    "fetch_law",
    "law_all_versions",
    "law_as_of",
    "law_id_of",
    "metadata_path",
    "read_law",
    "read_law_file",
]
