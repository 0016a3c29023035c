"""How a quantity fact's stated figures become the values it allows, honest about periods.

A monthly fact (`monthly_revenue`) may be stated per year.  ARR counts only the recurring part of
the current month, so a twelfth of it bounds the month from below; a year's total gives the
average month, not the latest one, so it bounds nothing, and the average is kept as the *likely*
value (shown, never decisive).  The figures as written are kept for the report.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from licheck.core.context import EvaluationContext
from licheck.core.units import Dimension, Stated, UnitError, parse_stated
from licheck.engine.domains import Domain, Interval
from licheck.vocabulary.factdefs import FactDef

# The facts that total a period longer than a month (a year's revenue, the highest 12 months'):
# a figure for part of the period (a month) is part of the total.  ARR is no total: a month's
# recurring revenue times twelve is its very definition.
PERIOD_TOTALS = frozenset({"licensee_annual_revenue", "licensee_peak_12_month_revenue"})


def _in_period(domain: Domain, months: int) -> str:
    return domain.shown(months) if isinstance(domain, Interval) else str(domain)


class FactError(ValueError):
    """A fact's value cannot be read: `path` is relative to the fact."""

    def __init__(self, message: str, path: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.path = path


@dataclass(frozen=True, slots=True)
class QuantityReading:
    """A quantity fact's claim: the values it allows, and, where it was stated for a longer
    period than the fact's own (a year's total for a monthly fact), the conventional reading
    (the average month) as a likely value, with the figures as written for the report."""

    domain: Domain
    average: Domain | None = None
    stated: tuple[Stated, ...] = ()
    longer: bool = False  # stated for a longer period than the (monthly) fact's own
    months: int = 1  # the fact's own period: money is shown per it (ARR per year)

    def shown(self) -> str:
        """The claim, normalised, as the report states it (and a waiver pins it), money in the
        fact's own period."""
        if self.average is None:
            return _in_period(self.domain, self.months)
        return f"{_in_period(self.average, self.months)} on average"

    def written(self) -> str | None:
        """The figures in the currency and period they were stated in, where that differs from
        the normalised claim as shown (`units.Stated.as_written`); None where it does not (ARR
        stated for an ARR fact, shown per year)."""
        if not any(s.converted() for s in self.stated):
            return None
        own = all(s.rate is None and s.months == self.months for s in self.stated)
        if own and self.months != 1:
            return None
        rates = {s.rate_words() for s in self.stated}
        if len(rates) > 1:  # two currencies: each with its own rate
            return " to ".join(s.as_written() for s in self.stated)
        return " to ".join(s.figure() for s in self.stated) + rates.pop()

    def reading(self, name: str) -> str | None:
        """The figures as written beside the normalised ones, where they differ, and why a
        yearly figure for a monthly fact is a bound, not a point."""
        written = " to ".join(map(str, self.stated))
        if self.longer and any(s.recurring for s in self.stated):
            return (
                f"{name} is stated as ARR ({written}): ARR counts only recurring revenue, so a "
                f"twelfth of it bounds a month's revenue from below ({self.domain})."
            )
        if self.longer:
            return (
                f"{name} is stated for a year ({written}): a year's total gives the average "
                f"month ({self.average}), not the latest one, so the average is shown as likely "
                "but does not decide the verdict."
            )
        if any(s.rate is not None for s in self.stated):
            return f"{name} is stated as {written}: {self.domain}."
        return None


def quantity_reading(
    definition: FactDef,
    value: Any,
    at_least: Any,
    at_most: Any,
    rates: dict[str, Fraction],
    memo: EvaluationContext | None,
) -> QuantityReading | None:
    dimension = definition.dimension or Dimension.COUNT

    def read(raw: Any, key: str) -> Stated:
        try:
            return parse_stated(
                raw,
                dimension,
                default_period_months=definition.period_months,
                rates=rates,
                memo=memo,
            )
        except UnitError as exc:
            raise FactError(f"{definition.name}: {exc}", (key,)) from None

    if value is not None:
        if at_least is not None or at_most is not None:
            raise FactError(
                "give either a value or a range (at_least / at_most), not both", ("value",)
            )
        stated = read(value, "value")
        return _period_reading(definition, stated, stated)
    if at_least is None and at_most is None:
        return None
    low = read(at_least, "at_least") if at_least is not None else None
    high = read(at_most, "at_most") if at_most is not None else None
    lo = low.quantity.amount if low is not None else Fraction(0)
    hi = high.quantity.amount if high is not None else None
    if hi is not None and lo > hi and _comparable(definition, low, high):
        raise FactError(
            f"the range is empty: at_least {at_least} is more than at_most {at_most}", ("at_least",)
        )
    return _period_reading(definition, low, high)


def _kind(stated: Stated) -> str:
    """How a figure for a monthly fact reads: a month, ARR (a floor for the month) or a longer
    period's total (the average month only)."""
    if stated.recurring:
        return "arr"
    return "month" if stated.months == 1 else "total"


def _comparable(definition: FactDef, low: Stated | None, high: Stated | None) -> bool:
    """Whether the two ends of a range bound the same thing, so that a low end above the high
    one is a contradiction: for a monthly fact, a month beside a year's total is not (a year of
    240M USD, 20M a month on average, holds a month of 25M)."""
    if definition.period_months != 1 or low is None or high is None:
        return True
    kinds = (_kind(low), _kind(high))
    return kinds[0] == kinds[1] or kinds in (("month", "month"), ("arr", "month"))


def _period_reading(
    definition: FactDef, low: Stated | None, high: Stated | None
) -> QuantityReading:
    """The claim `[low, high]`, honest about periods: for a monthly fact, ARR bounds the month
    from below (it counts the recurring part only), and a year's total bounds nothing (it gives
    the average month, not the latest one): the average becomes the likely value."""
    dimension = definition.dimension or Dimension.COUNT
    lo = low.quantity.amount if low is not None else Fraction(0)
    hi = high.quantity.amount if high is not None else None
    stated = tuple(dict.fromkeys(s for s in (low, high) if s is not None))
    conventional = Interval(lo, True, hi, hi is not None, dimension)
    longer = [s for s in stated if s.months > definition.period_months]
    if definition.period_months != 1 or not longer:
        return QuantityReading(conventional, None, stated, months=definition.period_months)
    # The recurring part of a month is at most all of it; a year's total may fall in any month.
    floor = lo if low is not None and (low.months == 1 or low.recurring) else Fraction(0)
    ceiling = hi if high is not None and high.months == 1 else None
    honest = Interval(floor, True, ceiling, ceiling is not None, dimension)
    totals = any(not s.recurring for s in longer)
    # the average month, where the figures give one (a month above a year's average gives none)
    average = conventional if totals and not conventional.is_empty() else None
    return QuantityReading(honest, average, stated, longer=True)
