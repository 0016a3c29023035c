"""Evaluate a product manifest against the rule library: one finding per component, model in its
lineage, and clause of that model's license.

The pipeline: derive the facts the manifest implies (`derivation`, which also applies a what-if
scenario), decide which licenses bind each model of a component's lineage (`binding`), judge each
clause of those licenses and of the rule files they incorporate (`judging`), and gather the
findings (`findings`).  A model whose license is not in the library gets a finding of its own,
never a pass.
"""

from __future__ import annotations

from licheck.checks.consistency import check_manifest
from licheck.core.context import EvaluationContext
from licheck.core.diagnostics import InputError
from licheck.core.verdicts import worst
from licheck.engine.domains import Booleans
from licheck.evaluation.binding import (
    Candidate,
    UnknownLicense,
    across_candidates,
    across_versions,
    as_licensor,
    licenses_for,
    licensor_of,
)
from licheck.evaluation.derivation import Derivation, Path
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
from licheck.inputs.rules import CatalogModel, model_key
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
    problems = [] if checked else check_manifest(manifest, document, library, options.today)
    derive = Derivation.of(manifest, document, library, options, memo, problems)
    product = derive.product_facts(manifest)
    findings: list[Finding] = []
    lineages: list[ComponentLineage] = []
    for index, component in enumerate(manifest.components):
        path: Path = ("components", index)
        facts = derive.component_facts(component, path, product)
        related = relations(derive, component, path)
        lineages.append(component_lineage(library, component, related))
        stated = scopes(derive, component, path, related)
        for group, members in _by_entry(related):
            found = [
                (r.ref.model, _findings_for(derive, manifest.owner, component, r, stated, facts))
                for r in members
            ]
            if group is None:
                findings.extend(found[0][1])
            else:  # one of several candidate bases: each judged as if it were the one
                findings.extend(across_candidates(found, group))
    if derive.problems:
        raise InputError(derive.problems)
    findings.sort(key=lambda f: (f.component, f.model, f.license, f.clause))
    return ProductResult(
        manifest.product,
        manifest.owner.name,
        document.file,
        worst([f.verdict for f in findings]),
        tuple(findings),
        manifest.release_date,
        tuple(lineages),
    )


def _by_entry(related: list[Relation]) -> list[tuple[Path | None, list[Relation]]]:
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
    derive: Derivation,
    owner: Owner,
    component: Component,
    relation: Relation,
    stated: Scopes,
    facts: dict[str, FactState],
) -> list[Finding]:
    """The findings for one model of a component's lineage."""
    document, library = derive.document, derive.library
    ref, ref_path, lineage = relation.ref, relation.path, relation.lineage
    line, column = document.locate(ref_path)
    unknown = UnknownLicense(component, ref, lineage, line, column)
    if model_key(ref.model) == UNKNOWN_MODEL:
        # the organisation's policies bind an undisclosed model too: a rule on the product's
        # own facts may be violated whatever the model is
        undisclosed = _undisclosed()
        place = Place(component, undisclosed, document, line, column)
        readings = _readings(derive, facts, relation, stated, undisclosed)
        return [unknown.undisclosed(), *judge_policies(library, None, [], derive, place, readings)]
    model = library.model(ref.model)
    if model is None:
        derive.problems.append(
            document.error(
                ref_path,
                f"unknown model {ref.model!r}{library.suggest_model(ref.model)}",
                "name a model of the catalog (licheck licenses models) only if it is that very "
                "model: a later checkpoint or a variant of a listed model may be under another "
                "license, so name such a base `unknown` (a governance risk) rather than the "
                "nearest id",
            )
        )
        return []
    candidates = licenses_for(model, ref, derive.context.as_of)
    known = [c for c in candidates if c.license is not None and c.license in library.licenses]
    found = _unknown_license(unknown, model, ref, candidates, known)
    place = Place(component, model, document, line, column)
    readings = _readings(derive, facts, relation, stated, model)
    # the organisation's policies, judged under each license; when one the copy may be under
    # is not in the library, once, under a license they know nothing of (never skipped)
    every_known = len(known) == len(candidates)
    if not every_known:
        found += judge_policies(library, None, [], derive, place, readings)
    by_license: dict[str, list[Finding]] = {}
    for candidate in known:
        if candidate.license is not None:
            own = _judge_license(
                candidate.license, derive, owner, place, readings, stated, relation.kinds
            )
            if every_known:
                own += judge_policies(library, candidate.license, own, derive, place, readings)
            by_license[candidate.license] = own
    if not known:
        return found + unknown.unconfirmed(model)
    if len(known) == 1:
        found.extend(next(iter(by_license.values())))
    else:
        found.extend(across_versions(known, by_license, model, ref_path))
    return found + unknown.unconfirmed(model)


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


def _undisclosed() -> CatalogModel:
    """What an undisclosed base is judged as by the organisation's policies: no family, no
    license (built when a base is undisclosed: the model's first construction builds its
    class, a cost a well-disclosed run need not pay)."""
    return CatalogModel.model_construct(
        id=UNKNOWN_MODEL, name="an undisclosed model", source="the manifest: base unknown"
    )


def _readings(
    derive: Derivation,
    facts: dict[str, FactState],
    relation: Relation,
    stated: Scopes,
    model: CatalogModel,
) -> Readings:
    """The facts one model of a component's lineage is judged on."""
    model_facts = derive.model_facts(facts, relation.lineage, model)
    model_facts["outputs_lineage"] = relation.outputs
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
) -> list[Finding]:
    """A finding for every clause of one license and of the rule files it incorporates, each
    reading the facts the component states for that license; where the owner may be a rule
    file's licensor, as `binding.as_licensor` says."""
    licenses = derive.library.licenses
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
        licensor = derive.owner_is_licensor(owner, licensor_of(place.model, bound.license))
        found.extend(judged if licensor is None else as_licensor(judged, licensor))
    return found
