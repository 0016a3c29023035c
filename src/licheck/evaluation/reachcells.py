"""The reach matrix judged: for a clause, a manifest per relation × `derivative` that breaches
the clause, evaluated, and its verdict set beside what the matrix (`library.reach`) expects.

One generator for `licheck licenses coverage` and tests/library/test_reach_matrix.py, so the
command and the test judge the same cells.

For every relation (unmodified copy served, redistributed, used in-house; fine-tuned, quantized,
merged; distilled, synthetic data, judge) a component is built that has that relation to a
catalog model under the clause's license, with facts that breach the clause: a violating
completion of its own rule (trigger, no exception, requirement failed), found over the facts the
component's structure leaves free.  The same facts are then judged with `derivative` true,
false and unstated.  Where the matrix says the clause reaches the relation, the verdict must be a
violation or a governance risk; where it does not, never a violation.  A cell for which no
breach can be written (the manifest cannot state it, or licheck refuses it) is not exercised.

Pure over the library given: the only memo is the `EvaluationContext` of one call (value-keyed
tables), never a global one.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from licheck.checks.settled import settled_facts
from licheck.core.context import EvaluationContext
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
from licheck.inputs.rules import CatalogModel, Relation
from licheck.library.compiled import CompiledClause, Library, incorporated
from licheck.library.reach import expects_reach
from licheck.vocabulary.names import FACTS

# The student a model's outputs are trained into, or the base another model is merged into:
# under a license of its own (Apache 2.0), never the licensed model.
DEFAULT_OTHER = "qwen3"
# Facts the manifest's structure decides, or the matrix's axes: never stated as breach facts.
NOT_STATED = frozenset(
    {name for name, d in FACTS.items() if d.implicit}
    | {"derivative", "outputs_generated_by_licensee", "multimodal"}
)
# Implicit facts licheck derives from a stated one: a completion is a breach a manifest can state
# only where the stated value gives the implicit one.  `license_declared` (the card declares
# some license) comes from `declared_license`; the engine's cell for "none of the licenses a
# clause names" is the empty set, so where the completion has a license declared, a license no
# clause names stands in for it (`_consistent` re-checks the outcome).
STAND_IN_LICENSE = "acme-open-license-v1"
DERIVATIVES: tuple[bool | None, ...] = (True, False, None)
MAX_COMBINATIONS = 20000  # completions of a rule tried before giving up on a breach
MAX_BREACHES = 8  # breaches tried per delivery before the next one
RELEASE = "2026-06-01"

_DELIVERIES: dict[Relation, list[list[str]]] = {
    Relation.SERVED: [["api"], ["hosted_service"], ["api", "hosted_service"]],
    Relation.REDISTRIBUTED: [["weights"], ["weights", "api"]],
    Relation.INTERNAL_USE: [[]],
}
_ANY_DELIVERY = [["weights", "api"], ["api"], ["hosted_service"], ["weights"], []]
_ROLES = {
    Relation.DISTILLED: "teacher",
    Relation.SYNTHETIC_DATA: "synthetic_data",
    Relation.JUDGE: "judge",
}
_BREACH = frozenset({Verdict.VIOLATION, Verdict.GOVERNANCE_RISK})


@dataclass(frozen=True, slots=True)
class JudgedCell:
    """One cell of the matrix exercised: the verdict its breach manifest gave."""

    license: str
    clause: str
    relation: Relation
    derivative: bool | None
    verdict: Verdict
    reaches: bool  # what the matrix says
    facts: Mapping[str, Any]  # the facts the manifest stated

    @property
    def contradicts(self) -> bool:
        """The verdict contradicts the matrix: a reached breach satisfied or not applicable,
        or a violation where the clause does not reach."""
        if self.reaches:
            return self.verdict not in _BREACH
        return self.verdict is Verdict.VIOLATION

    def describe(self) -> str:
        return (
            f"{self.license}/{self.clause} × {self.relation.value} × "
            f"derivative={self.derivative}: {self.verdict.value} where the matrix says "
            f"{'it reaches' if self.reaches else 'it does not reach'} (facts {dict(self.facts)})"
        )


@dataclass(frozen=True, slots=True)
class LicenseReach:
    """One license's matrix: its size and the cells exercised."""

    license: str
    cells: int  # clauses × relations × derivative values
    judged: tuple[JudgedCell, ...]
    unjudged_clauses: tuple[str, ...]  # clauses no cell of which could be exercised

    @property
    def tested(self) -> int:
        return len(self.judged)

    def count(self, verdict: Verdict) -> int:
        return sum(c.verdict is verdict for c in self.judged)

    @property
    def contradictions(self) -> tuple[JudgedCell, ...]:
        return tuple(c for c in self.judged if c.contradicts)


def matrix_size(library: Library, license_id: str) -> int:
    """How many clause × relation × derivative cells the license's matrix has."""
    return len(library.licenses[license_id].clauses) * len(Relation) * len(DERIVATIVES)


def license_reach(
    library: Library, license_id: str, context: EvaluationContext | None = None
) -> LicenseReach:
    """Every clause of the license judged over the matrix."""
    memo = context if context is not None else EvaluationContext()
    judged: list[JudgedCell] = []
    unjudged: list[str] = []
    for compiled in library.licenses[license_id].clauses:
        cells = clause_cells(library, license_id, compiled, memo)
        judged.extend(cells)
        if not cells:
            unjudged.append(compiled.clause.id)
    return LicenseReach(
        license_id, matrix_size(library, license_id), tuple(judged), tuple(unjudged)
    )


def clause_cells(
    library: Library,
    license_id: str,
    compiled: CompiledClause,
    context: EvaluationContext | None = None,
) -> tuple[JudgedCell, ...]:
    """The cells of one clause that a breach could be written for, judged."""
    memo = context if context is not None else EvaluationContext()
    found = model_for(library, license_id)
    if found is None:
        return ()
    model, obtained = found
    judge = _Judge(library, model, license_id, compiled.clause.id, memo)
    license_ = library.licenses[license_id].license
    cells: list[JudgedCell] = []
    for relation in Relation:
        breach = _breach_for(judge, compiled.rule, model, obtained, relation)
        if breach is None:
            continue  # no breach of the clause can be written for this relation
        component, facts = breach
        for derivative in DERIVATIVES:
            stated = dict(facts)
            if derivative is not None:
                stated["derivative"] = {"value": derivative}
            verdict = judge(component, stated)
            if verdict is None:
                continue
            reaches = expects_reach(license_, compiled.clause, relation, derivative)
            cells.append(
                JudgedCell(
                    license_id, compiled.clause.id, relation, derivative, verdict, reaches, stated
                )
            )
    return tuple(cells)


def _breach_for(
    judge: _Judge,
    rule: Rule,
    model: CatalogModel,
    obtained: str | None,
    relation: Relation,
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A component with `relation` to the model and breach facts licheck reads, or None."""
    for delivery in _DELIVERIES.get(relation, _ANY_DELIVERY):
        component = component_for(judge.library, model, obtained, relation, delivery)
        for tried, facts in enumerate(breaches(rule, _settled(component))):
            if tried >= MAX_BREACHES:
                break
            if judge(component, facts) is not None:
                return component, facts
    return None


def model_for(library: Library, license_id: str) -> tuple[CatalogModel, str | None] | None:
    """A catalog model whose copy is under `license_id` (or a license incorporating it), and the
    date it was obtained where its license changed over time (None: no history)."""
    # a model the catalog marks not multimodal switches off the clauses on multimodal models
    # (NVIDIA's "Built on NVIDIA Cosmos"): such models come last
    ranked = sorted(
        library.models,
        key=lambda m: (
            m.multimodal is False,
            bool(m.license_history),
            m.license != license_id,
            m.id,
        ),
    )
    for model in ranked:
        found = _under(library, model, license_id)
        if found is not None and (not model.license_history or found[1] is not None):
            return model, found[1]
    return None


def _under(library: Library, model: CatalogModel, license_id: str) -> tuple[str, str | None] | None:
    if model.license_history:
        for dated in model.license_history:
            if license_id in incorporated(library.licenses, dated.license):
                day = dated.until or dated.from_
                return dated.license, str(day) if day is not None else None
        return None
    if model.license and license_id in incorporated(library.licenses, model.license):
        return model.license, None
    return None


def _other_base(library: Library, model: CatalogModel) -> str:
    """A base under another license than the model's: the student trained on its outputs, or
    the model another is merged into."""
    for other in (DEFAULT_OTHER, "llama-3.1-8b"):
        found = library.model(other)
        if found is not None and found.id != model.id and found.license != model.license:
            return other
    raise LookupError(f"no base under another license than {model.id}'s in the catalog")


def component_for(
    library: Library,
    model: CatalogModel,
    obtained: str | None,
    relation: Relation,
    delivery: list[str],
) -> dict[str, Any]:
    """A manifest component with `relation` to `model`, delivered as `delivery`."""
    ref: dict[str, Any] = {"model": model.id}
    if obtained:
        ref["obtained"] = obtained
    lineage: dict[str, Any]
    if relation.unmodified:
        lineage = {"base": ref, "steps": []}
    elif relation is Relation.FINE_TUNED:
        lineage = {"base": ref, "steps": ["fine_tuning"]}
    elif relation is Relation.QUANTIZED:
        lineage = {"base": ref, "steps": ["quantization"]}
    elif relation is Relation.MERGED:
        lineage = {
            "base": _other_base(library, model),
            "steps": [{"kind": "merge", "parents": [ref]}],
        }
    else:
        lineage = {
            "base": _other_base(library, model),
            "steps": ["fine_tuning"],
            "trained_on_outputs_of": [{**ref, "role": _ROLES[relation]}],
        }
    return {"id": "c", "name": "C", "lineage": lineage, "delivery": delivery}


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


def breaches(rule: Rule, fixed: Mapping[str, Domain]) -> Iterator[dict[str, Any]]:
    """Violating completions of the clause's own rule, as facts a manifest can state (the facts
    in `fixed` are decided by the component and not stated)."""
    domains: dict[str, Domain] = {}
    for key in rule.facts():
        fact = key.split("@")[0]
        domains[key] = fixed.get(fact) or full_domain(FACTS[fact])
    cells = fact_cells(rule, domains)
    keys = list(cells)
    combinations = itertools.product(*(cells[k] for k in keys))
    for combo in itertools.islice(combinations, MAX_COMBINATIONS):
        values = {k: _plain(c.value, c.region) for k, c in zip(keys, combo, strict=True)}
        if rule.outcome(values) is not Outcome.FAILS:
            continue
        consistent = _consistent(rule, values)
        if consistent is None:
            continue
        stated = _stated(consistent, fixed)
        if stated is not None:
            yield stated


def _consistent(rule: Rule, values: dict[str, Any]) -> dict[str, Any] | None:
    """The completion with its implicit facts as the stated ones give them; None where no
    statement gives them."""
    declared = values.get("license_declared")
    if declared is None or "declared_license" not in values:
        return values
    if declared is bool(values["declared_license"]):
        return values
    if declared is False:
        return None
    repaired = {**values, "declared_license": frozenset({STAND_IN_LICENSE})}
    return repaired if rule.outcome(repaired) is Outcome.FAILS else None


def _stated(values: Mapping[str, Any], fixed: Mapping[str, Domain]) -> dict[str, Any] | None:
    """The manifest's facts for a completion; None where one cannot be written."""
    stated: dict[str, Any] = {}
    for key, value in values.items():
        fact, _, measured = key.partition("@")
        if fact in NOT_STATED or fact in fixed:
            continue
        written = _written(value, FACTS[fact].dimension)
        if written is None:
            return None
        entry = stated.setdefault(fact, {})
        if measured:
            entry["series"] = {"@": written}
        else:
            entry["value"] = written
    return stated


def _settled(component: dict[str, Any]) -> dict[str, Domain]:
    built = Component.model_validate(component)
    return {
        name: Booleans(frozenset({value})) for name, (value, _, _) in settled_facts(built).items()
    }


@dataclass(frozen=True, slots=True)
class _Judge:
    """The verdict one clause gets in a one-component manifest; None where licheck refuses the
    manifest (an input error) or a measured fact has no month to be measured in."""

    library: Library
    model: CatalogModel
    license_id: str
    clause_id: str
    context: EvaluationContext

    def __call__(self, component: dict[str, Any], facts: Mapping[str, Any]) -> Verdict | None:
        month = month_before(self.model.release_date) if self.model.release_date else None
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
                "release_date": RELEASE,
                "components": [{**component, "facts": shown}],
            }
        )
        try:
            result = evaluate_manifest(
                manifest,
                Document("reach.yaml", {}, {}),
                self.library,
                Options(POLICIES["default"]),
                self.context,
            )
        except InputError:
            return None
        for finding in result.findings:
            if (finding.license, finding.clause, finding.model) == (
                self.license_id,
                self.clause_id,
                self.model.id,
            ):
                return finding.verdict
        return Verdict.NOT_APPLICABLE  # no finding: the license does not bind the component
