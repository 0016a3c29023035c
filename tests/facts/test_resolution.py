"""Fact resolution: the evidence policy, --as-of, retractions, disputes, ranges, sets."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from licheck.engine.domains import Interval, StringSet
from licheck.facts.evidencepolicy import Standing, policy_named
from licheck.facts.periods import FactError
from licheck.facts.resolution import Resolution, Status, piece_claims, resolve, standing
from licheck.inputs.manifest import EvidenceKind, FactSpec, Source


def spec(**data: object) -> FactSpec:
    return FactSpec.model_validate(data)


def ctx(
    policy: str = "default", as_of: dt.date | None = None, sources: dict[str, Source] | None = None
) -> Resolution:
    return Resolution(policy_named(policy), as_of, {}, sources or {})


def ev(kind: str, date: str = "2026-03-20", **more: object) -> dict[str, object]:
    return {"source": f"a {kind}", "kind": kind, "date": date, **more}


@pytest.mark.parametrize(
    ("kind", "status"),
    [
        ("observed", Status.ESTABLISHED),
        ("official_statement", Status.ESTABLISHED),
        ("licensor_statement", Status.ESTABLISHED),
        ("press_report", Status.LIKELY),
        ("community_inference", Status.LIKELY),
        ("rumour", Status.UNKNOWN),
    ],
)
def test_default_policy_by_kind(kind: str, status: Status) -> None:
    state = resolve("mau", spec(value="150M", evidence=[ev(kind)]), ctx())
    assert state.status is status
    if status is Status.LIKELY:
        # Shown as the likely value, but every value stays possible for the verdict.
        assert isinstance(state.likely, Interval)
        assert state.likely == Interval.point(Fraction(150_000_000), state.likely.dimension)
        assert isinstance(state.domain, Interval) and state.domain.hi is None


def test_estimates_policy_counts_press_reports() -> None:
    state = resolve("mau", spec(value="150M", evidence=[ev("press_report")]), ctx("estimates"))
    assert state.status is Status.ESTABLISHED


def test_strict_policy_needs_a_source() -> None:
    assert resolve("commercial", spec(value=True), ctx()).status is Status.ESTABLISHED
    assert resolve("commercial", spec(value=True), ctx("strict")).status is Status.LIKELY


def test_custom_policy_list() -> None:
    policy = policy_named("observed,press_report")
    assert policy.tier(EvidenceKind.PRESS_REPORT) is Standing.ESTABLISHES
    assert policy.tier(EvidenceKind.LICENSOR_STATEMENT) is Standing.SUGGESTS
    assert policy.tier(EvidenceKind.RUMOUR) is Standing.IGNORED
    state = resolve(
        "mau", spec(value="1M", evidence=[ev("licensor_statement")]), Resolution(policy, None)
    )
    assert state.status is Status.LIKELY
    with pytest.raises(ValueError, match="unknown evidence policy"):
        policy_named("observed,gossip")


def test_retracted_evidence_does_not_count_after_retraction() -> None:
    pieces = [ev("licensor_statement", "2026-03-19", retracted_on="2026-03-20")]
    fact = spec(value=True, evidence=pieces)
    assert resolve("commercial", fact, ctx()).status is Status.UNKNOWN
    assert resolve("commercial", fact, ctx(as_of=dt.date(2026, 3, 19))).status is Status.ESTABLISHED
    assert resolve("commercial", fact, ctx(as_of=dt.date(2026, 3, 20))).status is Status.UNKNOWN


def test_as_of_ignores_later_evidence() -> None:
    fact = spec(value="150M", evidence=[ev("observed", "2026-03-20")])
    state = resolve("mau", fact, ctx(as_of=dt.date(2026, 3, 19)))
    assert state.status is Status.UNKNOWN
    assert state.evidence[0].counted == "ignored: dated after --as-of 2026-03-19"


def test_each_piece_counts_as_one_standing_shown_with_its_reason() -> None:
    """The standing `resolve` dispatches on and the text the report shows agree, piece by
    piece: established, likely (a weak kind, or a day inside a month written), ignored."""
    pieces = [
        ev("observed", "2026-03-01"),
        ev("press_report", "2026-03-01"),
        ev("licensor_statement", "2026-04"),
        ev("official_statement", "2026-03-01", retracted_on="2026-03-10"),
        ev("rumour", "2026-03-01"),
    ]
    state = resolve("commercial", spec(value=True, evidence=pieces), ctx(as_of=dt.date(2026, 4, 2)))
    assert [e.counted for e in state.evidence] == [
        "establishes",
        "suggests",
        "suggests",
        "ignored: retracted on 2026-03-10",
        "ignored: rumours never count",
    ]
    assert state.status is Status.ESTABLISHED
    context = ctx(as_of=dt.date(2026, 4, 2))
    claims = piece_claims("commercial", spec(value=True, evidence=pieces), context)
    assert [standing(p, context) for p in claims] == [
        Standing.ESTABLISHES,
        Standing.SUGGESTS,
        Standing.SUGGESTS,
        Standing.IGNORED,
        Standing.IGNORED,
    ]


def test_contradicting_established_evidence_is_disputed() -> None:
    fact = spec(value=True, evidence=[ev("observed"), ev("licensor_statement", value=False)])
    assert resolve("commercial", fact, ctx()).status is Status.DISPUTED


def test_ranges_intersect() -> None:
    fact = spec(
        at_least="1.5B USD/year",
        at_most="2.5B USD/year",
        evidence=[ev("official_statement"), ev("observed", at_least="2B USD/year")],
    )
    state = resolve("annual_recurring_revenue", fact, ctx())
    assert state.status is Status.ESTABLISHED
    assert isinstance(state.domain, Interval)
    assert state.domain.lo == Fraction(2_000_000_000, 12)
    assert state.domain.hi == Fraction(2_500_000_000, 12)


def test_set_knowledge() -> None:
    state = resolve(
        "ui_attribution", spec(excludes=["Kimi K2.5"], evidence=[ev("observed")]), ctx()
    )
    assert state.domain == StringSet(frozenset(), frozenset({"Kimi K2.5"}), False)


def test_evidence_may_cite_a_source_by_key() -> None:
    sources = {
        "blog": Source(
            title="The blog",
            kind="official_statement",
            date=dt.date(2026, 3, 19),
        )
    }
    state = resolve(
        "commercial", spec(value=True, evidence=[{"source": "blog"}]), ctx(sources=sources)
    )
    assert state.status is Status.ESTABLISHED
    assert state.evidence[0].source == "The blog"


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("mau", {"value": "100 millions"}, "expected a count"),
        ("mau", {"value": "-5"}, "negative"),
        ("mau", {"at_least": "5M", "at_most": "1M"}, "range is empty"),
        ("commercial", {"value": "no"}, "true or false"),
        ("commercial", {"at_least": 5}, "not a quantity"),
        ("mau", {"includes": ["x"]}, "not a set"),
        ("mau", {"value": "1M", "evidence": [{"source": "nowhere"}]}, "needs a kind"),
        (
            "mau",
            {
                "value": "1M",
                "evidence": [
                    {
                        "source": "s",
                        "kind": "observed",
                        "date": "2026-03-20",
                        "retracted_on": "2026-03-01",
                    }
                ],
            },
            "retracted",
        ),
    ],
)
def test_bad_facts_are_refused_with_reasons(
    name: str, data: dict[str, object], message: str
) -> None:
    with pytest.raises(FactError, match=message):
        resolve(name, spec(**data), ctx())


def test_weaker_evidence_against_an_established_value_leaves_it_disputed() -> None:
    fact = spec(value=True, evidence=[ev("observed"), ev("press_report", value=False)])
    assert resolve("commercial", fact, ctx()).status is Status.DISPUTED
    # A stricter policy demotes a piece but never settles the dispute.
    fact = spec(value=True, evidence=[ev("observed"), ev("declared", value=False)])
    assert resolve("commercial", fact, ctx()).status is Status.DISPUTED
    assert resolve("commercial", fact, ctx("strict")).status is Status.DISPUTED


# -- a part of the period beside the whole (issue 24, deliverable 3) ----------------------------

YEAR = "360M USD/year"  # 30M USD a month on average


@pytest.mark.parametrize("name", ["licensee_annual_revenue", "licensee_peak_12_month_revenue"])
@pytest.mark.parametrize("month", ["30M USD/month", "35M USD/month", "360M USD/month"])
def test_a_months_figure_beside_the_years_filing_that_agrees_is_no_dispute(
    name: str, month: str
) -> None:
    """The year holds the month: a month of up to the whole year's total agrees with it."""
    state = resolve(
        name,
        spec(
            value=YEAR, evidence=[ev("official_statement"), ev("official_statement", value=month)]
        ),
        ctx(),
    )
    assert state.status is Status.ESTABLISHED
    assert isinstance(state.domain, Interval)
    assert state.domain == Interval.point(Fraction(30_000_000), state.domain.dimension)


def test_a_month_above_the_whole_year_is_still_a_dispute() -> None:
    evidence = [ev("official_statement"), ev("official_statement", value="361M USD/month")]
    state = resolve("licensee_annual_revenue", spec(value=YEAR, evidence=evidence), ctx())
    assert state.status is Status.DISPUTED


def test_a_months_figure_alone_keeps_its_reading_as_twelve_such_months() -> None:
    state = resolve("licensee_annual_revenue", spec(value="35M USD/month"), ctx())
    assert isinstance(state.domain, Interval)
    assert state.domain == Interval.point(Fraction(35_000_000), state.domain.dimension)


def test_a_monthly_arr_figure_is_arr_itself_not_a_part() -> None:
    """ARR is twelve times a month's recurring revenue by definition: no part of a total."""
    evidence = [ev("official_statement"), ev("official_statement", value="35M USD/month")]
    state = resolve("annual_recurring_revenue", spec(value="360M USD", evidence=evidence), ctx())
    assert state.status is Status.DISPUTED
