"""Quantities with units: counts with K/M/B suffixes and money rates with a currency and a period.

Every number is kept as an exact `Fraction`, so that a threshold stated per year lands exactly on
its monthly equivalent (240M USD/year is exactly 20M USD/month) and strict and non-strict
comparisons mean what the clause says.  Money is normalised to US dollars per month; another
currency converts at a rate the manifest states (US dollars per unit of that currency).  How a
*fact* stated for another period is read (a year's total says the average month, not the latest
one) is `facts`' business: `Stated` keeps the figure as written for it and for the report.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Final

from licheck.core.context import EvaluationContext, Table


class Dimension(StrEnum):
    """What a quantity measures."""

    COUNT = "count"
    MONEY = "money"  # a rate: US dollars per month after normalisation


class UnitError(ValueError):
    """A quantity could not be read; the message says what was expected."""


# A quantity's text as read: (text, dimension, default period) -> (amount, currency, months,
# recurring).  Portfolios repeat the same few texts; each is read once a run.
PARSED: Table[tuple[str, Dimension, int], tuple[Fraction, str, int, bool]] = Table("parsed")

SUFFIXES: Final = {"": 1, "K": 10**3, "M": 10**6, "B": 10**9, "T": 10**12}
PERIOD_MONTHS: Final = {
    "month": 1,
    "mo": 1,
    "monthly": 1,
    "year": 12,
    "yr": 12,
    "y": 12,
    "annual": 12,
    "annually": 12,
    "arr": 12,
}
CURRENCY_RE: Final = re.compile(r"^[A-Z]{3}$")
_QUANTITY_RE: Final = re.compile(
    r"""^\s*
    (?:(?P<pre_cur>[A-Z]{3})\s*)?
    (?P<sign>[-+])?
    (?P<number>\d[\d,_]*(?:\.\d+)?|\.\d+)
    \s*(?P<suffix>[KMBT])?
    \s*(?P<post_cur>[A-Za-z]{3})?
    (?:\s+(?P<arr>ARR))?  # "300M USD ARR": annual recurring revenue
    \s*(?:/\s*(?P<period>[A-Za-z]+)|\s+(?:per|a|an)\s+(?P<per>[A-Za-z]+))?
    \s*$""",
    re.VERBOSE,
)
EXPECTED_COUNT: Final = "a count such as 150M, 1.2B, 500K or 20000000"
EXPECTED_MONEY: Final = "an amount such as 20M USD/month, 2B USD/year, 2B USD ARR or 150M EUR/month"
MAX_DIGITS: Final = 30  # far beyond any real count or amount; keeps Fraction() cheap
# Digits with `,` or `_` only as thousands separators: "1,500,000" but never "1,5" (a decimal
# comma in much of the world: reading it as 15 would silently change the value).
_GROUPED_RE: Final = re.compile(r"^\d{1,3}(?:([,_])\d{3})?(?:\1\d{3})*(?:\.\d+)?$")
_PLAIN_RE: Final = re.compile(r"^(?:\d+(?:\.\d+)?|\.\d+)$")
_SCIENTIFIC_RE: Final = re.compile(r"^\s*[-+]?(?:\d+\.?\d*|\.\d+)[eE][-+]?\d+\b")


@dataclass(frozen=True, slots=True)
class Quantity:
    """An exact non-negative amount of one dimension (money in USD per month)."""

    amount: Fraction
    dimension: Dimension

    def __str__(self) -> str:
        return format_amount(self.amount, self.dimension)


@dataclass(frozen=True, slots=True)
class Stated:
    """A quantity as written, beside its normalised value: the period it was stated for (ARR is
    `recurring`), and the currency and rate it converted at."""

    quantity: Quantity
    text: str
    months: int
    recurring: bool
    currency: str
    rate: Fraction | None

    def converted(self) -> bool:
        """Whether the figure as written differs from the normalised one."""
        return self.rate is not None or self.months != 1 or self.recurring

    def as_written(self) -> str:
        """The figure in the currency and period it was stated in, and the rate it converted
        at: '40M USD/year (ARR)', '19M EUR/month, at the manifest's rate of 1.08 USD per EUR'.
        """
        return self.figure() + self.rate_words()

    def figure(self) -> str:
        """The figure in its own currency and period: '40M USD/year (ARR)', '19M EUR/month'."""
        original = self.quantity.amount * self.months / (self.rate or 1)
        period = _PERIOD_WORDS.get(self.months, f"{self.months} months")
        text = f"{format_number(original)} {self.currency}/{period}"
        return text + " (ARR)" if self.recurring else text

    def rate_words(self) -> str:
        """', at the manifest's rate of 1.08 USD per EUR' ('' for US dollars)."""
        if self.rate is None:
            return ""
        return f", at the manifest's rate of {rate_text(self.rate)} USD per {self.currency}"

    def __str__(self) -> str:
        """'150M CNY/month at 0.14 USD per CNY'."""
        rate = f" at {rate_text(self.rate)} USD per {self.currency}" if self.rate else ""
        return f"{self.text.strip()}{rate}"


def parse_quantity(
    raw: object,
    dimension: Dimension,
    *,
    default_period_months: int = 1,
    rates: dict[str, Fraction] | None = None,
    memo: EvaluationContext | None = None,
) -> Quantity:
    """Read `raw` (a YAML number or a string with units) as a quantity of `dimension`.

    A money amount without a period takes `default_period_months` (the fact's own period, so that
    `monthly_revenue: 25M USD` means per month); without a currency it is in US dollars.
    """
    return parse_stated(
        raw, dimension, default_period_months=default_period_months, rates=rates, memo=memo
    ).quantity


def parse_stated(  # noqa: C901
    raw: object,
    dimension: Dimension,
    *,
    default_period_months: int = 1,
    rates: dict[str, Fraction] | None = None,
    memo: EvaluationContext | None = None,
) -> Stated:
    """`parse_quantity`, keeping the figure as written (see `Stated`)."""
    expected = EXPECTED_COUNT if dimension is Dimension.COUNT else EXPECTED_MONEY
    recurring = False
    if isinstance(raw, bool) or raw is None:
        raise UnitError(f"expected {expected}, got {_show(raw)}")
    if isinstance(raw, int):
        amount = Fraction(raw)
        currency, months = "USD", default_period_months
    elif isinstance(raw, float):
        if raw != raw or raw in (float("inf"), float("-inf")):
            raise UnitError(f"expected {expected}, got {raw}")
        amount = Fraction(repr(raw))
        currency, months = "USD", default_period_months
    elif isinstance(raw, str):
        # Portfolios repeat the same few texts ("100M", "20M USD/month"): each is read once a run.
        key = (raw, dimension, default_period_months)
        table = memo.table(PARSED) if memo is not None else None
        parsed = table.get(key) if table is not None else None
        if parsed is None:
            parsed = _parse_text(raw, dimension, expected, default_period_months)
            if table is not None:
                table.keep(key, parsed)
        amount, currency, months, recurring = parsed
    else:
        raise UnitError(f"expected {expected}, got {_show(raw)}")
    if amount < 0:
        raise UnitError(f"a quantity cannot be negative, got {_show(raw)}")
    if dimension is Dimension.COUNT:
        if amount.denominator != 1:
            raise UnitError(f"a count is a whole number, got {_show(raw)}")
        return Stated(Quantity(amount, dimension), str(raw), 1, False, "USD", None)
    rate = None
    if currency != "USD":
        rate = (rates or {}).get(currency)
        if rate is None:
            raise UnitError(
                f"no exchange rate for {currency}: state it under currency_rates "
                f"(US dollars per {currency}), e.g. currency_rates: {{{currency}: 0.14}}"
            )
        amount *= rate
    text = str(raw) if isinstance(raw, str) else f"{raw} USD/{_PERIOD_WORDS[months]}"
    return Stated(Quantity(amount / months, dimension), text, months, recurring, currency, rate)


_PERIOD_WORDS: Final = {1: "month", 12: "year"}


def _parse_text(  # noqa: C901
    text: str, dimension: Dimension, expected: str, default_months: int
) -> tuple[Fraction, str, int, bool]:
    if ":" in text:
        raise UnitError(
            f"expected {expected}, got {text!r} (YAML 1.1 would read it as a "
            "base-60 number; licheck does not)"
        )
    if re.match(r"^\s*[-+]?0[xXoObB]", text):
        raise UnitError(
            f"expected {expected}, got {text!r} (YAML 1.1 would read it as a "
            "hexadecimal, octal or binary number; licheck does not)"
        )
    match = _QUANTITY_RE.match(text)
    if match is None:
        if _SCIENTIFIC_RE.match(text):
            raise UnitError(
                f"expected {expected}, got {text!r}: scientific notation is not accepted "
                "(write 20M or 20000000 for 2e7)"
            )
        raise UnitError(f"expected {expected}, got {text!r}")
    amount = read_number(match["number"], text) * SUFFIXES[match["suffix"] or ""]
    if match["sign"] == "-":
        amount = -amount
    pre, post = match["pre_cur"], match["post_cur"]
    period = match["period"] or match["per"]
    if match["arr"]:
        if period is not None:
            raise UnitError(f"expected {expected}: ARR is already per year, in {text!r}")
        period = "arr"
    if dimension is Dimension.COUNT:
        if pre or post or period:
            raise UnitError(
                f"expected {expected} (a count has no currency or period), got {text!r}"
            )
        return amount, "USD", 1, False
    if pre and post:
        raise UnitError(f"expected {expected} (one currency), got {text!r}")
    currency = pre or post or "USD"
    if post is not None and post.upper() == "ARR" and period is None:
        currency, period = "USD", "arr"
    if not CURRENCY_RE.match(currency):
        raise UnitError(
            f"expected {expected}: {currency!r} is not an ISO currency code, in {text!r}"
        )
    if period is None:
        return amount, currency, default_months, False
    months = PERIOD_MONTHS.get(period.lower())
    if months is None:
        raise UnitError(f"expected {expected}: unknown period {period!r} (use month or year)")
    return amount, currency, months, period.lower() == "arr"


def read_number(number: str, text: str) -> Fraction:
    """The exact value of an unsigned decimal as written, refusing what could be misread."""
    if len(number) > MAX_DIGITS:
        raise UnitError(f"{text!r} has too many digits (at most {MAX_DIGITS})")
    if not (_PLAIN_RE.match(number) or _GROUPED_RE.match(number)):
        raise UnitError(
            f"{text!r}: use ',' or '_' only between groups of three digits "
            "(1,500,000) and '.' for decimals (1.5M)"
        )
    digits = number.replace(",", "").replace("_", "")
    whole, dot, fraction = digits.partition(".")
    if len(whole) > 1 and whole[0] == "0":
        plain = (whole.lstrip("0") or "0") + dot + fraction
        octal = (
            f"YAML 1.1 reads it as the octal number {int(whole, 8)}, YAML 1.2 as {int(whole)}"
            if not dot and set(whole) <= set("01234567")
            else "it may be a typo"
        )
        raise UnitError(
            f"{text!r} has a leading zero ({octal}): write {plain} if you mean "
            f"{plain}, without the leading zero"
        )
    return Fraction(digits)


def parse_rate(raw: object) -> Fraction:
    """Read an exchange rate (US dollars per unit of another currency) exactly."""
    if isinstance(raw, bool) or not isinstance(raw, int | float | str):
        raise UnitError(f"expected an exchange rate such as 0.14, got {_show(raw)}")
    if isinstance(raw, float):
        if raw != raw or raw in (float("inf"), float("-inf")):
            raise UnitError(f"expected an exchange rate such as 0.14, got {raw}")
        rate = Fraction(repr(raw))
    elif isinstance(raw, int):
        rate = Fraction(raw)
    else:
        text = raw.strip()
        sign = -1 if text.startswith("-") else 1
        if not _PLAIN_RE.match(text.lstrip("+-")):
            hint = (
                ": scientific notation is not accepted (write the digits, e.g. 0.14)"
                if _SCIENTIFIC_RE.match(text)
                else ""
            )
            raise UnitError(f"expected an exchange rate such as 0.14, got {_show(raw)}{hint}")
        rate = sign * read_number(text.lstrip("+-"), raw)
    if rate <= 0:
        raise UnitError(f"an exchange rate must be positive, got {_show(raw)}")
    return rate


def exchange_rates(written: Mapping[str, object]) -> tuple[dict[str, Fraction], dict[str, str]]:
    """A manifest's `currency_rates`: the rates by currency code (upper-cased), and what is wrong
    with each key that cannot be read one way only (by the key as written): not a rate, a rate
    for USD (the unit of every rate, so never converted), the same currency twice."""
    rates: dict[str, Fraction] = {}
    problems: dict[str, str] = {}
    seen: set[str] = set()
    for key, raw in written.items():
        currency = str(key).upper()
        if currency == "USD":
            problems[key] = (
                "a rate for USD: rates are US dollars per unit of another currency, so an "
                "amount in USD is never converted"
            )
        elif currency in seen:
            problems[key] = f"the rate of {currency} is stated twice (currency codes ignore case)"
        else:
            seen.add(currency)
            try:
                rates[currency] = parse_rate(raw)
            except UnitError as exc:
                problems[key] = str(exc)
    return rates, problems


def format_amount(amount: Fraction, dimension: Dimension, months: int = 1) -> str:
    """Show an amount as a person writes it: 20M, 1.5B, ≈166.67M USD/month.  Money is held per
    month; `months`: the period to show it for, a fact's own (12: 30M USD/year, not 2.5M
    USD/month)."""
    if dimension is not Dimension.MONEY:
        return format_number(amount)
    return format_number(amount * months) + " USD/" + period_word(months)


def period_word(months: int) -> str:
    """'month', 'year', or 'N months'."""
    return {1: "month", 12: "year"}.get(months, f"{months} months")


def format_number(amount: Fraction) -> str:
    for suffix, scale in (("T", 10**12), ("B", 10**9), ("M", 10**6), ("K", 10**3)):
        if abs(amount) >= scale:
            scaled = amount / scale
            return _decimal(scaled) + suffix
    return _decimal(amount)


def _decimal(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    rounded = round(value, 2)
    whole, cents = divmod(abs(rounded.numerator * 100 // rounded.denominator), 100)
    text = "-" * (rounded < 0) + f"{whole}.{cents:02d}".rstrip("0").rstrip(".")
    exact = Fraction(rounded) == value
    return text if exact else "≈" + text


def rate_text(rate: Fraction) -> str:
    """An exchange rate with every digit it was given (up to 12), not rounded to cents."""
    if rate.denominator == 1:
        return str(rate.numerator)
    digits = (Decimal(rate.numerator) / Decimal(rate.denominator)).quantize(Decimal(10) ** -12)
    text = format(digits.normalize(), "f")
    return text if Fraction(text) == rate else "≈" + text


def to_json_number(value: Fraction) -> int | float:
    """An exact integer where the amount is whole, else a float rounded to six decimals."""
    if value.denominator == 1 or abs(value) >= 2**53:  # beyond a float's integers: the nearest
        return round(value)
    return round(float(value), 6)


def _show(raw: object) -> str:
    return repr(raw) if isinstance(raw, str) else str(raw)
