"""The error hierarchy drawn in errors.py's docstring, and messages that say what to fix."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pickle
import pkgutil
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from error_texts import read_messages

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
from langchain_asesoria.pdf.open import no_text_layer
from langchain_asesoria.testing import ByteTokenization

#: The errors of ``errors.__all__``; the rest are warnings (``UserWarning``), drawn apart.
ERRORS = sorted(
    name
    for name in errors.__all__
    if isinstance(getattr(errors, name), type) and issubclass(getattr(errors, name), AsesoriaError)
)
WARNINGS = sorted(set(errors.__all__) - set(ERRORS))

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
        if not match or match.group("name") not in ERRORS:
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
    assert set(TREE) == set(ERRORS)
    assert TREE["AsesoriaError"][0] is None
    roots = [name for name, (parent, _) in TREE.items() if parent is None]
    assert roots == ["AsesoriaError"]


@pytest.mark.parametrize("name", WARNINGS)
def test_the_warnings_are_user_warnings_named_in_the_docstring(name: str) -> None:
    assert issubclass(getattr(errors, name), UserWarning)
    assert f"    {name} (UserWarning)" in (errors.__doc__ or "")


@pytest.mark.parametrize("name", ERRORS)
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


def test_errors_are_exported_from_the_package_or_the_subpackage_that_raises_them():
    from langchain_asesoria import boe_xml, cli
    from langchain_asesoria import langchain as adapters

    for name in errors.__all__:
        home = next(
            module
            for module in (langchain_asesoria, cli, adapters, boe_xml)
            if name in module.__all__
        )
        assert getattr(home, name) is getattr(errors, name)


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


# -- one module, one import path ---------------------------------------------------------------

PACKAGE = Path(langchain_asesoria.__file__).parent


def _package_modules() -> list[tuple[str, Path]]:
    """``(module name, file)`` of every module of the package, found without importing it."""
    found: list[tuple[str, Path]] = []
    pending = [(PACKAGE, "langchain_asesoria")]
    while pending:
        folder, prefix = pending.pop()
        found.append((prefix, folder / "__init__.py"))
        for info in pkgutil.iter_modules([str(folder)]):
            name = f"{prefix}.{info.name}"
            if info.ispkg:
                pending.append((folder / info.name, name))
            else:
                found.append((name, folder / f"{info.name}.py"))
    return sorted(found)


def _is_exception_base(base: ast.expr) -> bool:
    name = base.id if isinstance(base, ast.Name) else getattr(base, "attr", "")
    return name.endswith(("Error", "Exception", "Warning")) or name == "BaseException"


def test_every_exception_class_is_defined_in_errors_py() -> None:
    """No ``class X(...Error)`` outside ``errors.py``: one module, one import path each."""
    modules = _package_modules()
    assert len(modules) > 40  # the walk reached the subpackages
    elsewhere = [
        f"{name}.{node.name}"
        for name, path in modules
        if name != "langchain_asesoria.errors"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and any(map(_is_exception_base, node.bases))
    ]
    assert elsewhere == []
    defined = {
        node.name
        for node in ast.parse((PACKAGE / "errors.py").read_text(encoding="utf-8")).body
        if isinstance(node, ast.ClassDef)
    }
    assert defined == set(errors.__all__)


#: The modules that re-export errors, and which: the root those a library caller catches,
#: the command line's subpackage the errors only it raises.
RE_EXPORTERS = {
    "langchain_asesoria.langchain": {"OutlineUnavailableWarning"},
    "langchain_asesoria.boe_xml": {
        "BlockWithoutVersionsError",
        "BoeUnreachableError",
        "DamagedXmlError",
        "LawDateError",
        "LawFetchError",
        "LawNotFoundError",
        "LawXmlError",
        "NotBoeResponseError",
    },
    "langchain_asesoria.cli": {"FieldsError", "OutputError", "StrictModeError", "UsageError"},
}


def test_each_error_is_the_same_class_wherever_it_is_imported_from() -> None:
    """A module that re-exports an error (``from errors import X`` in its ``__all__``)
    is a second import path: only the package root and the subpackages of
    ``RE_EXPORTERS`` re-export them, and they re-export the very class."""
    for name, _ in _package_modules():
        if name in ("langchain_asesoria", "langchain_asesoria.errors") or name.endswith(
            "__main__"  # runs the command line
        ):
            continue
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional extra that is not installed
            continue
        public = set(getattr(module, "__all__", ())) & set(errors.__all__)
        assert public == RE_EXPORTERS.get(name, set()), name
        for error in public:
            assert getattr(module, error) is getattr(errors, error)


# -- no code reads an error's message ------------------------------------------------------------

#: The package's own error types (``_E`` is a type variable bound to ``AsesoriaError``).
OURS = frozenset({*errors.__all__, "_E"})

#: Where the package puts the text of one of its own errors somewhere, and why that is
#: not reading it: ``(module file, function)``. A new use must be added here, or read
#: the error's attributes instead (``error.detail``, ``error.source``...).
TEXT_USES = {
    ("langchain_asesoria/cli/main.py", "main"): "the error line on stderr",
    ("langchain_asesoria/cli/fetch.py", "main"): "the error line on stderr",
    ("langchain_asesoria/reading/loaded_pdf.py", "_pdf_file"): (
        "why a loader's PDF pages got no outline: chunks' outline_missing"
    ),
    ("langchain_asesoria/reading/steps.py", "of_pdf"): "the outline report's problem",
}


def _package_sources() -> list[tuple[str, str]]:
    return [
        (str(path.relative_to(PACKAGE.parent)), path.read_text(encoding="utf-8"))
        for _, path in _package_modules()
    ]


def test_no_code_parses_an_error_message() -> None:
    parsing = [
        line
        for path, source in _package_sources()
        for line in read_messages(path, source, OURS).parsing
    ]
    assert parsing == []


def test_the_text_of_our_errors_goes_only_where_it_is_listed() -> None:
    used = set().union(*(read_messages(p, s, OURS).text_uses for p, s in _package_sources()))
    assert sorted(used - set(TEXT_USES)) == []
    assert sorted(set(TEXT_USES) - used) == []  # a listed use that went away: drop it


#: What the check must catch (the adapters before errors carried attributes) and
#: must let through (reports, logs, the attributes themselves).
PARSING_SNIPPETS = [
    pytest.param(
        "def describe(path, error):\n"
        "    message = str(error)\n"
        "    return message if message.startswith(str(path)) else f'{path}: {message}'\n",
        ["calls .startswith() on an error's message"],
        id="startswith-a-path",
    ),
    pytest.param(
        "def with_source(error: _E, name):\n"
        "    message = str(error)\n"
        "    if repr(name) in message:\n"
        "        return error\n"
        "    return type(error)(f'source {name!r}: {message}')\n",
        ["compares an error's message", "rebuilds an error with type(error)(...)"],
        id="repr-in-message-and-rebuild",
    ),
    pytest.param(
        "try:\n    f()\nexcept ValueError as error:\n    if 'page' in str(error):\n        pass\n",
        ["compares an error's message"],
        id="in-str-error",
    ),
    pytest.param(
        "try:\n    f()\nexcept OSError as exc:\n    code = re.search(r'\\d+', f'{exc}')\n",
        ["re.search() on an error's message"],
        id="regex-on-a-message",
    ),
    pytest.param(
        "try:\n    f()\nexcept AsesoriaError as error:\n    what = error.args[0].split(':')\n",
        ["calls .split() on an error's message"],
        id="args-split",
    ),
    pytest.param(
        "try:\n    f()\nexcept AsesoriaError as error:\n"
        "    print(f'error: {error}', file=sys.stderr)\n"
        "    if error.source == path or error.page is not None:\n        pass\n"
        "    raise error.with_context(source=path)\n",
        [],
        id="allowed-stderr-and-attributes",
    ),
]


@pytest.mark.parametrize(("source", "found"), PARSING_SNIPPETS)
def test_the_parsing_check_catches_what_it_must(source: str, found: list[str]) -> None:
    assert [line.split(" ", 1)[1] for line in read_messages("x.py", source, OURS).parsing] == found


def test_an_error_rebuilt_from_another_s_text_is_a_text_use() -> None:
    source = (
        "def load():\n    try:\n        f()\n    except FieldsError as error:\n"
        "        raise UsageError(str(error)) from error\n"
    )
    assert read_messages("x.py", source, OURS).text_uses == {("x.py", "load")}


# -- errors cross processes with their context ---------------------------------------------------

CONTEXT = {
    "detail": "algo no cuadra",
    "source": "modelo-100.pdf",
    "doc_id": "modelo-100",
    "page": 3,
    "position": 1_234,
    "expected": "an integer",
}
ATTRIBUTES = ("detail", "source", "doc_id", "page", "position", "expected")


def _context(error: AsesoriaError) -> dict[str, object]:
    return {name: getattr(error, name) for name in ATTRIBUTES}


@pytest.mark.parametrize("name", ERRORS)
def test_every_error_survives_pickling_with_its_attributes(name: str) -> None:
    """``parallel`` and the Ray helper send errors between processes."""
    cls: type[AsesoriaError] = getattr(errors, name)
    error = cls(
        CONTEXT["detail"],  # type: ignore[arg-type]
        **{key: value for key, value in CONTEXT.items() if key != "detail"},  # type: ignore[arg-type]
    )
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is cls
    assert _context(copy) == CONTEXT
    assert str(copy) == str(error) == "modelo-100.pdf: algo no cuadra"
    bare = pickle.loads(pickle.dumps(cls("sin contexto")))
    assert str(bare) == "sin contexto"
    assert bare.where is None


def test_a_raised_engine_error_survives_pickling_and_filling_in_its_source() -> None:
    with pytest.raises(errors.ContextTooLongError) as caught:
        _chunk("Texto.", 20, sections=[SectionSpan(0, 6, "Disposición transitoria primera")])
    copy = pickle.loads(pickle.dumps(caught.value))
    assert _context(copy) == _context(caught.value)
    assert (copy.doc_id, copy.position) == ("modelo-100-ñ", 0)
    assert str(copy).startswith("document 'modelo-100-ñ': section at 0: ")
    copy.with_context(source="modelo-100.pdf", page=1)
    assert str(copy).startswith("modelo-100.pdf: section at 0: ")
    assert (copy.doc_id, copy.page) == ("modelo-100-ñ", 1)
    again = pickle.loads(pickle.dumps(copy))
    assert _context(again) == _context(copy)
    assert str(again) == str(copy)


def test_a_pdf_without_pages_names_its_file_as_an_attribute(tmp_path: Path) -> None:
    error = no_text_layer(tmp_path / "vacío.pdf", 0)
    assert isinstance(error, errors.NoPagesError)
    assert error.source == str(tmp_path / "vacío.pdf")
    assert str(error).startswith(f"{error.source}: the PDF has no pages;")
    assert isinstance(error, errors.DocumentReadError)
    assert isinstance(error, OSError)
