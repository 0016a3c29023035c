"""Quantities: suffixes, currencies, periods, exact conversion, and clear refusals."""

from __future__ import annotations

from fractions import Fraction

import pytest

from licheck.core.units import Dimension, UnitError, format_amount, parse_quantity

COUNT, MONEY = Dimension.COUNT, Dimension.MONEY


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("150M", 150_000_000),
        ("1.2B", 1_200_000_000),
        ("500K", 500_000),
        (20000000, 20_000_000),
        ("20,000,000", 20_000_000),
        ("100000001", 100_000_001),
        (1.5e8, 150_000_000),
        ("0", 0),
    ],
)
def test_counts(raw: object, expected: int) -> None:
    assert parse_quantity(raw, COUNT).amount == expected


@pytest.mark.parametrize(
    ("raw", "months_default", "expected"),
    [
        ("20M USD/month", 1, Fraction(20_000_000)),
        ("240M USD/year", 1, Fraction(20_000_000)),  # exactly the monthly line, not above it
        ("2B USD/year", 1, Fraction(2_000_000_000, 12)),
        ("USD 20M/month", 1, Fraction(20_000_000)),
        ("25M", 1, Fraction(25_000_000)),  # the fact's own period
        ("12M", 12, Fraction(1_000_000)),  # a yearly fact: 12M a year is 1M a month
        ("30M ARR", 1, Fraction(2_500_000)),
        ("1.5M USD per year", 1, Fraction(125_000)),
    ],
)
def test_money_normalises_to_usd_per_month(
    raw: str, months_default: int, expected: Fraction
) -> None:
    got = parse_quantity(raw, MONEY, default_period_months=months_default).amount
    assert got == expected


def test_other_currency_converts_at_the_stated_rate() -> None:
    rates = {"CNY": Fraction("0.14")}
    assert parse_quantity("150M CNY/month", MONEY, rates=rates).amount == 21_000_000
    assert parse_quantity("1.2B CNY/year", MONEY, rates=rates).amount == 14_000_000


def test_other_currency_without_a_rate_is_refused() -> None:
    with pytest.raises(UnitError, match="currency_rates"):
        parse_quantity("150M EUR/month", MONEY)


@pytest.mark.parametrize(
    "raw",
    [
        "100 millions",
        "-5M",
        "150MM",
        "abc",
        "",
        "1e9 users",
        True,
        None,
        [1],
        "20M USD/fortnight",
        "20M USD EUR",
    ],
)
def test_bad_counts_and_money_are_refused(raw: object) -> None:
    with pytest.raises(UnitError):
        parse_quantity(raw, COUNT)
    with pytest.raises(UnitError):
        parse_quantity(raw, MONEY)


def test_a_count_has_no_currency() -> None:
    with pytest.raises(UnitError, match="no currency"):
        parse_quantity("5M USD", COUNT)


def test_display() -> None:
    assert format_amount(Fraction(20_000_000), MONEY) == "20M USD/month"
    assert format_amount(Fraction(2_000_000_000, 12), MONEY) == "≈166.67M USD/month"
    assert format_amount(Fraction(1_500_000_000), COUNT) == "1.5B"


def test_an_unquoted_number_is_read_exactly_from_its_text() -> None:
    """`monthly_revenue: 20000000.000000001` (unquoted) is above 20M, not rounded to it."""
    from licheck.files.yamlsafe import parse

    raw = parse("v: 20000000.000000001\n", "m.yaml").data["v"]
    amount = parse_quantity(raw, Dimension.MONEY).amount
    assert amount == Fraction("20000000.000000001") and amount > 20_000_000


@pytest.mark.parametrize("where", ["manifest", "set", "sweep"])
def test_scientific_notation_is_refused_alike(where: str) -> None:
    from licheck.facts.periods import FactError
    from licheck.files.yamlsafe import parse
    from licheck.whatif.spec import ScenarioError, parse_assignment, parse_sweep

    if where == "manifest":
        raw = parse("mau: 2e7\n", "m.yaml").data["mau"]
        with pytest.raises(UnitError, match="scientific notation"):
            parse_quantity(raw, Dimension.COUNT)
    else:
        with pytest.raises((ScenarioError, FactError), match="scientific notation"):
            if where == "set":
                from licheck.facts.resolution import claim_domain
                from licheck.vocabulary.names import FACTS

                claim_domain(FACTS["mau"], parse_assignment("mau=2e7").spec, {})
            else:
                parse_sweep("mau=1e6..2e7", {})
