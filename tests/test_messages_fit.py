"""Messages that fit: a UTF-16 file is named so, with its fix; positions are carried."""

from __future__ import annotations

from pathlib import Path

import pytest

from langchain_asesoria.errors import DocumentReadError, TextEncodingError
from langchain_asesoria.reading import read_text
from langchain_asesoria.structure.html import extract_html

pytest.importorskip("lxml", reason="the html extra: pip install '.[html]'")


@pytest.mark.parametrize(
    ("codec", "fix"),
    [
        ("utf-16", "iconv -f utf-16"),
        ("utf-16-le", "iconv -f utf-16"),
        ("utf-16-be", "iconv -f utf-16"),
        ("latin1", "iconv -f latin1"),
    ],
)
def test_a_page_in_another_encoding_is_named_with_its_fix(
    tmp_path: Path, codec: str, fix: str
) -> None:
    path = tmp_path / "pagina.html"
    path.write_bytes("<p>Artículo 1. Tributación.</p>".encode(codec))
    with pytest.raises(TextEncodingError) as raised:
        read_text(path)
    assert fix in str(raised.value)
    assert ("UTF-16" in str(raised.value)) == codec.startswith("utf-16")
    assert raised.value.position is not None


def test_the_html_depth_error_carries_its_position() -> None:
    markup = "<p>antes</p>\n" + "<div>" * 3000 + "x"
    try:
        extract_html(markup)
    except DocumentReadError as error:
        raised = error
    else:  # the lowest lxml the project supports reads this depth: no error to place
        pytest.skip("this lxml/libxml2 reads 3,000 nested blocks without a depth error")
    position = raised.position
    assert position is not None
    assert len("<p>antes</p>\n") < position <= len(markup)  # on the second line, as named
    assert "line 2" in str(raised)
