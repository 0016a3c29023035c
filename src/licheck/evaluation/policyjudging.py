"""Organisation policies judged for one model of a component's lineage, under one license.

A policy rule reads the component's facts as license clauses do, and four facts about the model
and the license it is judged under, which licheck supplies: `model_license` (the license's id)
and `license_thresholds` (what its clauses' triggers compare with thresholds: money is revenue,
a count is users), read from the rule library itself; `ungranted_gate`, from the verdicts of the
license's gate clauses for this component; and `model_family`, from the catalog.  The first three
are what licheck is judging, so they are established whatever the evidence policy; the family is
the catalog's word, counted as the catalog's other facts are (`multimodal`).
"""

from __future__ import annotations

from licheck.core.units import Dimension
from licheck.core.verdicts import Verdict
from licheck.engine.conditions import tests_in
from licheck.evaluation.derivation import Derivation
from licheck.evaluation.findings import Finding
from licheck.evaluation.judging import Place, Readings, judge_clause
from licheck.facts.resolution import FactState, resolve
from licheck.inputs.manifest import Evidence, EvidenceKind, FactSpec
from licheck.inputs.rules import CatalogModel, ClauseKind
from licheck.library.compiled import Library, incorporated
from licheck.vocabulary.factdefs import FactType
from licheck.vocabulary.names import FACTS

# What a threshold on a quantity of each dimension is about.
THRESHOLDS = {Dimension.MONEY: "revenue", Dimension.COUNT: "users"}


def judge_policies(
    library: Library,
    license_id: str | None,
    license_findings: list[Finding],
    derive: Derivation,
    place: Place,
    readings: Readings,
) -> list[Finding]:
    """A finding for every rule of every organisation policy, for the model at `place` under
    `license_id` (whose own findings are `license_findings`); None: a license licheck does not
    know, so what the rules read of it is unknown (a rule on the model's family still binds)."""
    if not library.policies:
        return []
    facts = dict(readings.facts)
    facts.update(_license_facts(library, license_id, license_findings, derive, place.model))
    facts.update(derive.supposed)  # a what-if fact replaces licheck's
    read_as = Readings(facts, readings.occasion, readings.memo)
    return [
        judge_clause(compiled, place, read_as)
        for policy in library.policies
        for compiled in policy.clauses
    ]


def thresholds(library: Library, license_id: str) -> list[str]:
    """What the license and the rule files it incorporates have thresholds on."""
    found: set[str] = set()
    for bound_id in incorporated(library.licenses, license_id):
        for compiled in library.licenses[bound_id].clauses:
            for test in tests_in(compiled.rule.trigger):
                definition = FACTS[test.fact]
                if definition.type is FactType.QUANTITY and definition.dimension in THRESHOLDS:
                    found.add(THRESHOLDS[definition.dimension])
    return sorted(found)


def ungranted_gate(license_findings: list[Finding]) -> bool | None:
    """Whether a gate of the license is crossed without the licensor's grant: a gate clause that
    is a violation says yes, a governance risk leaves it unknown (None)."""
    verdicts = {f.verdict for f in license_findings if f.kind == ClauseKind.GATE.value}
    if Verdict.VIOLATION in verdicts:
        return True
    return None if Verdict.GOVERNANCE_RISK in verdicts else False


def _license_facts(
    library: Library,
    license_id: str | None,
    license_findings: list[Finding],
    derive: Derivation,
    model: CatalogModel,
) -> dict[str, FactState]:
    source = f"licheck's rule library: {license_id}"
    gate = ungranted_gate(license_findings) if license_id is not None else None
    facts = {
        "model_license": _certain("model_license", license_id or "unknown", source, derive),
        "license_thresholds": _certain(
            "license_thresholds",
            thresholds(library, license_id) if license_id is not None else "unknown",
            source,
            derive,
        ),
        "ungranted_gate": _certain(
            "ungranted_gate",
            "unknown" if gate is None else gate,
            f"the verdicts of {license_id}'s gate clauses for this component",
            derive,
        ),
    }
    family = model.family if model.family is not None else "unknown"
    catalog = f"licheck's catalog entry for {model.name}" if model.family is not None else None
    facts["model_family"] = derive.default("model_family", family, catalog)
    return facts


def _certain(
    name: str, value: bool | str | list[str], source: str, derive: Derivation
) -> FactState:
    """A fact licheck knows from what it is judging: established whatever the evidence policy
    (as a what-if's facts are); "unknown" stays unknown."""
    if value == "unknown":
        return resolve(name, FactSpec(value="unknown"), derive.hypothetical())
    evidence = [Evidence(source=source, kind=EvidenceKind.DECLARED)]
    return resolve(name, FactSpec(value=value, evidence=evidence), derive.hypothetical())
