"""Every fact a manifest implies, as the clauses will read them.

The manifest's own facts are resolved under the run's evidence policy and date; licheck supplies
the facts that follow from its structure unless stated (`distributes_weights`, `distributes_code`,
`made_available`, `model_made_available`, `model_offered` from the delivery and the lineage;
`multimodal` from the catalog; `derivative` and `received_in_integrated_product` by default;
`improves_other_models` and `competes_with_licensed_model` from training on a model's outputs,
per model: `checks.implied`);
each lineage entry is a `lineage` fact with the manifest's evidence for it.  A what-if scenario
(`Hypotheses`) is applied here and nowhere else: its facts replace the manifest's, and its swapped
bases replace lineage entries.

Values in, values out: a `Derivation` is immutable (what deriving reads: the manifest's document,
the library, how facts resolve, the scenario), and each method returns what it derived with the
problems it found (`Derived`: the value and a tuple of located diagnostics), which the caller
adds to its own.  A new derived fact is a method returning `Derived[FactState]` (or a
`FactState` where no problem can arise: `default`), set by `component_facts` or `model_facts`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Generic, NamedTuple, TypeVar

from licheck.checks.implied import COMPETES, IMPROVES, implied_by
from licheck.checks.revenue import COMMERCIAL, PAID, REVENUE, implied_commercial
from licheck.checks.settled import TRAINING_STEPS, steps_taken, trains
from licheck.core.context import EvaluationContext, Table
from licheck.core.diagnostics import Diagnostic
from licheck.core.units import exchange_rates
from licheck.engine.domains import Booleans, Interval, StringSet
from licheck.evaluation.findings import HYPOTHETICAL, Hypotheses, Options
from licheck.facts import agreements
from licheck.facts.evidencepolicy import EvidencePolicy
from licheck.facts.measurement import month_before
from licheck.facts.periods import FactError
from licheck.facts.resolution import STATED, FactState, Resolution, Status, resolve, share
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import (
    CandidateBases,
    Component,
    Delivery,
    Evidence,
    EvidenceKind,
    FactSpec,
    Lineage,
    Manifest,
    ModelRef,
    NoAgreements,
    Owner,
    Step,
    listed_agreements,
)
from licheck.inputs.rules import CatalogModel, model_key
from licheck.library.compiled import Library
from licheck.loading.factchecks import unknown_fact
from licheck.vocabulary.factdefs import FactType
from licheck.vocabulary.names import SCOPED

Path = tuple[str | int, ...]
Facts = Mapping[str, FactState]
Problems = tuple[Diagnostic, ...]
T = TypeVar("T")


class Derived(NamedTuple, Generic[T]):
    """A value derived from the manifest, with the problems found deriving it (located)."""

    value: T
    problems: Problems = ()

    def into(self, problems: list[Diagnostic]) -> T:
        """The value, its problems added to `problems` (the caller's own list)."""
        problems.extend(self.problems)
        return self.value


# A supplied fact's value: a boolean, a string, or a set's members (a tuple, so it can be a key).
Default = bool | str | tuple[str, ...]
# The facts licheck supplies (`Derivation.default`): (name, value, source, evidence policy) ->
# the state.  Only those whose source no manifest cites are kept, so the key is their whole input.
DEFAULTS: Table[tuple[str, Default, str | None, EvidencePolicy], FactState] = Table("defaults")
# The implicit `relations` fact of a set of relations (`Derivation.relations_fact`), per policy.
RELATIONS: Table[tuple[str, tuple[str, ...], EvidencePolicy], FactState] = Table("relations")


@dataclass(frozen=True, slots=True)
class Derivation:
    """What one product's facts are derived from; each method returns a value (with the
    problems found, `Derived`, where there can be any) and changes nothing."""

    document: Document
    library: Library
    context: Resolution
    hypotheses: Hypotheses
    # The scenario's facts as clauses read them (a quantity at every month measured, too).
    supposed: Facts = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        manifest: Manifest,
        document: Document,
        library: Library,
        options: Options,
        memo: EvaluationContext,
    ) -> Derived[Derivation]:
        """The derivation of `manifest`'s facts; its problems: currency rates it cannot read."""
        rates, wrong = exchange_rates(manifest.currency_rates)
        problems = tuple(document.error(("currency_rates", key), m) for key, m in wrong.items())
        sources = dict(manifest.sources)
        context = Resolution(options.policy, options.as_of, rates, sources, memo, options.resolver)
        hypotheses = options.hypotheses
        supposed = {n: _at_every_month(s, library) for n, s in hypotheses.facts.items()}
        return Derived(cls(document, library, context, hypotheses, supposed), problems)

    def product_facts(self, manifest: Manifest) -> Derived[Facts]:
        """The facts the product states for all its components, and its agreements'."""
        problems: list[Diagnostic] = []
        facts = self.stated(manifest.facts, ("facts",), scoped=False).into(problems)
        facts.update(self.commercial(manifest.facts, ("facts",)))
        facts.update(self.agreement_facts(manifest).into(problems))
        facts.update(self.supposed)
        facts = self.supposed_commercial(facts, manifest.facts, ("facts",), None)
        return Derived(facts, tuple(problems))

    def commercial(self, specs: Mapping[str, FactSpec], path: Path) -> dict[str, FactState]:
        """`commercial` derived from the revenue or `paid` stated at one level, where that level
        does not state it (`checks.revenue`); as certain as the figure's evidence.  A stated
        `commercial: false` against them is refused by the manifest check."""
        if COMMERCIAL in specs:
            return {}
        found = implied_commercial(specs, self.context.rates)
        if found is None:
            return {}
        state = self.resolve_one(COMMERCIAL, found.spec, (*path, found.fact)).value
        return {COMMERCIAL: replace(state, note=found.why)}

    def supposed_commercial(
        self, facts: Facts, specs: Mapping[str, FactSpec], path: Path, outer: FactState | None
    ) -> dict[str, FactState]:
        """`commercial` again where a what-if value replaces a figure it may be derived from
        (`--set monthly_revenue=30M`, a sweep's cell), unless this level (`specs`, at `path`)
        states it or the scenario sets it: implied by a supposed figure above zero, else by this
        level's stated figures the scenario leaves, else as the enclosing level has it (`outer`:
        the product's, for a component), else unknown.  (A stated `commercial: false` against a
        supposed figure is refused by the scenario.)"""
        given = self.supposed
        found = dict(facts)
        if COMMERCIAL in given or COMMERCIAL in specs or not given.keys() & {*REVENUE, PAID}:
            return found
        found.pop(COMMERCIAL, None)
        for name in (*REVENUE, PAID):
            state = given.get(name)
            if state is not None and _earns(state):
                why = f"derived from {name} ({state.shown}, what-if): a product that "
                why += "is offered for a fee" if name == PAID else "earns revenue"
                why += " is commercial"
                spec = FactSpec(value=True, evidence=[Evidence(source=why, kind=DECLARED)])
                state = resolve(COMMERCIAL, spec, self.hypothetical())
                found[COMMERCIAL] = replace(state, note=why)
                return found
        kept = {n: spec for n, spec in specs.items() if n not in given}
        found.update(self.commercial(kept, path))
        if COMMERCIAL not in found and outer is not None:
            found[COMMERCIAL] = outer
        return found

    def agreement_facts(self, manifest: Manifest) -> Derived[dict[str, FactState]]:
        """`agreement`, `agreement_waives` and `license_granted` as `agreements:` implies them."""
        listed = listed_agreements(manifest.agreements)
        if listed is None:
            return Derived({})
        none_shown_by = _none_evidence(manifest)
        problems: list[Diagnostic] = []
        each = []  # whether each agreement exists: its own evidence, resolved alone (located)
        for index, agreement in enumerate(listed):
            pieces = agreements.evidence_for(agreement, [], "agreement", self.library)
            spec = FactSpec(evidence=pieces)
            each.append(self.resolve_one("agreement", spec, ("agreements", index)).into(problems))
        if problems:
            return Derived({}, tuple(problems))
        policy = self.context.policy
        found = {}
        specs = agreements.agreement_specs(listed, self.library, none_shown_by=none_shown_by)
        for name, spec in specs.items():
            state = self.resolve_one(name, spec, ("agreements",)).into(problems)
            if none_shown_by:  # as certain as the evidence that there is none
                found[name] = replace(state, shown=agreements.shown([], name))
            else:
                found[name] = agreements.exact_state(state, listed, each, policy, self.library)
        return Derived(found, tuple(problems))

    def component_facts(self, component: Component, path: Path, product: Facts) -> Derived[Facts]:
        """The product's facts, the component's own, then what licheck supplies."""
        problems: list[Diagnostic] = []
        facts = dict(product)
        facts.update(self.stated(component.facts, (*path, "facts")).into(problems))
        facts.update(self.commercial(component.facts, (*path, "facts")))
        facts.update(self.supposed)  # a what-if fact replaces the component's own too
        outer = product.get(COMMERCIAL)  # the product's, the scenario applied
        facts = self.supposed_commercial(facts, component.facts, (*path, "facts"), outer)
        supplied = (
            ("distributes_weights", self._distributes_weights),
            ("distributes_code", self._distributes_code),
            ("modified", self._modified),
            ("made_available", self._made_available),
            ("model_made_available", self._model_made_available),
            ("model_offered", self._model_offered),
        )
        for name, derive in supplied:
            # derived (and its evidence checked) even where the manifest states it
            facts.setdefault(name, derive(component, path).into(problems))
        facts.setdefault(
            "received_in_integrated_product",
            self.default(
                "received_in_integrated_product",
                False,
                "licheck's default: the product's owner obtained the model itself, not inside "
                "another licensee's end user product",
            ),
        )
        facts.setdefault(
            "declared_license",
            self.default(
                "declared_license",
                (),
                "licheck's default: the manifest names no license of the licensee's own for "
                "the model, so it is offered under the licenses it came with",
            ),
        )
        facts["license_declared"] = self._license_declared(facts["declared_license"])
        return Derived(facts, tuple(problems))

    def _license_declared(self, declared: FactState) -> FactState:
        """Whether `declared_license` names any license: a clause's trigger reads it, so that
        naming another license than its own is tested on a few strings, not the whole list."""
        domain = declared.domain
        source = f"from declared_license ({declared.shown})"
        if not isinstance(domain, StringSet) or declared.status is not Status.ESTABLISHED:
            return self.default("license_declared", "unknown", None)
        if domain.includes:
            return self.default("license_declared", True, source)
        if domain.exact:
            return self.default("license_declared", False, source)
        return self.default("license_declared", "unknown", None)

    def lineage(
        self, ref: ModelRef, path: Path, fact: str = "lineage"
    ) -> Derived[tuple[ModelRef, FactState]]:
        """The lineage entry (a swapped-in model in a what-if) and its `lineage` fact (or
        `outputs_lineage`, for a model whose outputs it was trained on)."""
        swapped = self._swapped(ref)
        spec = FactSpec(value=True, evidence=(swapped or ref).evidence)
        if swapped is None:
            state = self.resolve_one(fact, spec, path)
            return Derived((ref, state.value), state.problems)
        return Derived((swapped, resolve(fact, spec, self.hypothetical(), path=path)))

    def model_facts(
        self, facts: Facts, lineage: FactState, model: CatalogModel
    ) -> dict[str, FactState]:
        """A component's facts as one model in its lineage binds them."""
        facts = dict(facts)
        facts["lineage"] = lineage
        if model.multimodal is None:
            facts["multimodal"] = self.default("multimodal", "unknown", None)
        else:
            facts["multimodal"] = self.default(
                "multimodal", model.multimodal, f"licheck's catalog entry for {model.name}"
            )
        why = _derivative_default(lineage, model)
        facts.setdefault("derivative", self.default("derivative", True, why))
        return facts

    def implied_facts(
        self,
        facts: Mapping[str, FactState],
        component: Component,
        model: CatalogModel,
        path: Path,
    ) -> dict[str, FactState]:
        """What training on `model`'s outputs implies of the other models the licensee improves
        (`checks.implied`), for the facts not stated; as certain as the lineage entry naming
        `model` (`path`: where it is)."""
        found = implied_by(self._supposed_lineage(component.lineage), model, self.library)
        if found is None:
            return {}
        specs = {IMPROVES: FactSpec(includes=[found.improves])}
        if found.competes is not None:
            specs[COMPETES] = FactSpec(value=found.competes)
        return {
            name: self._implied(name, spec, found.evidence, found.why, path)
            for name, spec in specs.items()
            if name not in facts
        }

    def _supposed_lineage(self, lineage: Lineage) -> Lineage:
        """The lineage with a what-if scenario's models in place of those it swaps."""
        if not self.hypotheses.swaps:
            return lineage

        def swap(ref: ModelRef) -> ModelRef:
            return self._swapped(ref) or ref

        def entry(found: ModelRef | CandidateBases) -> ModelRef | CandidateBases:
            if isinstance(found, CandidateBases):
                return found.model_copy(update={"candidates": [swap(c) for c in found.candidates]})
            return swap(found)

        steps = [
            step.model_copy(update={"parents": [entry(p) for p in step.parents]})
            for step in lineage.steps
        ]
        outputs = [swap(ref) for ref in lineage.trained_on_outputs_of]
        update = {"base": entry(lineage.base), "steps": steps, "trained_on_outputs_of": outputs}
        return lineage.model_copy(update=update)

    def _implied(
        self, name: str, spec: FactSpec, evidence: tuple[Evidence, ...], why: str, path: Path
    ) -> FactState:
        spec = spec.model_copy(update={"evidence": list(evidence), "note": why})
        try:
            return resolve(name, spec, self.context, path=path)
        except FactError:  # the lineage entry's evidence: reported where the entry is judged
            return resolve(name, None, self.context, path=path)

    def relations_fact(self, kinds: frozenset[str]) -> FactState:
        """The implicit `relations` fact: how the component is related to one model of its
        lineage (`relating.lineage_relations`), declared by the lineage (the `lineage` and
        `outputs_lineage` facts carry its evidence)."""
        context = self.context
        key = ("relations", tuple(sorted(kinds)), context.policy)
        table = context.memo.table(RELATIONS)
        state = table.get(key)
        if state is None:
            source = "derived from the lineage and the delivery"
            evidence = [Evidence(source=source, kind=DECLARED)]
            spec = FactSpec(value=sorted(kinds), evidence=evidence)
            state = table.keep(key, share(resolve("relations", spec, context)))
        return state

    def owner_is_licensor(self, owner: Owner, licensor: str | None) -> Derived[FactState | None]:
        """That the owner (or an affiliate) is `licensor`, with the manifest's evidence for it;
        None where no organisation of the owner's is that licensor.  Only the exact id counts:
        an id that merely resembles a licensor's is another organisation."""
        if licensor is None:
            return Derived(None)
        path: Path
        if owner.id == licensor:
            evidence, path, role = owner.evidence, ("owner", "id"), "is"
        else:
            found = [(i, a) for i, a in enumerate(owner.affiliates) if a.id == licensor]
            if not found:
                return Derived(None)
            i, affiliate = found[0]
            evidence, path = affiliate.evidence, ("owner", "affiliates", i, "id")
            role = f"is affiliated with {affiliate.name or affiliate.id}, which is"
        spec = FactSpec(value=True, evidence=evidence)
        state = self.resolve_one("owner_is_licensor", spec, path)
        note = f"the owner ({owner.name}) {role} the licensor {licensor!r}"
        return Derived(replace(state.value, note=note), state.problems)

    def hypothetical(self) -> Resolution:
        context = self.context
        return Resolution(HYPOTHETICAL, None, context.rates, context.sources, context.memo)

    def stated(
        self, specs: dict[str, FactSpec], path: Path, scoped: bool = True
    ) -> Derived[dict[str, FactState]]:
        """The facts stated at one level; a fact given only per model or per license is not
        stated for the whole (`scoping` resolves those parts; `scoped`: they are allowed)."""
        problems: list[Diagnostic] = []
        states = {}
        for name, spec in specs.items():
            # first, as `loading.fact_problems` does: a misspelt name is the problem to report,
            # however the fact is stated (per model, or with a note alone)
            problem = unknown_fact(self.document, name, (*path, name))
            if problem is None:
                problem = self._scopes_problem(name, spec, (*path, name), scoped)
            if problem is not None:
                problems.append(problem)
                continue
            if spec.scoped_only:
                continue
            # (every stated fact passes here: no `Derived` is made for each)
            states[name], problem = self._resolved(name, spec, (*path, name))
            if problem is not None:
                problems.append(problem)
        flat = specs.get("agreement")
        for name in ("agreement_waives", "license_granted"):
            if flat is not None and name not in specs and "agreement" in states:
                # no agreement with a licensor: it granted and waived nothing
                implied = agreements.implied_by_flat(flat, self.library, name)
                path_ = (*path, "agreement")
                states[name] = self.resolve_one(name, implied, path_).into(problems)
        return Derived(states, tuple(problems))

    def _scopes_problem(
        self, name: str, spec: FactSpec, path: Path, scoped: bool
    ) -> Diagnostic | None:
        """`by_model` / `by_license` only under a component, and only for the facts each
        license may answer differently; a located error otherwise (None: allowed)."""
        given = [key for key in ("by_model", "by_license") if getattr(spec, key) is not None]
        if not given:
            return None
        if not scoped:
            reason = "a product's facts hold for all its components: state it under a component"
        elif name not in SCOPED:
            reason = f"only {', '.join(sorted(SCOPED))} may be stated per model or per license"
        else:
            return None
        return self.document.error((*path, given[0]), f"fact {name!r}: {given[0]} — {reason}")

    def resolve_one(self, name: str, spec: FactSpec, path: Path) -> Derived[FactState]:
        """The fact as `spec` states it at `path`; where it cannot be read, the located problem
        and the fact unstated."""
        state, problem = self._resolved(name, spec, path)
        return Derived(state) if problem is None else Derived(state, (problem,))

    def _resolved(
        self, name: str, spec: FactSpec, path: Path
    ) -> tuple[FactState, Diagnostic | None]:
        try:
            return resolve(name, spec, self.context, path=path), None
        except FactError as exc:
            problem = self.document.error((*path, *exc.path), str(exc))
            return resolve(name, None, self.context, path=path), problem

    def default(self, name: str, value: Default, source: str | None) -> FactState:
        """A fact licheck supplies: `value` declared by `source` (None: no evidence).  It depends
        only on the evidence policy (declared evidence has no date), unless the manifest's
        sources happen to cite that text, so each is resolved once per policy over a run.
        Without a source, a value is evidenced as stated in the manifest (`facts.STATED`), a
        text a manifest's sources could cite as well."""
        context = self.context
        kept = (STATED.source if source is None else source) not in context.sources
        key = (name, value, source, context.policy)
        table = context.memo.table(DEFAULTS)
        state = table.get(key) if kept else None
        if state is None:
            evidence = [] if source is None else [Evidence(source=source, kind=DECLARED)]
            raw = list(value) if isinstance(value, tuple) else value
            state = resolve(name, FactSpec(value=raw, evidence=evidence), context)
            if kept:
                state = table.keep(key, share(state))
        return state

    def _swapped(self, ref: ModelRef) -> ModelRef | None:
        """The lineage entry with the scenario's model in its place; None when not swapped."""
        swaps = self.hypotheses.swaps
        if not swaps:
            return None
        model = self.library.model(ref.model)
        old = model.id if model else model_key(ref.model)  # `unknown`: an undisclosed base
        if old not in swaps:
            return None
        new = swaps[old]
        source = f"what-if: built on {new} in place of {old}"
        return ref.model_copy(
            update={"model": new, "evidence": [Evidence(source=source, kind=DECLARED)]}
        )

    def _distributes_weights(self, component: Component, path: Path) -> Derived[FactState]:
        if not component.delivery:
            return Derived(self.default("distributes_weights", "unknown", None))
        weights = Delivery.WEIGHTS in component.delivery
        return self._from_delivery(component, path, "distributes_weights", weights)

    def _distributes_code(self, component: Component, path: Path) -> Derived[FactState]:
        """Copies of the model's code ship only as the delivery says: a hosted service or an API
        delivers none (a client app or SDK that includes the code states it); distributed
        weights or an unstated delivery leave it open."""
        if not component.delivery or Delivery.WEIGHTS in component.delivery:
            return Derived(self.default("distributes_code", "unknown", None))
        return self._from_delivery(component, path, "distributes_code", False)

    def _made_available(self, component: Component, path: Path) -> Derived[FactState]:
        """Any delivery (hosted service, API, weights) makes the component available to
        others."""
        if not component.delivery:
            return Derived(self.default("made_available", "unknown", None))
        return self._from_delivery(component, path, "made_available", True)

    def _from_delivery(
        self, component: Component, path: Path, name: str, value: bool
    ) -> Derived[FactState]:
        """A fact derived from the delivery: declared by the manifest, or, where the delivery
        carries evidence (`delivery: {value: [api], evidence: [...]}`), as strong as that is."""
        source = f"derived from the component's delivery ({_delivered(component)})"
        if not component.delivery_evidence:
            return Derived(self.default(name, value, source))
        spec = FactSpec(value=value, evidence=list(component.delivery_evidence), note=source)
        return self.resolve_one(name, spec, (*path, "delivery"))

    def _model_made_available(self, component: Component, path: Path) -> Derived[FactState]:
        """A model the licensee trained is made available when its weights or an API to it are
        offered; without any step there is no such model; a hosted product alone, or
        quantization alone (which may or may not count as creating a model), leaves it open.
        As certain as the training steps' evidence."""
        lineage = component.lineage
        if not steps_taken(lineage):
            source = "derived from the lineage: no step, so no model of the licensee's"
            return Derived(self.default("model_made_available", False, source))
        if trains(lineage) and {Delivery.WEIGHTS, Delivery.API} & set(component.delivery):
            source = "derived from the lineage (a trained model) and its delivery (weights or api)"
            training = [(i, s) for i, s in enumerate(lineage.steps) if s.kind in TRAINING_STEPS]
            return self._from_steps("model_made_available", training, component, path, source)
        return Derived(self.default("model_made_available", "unknown", None))

    def _from_steps(
        self,
        name: str,
        steps: list[tuple[int, Step]],
        component: Component,
        path: Path,
        source: str,
    ) -> Derived[FactState]:
        """`name` true because `steps` were taken: declared by the manifest where a step (or
        training on outputs, judged as `outputs_lineage`) states no evidence, else as certain
        as the best evidenced step (one taken step is enough)."""
        problems: list[Diagnostic] = []
        states = [  # resolved whatever comes of them: a bad piece is reported at its line
            self.resolve_one(
                name,
                FactSpec(value=True, evidence=list(step.evidence), note=source),
                (*path, "lineage", "steps", i),
            ).into(problems)
            for i, step in steps
            if step.evidence
        ]
        if component.lineage.trained_on_outputs_of or len(states) < len(steps):
            return Derived(self.default(name, True, source), tuple(problems))
        most_certain = min(states, key=lambda state: _CERTAINTY.index(state.status))
        return Derived(most_certain, tuple(problems))

    def _model_offered(self, component: Component, path: Path) -> Derived[FactState]:
        """The model itself is offered (an unmodified one too: serving the licensor's model by
        API makes it available, audit C3-C5); a hosted product alone may only use it.  As strong
        as the delivery's evidence."""
        if {Delivery.WEIGHTS, Delivery.API} & set(component.delivery):
            return self._from_delivery(component, path, "model_offered", True)
        return Derived(self.default("model_offered", "unknown", None))

    def _modified(self, component: Component, path: Path) -> Derived[FactState]:
        """Any step (training, merge, quantization) or training on outputs modifies the model;
        none leaves it as released.  As certain as the steps' evidence."""
        lineage = component.lineage
        kinds = steps_taken(lineage)
        if not kinds:
            return Derived(self.default("modified", False, "derived from the lineage: no step"))
        source = f"derived from the lineage ({', '.join(kinds)})"
        return self._from_steps("modified", list(enumerate(lineage.steps)), component, path, source)


DECLARED = EvidenceKind.DECLARED
# Fact statuses from the most certain: of several steps' readings, the most certain one holds.
_CERTAINTY = (Status.ESTABLISHED, Status.LIKELY, Status.DISPUTED, Status.UNKNOWN)


def _at_every_month(state: FactState, library: Library) -> FactState:
    """A what-if quantity holds whenever a clause measures it (the month before a model's
    release), not only today."""
    if state.definition.type is not FactType.QUANTITY or state.status is not Status.ESTABLISHED:
        return state
    months = sorted({month_before(m.release_date) for m in library.models if m.release_date})
    return replace(state, series=tuple((month, state) for month in months))


def _earns(state: FactState) -> bool:
    """A supposed revenue above zero (an open range from zero too), or `paid: true`."""
    domain = state.domain
    if isinstance(domain, Booleans):
        return domain.values == frozenset({True})
    if not isinstance(domain, Interval) or domain.is_empty():
        return False
    return domain.lo > 0 or (domain.lo == 0 and not domain.lo_closed)


def _none_evidence(manifest: Manifest) -> list[Evidence]:
    """The evidence that the owner has no agreement (`agreements: {none: true, evidence}`)."""
    found = manifest.agreements
    return list(found.evidence) if isinstance(found, NoAgreements) else []


def _delivered(component: Component) -> str:
    return ", ".join(d.value for d in component.delivery)


def lineage_models(
    component: Component, base_path: Path
) -> list[tuple[ModelRef | CandidateBases, Path]]:
    """Every entry of a component's lineage (its base, each step's parents), located."""
    return [(entry, (*base_path, "lineage", *p)) for entry, p in component.lineage.entries()]


def _derivative_default(lineage: FactState, model: CatalogModel) -> str:
    """Why `derivative` is true by default, in the words of the relation: a model built on
    `model`'s weights, or (`lineage` established false) one only trained on its outputs, which
    is a derivative only where the license counts training on outputs as one."""
    if lineage.status is Status.ESTABLISHED and lineage.domain == Booleans(frozenset({False})):
        return (
            f"licheck's default: trained on {model.name}'s outputs, not built on its weights; a "
            "derivative work where its license counts such training as one, unless the manifest "
            "says otherwise"
        )
    return (
        f"licheck's default: a model trained from {model.name} is a derivative work unless the "
        "manifest says otherwise"
    )
