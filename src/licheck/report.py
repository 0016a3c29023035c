"""The report: one view-model that every output format renders, and the exit-status policy.

The JSON report is this model dumped as is; its JSON Schema is published (`licheck schema
report`).  Everything is sorted and free of timestamps and absolute paths, so the same inputs give
byte-identical output.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from enum import StrEnum
from json.encoder import encode_basestring
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from licheck import __version__
from licheck.evaluation import Finding, MissingFact, ProductResult
from licheck.explain import explain
from licheck.facts import FactState, shared
from licheck.verdicts import Settlement, Verdict

SCHEMA_VERSION = "1.0"


class _Model(BaseModel):
    # Built lazily: licheck makes its report with `_make` and encodes it itself, so most runs
    # never need the validators (schemas, `Counts(...)` in waivers build them on first use).
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


_M = TypeVar("_M", bound=BaseModel)
_new = object.__new__
_set = object.__setattr__


def _make(cls: type[_M], **fields: Any) -> _M:
    """A report model from licheck's own data, every field given, without validation (what
    `model_construct` does, minus its per-field work): validating the ~80 objects of a product
    cost about as much as evaluating it.  Tests hold the result equal to the validated model
    and the JSON report to its published schema."""
    model = _new(cls)
    _set(model, "__dict__", fields)
    _set(model, "__pydantic_fields_set__", set(fields))
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    return model


# The parts of the report that depend only on an immutable object of the evaluation are made once
# per object, found by its identity: a component's findings share fact states, findings with the
# same judgement share its branches and settlements.  Within a product they are kept in `local`
# (dropped with the product: young objects are cheap for the garbage collector).  Only parts of
# objects that outlive products (the facts licheck supplies, the judgements' settlements) are
# kept across products: each entry keeps its key's object alive (so the id is not reused while it
# exists); bounded.
_CACHE_LIMIT = 1024
_FACTS: dict[int, tuple[FactState, FactOut]] = {}
_SETTLED: dict[int, tuple[tuple[Settlement, ...], list[SettlementOut]]] = {}
_LASTING: dict[int, BaseModel] = {}  # the parts those caches hold: their text is kept too
Local = dict[object, Any]


def _lasting(part: _M) -> _M:
    if len(_LASTING) >= _CACHE_LIMIT * 4:
        _LASTING.clear()
        _TEXT.clear()
    _LASTING[id(part)] = part
    return part


def _fact(state: FactState, local: Local) -> FactOut:
    found = local.get(id(state))
    if found is not None:
        return found  # type: ignore[no-any-return]
    lasting = shared(state)
    if lasting and id(state) in _FACTS:
        fact = local[id(state)] = _FACTS[id(state)][1]
        return fact
    fact = local[id(state)] = _make(
        FactOut,
        name=state.name,
        status=state.status.value,
        value=str(state.domain),
        stated=state.shown,
        likely=str(state.likely) if state.likely is not None else None,
        note=state.note,
        evidence=[
            _make(
                EvidenceOut,
                source=e.source,
                kind=e.kind.value,
                date=e.date.isoformat() if e.date else None,
                url=e.url,
                retracted_on=e.retracted_on.isoformat() if e.retracted_on else None,
                note=e.note,
                claims=e.claim,
                counted=e.counted,
            )
            for e in state.evidence
        ],
    )
    if lasting:
        if len(_FACTS) >= _CACHE_LIMIT:
            _FACTS.clear()
        _FACTS[id(state)] = (state, _lasting(fact))
    return fact


def _missing(missing: MissingFact, local: Local) -> MissingFactOut:
    key = (id(missing.fact), id(missing.branches))
    found = local.get(key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    fact = missing.fact
    out = local[key] = _make(
        MissingFactOut,
        fact=fact.name,
        status=fact.status.value,
        likely=str(fact.likely) if fact.likely is not None else None,
        decides_alone=len({b.verdict for b in missing.branches}) > 1,
        outcomes=[_make(OutcomeOut, when=b.label, verdict=b.verdict) for b in missing.branches],
    )
    return out


def _settled(settlements: tuple[Settlement, ...]) -> list[SettlementOut]:
    if not settlements:
        return []
    found = _SETTLED.get(id(settlements))
    if found is not None:
        return list(found[1])
    out = [
        _lasting(
            _make(
                SettlementOut,
                verdict=s.verdict,
                when=[_make(OutcomeCondition, fact=f, value=v) for f, v in s.conditions],
            )
        )
        for s in settlements
    ]
    if len(_SETTLED) >= _CACHE_LIMIT:
        _SETTLED.clear()
    _SETTLED[id(settlements)] = (settlements, out)
    return list(out)


def _finding(finding: Finding, file: str, local: Local) -> FindingOut:
    return _make(
        FindingOut,
        component=finding.component,
        model=finding.model,
        model_name=finding.model_name,
        license=finding.license,
        license_name=finding.license_name,
        clause=finding.clause,
        title=finding.title,
        kind=finding.kind,
        quote=finding.quote,
        provenance=finding.provenance,
        verdict=finding.verdict,
        likely_verdict=finding.likely_verdict,
        binds=finding.scope,
        triggered=finding.trigger,
        requirement=finding.requirement,
        exception=finding.exception,
        explanation=explain(finding),
        location=_make(LocationOut, file=file, line=finding.line, column=finding.column),
        facts=[_fact(s, local) for s in finding.facts],
        missing_facts=[_missing(m, local) for m in finding.missing],
        settled_by=_settled(finding.settlements),
        waived=False,
        waiver=None,
    )


def product_out(result: ProductResult) -> ProductOut:
    """One product of the report (a portfolio builds these in its worker processes)."""
    counts = {v.value: 0 for v in Verdict}
    for f in result.findings:
        counts[f.verdict.value] += 1
    local: Local = {}  # the evaluation's objects live as long as `result`: ids stay unique
    return _make(
        ProductOut,
        product=result.product,
        owner=result.owner,
        file=result.file,
        verdict=result.verdict,
        counts=_make(Counts, **counts, waived=0),
        findings=[_finding(f, result.file, local) for f in result.findings],
    )


def build(results: Sequence[ProductResult], policy: str, as_of: dt.date | None) -> Report:
    return assemble([product_out(result) for result in results], policy, as_of)


def assemble(products: list[ProductOut], policy: str, as_of: dt.date | None) -> Report:
    """The report of products already built."""
    verdict = max(
        (p.verdict for p in products), key=lambda v: v.severity, default=Verdict.NOT_APPLICABLE
    )
    return _make(
        Report,
        schema_version=SCHEMA_VERSION,
        tool="licheck",
        tool_version=__version__,
        evidence_policy=policy,
        as_of=as_of.isoformat() if as_of else None,
        verdict=verdict,
        summary=summarize(products),
        products=products,
        waivers=[],
    )


def summarize(products: Sequence[ProductOut]) -> Summary:
    """Totals over every product; the gate verdict leaves waived findings out."""
    totals = dict.fromkeys(Counts.model_fields, 0)
    gate = Verdict.NOT_APPLICABLE
    findings = 0
    for product in products:
        counts = product.counts.__dict__
        for key in totals:
            totals[key] += counts[key]
        for finding in product.findings:
            findings += 1
            if not finding.waived and finding.verdict.severity > gate.severity:
                gate = finding.verdict
    return _make(
        Summary,
        products=len(products),
        findings=findings,
        counts=_make(Counts, **totals),
        gate_verdict=gate,
    )


def to_json(report: Report) -> str:
    """The report as `json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False)`
    writes it, byte for byte, written straight from the models (no dump is built, and the
    standard encoder falls back to pure Python with indent)."""
    parts: list[str] = []
    _encode_model(report, "\n", parts, {})
    parts.append("\n")
    return "".join(parts)


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
    _encode_model(product, newline, parts, {})
    return "".join(parts)


# The JSON of a model straight from its fields, as `model_dump(mode="json")` then `json.dumps(...,
# indent=2, ensure_ascii=False)` would write it (tests hold the two equal): no dump is built.  The
# report's fields are strings, string enums, ints, booleans, None, lists and models only.
_PREFIXES: dict[tuple[type[BaseModel], str], tuple[tuple[str, str], ...]] = {}
# The text of the parts shared by identity (see `_FACTS`), by identity and indent: those of one
# report or product in `seen`, those kept across products (`_LASTING`, which keeps them alive)
# here.
_SHARED = (FactOut, MissingFactOut, SettlementOut)
_TEXT: dict[tuple[int, str], str] = {}


def _prefixes(cls: type[BaseModel], newline: str) -> tuple[tuple[str, str], ...]:
    """Each field's name and what precedes its value at this indent: `{` or `,`, the line
    break and indent, the key and its separator."""
    found = _PREFIXES.get((cls, newline))
    if found is None:
        inner = newline + "  "
        found = _PREFIXES[(cls, newline)] = tuple(
            (name, ("{" if i == 0 else ",") + inner + encode_basestring(name) + ": ")
            for i, name in enumerate(cls.model_fields)
        )
    return found


def _encode_model(
    model: BaseModel, newline: str, parts: list[str], seen: dict[tuple[int, str], str]
) -> None:
    fields = model.__dict__
    inner = newline + "  "
    prefixes = _prefixes(type(model), newline)
    append = parts.append
    for name, prefix in prefixes:
        value = fields[name]
        if isinstance(value, str):  # also the string enums (Verdict), as their value
            append(prefix + encode_basestring(value))
        elif value is None:
            append(prefix + "null")
        elif value is True:
            append(prefix + "true")
        elif value is False:
            append(prefix + "false")
        elif type(value) is int:
            append(prefix + int.__repr__(value))
        elif type(value) is list:
            append(prefix)
            _encode_list(value, inner, parts, seen)
        elif isinstance(value, BaseModel):
            append(prefix)
            _encode_model(value, inner, parts, seen)
        else:  # pragma: no cover - no other type occurs in the report's models
            raise TypeError(f"cannot encode {type(value).__name__} in {type(model).__name__}")
    parts.append(newline + "}" if prefixes else "{}")


def _encode_list(
    values: list[Any], newline: str, parts: list[str], seen: dict[tuple[int, str], str]
) -> None:
    if not values:
        parts.append("[]")
        return
    inner = newline + "  "
    opening = "[" + inner
    for value in values:
        parts.append(opening)
        opening = "," + inner
        if isinstance(value, str):
            parts.append(encode_basestring(value))
        elif isinstance(value, _SHARED):
            key = (id(value), inner)
            text = seen.get(key) or _TEXT.get(key)
            if text is None:
                piece: list[str] = []
                _encode_model(value, inner, piece, seen)
                text = seen[key] = "".join(piece)
                if id(value) in _LASTING:
                    _TEXT[key] = text
            parts.append(text)
        elif isinstance(value, BaseModel):
            _encode_model(value, inner, parts, seen)
        else:  # pragma: no cover - the report's lists hold strings and models only
            raise TypeError(f"cannot encode a list of {type(value).__name__}")
    parts.append(newline + "]")
