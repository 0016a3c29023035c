"""Facts measured at a date (series), and who is counted (the bounds between MAU facts)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from licheck.core.units import Dimension
from licheck.core.verdicts import Verdict
from licheck.engine.cells import Rule
from licheck.engine.conditions import Test, evaluate
from licheck.engine.domains import Interval
from licheck.engine.exact import judge
from licheck.facts.evidencepolicy import POLICIES
from licheck.facts.measurement import Occasion, month_before, read
from licheck.facts.periods import FactError
from licheck.facts.resolution import FactState, Resolution, Status, resolve
from licheck.inputs.manifest import FactSpec
from licheck.inputs.rules import Measured

M = 10**6
RELEASED = Occasion("Llama X", dt.date(2024, 4, 18))  # measured for 2024-03
DEFAULT = Resolution(POLICIES["default"], None)


def state(name: str, raw: object, context: Resolution = DEFAULT) -> FactState:
    return resolve(
        name, FactSpec.model_validate(raw if isinstance(raw, dict) else {"value": raw}), context
    )


def point(millions: int) -> Interval:
    return Interval.point(Fraction(millions * M), Dimension.COUNT)


@pytest.mark.parametrize(
    ("date", "month"),
    [
        (dt.date(2024, 4, 18), "2024-03"),
        (dt.date(2024, 1, 5), "2023-12"),  # across a year
        (dt.date(2024, 3, 1), "2024-02"),  # the first of a month: still the month before
        (dt.date(2024, 3, 31), "2024-02"),
    ],
)
def test_month_before(date: dt.date, month: str) -> None:
    assert month_before(date) == month


def test_the_month_before_release_is_read_from_the_series() -> None:
    facts = {
        "licensee_mau": state("licensee_mau", {"value": "900M", "series": {"2024-03": "500M"}})
    }
    measured = read("licensee_mau@month_before_release", facts, RELEASED)
    assert measured.name == "licensee_mau@2024-03"
    assert measured.status is Status.ESTABLISHED
    assert measured.domain == point(500)
    assert "2024-03" in (measured.reading or "")
    # Today's figure is what an unmeasured test reads.
    assert read("licensee_mau", facts, RELEASED).domain == point(900)


def test_todays_value_does_not_settle_a_past_month() -> None:
    facts = {"licensee_mau": state("licensee_mau", "500M")}
    measured = read("licensee_mau@month_before_release", facts, RELEASED)
    assert measured.status is Status.UNKNOWN
    assert measured.domain == Interval.everything(Dimension.COUNT)
    assert "today's figure" in (measured.reading or "")


def test_a_month_missing_from_the_series_is_unknown() -> None:
    facts = {"licensee_mau": state("licensee_mau", {"series": {"2024-04": "900M"}})}
    measured = read("licensee_mau@month_before_release", facts, RELEASED)
    assert measured.status is Status.UNKNOWN
    assert "no figure for 2024-03" in (measured.reading or "")


def test_without_a_release_date_the_month_is_unknown() -> None:
    facts = {"licensee_mau": state("licensee_mau", {"series": {"2024-03": "900M"}})}
    measured = read("licensee_mau@month_before_release", facts, Occasion("X", None))
    assert measured.status is Status.UNKNOWN
    assert "does not give" in (measured.reading or "")


def test_months_take_the_facts_evidence_unless_they_have_their_own() -> None:
    raw = {
        "series": {
            "2024-03": "500M",
            "2024-04": {
                "value": "600M",
                "evidence": [
                    {"source": "filing", "kind": "official_statement", "date": "2024-05-02"}
                ],
            },
        },
        "evidence": [{"source": "estimate", "kind": "press_report", "date": "2024-04-20"}],
    }
    fact = state("licensee_mau", raw)
    months = dict(fact.series)
    assert months["2024-03"].status is Status.LIKELY  # the press report only
    assert months["2024-04"].status is Status.ESTABLISHED


def test_series_evidence_dated_after_as_of_does_not_count() -> None:
    raw = {
        "series": {
            "2024-03": {
                "value": "800M",
                "evidence": [
                    {"source": "filing", "kind": "official_statement", "date": "2024-05-02"}
                ],
            }
        }
    }
    before = Resolution(POLICIES["default"], dt.date(2024, 5, 1))
    assert dict(state("licensee_mau", raw, before).series)["2024-03"].status is Status.UNKNOWN
    assert dict(state("licensee_mau", raw).series)["2024-03"].status is Status.ESTABLISHED


def test_only_quantities_have_a_series() -> None:
    with pytest.raises(FactError) as caught:
        state("commercial", {"series": {"2024-03": "5M"}})
    assert caught.value.path == ("series",)


def test_a_bad_month_value_is_located_in_the_series() -> None:
    with pytest.raises(FactError) as caught:
        state("licensee_mau", {"series": {"2024-03": "lots"}})
    assert caught.value.path[:2] == ("series", "2024-03")


def test_a_measured_and_an_unmeasured_test_read_different_values() -> None:
    now = Test("licensee_mau", "more_than", Fraction(700 * M))
    then = Test("licensee_mau", "more_than", Fraction(700 * M), Measured.MONTH_BEFORE_RELEASE)
    assert (now.key, then.key) == ("licensee_mau", "licensee_mau@month_before_release")
    values = {
        "licensee_mau": Fraction(900 * M),
        "licensee_mau@month_before_release": Fraction(500 * M),
    }
    assert evaluate(now, values) and not evaluate(then, values)
    rule = Rule(then, Test("license_granted", "contains", "x"))
    domains = {
        "licensee_mau@month_before_release": point(500),
        "license_granted": state("license_granted", []).domain,
    }
    assert judge(rule, domains).verdict is Verdict.NOT_APPLICABLE


# -- who is counted --------------------------------------------------------------------------


def test_the_licensees_own_users_bound_the_group_from_below() -> None:
    facts = {"licensee_own_mau": state("licensee_own_mau", {"series": {"2024-03": "800M"}})}
    group = read("licensee_mau@month_before_release", facts, RELEASED)
    assert group.domain == Interval(Fraction(800 * M), True, None, False, Dimension.COUNT)
    assert group.status is Status.ESTABLISHED
    assert "at least licensee_own_mau@2024-03" in (group.reading or "")


def test_the_group_bounds_the_licensees_own_users_from_above() -> None:
    facts = {"licensee_mau": state("licensee_mau", "90M")}
    own = read("licensee_own_mau", facts, RELEASED)
    assert own.domain == Interval(Fraction(0), True, Fraction(90 * M), True, Dimension.COUNT)


def test_the_product_bounds_both_through_the_chain() -> None:
    facts = {"mau": state("mau", "120M")}
    assert read("licensee_mau", facts, RELEASED).domain.lo == Fraction(120 * M)  # type: ignore[union-attr]


def test_affiliates_do_not_raise_the_licensees_own_count() -> None:
    facts = {
        "licensee_own_mau": state("licensee_own_mau", "50M"),
        "licensee_mau": state("licensee_mau", "300M"),
    }
    assert read("licensee_own_mau", facts, RELEASED).domain == point(50)
    assert read("licensee_mau", facts, RELEASED).domain == point(300)


def test_contradicting_counts_leave_the_fact_disputed() -> None:
    facts = {
        "licensee_own_mau": state("licensee_own_mau", "900M"),
        "licensee_mau": state("licensee_mau", "500M"),
    }
    group = read("licensee_mau", facts, RELEASED)
    assert group.status is Status.DISPUTED
    assert group.domain == Interval.everything(Dimension.COUNT)


def test_weak_evidence_bounds_only_the_likely_value() -> None:
    raw = {
        "value": "800M",
        "evidence": [{"source": "estimate", "kind": "press_report", "date": "2024-01-01"}],
    }
    facts = {"licensee_own_mau": state("licensee_own_mau", raw)}
    group = read("licensee_mau", facts, RELEASED)
    assert group.status is Status.UNKNOWN
    assert group.domain == Interval.everything(Dimension.COUNT)
    assert group.likely == Interval(Fraction(800 * M), True, None, False, Dimension.COUNT)
