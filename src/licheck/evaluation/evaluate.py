"""Evaluate a product manifest against the rule library: one finding per component, model in its
lineage, and clause of that model's license.

The pipeline: derive the facts the manifest implies (`derive_facts`: `derivation`, which also
applies a what-if scenario, and `scoping`), decide which licenses bind each model of a
component's lineage (`binding`), judge each clause of those licenses and of the rule files they
incorporate (`judging`), and gather the findings (`findings`).  A model whose license is not in
the library gets a finding of its own, never a pass.  Each step returns its results with the
problems it found (`Derived`); the manifest's problems, all of them, are raised at the end.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from licheck.checks.consistency import check_manifest
from licheck.core.context import EvaluationContext
from licheck.core.diagnostics import Diagnostic, InputError, Location
from licheck.core.verdicts import Verdict, worst
from licheck.engine.domains import Booleans
from licheck.evaluation.binding import (
    Candidate,
    UnknownLicense,
    across_candidates,
    across_versions,
    as_claimed,
    as_licensor,
    claim_state,
    licenses_for,
    licensor_of,
)
from licheck.evaluation.derivation import Derivation, Derived, Facts, Path
from licheck.evaluation.findings import (
    HYPOTHETICAL,
    UNKNOWN_MODEL,
    ComponentLineage,
    Finding,
    Hypotheses,
    MissingFact,
    Options,
    ProductResult,
)
from licheck.evaluation.judging import Place, Readings, judge_clause
from licheck.evaluation.lineageview import component_lineage
from licheck.evaluation.policyjudging import judge_policies
from licheck.evaluation.relating import derivative_by_definition
from licheck.evaluation.scoping import Relation, Scopes, relations, scopes
from licheck.facts.measurement import Occasion
from licheck.facts.resolution import FactState, Status
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Component, Manifest, ModelRef, Owner
from licheck.inputs.rules import CatalogModel, ClaimSource, model_key
from licheck.inputs.rules import Relation as Kind
from licheck.library.compiled import Library, incorporated
from licheck.vocabulary.names import FACTS

__all__ = [
    "HYPOTHETICAL",
    "UNKNOWN_MODEL",
    "ComponentLineage",
    "EvaluationContext",
    "Finding",
    "Hypotheses",
    "MissingFact",
    "Options",
    "ProductResult",
    "evaluate_manifest",
]


class ComponentFacts(NamedTuple):
    """One component's facts as derived: its own (with the product's and what licheck supplies),
    how it is related to each model of its lineage, and what it states per model or license."""

    component: Component
    path: Path
    facts: Facts
    relations: tuple[Relation, ...]
    scopes: Scopes


class ProductFacts(NamedTuple):
    """Every fact one manifest implies, component by component, and how they were derived (the
    clauses' readings derive a few more per model: `Derivation.model_facts`)."""

    derivation: Derivation
    components: tuple[ComponentFacts, ...]


def evaluate_manifest(
    manifest: Manifest,
    document: Document,
    library: Library,
    options: Options,
    context: EvaluationContext | None = None,
    *,
    checked: bool = False,
) -> ProductResult:
    """Every finding for one product; `InputError` for facts that cannot be read.  `context`:
    the run's memo tables (a fresh one when not given: correct, only slower over many);
    `checked`: the manifest is one `check_manifest` found nothing in already (the timeline
    evaluates one manifest on many days, and that check does not depend on the day)."""
    memo = context if context is not None else EvaluationContext()
    checks = () if checked else check_manifest(manifest, document, library, options.today)
    # 1. derive the facts
    derived = derive_facts(manifest, document, library, options, memo)
    # 2-4. for each model of each component's lineage: which licenses bind, their clauses
    # judged, the findings
    judged = [
        _component_findings(derived.value, manifest.owner, c) for c in derived.value.components
    ]
    # every problem, wherever it was found (a manifest's are all reported at once)
    problems = [*checks, *derived.problems, *(p for each in judged for p in each.problems)]
    if problems:
        raise InputError(problems)
    findings = sorted(
        (_decided(f) for each in judged for f in each.value),
        key=lambda f: (f.component, f.model, f.license, f.clause),
    )
    return ProductResult(
        manifest.product,
        manifest.owner.name,
        document.file,
        worst([f.verdict for f in findings]),
        tuple(findings),
        manifest.release_date,
        tuple(
            component_lineage(library, c.component, c.relations) for c in derived.value.components
        ),
    )


def _decided(finding: Finding) -> Finding:
    """A finding as reported: a decided one (satisfied, violated, not applicable) lists no
    missing facts, since none of them would change its verdict.  (They are kept until here:
    the alternatives, candidate bases and texts, combine each one's guidance.)"""
    if finding.verdict is Verdict.GOVERNANCE_RISK or not finding.missing_facts:
        return finding
    return replace(finding, missing_facts=(), settled_by=())


def derive_facts(
    manifest: Manifest,
    document: Document,
    library: Library,
    options: Options,
    memo: EvaluationContext,
) -> Derived[ProductFacts]:
    """Step 1: the facts of the product and of each component, and each component's relations
    to the models of its lineage, with every problem found deriving them."""
    problems: list[Diagnostic] = []
    derive = Derivation.of(manifest, document, library, options, memo).into(problems)
    product = derive.product_facts(manifest).into(problems)
    components = []
    for index, component in enumerate(manifest.components):
        path: Path = ("components", index)
        facts = derive.component_facts(component, path, product).into(problems)
        related = relations(derive, component, path).into(problems)
        stated = scopes(derive, component, path, related).into(problems)
        components.append(ComponentFacts(component, path, facts, related, stated))
    return Derived(ProductFacts(derive, tuple(components)), tuple(problems))


def _component_findings(
    derived: ProductFacts, owner: Owner, each: ComponentFacts
) -> Derived[list[Finding]]:
    """Steps 2-4 for one component: for each model of its lineage, the licenses that bind it,
    their clauses judged, and the findings (a lineage entry of several candidate models judged
    as if each were the one)."""
    problems: list[Diagnostic] = []
    findings: list[Finding] = []
    for group, members in _by_entry(each.relations):
        found = [
            (r.ref.model, _findings_for(derived.derivation, owner, each, r).into(problems))
            for r in members
        ]
        if group is None:
            findings.extend(found[0][1])
        else:  # one of several candidate bases: each judged as if it were the one
            findings.extend(across_candidates(found, group))
    return Derived(findings, tuple(problems))


def _by_entry(related: tuple[Relation, ...]) -> list[tuple[Path | None, list[Relation]]]:
    """The relations grouped by lineage entry: the candidates of one entry together (keyed by
    the entry's path), every other relation on its own."""
    groups: list[tuple[Path | None, list[Relation]]] = []
    for relation in related:
        group = relation.candidates_of
        if group is not None and groups and groups[-1][0] == group:
            groups[-1][1].append(relation)
        else:
            groups.append((group, [relation]))
    return groups


def _findings_for(
    derive: Derivation, owner: Owner, each: ComponentFacts, relation: Relation
) -> Derived[list[Finding]]:
    """The findings for one model of a component's lineage."""
    component, facts, stated = each.component, each.facts, each.scopes
    document, library = derive.document, derive.library
    ref, ref_path, lineage = relation.ref, relation.path, relation.lineage
    line, column = document.locate(ref_path)
    unknown = UnknownLicense(
        component, ref, lineage, Location(document.file, line, column), ref_path
    )
    if model_key(ref.model) == UNKNOWN_MODEL:
        # the organisation's policies bind an undisclosed model too: a rule on the product's
        # own facts may be violated whatever the model is
        undisclosed = _undisclosed()
        place = Place(component, undisclosed, document, line, column)
        readings = _readings(derive, facts, component, relation, stated, undisclosed)
        policies = judge_policies(library, None, [], derive, place, readings)
        return Derived([unknown.undisclosed(), *policies])
    model = library.model(ref.model) or _named_with_license(ref, library)
    if model is None:
        problem = document.error(
            ref_path,
            f"unknown model {ref.model!r}{library.suggest_model(ref.model)}",
            "name a model of the catalog (licheck licenses models) only if it is that very "
            "model: a later checkpoint or a variant of a listed model may be under another "
            "license, so name such a base `unknown` (a governance risk) rather than the "
            "nearest id; a model the catalog does not list: name its license beside it "
            "(`license: ID`)",
        )
        return Derived([], (problem,))
    if relation.via is not None:  # judged as what it is: the upstream of the model named
        named = library.model(relation.via)
        shown = named.name if named is not None else relation.via
        model = model.model_copy(update={"name": f"{model.name} (upstream of {shown})"})
    # 2. which licenses bind the copy (each it may be under), and which of them licheck knows
    candidates = licenses_for(model, ref, derive.context.as_of)
    known = [c for c in candidates if c.license is not None and c.license in library.licenses]
    found = _unknown_license(unknown, model, ref, candidates, known)
    place = Place(component, model, document, line, column)
    readings = _readings(derive, facts, component, relation, stated, model)
    # the organisation's policies, judged under each license; when one the copy may be under
    # is not in the library, once, under a license they know nothing of (never skipped)
    every_known = len(known) == len(candidates)
    if not every_known:
        found += judge_policies(library, None, [], derive, place, readings)
    # 3. the clauses of each known license judged (and the policies under it)
    problems: list[Diagnostic] = []
    by_license: dict[str, list[Finding]] = {}
    for candidate in known:
        if candidate.license is not None:
            judging = _judge_license(
                candidate.license, derive, owner, place, readings, stated, relation.kinds
            )
            own = judging.into(problems)
            if candidate.claim(model) is ClaimSource.SECONDARY:
                own = as_claimed(own, claim_state(model, candidate.license, ref_path))
                found.append(unknown.claimed(model, candidate.license))
            if every_known:
                own += judge_policies(library, candidate.license, own, derive, place, readings)
            by_license[candidate.license] = own
    # 4. the findings: one license's, or one per clause across the licenses it may be under
    if len(known) == 1:
        found.extend(next(iter(by_license.values())))
    elif known:
        found.extend(across_versions(known, by_license, model, ref_path))
    return Derived(found + unknown.unconfirmed(model), tuple(problems))


# Where a license's definition leaves open whether it covers a relation (`library.reach`): not
# known, so a clause reaching only through it is a governance risk.
_OPEN_READING = FactState(
    "definition_covers",
    FACTS["definition_covers"],
    Status.UNKNOWN,
    Booleans(frozenset({True, False})),
    "unknown",
    note="the license's definition leaves open whether it covers this use of the model (the "
    "rule's definitions say which words decide it; `licheck licenses reach`)",
)


def _named_with_license(ref: ModelRef, library: Library) -> CatalogModel | None:
    """A model the catalog does not list, under the license the manifest names for it
    (`license:`): judged under it where the library has it; else its license is unknown, and
    the finding names it.  None where the manifest names no license."""
    if ref.license is None:
        return None
    known = ref.license in library.licenses
    note = (
        None
        if known
        else f"the manifest names its license, {ref.license!r}, which is not in licheck's "
        "library (nor in a --licenses layer)"
    )
    return CatalogModel.model_construct(
        id=model_key(ref.model),
        name=ref.model,
        license=ref.license if known else None,
        license_note=note,
        source=f"the manifest: {ref.model} under {ref.license}, not in the catalog",
    )


def _undisclosed() -> CatalogModel:
    """What an undisclosed base is judged as by the organisation's policies: no family, no
    license (built when a base is undisclosed: the model's first construction builds its
    class, a cost a well-disclosed run need not pay)."""
    return CatalogModel.model_construct(
        id=UNKNOWN_MODEL, name="an undisclosed model", source="the manifest: base unknown"
    )


def _readings(
    derive: Derivation,
    facts: Facts,
    component: Component,
    relation: Relation,
    stated: Scopes,
    model: CatalogModel,
) -> Readings:
    """The facts one model of a component's lineage is judged on."""
    model_facts = derive.model_facts(facts, relation.lineage, model)
    model_facts.update(derive.implied_facts(facts, component, model, relation.path))
    model_facts["outputs_lineage"] = relation.outputs
    if relation.via is not None:  # what is stated for the model named holds for its upstream
        model_facts.update(stated.by_model.get(relation.via, {}))
    model_facts["relations"] = derive.relations_fact(frozenset(k.value for k in relation.kinds))
    model_facts["definition_covers"] = _OPEN_READING
    model_facts.update(stated.by_model.get(model.id, {}))
    model_facts.update(derive.supposed)  # a what-if fact replaces every scope's
    return Readings(model_facts, Occasion(model.name, model.release_date), derive.context.memo)


def _unknown_license(
    unknown: UnknownLicense,
    model: CatalogModel,
    ref: ModelRef,
    candidates: list[Candidate],
    known: list[Candidate],
) -> list[Finding]:
    """A finding where some license the copy may be under is not in the library."""
    if known and len(known) == len(candidates):
        return []
    note = model.license_note or "its license is not in licheck's library"
    if ref.obtained is not None and model.license_history:
        note = (
            f"its license history does not cover copies obtained on {ref.obtained}, so "
            "which text applied to them is not known"
        )
    elif known and model.license_history:
        note = (
            "its license history does not cover every date a copy may have been obtained on, "
            "and the manifest does not say when the weights were obtained (lineage: obtained), "
            f"so the copy may be under a text that is not known ({note})"
        )
    return [
        unknown.finding(
            "license-unknown",
            f"{model.name}: {note}. Until its terms are encoded, findings for it cannot be given.",
            model,
        )
    ]


def _judge_license(
    license_id: str,
    derive: Derivation,
    owner: Owner,
    place: Place,
    readings: Readings,
    stated: Scopes,
    kinds: frozenset[Kind] = frozenset(),
) -> Derived[list[Finding]]:
    """A finding for every clause of one license and of the rule files it incorporates, each
    reading the facts the component states for that license; where the owner may be a rule
    file's licensor, as `binding.as_licensor` says."""
    licenses = derive.library.licenses
    problems: list[Diagnostic] = []
    found: list[Finding] = []
    for bound_id in incorporated(licenses, license_id):
        own = stated.for_license(bound_id, license_id)
        if own:
            facts = {**readings.facts, **own, **derive.supposed}
            read_as = Readings(facts, readings.occasion, readings.memo)
        else:
            read_as = readings
        bound = licenses[bound_id]
        defined = derivative_by_definition(bound.license, kinds, read_as.facts["derivative"])
        if defined is not None:
            facts = {**read_as.facts, "derivative": defined, **derive.supposed}
            read_as = Readings(facts, readings.occasion, readings.memo)
        judged = [judge_clause(c, place, read_as) for c in bound.clauses]
        licensor_id = licensor_of(place.model, bound.license)
        licensor = derive.owner_is_licensor(owner, licensor_id).into(problems)
        found.extend(judged if licensor is None else as_licensor(judged, licensor))
    return Derived(found, tuple(problems))
