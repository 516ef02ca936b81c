"""The evaluation's errors: two leaves of the library's hierarchy, defined in one module,
and code that reads their attributes, never their message (as the library's own
``tests/test_errors.py`` checks of the library)."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest
from error_texts import read_messages

import langchain_asesoria_eval
from langchain_asesoria import errors as library_errors
from langchain_asesoria_eval import errors

PACKAGE = Path(langchain_asesoria_eval.__file__).parent
MODULES = sorted(PACKAGE.glob("*.py"))

#: Every error class the evaluation and the library define (``_E``: bound to ``AsesoriaError``).
OURS = frozenset({*errors.__all__, *library_errors.__all__, "_E"})

#: Where the evaluation puts the text of one of the errors, and why that is not reading
#: it: ``(module file, function)``.
TEXT_USES = {
    ("cli.py", "_execute"): "stderr, and the report's skipped runs",
    ("cli.py", "main"): "the error line on stderr",
    ("presets.py", "_e5_tokenization"): "why a setup is skipped",
    ("relocate.py", "_relocate_question"): "the list of problems",
    ("relocate.py", "main"): "the error line on stderr",
}


def _is_exception_base(base: ast.expr) -> bool:
    name = base.id if isinstance(base, ast.Name) else getattr(base, "attr", "")
    return name.endswith(("Error", "Exception", "Warning")) or name == "BaseException"


def test_every_exception_class_is_defined_in_errors_py() -> None:
    assert len(MODULES) > 10
    classes = {
        path.name: [
            node.name
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ClassDef) and any(map(_is_exception_base, node.bases))
        ]
        for path in MODULES
    }
    assert {name: found for name, found in classes.items() if found} == {
        "errors.py": sorted(errors.__all__)
    }


@pytest.mark.parametrize(
    ("name", "parent", "builtin"),
    [
        ("QuestionFileError", library_errors.UsageError, ValueError),
        ("SetupUnavailableError", library_errors.TokenizerLoadError, OSError),
    ],
)
def test_each_is_a_leaf_of_the_library_s_hierarchy(
    name: str, parent: type[Exception], builtin: type[Exception]
) -> None:
    error_type = getattr(errors, name)
    assert issubclass(error_type, parent)
    assert issubclass(error_type, builtin)
    assert issubclass(error_type, library_errors.AsesoriaError)
    assert getattr(langchain_asesoria_eval, name) is error_type
    error = error_type("no cuadra", source="q.jsonl", position=3, expected="a span")
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), str(again), again.position) == (error_type, "q.jsonl: no cuadra", 3)


def test_the_library_names_them_and_defines_them_no_more() -> None:
    assert not set(errors.__all__) & set(library_errors.__all__)
    assert "langchain_asesoria_eval.errors" in (library_errors.__doc__ or "")
    for name in errors.__all__:
        assert name in (library_errors.__doc__ or "")
        assert name in (errors.__doc__ or "")


def _sources() -> list[tuple[str, str]]:
    return [(path.name, path.read_text(encoding="utf-8")) for path in MODULES]


def test_no_code_parses_an_error_message() -> None:
    parsing = [line for p, s in _sources() for line in read_messages(p, s, OURS).parsing]
    assert parsing == []


def test_the_text_of_the_errors_goes_only_where_it_is_listed() -> None:
    used = set().union(*(read_messages(p, s, OURS).text_uses for p, s in _sources()))
    assert sorted(used - set(TEXT_USES)) == []
    assert sorted(set(TEXT_USES) - used) == []  # a listed use that went away: drop it
