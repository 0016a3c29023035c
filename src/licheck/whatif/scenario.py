"""A scenario: facts set as hypotheses, base models swapped, evidence taken as of another date —
applied to a baseline product without ever modifying it (the manifest is frozen; the scenario is
a second set of evaluation options, as openfisca's reforms derive from a baseline).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

from licheck.checks.consistency import (
    PURPOSE_HINT,
    agreement_conflicts,
    library_member_problem,
    purpose_conflict,
)
from licheck.checks.revenue import COMMERCIAL, PAID, REVENUE, implied_commercial
from licheck.core.context import EvaluationContext
from licheck.core.units import exchange_rates
from licheck.engine.domains import Domain, intersect
from licheck.evaluation.evaluate import (
    HYPOTHETICAL,
    UNKNOWN_MODEL,
    Hypotheses,
    Options,
    ProductResult,
    evaluate_manifest,
)
from licheck.facts import agreements
from licheck.facts.periods import FactError
from licheck.facts.resolution import FactState, Resolution, Status, claim_domain, resolve
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Evidence, EvidenceKind, FactSpec, Manifest
from licheck.library.compiled import Library
from licheck.loading.factchecks import stateable
from licheck.vocabulary.factdefs import FactDef, suggest
from licheck.vocabulary.names import FACTS
from licheck.whatif.spec import Assignment, ScenarioError, Swap, members


@dataclass(frozen=True, slots=True)
class Scenario:
    """What differs from the baseline.  `as_of` None: the baseline's evidence date."""

    sets: tuple[Assignment, ...] = ()
    swaps: tuple[Swap, ...] = ()
    as_of: dt.date | None = None

    def is_empty(self) -> bool:
        return not self.sets and not self.swaps and self.as_of is None


@dataclass(frozen=True, slots=True)
class Subject:
    """The baseline: a product, the rule library and the options it is evaluated with."""

    manifest: Manifest
    document: Document
    library: Library
    options: Options
    # The memo tables of every evaluation of this subject (a sweep evaluates it per cell).
    context: EvaluationContext = field(default_factory=EvaluationContext, compare=False)

    def evaluate(self, options: Options | None = None) -> ProductResult:
        return evaluate_manifest(
            self.manifest, self.document, self.library, options or self.options, self.context
        )

    def hypothetical(self) -> Resolution:
        """How a what-if fact is resolved: established whatever the policy and date."""
        return Resolution(
            HYPOTHETICAL, None, self.rates(), dict(self.manifest.sources), self.context
        )

    def rates(self) -> dict[str, Fraction]:
        # the problems: the baseline's own evaluation reports them, located in the file
        return exchange_rates(self.manifest.currency_rates)[0]

    def has_undisclosed_base(self) -> bool:
        return any(
            ref.model.strip().lower() == UNKNOWN_MODEL
            for component in self.manifest.components
            for ref, _ in component.lineage.models()
        )

    def lineage_models(self) -> dict[str, str]:
        """Catalog id -> name of every catalog model in the product's lineages."""
        found: dict[str, str] = {}
        for component in self.manifest.components:
            for ref, _ in component.lineage.models():
                model = self.library.model(ref.model)
                if model is not None:
                    found[model.id] = model.name
        return found


@dataclass(frozen=True, slots=True)
class Applied:
    """A scenario checked against its subject: the options that evaluate it."""

    scenario: Scenario
    options: Options
    swaps: Mapping[str, str] = field(default_factory=dict)  # catalog id -> catalog id

    def states_of(self, subject: Subject, names: set[str]) -> list[FactState]:
        """Every value the scenario gives the named facts (product- and component-level, or its
        own hypothesis), as the evaluation resolves them."""
        context = Resolution(
            self.options.policy, self.options.as_of, subject.rates(), dict(subject.manifest.sources)
        )
        given = self.options.hypotheses.facts
        specs = [(n, spec) for n, spec in subject.manifest.facts.items()]
        specs += [(n, spec) for c in subject.manifest.components for n, spec in c.facts.items()]
        states = []
        for name, spec in specs:
            if name in names and name not in given:
                try:
                    states.append(resolve(name, spec, context))
                except FactError:
                    continue  # the baseline's evaluation reports it, located in the file
        states += [state for name, state in given.items() if name in names]
        return states

    def with_facts(self, states: Mapping[str, FactState]) -> Options:
        """The scenario's options with more facts fixed (a sweep's cell)."""
        hypotheses = self.options.hypotheses
        facts = {**hypotheses.facts, **states}
        return replace(self.options, hypotheses=replace(hypotheses, facts=facts))


def apply(subject: Subject, scenario: Scenario) -> Applied:
    """Check the scenario against the product and library; `ScenarioError` says what is wrong."""
    facts: dict[str, FactState] = {}
    rates = subject.rates()
    for assignment in scenario.sets:
        if assignment.fact in facts:
            raise ScenarioError(f"--set {assignment.fact} is given twice")
        try:
            claim_domain(FACTS[assignment.fact], assignment.spec, rates)
        except FactError as exc:
            raise ScenarioError(f"--set {assignment.fact}={assignment.text}: {exc}") from None
        _check_members(assignment, subject.library)
        facts[assignment.fact] = _hypothesis(
            subject, assignment.fact, assignment.spec, f"--set {assignment.fact}={assignment.text}"
        )
    facts.update(_agreement_terms(subject, scenario.sets))
    _check_purpose(subject.manifest, scenario.sets)
    _check_commercial(subject.manifest, scenario.sets, rates)
    swaps = _swaps(subject, scenario.swaps)
    as_of = scenario.as_of if scenario.as_of is not None else subject.options.as_of
    options = Options(subject.options.policy, as_of, Hypotheses(facts, swaps))
    return Applied(scenario, options, swaps)


def contradiction(subject: Subject, name: str, domain: Domain, where: str) -> str | None:
    """How a what-if value departs from what the manifest establishes of the fact: None where it
    narrows it; words where it contradicts it outright (a counterfactual, reported as such).
    A value that overlaps the established one and reaches beyond it would widen what is known
    without saying so: refused."""
    context = Resolution(
        subject.options.policy,
        subject.options.as_of,
        subject.rates(),
        dict(subject.manifest.sources),
    )
    manifest = subject.manifest
    specs = [manifest.facts.get(name), *(c.facts.get(name) for c in manifest.components)]
    for spec in specs:
        if spec is None:
            continue
        try:
            known = resolve(name, spec, context)
        except FactError:
            continue  # the baseline's evaluation reports it, located in the file
        if known.status is not Status.ESTABLISHED:
            continue
        meet = intersect(known.domain, domain)
        if meet.is_empty():
            return f"contradicting the manifest's {known.domain}"
        if meet != domain:
            raise ScenarioError(
                f"{where} reaches beyond what the manifest establishes ({name} is "
                f"{known.domain}): it would widen what is known; give a value within it "
                f"({meet}), or one apart from it to ask a counterfactual"
            )
    return None


def _agreement_terms(subject: Subject, sets: tuple[Assignment, ...]) -> dict[str, FactState]:
    """What `--set agreement=...` implies of `agreement_waives` and `license_granted`, as the flat
    fact does in a manifest (a licensor it rules out granted and waived nothing; one it names
    leaves its terms open), unless they are set too; set beside it, one naming a licensor it
    rules out is refused.  (Asking "what if there were no agreement" kept the manifest's
    waivers: satisfied.)"""
    given = {a.fact: a for a in sets}
    flat = given.get("agreement")
    if flat is None:
        return {}
    where = f"--set agreement={flat.text}"
    found: dict[str, FactState] = {}
    for name in ("agreement_waives", "license_granted"):
        other = given.get(name)
        if other is not None:
            for item, owner in agreement_conflicts(flat.spec, other.spec, subject.library)[:1]:
                raise ScenarioError(
                    f"--set {name}={other.text} names {item!r}, {owner}'s, but {where} says "
                    f"there is no agreement with {owner}: both cannot hold"
                )
            continue
        if flat.spec.value == "unknown":
            spec = FactSpec(value="unknown")
        else:
            stated = flat.spec.model_copy(
                update={
                    "evidence": [Evidence(source=f"what-if: {where}", kind=EvidenceKind.DECLARED)]
                }
            )
            spec = agreements.implied_by_flat(stated, subject.library, name)
        found[name] = resolve(name, spec, subject.hypothetical())
    return found


def _check_purpose(manifest: Manifest, sets: tuple[Assignment, ...]) -> None:
    """`commercial` and `use_purpose` as the scenario has them (a --set replaces the manifest's
    value at every level), in each scope: a contradiction the manifest would be refused for is
    refused here too, never judged as if both were true."""
    given = {a.fact: a for a in sets if a.fact in ("commercial", "use_purpose")}
    if not given:
        return
    scopes = [manifest.facts, *({**manifest.facts, **c.facts} for c in manifest.components)]
    for specs in scopes:
        specs = {**specs, **{name: a.spec for name, a in given.items()}}
        why = purpose_conflict(specs.get("commercial"), specs.get("use_purpose"))
        if why:
            shown = " ".join(f"--set {a.fact}={a.text}" for a in given.values())
            raise ScenarioError(f"{shown}: {why}; {PURPOSE_HINT}")


def _check_commercial(
    manifest: Manifest, sets: tuple[Assignment, ...], rates: Mapping[str, Fraction]
) -> None:
    """`commercial: false` beside revenue above zero or `paid: true`, as the scenario has them
    (a --set replaces the manifest's value at every level), in each scope: refused as the
    manifest would be (`checks.revenue`), never judged as if both were true."""
    given = {a.fact: a for a in sets if a.fact in (COMMERCIAL, PAID, *REVENUE)}
    if not given:
        return
    for specs in _scopes(manifest):
        specs = {**specs, **{name: a.spec for name, a in given.items()}}
        stated = specs.get(COMMERCIAL)
        implied = (
            None
            if stated is None or stated.value is not False
            else implied_commercial(specs, rates)
        )
        if implied is not None:
            shown = " ".join(f"--set {a.fact}={a.text}" for a in given.values())
            raise ScenarioError(
                f"{shown}: commercial is false, but {implied.fact} says the product earns "
                f"revenue ({implied.why}): both cannot hold; --set commercial=true to ask "
                f"what the figure means for a commercial product"
            )


def stated_commercial_false(manifest: Manifest, sets: tuple[Assignment, ...]) -> bool:
    """Some scope has `commercial: false`, as the scenario has it."""
    for assignment in sets:
        if assignment.fact == COMMERCIAL:
            return assignment.spec.value is False
    return any(
        specs.get(COMMERCIAL) is not None and specs[COMMERCIAL].value is False
        for specs in _scopes(manifest)
    )


def states_commercial(manifest: Manifest, sets: tuple[Assignment, ...]) -> bool:
    """`commercial` is stated at some level, or set by the scenario: never derived."""
    return any(a.fact == COMMERCIAL for a in sets) or any(
        COMMERCIAL in specs for specs in _scopes(manifest)
    )


def _scopes(manifest: Manifest) -> list[dict[str, FactSpec]]:
    """The facts of each scope: the product's, and each component's with the product's."""
    return [dict(manifest.facts), *({**manifest.facts, **c.facts} for c in manifest.components)]


def _check_members(assignment: Assignment, library: Library) -> None:
    """Members naming licenses or clauses the library does not define would never match a
    rule, silently: refused as the manifest's are (`consistency.library_member_problem`)."""
    for item in members(assignment.spec):
        problem = library_member_problem(assignment.fact, str(item), library)
        if problem:
            raise ScenarioError(
                f"--set {assignment.fact}={assignment.text}: {assignment.fact}: {problem}; "
                "license ids are listed by `licheck licenses list`"
            )


def _hypothesis(subject: Subject, name: str, spec: FactSpec, where: str) -> FactState:
    """A what-if fact, established whatever the policy and date of the run; its evidence says
    where it contradicts the manifest."""
    definition: FactDef | None = FACTS.get(name)
    if definition is None or definition.implicit:
        raise ScenarioError(
            f"cannot set {name!r}: it is not a fact that can be stated{suggest(name, stateable())}"
        )
    state = _resolve(subject, name, spec, "what-if")
    departs = contradiction(subject, name, state.domain, where)
    if departs is None:
        return state
    return _resolve(subject, name, spec, f"what-if, {departs}")  # its evidence says so


def _resolve(subject: Subject, name: str, spec: FactSpec, source: str) -> FactState:
    """The what-if value with `source` as its only evidence."""
    given = spec.model_copy(
        update={"evidence": [Evidence(source=source, kind=EvidenceKind.DECLARED)]}
    )
    try:
        return resolve(name, given, subject.hypothetical())
    except FactError as exc:
        raise ScenarioError(f"what-if value of {name}: {exc}") from None


def _swaps(subject: Subject, swaps: tuple[Swap, ...]) -> dict[str, str]:
    library = subject.library
    present = subject.lineage_models()
    if subject.has_undisclosed_base():
        present[UNKNOWN_MODEL] = "an undisclosed base"
    result: dict[str, str] = {}
    for swap in swaps:
        where = f"--swap-base {swap.old}={swap.new}"
        new = library.model(swap.new)
        if new is None:
            raise ScenarioError(
                f"{where}: unknown model {swap.new!r}"
                f"{library.suggest_model(swap.new)}; see `licheck licenses "
                "models`"
            )
        if swap.old.strip().lower() == UNKNOWN_MODEL:
            old_id = UNKNOWN_MODEL
        else:
            old = library.model(swap.old)
            if old is None:
                raise ScenarioError(
                    f"{where}: unknown model {swap.old!r}"
                    f"{library.suggest_model(swap.old)}; see `licheck licenses "
                    "models` (or `unknown` for an undisclosed base)"
                )
            old_id = old.id
        if old_id not in present:
            shown = ", ".join(sorted(present)) or "none in the catalog"
            raise ScenarioError(
                f"{where}: {old_id} is not in {subject.manifest.product}'s "
                f"lineage (its models: {shown})"
            )
        if old_id in result:
            raise ScenarioError(f"--swap-base {old_id} is given twice")
        result[old_id] = new.id
    return result
