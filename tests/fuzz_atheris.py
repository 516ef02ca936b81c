"""Coverage-guided fuzzing of ``chunk_document``: libFuzzer (atheris) drives Hypothesis.

Each byte string libFuzzer produces is decoded by Hypothesis (``fuzz_one_input``) into
the same structured input as ``tests/test_fuzz.py`` (random Unicode cut into pages,
page numbers possibly malformed, valid or wild section spans, a random budget, the
byte, word-piece or real MiniLM tokenizer) and checked by the same oracle: exactly
``InvalidPagesError``/``InvalidSectionsError`` for malformed input, a justified budget
error, or chunks on which every invariant of the contract holds. libFuzzer keeps the
inputs that reach new branches of ``langchain_asesoria`` (instrumented on import) and
mutates them further. Any other exception, or a broken invariant, stops the run and
leaves a ``crash-*`` file that reproduces it.

Usage (see ``benchmarks/FUZZING.md``)::

    pip install atheris
    mkdir -p /tmp/asesoria-corpus
    python tests/fuzz_atheris.py /tmp/asesoria-corpus -max_total_time=600 \\
        -print_final_stats=1

Every ``--report-every`` inputs (default 2000) a line with the inputs tried, the time
and the outcomes so far goes to stderr; libFuzzer's final stats give the total
(``stat::number_of_executed_units``).
"""

from __future__ import annotations

import collections
import os
import sys
import time
from pathlib import Path

import atheris

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")

with atheris.instrument_imports(include=["langchain_asesoria"]):
    import langchain_asesoria  # noqa: F401 - instrumented before the tests import it

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_fuzz import check_fuzz_case, factories, fuzz_cases  # noqa: E402

FACTORIES = factories()
OUTCOMES: collections.Counter[str] = collections.Counter()
STARTED = time.perf_counter()
REPORT_EVERY = 2000


@settings(
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def fuzz_chunk_document(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(FACTORIES)), label="tokenization")
    fuzz = data.draw(fuzz_cases(FACTORIES[name]), label="fuzz")
    check_fuzz_case(fuzz)
    OUTCOMES[f"{name}: {fuzz.outcome}"] += 1


def test_one_input(buffer: bytes) -> None:
    """One libFuzzer input; bytes too short for a whole case count as tried, not checked."""
    OUTCOMES["tried"] += 1
    fuzz_chunk_document.hypothesis.fuzz_one_input(buffer)  # type: ignore[attr-defined]
    tried = OUTCOMES["tried"]
    if tried % REPORT_EVERY == 0:
        elapsed = time.perf_counter() - STARTED
        checked = sum(count for key, count in OUTCOMES.items() if key != "tried")
        tally = ", ".join(f"{k} {c}" for k, c in sorted(OUTCOMES.items()) if k != "tried")
        print(
            f"[asesoria] {tried} inputs tried, {checked} checked in {elapsed:.0f} s: {tally}",
            file=sys.stderr,
            flush=True,
        )


def main() -> None:
    global REPORT_EVERY
    argv = list(sys.argv)
    if "--report-every" in argv:
        index = argv.index("--report-every")
        REPORT_EVERY = int(argv[index + 1])
        del argv[index : index + 2]
    print(f"[asesoria] tokenizations: {', '.join(sorted(FACTORIES))}", file=sys.stderr)
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
