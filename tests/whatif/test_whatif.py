"""What-if core: overrides as hypotheses, the baseline untouched, exact sweeps and maps, base
swaps, time travel and the ranking of what to find out next."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from licheck.core.verdicts import Verdict
from licheck.whatif import ScenarioError
from licheck.whatif.compare import ChangeKind
from licheck.whatif.sweep import RegionMap, Sweep, Verdicts, raster
from tests.whatif_helpers import COMPOSER2, made_up_subject, product, run, subject, subject_of

ATTRIBUTION = ("composer-2", "kimi-k2.5", "kimi-k2.5-modified-mit", "ui-attribution")
V = Verdict


def attribution_verdicts(swept: Sweep) -> list[tuple[str, Verdict]]:
    return [(str(p.region), dict(p.verdicts.findings)[ATTRIBUTION]) for p in swept.pieces]


def test_baseline_manifest_is_never_modified() -> None:
    base = subject()
    before = base.manifest.model_dump()
    text = COMPOSER2.read_bytes()
    analysis = run(
        base,
        sets=("mau=150M", "derivative=true"),
        swaps=("kimi-k2.5=glm-5",),
        sweeps=("monthly_revenue=1M..100M",),
    )
    assert base.manifest.model_dump() == before
    assert COMPOSER2.read_bytes() == text
    assert analysis.baseline.verdict is V.GOVERNANCE_RISK
    assert base.evaluate().findings == analysis.baseline.findings


def test_revenue_sweep_breaks_at_20m_with_mau_50m() -> None:
    analysis = run(subject(), sets=("mau=50M",), sweeps=("monthly_revenue=1M..100M",))
    swept = analysis.sweep
    assert isinstance(swept, Sweep)
    assert swept.boundaries() == [Fraction(20_000_000)]
    low, high = swept.pieces
    # "more than 20 million": exactly 20M is still below the line.
    assert (low.region.lo, low.region.lo_closed, low.region.hi, low.region.hi_closed) == (
        Fraction(1_000_000),
        True,
        Fraction(20_000_000),
        True,
    )
    assert (high.region.lo_closed, high.region.hi) == (False, Fraction(100_000_000))
    assert [low.verdicts.product, high.verdicts.product] == [V.NOT_APPLICABLE, V.GOVERNANCE_RISK]
    # Above the line a governance risk, not a violation: derivative and agreement are open.
    assert attribution_verdicts(swept)[1][1] is V.GOVERNANCE_RISK
    (threshold,) = swept.thresholds
    assert threshold.clauses == ("kimi-k2.5-modified-mit/ui-attribution",)


def test_mau_sweep_breaks_at_100m_with_revenue_5m() -> None:
    swept = run(subject(), sets=("monthly_revenue=5M",), sweeps=("mau=1M..1000M",)).sweep
    assert isinstance(swept, Sweep)
    assert swept.boundaries() == [Fraction(100_000_000)]
    assert [p.verdicts.product for p in swept.pieces] == [V.NOT_APPLICABLE, V.GOVERNANCE_RISK]
    assert swept.pieces[0].region.hi_closed  # exactly 100M is not "more than 100 million"


def test_with_everything_settled_against_the_product_the_sweep_shows_a_violation() -> None:
    swept = run(
        subject(),
        sets=("mau=50M", "derivative=true", "agreement_waives=[]"),
        sweeps=("monthly_revenue=1M..100M",),
    ).sweep
    assert isinstance(swept, Sweep)
    assert [v for _, v in attribution_verdicts(swept)] == [V.NOT_APPLICABLE, V.VIOLATION]


def test_a_threshold_that_changes_nothing_leaves_one_interval() -> None:
    # Above 100M MAU the clause is triggered whatever the revenue: 20M changes nothing.
    swept = run(subject(), sets=("mau=150M",), sweeps=("monthly_revenue=1M..100M",)).sweep
    assert isinstance(swept, Sweep)
    assert len(swept.pieces) == 1 and swept.boundaries() == []
    assert [t.value for t in swept.thresholds] == [Fraction(20_000_000)]


def test_a_threshold_at_the_range_end_is_its_own_cell() -> None:
    swept = run(subject(), sets=("mau=50M",), sweeps=("monthly_revenue=20M..30M",)).sweep
    assert isinstance(swept, Sweep)
    first = swept.pieces[0].region
    assert first.is_point() and first.lo == 20_000_000
    assert swept.pieces[0].verdicts.product is V.NOT_APPLICABLE


def test_two_fact_map_is_exact_and_resolution_free() -> None:
    swept = run(
        subject(),
        sets=("derivative=true", "agreement_waives=[]"),
        sweeps=("mau=1M..1000M", "monthly_revenue=1M..100M"),
    ).sweep
    assert isinstance(swept, RegionMap)
    assert [x.hi for x in swept.xs] == [100_000_000, 1_000_000_000]
    assert [y.hi for y in swept.ys] == [20_000_000, 100_000_000]
    grid = [[cell.product for cell in row] for row in swept.grid]
    assert grid == [[V.NOT_APPLICABLE, V.VIOLATION], [V.VIOLATION, V.VIOLATION]]
    assert swept.at(Fraction(100_000_000), Fraction(20_000_000)).product is V.NOT_APPLICABLE
    assert swept.at(100_000_001, 20_000_000).product is V.VIOLATION
    picture = raster(
        swept,
        [Fraction(v) for v in (50_000_000, 100_000_000, 200_000_000)],
        [Fraction(v) for v in (10_000_000, 30_000_000)],
    )
    assert picture == [
        [V.NOT_APPLICABLE, V.NOT_APPLICABLE, V.VIOLATION],
        [V.VIOLATION, V.VIOLATION, V.VIOLATION],
    ]


def test_swap_to_glm5_removes_the_attribution_obligation() -> None:
    analysis = run(subject(), swaps=("kimi-k2.5=glm-5",))
    kinds = {c.key: c.kind for c in analysis.changes}
    assert kinds[ATTRIBUTION] is ChangeKind.GONE
    assert kinds[("composer-2", "glm-5", "mit", "copyright-notice")] is ChangeKind.NEW
    # GLM-5's MIT rests on secondary sources only (audit 2026-12-s3 B M-2): likely, not
    # established, so the swap leaves one governance risk, likely not applicable
    assert {f.license for f in analysis.scenario.findings} == {"mit", "unknown"}
    (claim,) = [f for f in analysis.scenario.findings if f.license == "unknown"]
    assert claim.clause == "license-unconfirmed" and claim.likely_verdict is V.NOT_APPLICABLE
    assert analysis.scenario.verdict is V.GOVERNANCE_RISK
    # The swapped lineage is a hypothesis: no "base model not established" finding, even
    # under the strict policy.
    strict = run(subject(policy="strict"), swaps=("kimi-k2.5=glm-5",))
    assert [f.clause for f in strict.scenario.findings] == [
        "copyright-notice",
        "license-unconfirmed",
    ]


@pytest.mark.parametrize(
    ("swap", "words"),
    [
        ("kimi-k2=glm-5", "not in Composer 2's lineage"),
        ("kimi-k2.5=glm-9", "unknown model 'glm-9'"),
        ("kimi-k2.5=glm-5", None),
    ],
)
def test_swap_checks_its_models(swap: str, words: str | None) -> None:
    if words is None:
        run(subject(), swaps=(swap,))
        return
    with pytest.raises(ScenarioError) as info:
        run(subject(), swaps=(swap,))
    assert words in str(info.value)


def test_overrides_count_as_established_whatever_the_policy() -> None:
    for policy in ("default", "strict"):
        analysis = run(subject(policy=policy), sets=("mau=150M",))
        finding = next(f for f in analysis.scenario.findings if f.key == ATTRIBUTION)
        mau = next(s for s in finding.facts if s.name == "mau")
        assert mau.status.value == "established"
        assert finding.triggered == "yes"


def test_component_level_facts_yield_to_an_override() -> None:
    data = product(
        {"commercial": True, "ui_attribution": [], "agreement_waives": []},
        component_facts={"mau": "200M", "derivative": True},
    )
    base = subject_of(data)
    assert base.evaluate().verdict is V.VIOLATION
    analysis = run(base, sets=("mau=50M", "monthly_revenue=1M"))
    assert analysis.scenario.verdict is V.NOT_APPLICABLE
    change = next(c for c in analysis.changes if c.key[-1] == "ui-attribution")
    assert change.kind is ChangeKind.FLIPPED
    # a value apart from the manifest's is a counterfactual, and says so (issue 12)
    contradicting = "50M (what-if, contradicting the manifest's 200M)"
    assert ("mau", "200M", contradicting) in {(f.fact, f.before, f.after) for f in change.facts}


def test_a_what_if_never_silently_widens_what_the_manifest_establishes() -> None:
    data = product(
        {"commercial": True, "ui_attribution": [], "agreement_waives": []},
        component_facts={"mau": {"at_least": "100M"}, "derivative": True},
    )
    base = subject_of(data)
    with pytest.raises(ScenarioError, match=r"reaches beyond .*mau is ≥ 100M"):
        run(base, sets=("mau=50M..",))
    narrowed = run(base, sets=("mau=150M..",))  # within what is known: a plain what-if
    change = next(c for c in narrowed.changes if c.key[-1] == "ui-attribution")
    assert ("mau", "≥ 100M", "≥ 150M (what-if)") in {
        (f.fact, f.before, f.after) for f in change.facts
    }
    apart = run(base, sets=("mau=50M",))  # the brief's example: reported as a contradiction
    facts = {f.fact: f.after for c in apart.changes for f in c.facts}
    assert facts["mau"] == "50M (what-if, contradicting the manifest's ≥ 100M)"


def test_set_and_sweep_of_one_fact_is_refused() -> None:
    with pytest.raises(ScenarioError, match="both set"):
        run(subject(), sets=("mau=5M",), sweeps=("mau=1M..2M",))
    with pytest.raises(ScenarioError, match="given twice"):
        run(subject(), sets=("mau=5M", "mau=6M"))
    with pytest.raises(ScenarioError, match="no exchange rate"):
        run(subject(), sets=("monthly_revenue=5M EUR",))


def test_time_travel_shows_what_the_licensors_statement_changed() -> None:
    analysis = run(subject(as_of=dt.date(2026, 3, 19)), as_of=dt.date(2026, 3, 20))
    change = next(c for c in analysis.changes if c.key == ATTRIBUTION)
    assert change.kind is ChangeKind.CHANGED  # a governance risk on both days
    facts = {f.fact: f for f in change.facts}
    # The 19th: staff posts say there is no authorization; the 20th: they are deleted, the
    # official account speaks of an authorized partnership — the agreement is open again.
    # The Kimi clause reads only Kimi's members: that MiniMax's display duty stays ruled out (no
    # agreement with MiniMax at all) says nothing of them, so the fact is unknown for it.
    before, after = facts["agreement_waives"].before, facts["agreement_waives"].after
    assert (before, after) == ("[]", "unknown")
    assert any("retracted on 2026-03-20" in line for line in facts["agreement_waives"].evidence)
    assert facts["ui_attribution"].before == "unknown"
    assert change.opened == ("agreement_waives",) and change.settled == ("ui_attribution",)


def test_ranking_orders_the_open_facts_by_what_they_settle() -> None:
    analysis = run(subject(), sets=("mau=50M",))
    ranked = analysis.next_facts
    names = [n.fact.name for n in ranked]
    assert set(names) == {"agreement_waives", "monthly_revenue"}  # derivative decides nothing
    assert all(n.may_settle == 1 and n.settles == 0 for n in ranked)
    assert names == sorted(names)  # a tie, broken by name
    # Supplying revenue at or under the line settles the attribution clause: not applicable.
    revenue = next(n for n in ranked if n.fact.name == "monthly_revenue")
    outcomes = {b.when: b.verdict for b in revenue.findings[0].branches}
    assert outcomes["≤ 20M USD/month"] is V.NOT_APPLICABLE


def test_a_fact_that_settles_every_value_ranks_first() -> None:
    # Triggered and failing; only the agreement is open: any answer about it settles.
    base = subject_of(
        product({"commercial": True, "mau": "150M", "ui_attribution": []}, {"derivative": True})
    )
    ranked = run(base).next_facts
    assert [n.fact.name for n in ranked] == ["agreement_waives"]
    assert ranked[0].settles == 1
    # Settling it either way: the what-if confirms each branch.
    assert run(base, sets=("agreement_waives=[]",)).scenario.verdict is V.VIOLATION
    waived = "agreement_waives=[kimi-k2.5-modified-mit/ui-attribution]"
    assert run(base, sets=(waived,)).scenario.verdict is V.SATISFIED


def test_each_operator_puts_its_threshold_on_the_right_side() -> None:
    # less_than 10M and at_least 50M: the threshold starts the upper interval; more_than 100M
    # and at_most 700M: it ends the lower one.
    swept = run(made_up_subject(3), sets=("monthly_revenue=1M",), sweeps=("mau=0..1000M",)).sweep
    assert isinstance(swept, Sweep)
    ends = [(p.region.hi, p.region.hi_closed) for p in swept.pieces[:-1]]
    assert ends == [
        (Fraction(10_000_000), False),
        (Fraction(50_000_000), False),
        (Fraction(100_000_000), True),
        (Fraction(700_000_000), True),
    ]
    products = [p.verdicts.product for p in swept.pieces]
    assert products == [V.VIOLATION, V.SATISFIED, V.VIOLATION, V.VIOLATION, V.VIOLATION]


def test_an_unconfirmed_base_is_the_first_thing_to_find_out() -> None:
    from tests.conftest import PRODUCTS

    ranked = run(subject(PRODUCTS / "swe-1.5.yaml")).next_facts
    assert [n.label for n in ranked] == ["lineage of GLM-4.6"]
    (settling,) = ranked[0].findings
    assert [b.verdict for b in settling.branches] == [V.NOT_APPLICABLE, V.GOVERNANCE_RISK]
    # Before any evidence of Composer 2's base, the lineage settles two findings at once.
    early = run(subject(), as_of=dt.date(2026, 3, 18)).next_facts
    assert early[0].label == "lineage of Kimi K2.5" and len(early[0].findings) == 2


def test_an_undisclosed_base_can_be_swapped_for_a_known_one() -> None:
    from tests.conftest import PRODUCTS

    analysis = run(
        subject(PRODUCTS / "composer1.yaml"),
        swaps=("unknown=kimi-k2",),
        sets=("mau=150M", "commercial=true"),
    )
    kinds = {c.key[2:]: c.kind for c in analysis.changes}
    assert kinds[("unknown", "base-undisclosed")] is ChangeKind.GONE
    assert kinds[("kimi-k2-modified-mit", "ui-attribution")] is ChangeKind.NEW
    with pytest.raises(ScenarioError, match="not in Composer 2's lineage"):
        run(subject(), swaps=("unknown=kimi-k2",))


def test_a_sweep_of_mau_cuts_at_the_licensees_thresholds_too() -> None:
    # The product's users are among the licensee's: above 300M MAU, licensee_mau is too.
    swept = run(made_up_subject(2), sweeps=("mau=1M..1000M",)).sweep
    assert isinstance(swept, Sweep)
    gate = ("main", "test-model", "test-thresholds", "group-gate")
    steps = [(p.region.hi, dict(p.verdicts.findings)[gate]) for p in swept.pieces]
    assert (Fraction(300_000_000), V.GOVERNANCE_RISK) in steps
    assert steps[-1][1] is V.VIOLATION
    assert "licensee_mau > 300M" in {t for th in swept.thresholds for t in th.tests}


def test_a_known_related_fact_cuts_the_sweep_where_it_is_contradicted() -> None:
    # licensee_own_mau is at most 400M, and the product's users are among the licensee's own:
    # a product above 400M MAU contradicts it (found by the property test, kept as a case).
    base = made_up_subject(6)
    swept = run(base, sweeps=("mau=0..700M",)).sweep
    assert isinstance(swept, Sweep)
    assert Fraction(400_000_000) in swept.boundaries()
    assert any("licensee_own_mau is [20M, 400M]" in t for th in swept.thresholds for t in th.tests)
    above = next(p for p in swept.pieces if p.region.lo == 400_000_000)
    assert not above.region.lo_closed
    point = run(base, sets=("mau=450000000",)).scenario
    assert above.region.contains(Fraction(450_000_000))
    assert Verdicts.of(point) == above.verdicts


def test_a_what_if_value_holds_at_the_dates_a_clause_measures_it() -> None:
    # release-gate reads licensee_mau in the month before the model's release (2025-05): a
    # sweep of today's figure moves it too, so its threshold cuts the range.
    swept = run(made_up_subject(2), sweeps=("licensee_mau=1M..1000M",)).sweep
    assert isinstance(swept, Sweep)
    gate = ("main", "test-model", "test-thresholds", "release-gate")
    steps = [(p.region.hi, dict(p.verdicts.findings)[gate]) for p in swept.pieces]
    assert (Fraction(500_000_000), V.NOT_APPLICABLE) in steps
    assert steps[-1][1] is V.VIOLATION  # license_granted is [] in this baseline
    assert "licensee_mau@month_before_release > 500M" in {
        t for th in swept.thresholds for t in th.tests
    }
    point = run(made_up_subject(2), sets=("licensee_mau=600M",)).scenario
    assert dict(Verdicts.of(point).findings)[gate] is V.VIOLATION
