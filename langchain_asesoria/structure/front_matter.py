"""YAML front matter: the metadata block a Markdown file may open with, never chunked.

More: ``docs/design/structure.md``.
"""

from __future__ import annotations

import datetime
import math
import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Final, TypeAlias

if TYPE_CHECKING:
    import yaml

#: The prefix of a front matter field's metadata key: ``status`` -> ``fm_status``.
FRONT_MATTER_PREFIX: Final = "fm_"

#: A metadata value every vector store takes.
FrontMatterValue: TypeAlias = str | int | float | bool

_OPENING: Final = re.compile(r"---[ \t]*(?:\r\n|\r|\n)")
_LINE: Final = re.compile(r"([^\r\n]*)(\r\n|\r|\n|\Z)")
_CLOSINGS: Final = frozenset({"---", "..."})


@cache
def _loader() -> type[yaml.SafeLoader]:
    """YAML's safe loader, the C one when PyYAML has it; PyYAML is imported with the first
    text that opens like front matter (about 40 ms of every import otherwise)."""
    import yaml

    loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return loader


def _is_mapping(block: str) -> bool:
    """Whether ``block`` parses as one YAML mapping (composed, never constructed)."""
    import yaml

    try:
        node = yaml.compose(block, Loader=_loader())
    except yaml.YAMLError:
        return False
    return isinstance(node, yaml.MappingNode)


def _block(text: str) -> tuple[int, int, int] | None:
    """Where the front matter's YAML starts and ends, and where the block ends (after
    its closing ``---``/``...``); ``None`` without front matter."""
    opening = _OPENING.match(text)
    if opening is None:
        return None
    position = opening.end()
    while position < len(text):
        line = _LINE.match(text, position)
        assert line is not None  # the pattern matches the empty string
        if line.group(1).rstrip(" \t") in _CLOSINGS:
            if _is_mapping(text[opening.end() : line.start()]):
                return opening.end(), line.start(), line.end(1)
            return None
        position = line.end()
    return None


def front_matter_end(text: str) -> int:
    """The end of ``text``'s front matter (after its closing ``---``/``...``), or 0.

    0 means that ``text`` has no front matter: everything is content.
    """
    block = _block(text)
    return 0 if block is None else block[2]


@dataclass(frozen=True, slots=True)
class FrontMatterFields:
    """Front matter as chunk metadata.

    Attributes:
        fields: ``(FRONT_MATTER_PREFIX + key, value)`` of each scalar entry, in the
            block's order; every value a str, int, finite float or bool.
        skipped: The keys left out (a list, a mapping, a null, a non-finite float...).
    """

    fields: tuple[tuple[str, FrontMatterValue], ...] = ()
    skipped: tuple[str, ...] = ()


def safe_value(value: object) -> FrontMatterValue | None:
    """A vector-store-safe value, or ``None`` for one to leave out."""
    if isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    return None


def front_matter_entries(text: str) -> dict[Any, Any]:
    """The front matter's mapping (empty without one, or when it cannot be built)."""
    block = _block(text)
    if block is None:
        return {}
    import yaml

    try:
        data = yaml.load(text[block[0] : block[1]], Loader=_loader())  # the safe loader
    except yaml.YAMLError:  # composes, yet cannot be built (an unknown tag)
        return {}
    return data if isinstance(data, dict) else {}


def front_matter_fields(text: str) -> FrontMatterFields:
    """The scalar entries of ``text``'s front matter as metadata (module docstring).

    A text without front matter gives no fields; a key given twice keeps its last value,
    as YAML's safe loader does.
    """
    fields: list[tuple[str, FrontMatterValue]] = []
    skipped: list[str] = []
    for key, value in front_matter_entries(text).items():
        name = str(key).strip()
        safe = safe_value(value)
        if safe is None or not name:
            skipped.append(name)
        else:
            fields.append((FRONT_MATTER_PREFIX + name, safe))
    return FrontMatterFields(tuple(fields), tuple(skipped))


def blank_front_matter(text: str) -> str:
    """``text`` with its front matter (if any) turned into spaces, line breaks kept.

    Invariant: ``len(blank_front_matter(text)) == len(text)``, and every character
    after the front matter is unchanged, so offsets and line numbers stay the text's.
    """
    end = front_matter_end(text)
    if end == 0:
        return text
    return re.sub(r"[^\r\n]", " ", text[:end]) + text[end:]
