"""The what-if report: one view-model that the terminal, JSON, CSV and SVG outputs render.

Its JSON Schema is published (`licheck schema whatif`).  Quantities are given in the fact's unit
(a count, or US dollars per month) as a JSON number and, exactly, as a fraction string; every
interval says whether each of its bounds is included.  Sorted and free of timestamps.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from licheck.core.units import Dimension, format_amount, to_json_number
from licheck.core.verdicts import Verdict
from licheck.engine.domains import Interval
from licheck.evaluation.evaluate import Finding, ProductResult
from licheck.facts.periods import FactError
from licheck.facts.resolution import claim_domain
from licheck.files.jsontext import document as json_document
from licheck.inputs.manifest import FactSpec
from licheck.report.explain import explain
from licheck.report.view import SingleProductReport
from licheck.vocabulary.names import FACTS
from licheck.whatif import Analysis
from licheck.whatif.compare import Change, ChangeKind, finding_id
from licheck.whatif.ranking import NextFact
from licheck.whatif.sweep import Axis, RegionMap, Sweep, Threshold, Verdicts


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SetOut(_Model):
    fact: str
    value: str = Field(description="as typed after --set FACT=")
    means: str = Field(description="what licheck reads it as (money in USD per month)")


class SwapOut(_Model):
    old: str = Field(description="catalog id of the base model in the manifest")
    new: str = Field(description="catalog id of the model evaluated in its place")


class ScenarioOut(_Model):
    sets: list[SetOut]
    swaps: list[SwapOut]
    as_of: str | None = Field(description="the scenario's evidence date, where it differs")


class FindingVerdictOut(_Model):
    finding: str = Field(description="component/model/license/clause")
    verdict: Verdict


class ScenarioFindingOut(_Model):
    # A finding as the baseline or the scenario gives it: its id, then the report's finding's
    # fields of the same names (`report.view.FindingOut`) that a comparison reads.
    finding: str = Field(description="component/model/license/clause")
    component: str
    model: str
    model_name: str
    license: str
    clause: str
    title: str
    verdict: Verdict
    likely_verdict: Verdict


class ResultOut(_Model):
    verdict: Verdict
    findings: list[ScenarioFindingOut]


class FactChangeOut(_Model):
    fact: str
    baseline: str
    scenario: str
    evidence: list[str] = Field(description="pieces of evidence counted differently, and how")


class ChangeOut(_Model):
    finding: str
    license: str
    clause: str
    title: str
    kind: ChangeKind
    baseline: Verdict | None
    scenario: Verdict | None
    facts: list[FactChangeOut]
    settled: list[str] = Field(description="facts missing in the baseline, not in the scenario")
    opened: list[str] = Field(description="facts missing in the scenario, not in the baseline")
    explanation: str


class BoundOut(_Model):
    value: int | float = Field(description="in the fact's unit: a count, or USD per month")
    exact: str = Field(description="the exact value, as an integer or a fraction p/q")
    included: bool


class RangeOut(_Model):
    lower: BoundOut
    upper: BoundOut
    label: str


class IntervalOut(RangeOut):
    verdict: Verdict = Field(description="the product's verdict everywhere in the interval")
    findings: list[FindingVerdictOut]


class RegionOut(_Model):
    x: RangeOut
    y: RangeOut
    verdict: Verdict
    findings: list[FindingVerdictOut]


class ThresholdOut(_Model):
    value: int | float
    exact: str
    label: str
    tests: list[str] = Field(description="the clause tests that compare the fact with it")
    clauses: list[str] = Field(description="license/clause")
    changes_verdict: bool = Field(description="whether any verdict changes there")


class FindingStepOut(_Model):
    finding: str
    below: Verdict
    above: Verdict


class BoundaryOut(_Model):
    value: int | float
    exact: str
    label: str
    side: Literal["below", "above"] = Field(description="the side that includes the value")
    below: Verdict = Field(description="the product's verdict just below")
    above: Verdict = Field(description="the product's verdict just above")
    changes: list[FindingStepOut] = Field(description="the findings whose verdict changes here")


class AxisOut(_Model):
    fact: str
    unit: Literal["count", "USD/month"]
    lower: int | float
    upper: int | float
    thresholds: list[ThresholdOut]


class SweepOut(_Model):
    axes: list[AxisOut] = Field(description="one axis per swept fact (x first)")
    intervals: list[IntervalOut] | None = Field(description="one fact: the merged intervals")
    boundaries: list[BoundaryOut] | None = Field(description="one fact: where verdicts change")
    regions: list[RegionOut] | None = Field(description="two facts: the map's rectangles")


class OutcomeOut(_Model):
    when: str
    verdict: Verdict


class SettlingOut(_Model):
    finding: str
    settles: bool = Field(description="every value of the fact gives a firm verdict")
    outcomes: list[OutcomeOut]


class NextFactOut(_Model):
    fact: str = Field(description="the fact's name; for lineage, with the model it is about")
    status: Literal["established", "likely", "disputed", "unknown"]
    likely: str | None
    settles: int = Field(description="governance risks that any value of it would settle")
    may_settle: int = Field(description="governance risks that some value of it would settle")
    findings: list[SettlingOut]


class WhatIfReport(SingleProductReport):
    """What if, for one manifest: the baseline's findings beside the scenario's, the findings
    that change and why, the sweep's intervals or region map, and the scenario's open facts,
    most decisive first (`licheck whatif --format json` is this model)."""

    as_of: str | None = Field(description="the baseline's evidence date")
    scenario: ScenarioOut
    baseline: ResultOut
    result: ResultOut = Field(description="the scenario's findings")
    changes: list[ChangeOut] = Field(description="findings that differ between the two runs")
    sweep: SweepOut | None
    next_facts: list[NextFactOut] = Field(
        description="the scenario's open facts, most decisive first"
    )


def build(analysis: Analysis) -> WhatIfReport:
    subject, applied = analysis.subject, analysis.applied
    base = subject.options
    scenario = applied.scenario
    rates = subject.rates()
    return WhatIfReport(
        product=analysis.baseline.product,
        owner=analysis.baseline.owner,
        file=analysis.baseline.file,
        evidence_policy=base.policy.name,
        as_of=base.as_of.isoformat() if base.as_of else None,
        scenario=ScenarioOut(
            sets=[
                SetOut(fact=a.fact, value=a.text, means=_means(a.fact, a.spec, rates))
                for a in scenario.sets
            ],
            swaps=[SwapOut(old=o, new=n) for o, n in applied.swaps.items()],
            as_of=scenario.as_of.isoformat() if scenario.as_of else None,
        ),
        baseline=_result(analysis.baseline),
        result=_result(analysis.scenario),
        changes=[_change(c) for c in analysis.changes if c.kind is not ChangeKind.SAME],
        sweep=_sweep(analysis.sweep) if analysis.sweep is not None else None,
        next_facts=[_next(n) for n in analysis.next_facts],
    )


def _means(fact: str, spec: FactSpec, rates: dict[str, Fraction]) -> str:
    try:
        domain = claim_domain(FACTS[fact], spec, rates)
    except FactError:  # pragma: no cover - the scenario was checked before
        return "unreadable"
    if isinstance(domain, Interval):  # money in the fact's own period (ARR per year)
        return domain.shown(FACTS[fact].period_months)
    return "unknown" if domain is None else str(domain)


def _result(result: ProductResult) -> ResultOut:
    return ResultOut(
        verdict=result.verdict,
        findings=[
            ScenarioFindingOut(
                finding=finding_id(f.key),
                component=f.component,
                model=f.model,
                model_name=f.model_name,
                license=f.license,
                clause=f.clause,
                title=f.title,
                verdict=f.verdict,
                likely_verdict=f.likely_verdict,
            )
            for f in result.findings
        ],
    )


def _change(change: Change) -> ChangeOut:
    finding = change.scenario or change.baseline
    assert finding is not None
    return ChangeOut(
        finding=finding_id(change.key),
        license=finding.license,
        clause=finding.clause,
        title=finding.title,
        kind=change.kind,
        baseline=change.before,
        scenario=change.after,
        facts=[
            FactChangeOut(
                fact=f.fact, baseline=f.before, scenario=f.after, evidence=list(f.evidence)
            )
            for f in change.facts
        ],
        settled=list(change.settled),
        opened=list(change.opened),
        explanation=_why(change, finding),
    )


def _why(change: Change, finding: Finding) -> str:
    if change.kind is ChangeKind.GONE:
        binds = (
            f", so {finding.license_name} does not bind it" if finding.license != "unknown" else ""
        )
        return (
            f"Not in the scenario: {finding.component_name} is no longer built on "
            f"{finding.model_name}{binds}."
        )
    if change.kind is ChangeKind.NEW:
        return f"New in the scenario (built on {finding.model_name}): " + explain(finding)
    return explain(finding)


def _bound(value: Fraction, included: bool) -> BoundOut:
    return BoundOut(value=to_json_number(value), exact=str(value), included=included)


def _range(region: Interval) -> RangeOut:
    assert region.hi is not None
    return RangeOut(
        lower=_bound(region.lo, region.lo_closed),
        upper=_bound(region.hi, region.hi_closed),
        label=str(region),
    )


def _verdicts(verdicts: Verdicts) -> list[FindingVerdictOut]:
    return [FindingVerdictOut(finding=finding_id(key), verdict=v) for key, v in verdicts.findings]


def _axis(axis: Axis, thresholds: tuple[Threshold, ...], changes: set[Fraction]) -> AxisOut:
    return AxisOut(
        fact=axis.fact,
        unit="USD/month" if axis.dimension is Dimension.MONEY else "count",
        lower=to_json_number(axis.lower),
        upper=to_json_number(axis.upper),
        thresholds=[
            ThresholdOut(
                value=to_json_number(t.value),
                exact=str(t.value),
                label=format_amount(t.value, axis.dimension),
                tests=list(t.tests),
                clauses=list(t.clauses),
                changes_verdict=t.value in changes,
            )
            for t in thresholds
        ],
    )


def _sweep(swept: Sweep | RegionMap) -> SweepOut:
    if isinstance(swept, Sweep):
        pieces = swept.pieces
        boundaries = []
        for left, right in itertools.pairwise(pieces):
            assert left.region.hi is not None
            value = left.region.hi
            boundaries.append(
                BoundaryOut(
                    value=to_json_number(value),
                    exact=str(value),
                    label=format_amount(value, swept.axis.dimension),
                    side="below" if left.region.hi_closed else "above",
                    below=left.verdicts.product,
                    above=right.verdicts.product,
                    changes=[
                        FindingStepOut(finding=finding_id(key), below=old, above=new)
                        for (key, old), (_, new) in zip(
                            left.verdicts.findings, right.verdicts.findings, strict=True
                        )
                        if old is not new
                    ],
                )
            )
        changes = set(swept.boundaries())
        return SweepOut(
            axes=[_axis(swept.axis, swept.thresholds, changes)],
            intervals=[
                IntervalOut(
                    **_range(p.region).model_dump(),
                    verdict=p.verdicts.product,
                    findings=_verdicts(p.verdicts),
                )
                for p in pieces
            ],
            boundaries=boundaries,
            regions=None,
        )
    x_changes = {r.hi for r in swept.xs[:-1] if r.hi is not None}
    y_changes = {r.hi for r in swept.ys[:-1] if r.hi is not None}
    regions = [
        RegionOut(
            x=_range(xi),
            y=_range(yj),
            verdict=swept.grid[j][i].product,
            findings=_verdicts(swept.grid[j][i]),
        )
        for j, yj in enumerate(swept.ys)
        for i, xi in enumerate(swept.xs)
    ]
    return SweepOut(
        axes=[
            _axis(swept.x, swept.x_thresholds, x_changes),
            _axis(swept.y, swept.y_thresholds, y_changes),
        ],
        intervals=None,
        boundaries=None,
        regions=regions,
    )


def _next(item: NextFact) -> NextFactOut:
    state = item.fact
    return NextFactOut(
        fact=item.label,
        status=state.status.value,
        likely=str(state.likely) if state.likely is not None else None,
        settles=item.settles,
        may_settle=item.may_settle,
        findings=[
            SettlingOut(
                finding=finding_id(s.key),
                settles=s.settles,
                outcomes=[OutcomeOut(when=b.when, verdict=b.verdict) for b in s.branches],
            )
            for s in item.findings
        ],
    )


def to_json(report: WhatIfReport) -> str:
    return json_document(report.model_dump(mode="json")) + "\n"
