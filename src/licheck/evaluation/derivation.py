"""Every fact a manifest implies, as the clauses will read them.

The manifest's own facts are resolved under the run's evidence policy and date; licheck supplies
the facts that follow from its structure unless stated (`distributes_weights`, `distributes_code`,
`made_available`, `model_made_available`, `model_offered` from the delivery and the lineage;
`multimodal` from the catalog; `derivative` and `received_in_integrated_product` by default);
each lineage entry is a `lineage` fact with the manifest's evidence for it.  A what-if scenario
(`Hypotheses`) is applied here and nowhere else: its facts replace the manifest's, and its swapped
bases replace lineage entries.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from licheck.checks.settled import TRAINING_STEPS, steps_taken, trains
from licheck.core.context import EvaluationContext
from licheck.core.diagnostics import Diagnostic
from licheck.core.units import exchange_rates
from licheck.evaluation.findings import HYPOTHETICAL, Hypotheses, Options
from licheck.facts import agreements
from licheck.facts.measurement import month_before
from licheck.facts.resolution import (
    STATED,
    FactError,
    FactState,
    Resolution,
    Status,
    resolve,
    share,
)
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import (
    CandidateBases,
    Component,
    Delivery,
    Evidence,
    EvidenceKind,
    FactSpec,
    Manifest,
    ModelRef,
    Owner,
    Step,
)
from licheck.inputs.rules import CatalogModel, model_key
from licheck.library.compiled import Library
from licheck.loading.factchecks import unknown_fact
from licheck.vocabulary.names import SCOPED, FactType

Path = tuple[str | int, ...]


@dataclass(slots=True)
class Derivation:
    """Derives one product's facts; problems with them are collected in `problems`, located."""

    document: Document
    library: Library
    context: Resolution
    hypotheses: Hypotheses
    problems: list[Diagnostic] = field(default_factory=list)
    # The scenario's facts as clauses read them (a quantity at every month measured, too).
    supposed: dict[str, FactState] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        manifest: Manifest,
        document: Document,
        library: Library,
        options: Options,
        memo: EvaluationContext,
        problems: list[Diagnostic],
    ) -> Derivation:
        rates, wrong = exchange_rates(manifest.currency_rates)
        problems += [document.error(("currency_rates", key), m) for key, m in wrong.items()]
        sources = dict(manifest.sources)
        context = Resolution(options.policy, options.as_of, rates, sources, memo, options.resolver)
        hypotheses = options.hypotheses
        supposed = {n: _at_every_month(s, library) for n, s in hypotheses.facts.items()}
        return cls(document, library, context, hypotheses, problems, supposed)

    def product_facts(self, manifest: Manifest) -> dict[str, FactState]:
        facts = self.stated(manifest.facts, ("facts",), scoped=False)
        facts.update(self.agreement_facts(manifest))
        facts.update(self.supposed)
        return facts

    def agreement_facts(self, manifest: Manifest) -> dict[str, FactState]:
        """`agreement`, `agreement_waives` and `license_granted` as `agreements:` implies them."""
        if manifest.agreements is None:
            return {}
        listed = [] if manifest.agreements == "none" else manifest.agreements
        before = len(self.problems)
        each = []  # whether each agreement exists: its own evidence, resolved alone (located)
        for index, agreement in enumerate(listed):
            pieces = agreements.evidence_for(agreement, [], "agreement", self.library)
            spec = FactSpec(evidence=pieces)
            each.append(self.resolve_one("agreement", spec, ("agreements", index)))
        if len(self.problems) > before:
            return {}
        policy = self.context.policy
        return {
            name: agreements.exact_state(
                self.resolve_one(name, spec, ("agreements",)), listed, each, policy, self.library
            )
            for name, spec in agreements.agreement_specs(listed, self.library).items()
        }

    def component_facts(
        self, component: Component, path: Path, product: dict[str, FactState]
    ) -> dict[str, FactState]:
        """The product's facts, the component's own, then what licheck supplies."""
        facts = dict(product)
        facts.update(self.stated(component.facts, (*path, "facts")))
        facts.update(self.supposed)  # a what-if fact replaces the component's own too
        facts.setdefault("distributes_weights", self._distributes_weights(component, path))
        facts.setdefault("distributes_code", self._distributes_code(component, path))
        facts.setdefault("modified", self._modified(component, path))
        facts.setdefault("made_available", self._made_available(component, path))
        facts.setdefault("model_made_available", self._model_made_available(component, path))
        facts.setdefault("model_offered", self._model_offered(component, path))
        facts.setdefault(
            "received_in_integrated_product",
            self.default(
                "received_in_integrated_product",
                False,
                "licheck's default: the product's owner obtained the model itself, not inside "
                "another licensee's end user product",
            ),
        )
        return facts

    def lineage(
        self, ref: ModelRef, path: Path, fact: str = "lineage"
    ) -> tuple[ModelRef, FactState]:
        """The lineage entry (a swapped-in model in a what-if) and its `lineage` fact (or
        `outputs_lineage`, for a model whose outputs it was trained on)."""
        swapped = self._swapped(ref)
        spec = FactSpec(value=True, evidence=(swapped or ref).evidence)
        if swapped is None:
            return ref, self.resolve_one(fact, spec, path)
        return swapped, resolve(fact, spec, self.hypothetical(), path=path)

    def model_facts(
        self, facts: dict[str, FactState], lineage: FactState, model: CatalogModel
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
        facts.setdefault(
            "derivative",
            self.default(
                "derivative",
                True,
                f"licheck's default: a model trained from {model.name} "
                "is a derivative work unless the manifest says otherwise",
            ),
        )
        return facts

    def relations_fact(self, kinds: frozenset[str]) -> FactState:
        """The implicit `relations` fact: how the component is related to one model of its
        lineage (`relating.lineage_relations`), declared by the lineage (the `lineage` and
        `outputs_lineage` facts carry its evidence)."""
        context = self.context
        key = ("relations", tuple(sorted(kinds)), context.policy)
        table = context.memo.defaults
        state = table.get(key)
        if state is None:
            source = "derived from the lineage and the delivery"
            evidence = [Evidence(source=source, kind=DECLARED)]
            spec = FactSpec(value=sorted(kinds), evidence=evidence)
            state = resolve("relations", spec, context)
            state = context.memo.keep(table, key, share(state))
        return state

    def owner_is_licensor(self, owner: Owner, licensor: str | None) -> FactState | None:
        """That the owner (or an affiliate) is `licensor`, with the manifest's evidence for it;
        None where no organisation of the owner's is that licensor.  Only the exact id counts:
        an id that merely resembles a licensor's is another organisation."""
        if licensor is None:
            return None
        path: Path
        if owner.id == licensor:
            evidence, path, role = owner.evidence, ("owner", "id"), "is"
        else:
            found = [(i, a) for i, a in enumerate(owner.affiliates) if a.id == licensor]
            if not found:
                return None
            i, affiliate = found[0]
            evidence, path = affiliate.evidence, ("owner", "affiliates", i, "id")
            role = f"is affiliated with {affiliate.name or affiliate.id}, which is"
        state = self.resolve_one("owner_is_licensor", FactSpec(value=True, evidence=evidence), path)
        return replace(state, note=f"the owner ({owner.name}) {role} the licensor {licensor!r}")

    def hypothetical(self) -> Resolution:
        context = self.context
        return Resolution(HYPOTHETICAL, None, context.rates, context.sources, context.memo)

    def stated(
        self, specs: dict[str, FactSpec], path: Path, scoped: bool = True
    ) -> dict[str, FactState]:
        """The facts stated at one level; a fact given only per model or per license is not
        stated for the whole (`scoping` resolves those parts; `scoped`: they are allowed)."""
        states = {}
        for name, spec in specs.items():
            # first, as `loading.fact_problems` does: a misspelt name is the problem to report,
            # however the fact is stated (per model, or with a note alone)
            problem = unknown_fact(self.document, name, (*path, name))
            if problem is not None:
                self.problems.append(problem)
                continue
            if not self._scopes_allowed(name, spec, (*path, name), scoped):
                continue
            if spec.scoped_only:
                continue
            states[name] = self.resolve_one(name, spec, (*path, name))
        flat = specs.get("agreement")
        for name in ("agreement_waives", "license_granted"):
            if flat is not None and name not in specs and "agreement" in states:
                # no agreement with a licensor: it granted and waived nothing
                implied = agreements.implied_by_flat(flat, self.library, name)
                states[name] = self.resolve_one(name, implied, (*path, "agreement"))
        return states

    def _scopes_allowed(self, name: str, spec: FactSpec, path: Path, scoped: bool) -> bool:
        """`by_model` / `by_license` only under a component, and only for the facts each
        license may answer differently; a located error otherwise."""
        given = [key for key in ("by_model", "by_license") if getattr(spec, key) is not None]
        if not given:
            return True
        if not scoped:
            reason = "a product's facts hold for all its components: state it under a component"
        elif name not in SCOPED:
            reason = f"only {', '.join(sorted(SCOPED))} may be stated per model or per license"
        else:
            return True
        self.problems.append(
            self.document.error((*path, given[0]), f"fact {name!r}: {given[0]} — {reason}")
        )
        return False

    def resolve_one(self, name: str, spec: FactSpec, path: Path) -> FactState:
        try:
            return resolve(name, spec, self.context, path=path)
        except FactError as exc:
            self.problems.append(self.document.error((*path, *exc.path), str(exc)))
            return resolve(name, None, self.context, path=path)

    def default(self, name: str, value: bool | str, source: str | None) -> FactState:
        """A fact licheck supplies: `value` declared by `source` (None: no evidence).  It depends
        only on the evidence policy (declared evidence has no date), unless the manifest's
        sources happen to cite that text, so each is resolved once per policy over a run.
        Without a source, a value is evidenced as stated in the manifest (`facts.STATED`), a
        text a manifest's sources could cite as well."""
        context = self.context
        kept = (STATED.source if source is None else source) not in context.sources
        key = (name, value, source, context.policy)
        table = context.memo.defaults
        state = table.get(key) if kept else None
        if state is None:
            evidence = [] if source is None else [Evidence(source=source, kind=DECLARED)]
            state = resolve(name, FactSpec(value=value, evidence=evidence), context)
            if kept:
                state = context.memo.keep(table, key, share(state))
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

    def _distributes_weights(self, component: Component, path: Path) -> FactState:
        if not component.delivery:
            return self.default("distributes_weights", "unknown", None)
        weights = Delivery.WEIGHTS in component.delivery
        return self._from_delivery(component, path, "distributes_weights", weights)

    def _distributes_code(self, component: Component, path: Path) -> FactState:
        """Copies of the model's code ship only as the delivery says: a hosted service or an API
        delivers none (a client app or SDK that includes the code states it); distributed
        weights or an unstated delivery leave it open."""
        if not component.delivery or Delivery.WEIGHTS in component.delivery:
            return self.default("distributes_code", "unknown", None)
        return self._from_delivery(component, path, "distributes_code", False)

    def _made_available(self, component: Component, path: Path) -> FactState:
        """Any delivery (hosted service, API, weights) makes the component available to
        others."""
        if not component.delivery:
            return self.default("made_available", "unknown", None)
        return self._from_delivery(component, path, "made_available", True)

    def _from_delivery(self, component: Component, path: Path, name: str, value: bool) -> FactState:
        """A fact derived from the delivery: declared by the manifest, or, where the delivery
        carries evidence (`delivery: {value: [api], evidence: [...]}`), as strong as that is."""
        source = f"derived from the component's delivery ({_delivered(component)})"
        if not component.delivery_evidence:
            return self.default(name, value, source)
        spec = FactSpec(value=value, evidence=list(component.delivery_evidence), note=source)
        return self.resolve_one(name, spec, (*path, "delivery"))

    def _model_made_available(self, component: Component, path: Path) -> FactState:
        """A model the licensee trained is made available when its weights or an API to it are
        offered; without any step there is no such model; a hosted product alone, or
        quantization alone (which may or may not count as creating a model), leaves it open.
        As certain as the training steps' evidence."""
        lineage = component.lineage
        if not steps_taken(lineage):
            source = "derived from the lineage: no step, so no model of the licensee's"
            return self.default("model_made_available", False, source)
        if trains(lineage) and {Delivery.WEIGHTS, Delivery.API} & set(component.delivery):
            source = "derived from the lineage (a trained model) and its delivery (weights or api)"
            training = [(i, s) for i, s in enumerate(lineage.steps) if s.kind in TRAINING_STEPS]
            return self._from_steps("model_made_available", training, component, path, source)
        return self.default("model_made_available", "unknown", None)

    def _from_steps(
        self,
        name: str,
        steps: list[tuple[int, Step]],
        component: Component,
        path: Path,
        source: str,
    ) -> FactState:
        """`name` true because `steps` were taken: declared by the manifest where a step (or
        training on outputs, judged as `outputs_lineage`) states no evidence, else as certain
        as the best evidenced step (one taken step is enough)."""
        states = [  # resolved whatever comes of them: a bad piece is reported at its line
            self.resolve_one(
                name,
                FactSpec(value=True, evidence=list(step.evidence), note=source),
                (*path, "lineage", "steps", i),
            )
            for i, step in steps
            if step.evidence
        ]
        if component.lineage.trained_on_outputs_of or len(states) < len(steps):
            return self.default(name, True, source)
        return min(states, key=lambda state: _CERTAINTY.index(state.status))

    def _model_offered(self, component: Component, path: Path) -> FactState:
        """The model itself is offered (an unmodified one too: serving the licensor's model by
        API makes it available, audit C3-C5); a hosted product alone may only use it.  As strong
        as the delivery's evidence."""
        if {Delivery.WEIGHTS, Delivery.API} & set(component.delivery):
            return self._from_delivery(component, path, "model_offered", True)
        return self.default("model_offered", "unknown", None)

    def _modified(self, component: Component, path: Path) -> FactState:
        """Any step (training, merge, quantization) or training on outputs modifies the model;
        none leaves it as released.  As certain as the steps' evidence."""
        lineage = component.lineage
        kinds = steps_taken(lineage)
        if not kinds:
            return self.default("modified", False, "derived from the lineage: no step")
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


def _delivered(component: Component) -> str:
    return ", ".join(d.value for d in component.delivery)


def lineage_models(
    component: Component, base_path: Path
) -> list[tuple[ModelRef | CandidateBases, Path]]:
    """Every entry of a component's lineage (its base, each step's parents), located."""
    return [(entry, (*base_path, "lineage", *p)) for entry, p in component.lineage.entries()]
