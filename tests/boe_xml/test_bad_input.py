"""Bad input is a typed error that names the file, the line or the block, and the fix;
no entity is ever expanded and nothing is fetched."""

from __future__ import annotations

import pickle
from datetime import date
from pathlib import Path

import pytest
from boe_laws import FIXTURE_DIR, FIXTURE_ID, GenBlock, GenVersion, law_xml, p

from langchain_asesoria.boe_xml import (
    BlockWithoutVersionsError,
    DamagedXmlError,
    LawDateError,
    LawXmlError,
    NotBoeResponseError,
    read_law,
    read_law_file,
)
from langchain_asesoria.errors import DocumentReadError

TEXTO = (FIXTURE_DIR / f"{FIXTURE_ID}.xml").read_bytes()
METADATOS = (FIXTURE_DIR / f"{FIXTURE_ID}.metadatos.xml").read_bytes()
DAY = date(2004, 1, 1)


def _block() -> bytes:
    version = GenVersion("BOE-A-2004-1", DAY, DAY, (p("parrafo", "Texto."),))
    return law_xml([GenBlock("a1", "precepto", "Artículo 1", (version,))])


def test_truncated_xml_names_its_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "BOE-A-2004-99999.xml"
    path.write_bytes(TEXTO[: len(TEXTO) // 2])
    with pytest.raises(DamagedXmlError) as caught:
        read_law_file(path)
    error = caught.value
    assert error.line is not None
    assert error.line > 100
    assert error.source == f"{path}:{error.line}"
    assert error.position is not None
    assert f"line {error.line}" in str(error)
    assert "download it again" in str(error)


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"<html><body><p>Hola</p></body></html>", "root is <html>"),
        (b'<?xml version="1.0"?><ley><texto/></ley>', "root is <ley>"),
        (METADATOS, "no <texto>"),
        (
            b"<response><status><code>404</code><text>La informaci\xc3\xb3n solicitada no "
            b"existe</text></status><data/></response>",
            "error answer 404 ('La información solicitada no existe')",
        ),
    ],
)
def test_xml_that_is_not_a_boe_answer_is_refused(data: bytes, says: str) -> None:
    with pytest.raises(NotBoeResponseError) as caught:
        read_law(data, source="ley.xml")
    assert says in str(caught.value)
    assert caught.value.source == "ley.xml"


def test_the_text_given_as_metadata_is_refused() -> None:
    with pytest.raises(NotBoeResponseError, match="no <metadatos>"):
        read_law(TEXTO, TEXTO)


def test_a_document_type_is_refused_and_no_entity_expanded(tmp_path: Path) -> None:
    secret = tmp_path / "secreto.txt"
    secret.write_text("CONTRASEÑA", encoding="utf-8")
    external = (
        f'<?xml version="1.0"?><!DOCTYPE response [<!ENTITY x SYSTEM "file://{secret}">]>'
        "<response><data><texto>&x;</texto></data></response>"
    ).encode()
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE response [<!ENTITY a "jajaja">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>'
        b"<response><data><texto>&c;</texto></data></response>"
    )
    for data in (external, laughs):
        with pytest.raises(NotBoeResponseError, match="document type") as caught:
            read_law(data)
        assert "CONTRASEÑA" not in str(caught.value)


def test_a_block_without_versions_names_the_block() -> None:
    data = _block().replace(b"<version", b"<!--").replace(b"</version>", b"-->")
    with pytest.raises(BlockWithoutVersionsError) as caught:
        read_law(data, law_id="BOE-A-2004-1", source="ley.xml")
    assert (caught.value.block_id, caught.value.law_id) == ("a1", "BOE-A-2004-1")
    assert "'a1'" in str(caught.value)


@pytest.mark.parametrize(
    ("attribute", "value"),
    [("fecha_vigencia", "2004-01-01"), ("fecha_publicacion", "20040231"), ("fecha_vigencia", "")],
)
def test_a_day_that_does_not_parse_names_the_block(attribute: str, value: str) -> None:
    data = _block().replace(f'{attribute}="20040101"'.encode(), f'{attribute}="{value}"'.encode())
    with pytest.raises(LawDateError) as caught:
        read_law(data, source="ley.xml")
    assert caught.value.block_id == "a1"
    assert attribute in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_a_bad_fecha_caducidad_and_caduca_are_refused_too() -> None:
    data = _block().replace(b'tipo="precepto"', 'tipo="precepto" fecha_caducidad="mañana"'.encode())
    with pytest.raises(LawDateError, match="fecha_caducidad"):
        read_law(data)
    noted = _block().replace(
        b"</version>", b'<blockquote caduca="2031"><p>x</p></blockquote></version>'
    )
    with pytest.raises(LawDateError, match="caduca"):
        read_law(noted)


def test_two_blocks_with_one_id_are_refused() -> None:
    version = GenVersion("BOE-A-2004-1", DAY, DAY, (p("parrafo", "Texto."),))
    twice = [GenBlock("a1", "precepto", None, (version,))] * 2
    with pytest.raises(NotBoeResponseError, match="two blocks with the id 'a1'"):
        read_law(law_xml(twice))


def test_a_block_without_an_id_is_refused() -> None:
    with pytest.raises(NotBoeResponseError, match="without an id"):
        read_law(_block().replace(b'id="a1"', b'id=""'))


def test_an_unreadable_file_is_a_document_read_error(tmp_path: Path) -> None:
    with pytest.raises(DocumentReadError) as caught:
        read_law_file(tmp_path / "BOE-A-2004-1.xml")
    assert not isinstance(caught.value, LawXmlError)


def test_the_errors_survive_pickling_with_their_context() -> None:
    with pytest.raises(DamagedXmlError) as caught:
        read_law(TEXTO[:500], source="ley.xml", law_id="BOE-A-2004-99999")
    error = caught.value
    again = pickle.loads(pickle.dumps(error))
    assert (again.line, again.law_id, again.source, again.position) == (
        error.line,
        "BOE-A-2004-99999",
        error.source,
        error.position,
    )
    assert str(again) == str(error)
