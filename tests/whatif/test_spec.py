"""Reading what-if options: every fact type, units, ranges, sets, and clear errors."""

from __future__ import annotations

from fractions import Fraction

import pytest

from licheck.core.units import Dimension
from licheck.facts.resolution import claim_domain
from licheck.vocabulary.names import FACTS
from licheck.whatif.spec import ScenarioError, parse_assignment, parse_swap, parse_sweep


def means(raw: str) -> str:
    assignment = parse_assignment(raw)
    domain = claim_domain(FACTS[assignment.fact], assignment.spec, {"CNY": Fraction("0.14")})
    return "unknown" if domain is None else str(domain)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("mau=150M", "150M"),
        ("mau=150000000", "150M"),
        ("monthly_revenue=25M USD/month", "25M USD/month"),
        ("monthly_revenue=25M", "25M USD/month"),
        # a year's total says the average month, not the latest: any month is possible
        ("monthly_revenue=300M USD/year", "≥ 0 USD/month"),
        ("monthly_revenue=300M USD ARR", "≥ 25M USD/month"),  # ARR: the recurring part only
        ("annual_recurring_revenue=300M USD/year", "25M USD/month"),
        ("monthly_revenue=150M CNY/month", "21M USD/month"),
        ("licensee_annual_revenue=1.2B", "100M USD/month"),  # the fact's own period is a year
        ("mau=50M..150M", "[50M, 150M]"),
        ("mau=100M..", "≥ 100M"),
        ("monthly_revenue=..20M", "≤ 20M USD/month"),
        ("commercial=true", "true"),
        ("derivative=false", "false"),
        ("derivative=unknown", "unknown"),
        ("model_name=Composer 2", "'Composer 2'"),
        ("ui_attribution=[Kimi K2.5, Cursor]", "[Cursor, Kimi K2.5]"),
        ("ui_attribution=[]", "[]"),
        ("ui_attribution=Kimi K2.5", "[Kimi K2.5]"),
        ('agreement_waives=["a, with comma", b]', "[a, with comma, b]"),
        ("ui_attribution=includes [Kimi K2.5]", "includes 'Kimi K2.5'"),
        (
            "ui_attribution=excludes [Kimi K2.5]; includes [Cursor]",
            "includes 'Cursor'; excludes 'Kimi K2.5'",
        ),
    ],
)
def test_set_values_read_by_fact_type(raw: str, expected: str) -> None:
    assert means(raw) == expected


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("mau", "NAME=VALUE"),
        ("=5", "NAME=VALUE"),
        ("mao=5M", "did you mean 'mau'"),
        ("lineage=true", "derived from the lineage"),
        ("commercial=yes", "true or false"),
        ("mau=..", "at least one end"),
        ("ui_attribution=includes Kimi", "in brackets"),
        ("ui_attribution=includes [a]; includes [b]", "expected [a, b]"),
        ("ui_attribution=[a, ]", "empty name"),
    ],
)
def test_bad_set_values_are_refused_with_a_reason(raw: str, words: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_assignment(raw)
    assert words in str(info.value)


def test_sweep_reads_units_and_normalises_money_to_a_month() -> None:
    sweep = parse_sweep("licensee_annual_revenue=12M USD/year..1.2B USD/year")
    assert (sweep.lower, sweep.upper) == (Fraction(1_000_000), Fraction(100_000_000))
    assert sweep.dimension is Dimension.MONEY
    assert parse_sweep("mau=1M..1000M").upper == 1_000_000_000


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("mau=1M", "FROM..TO"),
        ("mau=100M..1M", "less than"),
        ("commercial=true..false", "only quantities"),
        ("monthly_revenue=1M EUR..2M EUR", "no exchange rate for EUR"),
        ("users=1..2", "unknown fact"),
        # a year's total is not a month of a monthly fact (--set reads it as an average only)
        ("monthly_revenue=12M USD/year..1.2B USD/year", "is not a month of monthly_revenue"),
    ],
)
def test_bad_sweeps_are_refused_with_a_reason(raw: str, words: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_sweep(raw)
    assert words in str(info.value)


def test_swap_reads_old_and_new() -> None:
    swap = parse_swap("kimi-k2.5=glm-5")
    assert (swap.old, swap.new) == ("kimi-k2.5", "glm-5")
    with pytest.raises(ScenarioError):
        parse_swap("kimi-k2.5")
