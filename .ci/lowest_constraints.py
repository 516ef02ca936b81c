"""Prints a pip constraints file pinning each runtime dependency to its declared lower bound.

    python .ci/lowest_constraints.py pdf > lowest.txt
    pip install -c lowest.txt -e '.[dev]'

Reads ``pyproject.toml``: the project's ``dependencies`` and the optional dependencies of
the extras named on the command line. Each requirement with a ``>=`` bound becomes
``name==bound``; one without a lower bound is left free (and reported on stderr), as
are the project's references to its own extras.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(.*)$")
_LOWER = re.compile(r">=\s*([^,;\s]+)")


def lowest(requirements: list[str], project: str) -> list[str]:
    """``name==lower bound`` for each requirement that declares one."""
    pins = []
    for requirement in requirements:
        match = _REQUIREMENT.match(requirement)
        if match is None:
            raise SystemExit(f"cannot read the requirement {requirement!r}")
        name, rest = match.groups()
        if name.lower() == project:
            continue
        bound = _LOWER.search(rest)
        if bound is None:
            print(f"no lower bound, left free: {requirement}", file=sys.stderr)
            continue
        pins.append(f"{name}=={bound.group(1)}")
    return pins


def main(extras: list[str]) -> None:
    root = Path(__file__).resolve().parent.parent
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = list(project["dependencies"])
    for extra in extras:
        requirements += project["optional-dependencies"][extra]
    for pin in sorted(set(lowest(requirements, project["name"].lower()))):
        print(pin)


if __name__ == "__main__":
    main(sys.argv[1:])
