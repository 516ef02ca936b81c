"""Checks the built packages before anyone installs them (run by ``.ci/run``).

``python .ci/check_dist.py DIST`` looks at the wheels and source archives in ``DIST``:
the library's (``langchain_asesoria``, one of each, always) and the retrieval
evaluation's (``langchain_asesoria_eval``, built from ``evaluation/``, when there):

- a source archive holds no generated file: nothing ``.gitignore`` covers (asked of
  ``git check-ignore`` when this is a git checkout), no cache or bytecode, and none of
  what the docs' commands write (``chunks.jsonl``, ``ley.html``, ``eval/``, the site);
- a wheel holds its package and its metadata only, with ``py.typed`` (the library's
  also the inspector's page assets), and the license;
- the library's wheel holds no ``evaluation/``: the evaluation is its own distribution.

It exits 1 naming every file that should not be there (or that is missing).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "langchain_asesoria"
EVALUATION = "langchain_asesoria_eval"

#: Folders that only a tool leaves behind, wherever they are.
GENERATED_PARTS = frozenset(
    {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", ".git"}
)
#: Top folders that a build, an environment or the docs' commands write.
GENERATED_TOPS = frozenset({".venv", "venv", "site", "eval", "dist", "build", "out"})
#: File names the docs' commands write into the checkout.
GENERATED_NAMES = frozenset({"chunks.jsonl", "ley.html", "example.py", ".env"})
GENERATED_SUFFIXES = (".pyc", ".pyo", ".partial", ".chunks.html", ".egg-info")
#: What each distribution's wheel must hold besides its metadata, by import package.
WHEEL_MUST_HOLD = {
    PACKAGE: (f"{PACKAGE}/__init__.py", f"{PACKAGE}/py.typed", f"{PACKAGE}/cli/inspect.js"),
    EVALUATION: (f"{EVALUATION}/__init__.py", f"{EVALUATION}/py.typed", f"{EVALUATION}/cli.py"),
}
#: What the library's wheel must not hold: the lab, shipped as its own distribution.
NOT_IN_LIBRARY = (f"{PACKAGE}/evaluation/",)


def generated(names: Iterable[str]) -> list[str]:
    """The names (relative to the archive's top folder) that a build or a run made."""
    found = []
    for name in names:
        path = PurePosixPath(name)
        if (
            GENERATED_PARTS.intersection(path.parts)
            or (len(path.parts) > 1 and path.parts[0] in GENERATED_TOPS)
            or path.name in GENERATED_NAMES
            or path.name.endswith(GENERATED_SUFFIXES)
        ):
            found.append(name)
    return found


def git_ignored(names: list[str]) -> list[str]:
    """The names ``.gitignore`` covers (none when git or the checkout is absent)."""
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists() or not names:
        return []
    result = subprocess.run(
        [git, "check-ignore", "--no-index", "--stdin"],
        input="\n".join(names),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode not in (0, 1):  # 1: nothing ignored
        raise RuntimeError(f"git check-ignore failed: {result.stderr}")
    return result.stdout.split()


def sdist_problems(archive: Path) -> list[str]:
    """Every generated or ignored file in the source archive."""
    with tarfile.open(archive) as tar:
        members = [member.name for member in tar.getmembers() if member.isfile()]
    names = [name.partition("/")[2] for name in members]
    bad = set(generated(names)) | set(git_ignored(names))
    return [f"{archive.name}: {name} is generated" for name in sorted(bad)]


def wheel_problems(wheel: Path, package: str = PACKAGE) -> list[str]:
    """Files outside the package and its metadata, and files the package needs."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    problems = [
        f"{wheel.name}: {name} is outside the package"
        for name in names
        if not name.startswith((f"{package}/", ".dist-info/")) and ".dist-info/" not in name
    ]
    if package == PACKAGE:
        problems += [
            f"{wheel.name}: {name} is the evaluation, a distribution of its own (evaluation/)"
            for name in names
            if name.startswith(NOT_IN_LIBRARY)
        ]
    problems += [f"{wheel.name}: {name} is generated" for name in generated(names)]
    problems += [
        f"{wheel.name}: {name} is missing" for name in WHEEL_MUST_HOLD[package] if name not in names
    ]
    if not any(name.endswith(".dist-info/licenses/LICENSE") for name in names):
        problems.append(f"{wheel.name}: the license is missing")
    return problems


def main(argv: list[str]) -> int:
    """Checks the wheels and the source archives in the folder ``argv[0]``: the library's
    pair, and the evaluation's when it was built too."""
    dist = Path(argv[0])
    problems: list[str] = []
    checked: list[str] = []
    for package in WHEEL_MUST_HOLD:
        wheels = sorted(dist.glob(f"{package}-*.whl"))
        sdists = sorted(dist.glob(f"{package}-*.tar.gz"))
        if package == EVALUATION and not wheels and not sdists:
            continue
        if len(wheels) != 1 or len(sdists) != 1:
            problems.append(f"{dist}: not one wheel and one source archive of {package}")
            continue
        (wheel,), (sdist,) = wheels, sdists
        problems += wheel_problems(wheel, package) + sdist_problems(sdist)
        checked += [wheel.name, sdist.name]
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"{', '.join(checked)}: no generated file, nothing missing")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
