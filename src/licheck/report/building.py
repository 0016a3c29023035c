"""The report built from the evaluation's results.

Each product's part is built as plain data, exactly what `model_dump(mode="json")` of its model
(`report.view`, the published schema) gives — tests hold the two equal, and the JSON report to
its schema: the JSON report is this data encoded once, and the other formats read the models
validated from it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from licheck.core.verdicts import RiskKind, Settlement, Verdict
from licheck.evaluation.evaluate import ComponentLineage, Finding, MissingFact, ProductResult
from licheck.facts.resolution import FactState, Status, shared
from licheck.files.jsontext import Lasting
from licheck.report.explain import explain, fact_scope, not_applicable_reason, value_text
from licheck.report.view import ProductOut, Report, assemble
from licheck.vocabulary.names import CONDUCT

Data = dict[str, Any]


class ReportMemo:
    """Per-run memo of the report parts that depend only on the evaluation's long-lived objects
    (the facts licheck supplies, the judgements' settlements), and of their text, found by the
    object's identity: each entry keeps its key's object alive, so the id is not reused while it
    exists.  Owned by the caller — one per run, or one per worker process; bounded."""

    def __init__(self, limit: int = 1024) -> None:
        self.limit = limit
        self.lasting = Lasting(limit * 4)  # the parts kept, and their text
        self._facts: dict[int, tuple[FactState, Data]] = {}
        self._settled: dict[int, tuple[tuple[Settlement, ...], list[Data]]] = {}

    def fact(self, state: FactState) -> Data | None:
        found = self._facts.get(id(state))
        return found[1] if found is not None else None

    def keep_fact(self, state: FactState, part: Data) -> None:
        if len(self._facts) >= self.limit:
            self._facts.clear()
        self._facts[id(state)] = (state, self.lasting.keep(part))

    def settled(self, settlements: tuple[Settlement, ...]) -> list[Data]:
        found = self._settled.get(id(settlements))
        if found is not None:
            return list(found[1])
        parts = [
            self.lasting.keep(
                {
                    "verdict": s.verdict.value,
                    "when": [{"fact": f, "value": v} for f, v in s.when],
                }
            )
            for s in settlements
        ]
        if len(self._settled) >= self.limit:
            self._settled.clear()
        self._settled[id(settlements)] = (settlements, parts)
        return list(parts)


Local = dict[object, Data]  # one product's parts by identity: dropped with the product


def _fact(state: FactState, memo: ReportMemo, local: Local) -> Data:
    found = local.get(id(state))
    if found is not None:
        return found
    lasting = shared(state)
    if lasting:
        kept = memo.fact(state)
        if kept is not None:
            local[id(state)] = kept
            return kept
    fact = local[id(state)] = {
        "name": state.name,
        "status": state.status.value,
        # money in the fact's own period: ARR per year, not a twelfth of it per month
        "value": value_text(state, state.domain),
        "stated": state.shown,
        "likely": value_text(state, state.likely) if state.likely is not None else None,
        "note": state.note,
        "written": state.written,
        "scope": fact_scope(state),
        "evidence": [
            {
                "source": e.source,
                "kind": e.kind.value,
                # as written: a month or a year stays one (`2025-06`), not its last day
                "date": str(e.date) if e.date else None,
                "url": e.url,
                "retracted_on": str(e.retracted_on) if e.retracted_on else None,
                "note": e.note,
                "claims": e.claim,
                "counted": e.counted,
            }
            for e in state.evidence
        ],
    }
    if lasting:
        memo.keep_fact(state, fact)
    return fact


def _missing(missing: MissingFact, local: Local) -> Data:
    key = (id(missing.fact), id(missing.outcomes))
    found = local.get(key)
    if found is not None:
        return found
    fact = missing.fact
    out = local[key] = {
        "fact": fact.name,
        "status": fact.status.value,
        "likely": value_text(fact, fact.likely) if fact.likely is not None else None,
        "decides_alone": len({b.verdict for b in missing.outcomes}) > 1,
        "outcomes": [{"when": b.when, "verdict": b.verdict.value} for b in missing.outcomes],
    }
    return out


def risk_kind(finding: Finding) -> RiskKind | None:
    """A governance risk's kind: `attestation` when conduct facts nobody stated
    (`vocabulary.CONDUCT`) settle it without a violation, the others as they are (a smallest
    settling set of them alone, or every missing fact one of them): an attestation can close
    it.  Else `evidence` (the product's record: a figure, the UI, the lineage, an agreement
    missing, weak or disputed, or an unknown license).  None for any other verdict."""
    if finding.verdict is not Verdict.GOVERNANCE_RISK:
        return None
    missing = finding.missing_facts
    unstated = {m.fact.name for m in missing if m.fact.status is Status.UNKNOWN} & CONDUCT
    if missing and all(m.fact.name in unstated for m in missing):
        return RiskKind.ATTESTATION
    settles = any(
        s.verdict is not Verdict.VIOLATION and all(fact in unstated for fact, _ in s.when)
        for s in finding.settled_by
        if s.when
    )
    return RiskKind.ATTESTATION if settles else RiskKind.EVIDENCE


def _finding(finding: Finding, memo: ReportMemo, local: Local) -> Data:
    """The report's finding (`FindingOut`): the evaluation's fields under their own names, in
    their order (but `NOT_REPORTED`), then what the report adds (`REPORTED_ONLY`)."""
    location = finding.location
    return {
        "component": finding.component,
        "model": finding.model,
        "model_name": finding.model_name,
        "license": finding.license,
        "license_name": finding.license_name,
        "clause": finding.clause,
        "title": finding.title,
        "kind": finding.kind,
        "quote": finding.quote,
        "provenance": finding.provenance,
        "verdict": finding.verdict.value,
        "likely_verdict": finding.likely_verdict.value,
        "binds": finding.binds.value,
        "triggered": finding.triggered.value,
        "requirement": finding.requirement.value,
        "exception": finding.exception.value,
        "explanation": explain(finding),
        "location": {"file": location.file, "line": location.line, "column": location.column},
        "facts": [_fact(s, memo, local) for s in finding.facts],
        "missing_facts": [_missing(m, local) for m in finding.missing_facts],
        "settled_by": memo.settled(finding.settled_by) if finding.settled_by else [],
        "risk_kind": _value(risk_kind(finding)),
        "reason": not_applicable_reason(finding),
        "waived": False,
        "waiver": None,
        "baseline": None,
    }


def _value(kind: RiskKind | None) -> str | None:
    return kind.value if kind is not None else None


def product_data(result: ProductResult, memo: ReportMemo) -> Data:
    """One product of the report as plain data (what `ProductOut` validates)."""
    counts = {v.value: 0 for v in Verdict}
    for f in result.findings:
        counts[f.verdict.value] += 1
    counts["waived"] = 0
    counts["to_attest"] = sum(risk_kind(f) is RiskKind.ATTESTATION for f in result.findings)
    local: Local = {}  # the evaluation's objects live as long as `result`: ids stay unique
    return {
        "product": result.product,
        "owner": result.owner,
        "file": result.file,
        "verdict": result.verdict.value,
        "counts": counts,
        "findings": [_finding(f, memo, local) for f in result.findings],
        "components": [_component(c) for c in result.components],
    }


def _component(component: ComponentLineage) -> Data:
    return {
        "id": component.id,
        "name": component.name,
        "delivery": list(component.delivery),
        "steps": list(component.steps),
        "models": [
            {"model": m.model, "name": m.name, "role": m.role, "status": m.status, "step": m.step}
            for m in component.models
        ],
    }


def product_out(result: ProductResult, memo: ReportMemo | None = None) -> ProductOut:
    """One product of the report (a portfolio builds these in its worker processes)."""
    return ProductOut.model_validate(product_data(result, memo or ReportMemo()))


def build(results: Sequence[ProductResult], policy: str, as_of: dt.date | None) -> Report:
    """The report of evaluated products, in memory."""
    memo = ReportMemo()
    return assemble([product_out(result, memo) for result in results], policy, as_of)
