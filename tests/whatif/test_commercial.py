"""A what-if revenue makes a product commercial as a stated one does (`checks.revenue`).

The invariant: `--set monthly_revenue=V` (a hypothesis replacing the figure at every level) gives
the verdicts of the manifest that states V in its place, and is refused exactly where that
manifest is refused (`commercial: false` beside revenue above zero).  Before, the scenario kept
the manifest's derivation of `commercial` (or its absence): revenue set to 30M left `commercial`
unknown, or judged beside a stated `commercial: false` as if both held (not applicable).
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from licheck.core.diagnostics import InputError
from licheck.core.verdicts import Verdict
from licheck.whatif import ScenarioError
from licheck.whatif.sweep import Sweep
from tests.whatif_helpers import product, run, subject_of

REVENUES = ("0 USD/month", "5M USD/month", "30M USD/month")
ABSENT = None

# What a level may state: each fact absent or one of its values.
LEVEL = st.fixed_dictionaries(
    {
        "commercial": st.sampled_from([ABSENT, True, False]),
        "monthly_revenue": st.sampled_from([ABSENT, *REVENUES]),
        "paid": st.sampled_from([ABSENT, True, False]),
    }
)
SETS = st.lists(
    st.sampled_from(
        [
            *(("monthly_revenue", r) for r in REVENUES),
            ("commercial", True),
            ("commercial", False),
            ("paid", True),
        ]
    ),
    min_size=1,
    max_size=3,
    unique_by=lambda pair: pair[0],
)
SETTLED = {"ui_attribution": [], "agreement_waives": [], "mau": "50M"}


def _stated(level: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in level.items() if value is not ABSENT}


def _manifest(outer: dict[str, Any], inner: dict[str, Any]) -> dict[str, Any]:
    return product({**SETTLED, **_stated(outer)}, {"derivative": True, **_stated(inner)})


def _stating(data: dict[str, Any], sets: list[tuple[str, Any]]) -> dict[str, Any]:
    """The manifest with each what-if value stated in its place, at every level."""
    edited = copy.deepcopy(data)
    for name, value in sets:
        edited["facts"][name] = value
        for component in edited["components"]:
            component["facts"].pop(name, None)
    return edited


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value).replace(" ", "")


def _verdicts(result: Any) -> dict[tuple[str, ...], Verdict]:
    return {f.key: f.verdict for f in result.findings}


@settings(max_examples=120, deadline=None)
@given(LEVEL, LEVEL, SETS)
def test_a_what_if_figure_judges_as_the_manifest_stating_it(
    outer: dict[str, Any], inner: dict[str, Any], sets: list[tuple[str, Any]]
) -> None:
    data = _manifest(outer, inner)
    try:
        subject_of(data).evaluate()
    except InputError:
        return  # the baseline itself is refused: no what-if is asked of it
    texts = tuple(f"{name}={_text(value)}" for name, value in sets)
    try:
        expected = subject_of(_stating(data, sets)).evaluate()
    except InputError:
        with pytest.raises(ScenarioError, match="commercial is false"):
            run(subject_of(data), sets=texts)
        return
    analysis = run(subject_of(data), sets=texts)
    assert _verdicts(analysis.scenario) == _verdicts(expected)


def test_revenue_set_on_a_product_that_states_no_commercial_makes_it_commercial() -> None:
    base = subject_of(_manifest({}, {}))
    assert base.evaluate().verdict is Verdict.GOVERNANCE_RISK  # commercial unknown
    analysis = run(base, sets=("monthly_revenue=30M",))
    assert analysis.scenario.verdict is Verdict.VIOLATION
    facts = {f.fact: f.after for c in analysis.changes for f in c.facts}
    assert facts["commercial"] == "true"


def test_revenue_set_beside_commercial_false_is_refused_with_the_way_out() -> None:
    base = subject_of(_manifest({"commercial": False}, {}))
    with pytest.raises(ScenarioError, match=r"--set commercial=true"):
        run(base, sets=("monthly_revenue=30M",))
    asked = run(base, sets=("monthly_revenue=30M", "commercial=true"))
    assert asked.scenario.verdict is Verdict.VIOLATION


def test_revenue_set_to_zero_no_longer_implies_commercial() -> None:
    # the manifest's 30M made it commercial; the what-if's 0 leaves commercial unknown, which
    # matters where the users are unknown too (over 100M MAU a commercial product must attribute)
    data = _manifest({"monthly_revenue": "30M USD/month"}, {})
    del data["facts"]["mau"]
    base = subject_of(data)
    assert base.evaluate().verdict is Verdict.VIOLATION
    analysis = run(base, sets=("monthly_revenue=0",))
    assert analysis.scenario.verdict is Verdict.GOVERNANCE_RISK
    facts = {f.fact: f.after for c in analysis.changes for f in c.facts}
    assert facts["commercial"] == "unknown"
    # with the users known to be over the line, commercial is what the verdict hangs on
    over = run(base, sets=("monthly_revenue=0", "mau=150M"))
    finding = next(f for f in over.scenario.findings if f.key[-1] == "ui-attribution")
    assert [m.fact.name for m in finding.missing_facts] == ["commercial"]


def test_a_revenue_sweep_cuts_at_zero_where_commercial_is_derived() -> None:
    data = _manifest({"mau": "150M"}, {})  # over the users' line: commercial decides
    swept = run(subject_of(data), sweeps=("monthly_revenue=0..100M",)).sweep
    assert isinstance(swept, Sweep)
    pieces = [
        (p.region.lo, p.region.lo_closed, p.region.hi, p.verdicts.product) for p in swept.pieces
    ]
    assert pieces == [
        (Fraction(0), True, Fraction(0), Verdict.GOVERNANCE_RISK),  # nothing implies commercial
        (Fraction(0), False, Fraction(100_000_000), Verdict.VIOLATION),  # commercial, 150M MAU
    ]
    assert "above zero makes the product commercial" in swept.thresholds[0].tests[0]


def test_a_revenue_sweep_beside_commercial_false_is_refused() -> None:
    base = subject_of(_manifest({}, {"commercial": False}))
    with pytest.raises(ScenarioError, match="commercial is false"):
        run(base, sweeps=("monthly_revenue=0..100M",))
    run(base, sets=("commercial=true",), sweeps=("monthly_revenue=0..100M",))
