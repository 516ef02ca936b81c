"""Which code reads the message of one of our errors, and where their text goes.

The check behind ``tests/test_errors.py`` (the library's code) and
``evaluation/tests/test_errors.py`` (the retrieval evaluation's): callers read an error's
attributes, never its message. ``read_messages(path, source, ours)`` walks one module,
``ours`` naming the error classes that count as ours.
"""

from __future__ import annotations

import ast
import re

#: The names an error goes by in the package's code: bound by ``except ... as``, or a
#: parameter so named or annotated.
_ERROR_NAMES = frozenset({"error", "err", "exc", "exception", "cause"})


class MessageReading(ast.NodeVisitor):
    """Finds code that reads an error's message (parsing) and uses of our errors' text.

    Parsing, never allowed: the text of an error (``str(e)``, ``repr(e)``, ``f"{e}"``,
    ``e.args``, or a variable assigned one of them) in a comparison (``==``, ``in``...),
    as the receiver of a method (``.startswith``, ``.split``...), or given to ``re``;
    and ``type(e)(...)``, an error rebuilt from a message. Text uses: any other place
    the text of one of the package's own errors goes (checked against ``TEXT_USES``).
    """

    def __init__(self, path: str, ours: frozenset[str]) -> None:
        self.path = path
        self.our_errors = ours
        self.function = "<module>"
        self.ours: dict[str, bool] = {}  # error name -> is one of the package's errors
        self.texts: set[str] = set()  # variables holding an error's text
        self.parsing: list[str] = []
        self.text_uses: set[tuple[str, str]] = set()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        outer = (self.function, self.ours, self.texts)
        self.function, self.ours, self.texts = node.name, dict(self.ours), set()
        for argument in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs):
            annotation = ast.unparse(argument.annotation) if argument.annotation else ""
            if argument.arg in _ERROR_NAMES or re.search(r"Error|Exception|\b_E\b", annotation):
                named = set(re.findall(r"\w+", annotation))
                self.ours[argument.arg] = bool(named & self.our_errors)
        self.generic_visit(node)
        self.function, self.ours, self.texts = outer

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self.visit_FunctionDef(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name is not None:
            caught = (
                {
                    n.id if isinstance(n, ast.Name) else getattr(n, "attr", "")
                    for n in ast.walk(node.type)
                }
                if node.type
                else set()
            )
            self.ours[node.name] = bool(caught & self.our_errors)
        self.generic_visit(node)

    def _error(self, node: ast.expr) -> str | None:
        """The error whose text ``node`` is, if it is one."""
        if isinstance(node, ast.Name):
            return node.id if node.id in self.texts else None
        if isinstance(node, ast.Subscript):  # error.args[0]
            return self._error(node.value)
        candidates: list[ast.expr] = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in ("str", "repr"):
                candidates = node.args[:1]
        elif isinstance(node, ast.JoinedStr):
            candidates = [v.value for v in node.values if isinstance(v, ast.FormattedValue)]
        elif isinstance(node, ast.Attribute) and node.attr == "args":
            candidates = [node.value]
        for candidate in candidates:
            if isinstance(candidate, ast.Name) and candidate.id in self.ours:
                return candidate.id
        return None

    def _flag(self, node: ast.AST, what: str) -> None:
        self.parsing.append(f"{self.path}:{getattr(node, 'lineno', '?')} {what}")

    def visit_Assign(self, node: ast.Assign) -> None:
        if self._error(node.value) is not None:
            self.texts |= {target.id for target in node.targets if isinstance(target, ast.Name)}
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        for part in (node.left, *node.comparators):
            if any(self._error(n) is not None for n in ast.walk(part) if isinstance(n, ast.expr)):
                self._flag(node, "compares an error's message")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        function = node.func
        if isinstance(function, ast.Attribute) and self._error(function.value) is not None:
            self._flag(node, f"calls .{function.attr}() on an error's message")
        is_re = isinstance(function, ast.Attribute) and ast.unparse(function.value) == "re"
        if is_re and any(self._error(argument) is not None for argument in node.args):
            self._flag(node, f"{ast.unparse(function)}() on an error's message")
        if isinstance(function, ast.Call) and ast.unparse(function.func) == "type":
            rebuilt = function.args[:1]
            if any(isinstance(a, ast.Name) and a.id in self.ours for a in rebuilt):
                self._flag(node, "rebuilds an error with type(error)(...)")
        self.generic_visit(node)

    def generic_visit(self, node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr) and not isinstance(child, ast.Name):
                name = self._error(child)
                if name is not None and self.ours.get(name):
                    self.text_uses.add((self.path, self.function))
        super().generic_visit(node)


def read_messages(path: str, source: str, ours: frozenset[str]) -> MessageReading:
    """What ``source`` (the module at ``path``) does with the text of the errors ``ours``."""
    visitor = MessageReading(path, ours)
    visitor.visit(ast.parse(source))
    return visitor
