"""YAML front matter: the metadata block a Markdown file may open with, never chunked.

A Markdown text opens with front matter when, and only when, all of these hold:

- its first line is ``---`` (trailing spaces or tabs allowed);
- a later line is ``---`` or ``...``: the first such line closes the block;
- the lines between parse, with a YAML parser (PyYAML's safe loader), as one YAML
  *mapping* (``title: Ley 19/1991``).

Anything else is content and is chunked like the rest of the document: a thematic
break (``---``) followed by prose, a block that is not valid YAML, or valid YAML that is
not a mapping (a plain sentence parses as a YAML string). Every entry point applies
this one rule to Markdown: ``asesoria-split`` and ``files.read_pages`` for ``.md`` files,
``AsesoriaDocumentTransformer`` for Markdown sources, and ``ray.chunk_dataset``.

Blanking keeps positions: each character of the block becomes a space and line breaks
stay, so offsets into the blanked text are offsets into the original text. ``\\n``,
``\\r\\n`` and a lone ``\\r`` all end a line.
"""

from __future__ import annotations

import re
from typing import Final

import yaml

__all__ = ["blank_front_matter", "front_matter_end"]

_OPENING: Final = re.compile(r"---[ \t]*(?:\r\n|\r|\n)")
_LINE: Final = re.compile(r"([^\r\n]*)(\r\n|\r|\n|\Z)")
_CLOSINGS: Final = frozenset({"---", "..."})
_LOADER: Final = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _is_mapping(block: str) -> bool:
    """Whether ``block`` parses as one YAML mapping (composed, never constructed)."""
    try:
        node = yaml.compose(block, Loader=_LOADER)
    except yaml.YAMLError:
        return False
    return isinstance(node, yaml.MappingNode)


def front_matter_end(text: str) -> int:
    """The end of ``text``'s front matter (after its closing ``---``/``...``), or 0.

    0 means that ``text`` has no front matter: everything is content.
    """
    opening = _OPENING.match(text)
    if opening is None:
        return 0
    position = opening.end()
    while position < len(text):
        line = _LINE.match(text, position)
        assert line is not None  # the pattern matches the empty string
        if line.group(1).rstrip(" \t") in _CLOSINGS:
            return line.end(1) if _is_mapping(text[opening.end() : line.start()]) else 0
        position = line.end()
    return 0


def blank_front_matter(text: str) -> str:
    """``text`` with its front matter (if any) turned into spaces, line breaks kept.

    Invariant: ``len(blank_front_matter(text)) == len(text)``, and every character
    after the front matter is unchanged, so offsets and line numbers stay the text's.
    """
    end = front_matter_end(text)
    if end == 0:
        return text
    return re.sub(r"[^\r\n]", " ", text[:end]) + text[end:]
