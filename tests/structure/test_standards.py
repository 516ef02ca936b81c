"""Checked against the standards, not against ourselves.

- Markdown: the heading detector finds exactly the ATX headings that ``markdown-it-py``
  (a CommonMark-compliant parser) finds, with the same level and text, and nothing
  inside a fence, on the CommonMark Spec's own examples (``tests/standards/``), on the
  real laws of ``corpus/`` and on generated documents. What the AsesorIA chunking
  specification deliberately leaves out is said here too: setext headings, and
  headings inside block quotes or list items (containers), are not sections.
- Unicode: ``is_safe_cut`` agrees with Unicode's own ``GraphemeBreakTest.txt``: no cut
  where the test file forbids one, and none refused where it allows one but on the four
  lines where the ``regex`` module itself is stricter than Unicode 17.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import PROFILE, MarkdownDocument, examples, markdown_documents

from langchain_asesoria.engine import is_safe_cut
from langchain_asesoria.structure.markdown import _headings

markdown_it = pytest.importorskip("markdown_it", reason="pip install markdown-it-py (dev extra)")

ROOT = Path(__file__).resolve().parents[2]
STANDARDS = Path(__file__).resolve().parents[1] / "standards"
COMMONMARK = json.loads((STANDARDS / "commonmark-0.31.2-blocks.json").read_text(encoding="utf-8"))
GRAPHEME_TEST = STANDARDS / "GraphemeBreakTest-17.0.0.txt"

_PARSER = markdown_it.MarkdownIt("commonmark")


def _reference_headings(text: str, *, containers: bool = False) -> list[tuple[int, str]]:
    """``(level, text)`` of the ATX headings markdown-it finds (top level only, unless
    ``containers``)."""
    tokens = _PARSER.parse(text)
    return [
        (int(token.tag[1]), tokens[index + 1].content)
        for index, token in enumerate(tokens)
        if token.type == "heading_open"
        and token.markup.startswith("#")
        and (containers or token.level == 0)
    ]


def _our_headings(text: str) -> list[tuple[int, str]]:
    return [(heading.level, heading.title) for heading in _headings(text)]


@pytest.mark.parametrize(
    "example",
    COMMONMARK["examples"],
    ids=lambda example: f"{example['example']}-{example['section'].replace(' ', '-')}",
)
def test_commonmark_examples(example: dict[str, str]) -> None:
    text = example["markdown"]
    assert _our_headings(text) == _reference_headings(text)


def test_the_examples_are_the_spec_sections_we_rely_on() -> None:
    sections = {example["section"] for example in COMMONMARK["examples"]}
    assert {"ATX headings", "Fenced code blocks", "Thematic breaks"} <= sections
    assert COMMONMARK["version"] == "0.31.2"
    assert len(COMMONMARK["examples"]) == 116


def test_setext_headings_are_deliberately_not_sections() -> None:
    """The AsesorIA chunking specification recognises ATX headings only."""
    setext = [e["markdown"] for e in COMMONMARK["examples"] if e["section"] == "Setext headings"]
    found_by_reference = 0
    for text in setext:
        tokens = _PARSER.parse(text)
        found_by_reference += sum(
            token.type == "heading_open" and not token.markup.startswith("#") for token in tokens
        )
        assert all(not line.lstrip().startswith(("=", "-")) for _, line in _our_headings(text))
    assert found_by_reference > 10


def test_headings_inside_containers_are_deliberately_not_sections() -> None:
    text = "> # En una cita\n\n- # En una lista\n\n- Un punto\n  # En el punto\n\n# Fuera\n"
    assert _reference_headings(text, containers=True) == [
        (1, "En una cita"),
        (1, "En una lista"),
        (1, "En el punto"),
        (1, "Fuera"),
    ]
    assert _our_headings(text) == [(1, "Fuera")]


@pytest.mark.parametrize("law", sorted((ROOT / "corpus" / "markdown").glob("*.md")), ids=str)
def test_the_real_laws(law: Path) -> None:
    text = law.read_text(encoding="utf-8")
    ours = _our_headings(text)
    assert len(ours) > 50
    assert ours == _reference_headings(text)


@settings(PROFILE, max_examples=examples(100))
@given(document=markdown_documents())
def test_generated_documents(document: MarkdownDocument) -> None:
    assert _our_headings(document.text) == _reference_headings(document.text)


#: Lines that open, continue, nest and close list items, fences and headings.
_CONTAINER_LINES = st.sampled_from(
    [
        "",
        "texto",
        "- punto",
        "* punto",
        "-",
        "1. uno",
        "1) uno",
        "5. cinco",
        "10. diez",
        "-\tcon tabulador",
        "-     código",
        "  texto",
        "   texto",
        "    texto",
        "  - dentro",
        "# título",
        " # título",
        "  # título",
        "   # título",
        "\t# título",
        "  ## título #",
        "```",
        "  ```",
        "   ```",
        "~~~",
        "- ```",
        "* * *",
        "---",
        "> cita",
        "  > cita",
        "<!-- nota -->",
    ]
)


@settings(PROFILE, max_examples=examples(300))
@given(lines=st.lists(_CONTAINER_LINES, max_size=12), newline=st.sampled_from(["\n", "\r\n"]))
def test_headings_in_and_out_of_list_items(lines: list[str], newline: str) -> None:
    """A heading indented to a list item's content is the item's (CommonMark 5.2), one
    indented less closes the item; fences inside an item close with it."""
    text = "".join(line + newline for line in lines)
    assert _our_headings(text) == _reference_headings(text)


# -- Unicode extended grapheme clusters ------------------------------------------------------

_LINE = re.compile(r"^÷( [0-9A-F]{4,6} [÷×])+$")  # noqa: RUF001 - the file's own marks


def _grapheme_cases() -> list[tuple[int, str, list[bool]]]:
    """``(line number, text, [boundary after each code point but the last])``."""
    cases = []
    lines = GRAPHEME_TEST.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        rule = line.split("#", 1)[0].strip()
        if not rule:
            continue
        assert _LINE.match(rule), (number, line)
        fields = rule.split()[1:]  # code point, mark, code point, mark, ...
        text = "".join(chr(int(point, 16)) for point in fields[0::2])
        marks = [mark == "÷" for mark in fields[1::2]]
        cases.append((number, text, marks[:-1]))
    return cases


def test_the_grapheme_test_file_is_unicode_17() -> None:
    first = GRAPHEME_TEST.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# GraphemeBreakTest-17.0.0.txt"
    assert len(_grapheme_cases()) > 700


#: Lines where the ``regex`` module's ``\\X`` keeps together what Unicode 17 breaks: a
#: virama followed by a consonant with no consonant before the virama (rule GB9c needs
#: one). Refusing a cut there is safe (a cluster is only ever kept whole); if ``regex``
#: catches up, ``test_refused_cuts_are_only_the_known_regex_deviations`` says so.
KNOWN_REGEX_DEVIATIONS = frozenset({171, 172, 781, 782})


def _verdicts(prefix: str = "") -> list[tuple[int, str, list[bool], list[bool]]]:
    """``(line, text, ours, Unicode's)`` with ``text`` placed after ``prefix``."""
    cases = []
    for number, text, breaks in _grapheme_cases():
        joined = prefix + text
        found = [is_safe_cut(joined, len(prefix) + p) for p in range(1, len(text))]
        cases.append((number, text, found, breaks))
    return cases


def test_no_cut_where_the_grapheme_break_test_forbids_one() -> None:
    """At every inner position of every line where Unicode keeps a cluster together, a
    cut is unsafe (the ends of a text are always safe)."""
    for number, text, found, breaks in _verdicts():
        assert is_safe_cut(text, 0)
        assert is_safe_cut(text, len(text))
        pairs = enumerate(zip(found, breaks, strict=True), 1)
        assert [p for p, (ours, unicode) in pairs if ours and not unicode] == [], (number, text)


def test_refused_cuts_are_only_the_known_regex_deviations() -> None:
    refused = {number for number, _, found, breaks in _verdicts() if found != breaks}
    assert refused == KNOWN_REGEX_DEVIATIONS


def test_cuts_agree_with_the_grapheme_break_test_inside_longer_text() -> None:
    """The same lines after Spanish and non-ASCII text (each ending in a space, which no
    rule looks back through): the verdicts do not depend on where segmentation starts."""
    alone = {number: found for number, _, found, _ in _verdicts()}
    for prefix in ("Artículo 1.º: ", "ñandú ", "🇪🇸🇪 ", "क्ष "):
        for number, text, found, _ in _verdicts(prefix):
            assert found == alone[number], (prefix, number, text)
