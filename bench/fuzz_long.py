"""The long fuzz run: the mutations of tests/regression/test_fuzz.py, many more of them.

    PYTHONPATH=src:. python bench/fuzz_long.py            # 20,000 manifests, 10,000 rule files...
    PYTHONPATH=src:. python bench/fuzz_long.py --scale 5  # five times as many
    PYTHONPATH=src:. python bench/fuzz_long.py --seed 42  # reproducible

Every case must end with exit code 0, 1 or 2 and no traceback; a failure stops the run with
Hypothesis's smallest reproducing input.  Prints the number of cases, the time, and the exit codes.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

sys.path[:0] = [
    str(Path(__file__).resolve().parent.parent),
    str(Path(__file__).resolve().parent.parent / "src"),
]

from tests import test_fuzz as fuzz  # noqa: E402  (after the path set-up)


def campaign(
    name: str,
    cases: int,
    strategy: st.SearchStrategy[Any],
    check: Callable[[Any], object],
    chosen_seed: int | None,
) -> None:
    def body(value: Any) -> None:
        check(value)

    test = settings(
        max_examples=cases, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )(given(strategy)(body))
    if chosen_seed is not None:
        test = seed(chosen_seed)(test)
    started = time.perf_counter()
    before = sum(fuzz.COUNT.cases.values())
    test()
    done = sum(fuzz.COUNT.cases.values()) - before
    elapsed = time.perf_counter() - started
    print(
        f"{name:<14} {done:>8,} cases  {elapsed:7.1f} s  {done / elapsed:7.1f} cases/s", flush=True
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every case count")
    parser.add_argument("--seed", type=int, default=None, help="Hypothesis seed")
    args = parser.parse_args()

    def n(base: int) -> int:
        return max(1, int(base * args.scale))

    manifest_commands = st.sampled_from(
        [
            ["validate"],
            ["evaluate", "--format", "json"],
            ["evaluate", "--evidence", "strict", "--format", "json"],
            ["evaluate", "--evidence", "estimates"],
            ["evaluate", "--as-of", "2026-03-19"],
        ]
    )
    started = time.perf_counter()
    campaign(
        "manifests",
        n(20_000),
        st.tuples(fuzz.mutated(fuzz.MANIFESTS), manifest_commands),
        lambda case: fuzz.run_cli(case[0], case[1], "manifests"),
        args.seed,
    )
    campaign(
        "rule files",
        n(10_000),
        fuzz.mutated(fuzz.RULE_FILES),
        lambda text: fuzz.run_cli(text, ["validate", "--kind", "license"], "rule files"),
        args.seed,
    )
    campaign(
        "catalogs",
        n(3_000),
        fuzz.mutated([fuzz.CATALOG]),
        lambda text: fuzz.run_cli(text, ["validate", "--kind", "catalog"], "catalogs"),
        args.seed,
    )
    campaign(
        "garbage",
        n(5_000),
        st.tuples(
            st.one_of(st.binary(max_size=2000), st.text(max_size=2000).map(str.encode)),
            st.sampled_from(["manifest", "license", "catalog"]),
        ),
        lambda case: fuzz.run_cli(case[0], ["validate", "--kind", case[1]], "garbage"),
        args.seed,
    )
    total = sum(fuzz.COUNT.cases.values())
    elapsed = time.perf_counter() - started
    codes = ", ".join(f"exit {c}: {k:,}" for c, k in sorted(fuzz.COUNT.codes.items()))
    print(
        f"{'total':<14} {total:>8,} cases  {elapsed:7.1f} s  ({codes}); no traceback, "
        "no exit code outside 0-2"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
