"""Evaluate a product manifest against the rule library: one finding per component, model in its
lineage, and clause of that model's license.

A license binds a component when a model in its lineage carries it (the implicit `lineage` fact,
whose evidence is the manifest's evidence for that lineage entry) and the component is still a
derivative of it (`derivative`).  Both are conjoined to every clause's trigger, so a weakly
evidenced lineage or an unknown derivative status makes a finding a governance risk, never a
violation.  A model whose license is not in the library gets a finding of its own, never a pass.

A license's clauses are judged together with those of the rule files it incorporates by reference
(an acceptable use policy).  Some facts follow from the manifest's structure unless stated
(`distributes_weights`, `made_available`, `model_made_available` from the delivery and the lineage;
`multimodal` from the catalog); a clause's facts are read through `measurement`, which supplies a
fact measured at the model's release date and the bounds between the facts counting users.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from licheck.conditions import All, Test, Value, tests_in
from licheck.consistency import check_manifest
from licheck.diagnostics import Diagnostic, InputError, LicheckError
from licheck.domains import Booleans, Domain, Interval, Strings, StringSet
from licheck.engine import (
    Branch,
    Cell,
    Judgement,
    Rule,
    branches,
    cells,
    judge_cells,
    settlements,
)
from licheck.facts import (
    EvidencePolicy,
    FactError,
    FactState,
    Resolution,
    Status,
    resolve,
    share,
)
from licheck.library import CompiledClause, Library, incorporated
from licheck.measurement import Occasion, month_before, read
from licheck.model import (
    CatalogModel,
    Component,
    DatedLicense,
    Delivery,
    Evidence,
    EvidenceKind,
    FactSpec,
    Manifest,
    ModelRef,
    StepKind,
)
from licheck.units import UnitError, parse_rate
from licheck.verdicts import Outcome, Settlement, Verdict, worst
from licheck.vocabulary import FACTS, FactDef, FactType, suggest
from licheck.yamlsafe import Document

UNKNOWN_MODEL = "unknown"
# A license binds a component built on its model that is still a derivative of it.
SCOPE = All((Test("lineage", "is", True), Test("derivative", "is", True)))
# What-if facts and swapped bases are hypotheses: they count as established whatever the evidence
# policy or date of the run.
HYPOTHETICAL = EvidencePolicy(
    "what-if", frozenset(EvidenceKind) - {EvidenceKind.RUMOUR}, frozenset()
)
# Not a fact of the vocabulary: a lineage entry's `obtained` date, shown as a missing fact where
# the license changed over time and the verdict depends on which text applies.
_OBTAINED = FactDef("obtained", FactType.STRING, "when the weights were obtained")


@dataclass(frozen=True, slots=True)
class MissingFact:
    """A fact the verdict still hangs on, and what the verdict would be for each value."""

    fact: FactState
    branches: tuple[Branch, ...]


@dataclass(frozen=True, slots=True)
class Finding:
    component: str
    component_name: str
    model: str  # catalog id, or the name as the manifest gives it
    model_name: str
    license: str  # license id, or "unknown"
    license_name: str
    clause: str
    title: str
    kind: str
    quote: str | None
    verdict: Verdict
    likely_verdict: Verdict  # with weak evidence (press reports, community inference) admitted
    scope: str  # the license binds the component: "yes" / "no" / "depends"
    trigger: str  # the clause's own trigger, where the license binds: "yes" / "no" / "depends"
    requirement: str  # where triggered and not lifted: "holds" / "fails" / "depends"
    exception: str  # an exception lifts it where triggered: "yes" / "no" / "depends"
    facts: tuple[FactState, ...]
    missing: tuple[MissingFact, ...]
    line: int
    column: int
    summary: str | None = None
    provenance: str = "verbatim"
    settlements: tuple[Settlement, ...] = ()  # for a governance risk: what would make it firm

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.component, self.model, self.license, self.clause)


@dataclass(frozen=True, slots=True)
class ProductResult:
    product: str
    owner: str
    file: str
    verdict: Verdict
    findings: tuple[Finding, ...]
    release_date: dt.date | None = None


@dataclass(frozen=True, slots=True)
class Options:
    policy: EvidencePolicy
    as_of: dt.date | None = None
    # what-if: facts that replace the manifest's, product- and component-level alike (a FactState
    # is taken as it is; a FactSpec is resolved as a hypothesis, established whatever the policy)
    overrides: Mapping[str, FactSpec | FactState] = field(default_factory=dict)
    # what-if: a catalog model id (or `unknown`, an undisclosed base) -> the catalog model id
    # evaluated in its place in every lineage
    swaps: Mapping[str, str] = field(default_factory=dict)
    today: dt.date = field(default_factory=dt.date.today)  # evidence after it is an error


def evaluate_manifest(
    manifest: Manifest, document: Document, library: Library, options: Options
) -> ProductResult:
    """Every finding for one product; `InputError` for facts that cannot be read."""
    problems: list[Diagnostic] = check_manifest(manifest, document, library, options.today)
    context = _context(manifest, document, options, problems)
    product_facts = _resolve_facts(manifest.facts, ("facts",), context, document, problems)
    overrides = _resolve_overrides(options.overrides, context, library)
    product_facts.update(overrides)
    findings: list[Finding] = []
    for index, component in enumerate(manifest.components):
        base_path = ("components", index)
        facts = dict(product_facts)
        facts.update(
            _resolve_facts(component.facts, (*base_path, "facts"), context, document, problems)
        )
        facts.update(overrides)  # a what-if fact replaces the component's own value too
        facts.setdefault("distributes_weights", _from_delivery(component, context))
        facts.setdefault("made_available", _made_available(component, context))
        facts.setdefault("model_made_available", _model_made_available(component, context))
        facts.setdefault(
            "received_in_integrated_product",
            _default(
                "received_in_integrated_product",
                False,
                "licheck's default: the product's owner obtained the model itself, not inside "
                "another licensee's end user product",
                context,
            ),
        )
        for ref, ref_path in _lineage_models(component, base_path):
            swapped = _swapped(ref, library, options.swaps)
            if swapped is not None:
                ref = swapped
                lineage = resolve(
                    "lineage",
                    FactSpec(value=True, evidence=ref.evidence),
                    _hypothetical(context),
                    path=ref_path,
                )
            else:
                lineage = _resolve_one(
                    "lineage",
                    FactSpec(value=True, evidence=ref.evidence),
                    ref_path,
                    context,
                    document,
                    problems,
                )
            findings.extend(
                _findings_for(
                    component, ref, ref_path, lineage, facts, library, document, problems, context
                )
            )
    if problems:
        raise InputError(problems)
    findings.sort(key=lambda f: (f.component, f.model, f.license, f.clause))
    return ProductResult(
        manifest.product,
        manifest.owner,
        document.file,
        worst([f.verdict for f in findings]),
        tuple(findings),
        manifest.release_date,
    )


def _context(
    manifest: Manifest, document: Document, options: Options, problems: list[Diagnostic]
) -> Resolution:
    rates: dict[str, Fraction] = {}
    for currency, raw in manifest.currency_rates.items():
        try:
            rates[currency.upper()] = parse_rate(raw)
        except UnitError as exc:
            problems.append(document.error(("currency_rates", currency), str(exc)))
    return Resolution(options.policy, options.as_of, rates, dict(manifest.sources))


def _hypothetical(context: Resolution) -> Resolution:
    return Resolution(HYPOTHETICAL, None, context.rates, context.sources)


def _resolve_overrides(
    overrides: Mapping[str, FactSpec | FactState], context: Resolution, library: Library
) -> dict[str, FactState]:
    """What-if facts as hypotheses: established whatever the policy and date of the run."""
    states: dict[str, FactState] = {}
    for name, spec in overrides.items():
        if isinstance(spec, FactState):
            states[name] = _at_every_month(spec, library)
            continue
        definition: FactDef | None = FACTS.get(name)
        if definition is None or definition.implicit:
            raise LicheckError(
                f"cannot set {name!r}: it is not a fact that can be stated"
                f"{suggest(name, _stateable())}"
            )
        if not spec.evidence:
            spec = spec.model_copy(
                update={"evidence": [Evidence(source="what-if", kind=EvidenceKind.DECLARED)]}
            )
        try:
            states[name] = _at_every_month(resolve(name, spec, _hypothetical(context)), library)
        except FactError as exc:
            raise LicheckError(f"what-if value of {name}: {exc}") from None
    return states


def _at_every_month(state: FactState, library: Library) -> FactState:
    """A what-if quantity holds whenever a clause measures it (the month before a model's
    release), not only today."""
    if state.definition.type is not FactType.QUANTITY or state.status is not Status.ESTABLISHED:
        return state
    months = sorted({month_before(m.release_date) for m in library.models if m.release_date})
    return replace(state, series=tuple((month, state) for month in months))


def _swapped(ref: ModelRef, library: Library, swaps: Mapping[str, str]) -> ModelRef | None:
    """The lineage entry with the swapped-in model, as a hypothesis; None when not swapped."""
    if not swaps:
        return None
    model = library.model(ref.model)
    old = model.id if model else ref.model.strip().lower()  # `unknown`: an undisclosed base
    if old not in swaps:
        return None
    new = swaps[old]
    return ref.model_copy(
        update={
            "model": new,
            "evidence": [
                Evidence(
                    source=f"what-if: built on {new} in place of {old}", kind=EvidenceKind.DECLARED
                )
            ],
        }
    )


def _resolve_facts(
    specs: dict[str, FactSpec],
    path: tuple[str | int, ...],
    context: Resolution,
    document: Document,
    problems: list[Diagnostic],
) -> dict[str, FactState]:
    states = {}
    for name, spec in specs.items():
        if name not in FACTS or FACTS[name].implicit:
            reason = (
                "is supplied by licheck from the lineage"
                if name in FACTS
                else "is not in the fact vocabulary"
            )
            problems.append(
                document.error(
                    (*path, name),
                    f"fact {name!r} {reason}{suggest(name, _stateable())}",
                    "the fact names are listed in the README's fact vocabulary",
                )
            )
            continue
        states[name] = _resolve_one(name, spec, (*path, name), context, document, problems)
    return states


def _stateable() -> list[str]:
    return [n for n, d in FACTS.items() if not d.implicit]


def _resolve_one(
    name: str,
    spec: FactSpec,
    path: tuple[str | int, ...],
    context: Resolution,
    document: Document,
    problems: list[Diagnostic],
) -> FactState:
    try:
        return resolve(name, spec, context, path=path)
    except FactError as exc:
        problems.append(document.error((*path, *exc.path), str(exc)))
        return resolve(name, None, context, path=path)


def _default(name: str, value: bool | str, source: str | None, context: Resolution) -> FactState:
    """A fact licheck supplies: `value` declared by `source` (None: no evidence).  It depends only
    on the evidence policy (declared evidence has no date), unless the manifest's sources happen
    to cite that text, so each is resolved once per policy over a portfolio."""
    cached = source is None or source not in context.sources
    key = (name, value, source, context.policy)
    state = _DEFAULTS.get(key) if cached else None
    if state is None:
        state = resolve(
            name,
            FactSpec(
                value=value,
                evidence=[]
                if source is None
                else [Evidence(source=source, kind=EvidenceKind.DECLARED)],
            ),
            context,
        )
        if cached:
            if len(_DEFAULTS) >= _CACHE_LIMIT:
                _DEFAULTS.clear()
            _DEFAULTS[key] = share(state)
    return state


_DEFAULTS: dict[tuple[str, bool | str, str | None, EvidencePolicy], FactState] = {}


def _from_delivery(component: Component, context: Resolution) -> FactState:
    delivered = ", ".join(d.value for d in component.delivery) or "none stated"
    if not component.delivery:
        return _default("distributes_weights", "unknown", None, context)
    return _default(
        "distributes_weights",
        "weights" in component.delivery,
        f"derived from the component's delivery ({delivered})",
        context,
    )


_TRAINING = frozenset(
    {
        StepKind.CONTINUED_PRETRAINING,
        StepKind.FINE_TUNING,
        StepKind.RL,
        StepKind.DISTILLATION,
        StepKind.MERGE,
    }
)


def _made_available(component: Component, context: Resolution) -> FactState:
    """Any delivery (hosted service, API, weights) makes the component available to others."""
    delivered = ", ".join(d.value for d in component.delivery)
    if not component.delivery:
        return _default("made_available", "unknown", None, context)
    return _default(
        "made_available", True, f"derived from the component's delivery ({delivered})", context
    )


def _model_made_available(component: Component, context: Resolution) -> FactState:
    """A model the licensee trained is made available when its weights or an API to it are
    offered; without any step there is no such model; a hosted product alone, or quantization
    alone, leaves it open (the model may or may not be offered, or count as created)."""
    steps = {step.kind for step in component.lineage.steps}
    if not steps:
        value: bool | str = False
        source = "derived from the lineage: no step, so no model of the licensee's"
    elif not steps & _TRAINING:
        # A quantized copy may or may not count as creating a model: leave it open.
        return _default("model_made_available", "unknown", None, context)
    elif {Delivery.WEIGHTS, Delivery.API} & set(component.delivery):
        value, source = (
            True,
            ("derived from the lineage (a trained model) and its delivery (weights or api)"),
        )
    else:
        return _default("model_made_available", "unknown", None, context)
    return _default("model_made_available", value, source, context)


def _from_catalog(model: CatalogModel, context: Resolution) -> FactState:
    if model.multimodal is None:
        return _default("multimodal", "unknown", None, context)
    return _default(
        "multimodal", model.multimodal, f"licheck's catalog entry for {model.name}", context
    )


def _derivative_default(model_name: str, context: Resolution) -> FactState:
    return _default(
        "derivative",
        True,
        f"licheck's default: a model trained from {model_name} "
        "is a derivative work unless the manifest says otherwise",
        context,
    )


def _lineage_models(
    component: Component, base_path: tuple[str | int, ...]
) -> list[tuple[ModelRef, tuple[str | int, ...]]]:
    refs = [(component.lineage.base, (*base_path, "lineage", "base"))]
    for s, step in enumerate(component.lineage.steps):
        for p, parent in enumerate(step.parents):
            refs.append((parent, (*base_path, "lineage", "steps", s, "parents", p)))
    return refs


def _findings_for(
    component: Component,
    ref: ModelRef,
    ref_path: tuple[str | int, ...],
    lineage: FactState,
    facts: dict[str, FactState],
    library: Library,
    document: Document,
    problems: list[Diagnostic],
    context: Resolution,
) -> list[Finding]:
    line, column = document.locate(ref_path)
    unknown = _UnknownLicense(component, ref, lineage, line, column)
    if ref.model.strip().lower() == UNKNOWN_MODEL:
        return [
            unknown.finding(
                "base-undisclosed",
                f"The model in {component.name}'s lineage is "
                "undisclosed, so the license that binds it cannot be known.",
            )
        ]
    model = library.model(ref.model)
    if model is None:
        problems.append(
            document.error(
                ref_path,
                f"unknown model {ref.model!r}{library.suggest_model(ref.model)}",
                "name a model of the catalog (licheck licenses models), or `unknown` if the base "
                "is undisclosed",
            )
        )
        return []
    candidates = _licenses_for(model, ref, context.as_of)
    known = [c for c in candidates if c.license is not None and c.license in library.licenses]
    found: list[Finding] = []
    if len(known) < len(candidates) or not known:
        note = model.license_note or "its license is not in licheck's library"
        if ref.obtained is not None and model.license_history:
            note = (
                f"its license history does not cover copies obtained on {ref.obtained}, so "
                "which text applied to them is not known"
            )
        found.append(
            unknown.finding(
                "license-unknown",
                f"{model.name}: {note}. Until its terms "
                "are encoded, findings for it cannot be given.",
                model,
            )
        )
        if not known:
            return found
    facts = dict(facts)
    facts["lineage"] = lineage
    facts["multimodal"] = _from_catalog(model, context)
    facts.setdefault("derivative", _derivative_default(model.name, context))
    by_license = {
        candidate.license: _judge_license(
            candidate.license, library, component, model, facts, document, line, column
        )
        for candidate in known
        if candidate.license is not None
    }
    if len(known) == 1:
        found.extend(next(iter(by_license.values())))
    else:
        found.extend(_across_versions(known, by_license, model, ref_path))
    if lineage.status is not Status.ESTABLISHED:
        found.append(
            unknown.finding(
                "lineage-unconfirmed",
                f"That {component.name} is built on {model.name} is {lineage.status.value} "
                "only: if it is built on another model, that model's license binds it instead, "
                "and it is not known.",
                model,
            )
        )
    return found


def _judge_license(
    license_id: str,
    library: Library,
    component: Component,
    model: CatalogModel,
    facts: dict[str, FactState],
    document: Document,
    line: int,
    column: int,
) -> list[Finding]:
    """A finding for every clause of one license."""
    occasion = Occasion(model.name, model.release_date)
    # Each fact as the clauses read it, read once for all of them: the same state in each
    # finding (a bounded user count is a new state per reading).
    readings: dict[str, FactState] = {}
    return [
        _judge_clause(compiled, component, model, facts, document, line, column, occasion, readings)
        for bound_id in incorporated(library.licenses, license_id)
        for compiled in library.licenses[bound_id].clauses
    ]


def _licenses_for(
    model: CatalogModel, ref: ModelRef, as_of: dt.date | None = None
) -> list[_Candidate]:
    """The licenses the copy the manifest used may be under.

    Where the license changed over time (`license_history`), the date the weights were obtained
    picks one; without that date every license of the history is a candidate (under `--as-of`,
    only those already in force then: a copy cannot have been obtained later), and the findings
    say where the verdict depends on it.  Otherwise the model's current license."""
    history = [
        dated
        for dated in model.license_history
        if ref.obtained is not None or as_of is None or dated.from_ is None or dated.from_ <= as_of
    ]
    if ref.obtained is not None:
        for dated in history:
            after = dated.from_ is None or ref.obtained >= dated.from_
            before = dated.until is None or ref.obtained <= dated.until
            if after and before:
                return [_Candidate(dated.license, dated)]
        # The history does not cover that date: which text applied then is not known.
        return [_Candidate(model.license if not history else None)]
    distinct = {dated.license for dated in history}
    if len(distinct) > 1:
        return [_Candidate(dated.license, dated) for dated in history]
    if len(distinct) == 1:
        return [_Candidate(history[0].license, history[0])]
    # No text of a history was in force yet as of that date: which one applied is not known.
    return [_Candidate(None if model.license_history else model.license)]


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A license the copy may be under, and the dates it applied to copies obtained then."""

    license: str | None
    dated: DatedLicense | None = None


def _obtained_label(candidate: _Candidate) -> str:
    dated = candidate.dated or DatedLicense(license=candidate.license or "unknown")
    if dated.from_ and dated.until:
        span = f"obtained from {dated.from_} to {dated.until}"
    elif dated.from_:
        span = f"obtained on or after {dated.from_}"
    elif dated.until:
        span = f"obtained on or before {dated.until}"
    else:
        span = "obtained at any date"
    return f"{span} ({dated.license})"


def _across_versions(
    candidates: list[_Candidate],
    by_license: dict[str, list[Finding]],
    model: CatalogModel,
    ref_path: tuple[str | int, ...],
) -> list[Finding]:
    """Findings under every license the copy may be under, when the manifest does not say when
    the weights were obtained.  A clause whose verdict is the same under every candidate (a
    clause a license lacks counts as not applicable) keeps it; where they differ the finding is a
    governance risk, with `obtained` as the missing fact and each candidate's verdict."""
    verdicts = {lid: {f.clause: f.verdict for f in found} for lid, found in by_license.items()}
    likely = {lid: {f.clause: f.likely_verdict for f in found} for lid, found in by_license.items()}
    obtained = FactState(
        "obtained",
        _OBTAINED,
        Status.UNKNOWN,
        Strings(None),
        "not stated",
        note=f"{model.name}'s license changed over time; the date the weights were obtained "
        "(lineage: obtained) decides which text applies",
        path=ref_path,
    )
    result: list[Finding] = []
    for found in by_license.values():
        for finding in found:
            under = [
                verdicts[c.license or ""].get(finding.clause, Verdict.NOT_APPLICABLE)
                for c in candidates
            ]
            if len(set(under)) == 1:
                result.append(finding)
                continue
            branches = tuple(
                Branch(_obtained_label(c), v) for c, v in zip(candidates, under, strict=True)
            )
            likely_under = {
                likely[c.license or ""].get(finding.clause, Verdict.NOT_APPLICABLE)
                for c in candidates
            }
            result.append(
                replace(
                    finding,
                    verdict=Verdict.GOVERNANCE_RISK,
                    scope="depends",
                    likely_verdict=(
                        next(iter(likely_under))
                        if len(likely_under) == 1
                        else Verdict.GOVERNANCE_RISK
                    ),
                    missing=(MissingFact(obtained, branches), *finding.missing),
                )
            )
    return result


@dataclass(frozen=True, slots=True)
class _UnknownLicense:
    component: Component
    ref: ModelRef
    lineage: FactState
    line: int
    column: int

    def finding(self, clause: str, summary: str, model: CatalogModel | None = None) -> Finding:
        name = model.name if model else self.ref.model
        return Finding(
            component=self.component.id,
            component_name=self.component.name,
            model=model.id if model else self.ref.model,
            model_name=name,
            license="unknown",
            license_name="unknown license",
            clause=clause,
            title={
                "base-undisclosed": "Base model undisclosed",
                "license-unknown": f"License of {name} unknown",
                "lineage-unconfirmed": "Base model not established",
            }[clause],
            kind="unknown",
            quote=None,
            verdict=Verdict.GOVERNANCE_RISK,
            likely_verdict=(
                Verdict.NOT_APPLICABLE
                if clause == "lineage-unconfirmed" and self.lineage.likely is not None
                else Verdict.GOVERNANCE_RISK
            ),
            scope="depends",
            trigger="depends",
            requirement="depends",
            exception="no",
            facts=(self.lineage,),
            missing=self._missing(clause),
            line=self.line,
            column=self.column,
            summary=summary,
            settlements=(
                (Settlement(Verdict.NOT_APPLICABLE, (("lineage", "true"),)),)
                if clause == "lineage-unconfirmed"
                else ()
            ),
        )

    def _missing(self, clause: str) -> tuple[MissingFact, ...]:
        """An unconfirmed base is settled by the lineage itself: established, this finding goes
        (the model's own findings cover the component); refuted, the license is unknown."""
        if clause != "lineage-unconfirmed":
            return ()
        return (
            MissingFact(
                self.lineage,
                (Branch("true", Verdict.NOT_APPLICABLE), Branch("false", Verdict.GOVERNANCE_RISK)),
            ),
        )


def _judge_clause(
    compiled: CompiledClause,
    component: Component,
    model: CatalogModel,
    facts: dict[str, FactState],
    document: Document,
    line: int,
    column: int,
    occasion: Occasion,
    readings: dict[str, FactState],
) -> Finding:
    bound, names, tests = _bound(compiled.rule)
    states = {}
    for name in names:
        state = readings.get(name)
        if state is None:
            state = readings[name] = read(name, facts, occasion)
        states[name] = state
    judged, likely_verdict = _judge(
        bound,
        tests,
        tuple(states[n].domain for n in names),
        tuple(s.likely if s.likely is not None else s.domain for s in (states[n] for n in names)),
    )
    judgement = judged.judgement
    missing = tuple(MissingFact(states[n], b) for n, b in judged.branches)
    decisive = _decisive_fact(judgement.verdict, bound, states, missing)
    if decisive is not None and decisive.path:
        line, column = document.locate(decisive.path)
    outcomes = judgement.outcomes
    clause = compiled.clause
    return Finding(
        component=component.id,
        component_name=component.name,
        model=model.id,
        model_name=model.name,
        license=compiled.license.id,
        license_name=compiled.license.name,
        clause=clause.id,
        title=clause.title,
        kind=clause.kind.value,
        quote=clause.quote,
        verdict=judgement.verdict,
        likely_verdict=likely_verdict,
        scope=_three(judgement.in_scope),
        trigger=_three(judgement.triggered),
        requirement=_requirement(outcomes),
        exception=_exception(outcomes),
        facts=tuple(states[n] for n in names),
        missing=missing,
        line=line,
        column=column,
        summary=clause.summary,
        provenance=compiled.license.text.provenance.value,
        settlements=_named(judged.settlements, states),
    )


def _named(
    settled: tuple[Settlement, ...], states: Mapping[str, FactState]
) -> tuple[Settlement, ...]:
    """A measured key (licensee_mau@month_before_release) shown as its state names it; where no
    name changes, the judgement's own settlements (shared, so the report's parts are too)."""
    if all(states[f].name == f for s in settled for f, _ in s.conditions):
        return settled
    return tuple(
        dataclasses.replace(s, conditions=tuple((states[f].name, v) for f, v in s.conditions))
        for s in settled
    )


# Judging a clause depends only on its rule and on the domains of its facts, and products repeat
# the same few domains (unknown facts, the usual thresholds): over a portfolio each combination is
# judged once.  A settled fact (one value) enters the key only as the results of the rule's tests
# on its value: every value with the same results is the same single cell, and a single cell is
# never open, so it shows in no branch or settlement (mau 5,000 and 6,000 judge alike).  Keys hold
# the rule's id, so each entry keeps its rule alive (the id is never reused while the entry
# exists); the caches are bounded, so memory stays flat.
_CACHE_LIMIT = 4096


@dataclass(frozen=True, slots=True)
class _Judged:
    rule: Rule
    judgement: Judgement
    branches: tuple[tuple[str, tuple[Branch, ...]], ...]  # for each open fact
    settlements: tuple[Settlement, ...]  # for a governance risk: what would make it firm


# A rule's tests on each of its facts, in the order of `Rule.facts`.
_Tests = tuple[tuple[Test, ...], ...]
_BOUND: dict[int, tuple[Rule, Rule, tuple[str, ...], _Tests]] = {}
_JUDGED: dict[tuple[int, tuple[object, ...]], _Judged] = {}
_LIKELY: dict[tuple[int, tuple[object, ...]], tuple[Rule, Verdict]] = {}  # verdicts only


def _bound(rule: Rule) -> tuple[Rule, tuple[str, ...], _Tests]:
    """The clause's rule within the license's scope, the facts it tests, and its tests on each."""
    found = _BOUND.get(id(rule))
    if found is None:
        if len(_BOUND) >= _CACHE_LIMIT:
            _BOUND.clear()
        bound = Rule(rule.trigger, rule.requirement, rule.exceptions, scope=SCOPE)
        names = tuple(bound.facts())
        all_tests = bound.tests()
        tests = tuple(tuple(t for t in all_tests if t.key == name) for name in names)
        found = _BOUND[id(rule)] = (rule, bound, names, tests)
    return found[1], found[2], found[3]


def _settled_value(domain: Domain) -> Value | None:
    """The one value a settled domain holds; None when more remain."""
    match domain:
        case Interval():
            return domain.lo if domain.is_point() else None
        case Booleans():
            return next(iter(domain.values)) if len(domain.values) == 1 else None
        case Strings():
            return domain.value
        case StringSet():
            return domain.includes if domain.exact else None
    return None  # pragma: no cover


def _key(domains: tuple[Domain, ...], tests: _Tests) -> tuple[object, ...]:
    """The domains as the judgement depends on them: a settled one by its tests' results."""
    key: list[object] = []
    for domain, on_fact in zip(domains, tests, strict=True):
        value = _settled_value(domain)
        key.append(domain if value is None else tuple([t.holds(value) for t in on_fact]))
    return tuple(key)


# The cells of a domain cut by a rule's tests on its fact (`engine.fact_cells`, one fact at a
# time): unknown facts and the usual values recur across clauses and products.  Keyed by the tests'
# id, each entry keeps its tests alive; bounded.
_CELLS: dict[tuple[int, Domain], tuple[tuple[Test, ...], tuple[Cell, ...]]] = {}


def _fact_cells(
    names: Sequence[str], tests: _Tests, domains: tuple[Domain, ...]
) -> dict[str, Sequence[Cell]]:
    by_fact: dict[str, Sequence[Cell]] = {}
    for name, on_fact, domain in zip(names, tests, domains, strict=True):
        if _settled_value(domain) is not None:  # one cell, quickly made: not worth keeping
            by_fact[name] = tuple(cells(domain, on_fact))
            continue
        found = _CELLS.get((id(on_fact), domain))
        if found is None:
            if len(_CELLS) >= _CACHE_LIMIT:
                _CELLS.clear()
            found = _CELLS[(id(on_fact), domain)] = (on_fact, tuple(cells(domain, on_fact)))
        by_fact[name] = found[1]
    return by_fact


def _judge(
    bound: Rule, tests: _Tests, domains: tuple[Domain, ...], likely: tuple[Domain, ...]
) -> tuple[_Judged, Verdict]:
    """The judgement of the domains, and the verdict with weak evidence admitted (`likely`)."""
    domains_key = _key(domains, tests)
    key = (id(bound), domains_key)
    judged = _JUDGED.get(key)
    if judged is None:
        by_fact = _fact_cells(bound.facts(), tests, domains)
        judgement = judge_cells(bound, by_fact)
        branches_ = tuple((n, tuple(branches(bound, by_fact, n))) for n in judgement.open_facts)
        settled = (
            tuple(settlements(bound, by_fact, judgement.open_facts))
            if judgement.verdict is Verdict.GOVERNANCE_RISK
            else ()
        )
        if len(_JUDGED) >= _CACHE_LIMIT:
            _JUDGED.clear()
        judged = _JUDGED[key] = _Judged(bound, judgement, branches_, settled)
    if likely == domains:
        return judged, judged.judgement.verdict
    # Only the verdict is needed with weak evidence: judged apart, so that each manifest's
    # combination of likely values does not make a judgement of its own.
    likely_key = (id(bound), _key(likely, tests))
    if likely_key == key:
        return judged, judged.judgement.verdict
    other = _JUDGED.get(likely_key)
    if other is not None:
        return judged, other.judgement.verdict
    found = _LIKELY.get(likely_key)
    if found is None:
        verdict = judge_cells(bound, _fact_cells(bound.facts(), tests, likely)).verdict
        if len(_LIKELY) >= _CACHE_LIMIT:
            _LIKELY.clear()
        found = _LIKELY[likely_key] = (bound, verdict)
    return judged, found[1]


def _three(values: frozenset[bool]) -> str:
    if values == {True}:
        return "yes"
    if values == {False} or not values:
        return "no"
    return "depends"


def _exception(outcomes: frozenset[Outcome]) -> str:
    if Outcome.LIFTED not in outcomes:
        return "no"
    triggered = outcomes - {Outcome.NOT_TRIGGERED}
    return "yes" if triggered == {Outcome.LIFTED} else "depends"


def _requirement(outcomes: frozenset[Outcome]) -> str:
    holds, fails = Outcome.HOLDS in outcomes, Outcome.FAILS in outcomes
    if holds and fails:
        return "depends"
    return "fails" if fails else ("holds" if holds else "not reached")


def _decisive_fact(
    verdict: Verdict, rule: Rule, states: dict[str, FactState], missing: tuple[MissingFact, ...]
) -> FactState | None:
    """The fact a reader should look at: the first open one, else the requirement's."""
    if verdict is Verdict.GOVERNANCE_RISK and missing:
        stated = [m.fact for m in missing if m.fact.path]
        return stated[0] if stated else None
    for test in tests_in(rule.requirement):
        state = states.get(test.key)
        if state is not None and state.path:
            return state
    return None
