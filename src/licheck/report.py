"""The report: one view-model that every output format renders, and the exit-status policy.

The JSON report is this model dumped as is; its JSON Schema is published (`licheck schema
report`).  Everything is sorted and free of timestamps and absolute paths, so the same inputs give
byte-identical output.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from licheck import __version__
from licheck.evaluation import Finding, MissingFact, ProductResult
from licheck.explain import explain
from licheck.facts import FactState, shared
from licheck.jsontext import Lasting, dumps
from licheck.verdicts import Settlement, Verdict

SCHEMA_VERSION = "1.0"


class _Model(BaseModel):
    # Built lazily: a JSON report is written from plain data, and never needs the validators.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class EvidenceOut(_Model):
    source: str
    kind: str
    date: str | None
    url: str | None
    retracted_on: str | None
    note: str | None
    claims: str | None
    counted: str


class FactOut(_Model):
    name: str
    status: Literal["established", "likely", "disputed", "unknown"]
    value: str  # what the verdict relies on ("unknown" when not established)
    stated: str  # as the manifest states it
    likely: str | None
    note: str | None
    evidence: list[EvidenceOut]


class OutcomeOut(_Model):
    when: str
    verdict: Verdict


class OutcomeCondition(_Model):
    fact: str
    value: str


class MissingFactOut(_Model):
    fact: str
    status: Literal["likely", "disputed", "unknown", "established"]
    likely: str | None
    decides_alone: bool
    outcomes: list[OutcomeOut]


class SettlementOut(_Model):
    verdict: Verdict
    when: list[OutcomeCondition]


class LocationOut(_Model):
    file: str
    line: int
    column: int


class FindingOut(_Model):
    component: str
    model: str
    model_name: str
    license: str
    license_name: str
    clause: str
    title: str
    kind: str
    quote: str | None
    provenance: str
    verdict: Verdict
    likely_verdict: Verdict
    binds: Literal["yes", "no", "depends"]
    triggered: Literal["yes", "no", "depends"]
    requirement: Literal["holds", "fails", "depends", "not reached"]
    exception: Literal["yes", "no", "depends"]
    explanation: str
    location: LocationOut
    facts: list[FactOut]
    missing_facts: list[MissingFactOut]
    settled_by: list[SettlementOut]
    waived: bool = False  # an applying waiver accepts it: it does not count toward --fail-on
    waiver: WaiverRef | None = None  # the waiver that names it (applied, or why it no longer is)


class WaiverRef(_Model):
    """The waiver that names a finding, and whether it applies."""

    id: str
    status: Literal["applied", "expired", "pins_changed"]
    reason: str
    owner: str
    expires: str
    comment: str
    file: str
    line: int
    message: str


class Counts(_Model):
    violation: int = 0
    governance_risk: int = 0
    satisfied: int = 0
    not_applicable: int = 0
    waived: int = 0  # violations and governance risks accepted by a waiver (also counted above)


class WaiverStatus(_Model):
    """What one waiver of the waiver file did in this run."""

    id: str
    file: str
    line: int
    column: int
    status: Literal["applied", "expired", "pins_changed", "unmatched", "not_needed"]
    message: str
    findings: list[str]  # the findings it names, as file#component/license/clause


class Summary(_Model):
    products: int
    findings: int
    counts: Counts
    gate_verdict: Verdict  # the worst finding that is not waived: what --fail-on compares


class ProductOut(_Model):
    product: str
    owner: str
    file: str
    verdict: Verdict
    counts: Counts
    findings: list[FindingOut]


class Report(_Model):
    schema_version: Literal["1.0"] = "1.0"
    tool: str = "licheck"
    tool_version: str = __version__
    evidence_policy: str
    as_of: str | None
    verdict: Verdict  # the worst finding, waived or not
    summary: Summary
    products: list[ProductOut]
    waivers: list[WaiverStatus] = []


# -- the report's data ---------------------------------------------------------------------------
# Each part is built as plain data, exactly what `model_dump(mode="json")` of its model gives (tests
# hold the two equal, and the JSON report to its published schema): the JSON report is this data
# encoded once, and the other formats read the models validated from it.

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
                    "when": [{"fact": f, "value": v} for f, v in s.conditions],
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
        "value": str(state.domain),
        "stated": state.shown,
        "likely": str(state.likely) if state.likely is not None else None,
        "note": state.note,
        "evidence": [
            {
                "source": e.source,
                "kind": e.kind.value,
                "date": e.date.isoformat() if e.date else None,
                "url": e.url,
                "retracted_on": e.retracted_on.isoformat() if e.retracted_on else None,
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
    key = (id(missing.fact), id(missing.branches))
    found = local.get(key)
    if found is not None:
        return found
    fact = missing.fact
    out = local[key] = {
        "fact": fact.name,
        "status": fact.status.value,
        "likely": str(fact.likely) if fact.likely is not None else None,
        "decides_alone": len({b.verdict for b in missing.branches}) > 1,
        "outcomes": [{"when": b.label, "verdict": b.verdict.value} for b in missing.branches],
    }
    return out


def _finding(finding: Finding, file: str, memo: ReportMemo, local: Local) -> Data:
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
        "binds": finding.scope,
        "triggered": finding.trigger,
        "requirement": finding.requirement,
        "exception": finding.exception,
        "explanation": explain(finding),
        "location": {"file": file, "line": finding.line, "column": finding.column},
        "facts": [_fact(s, memo, local) for s in finding.facts],
        "missing_facts": [_missing(m, local) for m in finding.missing],
        "settled_by": memo.settled(finding.settlements) if finding.settlements else [],
        "waived": False,
        "waiver": None,
    }


def product_data(result: ProductResult, memo: ReportMemo) -> Data:
    """One product of the report as plain data (what `ProductOut` validates)."""
    counts = {v.value: 0 for v in Verdict}
    for f in result.findings:
        counts[f.verdict.value] += 1
    counts["waived"] = 0
    local: Local = {}  # the evaluation's objects live as long as `result`: ids stay unique
    return {
        "product": result.product,
        "owner": result.owner,
        "file": result.file,
        "verdict": result.verdict.value,
        "counts": counts,
        "findings": [_finding(f, result.file, memo, local) for f in result.findings],
    }


def product_out(result: ProductResult, memo: ReportMemo | None = None) -> ProductOut:
    """One product of the report (a portfolio builds these in its worker processes)."""
    return ProductOut.model_validate(product_data(result, memo or ReportMemo()))


def build(results: Sequence[ProductResult], policy: str, as_of: dt.date | None) -> Report:
    memo = ReportMemo()
    return assemble([product_out(result, memo) for result in results], policy, as_of)


def assemble(products: list[ProductOut], policy: str, as_of: dt.date | None) -> Report:
    """The report of products already built."""
    verdict = max(
        (p.verdict for p in products), key=lambda v: v.severity, default=Verdict.NOT_APPLICABLE
    )
    return Report(
        evidence_policy=policy,
        as_of=as_of.isoformat() if as_of else None,
        verdict=verdict,
        summary=summarize(products),
        products=products,
    )


def summarize(products: Sequence[ProductOut]) -> Summary:
    """Totals over every product; the gate verdict leaves waived findings out."""
    totals = dict.fromkeys(Counts.model_fields, 0)
    gate = Verdict.NOT_APPLICABLE
    findings = 0
    for product in products:
        for key in totals:
            totals[key] += getattr(product.counts, key)
        for finding in product.findings:
            findings += 1
            if not finding.waived and finding.verdict.severity > gate.severity:
                gate = finding.verdict
    return Summary(
        products=len(products), findings=findings, counts=Counts(**totals), gate_verdict=gate
    )


def to_json(report: Report) -> str:
    """The report as `json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False)`
    writes it, plus a line break."""
    return dumps(report.model_dump(mode="json")).text + "\n"


class FailOn(StrEnum):
    VIOLATION = "violation"
    RISK = "risk"
    NEVER = "never"


def fails(verdict: Verdict, fail_on: FailOn) -> bool:
    """Whether a finding of this verdict (not waived) is at or above the policy."""
    if fail_on is FailOn.NEVER:
        return False
    floor = Verdict.VIOLATION if fail_on is FailOn.VIOLATION else Verdict.GOVERNANCE_RISK
    return verdict.severity >= floor.severity


def exit_code(report: Report, fail_on: FailOn) -> int:
    """0 when no finding that is not waived is at or above the policy, 1 otherwise."""
    return 1 if fails(report.summary.gate_verdict, fail_on) else 0
