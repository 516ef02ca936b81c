"""A law's provenance on its chunks, however the law comes: the keys a BOE law's XML
gives (``boe_xml.metadata_fields``) read from a Markdown law's front matter (as
legalize-es writes it), and a BOE consolidated page's blocks as its sections' block id and
link. Pure: a text or a document in, fields out.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace
from typing import Final

from langchain_asesoria.boe_xml.metadata_fields import block_url
from langchain_asesoria.reading.document import DocumentPages
from langchain_asesoria.records import (
    BLOCK_ID,
    BOE_ID,
    ELI,
    LAST_UPDATED,
    NORM_ID,
    STATUS,
    URL,
)
from langchain_asesoria.structure.front_matter import (
    FrontMatterValue,
    front_matter_entries,
    safe_value,
)

#: A law's front matter (legalize-es writes every BOE law so) -> the metadata every chunk
#: of the law carries, the keys a BOE law's XML gives (``boe_xml.metadata_fields``).
LAW_KEYS: Final = (
    ("identifier", NORM_ID),
    ("status", STATUS),
    ("last_updated", LAST_UPDATED),
    ("source", URL),
)

#: An ELI's path on the BOE's site ("https://www.boe.es/eli/es/l/1992/12/28/37").
_ELI: Final = re.compile(r"https?://www\.boe\.es/eli/\S+")


def front_matter_law_fields(text: str) -> tuple[tuple[str, FrontMatterValue], ...]:
    """A law's provenance from ``text``'s front matter, when its ``identifier`` is a BOE
    identifier: ``norm_id``, ``status`` (as written: ``in_force``, ``repealed``,
    ``expired``, ``annulled``), ``last_updated`` (ISO), ``url`` (its ``source``) and
    ``eli`` (the same, when it is an ELI); none otherwise."""
    entries = front_matter_entries(text)
    identifier = entries.get("identifier")
    if not isinstance(identifier, str) or not BOE_ID.fullmatch(identifier.strip()):
        return ()
    found = [(key, safe_value(entries.get(name))) for name, key in LAW_KEYS]
    fields = [(key, value.strip() if isinstance(value, str) else value) for key, value in found]
    source = entries.get("source")
    if isinstance(source, str) and _ELI.fullmatch(source.strip()):
        fields.append((ELI, source.strip()))
    return tuple((key, value) for key, value in fields if value not in (None, ""))


def with_block_fields(document: DocumentPages) -> DocumentPages:
    """A BOE consolidated page's sections with their block's id and link, as a law's XML
    gives them (``boe_xml.metadata_fields``): the block a section's titles end in (an
    article's, not the bare TÍTULO's it carries), else the first to start inside it (the
    law's title, then its preamble). Needs the page's blocks and law (``ReadReport``)."""
    law_id = dict(document.report.fields).get(NORM_ID)
    blocks = document.report.blocks
    if not isinstance(law_id, str) or not blocks or not document.sections:
        return document
    joined = document.text
    where = dict(zip(joined.page_numbers, joined.page_starts, strict=True))
    positions = [where[page] + offset for page, offset, _ in blocks]
    sections = []
    for section in document.sections:
        position = section.title_end if section.title_end is not None else section.start
        index = bisect_right(positions, position) - 1
        if index < 0 and positions[0] < section.end:
            index = 0
        if index < 0:
            sections.append(section)
            continue
        block = blocks[index][2]
        own = ((BLOCK_ID, block), (URL, block_url(law_id, block)))
        sections.append(replace(section, fields=(*section.fields, *own)))
    return replace(document, sections=tuple(sections))
