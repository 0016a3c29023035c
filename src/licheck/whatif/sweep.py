"""Exact sweeps: where, over a range of one or two quantity facts, the verdicts change.

Clauses compare a quantity only with thresholds, so the thresholds of every clause that binds the
product cut the range into cells (each threshold itself, and the open intervals between them) in
which every test on the fact — hence every verdict — is constant.  One evaluation per cell is
therefore exact; neighbouring cells with the same verdicts merge.  A two-fact map is the product
of the two axes' cells (no clause compares one fact with another), so its cost depends on the
number of thresholds, never on the resolution it is drawn at.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from licheck.core.units import Dimension, format_amount
from licheck.core.verdicts import Verdict
from licheck.engine.cells import Rule
from licheck.engine.conditions import Test
from licheck.engine.domains import Interval
from licheck.engine.exact import cells
from licheck.evaluation.evaluate import ProductResult
from licheck.facts.resolution import FactState, Status
from licheck.vocabulary.names import AT_MOST
from licheck.whatif.compare import FindingKey


@dataclass(frozen=True, slots=True)
class Axis:
    fact: str
    lower: Fraction
    upper: Fraction
    dimension: Dimension
    # Values at which what is known of a related fact bounds this one (licensee_mau is 200M: mau
    # above it contradicts it), with the reason; the range is cut there too.
    bounds: tuple[tuple[Fraction, str], ...] = ()

    @property
    def domain(self) -> Interval:
        return Interval(self.lower, True, self.upper, True, self.dimension)

    def show(self, value: Fraction) -> str:
        return format_amount(value, self.dimension)


@dataclass(frozen=True, slots=True)
class Threshold:
    """A value at which some clause's test on the fact changes its answer."""

    value: Fraction
    tests: tuple[str, ...]  # "monthly_revenue > 20M USD/month"
    clauses: tuple[str, ...]  # "kimi-k2.5-modified-mit/ui-attribution"


@dataclass(frozen=True, slots=True)
class Verdicts:
    """The product's verdict and each finding's, in one cell."""

    product: Verdict
    findings: tuple[tuple[FindingKey, Verdict], ...]

    @classmethod
    def of(cls, result: ProductResult) -> Verdicts:
        return cls(result.verdict, tuple((f.key, f.verdict) for f in result.findings))


@dataclass(frozen=True, slots=True)
class Piece:
    region: Interval
    verdicts: Verdicts


@dataclass(frozen=True, slots=True)
class Sweep:
    """One fact: the range cut into merged intervals, in ascending order."""

    axis: Axis
    thresholds: tuple[Threshold, ...]
    pieces: tuple[Piece, ...]

    def boundaries(self) -> list[Fraction]:
        """Where the verdicts change: the upper end of every piece but the last."""
        return [p.region.hi for p in self.pieces[:-1] if p.region.hi is not None]


@dataclass(frozen=True, slots=True)
class RegionMap:
    """Two facts: merged intervals on each axis and the verdicts of each rectangle."""

    x: Axis
    y: Axis
    x_thresholds: tuple[Threshold, ...]
    y_thresholds: tuple[Threshold, ...]
    xs: tuple[Interval, ...]
    ys: tuple[Interval, ...]
    grid: tuple[tuple[Verdicts, ...], ...]  # grid[j][i]: ys[j] × xs[i]

    def at(self, x: Fraction | float, y: Fraction | float) -> Verdicts:
        return self.grid[locate(self.ys, y)][locate(self.xs, x)]


ClauseRules = Sequence[tuple[str, Rule]]  # ("license/clause", rule) of every binding clause
Evaluate = Callable[[Mapping[str, Interval]], Verdicts]


def related(fact: str) -> set[str]:
    """The fact and every fact that counts a part of it or more (`vocabulary.AT_MOST`: the
    product's users are among the licensee's): a value of one bounds the others, so their
    thresholds cut its range too."""
    found = {fact}
    grown = True
    while grown:
        grown = False
        for inner, outer in AT_MOST.items():
            if (inner in found) != (outer in found):
                found |= {inner, outer}
                grown = True
    return found


def known_bounds(fact: str, states: Iterable[FactState]) -> tuple[tuple[Fraction, str], ...]:
    """The ends of what is established of the facts related to `fact`: where a value of `fact`
    starts to contradict them (mau above licensee_mau), or stops."""
    names = related(fact) - {fact}
    found: dict[Fraction, str] = {}
    for given in states:
        if given.name not in names:
            continue
        # Today's value, and each month's where the manifest gives a series.
        readings = [("", given), *((f" in {month}", entry) for month, entry in given.series)]
        for when, state in readings:
            domain = state.domain
            if state.status is Status.ESTABLISHED and isinstance(domain, Interval):
                for value in (domain.lo, domain.hi):
                    if value is not None:
                        found.setdefault(value, f"{given.name}{when} is {domain}")
    return tuple(sorted(found.items()))


def tests_on(fact: str, rules: ClauseRules) -> list[tuple[str, Test]]:
    """The threshold tests that a value of `fact` can decide: on it or a related fact, today or
    at a past date (a what-if value holds at every date a clause measures it)."""
    facts = related(fact)
    return [
        (label, t)
        for label, rule in rules
        for t in rule.tests()
        if t.fact in facts and isinstance(t.operand, Fraction)
    ]


def thresholds(axis: Axis, rules: ClauseRules) -> tuple[Threshold, ...]:
    """Every threshold of the binding clauses on the axis's fact, within its range."""
    found: dict[Fraction, tuple[set[str], set[str]]] = {}
    for label, test in tests_on(axis.fact, rules):
        assert isinstance(test.operand, Fraction)
        if axis.domain.contains(test.operand):
            texts, clauses = found.setdefault(test.operand, (set(), set()))
            texts.add(str(test))
            clauses.add(label)
    for value, reason in axis.bounds:
        if axis.domain.contains(value):
            found.setdefault(value, (set(), set()))[0].add(reason)
    return tuple(
        Threshold(v, tuple(sorted(t)), tuple(sorted(c))) for v, (t, c) in sorted(found.items())
    )


def axis_cells(axis: Axis, rules: ClauseRules) -> list[Interval]:
    """The cells of the axis's range: its thresholds and the open intervals between them."""
    tests = [t for _, t in tests_on(axis.fact, rules)]
    tests += [Test(axis.fact, "at_most", value) for value, _ in axis.bounds]
    # A quantity's cells are intervals (the filter only tells the type checker so).
    return [c.region for c in cells(axis.domain, tests) if isinstance(c.region, Interval)]


def sweep(axis: Axis, rules: ClauseRules, evaluate: Evaluate) -> Sweep:
    """The verdicts over one fact's range, exactly: one evaluation per cell."""
    pieces = [Piece(region, evaluate({axis.fact: region})) for region in axis_cells(axis, rules)]
    return Sweep(axis, thresholds(axis, rules), tuple(_merge(pieces)))


def _merge(pieces: Sequence[Piece]) -> list[Piece]:
    merged: list[Piece] = []
    for piece in pieces:
        if merged and merged[-1].verdicts == piece.verdicts:
            merged[-1] = Piece(join(merged[-1].region, piece.region), piece.verdicts)
        else:
            merged.append(piece)
    return merged


def join(left: Interval, right: Interval) -> Interval:
    """Two adjacent intervals as one."""
    return Interval(left.lo, left.lo_closed, right.hi, right.hi_closed, left.dimension)


def region_map(x: Axis, y: Axis, rules: ClauseRules, evaluate: Evaluate) -> RegionMap:
    """The verdicts over two facts' ranges, exactly: one evaluation per pair of cells."""
    xs, ys = axis_cells(x, rules), axis_cells(y, rules)
    grid = [[evaluate({x.fact: xi, y.fact: yj}) for xi in xs] for yj in ys]
    # Merge neighbouring columns (then rows) whose verdicts agree all the way along.
    columns: list[tuple[Interval, list[Verdicts]]] = []
    for i, xi in enumerate(xs):
        column = [row[i] for row in grid]
        if columns and columns[-1][1] == column:
            columns[-1] = (join(columns[-1][0], xi), column)
        else:
            columns.append((xi, column))
    rows: list[tuple[Interval, list[Verdicts]]] = []
    for j, yj in enumerate(ys):
        row = [column[j] for _, column in columns]
        if rows and rows[-1][1] == row:
            rows[-1] = (join(rows[-1][0], yj), row)
        else:
            rows.append((yj, row))
    return RegionMap(
        x,
        y,
        thresholds(x, rules),
        thresholds(y, rules),
        tuple(c[0] for c in columns),
        tuple(r[0] for r in rows),
        tuple(tuple(r[1]) for r in rows),
    )


def locate(pieces: Sequence[Interval], value: Fraction | float) -> int:
    """The index of the piece holding `value` (contiguous pieces in ascending order)."""
    return locate_all(pieces, [value])[0]


def locate_all(pieces: Sequence[Interval], values: Sequence[Fraction | float]) -> list[int]:
    """The index of the piece holding each value: one binary search each."""
    if any(p.hi is None for p in pieces):
        raise ValueError("a swept range is bounded")
    his = [_plain(p.hi) for p in pieces if p.hi is not None]
    first, last = pieces[0], pieces[-1]
    lowest = _plain(first.lo)
    found = []
    for value in values:
        below = value < lowest or (value == lowest and not first.lo_closed)
        if below or value > his[-1] or (value == his[-1] and not last.hi_closed):
            raise ValueError(f"{value} is outside the swept range")
        index = bisect.bisect_left(his, value)
        # On a boundary: the piece that includes it (the next one when this one is open).
        if value == his[index] and not pieces[index].hi_closed:
            index += 1
        found.append(index)
    return found


def _plain(value: Fraction) -> Fraction | int:
    """A whole number as an int: comparing ints is many times faster than comparing Fractions."""
    return value.numerator if value.denominator == 1 else value


def raster(
    region: RegionMap, xs: Sequence[Fraction | float], ys: Sequence[Fraction | float]
) -> list[list[Verdict]]:
    """The product verdict at every grid point (rows follow `ys`), read off the exact map.

    Rows that fall in the same cell share one list: the cost grows with the grid's side, not its
    area."""
    columns = locate_all(region.xs, xs)
    cache: dict[int, list[Verdict]] = {}
    out = []
    for j in locate_all(region.ys, ys):
        if j not in cache:
            cells_row = region.grid[j]
            cache[j] = [cells_row[i].product for i in columns]
        out.append(cache[j])
    return out
