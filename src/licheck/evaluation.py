"""Evaluate a product manifest against the rule library: one finding per component, model in its
lineage, and clause of that model's license.

The pipeline: derive the facts the manifest implies (`derivation`, which also applies a what-if
scenario), decide which licenses bind each model of a component's lineage (`binding`), judge each
clause of those licenses and of the rule files they incorporate (`judging`), and gather the
findings (`findings`).  A model whose license is not in the library gets a finding of its own,
never a pass.
"""

from __future__ import annotations

from licheck.binding import (
    Candidate,
    UnknownLicense,
    across_candidates,
    across_versions,
    as_licensor,
    licenses_for,
    licensor_of,
)
from licheck.consistency import check_manifest
from licheck.context import EvaluationContext
from licheck.derivation import Derivation, Path, lineage_models
from licheck.diagnostics import InputError
from licheck.facts import FactState
from licheck.findings import (
    HYPOTHETICAL,
    UNKNOWN_MODEL,
    Finding,
    Hypotheses,
    MissingFact,
    Options,
    ProductResult,
)
from licheck.judging import Place, Readings, judge_clause
from licheck.library import Library, incorporated
from licheck.manifest import CandidateBases, Component, Manifest, ModelRef, Owner
from licheck.measurement import Occasion
from licheck.model import CatalogModel
from licheck.verdicts import worst
from licheck.yamlsafe import Document

__all__ = [
    "HYPOTHETICAL",
    "UNKNOWN_MODEL",
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
) -> ProductResult:
    """Every finding for one product; `InputError` for facts that cannot be read.  `context`:
    the run's memo tables (a fresh one when not given: correct, only slower over many)."""
    memo = context if context is not None else EvaluationContext()
    problems = check_manifest(manifest, document, library, options.today)
    derive = Derivation.of(manifest, document, library, options, memo, problems)
    product = derive.product_facts(manifest)
    findings: list[Finding] = []
    for index, component in enumerate(manifest.components):
        path: Path = ("components", index)
        facts = derive.component_facts(component, path, product)
        for entry, entry_path in lineage_models(component, path):
            findings.extend(
                _entry_findings(derive, manifest.owner, component, entry, entry_path, facts)
            )
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
    )


def _entry_findings(
    derive: Derivation,
    owner: Owner,
    component: Component,
    entry: ModelRef | CandidateBases,
    entry_path: Path,
    facts: dict[str, FactState],
) -> list[Finding]:
    """The findings for one entry of a component's lineage: its model, or each candidate judged
    as if it were the one, then combined."""
    by_candidate: list[tuple[str, list[Finding]]] = []
    for ref, path in _located(entry, entry_path):
        ref, lineage = derive.lineage(ref, path)
        found = _findings_for(derive, owner, component, ref, path, lineage, facts)
        by_candidate.append((ref.model, found))
    if not isinstance(entry, CandidateBases):
        return by_candidate[0][1]
    return across_candidates(by_candidate, entry_path)


def _located(entry: ModelRef | CandidateBases, path: Path) -> list[tuple[ModelRef, Path]]:
    if isinstance(entry, CandidateBases):
        return [(ref, (*path, "candidates", i)) for i, ref in enumerate(entry.candidates)]
    return [(entry, path)]


def _findings_for(
    derive: Derivation,
    owner: Owner,
    component: Component,
    ref: ModelRef,
    ref_path: Path,
    lineage: FactState,
    facts: dict[str, FactState],
) -> list[Finding]:
    """The findings for one model of a component's lineage."""
    document, library = derive.document, derive.library
    line, column = document.locate(ref_path)
    unknown = UnknownLicense(component, ref, lineage, line, column)
    if ref.model.strip().lower() == UNKNOWN_MODEL:
        return [unknown.undisclosed()]
    model = library.model(ref.model)
    if model is None:
        derive.problems.append(
            document.error(
                ref_path,
                f"unknown model {ref.model!r}{library.suggest_model(ref.model)}",
                "name a model of the catalog (licheck licenses models), or `unknown` if the base "
                "is undisclosed",
            )
        )
        return []
    candidates = licenses_for(model, ref, derive.context.as_of)
    known = [c for c in candidates if c.license is not None and c.license in library.licenses]
    found = _unknown_license(unknown, model, ref, candidates, known)
    if not known:
        return found
    place = Place(component, model, document, line, column)
    readings = Readings(
        derive.model_facts(facts, lineage, model),
        Occasion(model.name, model.release_date),
        derive.context.memo,
    )
    by_license = {
        c.license: _judge_license(c.license, derive, owner, place, readings)
        for c in known
        if c.license is not None
    }
    if len(known) == 1:
        found.extend(next(iter(by_license.values())))
    else:
        found.extend(across_versions(known, by_license, model, ref_path))
    return found + unknown.unconfirmed(model)


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
    return [
        unknown.finding(
            "license-unknown",
            f"{model.name}: {note}. Until its terms are encoded, findings for it cannot be given.",
            model,
        )
    ]


def _judge_license(
    license_id: str, derive: Derivation, owner: Owner, place: Place, readings: Readings
) -> list[Finding]:
    """A finding for every clause of one license and of the rule files it incorporates; where
    the owner may be a rule file's licensor, as `binding.as_licensor` says."""
    found: list[Finding] = []
    for bound_id in incorporated(derive.library.licenses, license_id):
        bound = derive.library.licenses[bound_id]
        judged = [judge_clause(compiled, place, readings) for compiled in bound.clauses]
        licensor = derive.owner_is_licensor(owner, licensor_of(place.model, bound.license))
        found.extend(judged if licensor is None else as_licensor(judged, licensor))
    return found
