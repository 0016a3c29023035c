"""Geometry shared by the what-if pictures (terminal map, SVG): axis scales and the lookup of a
value in a sweep's intervals.  Only placement: verdicts come from the report as they are."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from licheck.whatif.report import RangeOut, RegionOut

LOG_RATIO = 100  # a range spanning two orders of magnitude or more is drawn on a log scale


@dataclass(frozen=True, slots=True)
class Scale:
    """Maps an axis's range onto [0, 1], linearly or logarithmically."""

    lower: float
    upper: float
    log: bool

    @classmethod
    def of(cls, lower: float, upper: float) -> Scale:
        return cls(float(lower), float(upper), lower > 0 and upper / lower >= LOG_RATIO)

    def position(self, value: float) -> float:
        if self.log:
            span = math.log(self.upper) - math.log(self.lower)
            return (math.log(max(value, self.lower)) - math.log(self.lower)) / span
        return (value - self.lower) / (self.upper - self.lower)

    def value(self, position: float) -> float:
        if self.log:
            return math.exp(
                math.log(self.lower) + position * (math.log(self.upper) - math.log(self.lower))
            )
        return self.lower + position * (self.upper - self.lower)

    @property
    def name(self) -> str:
        return "log scale" if self.log else "linear scale"


def exact(text: str) -> Fraction:
    return Fraction(text)


def locate(ranges: Sequence[RangeOut], value: float) -> int:
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
