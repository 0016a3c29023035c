"""The reach matrix (`licheck licenses reach`) holds in the engine, for every clause of the library.

For every clause × relation (unmodified copy served, redistributed, used in-house; fine-tuned,
quantized, merged; distilled, synthetic data, judge) × `derivative` (true, false, unstated), a
manifest is built whose component has that relation to a model under the clause's license, with
facts that breach the clause: a violating completion of its own rule (trigger, no exception,
requirement failed), found by the engine over the facts the manifest's structure leaves free.
Where the matrix says the clause reaches the relation, the verdict must be a violation or a
governance risk, never satisfied or not applicable; where it does not, never a violation.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from licheck.checks.settled import settled_facts
from licheck.core.diagnostics import InputError
from licheck.core.units import Dimension
from licheck.core.verdicts import Outcome, Verdict
from licheck.engine.cells import Rule
from licheck.engine.domains import Booleans, Domain, Interval
from licheck.engine.exact import fact_cells
from licheck.evaluation.evaluate import Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.facts.measurement import month_before
from licheck.facts.resolution import full_domain
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Component, Manifest
from licheck.inputs.rules import CatalogModel, Clause, License, Relation
from licheck.library.compiled import incorporated, load_library
from licheck.library.reach import expects_reach
from licheck.vocabulary.names import FACTS

LIBRARY = load_library()
# The student a model's outputs are trained into, or the base another model is merged into:
# under a license of its own (Apache 2.0), never the licensed model.
DEFAULT_OTHER = "qwen3"
# Facts the manifest's structure decides, or the test's axes: never stated as breach facts.
NOT_STATED = frozenset(
    {name for name, d in FACTS.items() if d.implicit}
    | {"derivative", "outputs_generated_by_licensee", "multimodal"}
)

# Implicit facts licheck derives from a stated one: a completion is a breach a manifest can state
# only where the stated value gives the implicit one.  `license_declared` (the card declares
# some license) comes from `declared_license`; the engine's cell for "none of the licenses a
# clause names" is the empty set, so where the completion has a license declared, a license no
# clause names stands in for it (the same test results: `_consistent` re-checks the outcome).
STAND_IN_LICENSE = "acme-open-license-v1"


def _consistent(rule: Rule, values: dict[str, Any]) -> dict[str, Any] | None:
    declared = values.get("license_declared")
    if declared is None or "declared_license" not in values:
        return values
    if declared is bool(values["declared_license"]):
        return values
    if declared is False:
        return None
    repaired = {**values, "declared_license": frozenset({STAND_IN_LICENSE})}
    return repaired if rule.outcome(repaired) is Outcome.FAILS else None


def _model_for(license_id: str) -> tuple[CatalogModel, str | None] | None:
    """A catalog model whose copy is under `license_id` (or a license incorporating it), and the
    date it was obtained where its license changed over time (None: no history)."""

    def under(model: CatalogModel) -> tuple[str, str | None] | None:
        if model.license_history:
            for dated in model.license_history:
                if license_id in incorporated(LIBRARY.licenses, dated.license):
                    day = dated.until or dated.from_
                    return dated.license, str(day) if day is not None else None
            return None
        if model.license and license_id in incorporated(LIBRARY.licenses, model.license):
            return model.license, None
        return None

    # a model the catalog marks not multimodal switches off the clauses on multimodal models
    # (NVIDIA's "Built on NVIDIA Cosmos"): such models come last
    ranked = sorted(
        LIBRARY.models,
        key=lambda m: (
            m.multimodal is False,
            bool(m.license_history),
            m.license != license_id,
            m.id,
        ),
    )
    for model in ranked:
        found = under(model)
        if found is not None and (not model.license_history or found[1] is not None):
            return model, found[1]
    return None


def _other_base(model: CatalogModel) -> str:
    """A base under another license than the model's: the student trained on its outputs, or
    the model another is merged into."""
    for other in (DEFAULT_OTHER, "llama-3.1-8b"):
        found = LIBRARY.model(other)
        if found is not None and found.id != model.id and found.license != model.license:
            return other
    raise AssertionError("no other base")


def _component(
    model: CatalogModel, obtained: str | None, relation: Relation, delivery: list[str]
) -> dict[str, Any]:
    ref: dict[str, Any] = {"model": model.id}
    if obtained:
        ref["obtained"] = obtained
    other = _other_base(model)
    lineage: dict[str, Any]
    if relation in (Relation.SERVED, Relation.REDISTRIBUTED, Relation.INTERNAL_USE):
        lineage = {"base": ref, "steps": []}
    elif relation is Relation.FINE_TUNED:
        lineage = {"base": ref, "steps": ["fine_tuning"]}
    elif relation is Relation.QUANTIZED:
        lineage = {"base": ref, "steps": ["quantization"]}
    elif relation is Relation.MERGED:
        lineage = {"base": other, "steps": [{"kind": "merge", "parents": [ref]}]}
    else:
        role = {
            Relation.DISTILLED: "teacher",
            Relation.SYNTHETIC_DATA: "synthetic_data",
            Relation.JUDGE: "judge",
        }[relation]
        lineage = {
            "base": other,
            "steps": ["fine_tuning"],
            "trained_on_outputs_of": [{**ref, "role": role}],
        }
    return {"id": "c", "name": "C", "lineage": lineage, "delivery": delivery}


_DELIVERIES: dict[Relation, list[list[str]]] = {
    Relation.SERVED: [["api"], ["hosted_service"], ["api", "hosted_service"]],
    Relation.REDISTRIBUTED: [["weights"], ["weights", "api"]],
    Relation.INTERNAL_USE: [[]],
}
_ANY = [["weights", "api"], ["api"], ["hosted_service"], ["weights"], []]


def _written(value: Any, dimension: Dimension | None) -> Any:
    """A cell's value as a manifest states it; None where it cannot be written."""
    if isinstance(value, bool):
        return value
    if isinstance(value, Fraction):
        if value < 0 or value.denominator != 1:
            return None
        number = str(value.numerator)
        return f"{number} USD/month" if dimension is Dimension.MONEY else number
    if isinstance(value, str):
        return None if "\x00" in value else value
    if isinstance(value, frozenset):
        return None if any("\x00" in v for v in value) else sorted(value)
    return None


def _plain(value: Any, region: Domain | None = None) -> Any:
    """A cell's value with the engine's "any other string" marker replaced by a real string,
    and an amount a whole number where its cell has one."""
    if isinstance(region, Interval) and isinstance(value, Fraction) and value.denominator != 1:
        whole = region.whole_sample()
        return whole if whole is not None else value
    if isinstance(value, str):
        return value.replace("\x00", " (other)") if value != "\x00" else "Other Name"
    if isinstance(value, frozenset):
        return frozenset(_plain(v) for v in value)
    return value


def _breaches(rule: Rule, fixed: dict[str, Domain]) -> Iterator[dict[str, Any]]:
    """Violating completions of the clause's own rule, as facts a manifest can state."""
    names = rule.facts()
    domains: dict[str, Domain] = {}
    for key in names:
        fact = key.split("@")[0]
        domains[key] = fixed.get(fact) or full_domain(FACTS[fact])
    cells = fact_cells(rule, domains)
    keys = list(cells)
    tried = 0
    for combo in itertools.product(*(cells[k] for k in keys)):
        tried += 1
        if tried > 20000:
            return
        values = {k: _plain(c.value, c.region) for k, c in zip(keys, combo, strict=True)}
        if rule.outcome(values) is not Outcome.FAILS:
            continue
        consistent = _consistent(rule, values)
        if consistent is None:
            continue
        values = consistent
        stated: dict[str, Any] = {}
        ok = True
        for key, value in values.items():
            fact, _, measured = key.partition("@")
            if fact in NOT_STATED or fact in fixed:
                continue
            written = _written(value, FACTS[fact].dimension)
            if written is None:
                ok = False
                break
            entry = stated.setdefault(fact, {})
            if measured:
                entry["series"] = {"@": written}
            else:
                entry["value"] = written
        if ok:
            yield stated


def _settled(component: dict[str, Any]) -> dict[str, Domain]:
    built = Component.model_validate(component)
    return {
        name: Booleans(frozenset({value})) for name, (value, _, _) in settled_facts(built).items()
    }


def _verdict(
    model: CatalogModel,
    component: dict[str, Any],
    facts: dict[str, Any],
    license_id: str,
    clause_id: str,
) -> Verdict | None:
    month = month_before(model.release_date) if model.release_date else None
    shown: dict[str, Any] = {}
    for name, spec in facts.items():
        spec = dict(spec)
        if "series" in spec:
            if month is None:
                return None
            spec["series"] = {month: spec["series"]["@"]}
        shown[name] = spec
    manifest = Manifest.model_validate(
        {
            "product": "reach",
            "owner": "reach-test",
            "release_date": "2026-06-01",
            "components": [{**component, "facts": shown}],
        }
    )
    try:
        result = evaluate_manifest(
            manifest, Document("reach.yaml", {}, {}), LIBRARY, Options(POLICIES["default"])
        )
    except InputError:
        return None
    for finding in result.findings:
        if (
            finding.license == license_id
            and finding.clause == clause_id
            and finding.model == model.id
        ):
            return finding.verdict
    return Verdict.NOT_APPLICABLE  # no finding: the license does not bind the component


def _cases() -> list[tuple[str, str]]:
    return [
        (lid, c.clause.id) for lid, entry in sorted(LIBRARY.licenses.items()) for c in entry.clauses
    ]


CASES = _cases()


@pytest.mark.parametrize(
    ("license_id", "clause_id"), CASES, ids=[f"{lid}/{cid}" for lid, cid in CASES]
)
def test_reach_matrix_holds(license_id: str, clause_id: str) -> None:
    entry = LIBRARY.licenses[license_id]
    compiled = next(c for c in entry.clauses if c.clause.id == clause_id)
    license_: License = entry.license
    clause: Clause = compiled.clause
    found = _model_for(license_id)
    assert found is not None, f"no catalog model is under {license_id}"
    model, obtained = found
    checked = 0
    for relation in Relation:
        breach: tuple[dict[str, Any], dict[str, Any]] | None = None
        for delivery in _DELIVERIES.get(relation, _ANY):
            component = _component(model, obtained, relation, delivery)
            for tried, facts in enumerate(_breaches(compiled.rule, _settled(component))):
                if tried >= 8:
                    break
                if _verdict(model, component, facts, license_id, clause_id) is not None:
                    breach = (component, facts)  # a manifest licheck reads
                    break
            if breach is not None:
                break
        if breach is None:
            continue  # no breach of the clause can be written for this relation
        component, facts = breach
        for derivative in (True, False, None):
            stated = dict(facts)
            if derivative is not None:
                stated["derivative"] = {"value": derivative}
            verdict = _verdict(model, component, stated, license_id, clause_id)
            if verdict is None:
                continue
            checked += 1
            where = (
                f"{license_id}/{clause_id} × {relation.value} × derivative={derivative}: "
                f"{verdict.value} (facts {stated})"
            )
            if expects_reach(license_, clause, relation, derivative):
                assert verdict in (Verdict.VIOLATION, Verdict.GOVERNANCE_RISK), where
            else:
                assert verdict is not Verdict.VIOLATION, where
    assert checked, f"{license_id}/{clause_id}: no cell of the matrix could be checked"
