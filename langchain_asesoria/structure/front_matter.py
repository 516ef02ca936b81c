"""YAML front matter: the metadata block a Markdown file may open with, never chunked.

More: ``docs/design/structure.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from langchain_asesoria.store_values import LeftOut, store_value, stored_or_reason

if TYPE_CHECKING:
    import yaml

#: The prefix of a front matter field's metadata key: ``status`` -> ``fm_status``.
FRONT_MATTER_PREFIX: Final = "fm_"

#: A metadata value every vector store takes.
FrontMatterValue: TypeAlias = str | int | float | bool

_OPENING: Final = re.compile(r"---[ \t]*(?:\r\n|\r|\n)")
_LINE: Final = re.compile(r"([^\r\n]*)(\r\n|\r|\n|\Z)")
_CLOSINGS: Final = frozenset({"---", "..."})

#: Why an entry without a name (``"": 1``, ``" ": 2``) is left out.
_EMPTY_KEY: Final = LeftOut("an empty key")


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
        skipped: ``(FRONT_MATTER_PREFIX + key, why)`` of each entry left out (``"a
            list"``, ``"a dict"``, ``"None"``, ``"nan, not a finite number"``, ``"an
            empty key"``: ``store_values.stored_or_reason``), in the block's order.
    """

    fields: tuple[tuple[str, FrontMatterValue], ...] = ()
    skipped: tuple[tuple[str, str], ...] = ()


def safe_value(value: object) -> FrontMatterValue | None:
    """A vector-store-safe value, or ``None`` for one to leave out: the one rule of every
    metadata value (``store_values.store_value``: a date or time as ISO 8601 text)."""
    return store_value(value)


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
    skipped: list[tuple[str, str]] = []
    for key, value in front_matter_entries(text).items():
        name = FRONT_MATTER_PREFIX + str(key).strip()
        stored = stored_or_reason(value) if name != FRONT_MATTER_PREFIX else _EMPTY_KEY
        if isinstance(stored, LeftOut):
            skipped.append((name, str(stored)))
        else:
            fields.append((name, stored))
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
