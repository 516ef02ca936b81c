"""Files, folders and globs expanded into documents; exclusions; errors and exit codes."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langchain_asesoria.cli.errors import (
    ExitCode,
    exit_code_for,
    failure_label,
)
from langchain_asesoria.cli.inputs import Skipped, expand_inputs, scan_inputs
from langchain_asesoria.errors import (
    AsesoriaError,
    ContextTooLongError,
    DamagedDocumentError,
    EncryptedDocumentError,
    FieldsError,
    MissingDependencyError,
    ModelLimitError,
    NoPagesError,
    NoTextLayerError,
    OutputError,
    PrivacyError,
    TextEncodingError,
    TokenizerLoadError,
    UsageError,
)


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in [
        "data/b.pdf",
        "data/a.md",
        "data/SOURCES.md",
        "data/notes.docx",
        "data/a.md.meta.json",
        "data/sub/c.txt",
        "data/.hidden/d.txt",
        "data/.e.md",
        "other/f.markdown",
    ]:
        Path(name).parent.mkdir(parents=True, exist_ok=True)
        Path(name).write_text("x", encoding="utf-8")
    return tmp_path


def names(paths: list[Path]) -> list[str]:
    return [path.as_posix() for path in paths]


@pytest.mark.parametrize(
    ("arguments", "exclude", "expected"),
    [
        (["data"], [], ["data/SOURCES.md", "data/a.md", "data/b.pdf", "data/sub/c.txt"]),
        (["data"], ["SOURCES.md"], ["data/a.md", "data/b.pdf", "data/sub/c.txt"]),
        (["data"], ["sub/*"], ["data/SOURCES.md", "data/a.md", "data/b.pdf"]),
        (["data/*.md"], [], ["data/SOURCES.md", "data/a.md"]),
        (["data/**/*.txt"], [], ["data/sub/c.txt"]),
        (["data/*"], [], ["data/SOURCES.md", "data/a.md", "data/b.pdf"]),
        (["data/notes.docx"], [], ["data/notes.docx"]),
        (
            ["data/a.md", "data", "other"],
            ["S*"],
            ["data/a.md", "data/b.pdf", "data/sub/c.txt", "other/f.markdown"],
        ),
        (["data/.hidden"], [], ["data/.hidden/d.txt"]),
    ],
    ids=[
        "folder",
        "exclude-name",
        "exclude-path",
        "glob",
        "recursive",
        "glob-kinds",
        "file",
        "dedup-order",
        "hidden-named",
    ],
)
def test_expansion(
    tree: Path, arguments: list[str], exclude: list[str], expected: list[str]
) -> None:
    assert names(expand_inputs(arguments, exclude)) == expected


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["nope.pdf"], "nope.pdf: no such file or folder"),
        (["data/*.csv"], "matches no .pdf, .md, .txt or .html file"),
    ],
)
def test_expansion_errors(tree: Path, arguments: list[str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        expand_inputs(arguments)


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (UsageError("u"), ExitCode.USAGE),
        (OutputError("o"), ExitCode.OUTPUT),
        (ModelLimitError("m"), ExitCode.CONFIGURATION),
        (TokenizerLoadError("t"), ExitCode.CONFIGURATION),
        (MissingDependencyError("d"), ExitCode.CONFIGURATION),
        (PrivacyError("p"), ExitCode.FILES_FAILED),
        (AsesoriaError("a"), ExitCode.FILES_FAILED),
    ],
)
def test_exit_codes(error: AsesoriaError, code: ExitCode) -> None:
    assert exit_code_for(error) == code


@pytest.mark.parametrize(
    ("error", "label"),
    [
        (EncryptedDocumentError("e"), "encrypted"),
        (DamagedDocumentError("d"), "damaged PDF"),
        (NoTextLayerError("n"), "no text layer"),
        (NoPagesError("n.pdf"), "no pages"),
        (TextEncodingError("t"), "not UTF-8"),
        (MissingDependencyError("m"), "missing extra"),
        (PrivacyError("p"), "private, no session"),
        (FieldsError("f"), "bad fields"),
        (ContextTooLongError("c"), "does not fit"),
        (AsesoriaError("a"), "failed"),
    ],
)
def test_failure_labels(error: AsesoriaError, label: str) -> None:
    assert failure_label(error) == label


def test_names_found_that_cannot_be_read_are_skipped_with_their_reason(tree: Path) -> None:
    Path("data/gone.md").symlink_to(tree / "borrado.md")
    Path("data/ida.md").symlink_to(tree / "data" / "vuelta.md")  # a loop of two links
    Path("data/vuelta.md").symlink_to(tree / "data" / "ida.md")
    os.mkfifo("data/tuberia.txt")
    Path("data/carpeta.pdf").mkdir()  # a folder named like a document: scanned, not skipped
    inputs = scan_inputs(["data", "other/*.markdown"])
    assert names(list(inputs.paths)) == [
        "data/SOURCES.md",
        "data/a.md",
        "data/b.pdf",
        "data/sub/c.txt",
        "other/f.markdown",
    ]
    assert inputs.skipped == (
        Skipped(Path("data/gone.md"), "a symbolic link whose target does not exist"),
        Skipped(Path("data/ida.md"), "a symbolic link that loops back on itself"),
        Skipped(Path("data/tuberia.txt"), "not a regular file"),
        Skipped(Path("data/vuelta.md"), "a symbolic link that loops back on itself"),
    )
    excluded = ["gone.md", "ida.md", "vuelta.md"]
    assert scan_inputs(["data/*.md"], excluded).skipped == ()  # excluded, not skipped


def test_a_glob_of_unreadable_names_only_is_no_document(tree: Path) -> None:
    Path("solo").mkdir()
    Path("solo/gone.md").symlink_to(tree / "borrado.md")
    with pytest.raises(UsageError, match=r"no document to split \(1 found cannot be read\)"):
        scan_inputs(["solo/*.md"])


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_a_file_this_user_cannot_read_is_skipped(tree: Path) -> None:
    Path("data/a.md").chmod(0)
    assert scan_inputs(["data"]).skipped == (
        Skipped(Path("data/a.md"), "not readable by this user"),
    )


# -- files no reader takes: counted by extension ---------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "exclude", "expected"),
    [
        (["data"], [], ((".docx", 1), (".json", 1))),
        (["data"], ["*.json"], ((".docx", 1),)),
        (["data/*"], [], ((".docx", 1), (".json", 1))),
        (["data/*.md"], [], ()),
        (["data/a.md", "other"], [], ()),  # a file given is split, whatever it is
        (["data", "data"], [], ((".docx", 1), (".json", 1))),  # counted once
    ],
)
def test_files_no_reader_takes_are_counted_by_extension(
    tree: Path, arguments: list[str], exclude: list[str], expected: tuple[tuple[str, int], ...]
) -> None:
    del tree
    assert scan_inputs(arguments, exclude).unsupported == expected


def test_unsupported_counts_sort_by_files_then_extension(tree: Path) -> None:
    del tree
    for name in ["data/x.png", "data/y.PNG", "data/sub/z.png", "data/README", "data/q.docx"]:
        Path(name).write_text("x", encoding="utf-8")
    assert scan_inputs(["data"]).unsupported == (
        (".png", 3),
        (".docx", 2),
        ("(no extension)", 1),
        (".json", 1),
    )
    # hidden files are never counted, as they are never scanned
    Path("data/.hidden/w.png").write_text("x", encoding="utf-8")
    assert scan_inputs(["data"]).unsupported[0] == (".png", 3)


# -- doc_ids: the path relative to the input root --------------------------------------------

_NAME = st.sampled_from(["ley", "Ley", "ley.md", "nota", "a b", "ñ"])
_EXTENSION = st.sampled_from([".md", ".txt", ".pdf", ".html", ".MD"])
_FOLDER = st.lists(st.sampled_from(["sub1", "sub2", "ley.md.d"]), max_size=2)
_FILES = st.lists(
    st.tuples(_FOLDER, _NAME, _EXTENSION).map(lambda f: "/".join([*f[0], f[1] + f[2]])),
    min_size=1,
    max_size=8,
    unique_by=str.casefold,  # one file per name on a case-insensitive file system too
)


def _make(root: Path, names: list[str]) -> None:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x", encoding="utf-8")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=_FILES, more=_FILES)
def test_doc_ids_are_unique_and_stable(files: list[str], more: list[str]) -> None:
    """Each file's id is its path under the folder named: distinct for distinct files,
    the same on a second run, and the same when the folder gains other files."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder, "corpus")
        root.mkdir()
        _make(root, files)
        first = scan_inputs([str(root)]).doc_ids
        assert len(set(first.values())) == len(first) == len(files)
        assert {first[path]: path for path in first} == {
            path.relative_to(root).as_posix(): path for path in first
        }
        assert scan_inputs([str(root)]).doc_ids == first
        _make(root, [name for name in more if not (root / name).exists()])
        again = scan_inputs([str(root)]).doc_ids
        assert {path: again[path] for path in first} == first
        named = scan_inputs([str(path) for path in first]).doc_ids  # the files, named
        assert len(set(named.values())) == len(named)


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["data"], ["SOURCES.md", "a.md", "b.pdf", "sub/c.txt"]),
        (["data/sub", "data/a.md"], ["sub/c.txt", "a.md"]),
        (["data/**/*.txt"], ["sub/c.txt"]),
        (["data/a.md"], ["a.md"]),
        (["data", "other"], ["data/SOURCES.md", "data/a.md", "data/b.pdf", "data/sub/c.txt"]),
    ],
)
def test_the_input_root_is_the_deepest_folder_holding_every_input(
    tree: Path, arguments: list[str], expected: list[str]
) -> None:
    del tree
    inputs = scan_inputs(arguments)
    assert [inputs.doc_ids[path] for path in inputs.paths][: len(expected)] == expected


def test_a_bad_file_named_is_kept_for_its_run_to_report(tree: Path) -> None:
    """A dangling link or a folder named like a document, named on the command line, is
    a document of the run (it fails there, in input order); ``x.md/`` scans the folder."""
    Path("data/gone.md").symlink_to(tree / "borrado.md")
    Path("x.md").mkdir()
    Path("x.md/dentro.txt").write_text("x", encoding="utf-8")
    inputs = scan_inputs(["data/gone.md", "x.md", "data/a.md"])
    assert names(list(inputs.paths)) == ["data/gone.md", "x.md", "data/a.md"]
    assert inputs.skipped == ()
    assert names(expand_inputs(["x.md/"])) == ["x.md/dentro.txt"]
