"""Time a two-fact what-if map: exact cells against brute force.

For Composer 2 (with derivative=true and agreement_waives=[] set, so that the map has more than
one colour), over mau 1M..1000M × monthly_revenue 1M..100M USD/month, at 10×10, 100×100 and
1000×1000 grid points:

- exact: the cells cut by the clauses' thresholds, one product evaluation per cell, then the
  verdict of every grid point read off the cells (`whatif.sweep.region_map` + `raster`);
- brute force: one product evaluation per grid point.

Brute force over a million points takes hours, so by default it is timed on a random sample of
grid points (--sample, default 2500) and scaled up, and says so; --full evaluates every point.
Every brute-force point is also checked against the exact map.  Run from the repository root:

    PYTHONPATH=src python bench/whatif_map.py [--full] [--sample N] [--repeat N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

from licheck.core.units import Dimension
from licheck.engine.domains import Interval
from licheck.evaluation.evaluate import Options
from licheck.facts.evidencepolicy import POLICIES
from licheck.library.compiled import load_library
from licheck.loading.documents import load_manifest
from licheck.whatif import Scenario, Subject, binding_rules, evaluator
from licheck.whatif.scenario import apply
from licheck.whatif.spec import parse_assignment
from licheck.whatif.sweep import Axis, raster, region_map

ROOT = Path(__file__).resolve().parent.parent
X = Axis("mau", Fraction(1_000_000), Fraction(1_000_000_000), Dimension.COUNT)
Y = Axis("monthly_revenue", Fraction(1_000_000), Fraction(100_000_000), Dimension.MONEY)
SIDES = (10, 100, 1000)


def axis_points(axis: Axis, n: int) -> list[int]:
    """n grid values from the axis's lower to its upper end (whole units: the ends are whole)."""
    lower, span = int(axis.lower), int(axis.upper - axis.lower)
    return [lower + span * k // (n - 1) for k in range(n)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="brute-force every grid point")
    parser.add_argument(
        "--sample", type=int, default=2500, help="grid points timed by brute force when not --full"
    )
    parser.add_argument("--repeat", type=int, default=7, help="timings of each exact map")
    args = parser.parse_args()

    path = ROOT / "products" / "composer2.yaml"
    manifest, document = load_manifest(path, "products/composer2.yaml")
    subject = Subject(manifest, document, load_library(), Options(POLICIES["default"]))
    scenario = Scenario(
        (parse_assignment("derivative=true"), parse_assignment("agreement_waives=[]"))
    )
    applied = apply(subject, scenario)
    evaluate = evaluator(subject, applied)
    rules = binding_rules(subject, subject.evaluate(applied.options))

    def exact_map(n: int) -> list[list[object]]:
        cells = region_map(X, Y, rules, evaluate)
        return raster(cells, axis_points(X, n), axis_points(Y, n))  # type: ignore[return-value]

    exact_map(10)  # warm caches (imports, the rule library) before timing
    cells = region_map(X, Y, rules, evaluate)
    print(f"Composer 2, {X.fact} {X.lower}..{X.upper} × {Y.fact} {Y.lower}..{Y.upper} USD/month")
    print(
        f"exact map: {len(cells.xs)} × {len(cells.ys)} merged cells from "
        f"{sum(1 for _ in rules)} binding clauses\n"
    )
    header = (
        f"{'grid':>11}  {'exact map':>11}  {'vs 10×10':>8}  {'brute force':>13}  "
        f"{'per point':>9}  {'brute/exact':>11}  check"
    )
    print(header)
    print("-" * len(header))
    # Sizes take turns, so that a busy machine slows them alike; the least disturbed run counts.
    timings: dict[int, list[float]] = {n: [] for n in SIDES}
    for _ in range(args.repeat):
        for n in SIDES:
            start = time.perf_counter()
            exact_map(n)
            timings[n].append(time.perf_counter() - start)
    rng = random.Random(20260320)
    base_time = min(timings[SIDES[0]])
    failures = 0
    for n in SIDES:
        exact_time = min(timings[n])
        picture = exact_map(n)
        xs, ys = axis_points(X, n), axis_points(Y, n)
        points = [(i, j) for j in range(n) for i in range(n)]
        estimated = not args.full and len(points) > args.sample
        chosen = rng.sample(points, args.sample) if estimated else points
        start = time.perf_counter()
        mismatches = 0
        for i, j in chosen:
            verdict = evaluate(
                {
                    X.fact: Interval.point(Fraction(xs[i]), X.dimension),
                    Y.fact: Interval.point(Fraction(ys[j]), Y.dimension),
                }
            ).product
            mismatches += verdict is not picture[j][i]
        elapsed = time.perf_counter() - start
        per_point = elapsed / len(chosen)
        brute_time = per_point * len(points)
        failures += mismatches
        brute = f"{brute_time:12.1f}s" + ("*" if estimated else " ")
        check = f"{len(chosen) - mismatches}/{len(chosen)} agree"
        print(
            f"{n:>5}×{n:<5}  {exact_time * 1000:9.2f}ms  {exact_time / base_time:7.2f}×  "
            f"{brute}  {per_point * 1000:7.2f}ms  {brute_time / exact_time:10.0f}×  {check}"
        )
    if not args.full:
        print(
            f"\n* estimated: {args.sample} random grid points timed, scaled to the whole grid "
            "(--full evaluates every point)"
        )
    print(
        "Done when: 1000×1000 exact costs at most ~3× the 10×10 one, and at least 100× less "
        "than brute force."
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
