"""Import time of our LangChain classes against LangChain's own splitter, in fresh interpreters.

Each statement runs in a new ``python -c`` process, ``--repeat`` times, alternating, so
that a machine's load falls on all alike; the medians are compared. Bytecode is
written and read (into a temporary ``PYTHONPYCACHEPREFIX``, filled by a first run of
each statement), as for an installed package, whose bytecode pip compiles: with
``PYTHONDONTWRITEBYTECODE`` set, a source checkout would compile every module on every
import, which LangChain's installed modules never do::

    python -m benchmarks.import_time --repeat 11
    python -m benchmarks.import_time --repeat 11 --heaviest 25   # what ours loads on top
    python -m benchmarks.import_time --heaviest 25 --ours transformer

The statements: our splitter (``AsesoriaTextSplitter``, a ``TextSplitter``), our
transformer (``AsesoriaDocumentTransformer``, also a LangChain ``Runnable``), LangChain's
``RecursiveCharacterTextSplitter``, and LangChain's ``Runnable`` alone: the floor of any
class that is a ``Runnable`` (``langchain_core.runnables`` loads LangSmith's tracing).
``--heaviest N`` runs one of ours once more under ``-X importtime`` and lists the N
modules with the longest own import time among those LangChain's splitter does not load:
the place to look when the ratio grows. Nothing here asserts a speed;
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
    "splitter": "from langchain_asesoria import AsesoriaTextSplitter",
    "transformer": "from langchain_asesoria import AsesoriaDocumentTransformer",
    "langchain-text-splitters": (
        "from langchain_text_splitters import RecursiveCharacterTextSplitter"
    ),
    "langchain-runnable": "from langchain_core.runnables import Runnable",
}
#: Ours, each compared with LangChain's splitter.
OURS: Final = ("splitter", "transformer")
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


def heaviest(count: int, ours: str) -> list[tuple[str, int]]:
    """Modules ``ours`` loads and LangChain's splitter does not, by own import time (µs)."""
    theirs = set(_python(_MODULES.format(statement=STATEMENTS[THEIRS])).stdout.split())
    seconds(STATEMENTS[ours])  # its bytecode written, if --repeat did not
    report = _python(STATEMENTS[ours], "-X", "importtime").stderr
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
    parser.add_argument("--ours", choices=OURS, default="transformer", help="for --heaviest")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    arguments = parser.parse_args(argv)
    result = medians(arguments.repeat)
    ratios = {name: result[name] / result[THEIRS] for name in OURS}
    if arguments.json:
        print(json.dumps({"median_seconds": result, "ratio": ratios, "repeat": arguments.repeat}))
    else:
        for name, value in result.items():
            ratio = f"  ratio {ratios[name]:.2f}" if name in ratios else ""
            print(f"{name:26} {value * 1000:8.1f} ms{ratio}  ({STATEMENTS[name]})")
        print(f"(median of {arguments.repeat} fresh interpreters each; ratio to {THEIRS})")
    if arguments.heaviest:
        print(f"\nheaviest modules the {arguments.ours} loads on top of {THEIRS}'s:")
        for module, micros in heaviest(arguments.heaviest, arguments.ours):
            print(f"{micros / 1000:8.1f} ms  {module}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
