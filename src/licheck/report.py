"""The report: one view-model that every output format renders, and the exit-status policy.

The JSON report is this model dumped as is; its JSON Schema is published (`licheck schema
report`).  Everything is sorted and free of timestamps and absolute paths, so the same inputs give
byte-identical output.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from enum import StrEnum
from json.encoder import encode_basestring
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from licheck import __version__
from licheck.engine import Verdict
from licheck.evaluation import Finding, ProductResult
from licheck.explain import explain
from licheck.facts import FactState

SCHEMA_VERSION = "1.0"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


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


def _fact(state: FactState) -> FactOut:
    return FactOut(
        name=state.name, status=state.status.value, value=str(state.domain), stated=state.shown,
        likely=str(state.likely) if state.likely is not None else None, note=state.note,
        evidence=[
            EvidenceOut(source=e.source, kind=e.kind.value,
                        date=e.date.isoformat() if e.date else None, url=e.url,
                        retracted_on=e.retracted_on.isoformat() if e.retracted_on else None,
                        note=e.note, claims=e.claim, counted=e.counted)
            for e in state.evidence
        ],
    )


def _finding(
    finding: Finding, file: str, shared: dict[int, FactOut] | None = None
) -> FindingOut:
    """`shared`: the facts already shown for the product, by state: the findings of a
    component share their fact states, and their (frozen) parts of the report are shared too."""
    if shared is None:
        shared = {}
    return FindingOut(
        component=finding.component, model=finding.model, model_name=finding.model_name,
        license=finding.license, license_name=finding.license_name, clause=finding.clause,
        title=finding.title, kind=finding.kind, quote=finding.quote,
        provenance=finding.provenance, verdict=finding.verdict,
        likely_verdict=finding.likely_verdict, binds=finding.scope,
        triggered=finding.trigger, requirement=finding.requirement,
        exception=finding.exception,
        explanation=explain(finding),
        location=LocationOut(file=file, line=finding.line, column=finding.column),
        facts=[shared.get(id(s)) or shared.setdefault(id(s), _fact(s)) for s in finding.facts],
        missing_facts=[
            MissingFactOut(
                fact=m.fact.name, status=m.fact.status.value,
                likely=str(m.fact.likely) if m.fact.likely is not None else None,
                decides_alone=len({b.verdict for b in m.branches}) > 1,
                outcomes=[OutcomeOut(when=b.label, verdict=b.verdict) for b in m.branches])
            for m in finding.missing
        ],
        settled_by=[
            SettlementOut(verdict=s.verdict, when=[OutcomeCondition(fact=f, value=v)
                                                   for f, v in s.conditions])
            for s in finding.settlements
        ],
    )


def product_out(result: ProductResult) -> ProductOut:
    """One product of the report (a portfolio builds these in its worker processes)."""
    counts = {v.value: 0 for v in Verdict}
    for f in result.findings:
        counts[f.verdict.value] += 1
    shared: dict[int, FactOut] = {}  # the states live as long as `result`: ids stay unique
    return ProductOut(
        product=result.product, owner=result.owner, file=result.file,
        verdict=result.verdict, counts=Counts(**counts),
        findings=[_finding(f, result.file, shared) for f in result.findings])


def build(results: Sequence[ProductResult], policy: str, as_of: dt.date | None) -> Report:
    return assemble([product_out(result) for result in results], policy, as_of)


def assemble(products: list[ProductOut], policy: str, as_of: dt.date | None) -> Report:
    """The report of products already built."""
    verdict = max((p.verdict for p in products), key=lambda v: v.severity,
                  default=Verdict.NOT_APPLICABLE)
    return Report(evidence_policy=policy, as_of=as_of.isoformat() if as_of else None,
                  verdict=verdict, summary=summarize(products), products=products)


def summarize(products: Sequence[ProductOut]) -> Summary:
    """Totals over every product; the gate verdict leaves waived findings out."""
    totals = dict.fromkeys(Counts.model_fields, 0)
    gate = Verdict.NOT_APPLICABLE
    findings = 0
    for product in products:
        for key, value in product.counts.model_dump().items():
            totals[key] += value
        for finding in product.findings:
            findings += 1
            if not finding.waived and finding.verdict.severity > gate.severity:
                gate = finding.verdict
    return Summary(products=len(products), findings=findings, counts=Counts(**totals),
                   gate_verdict=gate)


def to_json(report: Report) -> str:
    """The report as `json.dumps(..., indent=2, ensure_ascii=False)` writes it, byte for byte, by
    an encoder about twice as fast (the standard one falls back to pure Python with indent)."""
    # Product by product, so that no dump of the whole report is ever held: for a large
    # portfolio that dump is several times the size of the text.
    top = report.model_dump(mode="json", exclude={"products"})
    top = {name: _PRODUCTS if name == "products" else top[name]
           for name in type(report).model_fields}
    parts: list[str] = []
    _encode(top, "\n", parts, report.products)
    parts.append("\n")
    return "".join(parts)


_PRODUCTS = object()  # where the products go in the report's fields


def _encode_products(products: list[ProductOut], newline: str, parts: list[str]) -> None:
    if not products:
        parts.append("[]")
        return
    inner = newline + "  "
    opening = "["
    for product in products:
        parts.append(opening + inner + encode_product(product, inner))
        opening = ","
    parts.append(newline + "]")


def _encode(
    value: Any, newline: str, parts: list[str], products: list[ProductOut] | None = None
) -> None:
    kind = type(value)
    if value is _PRODUCTS and products is not None:
        _encode_products(products, newline, parts)
    elif kind is str:
        parts.append(encode_basestring(value))
    elif kind is dict or (kind is not list and isinstance(value, dict)):
        if not value:
            parts.append("{}")
            return
        inner = newline + "  "
        opening = "{"
        for key, item in value.items():
            parts.append(f"{opening}{inner}{encode_basestring(str(key))}: ")
            opening = ","
            _encode(item, inner, parts, products)
        parts.append(newline + "}")
    elif kind is list or isinstance(value, list | tuple):
        if not value:
            parts.append("[]")
            return
        inner = newline + "  "
        opening = "["
        for item in value:
            parts.append(opening + inner)
            opening = ","
            _encode(item, inner, parts)
        parts.append(newline + "]")
    else:  # numbers, booleans, null: exactly as json writes them
        parts.append(json.dumps(value))


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


def encode_product(product: ProductOut, newline: str) -> str:
    """One product as `to_json` writes it inside the report's `products` array: the text after
    the opening `[` or `,` and the indent, where `newline` is the line break and indent of the
    product's own level (`"\\n    "` in the report).  Workers of a portfolio encode their products
    with this and the parent only joins the texts."""
    parts: list[str] = []
    _encode(product.model_dump(mode="json"), newline, parts)
    return "".join(parts)
