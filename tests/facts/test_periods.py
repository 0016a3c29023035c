"""A month-only or year-only date (`2025-03`, `2025`) is a range of days, not a day: where a
choice depends on where in the range the day falls, the answer is a governance risk."""

from __future__ import annotations

import datetime as dt
import pickle

import pytest

from licheck.core.verdicts import Verdict
from licheck.facts.resolution import Status, resolve
from licheck.inputs.rules import PartialDate, earliest, parse_date
from tests.evaluation.test_binding import BREACH, _by_key, _findings
from tests.facts.test_resolution import ctx, ev, spec


@pytest.mark.parametrize(
    ("raw", "first", "last"),
    [
        ("2025", dt.date(2025, 1, 1), dt.date(2025, 12, 31)),
        (2025, dt.date(2025, 1, 1), dt.date(2025, 12, 31)),  # an unquoted YAML year
        ("2024-02", dt.date(2024, 2, 1), dt.date(2024, 2, 29)),
        ("2024-02-10", dt.date(2024, 2, 10), dt.date(2024, 2, 10)),
    ],
)
def test_a_date_is_a_range_of_days(raw: object, first: dt.date, last: dt.date) -> None:
    date = parse_date(raw)
    assert (earliest(date), date) == (first, last)
    assert pickle.loads(pickle.dumps(date)) == date  # across worker processes, range kept
    if isinstance(date, PartialDate):
        assert earliest(pickle.loads(pickle.dumps(date))) == first
        assert str(date) == str(raw)


def test_evidence_dated_in_the_month_of_as_of_only_makes_a_value_likely() -> None:
    fact = spec(value="150M", evidence=[ev("observed", date="2026-03")])
    before = resolve("mau", fact, ctx(as_of=dt.date(2026, 2, 28)))
    during = resolve("mau", fact, ctx(as_of=dt.date(2026, 3, 15)))
    after = resolve("mau", fact, ctx(as_of=dt.date(2026, 3, 31)))
    assert (before.status, during.status, after.status) == (
        Status.UNKNOWN,
        Status.LIKELY,
        Status.ESTABLISHED,
    )


def test_a_retraction_dated_by_year_leaves_that_year_open() -> None:
    fact = spec(value="150M", evidence=[ev("observed", date="2025-01-01", retracted_on="2026")])
    assert resolve("mau", fact, ctx(as_of=dt.date(2026, 6, 1))).status is Status.LIKELY
    assert resolve("mau", fact, ctx(as_of=dt.date(2027, 1, 1))).status is Status.UNKNOWN


def test_obtained_in_the_month_the_license_changed_is_a_risk() -> None:
    """MiniMax-M2's text changed on 2025-11-13: obtained "2025-11" may be under either."""
    found = _by_key(_findings("minimax-m2", "2025-11", BREACH))
    assert {lic for lic, _ in found} == {"minimax-m2-mit-original", "minimax-m2-modified-mit"}
    assert found[("minimax-m2-modified-mit", "ui-attribution")].verdict is Verdict.GOVERNANCE_RISK


def test_obtained_in_a_month_after_the_change_takes_the_new_text() -> None:
    found = _by_key(_findings("minimax-m2", "2025-12", BREACH))
    assert {lic for lic, _ in found} == {"minimax-m2-modified-mit"}


def test_a_release_known_only_by_year_leaves_the_month_before_it_open() -> None:
    from licheck.facts.measurement import Occasion, read

    fact = spec(series={"2024-12": {"value": "800M"}}, evidence=[ev("observed")])
    facts = {"licensee_mau": resolve("licensee_mau", fact, ctx())}
    by_year = read("licensee_mau@month_before_release", facts, Occasion("M", parse_date("2025")))
    by_month = read(
        "licensee_mau@month_before_release", facts, Occasion("M", parse_date("2025-01"))
    )
    assert by_year.status is Status.UNKNOWN and "depends on the day" in (by_year.reading or "")
    assert by_month.status is Status.ESTABLISHED  # January 2025: the month before is 2024-12
