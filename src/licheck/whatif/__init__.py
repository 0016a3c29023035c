"""What-if analysis: scenarios against a baseline product, exact sweeps and region maps.

A scenario against a baseline product, exact sweeps and region maps over one or two quantity
facts, base-model swaps, time travel, and what to find out next.

Pure: nothing here reads files or writes output.  `analyse` is the entry point; `spec` reads the
command line's texts, `scenario` applies them, `compare` diffs two runs, `sweep` computes exact
intervals and maps, `ranking` orders the open facts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from licheck.checks.revenue import REVENUE
from licheck.engine.cells import Rule
from licheck.engine.domains import Domain, Interval
from licheck.evaluation.evaluate import ProductResult
from licheck.facts.resolution import EvidenceView, FactState, Status
from licheck.inputs.manifest import EvidenceKind
from licheck.vocabulary.names import FACTS
from licheck.whatif.compare import Change, compare
from licheck.whatif.ranking import NextFact, rank
from licheck.whatif.scenario import (
    Applied,
    Scenario,
    Subject,
    apply,
    stated_commercial_false,
    states_commercial,
)
from licheck.whatif.spec import ScenarioError, SweepSpec
from licheck.whatif.sweep import (
    Axis,
    ClauseRules,
    RegionMap,
    Sweep,
    Verdicts,
    known_bounds,
    region_map,
    related,
    sweep,
)

__all__ = [
    "Analysis",
    "Scenario",
    "ScenarioError",
    "Subject",
    "analyse",
    "binding_rules",
    "evaluator",
    "hypothesis",
]


@dataclass(frozen=True, slots=True)
class Analysis:
    subject: Subject
    applied: Applied
    baseline: ProductResult
    scenario: ProductResult
    changes: tuple[Change, ...]
    sweep: Sweep | RegionMap | None
    next_facts: tuple[NextFact, ...]


def hypothesis(fact: str, region: Domain) -> FactState:
    """A fact fixed by a sweep: established, whatever the evidence policy."""
    view = EvidenceView(
        "what-if sweep", EvidenceKind.DECLARED, None, None, None, None, None, "establishes"
    )
    definition = FACTS[fact]
    # money in the fact's own period (ARR per year)
    shown = region.shown(definition.period_months) if isinstance(region, Interval) else str(region)
    return FactState(fact, definition, Status.ESTABLISHED, region, shown, evidence=(view,))


def analyse(subject: Subject, scenario: Scenario, sweeps: Sequence[SweepSpec] = ()) -> Analysis:
    """Evaluate the baseline and the scenario, compare them, and sweep the scenario's facts."""
    applied = apply(subject, scenario)
    _check_sweeps(scenario, sweeps)
    _check_swept_revenue(subject, scenario, sweeps)
    baseline = subject.evaluate()
    result = subject.evaluate(applied.options)
    swept: Sweep | RegionMap | None = None
    if sweeps:
        rules = binding_rules(subject, result)
        axes = [
            Axis(
                s.fact,
                s.lower,
                s.upper,
                s.dimension,
                known_bounds(s.fact, applied.states_of(subject, related(s.fact)))
                + _commercial_bound(subject, scenario, s.fact),
            )
            for s in sweeps
        ]
        evaluate = evaluator(subject, applied)
        swept = (
            sweep(axes[0], rules, evaluate)
            if len(axes) == 1
            else region_map(axes[0], axes[1], rules, evaluate)
        )
    return Analysis(
        subject,
        applied,
        baseline,
        result,
        tuple(compare(baseline, result)),
        swept,
        tuple(rank(result)),
    )


def _check_sweeps(scenario: Scenario, sweeps: Sequence[SweepSpec]) -> None:
    if len(sweeps) > 2:
        raise ScenarioError("--sweep can be given for one or two facts, not more")
    if len(sweeps) == 2 and sweeps[0].fact == sweeps[1].fact:
        raise ScenarioError(f"--sweep {sweeps[0].fact} is given twice")
    if len(sweeps) == 2 and sweeps[1].fact in related(sweeps[0].fact):
        # One counts a part of the other: where they meet the map is cut on a diagonal, not
        # at thresholds, and its rectangles would not be exact.
        raise ScenarioError(
            f"--sweep {sweeps[0].fact} and {sweeps[1].fact} bound each other "
            "(one counts a part of the other): sweep one and --set the other"
        )
    fixed = {a.fact for a in scenario.sets}
    for spec in sweeps:
        if spec.fact in fixed:
            raise ScenarioError(f"{spec.fact} is both set (--set) and swept (--sweep): drop one")


def _check_swept_revenue(subject: Subject, scenario: Scenario, sweeps: Sequence[SweepSpec]) -> None:
    """Revenue swept above zero where `commercial: false` is stated: a cell the manifest would be
    refused for (`checks.revenue`), never judged as if both held."""
    if not stated_commercial_false(subject.manifest, scenario.sets):
        return
    for spec in sweeps:
        if spec.fact in REVENUE and spec.upper > 0:
            raise ScenarioError(
                f"--sweep {spec.fact}={spec.text}: commercial is false, but revenue above zero "
                "makes a product commercial: both cannot hold; --set commercial=true to sweep "
                "the figure for a commercial product"
            )


def _commercial_bound(
    subject: Subject, scenario: Scenario, fact: str
) -> tuple[tuple[Fraction, str], ...]:
    """Where `commercial` is derived from the swept revenue (no level states it, no --set), the
    cells change at zero: revenue above zero makes the product commercial."""
    if fact not in REVENUE or states_commercial(subject.manifest, scenario.sets):
        return ()
    return ((Fraction(0), f"{fact} above zero makes the product commercial (derived)"),)


def binding_rules(subject: Subject, result: ProductResult) -> ClauseRules:
    """The rule of every clause with a finding for the product."""
    rules: list[tuple[str, Rule]] = []
    library = subject.library
    policies = {policy.license.id: policy for policy in library.policies}
    for finding in result.findings:
        entry = library.licenses.get(finding.license) or policies.get(finding.license)
        rules.extend(
            (f"{finding.license}/{finding.clause}", compiled.rule)
            for compiled in (entry.clauses if entry else ())
            if compiled.clause.id == finding.clause
        )
    return rules


def evaluator(subject: Subject, applied: Applied) -> _Evaluate:
    return _Evaluate(subject, applied)


@dataclass(frozen=True, slots=True)
class _Evaluate:
    """The scenario evaluated with some facts fixed to a region (one cell of a sweep)."""

    subject: Subject
    applied: Applied

    def __call__(self, regions: Mapping[str, Interval]) -> Verdicts:
        states = {fact: hypothesis(fact, region) for fact, region in regions.items()}
        return Verdicts.of(self.subject.evaluate(self.applied.with_facts(states)))
