"""YAML front matter: only a leading block that parses as a YAML mapping, blanked in place."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from langchain_asesoria.structure.front_matter import blank_front_matter, front_matter_end

FALSE_FRONT_MATTER = "---\n# Capítulo 1\n\nTexto que no es YAML.\n\n---\n\nMás texto.\n"


@pytest.mark.parametrize(
    ("text", "end"),
    [
        pytest.param("---\ntitle: Ley 19/1991\n---\n# Ley\n", 26, id="mapping"),
        pytest.param("---\ntitle: Ley\ntax: IP\n...\nTexto.", 26, id="closed-by-dots"),
        pytest.param("---  \ntitle: Ley\n---\t\nTexto.", 21, id="trailing-blanks"),
        pytest.param("---\r\ntitle: Ley\r\n---\r\nTexto.", 20, id="crlf"),
        pytest.param("---\rtitle: Ley\r---\rTexto.", 18, id="lone-cr"),
        pytest.param("---\ndate: 2023-02-30\n---\nTexto.", 24, id="impossible-date-still-yaml"),
        pytest.param(FALSE_FRONT_MATTER, 0, id="heading-and-prose-between-breaks"),
        pytest.param("---\nTexto.\n\n...\n\nMás texto.", 0, id="thematic-break-then-dots"),
        pytest.param("---\n- uno\n- dos\n---\nTexto.", 0, id="a-yaml-list"),
        pytest.param("---\ntitle: [sin cerrar\n---\nTexto.", 0, id="invalid-yaml"),
        pytest.param("---\n---\nTexto.", 0, id="empty-block"),
        pytest.param("---\ntitle: Ley\n", 0, id="never-closed"),
        pytest.param("Texto.\n---\ntitle: Ley\n---\n", 0, id="not-at-the-start"),
        pytest.param("----\ntitle: Ley\n----\n", 0, id="four-dashes"),
        pytest.param("\ufeff---\ntitle: Ley\n---\n", 0, id="a-bom-is-text-here"),
    ],
)
def test_front_matter_end(text: str, end: int) -> None:
    assert front_matter_end(text) == end
    if end:  # the block ends with its closing line, line break excluded
        assert text[:end].rstrip(" \t").endswith(("\n---", "\r---", "\n...", "\r..."))


def test_a_mapping_is_blanked_and_nothing_else_moves() -> None:
    text = "---\r\ntitle: Ley\r\ntax: IP\r\n---\r\n# Ley\r\n\r\nTexto."
    blanked = blank_front_matter(text)
    assert blanked == " " * 3 + "\r\n" + " " * 10 + "\r\n" + " " * 7 + "\r\n" + " " * 3 + text[29:]
    assert blanked[29:] == "\r\n# Ley\r\n\r\nTexto."


def test_what_is_not_front_matter_is_returned_unchanged() -> None:
    assert blank_front_matter(FALSE_FRONT_MATTER) is FALSE_FRONT_MATTER


_KEYS = st.text(alphabet="abcdefghij_", min_size=1, max_size=8)
_VALUES = st.text(alphabet="abcdefghij 0123456789áé", max_size=20).map(str.strip)
_MAPPINGS = st.dictionaries(_KEYS, _VALUES, min_size=1, max_size=5).map(
    lambda mapping: "".join(f"{key}: '{value}'\n" for key, value in mapping.items())
)
_BODIES = st.text(max_size=200)


@given(block=_MAPPINGS, body=_BODIES, newline=st.sampled_from(["\n", "\r\n", "\r"]))
def test_property_blanking_keeps_length_line_breaks_and_the_body(
    block: str, body: str, newline: str
) -> None:
    front = "---\n" + block + "---"
    text = (front + "\n").replace("\n", newline) + body
    blanked = blank_front_matter(text)
    assert len(blanked) == len(text)
    end = front_matter_end(text)
    assert end == len(front.replace("\n", newline))
    assert blanked[end:] == text[end:]
    assert re.sub(r"[^\r\n]", "", blanked[:end]) == re.sub(r"[^\r\n]", "", text[:end])
    assert not blanked[:end].strip()


@given(text=st.text(max_size=300))
def test_property_any_text_keeps_its_length_and_its_tail(text: str) -> None:
    blanked = blank_front_matter(text)
    end = front_matter_end(text)
    assert len(blanked) == len(text)
    assert blanked[end:] == text[end:]
    assert end == 0 or text.startswith("---")
