"""The exact sweep agrees with brute force: at random points inside every interval (and every
rectangle of a map), evaluating the product with the fact set to that point gives the interval's
verdicts — the product's and every finding's.

The points go through `--set` (text, parsed with its units), an independent path from the
sweep's cells.  A made-up license (tests/data/whatif_library) supplies many thresholds and every
comparison operator; the Composer 2 manifest and the real library are checked too.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from licheck.engine.domains import Interval
from licheck.whatif import Subject
from licheck.whatif.sweep import RegionMap, Sweep, Verdicts
from tests.whatif_helpers import BASELINES, made_up_subject, run, subject

M = 1_000_000
ENDS = [0, M, 5 * M, 10 * M, 20 * M, 25 * M, 50 * M, 100 * M, 700 * M, 1000 * M]
UNITS = {"mau": "", "monthly_revenue": " USD/month"}


def text(value: Fraction, fact: str) -> str:
    decimal = Decimal(value.numerator) / Decimal(value.denominator)
    return f"{fact}={decimal}{UNITS[fact]}"


def point_in(region: Interval, k: int) -> Fraction:
    """A point inside `region` (k in 0..1000 picks where), exact as a short decimal."""
    assert region.hi is not None
    candidate = region.lo + (region.hi - region.lo) * Fraction(k, 1000)
    if region.contains(candidate):
        return candidate
    return (region.lo + region.hi) / 2


def verdicts_at(base: Subject, sets: tuple[str, ...]) -> Verdicts:
    return Verdicts.of(run(base, sets=sets).scenario)


ranges = st.tuples(st.sampled_from(ENDS), st.sampled_from(ENDS)).filter(lambda r: r[0] < r[1])


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    baseline=st.integers(0, len(BASELINES) - 1),
    fact=st.sampled_from(["mau", "monthly_revenue"]),
    span=ranges,
    other=st.one_of(st.none(), st.sampled_from(ENDS)),
    picks=st.lists(st.integers(0, 1000), min_size=8, max_size=8),
)
def test_sweep_intervals_equal_point_evaluations(
    baseline: int, fact: str, span: tuple[int, int], other: int | None, picks: list[int]
) -> None:
    base = made_up_subject(baseline)
    other_fact = "monthly_revenue" if fact == "mau" else "mau"
    sets = () if other is None else (text(Fraction(other), other_fact),)
    low, high = span
    sweep = f"{fact}={low}{UNITS[fact]}..{high}{UNITS[fact]}"
    swept = run(base, sets=sets, sweeps=(sweep,)).sweep
    assert isinstance(swept, Sweep)
    assert swept.pieces[0].region.lo == low and swept.pieces[-1].region.hi == high
    for piece, k in zip(swept.pieces, picks * len(swept.pieces), strict=False):
        value = point_in(piece.region, k)
        assert verdicts_at(base, (*sets, text(value, fact))) == piece.verdicts, (
            f"{fact}={value} in {piece.region}"
        )
    # Neighbouring intervals differ (else they would have merged), and they tile the range.
    for left, right in zip(swept.pieces, swept.pieces[1:], strict=False):
        assert left.verdicts != right.verdicts
        assert left.region.hi == right.region.lo and left.region.hi_closed != right.region.lo_closed


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(
    baseline=st.integers(0, len(BASELINES) - 1),
    x_span=ranges,
    y_span=ranges,
    picks=st.lists(st.tuples(st.integers(0, 1000), st.integers(0, 1000)), min_size=4, max_size=4),
)
def test_map_rectangles_equal_point_evaluations(
    baseline: int, x_span: tuple[int, int], y_span: tuple[int, int], picks: list[tuple[int, int]]
) -> None:
    base = made_up_subject(baseline)
    swept = run(
        base,
        sweeps=(
            f"mau={x_span[0]}..{x_span[1]}",
            f"monthly_revenue={y_span[0]} USD/month..{y_span[1]} USD/month",
        ),
    ).sweep
    assert isinstance(swept, RegionMap)
    for j, row in enumerate(swept.ys):
        for i, column in enumerate(swept.xs):
            kx, ky = picks[(i + j) % len(picks)]
            x, y = point_in(column, kx), point_in(row, ky)
            expected = swept.grid[j][i]
            assert swept.at(x, y) == expected
            assert verdicts_at(base, (text(x, "mau"), text(y, "monthly_revenue"))) == expected


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(
    span=ranges,
    k=st.integers(0, 1000),
    fixed=st.sampled_from(["mau=50M", "mau=150M", "derivative=true", "agreement_waives=[]"]),
)
def test_composer2_revenue_sweep_equals_point_evaluations(
    span: tuple[int, int], k: int, fixed: str
) -> None:
    base = subject()
    low, high = span
    swept = run(base, sets=(fixed,), sweeps=(f"monthly_revenue={low}..{high}",)).sweep
    assert isinstance(swept, Sweep)
    for piece in swept.pieces:
        value = point_in(piece.region, k)
        assert verdicts_at(base, (fixed, text(value, "monthly_revenue"))) == piece.verdicts
