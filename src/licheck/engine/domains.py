"""What is known about one fact's value: the set of values still possible.

A domain is an interval for quantities, a set of booleans, one string or any, or a partly known set
of strings.  Knowledge from several pieces of evidence is combined by intersection; an empty
intersection means the evidence contradicts itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from licheck.core.units import Dimension, format_amount


@dataclass(frozen=True, slots=True)
class Interval:
    """Values between `lo` and `hi` (None: unbounded above), each end open or closed."""

    lo: Fraction
    lo_closed: bool
    hi: Fraction | None
    hi_closed: bool
    dimension: Dimension = Dimension.COUNT

    @classmethod
    def point(cls, value: Fraction, dimension: Dimension) -> Interval:
        return cls(value, True, value, True, dimension)

    @classmethod
    def everything(cls, dimension: Dimension) -> Interval:
        return cls(Fraction(0), True, None, False, dimension)

    def is_empty(self) -> bool:
        if self.hi is None:
            return False
        return self.lo > self.hi or (self.lo == self.hi and not (self.lo_closed and self.hi_closed))

    def is_point(self) -> bool:
        return self.hi is not None and self.lo == self.hi and self.lo_closed and self.hi_closed

    def contains(self, value: Fraction) -> bool:
        above = value > self.lo or (self.lo_closed and value == self.lo)
        below = self.hi is None or value < self.hi or (self.hi_closed and value == self.hi)
        return above and below

    def intersect(self, other: Interval) -> Interval:
        if (other.lo, not other.lo_closed) > (self.lo, not self.lo_closed):
            lo, lo_closed = other.lo, other.lo_closed
        else:
            lo, lo_closed = self.lo, self.lo_closed
        hi, hi_closed = self.hi, self.hi_closed
        if other.hi is not None and (hi is None or (other.hi, other.hi_closed) < (hi, hi_closed)):
            hi, hi_closed = other.hi, other.hi_closed
        return Interval(lo, lo_closed, hi, hi_closed, self.dimension)

    def sample(self) -> Fraction:
        """A value inside a non-empty interval (its midpoint, or just above an unbounded one)."""
        if self.hi is None:
            return self.lo + 1 if not self.lo_closed else self.lo
        if self.lo == self.hi:
            return self.lo
        return (self.lo + self.hi) / 2

    def whole_bounds(self) -> tuple[int, int | None]:
        """The least and greatest whole numbers inside (None: unbounded above)."""
        low = math.ceil(self.lo) if self.lo_closed else math.floor(self.lo) + 1
        if self.hi is None:
            return low, None
        return low, math.floor(self.hi) if self.hi_closed else math.ceil(self.hi) - 1

    def whole_sample(self) -> Fraction | None:
        """A whole number inside (for counts), or None when there is none."""
        low, high = self.whole_bounds()
        if high is None:
            return Fraction(low)
        return Fraction(low + (high - low) // 2) if low <= high else None

    def __str__(self) -> str:
        return self.shown()

    def shown(self, months: int = 1) -> str:
        """The interval in words, money shown per `months` (a fact's own period: ARR per year)."""

        def show(value: Fraction) -> str:
            return format_amount(value, self.dimension, months)

        if self.is_point():
            return show(self.lo)
        if self.hi is None:
            return f"{'≥' if self.lo_closed else '>'} {show(self.lo)}"
        if self.lo == 0 and self.lo_closed:
            return f"{'≤' if self.hi_closed else '<'} {show(self.hi)}"
        left = "[" if self.lo_closed else "("
        right = "]" if self.hi_closed else ")"
        return f"{left}{show(self.lo)}, {show(self.hi)}{right}"


@dataclass(frozen=True, slots=True)
class Booleans:
    values: frozenset[bool]

    def intersect(self, other: Booleans) -> Booleans:
        return Booleans(self.values & other.values)

    def is_empty(self) -> bool:
        return not self.values

    def __str__(self) -> str:
        if len(self.values) == 1:
            return "true" if next(iter(self.values)) else "false"
        return "unknown"


@dataclass(frozen=True, slots=True)
class Strings:
    """One known string, or any (`value` None)."""

    value: str | None
    empty: bool = False

    def intersect(self, other: Strings) -> Strings:
        if self.value is None:
            return other
        if other.value is None or other.value == self.value:
            return self
        return Strings(None, empty=True)

    def is_empty(self) -> bool:
        return self.empty

    def __str__(self) -> str:
        return "unknown" if self.value is None else repr(self.value)


@dataclass(frozen=True, slots=True)
class StringSet:
    """A set of strings known to include some and exclude others; `exact` when fully known."""

    includes: frozenset[str]
    excludes: frozenset[str]
    exact: bool

    def intersect(self, other: StringSet) -> StringSet:
        includes = self.includes | other.includes
        excludes = self.excludes | other.excludes
        exact = self.exact or other.exact
        if self.exact and other.exact and self.includes != other.includes:
            return StringSet(frozenset(), frozenset(), True)._contradiction()
        if exact:
            known = self.includes if self.exact else other.includes
            if not includes <= known:
                return self._contradiction()
            includes = known
        return StringSet(includes, excludes, exact)

    def _contradiction(self) -> StringSet:
        marker = frozenset({"\x00contradiction"})
        return StringSet(marker, marker, False)

    def is_empty(self) -> bool:
        return bool(self.includes & self.excludes)

    def __str__(self) -> str:
        if self.exact:
            return "[" + ", ".join(sorted(self.includes)) + "]"
        parts = []
        if self.includes:
            parts.append("includes " + ", ".join(repr(s) for s in sorted(self.includes)))
        if self.excludes:
            parts.append("excludes " + ", ".join(repr(s) for s in sorted(self.excludes)))
        return "; ".join(parts) if parts else "unknown"


Domain = Interval | Booleans | Strings | StringSet


def intersect(a: Domain, b: Domain) -> Domain:
    """The values both `a` and `b` allow (possibly empty: check `is_empty`)."""
    if isinstance(a, Interval) and isinstance(b, Interval):
        return a.intersect(b)
    if isinstance(a, Booleans) and isinstance(b, Booleans):
        return a.intersect(b)
    if isinstance(a, Strings) and isinstance(b, Strings):
        return a.intersect(b)
    if isinstance(a, StringSet) and isinstance(b, StringSet):
        return a.intersect(b)
    raise TypeError(f"cannot intersect {type(a).__name__} with {type(b).__name__}")
