"""Geometry shared by the what-if pictures (terminal map, SVG): axis scales and the lookup of a
value in a sweep's intervals.  Only placement: verdicts come from the report as they are."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from licheck.whatif.report import RangeOut, RegionOut

LOG_RATIO = 100  # a range spanning two orders of magnitude or more is drawn on a log scale


Number = Fraction | int | float | str


@dataclass(frozen=True, slots=True)
class Scale:
    """Maps an axis's range onto [0, 1], linearly or logarithmically.

    The ends are exact: a sweep may span any accepted value (a count of thirty digits and a
    suffix, an amount converted at a rate of 1e308 or 5e-324), far beyond a float's range or
    below its resolution.  Positions are computed exactly (linear) or from the logarithms of
    the exact numerator and denominator (log), so they never overflow or divide by zero."""

    lower: Fraction
    upper: Fraction
    log: bool

    @classmethod
    def of(cls, lower: Number, upper: Number) -> Scale:
        low, high = Fraction(lower), Fraction(upper)
        return cls(low, high, low > 0 and high >= low * LOG_RATIO)

    @classmethod
    def over(cls, ranges: Sequence[RangeOut]) -> Scale:
        """The scale of an axis cut into `ranges` (contiguous, ascending), from their exact
        ends (the axis's JSON numbers are rounded: a tiny range would collapse to 0..0)."""
        return cls.of(exact(ranges[0].lower.exact), exact(ranges[-1].upper.exact))

    def position(self, value: Number) -> float:
        """Where `value` is, from 0 (lower end) to 1 (upper end); clamped to the range."""
        point = min(max(Fraction(value), self.lower), self.upper)
        if self.upper == self.lower:
            return 0.0
        if self.log:
            base = _log(self.lower)
            return (_log(point) - base) / (_log(self.upper) - base)
        return float((point - self.lower) / (self.upper - self.lower))

    def value(self, position: float) -> Fraction:
        """The value at `position` (0 to 1), exactly on a linear scale."""
        if self.log:
            base = _log(self.lower)
            return _exp(base + position * (_log(self.upper) - base))
        return self.lower + Fraction(position) * (self.upper - self.lower)

    @property
    def name(self) -> str:
        return "log scale" if self.log else "linear scale"


def _log(value: Fraction) -> float:
    """The natural logarithm of a positive fraction of any size (`math.log` takes big ints)."""
    return math.log(value.numerator) - math.log(value.denominator)


def _exp(power: float) -> Fraction:
    """e ** `power` as a fraction, for powers whose result a float cannot hold."""
    twos = math.floor(power / math.log(2))
    return Fraction(math.exp(power - twos * math.log(2))) * Fraction(2) ** twos


def exact(text: str) -> Fraction:
    return Fraction(text)


def locate(ranges: Sequence[RangeOut], value: Number) -> int:
    """The index of the range holding `value` (ranges contiguous, ascending); the nearest end
    when rounding put it just outside."""
    point = Fraction(value)
    for index, item in enumerate(ranges):
        upper = exact(item.upper.exact)
        if point < upper or (point == upper and item.upper.included):
            return index
    return len(ranges) - 1


def grid(
    regions: Sequence[RegionOut],
) -> tuple[list[RangeOut], list[RangeOut], list[list[RegionOut]]]:
    """A map's x ranges, y ranges and rectangles (`rows[j][i]`), from the report's list (rows of
    y, each in ascending x)."""
    columns = sum(1 for r in regions if r.y == regions[0].y)
    rows = [list(regions[k : k + columns]) for k in range(0, len(regions), columns)]
    return [r.x for r in rows[0]], [row[0].y for row in rows], rows
