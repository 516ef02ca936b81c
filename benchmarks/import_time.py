"""Import time of ``AsesoriaTextSplitter`` against LangChain's own splitter, in fresh interpreters.

Each statement runs in a new ``python -c`` process, ``--repeat`` times, alternating, so
that a machine's load falls on both alike; the medians are compared. Bytecode is
written and read (into a temporary ``PYTHONPYCACHEPREFIX``, filled by a first run of
each statement), as for an installed package, whose bytecode pip compiles: with
``PYTHONDONTWRITEBYTECODE`` set, a source checkout would compile every module on every
import, which LangChain's installed modules never do::

    python -m benchmarks.import_time --repeat 11
    python -m benchmarks.import_time --repeat 11 --heaviest 25   # what ours loads on top

``--heaviest N`` runs ours once more under ``-X importtime`` and lists the N modules with
the longest own import time among those LangChain's statement does not load: the
place to look when the ratio grows. Nothing here asserts a speed;
``tests/test_public_api.py`` asserts which heavy modules the import leaves unloaded.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from typing import Final

#: name -> the statement whose import time is measured.
STATEMENTS: Final = {
    "langchain-asesoria": "from langchain_asesoria import AsesoriaTextSplitter",
    "langchain-text-splitters": (
        "from langchain_text_splitters import RecursiveCharacterTextSplitter"
    ),
}
OURS: Final = "langchain-asesoria"
THEIRS: Final = "langchain-text-splitters"

_TIMED: Final = (
    "import time; _t = time.perf_counter(); {statement}; print(time.perf_counter() - _t)"
)
_MODULES: Final = "import sys; {statement}; print('\\n'.join(sys.modules))"


#: Where the fresh interpreters keep their bytecode (see the module docstring).
_BYTECODE: Final = tempfile.mkdtemp(prefix="import-time-pycache-")


def _environment() -> dict[str, str]:
    environment = {**os.environ, "PYTHONPYCACHEPREFIX": _BYTECODE}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment


def _python(code: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *flags, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=_environment(),
    )


def seconds(statement: str) -> float:
    """The time one fresh interpreter takes to run ``statement``."""
    return float(_python(_TIMED.format(statement=statement)).stdout.strip())


def medians(repeat: int) -> dict[str, float]:
    """Median seconds per statement, over ``repeat`` fresh interpreters each."""
    for statement in STATEMENTS.values():  # write the bytecode, warm the file cache
        seconds(statement)
    runs: dict[str, list[float]] = {name: [] for name in STATEMENTS}
    for _ in range(repeat):
        for name, statement in STATEMENTS.items():
            runs[name].append(seconds(statement))
    return {name: statistics.median(values) for name, values in runs.items()}


def heaviest(count: int) -> list[tuple[str, int]]:
    """Modules ours loads and LangChain's statement does not, by own import time (µs)."""
    theirs = set(_python(_MODULES.format(statement=STATEMENTS[THEIRS])).stdout.split())
    seconds(STATEMENTS[OURS])  # its bytecode written, if --repeat did not
    report = _python(STATEMENTS[OURS], "-X", "importtime").stderr
    own: list[tuple[str, int]] = []
    for line in report.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, _, name = line.removeprefix("import time:").split("|")
        module = name.strip()
        if module not in theirs:
            own.append((module, int(self_us)))
    return sorted(own, key=lambda row: -row[1])[:count]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11, help="fresh interpreters each")
    parser.add_argument("--heaviest", type=int, default=0, help="list the N heaviest of ours")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    arguments = parser.parse_args(argv)
    result = medians(arguments.repeat)
    ratio = result[OURS] / result[THEIRS]
    if arguments.json:
        print(json.dumps({"median_seconds": result, "ratio": ratio, "repeat": arguments.repeat}))
    else:
        for name, value in result.items():
            print(f"{name:26} {value * 1000:8.1f} ms  ({STATEMENTS[name]})")
        print(f"ratio {ratio:.2f} (median of {arguments.repeat} fresh interpreters each)")
    if arguments.heaviest:
        print(f"\nheaviest modules ours loads on top of {THEIRS}'s (own import time):")
        for module, micros in heaviest(arguments.heaviest):
            print(f"{micros / 1000:8.1f} ms  {module}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
