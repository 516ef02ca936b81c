"""The error hierarchy drawn in errors.py's docstring, and messages that say what to fix."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import langchain_asesoria
from langchain_asesoria import (
    AsesoriaError,
    ChunkingConfig,
    ChunkMetadata,
    LoadedPage,
    SectionSpan,
    Settings,
    chunk_document,
    errors,
    load_tokenization,
)
from langchain_asesoria.testing import ByteTokenization

_TREE_LINE = re.compile(
    r"^(?P<indent>[\s│]*)(?:[├└]── )?(?P<name>[A-Z]\w+)(?: \((?P<builtin>\w+)\))?"
)


def _documented_tree() -> dict[str, tuple[str | None, type[BaseException]]]:
    """``{class name: (documented parent, builtin it also inherits)}`` from the docstring."""
    doc = errors.__doc__ or ""
    tree: dict[str, tuple[str | None, type[BaseException]]] = {}
    stack: list[tuple[int, str, type[BaseException]]] = []
    for line in doc.splitlines():
        match = _TREE_LINE.match(line)
        if not match or match.group("name") not in errors.__all__:
            continue
        depth = match.start("name")
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parent = stack[-1] if stack else None
        builtin_name = match.group("builtin")
        if builtin_name is not None:
            builtin = getattr(__import__("builtins"), builtin_name)
        else:
            builtin = parent[2] if parent else Exception
        tree[match.group("name")] = (parent[1] if parent else None, builtin)
        stack.append((depth, match.group("name"), builtin))
    return tree


TREE = _documented_tree()


def test_the_docstring_draws_every_error():
    assert set(TREE) == set(errors.__all__)
    assert TREE["AsesoriaError"][0] is None
    roots = [name for name, (parent, _) in TREE.items() if parent is None]
    assert roots == ["AsesoriaError"]


@pytest.mark.parametrize("name", sorted(errors.__all__))
def test_every_error_is_an_asesoria_error_and_its_documented_builtin(name: str):
    cls = getattr(errors, name)
    parent, builtin = TREE[name]
    assert issubclass(cls, AsesoriaError)
    assert issubclass(cls, builtin)
    if parent is not None:
        assert issubclass(cls, getattr(errors, parent))


@pytest.mark.parametrize(
    ("name", "builtin"),
    [
        ("ConfigurationError", ValueError),
        ("MissingSettingError", ValueError),
        ("ModelLimitError", ValueError),
        ("InvalidPagesError", ValueError),
        ("InvalidSectionsError", ValueError),
        ("BudgetError", ValueError),
        ("ContextTooLongError", ValueError),
        ("IndivisibleCharacterError", ValueError),
        ("PrivacyError", ValueError),
        ("TokenizerLoadError", OSError),
        ("MissingDependencyError", ImportError),
    ],
)
def test_builtin_table(name: str, builtin: type[BaseException]):
    cls = getattr(errors, name)
    assert issubclass(cls, AsesoriaError)
    assert issubclass(cls, builtin)
    with pytest.raises(builtin):
        raise cls("mensaje")


@pytest.mark.parametrize(
    ("child", "parent"),
    [
        ("MissingSettingError", "ConfigurationError"),
        ("ModelLimitError", "ConfigurationError"),
        ("ContextTooLongError", "BudgetError"),
        ("IndivisibleCharacterError", "BudgetError"),
    ],
)
def test_subfamilies(child: str, parent: str):
    assert issubclass(getattr(errors, child), getattr(errors, parent))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ConfigurationError", "BudgetError"),
        ("InvalidPagesError", "InvalidSectionsError"),
        ("PrivacyError", "ConfigurationError"),
        ("TokenizerLoadError", "MissingDependencyError"),
    ],
)
def test_families_are_distinct(first: str, second: str):
    a, b = getattr(errors, first), getattr(errors, second)
    assert not issubclass(a, b)
    assert not issubclass(b, a)


def test_errors_are_exported_from_the_package():
    for name in errors.__all__:
        assert getattr(langchain_asesoria, name) is getattr(errors, name)


# -- messages: the bad value, the document, the fix ----------------------------------------------

META = ChunkMetadata(doc_id="modelo-100-ñ")


def _chunk(text: str, max_tokens: int, **kwargs: object) -> object:
    tokenization = kwargs.pop("tokenization", ByteTokenization())
    return chunk_document(
        [LoadedPage(text, 1)],
        META,
        config=ChunkingConfig(max_tokens=max_tokens, overlap_tokens=0, section_context="path"),
        tokenization=tokenization,  # type: ignore[arg-type]
        **kwargs,  # type: ignore[arg-type]
    )


def _corrupt_tokenizer(tmp_path: Path) -> object:
    path = tmp_path / "tokenizer.json"
    path.write_text("{ esto no es json", encoding="utf-8")
    return load_tokenization(Settings(embedding_model=str(path), embedding_max_tokens=128))


MESSAGES: list[tuple[str, Callable[[Path], object], type[AsesoriaError], list[str]]] = [
    (
        "model-limit",
        lambda _: _chunk("Texto.", 300, tokenization=ByteTokenization(256)),
        errors.ModelLimitError,
        ["'modelo-100-ñ'", "max_tokens=300", "256", "max_tokens <= 256"],
    ),
    (
        "context-too-long",
        lambda _: _chunk(
            "Texto.", 20, sections=[SectionSpan(0, 6, "Disposición transitoria primera")]
        ),
        errors.ContextTooLongError,
        ["'modelo-100-ñ'", "'Disposición transitoria primera'", "20-token", "Raise max_tokens"],
    ),
    (
        "indivisible-character",
        lambda _: _chunk("Hola 😀", 5),
        errors.IndivisibleCharacterError,
        ["'modelo-100-ñ'", "position 5", "'😀'", "Raise max_tokens"],
    ),
    (
        "invalid-sections",
        lambda _: _chunk("Texto.", 64, sections=[SectionSpan(0, 99, "Artículo 9")]),
        errors.InvalidSectionsError,
        ["'modelo-100-ñ'", "'Artículo 9'", "99", "[0, 6)"],
    ),
    (
        "privacy",
        lambda _: ChunkMetadata(doc_id="nómina-ana", source_scope="private"),
        errors.PrivacyError,
        ["'nómina-ana'", "session_id"],
    ),
    (
        "missing-setting",
        lambda _: ChunkingConfig.from_settings(Settings(chunk_overlap_tokens=32)),
        errors.MissingSettingError,
        ["CHUNK_SIZE_TOKENS", "256/32"],
    ),
    (
        "tokenizer-load",
        _corrupt_tokenizer,
        errors.TokenizerLoadError,
        ["tokenizer.json", "cannot read"],
    ),
]


@pytest.mark.usefixtures("clean_settings_env")
@pytest.mark.parametrize(
    ("trigger", "error", "fragments"),
    [pytest.param(t, e, f, id=i) for i, t, e, f in MESSAGES],
)
def test_messages_name_the_value_and_the_fix(
    tmp_path: Path,
    trigger: Callable[[Path], object],
    error: type[AsesoriaError],
    fragments: list[str],
):
    with pytest.raises(error) as caught:
        trigger(tmp_path)
    assert type(caught.value) is error
    for fragment in fragments:
        assert fragment in str(caught.value)


@pytest.mark.usefixtures("clean_settings_env")
def test_missing_dependency_names_the_extra(tmp_path: Path):
    if importlib.util.find_spec("transformers") is not None:
        pytest.skip("transformers is installed: the folder would be converted, not refused")
    folder = tmp_path / "modelo-sin-tokenizer-json"
    folder.mkdir()
    with pytest.raises(errors.MissingDependencyError) as caught:
        load_tokenization(Settings(embedding_model=str(folder), embedding_max_tokens=128))
    assert "langchain-asesoria[transformers]" in str(caught.value)
    assert isinstance(caught.value, ImportError)


def _every_error_class() -> set[type[AsesoriaError]]:
    """Every ``AsesoriaError`` subclass defined in the package's importable modules."""
    package = importlib.import_module("langchain_asesoria")
    for module in pkgutil.walk_packages(package.__path__, "langchain_asesoria."):
        if module.name.endswith("__main__"):  # runs the command line
            continue
        try:
            importlib.import_module(module.name)
        except ImportError:  # an optional extra that is not installed
            continue
    found: set[type[AsesoriaError]] = set()
    pending: list[type[AsesoriaError]] = [AsesoriaError]
    while pending:
        kind = pending.pop()
        if kind.__module__.startswith("langchain_asesoria") and kind not in found:
            found.add(kind)
            pending += kind.__subclasses__()
    return found


def test_the_error_tree_names_every_error_of_the_package() -> None:
    tree = errors.__doc__ or ""
    missing = sorted(
        kind.__name__
        for kind in _every_error_class()
        if not re.search(rf"\b{kind.__name__}\b", tree)
    )
    assert missing == []
    assert len(_every_error_class()) >= 25


def test_a_pdf_without_pages_names_its_file_as_an_attribute(tmp_path: Path) -> None:
    error = errors.NoPagesError(tmp_path / "vacío.pdf")
    assert error.path == str(tmp_path / "vacío.pdf")
    assert str(error).startswith(f"{error.path}: the PDF has no pages;")
    assert isinstance(error, errors.DocumentReadError)
    assert isinstance(error, OSError)
