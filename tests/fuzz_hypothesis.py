"""A long Hypothesis run of the ``chunk_document`` fuzz test, where atheris does not install.

The same strategy and oracle as ``tests/test_fuzz.py`` (and ``fuzz_atheris.py``), with
many more examples per tokenization and no example database, so each run explores
fresh inputs (``--seed`` makes one reproducible)::

    python tests/fuzz_hypothesis.py --examples 20000 --seed 1

Prints, per tokenization, the inputs tried, the outcomes and the time; exits 1 with
Hypothesis' minimal falsifying example at the first failure.
"""

from __future__ import annotations

import argparse
import collections
import os
import time
from collections.abc import Sequence
from pathlib import Path

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from test_fuzz import check_fuzz_case, factories, fuzz_cases  # noqa: E402


def fuzz(name: str, examples: int, random_seed: int | None) -> collections.Counter[str]:
    factory = factories()[name]
    outcomes: collections.Counter[str] = collections.Counter()

    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        print_blob=True,
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        case = data.draw(fuzz_cases(factory), label="fuzz")
        check_fuzz_case(case)
        outcomes[case.outcome] += 1

    if random_seed is not None:
        run = seed(random_seed)(run)
    run()
    return outcomes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=5_000, help="per tokenization")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--tokenizations", nargs="*", default=None)
    args = parser.parse_args(argv)
    names = args.tokenizations or sorted(factories())
    total, started = 0, time.perf_counter()
    for name in names:
        begun = time.perf_counter()
        outcomes = fuzz(name, args.examples, args.seed)
        tried = sum(outcomes.values())
        total += tried
        tally = ", ".join(f"{key} {count}" for key, count in sorted(outcomes.items()))
        print(f"{name}: {tried} inputs in {time.perf_counter() - begun:.0f} s ({tally}): passed")
    print(f"total: {total} inputs in {time.perf_counter() - started:.0f} s, no failure")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
